"""Row arrays that grow and shrink in place: rows appended into spare room of a buffer
made here, a removed row's place taken by the last row.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from functools import partial
from typing import Any

import numpy as np
from numpy.typing import NDArray

LISTED_ROWS = 16
"""Up to this many rows added at once go to :func:`appended` as lists: for a few rows
the arrays made from them first cost more than numpy's own conversion."""


def swap_removed(array: NDArray[Any], row: int) -> NDArray[Any]:
    """``array`` without ``row``, whose place the last row takes (a view, nothing shifted).

    >>> swap_removed(np.array([10, 11, 12, 13]), 1).tolist()
    [10, 13, 12]
    """
    array[row] = array[-1]
    return array[:-1]


def appended(array: NDArray[Any], new: NDArray[Any] | Sequence[Any]) -> NDArray[Any]:
    """``array`` with the rows ``new`` after it: written into the spare rows of the
    buffer ``array`` starts when it has room, else into a new buffer twice the size
    (adding one row at a time copies each row a constant number of times, amortized).
    A few rows may come as a list (of values, or of sequences for a 2-d ``array``):
    numpy writes it without the array that making one first would cost.

    Only a buffer this function made is grown into, so callers must not keep views of
    its rows past ``array`` (:func:`swap_removed` leaves the dropped row there).

    >>> grown = appended(np.array([1, 2]), np.array([3]))
    >>> again = appended(grown, np.array([4]))
    >>> again.tolist(), again.base is grown.base
    ([1, 2, 3, 4], True)
    >>> appended(np.arange(8)[:2], np.array([9])).tolist()  # not a buffer made here
    [0, 1, 9]
    >>> appended(np.zeros((1, 2)), [(1.0, 2.0)]).tolist()
    [[0.0, 0.0], [1.0, 2.0]]
    """
    n, m = len(array), len(new)
    base = _buffer_of(array)
    if base is not None and len(base) >= n + m:
        grown = base[: n + m]
    else:
        buffer = np.empty((max(2 * (n + m), 16), *array.shape[1:]), dtype=array.dtype)
        _BUFFERS[id(buffer)] = weakref.ref(buffer, partial(_forget, _BUFFERS, id(buffer)))
        grown = buffer[: n + m]
        grown[:n] = array
    if m == 1:
        grown[n] = new[0]  # (an item store costs less than a slice's)
    elif m:  # (an empty list has no rows' shape to broadcast)
        grown[n:] = new
    return grown


_BUFFERS: dict[int, weakref.ref[NDArray[Any]]] = {}
"""Weak references to the buffers :func:`appended` made, by ``id`` (arrays are not
hashable; a plain dict and a call of the reference cost a fraction of a
``WeakValueDictionary`` lookup, which every append of a row makes)."""


def _forget(
    buffers: dict[int, weakref.ref[NDArray[Any]]], key: int, ref: weakref.ref[NDArray[Any]]
) -> None:
    """Weak-reference callback: drop a freed buffer's entry from ``buffers`` (unless its
    ``id`` was taken by a newer buffer already). The dict comes bound in the callback:
    at interpreter exit the module's globals may already be cleared when the last
    buffers are freed."""
    if buffers.get(key) is ref:
        del buffers[key]


def _buffer_of(array: NDArray[Any]) -> NDArray[Any] | None:
    """The buffer :func:`appended` made whose first rows ``array`` is, if it is one
    (the only views of such buffers made here are their first rows)."""
    base = array.base
    ref = _BUFFERS.get(id(base))
    if ref is not None and ref() is base and base is not None and base.strides == array.strides:
        return base
    return None


def refilled(array: NDArray[Any], values: NDArray[Any]) -> NDArray[Any]:
    """``values`` copied into ``array`` when :func:`appended` made its buffer and the
    lengths agree, else into a new such buffer: a copy into memory already in use
    costs less than fresh memory, and later rows can be appended in place.

    >>> kept = appended(np.zeros(0), np.array([1.0, 2.0]))
    >>> refilled(kept, np.array([3.0, 4.0])) is kept, kept.tolist()
    (True, [3.0, 4.0])
    """
    if len(array) == len(values) and _buffer_of(array) is not None:
        array[...] = values
        return array
    return appended(values[:0], values)

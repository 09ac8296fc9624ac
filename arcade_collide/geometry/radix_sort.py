"""A sort of non-negative integer keys by their bytes, for the kernels' row lists.

A tick sorts a few hundred table rows or pair keys at a time. numba's ``np.sort`` and
``np.argsort`` compare, and each comparison of random keys is a branch the processor
guesses wrong half the time; a least-significant-digit radix sort moves each key once
per byte of the largest key and branches on nothing it reads (Sedgewick and Wayne,
*Algorithms*, 5.1).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry.compiled import kernel

Int64Array = NDArray[np.int64]


@kernel("int64[::1](int64[::1])")
def radix_order(keys: Int64Array) -> Int64Array:
    """The positions of ``keys`` (each at least 0) in ascending key order; equal keys
    keep their order (a stable sort, like ``numpy.argsort(keys, kind="stable")``).

    >>> radix_order(np.array([300, 2, 70000, 2, 0])).tolist()
    [4, 1, 3, 0, 2]
    >>> radix_order(np.array([], dtype=np.int64)).tolist()
    []
    """
    n = len(keys)
    top = 0
    for k in range(n):
        top = max(top, keys[k])
    order = np.arange(n)
    spare = np.empty(n, dtype=np.int64)
    counts = np.empty(257, dtype=np.int64)
    shift = 0
    while shift < 64 and (top >> shift) > 0:  # one pass per byte of the largest key
        counts[:] = 0
        for k in range(n):
            counts[((keys[order[k]] >> shift) & 255) + 1] += 1
        for digit in range(1, 257):
            counts[digit] += counts[digit - 1]
        for k in range(n):
            digit = (keys[order[k]] >> shift) & 255
            spare[counts[digit]] = order[k]
            counts[digit] += 1
        order, spare = spare, order
        shift += 8
    return order

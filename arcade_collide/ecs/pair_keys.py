"""A tick's touching pairs as sorted entity-pair keys, and what changed, in one pass.

A pair of entities ``a < b`` is the key ``a << 32 | b``; the
:class:`~arcade_collide.ecs.collision.CollisionSystem` keeps each tick's keys sorted, so
the pairs that started touching are the new keys missing from last tick's, and the pairs
that ended are the old keys missing from this tick's. :func:`keyed_pairs` does the
whole step for the compiled path (:mod:`arcade_collide.geometry.compiled`): it orders
the touching table rows by key in linear time (a counting sort on the lower entity's
rank, see :func:`pair_order`), builds the
keys and per-pair fields in that order, and merges the two sorted key runs. Without
numba the numpy path of the system does the same with sorts.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry.compiled import kernel

PAIR_SHIFT = 32
"""Bits of the higher entity id in a pair key (entity ids stay below ``2**31``, so
keys are positive int64)."""

Int64Array = NDArray[np.int64]


@kernel("void(int64[::1], int64[::1], int64[::1], int64[::1], int64[::1])")
def _pair_order(
    i: Int64Array, j: Int64Array, rank: Int64Array, counts: Int64Array, order: Int64Array
) -> None:
    m = len(i)
    counts[:] = 0
    for p in range(m):
        counts[min(rank[i[p]], rank[j[p]]) + 1] += 1
    for r in range(1, len(counts)):
        counts[r] += counts[r - 1]
    # Counting sort by the lower rank (stable), then an insertion pass by the higher
    # rank, which only moves pairs within their (small) groups.
    for p in range(m):
        low = min(rank[i[p]], rank[j[p]])
        order[counts[low]] = p
        counts[low] += 1
    for p in range(1, m):
        q = order[p]
        low = min(rank[i[q]], rank[j[q]])
        high = max(rank[i[q]], rank[j[q]])
        k = p - 1
        while k >= 0:
            s = order[k]
            s_low = min(rank[i[s]], rank[j[s]])
            if s_low < low or (s_low == low and max(rank[i[s]], rank[j[s]]) <= high):
                break
            order[k + 1] = s
            k -= 1
        order[k + 1] = q


def pair_order(i: Int64Array, j: Int64Array, rank: Int64Array) -> Int64Array:
    """The order that sorts pairs by ``(min(rank[i], rank[j]), max(rank[i], rank[j]))``.

    Linear time for pairs with few partners per row: a counting sort on the lower rank,
    then insertion within each group. Ties keep their input order.

    Args:
        i: One side of the pairs (row indices).
        j: The other side.
        rank: A rank per row, each of ``0 .. len(rank) - 1`` once.

    >>> rank = np.array([0, 2, 1])  # row 1 ranks last
    >>> pair_order(np.array([1, 0, 2]), np.array([2, 1, 0]), rank).tolist()
    [2, 1, 0]
    """
    order = np.empty(len(i), dtype=np.int64)
    counts = np.empty(len(rank) + 1, dtype=np.int64)
    _pair_order(
        np.ascontiguousarray(i, dtype=np.int64),
        np.ascontiguousarray(j, dtype=np.int64),
        np.ascontiguousarray(rank, dtype=np.int64),
        counts,
        order,
    )
    return order
BoolArray = NDArray[np.bool_]


class KeyedPairs(NamedTuple):
    """Touching pairs sorted by key, and the keys that came and went since last tick."""

    keys: Int64Array
    """Sorted unique keys ``a << 32 | b`` with ``a < b`` entity ids."""
    rows_i: Int64Array
    """Table row of each pair's ``i`` side (as given, not swapped)."""
    rows_j: Int64Array
    flip: BoolArray
    """True where entity ``a`` (the lower id) is on the ``j`` side."""
    sensor: BoolArray
    """True where either side is a sensor."""
    started: Int64Array
    """Positions in :attr:`keys` of keys absent from the old keys (ascending)."""
    ended: Int64Array
    """Positions in the old keys of keys absent from :attr:`keys` (ascending)."""


@kernel(
    "void(int64[::1], int64[::1], int64[::1], int64[::1], boolean[::1], int64[::1],"
    " int64[::1], int64[::1], int64[::1], boolean[::1], boolean[::1],"
    " int64[::1], int64[::1], int64[::1])"
)
def _fill(
    i: Int64Array,
    j: Int64Array,
    entities: Int64Array,
    order: Int64Array,
    sensor: BoolArray,
    old: Int64Array,
    keys: Int64Array,
    rows_i: Int64Array,
    rows_j: Int64Array,
    flip: BoolArray,
    sensed: BoolArray,
    started: Int64Array,
    ended: Int64Array,
    counts: Int64Array,
) -> None:
    m = len(order)
    for p in range(m):
        q = order[p]
        ri = i[q]
        rj = j[q]
        ea = entities[ri]
        eb = entities[rj]
        keys[p] = (min(ea, eb) << PAIR_SHIFT) | max(ea, eb)
        rows_i[p] = ri
        rows_j[p] = rj
        flip[p] = ea > eb
        sensed[p] = sensor[ri] or sensor[rj]
    # Both runs are sorted and unique: one merge finds the keys only one of them has.
    a = 0
    b = 0
    n_started = 0
    n_ended = 0
    n_old = len(old)
    while a < m and b < n_old:
        if keys[a] < old[b]:
            started[n_started] = a
            n_started += 1
            a += 1
        elif keys[a] > old[b]:
            ended[n_ended] = b
            n_ended += 1
            b += 1
        else:
            a += 1
            b += 1
    while a < m:
        started[n_started] = a
        n_started += 1
        a += 1
    while b < n_old:
        ended[n_ended] = b
        n_ended += 1
        b += 1
    counts[0] = n_started
    counts[1] = n_ended


def keyed_pairs(
    i: Int64Array,
    j: Int64Array,
    entities: Int64Array,
    rank: Int64Array,
    sensor: BoolArray,
    old_keys: Int64Array,
) -> KeyedPairs:
    """Touching table-row pairs ``(i[k], j[k])`` as sorted keys, diffed with ``old_keys``.

    Args:
        i: One side of each touching pair (table rows).
        j: The other side.
        entities: Entity id of each table row (unique, ``0 <= id < 2**31``).
        rank: Each row's rank among ``entities`` (0 = lowest id).
        sensor: Whether each row's shape is a sensor.
        old_keys: Last tick's sorted unique keys.

    >>> entities = np.array([7, 3, 5])
    >>> rank = np.array([2, 0, 1])
    >>> sensor = np.array([False, False, True])
    >>> old = np.array([3 << 32 | 7, 5 << 32 | 7])
    >>> out = keyed_pairs(np.array([0, 2]), np.array([1, 0]), entities, rank, sensor, old)
    >>> [(int(k) >> 32, int(k) & 0xFFFFFFFF) for k in out.keys]
    [(3, 7), (5, 7)]
    >>> out.flip.tolist(), out.sensor.tolist(), out.started.tolist(), out.ended.tolist()
    ([True, False], [False, True], [], [])
    >>> keyed_pairs(np.array([1]), np.array([2]), entities, rank, sensor, old).ended.tolist()
    [0, 1]
    """
    i = np.ascontiguousarray(i, dtype=np.int64)
    j = np.ascontiguousarray(j, dtype=np.int64)
    old = np.ascontiguousarray(old_keys, dtype=np.int64)
    m = len(i)
    order = pair_order(i, j, rank)
    keys = np.empty(m, dtype=np.int64)
    rows_i = np.empty(m, dtype=np.int64)
    rows_j = np.empty(m, dtype=np.int64)
    flip = np.empty(m, dtype=np.bool_)
    sensed = np.empty(m, dtype=np.bool_)
    started = np.empty(m, dtype=np.int64)
    ended = np.empty(len(old), dtype=np.int64)
    counts = np.zeros(2, dtype=np.int64)
    _fill(
        i, j, np.ascontiguousarray(entities, dtype=np.int64), order,
        np.ascontiguousarray(sensor, dtype=np.bool_), old, keys, rows_i, rows_j,
        flip, sensed, started, ended, counts,
    )
    return KeyedPairs(
        keys, rows_i, rows_j, flip, sensed, started[: counts[0]], ended[: counts[1]]
    )

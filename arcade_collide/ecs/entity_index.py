"""Where each entity is in a shape table whose rows are not in entity order.

A :class:`~arcade_collide.ecs.layout.Layout` whose rows were reused
(:mod:`~arcade_collide.ecs.row_reuse`) keeps an index: its rows sorted by entity id and
those ids, updated by what changed in one compiled pass. A search in it finds an
entity's row, and it orders the rows by id (the pair keys' ranks).
"""

from __future__ import annotations

import numpy as np

from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import Int64Array


def entity_index(entities: Int64Array) -> tuple[Int64Array, Int64Array]:
    """A :attr:`~arcade_collide.ecs.layout.Layout.by_entity` of rows holding ``entities`` (unique).

    >>> order, ids = entity_index(np.array([7, 2, 5]))
    >>> order.tolist(), ids.tolist()
    ([1, 2, 0], [2, 5, 7])
    """
    if len(entities) < 2 or bool((entities[1:] > entities[:-1]).all()):
        return np.arange(len(entities)), entities.copy()
    order = np.argsort(entities, kind="stable")
    return order, entities[order]


@kernel("UniTuple(int64[::1], 2)(int64[::1], int64[::1], int64[::1], int64[::1], int64[::1])")
def reindexed(
    order: Int64Array, ids: Int64Array, leaving: Int64Array, rows: Int64Array, entities: Int64Array
) -> tuple[Int64Array, Int64Array]:
    """The index (``order``, ``ids``) without the entities ``leaving`` (ascending, all
    in it) and with ``entities`` (ascending, none in it but among ``leaving``) at
    ``rows``. A binary search finds each change; the stretches between changes are
    copied whole, so the cost is a copy of the index plus what changed.

    >>> order, ids = reindexed(np.array([2, 0, 1]), np.array([3, 5, 8]), np.array([5]),
    ...                         np.array([0]), np.array([9]))
    >>> order.tolist(), ids.tolist()
    ([2, 1, 0], [3, 8, 9])
    """
    n = len(ids)
    size = n - len(leaving) + len(entities)
    out_order = np.empty(size, dtype=np.int64)
    out_ids = np.empty(size, dtype=np.int64)
    k = q = d = g = 0
    while True:
        # The next change: a leaver's place in ``ids``, or where a newcomer goes.
        at_leaver = np.searchsorted(ids, leaving[d]) if d < len(leaving) else n
        at_newcomer = np.searchsorted(ids, entities[g]) if g < len(entities) else n
        stop = min(at_leaver, at_newcomer)
        count = stop - k
        out_order[q : q + count] = order[k:stop]
        out_ids[q : q + count] = ids[k:stop]
        q += count
        k = stop
        if d == len(leaving) and g == len(entities):
            return out_order, out_ids
        if g < len(entities) and at_newcomer <= at_leaver:
            # (At the same place, the newcomer's id is below the leaver's.)
            out_order[q], out_ids[q] = rows[g], entities[g]
            q += 1
            g += 1
        else:
            k += 1
            d += 1


@kernel("int64[::1](int64[::1])")
def ranks(order: Int64Array) -> Int64Array:
    """The inverse of the permutation ``order``: ``rank[order[k]] = k``.

    >>> ranks(np.array([2, 0, 1])).tolist()
    [1, 2, 0]
    """
    rank = np.empty(len(order), dtype=np.int64)
    for k in range(len(order)):
        rank[order[k]] = k
    return rank


@kernel("int64[::1](int64[::1], int64[::1], int64[::1])")
def rows_found(order: Int64Array, ids: Int64Array, entities: Int64Array) -> Int64Array:
    """The rows of those of ``entities`` (distinct, any order) the index (``order``,
    ``ids``) holds, ascending: a binary search each, in one compiled call.

    >>> rows_found(np.array([2, 0, 1]), np.array([3, 5, 8]), np.array([8, 4, 3])).tolist()
    [1, 2]
    """
    out = np.empty(len(entities), dtype=np.int64)
    count = 0
    for entity in entities:
        at = np.searchsorted(ids, entity)
        if at < len(ids) and ids[at] == entity:
            out[count] = order[at]
            count += 1
    rows: Int64Array = np.sort(out[:count])
    return rows

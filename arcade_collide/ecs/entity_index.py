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
    ``rows``, in one pass.

    >>> order, ids = reindexed(np.array([2, 0, 1]), np.array([3, 5, 8]), np.array([5]),
    ...                         np.array([0]), np.array([9]))
    >>> order.tolist(), ids.tolist()
    ([2, 1, 0], [3, 8, 9])
    """
    size = len(ids) - len(leaving) + len(entities)
    out_order = np.empty(size, dtype=np.int64)
    out_ids = np.empty(size, dtype=np.int64)
    d = g = q = 0
    for k in range(len(ids)):
        entity = ids[k]
        if d < len(leaving) and leaving[d] == entity:
            d += 1
            continue
        while g < len(entities) and entities[g] < entity:
            out_order[q], out_ids[q] = rows[g], entities[g]
            g += 1
            q += 1
        out_order[q], out_ids[q] = order[k], entity
        q += 1
    while g < len(entities):
        out_order[q], out_ids[q] = rows[g], entities[g]
        g += 1
        q += 1
    return out_order, out_ids

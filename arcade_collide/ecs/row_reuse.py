"""Rows reused: the entities created take the table rows of those deleted, and no row moves.

When a structural change brings as many entities of each
:class:`~arcade_collide.geometry.shapes.ShapeKind` as it takes away (bullets fired as
others expire, 20 spawned as 20 die), each newcomer takes the row of a leaver of its
kind: the columns are written at those rows in place, the placed shapes, boxes and pose
origins of every other row stay where they are, and the broad phase's sort order carries
over with only those rows new. The layout then no longer orders a kind's rows by entity
id; :attr:`~arcade_collide.ecs.layout.Layout.by_entity` keeps the rows in entity order,
updated by what changed. Other changes merge the layouts
(:meth:`~arcade_collide.ecs.layout.Layout.merged`).

A reused row belongs to another entity from then on: the contact state is keyed by
entity ids, so the leaver's pairs end and the newcomer's start like any other, and the
table reports the row as renumbered (:attr:`~arcade_collide.ecs.layout.Layout.renumbered`
holds -1 for it), so nothing carries a pair of the leaver's row over to the newcomer.
"""

from __future__ import annotations

import numpy as np

from arcade_collide.ecs.columns import Columns
from arcade_collide.ecs.entity_index import entity_index, reindexed
from arcade_collide.ecs.layout import (
    Layout,
    composed,
    kind_bounds,
    moved_owners,
    sorted_unique,
    widened,
)
from arcade_collide.ecs.storage import PooledRows
from arcade_collide.geometry.query.kernel_base import Int64Array
from arcade_collide.geometry.shapes import ShapeKind

_COLUMNS = (
    "entities", "pool_rows", "layer", "mask", "sensor", "static", "sweep", "shape_ids",
    "inner", "outer", "size_x", "size_y",
)  # fmt: skip
"""The per-row columns of a :class:`Layout` a newcomer writes at its row."""


def reused(base: Layout, drop: Int64Array, fresh: Columns) -> Layout | None:
    """``base`` with the rows ``drop`` (ascending) taken by the entities of ``fresh``
    (as many of each kind, none of them in ``base`` but at a row of ``drop``), written
    in place; None when that cannot be done (then nothing was written): the counts of a
    kind differ, a Position is not in ``base``'s one pool or is shared, the pool grew,
    or an outline is wider than ``base``'s columns.

    ``base``'s arrays are the result's: use only the result afterwards.
    """
    pool, owners = base.pool, base.entity_of_shape
    m = len(drop)
    if not m or m != len(fresh.entities) or pool is None or owners is None:
        return None
    if fresh.pool is not pool or not np.array_equal(base.kinds[drop], fresh.kinds):
        return None
    if int(fresh.pool_rows.max()) >= len(base.row_in_pool):
        return None  # the pool grew since base was built
    # (Sets and lists: a numpy call costs more than these few dozen numbers.)
    leavers = set(drop.tolist())
    if any(h >= 0 and h not in leavers for h in base.row_in_pool[fresh.pool_rows].tolist()):
        return None  # a kept row reads the same Position
    convex = len(fresh.nlocal)
    if convex:
        polygons = fresh.nlocal[kind_bounds(fresh.kinds)[ShapeKind.POLYGON] - (m - convex) :]
        wide = base.rows.polygon_vertices.shape[1]
        if int(fresh.nlocal.max()) > base.local.shape[1] or (
            len(polygons) and int(polygons.max()) > wide
        ):
            return None
    order, ids = base.by_entity or entity_index(base.entities)
    by_id = np.argsort(fresh.entities)
    index = reindexed(order, ids, np.sort(base.entities[drop]), drop[by_id], fresh.entities[by_id])
    alone = moved_owners(owners, base, drop, fresh)
    base.row_in_pool[base.pool_rows[drop]] = -1
    base.row_in_pool[fresh.pool_rows] = drop
    regrouped = not (
        np.array_equal(base.static[drop], fresh.static)
        and np.array_equal(base.sweep[drop], fresh.sweep)
    )
    for name in _COLUMNS:
        getattr(base, name)[drop] = getattr(fresh, name)
    if convex:
        slots = drop[m - convex :] - kind_bounds(base.kinds)[ShapeKind.RECT]
        base.local[slots] = widened(fresh.local, base.local.shape[1])
        base.nlocal[slots] = fresh.nlocal
    here = np.arange(len(base.entities))
    here[drop] = -1
    unplaced = base.unplaced
    if unplaced is not None:
        unplaced = sorted_unique(np.concatenate([unplaced, drop]))
    renumbered: Int64Array | None = composed(base.renumbered, here)
    reused_rows: Int64Array | None = None
    if base.renumbered is None and base.unplaced is None:
        renumbered = None  # base was built afresh: so is, in effect, this layout
    elif base.renumbered is None:  # base is the table's layout: only ``drop`` changed
        reused_rows = drop
    elif base.reused_rows is not None:  # and before it, rows of the table's layout
        reused_rows = sorted_unique(np.concatenate([base.reused_rows, drop]))
    layout = base._replace(
        positions=PooledRows.in_pool(pool, base.pool_rows),
        entity_of_shape=owners if alone else None,
        renumbered=renumbered,
        unplaced=unplaced,
        by_entity=index,
        reused_rows=reused_rows,
    )
    if regrouped:
        layout = layout._replace(
            swept_rows=np.flatnonzero(base.sweep),
            static_rows=np.flatnonzero(base.static),
            dynamic_rows=np.flatnonzero(~base.static),
        )
    return layout

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
table reports the row as new (:attr:`~arcade_collide.ecs.layout.Layout.reused_rows`
lists it; :func:`~arcade_collide.ecs.layout.renumbering` maps it to -1), so nothing
carries a pair of the leaver's row over to the newcomer. No per-row map is built for
such a change: its cost follows the rows reused, not the table's size.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from arcade_collide.ecs.columns import Columns
from arcade_collide.ecs.entity_index import entity_index, reindexed
from arcade_collide.ecs.layout import (
    Layout,
    composed,
    kind_bounds,
    sorted_unique,
    widened,
)
from arcade_collide.ecs.storage import PooledRows
from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import Int64Array
from arcade_collide.geometry.shapes import ShapeKind


def reused(base: Layout, drop: Int64Array, fresh: Columns) -> Layout | None:
    """``base`` with the rows ``drop`` (ascending) taken by the entities of ``fresh``
    (as many of each kind, none of them in ``base`` but at a row of ``drop``), written
    in place; None when that cannot be done (then nothing was written): the counts of a
    kind differ, a Position is not in ``base``'s one pool or is shared, the pool grew,
    or an outline is wider than ``base``'s columns.

    ``base``'s arrays are the result's: use only the result afterwards.
    """
    pool = base.pool
    m = len(drop)
    if not m or m != len(fresh.entities) or pool is None or fresh.pool is not pool:
        return None
    convex = len(fresh.nlocal)
    if convex:
        polygons = fresh.nlocal[kind_bounds(fresh.kinds)[ShapeKind.POLYGON] - (m - convex) :]
        wide = base.rows.polygon_vertices.shape[1]
        if int(fresh.nlocal.max()) > base.local.shape[1] or (
            len(polygons) and int(polygons.max()) > wide
        ):
            return None
    regrouped = _reusable(
        drop, base.kinds, base.static, base.sweep, base.row_in_pool,
        fresh.kinds, fresh.static, fresh.sweep, fresh.pool_rows,
    )  # fmt: skip
    if regrouped < 0:
        return None
    index = base.by_entity or entity_index(base.entities)
    leaving, rows, arrived = _written(
        drop, base.row_in_pool, base.pool_rows, base.entities, base.layer,
        base.mask, base.shape_ids, base.sensor, base.static, base.sweep, base.inner,
        base.outer, base.size_x, base.size_y, fresh.pool_rows, fresh.entities, fresh.layer,
        fresh.mask, fresh.shape_ids, fresh.sensor, fresh.static, fresh.sweep, fresh.inner,
        fresh.outer, fresh.size_x, fresh.size_y,
    )  # fmt: skip
    if convex:
        slots = drop[m - convex :] - kind_bounds(base.kinds)[ShapeKind.RECT]
        base.local[slots] = widened(fresh.local, base.local.shape[1])
        base.nlocal[slots] = fresh.nlocal
    unplaced = base.unplaced
    if unplaced is not None:
        # (``drop`` is ascending and unique already.)
        unplaced = sorted_unique(np.concatenate([unplaced, drop])) if len(unplaced) else drop
    renumbered: Int64Array | None = None
    reused_rows: Int64Array | None = None
    if base.renumbered is None and base.unplaced is None:
        pass  # base was built afresh: so is, in effect, this layout
    elif base.renumbered is None:  # base is the table's layout, maybe with rows reused
        reused_rows = drop
        if base.reused_rows is not None:
            reused_rows = sorted_unique(np.concatenate([base.reused_rows, drop]))
    else:  # base was merged from the table's layout: map its rows
        here = np.arange(len(base.entities))
        here[drop] = -1
        renumbered = composed(base.renumbered, here)
    layout = base._replace(
        positions=PooledRows.in_pool(pool, base.pool_rows),
        renumbered=renumbered,
        unplaced=unplaced,
        by_entity=reindexed(index, leaving, rows, arrived),
        reused_rows=reused_rows,
    )
    if regrouped:
        layout = layout._replace(
            swept_rows=np.flatnonzero(base.sweep),
            static_rows=np.flatnonzero(base.static),
            dynamic_rows=np.flatnonzero(~base.static),
        )
    return layout


@kernel(
    "int64(int64[::1], int8[:], boolean[:], int8[:], int64[:], int8[:], boolean[:], int8[:],"
    " int64[:])"
)
def _reusable(
    drop: Int64Array,
    kinds: NDArray[np.int8],
    static: BoolArray,
    sweep: NDArray[np.int8],
    row_in_pool: Int64Array,
    fresh_kinds: NDArray[np.int8],
    fresh_static: BoolArray,
    fresh_sweep: NDArray[np.int8],
    fresh_pool_rows: Int64Array,
) -> int:
    """Whether the newcomers can take rows ``drop`` (ascending) in place: -1 when not
    (a row's kind differs, a Position row lies past the pool ``base`` was built for, or
    a kept row reads a newcomer's Position), else 1 when a row's static or sweep flag
    changes (the row groups are found again), else 0."""
    regrouped = 0
    for k in range(len(drop)):
        row = drop[k]
        if kinds[row] != fresh_kinds[k]:
            return -1
        pool_row = fresh_pool_rows[k]
        if pool_row >= len(row_in_pool):
            return -1  # the pool grew since base was built
        holder = row_in_pool[pool_row]
        if holder >= 0:
            at = np.searchsorted(drop, holder)
            if at == len(drop) or drop[at] != holder:
                return -1  # a kept row reads the same Position
        if static[row] != fresh_static[k] or sweep[row] != fresh_sweep[k]:
            regrouped = 1
    return regrouped


@kernel(
    "UniTuple(int64[::1], 3)(int64[::1], int64[:], int64[:],"
    " int64[:], int64[:], int64[:], int64[:], boolean[:], boolean[:], int8[:], float64[:],"
    " float64[:], float64[:], float64[:], int64[:], int64[:], int64[:], int64[:], int64[:],"
    " boolean[:], boolean[:], int8[:], float64[:], float64[:], float64[:], float64[:])"
)
def _written(
    drop: Int64Array,
    row_in_pool: Int64Array,
    pool_rows: Int64Array,
    entities: Int64Array,
    layer: Int64Array,
    mask: Int64Array,
    shape_ids: Int64Array,
    sensor: BoolArray,
    static: BoolArray,
    sweep: NDArray[np.int8],
    inner: FloatArray,
    outer: FloatArray,
    size_x: FloatArray,
    size_y: FloatArray,
    new_pool_rows: Int64Array,
    new_entities: Int64Array,
    new_layer: Int64Array,
    new_mask: Int64Array,
    new_shape_ids: Int64Array,
    new_sensor: BoolArray,
    new_static: BoolArray,
    new_sweep: NDArray[np.int8],
    new_inner: FloatArray,
    new_outer: FloatArray,
    new_size_x: FloatArray,
    new_size_y: FloatArray,
) -> tuple[Int64Array, Int64Array, Int64Array]:
    """Write the newcomers' columns at rows ``drop`` (the ``new_`` arrays, one entry
    per row of ``drop``) in one pass, after :func:`_reusable` accepted them. Returns
    what the entity index is told (:func:`~.entity_index.reindexed`): the leavers' ids
    ascending, and the newcomers' rows and ids by ascending id."""
    m = len(drop)
    leaving = np.empty(m, dtype=np.int64)
    for k in range(m):
        leaving[k] = entities[drop[k]]
    leaving.sort()
    by_id = np.argsort(new_entities)
    rows = np.empty(m, dtype=np.int64)
    arrived = np.empty(m, dtype=np.int64)
    for k in range(m):
        rows[k] = drop[by_id[k]]
        arrived[k] = new_entities[by_id[k]]
    for k in range(m):
        row_in_pool[pool_rows[drop[k]]] = -1
    for k in range(m):
        row = drop[k]
        row_in_pool[new_pool_rows[k]] = row
        pool_rows[row] = new_pool_rows[k]
        entities[row] = new_entities[k]
        layer[row] = new_layer[k]
        mask[row] = new_mask[k]
        shape_ids[row] = new_shape_ids[k]
        sensor[row] = new_sensor[k]
        static[row] = new_static[k]
        sweep[row] = new_sweep[k]
        inner[row] = new_inner[k]
        outer[row] = new_outer[k]
        size_x[row] = new_size_x[k]
        size_y[row] = new_size_y[k]
    return leaving, rows, arrived

"""The shape table's rows: which entity each row holds, and the columns that follow from
its components (kind, layer, size, local outline, Position row).

A :class:`Layout` is built from scratch from a list of entities (:meth:`Layout.build`),
or from the previous layout and the entities that changed (:meth:`Layout.merged`): the
unchanged rows move as contiguous runs (one compiled copy per column, the runs found
from the changes alone) and only the changed entities are read in Python. When as
many entities of each kind came as left, the newcomers take the rows of those that left
instead and no row moves (:mod:`~arcade_collide.ecs.row_reuse`).
Rows are grouped by :class:`~arcade_collide.geometry.shapes.ShapeKind`; a layout built
afresh orders each kind's rows by entity id, and :attr:`Layout.by_entity` finds entities
once rows were reused.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from arcade_collide.ecs.columns import Columns, Item, columns, sweep_code
from arcade_collide.ecs.components import ALL_LAYERS, SHARED, Shape
from arcade_collide.ecs.entity_index import EntityIndex, reindexed, rows_found
from arcade_collide.ecs.storage import PooledRows, RowPool
from arcade_collide.ecs.world_state import ShapeEpoch
from arcade_collide.geometry.arrays import BoolArray, FloatArray, IntArray
from arcade_collide.geometry.bounding_circles import pose_circles
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import Int64Array, empty_rows
from arcade_collide.geometry.query.rows import PairFilter, WorldRows
from arcade_collide.geometry.radix_sort import radix_order
from arcade_collide.geometry.shapes import ShapeKind

_KINDS = len(ShapeKind)
_RECT = int(ShapeKind.RECT)
_POLYGON = int(ShapeKind.POLYGON)
_NO_ROWS = np.empty(0, dtype=np.int64)


class Layout(NamedTuple):
    """A table's rows, their constant columns and the arrays placing writes into."""

    entities: IntArray
    positions: PooledRows
    kinds: NDArray[np.int8]
    layer: IntArray
    mask: IntArray
    sensor: BoolArray
    static: BoolArray
    sweep: NDArray[np.int8]
    """Per row: 0, or 1 for a swept shape, 2 for one that also stops at impact."""
    swept_rows: Int64Array
    static_rows: Int64Array
    dynamic_rows: Int64Array
    all_rows: Int64Array
    pool: RowPool | None
    """The one pool holding every row's Position (None: several pools, or none)."""
    pool_rows: Int64Array
    """Each table row's row in :attr:`pool`."""
    row_in_pool: Int64Array
    """Per row of :attr:`pool` (as it was when built), the table row reading it, or -1."""
    shape_ids: Int64Array
    """``id`` of each row's Shape component."""
    inner: FloatArray
    outer: FloatArray
    size_x: FloatArray
    size_y: FloatArray
    local: FloatArray
    """``(C, K, 2)`` local vertices of the ``C`` convex rows (the last rows), each
    padded to ``K`` with its last vertex."""
    nlocal: Int64Array
    rows: WorldRows
    aabbs: FloatArray
    origin_x: FloatArray
    origin_y: FloatArray
    renumbered: Int64Array | None = None
    """When this layout was merged from another: per row of that one, its row here
    (-1: dropped). None for a layout built afresh, and when :attr:`reused_rows` says
    the whole change (:func:`renumbering` makes the map then)."""
    unplaced: Int64Array | None = None
    """The rows not placed yet (ascending); None: all of them."""
    by_entity: EntityIndex | None = None
    """The rows in entity order and their entity ids; None while each kind's rows are
    in entity order (then a search per kind finds them)."""
    reused_rows: Int64Array | None = None
    """When the only change since the layout the table last adopted is rows taken
    over by newcomers in place (:mod:`~arcade_collide.ecs.row_reuse`): those rows,
    ascending; every other row is as it was. None otherwise."""

    def poses(self) -> tuple[FloatArray, Int64Array]:
        """The pose table and each row's row in it (the pool itself when there is one)."""
        if self.pool is not None:
            return self.pool.data, self.pool_rows
        return self.positions.read(), self.all_rows

    def find_rows(self, entities: Int64Array) -> Int64Array:
        """The row of each of ``entities`` (-1 for those without one)."""
        found = np.full(len(entities), -1, dtype=np.int64)
        if self.by_entity is not None:
            order, ids = self.by_entity.order, self.by_entity.ids
            if len(ids):
                at = np.minimum(np.searchsorted(ids, entities), len(ids) - 1)
                hit = ids[at] == entities
                found[hit] = order[at[hit]]  # (-1 for an entity that left)
            return found
        bounds = kind_bounds(self.kinds)
        for k in range(_KINDS):
            lo, hi = bounds[k], bounds[k + 1]
            if lo == hi:
                continue
            block = self.entities[lo:hi]
            at = np.searchsorted(block, entities)
            hit = block[np.minimum(at, hi - lo - 1)] == entities
            found[hit] = lo + at[hit]
        return found

    def rows_of(self, entities: Int64Array) -> Int64Array:
        """The rows of those of ``entities`` (distinct, any order) this layout holds,
        ascending."""
        if self.by_entity is not None:
            return rows_found(self.by_entity.order, self.by_entity.ids, entities)
        found = self.find_rows(entities)
        return np.sort(found[found >= 0])

    def written_rows(self) -> Int64Array | None:
        """The table rows whose Position was written since the pool's log was last
        cleared, ascending; None when the writes did not say which rows, or covered
        most rows."""
        if self.pool is None or self.pool.written is None:
            return None
        arrays, singles = self.pool.written, self.pool.written_singles
        count = len(singles) + (sum(map(len, arrays)) if arrays else 0)
        if 2 * count > len(self.entities):
            return None  # most rows: place them all, without sorting the log
        if len(arrays) == 1 and not singles:  # one system's bulk write (the usual tick)
            written = np.ascontiguousarray(arrays[0], dtype=np.int64)
        else:
            written = np.concatenate([np.array(singles, dtype=np.int64), *arrays])
        return table_rows_of(written, self.row_in_pool)

    def edit(self, shapes: list[Shape] | None, epoch: ShapeEpoch) -> Int64Array | None:
        """Rewrite the rows of the edited ``shapes`` (each told of the world's
        ``epoch``) in place; return those rows, or None when that cannot be done (a
        kind changed, a polygon grew past the table's width, a Shape is on several
        entities, too many edits): the layout must be built again."""
        if shapes is None:
            return None
        owners = [shape._owners[shape._epochs.index(epoch)] for shape in shapes]
        if SHARED in owners:
            return None
        found = self.find_rows(np.array(owners, dtype=np.int64)).tolist()
        rows = []
        for shape, row in zip(shapes, found, strict=True):
            if row < 0 or self.shape_ids[row] != id(shape):
                continue  # no longer in this world's table (its owner holds another)
            geometry = shape._geometry
            if geometry.kind != self.kinds[row]:
                return None
            if geometry.kind >= ShapeKind.RECT:
                outline = geometry.local_vertices()  # type: ignore[union-attr]
                c = row - int(self.rows.start[ShapeKind.RECT])
                wide = self.rows.polygon_vertices.shape[1]
                if len(outline) > self.local.shape[1] or (
                    geometry.kind == ShapeKind.POLYGON and len(outline) > wide
                ):
                    return None
                self.local[c] = outline + (outline[-1],) * (self.local.shape[1] - len(outline))
                self.nlocal[c] = len(outline)
            self.size_x[row] = getattr(geometry, "radius", getattr(geometry, "half_width", 0.0))
            self.size_y[row] = getattr(geometry, "half_height", 0.0)
            self.inner[row], self.outer[row] = pose_circles(geometry)
            self.layer[row], self.mask[row] = shape._layer, shape._mask
            self.sensor[row] = shape._sensor
            self.sweep[row] = sweep_code(shape)
            rows.append(row)
        return np.array(sorted(set(rows)), dtype=np.int64)

    @staticmethod
    def build(
        source: list[Item],
        shaped: Collection[int],
        dead: Collection[int],
        statics: Collection[int],
        epoch: ShapeEpoch,
    ) -> Layout:
        """The layout of the entities of ``source`` not in ``dead``.

        Args:
            source: The entities with a Position and a Shape.
            shaped: Every entity holding a Shape (to find one without a Position).
            dead: Entities marked dead, left out.
            statics: Entities holding :class:`~arcade_collide.ecs.components.Static`
                (at least those of ``source``).
            epoch: The world's shape epoch, which the shapes placed here are told of.

        Raises:
            ValueError: an entity of ``shaped`` has no Position, or an id is 2**63 or more.
        """
        _check_positions(source, shaped, dead)
        live = [item for item in source if item[0] not in dead] if dead else source
        return _assemble(columns(live, statics, epoch))

    def merged(self, drop: Int64Array, fresh: Columns) -> Layout | None:
        """This layout without rows ``drop`` and with the rows of ``fresh`` (entities
        not in this layout, or in ``drop``), in row order; None when the result would
        not read every Position from one pool, one row each (then build it afresh).

        The kept rows move as contiguous runs, found from ``drop`` and where the fresh
        rows go alone: no per-row map is built to find them.
        """
        pool = self.pool
        m = len(fresh.entities)
        if pool is None or (m and fresh.pool is not pool):
            return None
        drop = np.sort(drop)
        if m:
            known = fresh.pool_rows < len(self.row_in_pool)
            holder = self.row_in_pool[fresh.pool_rows[known]]
            holder = holder[holder >= 0]
            if len(holder) and not np.isin(holder, drop).all():
                return None  # a kept row reads the same Position: shared
        # Where each fresh row goes: after the rows of lower kinds and ids, kept or fresh
        # (at the end of its kind's rows once rows were reused: they are out of order).
        bounds, fresh_bounds = kind_bounds(self.kinds), kind_bounds(fresh.kinds)
        at = np.empty(m, dtype=np.int64)
        for k in range(_KINDS):
            a, b = fresh_bounds[k], fresh_bounds[k + 1]
            if a < b:
                lo, hi = bounds[k], bounds[k + 1]
                if self.by_entity is None:
                    at[a:b] = lo + np.searchsorted(self.entities[lo:hi], fresh.entities[a:b])
                else:
                    at[a:b] = hi
        dest = at - np.searchsorted(drop, at) + np.arange(m)
        runs = _kept_runs(len(self.entities), drop, at)
        size = len(self.entities) - len(drop) + m

        def gather(old: Any, new: Any) -> Any:
            out = np.empty((size, *old.shape[1:]), dtype=old.dtype)
            _copy_runs(out, old, runs)
            out[dest] = new
            return out

        merged_kinds = gather(self.kinds, fresh.kinds)
        local, nlocal = self._merged_outlines(fresh, runs, dest, kind_bounds(merged_kinds)[_RECT])
        here = np.full(len(self.entities), -1, dtype=np.int64)
        _number_runs(here, runs)
        renumbered = composed(renumbering(self.renumbered, self.reused_rows, len(here)), here)
        index = None
        if self.by_entity is not None:
            order, ids = self.by_entity.order, self.by_entity.ids
            held = order >= 0
            moved = here[order[held]]
            kept = moved >= 0
            by_id = np.argsort(fresh.entities)
            index = reindexed(
                EntityIndex(moved[kept], ids[held][kept], int(kept.sum())),
                _NO_ROWS, dest[by_id], fresh.entities[by_id],
            )  # fmt: skip
        unplaced = None
        # Copying placed rows pays off only for static rows (their grid stays valid);
        # placing every row again costs less than the copy otherwise.
        if self.unplaced is not None and len(self.static_rows):
            carried = here[self.unplaced]
            unplaced = sorted_unique(np.concatenate([carried[carried >= 0], dest]))
        merged_entities = gather(self.entities, fresh.entities)
        pool_rows = gather(self.pool_rows, fresh.pool_rows)
        merged = _assemble(Columns(
            merged_entities, PooledRows.in_pool(pool, pool_rows), pool, pool_rows, merged_kinds,
            gather(self.shape_ids, fresh.shape_ids), gather(self.layer, fresh.layer),
            gather(self.mask, fresh.mask), gather(self.sensor, fresh.sensor),
            gather(self.sweep, fresh.sweep), gather(self.static, fresh.static),
            gather(self.inner, fresh.inner), gather(self.outer, fresh.outer),
            gather(self.size_x, fresh.size_x), gather(self.size_y, fresh.size_y), local, nlocal,
        ))  # fmt: skip
        if unplaced is not None:
            merged = _carry_placement(self, merged, runs)
        return merged._replace(renumbered=renumbered, unplaced=unplaced, by_entity=index)

    def _merged_outlines(
        self, fresh: Columns, runs: Int64Array, dest: Int64Array, first: int
    ) -> tuple[FloatArray, Int64Array]:
        """The local outlines of the merged convex rows (the rows from ``first`` on;
        ``runs`` and ``dest`` say where the kept and fresh rows go), padded to one
        width: this layout's own arrays, uncopied, when its convex rows are all kept
        and none came."""
        old_first = int(kind_bounds(self.kinds)[_RECT])
        old = _clipped(runs, old_first, len(self.entities), first)
        width = max(self.local.shape[1], fresh.local.shape[1])
        if not len(fresh.local) and int(old[:, 2].sum()) == len(self.local):
            return self.local, self.nlocal  # nothing is written into them but edits
        count = int(runs[:, 2].sum()) + len(dest) - first
        local = np.empty((count, width, 2))
        nlocal = np.empty(count, dtype=np.int64)
        _copy_runs(local, widened(self.local, width), old)
        _copy_runs(nlocal, self.nlocal, old)
        new_slots = dest[len(dest) - len(fresh.local) :] - first
        local[new_slots] = widened(fresh.local, width)
        nlocal[new_slots] = fresh.nlocal
        return local, nlocal


_PLACED_FIELDS = (
    ("point_xy",),
    ("circle_center", "circle_radius"),
    ("rect_center", "rect_axis", "rect_half", "rect_vertices"),
    ("triangle_vertices",),
    ("polygon_vertices", "polygon_nverts"),
)
"""The fields of :class:`WorldRows` placing writes, per kind."""


def _carry_placement(old: Layout, new: Layout, runs: Int64Array) -> Layout:
    """``new`` with the placed shapes, boxes and origins of ``old``'s kept rows, moved
    by ``runs`` (the same shapes, renumbered).

    A kind whose block kept every row and gained none has the same rows in the same
    order: ``new`` takes ``old``'s arrays of that kind as they are, uncopied (``old`` is
    not used after a merge, so nothing writes them on its behalf)."""
    _copy_runs(new.aabbs, old.aabbs, runs)
    _copy_runs(new.origin_x, old.origin_x, runs)
    _copy_runs(new.origin_y, old.origin_y, runs)
    old_bounds, new_bounds = kind_bounds(old.kinds), kind_bounds(new.kinds)
    shared: dict[str, Any] = {}
    for k, names in enumerate(_PLACED_FIELDS):
        block = _clipped(runs, old_bounds[k], old_bounds[k + 1], new_bounds[k])
        if not len(block):
            continue
        kept = int(block[:, 2].sum())
        whole = kept == old_bounds[k + 1] - old_bounds[k] == new_bounds[k + 1] - new_bounds[k]
        for name in names:
            values = getattr(old.rows, name)
            into = getattr(new.rows, name)
            if whole and values.shape == into.shape:
                shared[name] = values
                continue
            if values.ndim == 3 and values.shape[1] < into.shape[1]:
                values = widened(values, into.shape[1])
            elif values.ndim == 3:  # the widest polygon left: every row fits the rest
                values = values[:, : into.shape[1]]
            _copy_runs(into, values, block)
    return new._replace(rows=new.rows._replace(**shared)) if shared else new


def renumbering(
    renumbered: Int64Array | None, reused_rows: Int64Array | None, count: int
) -> Int64Array | None:
    """The per-row map of a change of layout (per row of the old layout, its row in
    the new one, -1: gone): ``renumbered`` when given, else, when ``reused_rows`` is,
    each of the ``count`` rows keeping its number but those (new entities); None when
    neither is (the new layout was built afresh).

    >>> renumbering(None, np.array([1, 3]), 5).tolist()
    [0, -1, 2, -1, 4]
    >>> renumbering(np.array([1, 0]), None, 2).tolist(), renumbering(None, None, 2)
    ([1, 0], None)
    """
    if renumbered is not None or reused_rows is None:
        return renumbered
    return kept_numbers(reused_rows, count)


def kept_numbers(reused_rows: Int64Array, count: int) -> Int64Array:
    """:func:`renumbering` of a change that reused rows ``reused_rows`` of ``count``.

    >>> kept_numbers(np.array([0]), 3).tolist()
    [-1, 1, 2]
    """
    here = np.arange(count)
    here[reused_rows] = -1
    return here


def composed(renumbered: Int64Array | None, here: Int64Array) -> Int64Array:
    """:attr:`Layout.renumbered` of a layout made from one whose own is ``renumbered``
    (None: built afresh or adopted), its rows going to ``here``."""
    if renumbered is None:
        return here
    known = renumbered >= 0
    return np.where(known, here[np.where(known, renumbered, 0)], -1)


def _kept_runs(n: int, drop: Int64Array, at: Int64Array) -> Int64Array:
    """``(R, 3)`` runs ``(source, target, count)``: where the rows of an ``n``-row layout
    go when rows ``drop`` (ascending) leave and a new row comes before each row of
    ``at`` (ascending; ``n`` for the end), found in time that follows the changes.

    >>> _kept_runs(6, np.array([1]), np.array([4, 6])).tolist()
    [[0, 0, 1], [2, 1, 2], [4, 4, 2]]
    """
    cuts = np.unique(np.concatenate(([0, n], drop, drop + 1, at)))
    cuts = cuts[cuts <= n]
    starts, stops = cuts[:-1], cuts[1:]
    dropped = np.zeros(len(starts), dtype=np.bool_)
    dropped[np.searchsorted(starts, drop)] = True
    starts, stops = starts[~dropped], stops[~dropped]
    target = starts - np.searchsorted(drop, starts) + np.searchsorted(at, starts, side="right")
    return np.ascontiguousarray(np.stack([starts, target, stops - starts], axis=1))


def _clipped(runs: Int64Array, lo: int, hi: int, new_lo: int) -> Int64Array:
    """The part of ``runs`` whose source rows lie in ``lo .. hi - 1``, numbered from
    ``lo`` in the source and from ``new_lo`` in the target (one kind's block)."""
    source, target, count = runs[:, 0], runs[:, 1], runs[:, 2]
    first = np.maximum(source, lo)
    stop = np.minimum(source + count, hi)
    inside = first < stop
    clipped = np.stack([first - lo, target + first - source - new_lo, stop - first], axis=1)
    return np.ascontiguousarray(clipped[inside])


def _copy_runs(into: Any, values: Any, runs: Int64Array) -> None:
    """``into[t:t + c] = values[s:s + c]`` for each run ``(s, t, c)`` of ``runs``
    (``into`` C-contiguous, rows of the same shape as ``values``')."""
    width = math.prod(into.shape[1:])
    flat = np.ascontiguousarray(values).reshape(-1)
    _copy_run_values(into.reshape(-1), flat, runs, width)


@kernel(
    [
        f"void({t}[::1], {t}[::1], int64[:, ::1], int64)"
        for t in ("int64", "float64", "boolean", "int8")
    ]
)
def _copy_run_values(into: Any, values: Any, runs: Int64Array, width: int) -> None:
    """:func:`_copy_runs` on flat arrays of rows ``width`` numbers long, in one compiled
    pass (a run is one contiguous copy)."""
    for r in range(runs.shape[0]):
        s = runs[r, 0] * width
        t = runs[r, 1] * width
        c = runs[r, 2] * width
        into[t : t + c] = values[s : s + c]


@kernel("void(int64[::1], int64[:, ::1])")
def _number_runs(here: Int64Array, runs: Int64Array) -> None:
    """``here[s + k] = t + k`` for each run ``(s, t, c)`` and ``k < c``."""
    for r in range(runs.shape[0]):
        for k in range(runs[r, 2]):
            here[runs[r, 0] + k] = runs[r, 1] + k


def _check_positions(source: list[Item], shaped: Collection[int], dead: Collection[int]) -> None:
    """Raise for the first entity of ``shaped`` (not ``dead``) missing from ``source``."""
    if len(shaped) != len(source):
        placed = {entity for entity, _ in source}
        missing = sorted(e for e in shaped if e not in placed and e not in dead)
        if missing:
            raise ValueError(
                f"entity {missing[0]} has a Shape but no Position: add a Position "
                "or remove the Shape"
            )


def _assemble(c: Columns) -> Layout:
    """A layout from its columns, with the arrays that follow from them."""
    n = len(c.entities)
    row_in_pool = np.full(len(c.pool.data) if c.pool is not None else 0, -1, dtype=np.int64)
    if c.pool is not None:
        row_in_pool[c.pool_rows] = np.arange(n)
    polygons = c.nlocal[kind_bounds(c.kinds)[_POLYGON] - kind_bounds(c.kinds)[_RECT] :]
    return Layout(
        c.entities, c.positions, c.kinds, c.layer, c.mask, c.sensor, c.static, c.sweep,
        np.flatnonzero(c.sweep), np.flatnonzero(c.static), np.flatnonzero(~c.static),
        np.arange(n), c.pool, c.pool_rows, row_in_pool, c.shape_ids,
        c.inner, c.outer, c.size_x, c.size_y, c.local, c.nlocal,
        empty_rows(c.kinds, int(polygons.max()) if len(polygons) else 3),
        np.empty((n, 4)), np.empty(n), np.empty(n),
    )  # fmt: skip


def kind_bounds(kinds: NDArray[np.int8]) -> Int64Array:
    """Where each kind's block of rows starts, and the end: ``_KINDS + 1`` offsets."""
    return np.searchsorted(kinds, np.arange(_KINDS + 1), side="left")


def widened(local: FloatArray, width: int) -> FloatArray:
    """``(C, K, 2)`` outlines padded to ``width`` vertices with their last one."""
    if local.shape[1] == width:
        return local
    if not len(local):
        return np.empty((0, width, 2))
    extra = np.repeat(local[:, -1:], width - local.shape[1], axis=1)
    return np.concatenate([local, extra], axis=1)


def pair_filter(layout: Layout, rows: Int64Array | None = None) -> PairFilter | None:
    """The layout's layer filter, or None when every pair passes it: every row is on a
    layer and sees all of them. Only ``rows`` are read when given (the others are known
    to pass)."""
    layer, mask = layout.layer, layout.mask
    if rows is not None:
        if _all_see_all(layer, mask, rows):
            return None
    elif (layer != 0).all() and (mask == ALL_LAYERS).all():
        return None
    return PairFilter(layout.layer, layout.mask)


@kernel("boolean(int64[:], int64[:], int64[::1])")
def _all_see_all(layer: IntArray, mask: IntArray, rows: Int64Array) -> bool:
    """Whether each of ``rows`` is on a layer and sees every layer (one compiled pass
    over a structural change's few rows)."""
    passing = True
    for row in rows:
        passing = passing and layer[row] != 0 and mask[row] == ALL_LAYERS
    return passing


@kernel("int64[::1](int64[::1])")
def sorted_unique(rows: Int64Array) -> Int64Array:
    """``numpy.unique`` of ``rows`` in one compiled call (a tick's short row lists pay
    more for numpy's separate passes than for the sort); rows of at least 0 (table
    rows) are sorted by their bytes
    (:func:`~arcade_collide.geometry.radix_sort.radix_order`).

    >>> sorted_unique(np.array([5, 2, 5, 0])).tolist()
    [0, 2, 5]
    >>> sorted_unique(np.array([3, -1, 3])).tolist()
    [-1, 3]
    """
    out: Int64Array = np.sort(rows) if len(rows) and rows.min() < 0 else rows[radix_order(rows)]
    count = 0
    for k in range(len(out)):
        if count == 0 or out[k] != out[count - 1]:
            out[count] = out[k]
            count += 1
    unique: Int64Array = out[:count].copy()
    return unique


@kernel("int64[::1](int64[::1], int64[::1])")
def table_rows_of(pool_rows: Int64Array, row_in_pool: Int64Array) -> Int64Array:
    """The table rows holding the pool rows ``pool_rows`` (any order, repeats allowed),
    ascending, each once; pool rows without a table row (-1 in ``row_in_pool``, or
    beyond it: allocated after the layout) are left out.

    >>> table_rows_of(np.array([4, 4, 0, 9, 0, 1]), np.array([2, -1, 5, 7, 0])).tolist()
    [0, 2]
    """
    out = np.empty(len(pool_rows), dtype=np.int64)
    count = 0
    for k in range(len(pool_rows)):
        row = pool_rows[k]
        if k and row == pool_rows[k - 1]:
            continue  # (a component's setters log its row once per field written)
        if 0 <= row < len(row_in_pool) and row_in_pool[row] >= 0:
            out[count] = row_in_pool[row]
            count += 1
    return sorted_unique(out[:count])

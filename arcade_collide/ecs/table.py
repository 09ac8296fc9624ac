"""Stage 1, shape table: reads Position and Shape components, writes world shapes and boxes.

One :class:`ShapeTable` per esper world holds each collidable entity's world-space
shape (as the pair kernels read them) and bounding box, rows grouped by
:class:`~arcade_collide.geometry.shapes.ShapeKind`, then entity id; one compiled pass
(:func:`~arcade_collide.geometry.query.placement.place_table`) places them all. Only
:meth:`ShapeTable.refresh` writes it, and does nothing when nothing changed, so
MovementSystem and CollisionSystem both call it. Per-entity Python work happens only
when the world's structure or a shape changed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection
from operator import itemgetter
from typing import Any, NamedTuple

import esper
import numpy as np
from numpy.typing import NDArray

from arcade_collide.ecs.components import Position, Shape, Static
from arcade_collide.ecs.esper_internals import holders, pending_deletions
from arcade_collide.ecs.storage import PooledRows, RowPool
from arcade_collide.ecs.world_state import ShapeEpoch, forget_deleted_worlds, world_state
from arcade_collide.geometry.arrays import BoolArray, FloatArray, IntArray
from arcade_collide.geometry.bounding_circles import (
    COORDINATE_MARGIN,
    circle_pose_circles,
    convex_pose_circles,
    coordinate_slack,
    pose_circles,
)
from arcade_collide.geometry.query.kernel_base import Int64Array, empty_rows
from arcade_collide.geometry.query.placement import place_table
from arcade_collide.geometry.query.rows import PairFilter, PoseCircles, WorldRows
from arcade_collide.geometry.shapes import ShapeKind

TABLE_QUERY = (Position, Shape)
"""The component query the table's layout comes from (``esper.get_components``)."""


class ShapeTable:
    """World-space shapes and bounding boxes of one esper world (see module docstring).

    Args:
        epoch: The world's shape epoch, which edits of the shapes placed here bump.
    """

    def __init__(self, epoch: ShapeEpoch | None = None) -> None:
        self._shape_epoch = epoch or ShapeEpoch()
        self._adopt(_Layout.build([], [], (), self._shape_epoch))
        self.slack = 0.0
        """:func:`~arcade_collide.geometry.bounding_circles.coordinate_slack` of the
        farthest any shape has reached: the pad of :attr:`aabbs` and the pose circles'
        slack. It only grows, so the boxes of shapes that did not move keep a valid pad."""
        self.revision = 0
        """Bumped by every refresh that changed anything."""
        self.layout = 0
        """Bumped whenever rows were reassigned (entities added, removed, regrouped)."""
        self.static_revision = 0
        """Bumped whenever the static rows' boxes were written."""
        self._source: object = None
        self._epoch = -1
        self._dead: frozenset[int] = frozenset()
        self._stamp: tuple[object, ...] = ("never refreshed",)
        self._prepared: tuple[_StructureKey, _Layout] | None = None
        self._rank: tuple[int, IntArray] | None = None
        self._placed: deque[tuple[int, Int64Array | None]] = deque(maxlen=8)
        """The rows each of the last refreshes placed (None: every row)."""

    def entity_rank(self) -> IntArray:
        """``(N,)`` rank of each row's entity id among the table's (0 = lowest id), so
        that ordering pairs by rank orders them by entity id. Built once per layout."""
        kept = self._rank
        if kept is None or kept[0] != self.layout:
            rank = np.empty(len(self.entities), dtype=np.int64)
            rank[np.argsort(self.entities, kind="stable")] = np.arange(len(self.entities))
            kept = (self.layout, rank)
            self._rank = kept
        return kept[1]

    def kernel_view(self) -> tuple[WorldRows, PairFilter | None, PoseCircles | None]:
        """The table as :func:`~arcade_collide.geometry.query.rows.touching_rows`
        reads it: the shapes, the layer filter (None when every pair passes it) and the
        pose circles (None without convex shapes)."""
        circles = None
        if self.has_convex:
            circles = PoseCircles(self.origin_x, self.origin_y, self.inner, self.outer, self.slack)
        return self.rows, self._filter, circles

    def prepare(self) -> None:
        """Rebuild the row layout now if the world's structure changed, without placing.

        MovementSystem calls this before it moves anything, so a structural error (a
        Shape without a Position) raises before any position changed. The layout built
        here is reused by the following :meth:`refresh`.

        Raises:
            ValueError: an entity has a Shape but no Position (named in the message).
        """
        key, structural = self._structure()
        if structural and (self._prepared is None or not _same(self._prepared[0], key)):
            self._prepared = (key, self._build(key))

    def refresh(self) -> None:
        """Bring the table up to date with the current esper world.

        Shapes are placed in place: the arrays of :attr:`rows`, :attr:`aabbs` and the
        pose origins keep their identity until the layout changes.

        Raises:
            ValueError: an entity has a Shape but no Position, or a non-finite
                position (the message names the entity). The table is left as it was.
        """
        key, structural = self._structure()
        edited = None
        if not structural and key[2] != self._epoch:
            # Shapes were edited: their rows are rewritten where they are, if they can be.
            edited = self._current.edit(self._shape_epoch.edited)
            structural = edited is None
        elif not structural and self._positions.unchanged_since(self._stamp):
            return
        layout = self._current
        if structural:
            prepared = self._prepared
            if prepared is not None and _same(prepared[0], key):
                layout = prepared[1]
            else:
                layout = self._build(key)
        self._prepared = None
        rebuilt = layout is not self._current
        poses, pose_rows = layout.poses()
        # Only the rows whose Position was written are placed again (all after a
        # structural change, or when the writes did not say which rows).
        written = None if rebuilt else layout.written_rows()
        if written is not None and edited is not None:
            written = _sorted_unique(np.concatenate([written, edited]))
        static_moved = written is None or bool(layout.static[written].any())
        which = layout.all_rows if written is None else written
        bad, reach = self._place(layout, poses, pose_rows, which)
        if bad >= 0:
            x, y, angle = poses[pose_rows[bad]].tolist()
            raise ValueError(
                f"entity {int(layout.entities[bad])}: Position is not finite "
                f"(x={x!r}, y={y!r}, angle={angle!r})"
            )
        if COORDINATE_MARGIN * reach > self.slack:
            # Shapes reach farther than before: every box gets the wider pad (rounded
            # up to a power of two, so this is rare).
            self.slack = coordinate_slack(reach)
            static_moved = True
            which = layout.all_rows
            self._place(layout, poses, pose_rows, which)
        if layout.pool is not None:
            layout.pool.written = []
        self._shape_epoch.edited = []
        self._epoch = key[2]
        if rebuilt:
            self._adopt(layout)
            self.layout += 1
            self._source = key[0]
            self._dead = frozenset(key[3])
        elif edited is not None and len(edited):
            self._filter = _pair_filter(layout)
        self._stamp = self._positions.stamp()
        self.revision += 1
        self._placed.append((self.revision, None if which is layout.all_rows else which))
        if static_moved:
            self.static_revision += 1

    def current(self) -> bool:
        """Whether :meth:`refresh` would find nothing to place: no entity added, removed
        or given another shape, and no Position written since it last ran."""
        key, structural = self._structure()
        return (
            not structural
            and key[2] == self._epoch
            and self._positions.unchanged_since(self._stamp)
        )

    def moved_since(self, revision: int) -> Int64Array | None:
        """The rows placed (written) after :attr:`revision` ``revision`` of this layout,
        ascending; None when that is not known or most rows moved (take every row as
        moved)."""
        if revision == self.revision:
            return np.empty(0, dtype=np.int64)
        if self._placed[-1][1] is None:  # the last refresh placed every row
            return None
        placed = [rows for at, rows in self._placed if at > revision]
        if len(placed) != self.revision - revision or any(rows is None for rows in placed):
            return None
        if 2 * sum(map(len, placed)) > len(self.entities):  # type: ignore[arg-type]
            return None  # most rows moved: take them all
        return _sorted_unique(np.concatenate(placed))  # type: ignore[arg-type]

    def _place(
        self, layout: _Layout, poses: FloatArray, pose_rows: Int64Array, which: Int64Array
    ) -> tuple[int, float]:
        return place_table(
            layout.rows, poses, pose_rows, which, layout.size_x, layout.size_y,
            layout.local, layout.nlocal, layout.aabbs, layout.origin_x, layout.origin_y,
            self.slack,
        )  # fmt: skip

    def _structure(self) -> tuple[_StructureKey, bool]:
        """What the layout depends on, and whether its entities differ from the current
        layout's (edits of their shapes are told by the epoch, ``key[2]``)."""
        source = esper.get_components(*TABLE_QUERY)
        dead = pending_deletions(entity for entity, _ in source)
        epoch = self._shape_epoch.value
        structural = source is not self._source or (
            (bool(dead) or bool(self._dead)) and dead != self._dead
        )
        return (source, holders(Shape), epoch, frozenset(dead)), structural

    def _build(self, key: _StructureKey) -> _Layout:
        return _Layout.build(key[0], key[1], key[3], self._shape_epoch)

    def _adopt(self, layout: _Layout) -> None:
        self._current = layout
        self._positions = layout.positions
        self.entities = layout.entities
        """``(N,)`` entity id of each table row."""
        self.kinds = layout.kinds
        """``(N,)`` :class:`ShapeKind` of each row (non-decreasing)."""
        self.layer = layout.layer
        self.mask = layout.mask
        self.sensor = layout.sensor
        self.static = layout.static
        """``(N,)`` True where the entity has :class:`~arcade_collide.ecs.components.Static`."""
        self.static_rows = layout.static_rows
        """The static rows, ascending."""
        self.dynamic_rows = layout.dynamic_rows
        """The other rows, ascending."""
        self.has_static = bool(len(layout.static_rows))
        self.inner = layout.inner
        """``(N,)`` inner radius of each row's shape about its pose origin
        (:func:`~arcade_collide.geometry.bounding_circles.pose_circles`)."""
        self.outer = layout.outer
        """``(N,)`` outer (bounding) radius, likewise."""
        self.rows = layout.rows
        """The world-space shapes, as the pair kernels read them."""
        self.aabbs = layout.aabbs
        """``(N, 4)`` rows ``(min_x, min_y, max_x, max_y)``, each side pushed out by
        :attr:`slack`: the exact tests round their products, so two shapes they find
        touching may have exact boxes a rounding step apart (tiles laid edge to edge at
        ``x = i * 0.3``), and the broad phase must still offer that pair."""
        self.origin_x = layout.origin_x
        """``(N,)`` pose origin x of each row."""
        self.origin_y = layout.origin_y
        self.has_convex = bool(len(layout.nlocal))
        """True when some row is a rectangle, triangle or polygon."""
        self._filter = _pair_filter(layout)


_StructureKey = tuple[Any, Any, int, frozenset[int]]
"""(esper's Position+Shape list, the entities holding a Shape, shape epoch, pending
deletions). The list is rebuilt by esper whenever any entity gains or loses a
component, so its identity tells a structural change; the holders are read for the
Shape-without-Position check only."""


def _same(a: _StructureKey, b: _StructureKey) -> bool:
    return a[0] is b[0] and a[2] == b[2] and a[3] == b[3]


class _Layout(NamedTuple):
    """A table's rows, their constant columns and the arrays placing writes into."""

    entities: IntArray
    positions: PooledRows
    kinds: NDArray[np.int8]
    layer: IntArray
    mask: IntArray
    sensor: BoolArray
    static: BoolArray
    static_rows: Int64Array
    dynamic_rows: Int64Array
    all_rows: Int64Array
    pool: RowPool | None
    """The one pool holding every row's Position (None: several pools, or none)."""
    pool_rows: Int64Array
    """Each table row's row in :attr:`pool`."""
    row_in_pool: Int64Array
    """Per row of :attr:`pool` (as it was when built), the table row reading it, or -1."""
    row_of_shape: dict[int, int] | None
    """The table row of each Shape component, by ``id`` (None: a Shape object is on
    several entities)."""
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

    def poses(self) -> tuple[FloatArray, Int64Array]:
        """The pose table and each row's row in it (the pool itself when there is one)."""
        if self.pool is not None:
            return self.pool.data, self.pool_rows
        return self.positions.read(), self.all_rows

    def written_rows(self) -> Int64Array | None:
        """The table rows whose Position was written since the pool's log was last
        cleared, ascending; None when the writes did not say which rows, or covered
        most rows."""
        if self.pool is None or self.pool.written is None:
            return None
        log = self.pool.written
        if 2 * sum(map(np.size, log)) > len(self.entities):
            return None  # most rows: place them all, without sorting the log
        # Rows beyond the map were allocated after the layout: not in this table.
        known = len(self.row_in_pool)
        found = []
        for written in map(np.atleast_1d, log):
            found.append(self.row_in_pool[written[written < known]])
        if not found:
            return np.empty(0, dtype=np.int64)
        table_rows = _sorted_unique(np.concatenate(found))
        return table_rows[table_rows >= 0]

    def edit(self, shapes: list[Shape] | None) -> Int64Array | None:
        """Rewrite the rows of the edited ``shapes`` in place; return those rows, or
        None when that cannot be done (a kind changed, a polygon grew past the table's
        width, too many edits): the layout must be built again."""
        if shapes is None or self.row_of_shape is None:
            return None
        rows = []
        for shape in shapes:
            row = self.row_of_shape.get(id(shape))
            if row is None:
                continue  # no longer in this world's table
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
            rows.append(row)
        return np.array(sorted(set(rows)), dtype=np.int64)

    @staticmethod
    def build(
        source: list[tuple[int, tuple[Position, Shape]]],
        shaped: Collection[int],
        dead: Collection[int],
        epoch: ShapeEpoch,
    ) -> _Layout:
        if len(shaped) != len(source):
            placed = {entity for entity, _ in source}
            missing = sorted(e for e in shaped if e not in placed and e not in dead)
            if missing:
                raise ValueError(
                    f"entity {missing[0]} has a Shape but no Position: add a Position "
                    "or remove the Shape"
                )
        live = [item for item in source if item[0] not in dead] if dead else list(source)
        # Kind-major, entity-minor: each kind is one block, rows in a fixed order.
        live.sort(key=itemgetter(0))
        n = len(live)
        by_kind = np.fromiter((s._geometry.kind for _, (_, s) in live), dtype=np.int8, count=n)
        live = [live[k] for k in np.argsort(by_kind, kind="stable").tolist()]
        try:
            entities = np.fromiter(map(itemgetter(0), live), dtype=np.int64, count=n)
        except OverflowError:
            # esper counts ids up from 1, so an id beyond int64 takes 2**63 creations.
            entity = max(entity for entity, _ in live)
            raise ValueError(f"entity {entity}: entity ids must be below 2**63") from None
        shapes = [shape for _, (_, shape) in live]
        for s in shapes:
            if epoch not in s._epochs:
                s._epochs += (epoch,)
        geoms = [s._geometry for s in shapes]
        kinds = np.fromiter((g.kind for g in geoms), dtype=np.int8, count=n)
        size_x, size_y, inner, outer = np.zeros((4, n))
        bounds = np.searchsorted(kinds, np.arange(len(ShapeKind) + 1), side="left").tolist()
        circles = slice(bounds[ShapeKind.CIRCLE], bounds[ShapeKind.RECT])
        size_x[circles] = [g.radius for g in geoms[circles]]  # type: ignore[union-attr]
        inner[circles], outer[circles] = circle_pose_circles(size_x[circles])
        rects = slice(bounds[ShapeKind.RECT], bounds[ShapeKind.TRIANGLE])
        size_x[rects] = [g.half_width for g in geoms[rects]]  # type: ignore[union-attr]
        size_y[rects] = [g.half_height for g in geoms[rects]]  # type: ignore[union-attr]
        # Convex outlines padded to one width with their last vertex.
        convex = slice(bounds[ShapeKind.RECT], n)
        outlines = [g.local_vertices() for g in geoms[convex]]  # type: ignore[union-attr]
        width = max(map(len, outlines), default=4)
        padded = [v + (v[-1],) * (width - len(v)) for v in outlines]
        local = np.array(padded, dtype=np.float64).reshape(len(outlines), width, 2)
        if outlines:
            inner[convex], outer[convex] = convex_pose_circles(local)
        polygons = outlines[bounds[ShapeKind.POLYGON] - bounds[ShapeKind.RECT] :]
        positions = PooledRows([position for _, (position, _) in live])
        static = np.isin(entities, np.fromiter(holders(Static), dtype=np.int64))
        pool = positions.pools[0] if len(positions.pools) == 1 else None
        pool_rows = positions.rows
        if len(np.unique(pool_rows)) < n:
            pool = None  # a Position shared by several entities: no row log
        row_in_pool = np.full(len(pool.data) if pool is not None else 0, -1, dtype=np.int64)
        if pool is not None:
            row_in_pool[pool_rows] = np.arange(n)
        row_of_shape: dict[int, int] | None = {id(s): row for row, s in enumerate(shapes)}
        if len(row_of_shape) < n:  # type: ignore[arg-type]
            row_of_shape = None
        return _Layout(
            entities, positions, kinds,
            np.fromiter((s._layer for s in shapes), dtype=np.int64, count=n),
            np.fromiter((s._mask for s in shapes), dtype=np.int64, count=n),
            np.fromiter((s._sensor for s in shapes), dtype=np.bool_, count=n),
            static, np.flatnonzero(static), np.flatnonzero(~static), np.arange(n), pool,
            pool_rows, row_in_pool, row_of_shape, inner, outer, size_x, size_y, local,
            np.fromiter(map(len, outlines), dtype=np.int64, count=len(outlines)),
            empty_rows(kinds, max(map(len, polygons), default=3)),
            np.empty((n, 4)), np.empty(n), np.empty(n),
        )  # fmt: skip


def _pair_filter(layout: _Layout) -> PairFilter | None:
    """The layout's layer filter, or None when every pair passes it."""
    if (layout.layer != 0).all() and (layout.mask == 0xFFFF_FFFF).all():
        return None
    return PairFilter(layout.layer, layout.mask)


def _sorted_unique(rows: Int64Array) -> Int64Array:
    """``numpy.unique`` by a sort, quicker for the short row lists of a tick."""
    rows = np.sort(rows)
    return rows[np.concatenate(([True], rows[1:] != rows[:-1]))] if len(rows) else rows


def table_for_current_world() -> ShapeTable:
    """The :class:`ShapeTable` of the current esper world, created on first use.

    A world deleted and created again under the same name gets a fresh table.
    """
    forget_deleted_worlds()
    state = world_state()
    table: ShapeTable | None = state.table
    if table is None:
        table = ShapeTable(state.shape_epoch)
        state.table = table
    return table

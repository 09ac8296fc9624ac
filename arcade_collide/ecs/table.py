"""The world-space shape table: every collidable entity's shape, placed in the world.

One :class:`ShapeTable` per esper world holds, for each entity with a
:class:`~arcade_collide.ecs.components.Position` and a
:class:`~arcade_collide.ecs.components.Shape`, its world-space batch record
(:mod:`arcade_collide.geometry.arrays`) and its axis-aligned bounding box. Rows are
grouped by shape kind (Point, Circle, Rect, Triangle, Polygon, in
:class:`~arcade_collide.geometry.shapes.ShapeKind` order) and by entity id within a
kind, so each kind is one contiguous block and one batch record.

Only :meth:`ShapeTable.refresh` writes the table. MovementSystem calls it after
moving; CollisionSystem calls it too, and the call does nothing when nothing
changed since the last refresh (no entity added or removed, no shape edited, no
position written). So a world without a MovementSystem still sees positions edited
by hand, and a world with one refreshes once per tick.

Per-entity Python work happens only when the world's structure or a shape changed;
a steady-state refresh is a handful of numpy operations per shape kind.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, NamedTuple

import esper
import numpy as np
from numpy.typing import NDArray

from arcade_collide.ecs.components import Position, Shape, shape_epoch
from arcade_collide.ecs.storage import POSITIONS
from arcade_collide.geometry import compiled
from arcade_collide.geometry.arrays import (
    BoolArray,
    CircleArrays,
    FloatArray,
    IntArray,
    PointArrays,
    PolygonArrays,
    RectArrays,
    ShapeArrays,
    TriangleArrays,
    place_vertices,
    rotations,
    transform_columns,
)
from arcade_collide.geometry.bounding_circles import (
    circle_pose_circles,
    convex_pose_circles,
    coordinate_slack,
)
from arcade_collide.geometry.query.rows import (
    PairFilter,
    PoseCircles,
    WorldRows,
    world_rows,
)
from arcade_collide.geometry.shapes import ShapeKind

KINDS = len(ShapeKind)
_CONVEX = (ShapeKind.RECT, ShapeKind.TRIANGLE, ShapeKind.POLYGON)

# esper keeps a world's state in module globals that switch_world swaps; these are
# read to tell worlds apart, to see deletions that are still pending and to find the
# entities holding a Shape. They are private to esper 3.9 (pinned ~=3.9 in
# pyproject.toml).
_ESPER_ENTITIES = "_entities"
_ESPER_DEAD = "_dead_entities"
_ESPER_COMPONENTS = "_components"
_ESPER_QUERIES = "_get_components_cache"
TABLE_QUERY = (Position, Shape)
"""The component query the table's layout comes from (``esper.get_components``)."""
_NOBODY: set[int] = set()


def world_identity() -> object:
    """An object that is the same for as long as the current esper world exists."""
    return getattr(esper, _ESPER_ENTITIES)


def structure_probe() -> tuple[dict[Any, Any], object]:
    """esper's query cache and the table's query answer in it (None if not cached).

    esper empties that cache whenever an entity is created or deleted at once, even if
    a later query fills it again: while the cache still holds the same answer object,
    no entity came or went that way.
    """
    queries: dict[Any, Any] = getattr(esper, _ESPER_QUERIES)
    return queries, queries.get(TABLE_QUERY)


def pending_deletions() -> set[int]:
    """Entities marked dead (``esper.delete_entity``) but not yet removed by esper."""
    dead: set[int] = getattr(esper, _ESPER_DEAD)
    return dead


class KindBlock(NamedTuple):
    """The rows of one shape kind in a :class:`ShapeTable`."""

    kind: ShapeKind
    start: int
    """First table row of this kind."""
    stop: int
    """One past the last row."""
    local: tuple[NDArray[Any], ...]
    """Local geometry, vertices always last: () for points, (radius,) for circles,
    (half, vertices) for rectangles, (vertices,) for triangles, (nverts, vertices)
    for polygons."""
    columns: tuple[FloatArray, ...]
    """Convex kinds: local vertex x and y, vertex-major ``(K, M)`` (for
    ``transform_columns``); empty for points and circles."""


class ShapeTable:
    """World-space shapes and bounding boxes of one esper world (see module docstring)."""

    def __init__(self) -> None:
        self.entities: IntArray = np.empty(0, dtype=np.int64)
        """``(N,)`` entity id of each table row."""
        self.kinds: NDArray[np.int8] = np.empty(0, dtype=np.int8)
        """``(N,)`` :class:`ShapeKind` of each row (non-decreasing)."""
        self.blocks: list[KindBlock] = []
        """The kinds present, in kind order."""
        self.layer: IntArray = np.empty(0, dtype=np.int64)
        self.mask: IntArray = np.empty(0, dtype=np.int64)
        self.sensor: BoolArray = np.empty(0, dtype=np.bool_)
        self.inner: FloatArray = np.empty(0, dtype=np.float64)
        """``(N,)`` inner radius of each row's shape about its pose origin
        (:func:`~arcade_collide.geometry.bounding_circles.pose_circles`)."""
        self.outer: FloatArray = np.empty(0, dtype=np.float64)
        """``(N,)`` outer (bounding) radius, likewise."""
        self.has_convex = False
        """True when some row is a rectangle, triangle or polygon."""
        self.filters_everything_in = True
        """True when every pair passes the layer/mask filter (all default settings)."""
        self.world: dict[ShapeKind, ShapeArrays] = {}
        """World-space batch record per kind present."""
        self.aabbs: FloatArray = np.empty((0, 4), dtype=np.float64)
        """``(N, 4)`` rows ``(min_x, min_y, max_x, max_y)``, each side pushed out by
        :attr:`slack`: the exact tests round their products, so two shapes they find
        touching may have exact boxes a rounding step apart (tiles laid edge to edge at
        ``x = i * 0.3``), and the broad phase must still offer that pair."""
        self.slack = 0.0
        """:func:`~arcade_collide.geometry.bounding_circles.coordinate_slack` of the
        shapes' exact boxes: the pad of :attr:`aabbs` and the pose circles' slack."""
        self.origin_x: FloatArray = np.empty(0, dtype=np.float64)
        """``(N,)`` pose origin x of each row (a contiguous copy of the positions)."""
        self.origin_y: FloatArray = np.empty(0, dtype=np.float64)
        self.revision = 0
        """Bumped by every refresh that changed anything."""
        self.layout = 0
        """Bumped whenever rows were reassigned (entities added, removed, regrouped)."""
        self._rows: IntArray = np.empty(0, dtype=np.intp)
        self._rows_slice: slice | None = None
        self._source: object = None
        self._epoch = -1
        self._dead: frozenset[int] = frozenset()
        self._pool_data: object = None
        self._pool_version = -1
        self._prepared: tuple[_StructureKey, _Layout] | None = None
        self._kernel_view: tuple[int, WorldRows, PairFilter | None, PoseCircles | None] | None
        self._kernel_view = None
        self._rank: tuple[int, IntArray] | None = None

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
        """The table as :func:`~arcade_collide.geometry.query.compiled_pairs.touching_rows`
        reads it: the shapes, the layer filter (None when every pair passes it) and the
        pose circles (None without convex shapes), built once per :attr:`revision`."""
        view = self._kernel_view
        if view is None or view[0] != self.revision:
            start = {block.kind: block.start for block in self.blocks}
            pair_filter = None if self.filters_everything_in else PairFilter(self.layer, self.mask)
            circles = None
            if self.has_convex:
                circles = PoseCircles(
                    self.origin_x, self.origin_y, self.inner, self.outer, self.slack
                )
            view = (self.revision, world_rows(self.kinds, self.world, start), pair_filter, circles)
            self._kernel_view = view
        return view[1], view[2], view[3]

    @property
    def size(self) -> int:
        """Number of rows (collidable entities)."""
        return len(self.entities)

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
            self._prepared = (key, _Layout.build(key[0], key[1], key[3]))

    def refresh(self) -> None:
        """Bring the table up to date with the current esper world.

        Raises:
            ValueError: an entity has a Shape but no Position, or a non-finite
                position (the message names the entity). The table is left as it was.
        """
        key, structural = self._structure()
        if (
            not structural
            and POSITIONS.version == self._pool_version
            and POSITIONS.data is self._pool_data
        ):
            return
        rebuilt = None
        if structural:
            prepared = self._prepared
            if prepared is not None and _same(prepared[0], key):
                rebuilt = prepared[1]
            else:
                rebuilt = _Layout.build(key[0], key[1], key[3])
        self._prepared = None
        layout = rebuilt if rebuilt is not None else self._layout()
        world, aabbs, origin_x, origin_y = _place(layout)
        slack = coordinate_slack(aabbs)
        if slack > 0.0:
            # One pass per column of the flat array (see _place on (n, 4) operations).
            flat = aabbs.ravel()
            flat[0::4] -= slack
            flat[1::4] -= slack
            flat[2::4] += slack
            flat[3::4] += slack
        # Everything validated and computed: commit.
        if rebuilt is not None:
            self._adopt(rebuilt)
            self.layout += 1
            self._source, self._epoch = key[0], key[2]
            self._dead = frozenset(key[3])
        self.world = world
        self.aabbs = aabbs
        self.slack = slack
        self.origin_x = origin_x
        self.origin_y = origin_y
        self._pool_data = POSITIONS.data
        self._pool_version = POSITIONS.version
        self.revision += 1

    def _structure(self) -> tuple[_StructureKey, bool]:
        """What the layout depends on, and whether it differs from the current layout's."""
        source = esper.get_components(*TABLE_QUERY)
        # esper's own set of the entities holding a Shape, read rather than a second
        # get_component query: each query is rebuilt entity by entity after every
        # structural change, and only the count and the ids are needed here.
        holders = getattr(esper, _ESPER_COMPONENTS).get(Shape, _NOBODY)
        dead = pending_deletions()
        structural = (
            source is not self._source
            or shape_epoch() != self._epoch
            or ((bool(dead) or bool(self._dead)) and dead != self._dead)
        )
        return (source, holders, shape_epoch(), frozenset(dead)), structural

    def _layout(self) -> _Layout:
        return _Layout(self.entities, self._rows, self._rows_slice, self.kinds, self.blocks,
                       self.layer, self.mask, self.sensor, self.inner, self.outer)

    def _adopt(self, layout: _Layout) -> None:
        self.entities = layout.entities
        self._rows = layout.rows
        self._rows_slice = layout.rows_slice
        self.kinds = layout.kinds
        self.blocks = layout.blocks
        self.layer = layout.layer
        self.mask = layout.mask
        self.sensor = layout.sensor
        self.inner = layout.inner
        self.outer = layout.outer
        self.has_convex = any(block.kind in _CONVEX for block in layout.blocks)
        self.filters_everything_in = bool(
            (layout.layer != 0).all() and (layout.mask == 0xFFFF_FFFF).all()
        )


_StructureKey = tuple[Any, Any, int, frozenset[int]]
"""(esper's Position+Shape list, the entities holding a Shape, shape epoch, pending
deletions). The list is rebuilt by esper whenever any entity gains or loses a
component, so its identity tells a structural change; the holders are read for the
Shape-without-Position check only."""


def _same(a: _StructureKey, b: _StructureKey) -> bool:
    return a[0] is b[0] and a[2] == b[2] and a[3] == b[3]


class _Layout(NamedTuple):
    entities: IntArray
    rows: IntArray
    rows_slice: slice | None
    kinds: NDArray[np.int8]
    blocks: list[KindBlock]
    layer: IntArray
    mask: IntArray
    sensor: BoolArray
    inner: FloatArray
    outer: FloatArray

    @staticmethod
    def build(
        source: list[tuple[int, tuple[Position, Shape]]],
        holders: set[int],
        dead: set[int] | frozenset[int],
    ) -> _Layout:
        if len(holders) != len(source):
            placed = {entity for entity, _ in source}
            missing = sorted(e for e in holders if e not in placed and e not in dead)
            if missing:
                raise ValueError(
                    f"entity {missing[0]} has a Shape but no Position: add a Position "
                    "or remove the Shape"
                )
        live = [item for item in source if item[0] not in dead] if dead else list(source)
        # Kind-major, entity-minor: each kind is one block, rows in a fixed order.
        live.sort(key=lambda item: (item[1][1]._geometry.kind, item[0]))
        n = len(live)
        entities = np.fromiter(map(itemgetter(0), live), dtype=np.int64, count=n)
        if n and int(entities.max()) >= 2**31:
            # Pairs are keyed as a << 32 | b in an int64.
            raise ValueError(f"entity ids must be below 2**31, got {int(entities.max())}")
        comps = [item[1] for item in live]
        rows = np.fromiter((p._row for p, _ in comps), dtype=np.intp, count=n)
        shapes = [s for _, s in comps]
        kinds = np.fromiter((s._geometry.kind for s in shapes), dtype=np.int8, count=n)
        layer = np.fromiter((s._layer for s in shapes), dtype=np.int64, count=n)
        mask = np.fromiter((s._mask for s in shapes), dtype=np.int64, count=n)
        sensor = np.fromiter((s._sensor for s in shapes), dtype=np.bool_, count=n)
        rows_slice = None
        if n and int(rows[-1]) - int(rows[0]) == n - 1 and (np.diff(rows) == 1).all():
            rows_slice = slice(int(rows[0]), int(rows[-1]) + 1)
        blocks = []
        inner = np.zeros(n, dtype=np.float64)
        outer = np.zeros(n, dtype=np.float64)
        bounds = np.searchsorted(kinds, np.arange(KINDS + 1), side="left")
        for kind in ShapeKind:
            start, stop = int(bounds[kind]), int(bounds[kind + 1])
            if stop > start:
                local = _local(kind, shapes[start:stop])
                columns: tuple[FloatArray, ...] = ()
                if kind in _CONVEX:
                    vertices = local[-1]
                    columns = (
                        np.ascontiguousarray(vertices[:, :, 0].T),
                        np.ascontiguousarray(vertices[:, :, 1].T),
                    )
                blocks.append(KindBlock(kind, start, stop, local, columns))
                if kind is ShapeKind.CIRCLE:
                    inner[start:stop], outer[start:stop] = circle_pose_circles(local[0])
                elif kind in _CONVEX:
                    inner[start:stop], outer[start:stop] = convex_pose_circles(local[-1])
        return _Layout(
            entities, rows, rows_slice, kinds, blocks, layer, mask, sensor, inner, outer
        )


def _local(kind: ShapeKind, shapes: list[Shape]) -> tuple[NDArray[Any], ...]:
    geoms = [s._geometry for s in shapes]
    m = len(geoms)
    if kind is ShapeKind.POINT:
        return ()
    if kind is ShapeKind.CIRCLE:
        return (np.fromiter((g.radius for g in geoms), dtype=np.float64, count=m),)  # type: ignore[union-attr]
    if kind is ShapeKind.RECT:
        half = np.array([(g.half_width, g.half_height) for g in geoms], dtype=np.float64)  # type: ignore[union-attr]
        corners = np.array([(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)])
        return (half, half[:, None, :] * corners[None, :, :])
    if kind is ShapeKind.TRIANGLE:
        return (np.array([g.local_vertices() for g in geoms], dtype=np.float64),)  # type: ignore[union-attr]
    nverts = np.fromiter((len(g.points) for g in geoms), dtype=np.intp, count=m)  # type: ignore[union-attr]
    k = int(nverts.max())
    padded = [list(g.points) + [g.points[-1]] * (k - len(g.points)) for g in geoms]  # type: ignore[union-attr]
    return (nverts, np.array(padded, dtype=np.float64))


def _place(
    layout: _Layout,
) -> tuple[dict[ShapeKind, ShapeArrays], FloatArray, FloatArray, FloatArray]:
    """World-space records, boxes and pose origins (x, y) of every row."""
    data = POSITIONS.data
    poses = data[layout.rows_slice] if layout.rows_slice is not None else data.take(
        layout.rows, axis=0
    )
    if not np.isfinite(poses).all():
        row = int(np.flatnonzero(~np.isfinite(poses).all(axis=1))[0])
        x, y, angle = poses[row].tolist()
        raise ValueError(
            f"entity {int(layout.entities[row])}: Position is not finite "
            f"(x={x!r}, y={y!r}, angle={angle!r})"
        )
    n = len(poses)
    # Work on whole columns: numpy runs an operation on (n, 2) or (n, 4) rows through
    # an inner loop of length 2 or 4 when it cannot flatten them (strided views,
    # broadcasting), which measured five to eight times slower than the same
    # operation on each column.
    x_all = poses[:, 0]
    y_all = poses[:, 1]
    aabbs = np.empty((n, 4), dtype=np.float64)
    world: dict[ShapeKind, ShapeArrays] = {}
    for block in layout.blocks:
        sl = slice(block.start, block.stop)
        x, y = x_all[sl], y_all[sl]
        xy = np.empty((len(x), 2), dtype=np.float64)
        xy[:, 0] = x
        xy[:, 1] = y
        box = aabbs[sl]
        kind = block.kind
        if kind is ShapeKind.POINT:
            world[kind] = PointArrays(xy)
            box[:, 0] = x
            box[:, 1] = y
            box[:, 2] = x
            box[:, 3] = y
            continue
        if kind is ShapeKind.CIRCLE:
            radius = block.local[0]
            world[kind] = CircleArrays(xy, radius)
            np.subtract(x, radius, out=box[:, 0])
            np.subtract(y, radius, out=box[:, 1])
            np.add(x, radius, out=box[:, 2])
            np.add(y, radius, out=box[:, 3])
            continue
        cos, sin = rotations(poses[sl, 2])
        local_x, local_y = block.columns
        if compiled.ENABLED:
            vertices = place_vertices(x, y, cos, sin, local_x, local_y, box)
        else:
            world_x, world_y = transform_columns(local_x, local_y, xy, cos, sin)
            vertices = np.empty((len(xy), len(local_x), 2), dtype=np.float64)
            vertices[:, :, 0] = world_x.T
            vertices[:, :, 1] = world_y.T
            np.minimum.reduce(world_x, axis=0, out=box[:, 0])
            np.minimum.reduce(world_y, axis=0, out=box[:, 1])
            np.maximum.reduce(world_x, axis=0, out=box[:, 2])
            np.maximum.reduce(world_y, axis=0, out=box[:, 3])
        if kind is ShapeKind.RECT:
            axis = np.empty_like(xy)
            axis[:, 0] = cos
            np.negative(sin, out=axis[:, 1])
            world[kind] = RectArrays(xy, axis, block.local[0], vertices)
        elif kind is ShapeKind.TRIANGLE:
            world[kind] = TriangleArrays(vertices)
        else:
            world[kind] = PolygonArrays(vertices, block.local[0])
    return world, aabbs, x_all.copy(), y_all.copy()


_tables: dict[str, tuple[object, ShapeTable]] = {}


def table_for_current_world() -> ShapeTable:
    """The :class:`ShapeTable` of the current esper world, created on first use.

    A world deleted and created again under the same name gets a fresh table; the
    tables of deleted worlds are dropped at the next call while several are kept.
    """
    name = esper.current_world
    identity = world_identity()
    if len(_tables) > 1:
        # Forget the tables of deleted worlds: each holds its world's entities (and so
        # every component of that world) alive.
        alive = esper.list_worlds()
        for stale in [n for n in _tables if n not in alive]:
            del _tables[stale]
    entry = _tables.get(name)
    if entry is None or entry[0] is not identity:
        entry = (identity, ShapeTable())
        _tables[name] = entry
    return entry[1]

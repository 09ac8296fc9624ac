"""Stage 1, shape table: reads Position and Shape components, writes world shapes and boxes.

One :class:`ShapeTable` per esper world holds each collidable entity's world-space
batch record (:mod:`arcade_collide.geometry.arrays`) and bounding box, rows grouped by
:class:`~arcade_collide.geometry.shapes.ShapeKind`, then entity id. Only
:meth:`ShapeTable.refresh` writes it, and does nothing when nothing changed, so
MovementSystem and CollisionSystem both call it. Per-entity Python work happens only
when the world's structure or a shape changed.
"""

from __future__ import annotations

from collections.abc import Collection
from operator import itemgetter
from typing import Any, NamedTuple

import esper
import numpy as np
from numpy.typing import NDArray

from arcade_collide.ecs.components import Position, Shape
from arcade_collide.ecs.esper_internals import holders, pending_deletions
from arcade_collide.ecs.storage import PooledRows
from arcade_collide.ecs.world_state import ShapeEpoch, forget_deleted_worlds, world_state
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

TABLE_QUERY = (Position, Shape)
"""The component query the table's layout comes from (``esper.get_components``)."""


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
    ``place_vertices``); empty for points and circles."""


class ShapeTable:
    """World-space shapes and bounding boxes of one esper world (see module docstring).

    Args:
        epoch: The world's shape epoch, which edits of the shapes placed here bump.
    """

    def __init__(self, epoch: ShapeEpoch | None = None) -> None:
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
        self._positions = PooledRows([])
        self._source: object = None
        self._shape_epoch = epoch or ShapeEpoch()
        self._epoch = -1
        self._dead: frozenset[int] = frozenset()
        self._stamp: tuple[object, ...] = ("never refreshed",)
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
        """The table as :func:`~arcade_collide.geometry.query.rows.touching_rows`
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

        Raises:
            ValueError: an entity has a Shape but no Position, or a non-finite
                position (the message names the entity). The table is left as it was.
        """
        key, structural = self._structure()
        if not structural and self._positions.unchanged_since(self._stamp):
            return
        rebuilt = None
        if structural:
            prepared = self._prepared
            if prepared is not None and _same(prepared[0], key):
                rebuilt = prepared[1]
            else:
                rebuilt = self._build(key)
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
        self._stamp = self._positions.stamp()
        self.revision += 1

    def _structure(self) -> tuple[_StructureKey, bool]:
        """What the layout depends on, and whether it differs from the current layout's."""
        source = esper.get_components(*TABLE_QUERY)
        holding = holders(Shape)
        dead = pending_deletions(entity for entity, _ in source)
        epoch = self._shape_epoch.value
        structural = (
            source is not self._source
            or epoch != self._epoch
            or ((bool(dead) or bool(self._dead)) and dead != self._dead)
        )
        return (source, holding, epoch, frozenset(dead)), structural

    def _build(self, key: _StructureKey) -> _Layout:
        return _Layout.build(key[0], key[1], key[3], self._shape_epoch)

    def _layout(self) -> _Layout:
        return _Layout(self.entities, self._positions, self.kinds, self.blocks,
                       self.layer, self.mask, self.sensor, self.inner, self.outer)

    def _adopt(self, layout: _Layout) -> None:
        self.entities = layout.entities
        self._positions = layout.positions
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
    positions: PooledRows
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
        holders: Collection[int],
        dead: Collection[int],
        epoch: ShapeEpoch,
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
        positions = PooledRows([p for p, _ in comps])
        shapes = [s for _, s in comps]
        for s in shapes:
            if epoch not in s._epochs:
                s._epochs += (epoch,)
        kinds = np.fromiter((s._geometry.kind for s in shapes), dtype=np.int8, count=n)
        layer = np.fromiter((s._layer for s in shapes), dtype=np.int64, count=n)
        mask = np.fromiter((s._mask for s in shapes), dtype=np.int64, count=n)
        sensor = np.fromiter((s._sensor for s in shapes), dtype=np.bool_, count=n)
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
            entities, positions, kinds, blocks, layer, mask, sensor, inner, outer
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
    poses = layout.positions.read()
    if not np.isfinite(poses).all():
        row = int(np.flatnonzero(~np.isfinite(poses).all(axis=1))[0])
        x, y, angle = poses[row].tolist()
        raise ValueError(
            f"entity {int(layout.entities[row])}: Position is not finite "
            f"(x={x!r}, y={y!r}, angle={angle!r})"
        )
    n = len(poses)
    # Work on whole columns: numpy runs an operation on (n, 2) or (n, 4) rows that it
    # cannot flatten (strided views, broadcasting) through an inner loop of length 2
    # or 4, several times slower than one long loop per column.
    x_all = poses[:, 0]
    y_all = poses[:, 1]
    aabbs = np.empty((n, 4), dtype=np.float64)
    world: dict[ShapeKind, ShapeArrays] = {}
    # The convex kinds are the last blocks (rows are kind-major): one rotations call
    # serves them all.
    first_convex = next((b.start for b in layout.blocks if b.kind in _CONVEX), n)
    cos_all = sin_all = poses[:0, 2]
    if first_convex < n:
        cos_all, sin_all = rotations(poses[first_convex:, 2])
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
        turn = slice(block.start - first_convex, block.stop - first_convex)
        cos, sin = cos_all[turn], sin_all[turn]
        local_x, local_y = block.columns
        vertices = place_vertices(x, y, cos, sin, local_x, local_y, box)
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

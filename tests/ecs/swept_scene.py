"""Walls, swept bullets and the brute-force reference of the swept-detection tests
(``test_swept_reference.py``).

The scene: static walls 1-16 px thick (rectangles, thin triangles and thin convex
polygons, some of them sensors) and 2 px bullets (``Shape(Circle(1), swept=True)``) at
6,000 px/s. Bullets and walls collide; bullets never collide with each other (layer
filter), so each bullet's events name walls only.

The reference sub-steps a bullet's straight path over a tick in steps of 0.01 px (1/100
of the thinnest wall's 1 px, the smallest size in the scene) and measures, with shapely,
the distance from each sub-step to the walls near the path: a wall is touched when some
sub-step is within the bullet's radius of it.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import esper
import numpy as np
import shapely

from arcade_collide import Circle, Polygon, Rect, Triangle
from arcade_collide.ecs import (
    CollisionEnded,
    CollisionStarted,
    CollisionSystem,
    Position,
    Shape,
    Static,
    Velocity,
)
from arcade_collide.geometry.arrays import FloatArray, pack
from arcade_collide.geometry.shapes import AnyShape

RADIUS = 1.0
"""The bullets' radius: 2 px bullets."""
SPEED = 6000.0
"""The bullets' speed in px/s."""
THICKNESS = (1.0, 16.0)
"""The range of the walls' thickness in px."""
STEP = min(2 * RADIUS, THICKNESS[0]) / 100
"""The reference's sub-step: 1/100 of the smallest size in the scene (the thinnest wall)."""
ARENA = 600.0
"""Walls lie in ``[0, ARENA]^2``; bullets leaving ``[-MARGIN, ARENA + MARGIN]^2`` go."""
MARGIN = 50.0
BULLETS, WALLS = 2, 1
"""Layer bits: walls collide with everything, bullets with walls only."""
DT = (1 / 240, 1 / 30)
"""The range of tick lengths in seconds."""

Event = CollisionStarted | CollisionEnded
Pair = tuple[int, int]


@dataclass(frozen=True)
class Wall:
    """A static wall entity and its shapely outline."""

    entity: int
    geometry: AnyShape
    pose: tuple[float, float, float]
    sensor: bool
    outline: shapely.Polygon
    box: tuple[float, float, float, float]
    reach: shapely.Polygon
    """The outline grown by ``RADIUS + 2 * STEP``."""


def wall_geometry(rng: np.random.Generator) -> AnyShape:
    """A wall 1-16 px thick: a rectangle, or a thin triangle or hexagon of that
    thickness at its widest."""
    thick = float(rng.uniform(*THICKNESS))
    half = float(rng.uniform(15.0, 120.0))
    kind = rng.choice(3, p=[0.6, 0.2, 0.2])
    if kind == 0:
        return Rect(2 * half, thick)
    if kind == 1:
        return Triangle((-half, -thick / 2), (half, -thick / 2), (0.0, thick / 2))
    tip = half - thick / 2
    return Polygon(
        [(-half, 0.0), (-tip, -thick / 2), (tip, -thick / 2), (half, 0.0),
         (tip, thick / 2), (-tip, thick / 2)]
    )  # fmt: skip


def add_walls(rng: np.random.Generator, n: int, sensors: float = 0.2) -> list[Wall]:
    """``n`` static walls at random places and angles, a fraction of them sensors."""
    walls = []
    for _ in range(n):
        geometry = wall_geometry(rng)
        x, y = (float(v) for v in rng.uniform(0.0, ARENA, 2))
        pose = (x, y, float(rng.uniform(-180.0, 180.0)))
        sensor = bool(rng.random() < sensors)
        shape = Shape(geometry, layer=WALLS, sensor=sensor)
        entity = esper.create_entity(Position(*pose), shape, Static())
        vertices = pack([geometry], [pose]).vertices[0, : len(geometry.local_vertices())]  # type: ignore[union-attr]
        outline = shapely.Polygon(vertices)
        shapely.prepare(outline)
        box = (*vertices.min(axis=0).tolist(), *vertices.max(axis=0).tolist())
        reach = outline.buffer(RADIUS + 2 * STEP)
        shapely.prepare(reach)
        walls.append(Wall(entity, geometry, pose, sensor, outline, box, reach))
    return walls


def add_bullet(
    rng: np.random.Generator, walls: list[Wall] | None = None, stop_at_impact: bool = False
) -> int:
    """A swept bullet at a random place, flying at :data:`SPEED` in a random direction;
    clear of every wall of ``walls`` when given."""
    while True:
        x, y = (float(v) for v in rng.uniform(0.0, ARENA, 2))
        if walls is None or distances(walls, np.array([x, y])).min() > RADIUS + 0.1:
            break
    angle = float(rng.uniform(0.0, 2 * math.pi))
    shape = Shape(
        Circle(RADIUS), layer=BULLETS, mask=WALLS, swept=True, stop_at_impact=stop_at_impact
    )
    velocity = Velocity(SPEED * math.cos(angle), SPEED * math.sin(angle))
    return esper.create_entity(Position(x, y), velocity, shape)


def distances(walls: list[Wall], point: FloatArray) -> FloatArray:
    """The distance from ``point`` to each wall."""
    found: FloatArray = shapely.distance([w.outline for w in walls], shapely.Point(point))
    return found


def out_of_arena(point: FloatArray) -> bool:
    return bool(((point < -MARGIN) | (point > ARENA + MARGIN)).any())


@dataclass(frozen=True)
class Touch:
    """What the reference saw of one wall over one bullet path."""

    first: float | None
    """The fraction of the path at the first sub-step touching the wall, or None."""
    closest: float
    """The smallest distance from a sub-step to the wall."""


def reference(walls: list[Wall], start: FloatArray, end: FloatArray) -> dict[int, Touch]:
    """The walls near the path from ``start`` to ``end``, by entity, as the sub-stepped
    bullet saw them. Walls left out are farther than ``RADIUS + STEP`` from the path."""
    lo = np.minimum(start, end) - RADIUS - STEP
    hi = np.maximum(start, end) + RADIUS + STEP
    near = [
        w for w in walls
        if w.box[0] <= hi[0] and w.box[2] >= lo[0] and w.box[1] <= hi[1] and w.box[3] >= lo[1]
    ]  # fmt: skip
    if not near:
        return {}
    path = shapely.LineString([start, end]) if (start != end).any() else shapely.Point(start)
    # The exact distance to the segment picks the walls worth sub-stepping.
    near = [w for w in near if shapely.distance(w.outline, path) <= RADIUS + STEP]
    motion = end - start
    n = max(1, math.ceil(float(np.hypot(*motion)) / STEP))
    found = {}
    for wall in near:
        # Sub-steps k / n of the path, only over the stretch within reach of the wall.
        lo_t, hi_t = _window(wall, path, start, motion)
        k = np.arange(math.floor(lo_t * n), math.ceil(hi_t * n) + 1)
        fractions = k / n
        gaps = shapely.distance(wall.outline, shapely.points(start + fractions[:, None] * motion))
        touching = np.flatnonzero(gaps <= RADIUS)
        first = float(fractions[touching[0]]) if len(touching) else None
        found[wall.entity] = Touch(first, float(gaps.min()))
    return found


def _window(
    wall: Wall, path: shapely.Geometry, start: FloatArray, motion: FloatArray
) -> tuple[float, float]:
    """The fractions ``[lo, hi]`` of the path ``start + f * motion`` (``0 <= f <= 1``)
    that pass within ``RADIUS + 2 * STEP`` of the wall (shapely's buffer, a polygon
    inscribed in the true offset curve, still holds every point within ``RADIUS + STEP``)."""
    ends = shapely.get_coordinates(shapely.intersection(path, wall.reach)) - start
    length2 = float(motion @ motion)
    if not len(ends) or length2 == 0.0:
        return 0.0, 1.0
    fractions = ends @ motion / length2
    return max(0.0, float(fractions.min())), min(1.0, float(fractions.max()))


class Ledger:
    """Every event of a CollisionSystem, tick by tick, and a count of live contacts per
    pair that must stay 0 or 1: every start is matched by exactly one end."""

    def __init__(self, collisions: CollisionSystem) -> None:
        self.collisions = collisions
        self.tick: list[Event] = []
        """This tick's events, in delivery order."""
        self.live: Counter[Pair] = Counter()
        self.started = 0
        self.ended = 0
        collisions.subscribe(on_started=self._on_event, on_ended=self._on_event)

    def _on_event(self, event: Event) -> None:
        pair = (event.a, event.b)
        assert event.a < event.b
        if isinstance(event, CollisionStarted):
            for entity in pair:
                assert esper.entity_exists(entity), f"CollisionStarted names dead {entity}"
            self.live[pair] += 1
            self.started += 1
            assert self.live[pair] == 1, f"a second CollisionStarted for {pair}"
        else:
            self.live[pair] -= 1
            self.ended += 1
            assert self.live[pair] == 0, f"CollisionEnded for {pair}, which was not open"
        self.tick.append(event)

    def process(self, dt: float) -> list[Event]:
        """Run one tick; its events. The open pairs are then the system's pairs."""
        self.tick = []
        esper.process(dt)
        touching = set(self.collisions.touching())
        open_pairs = {p for p, n in self.live.items() if n and all(map(esper.entity_exists, p))}
        assert open_pairs == touching, sorted(open_pairs ^ touching)
        return self.tick

    def close(self) -> None:
        """Delete every entity: every open pair ends, exactly once."""
        for entity, _ in esper.get_component(Position):
            esper.delete_entity(entity)
        self.process(1 / 60)
        assert not +self.live
        assert self.started == self.ended


def positions(entities: list[int]) -> dict[int, FloatArray]:
    """Where each entity is."""
    found = {}
    for entity in entities:
        position = esper.component_for_entity(entity, Position)
        found[entity] = np.array([position.x, position.y])
    return found

"""Every bad input gets a clear error: the table behind ``docs/errors.md``.

``ROWS`` is the single source: one row per bad input, with the exception type and
the exact message. Each row is one test, and ``test_every_row_is_documented``
checks that ``docs/errors.md`` shows every row (id, exception, message), so the
document and the tests cannot drift apart.

ECS rows run against a small scene (two touching circles and one apart, all moving)
that has already ticked once. After the bad input raises, the test checks that
nothing was half-updated: no event was delivered, the stored pairs and positions
are as they were, and (after the row's repair, if it needs one) the next valid tick
reports exactly the pairs a brute-force check finds.
"""

from __future__ import annotations

import itertools
import math
import os
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import esper
import numpy as np
import pytest

from arcade_collide import (
    Circle,
    Point,
    Polygon,
    Rect,
    Triangle,
    barycentric,
    contact,
    contact_batch,
    intersects,
    intersects_batch,
    pack,
    point_in_triangle,
    ray_cast,
    ray_cast_batch,
    shape_cast,
    shape_cast_batch,
)
from arcade_collide.ecs import (
    CollisionEnded,
    CollisionStarted,
    CollisionSystem,
    HandlerDroppedWarning,
    MovementSystem,
    Platformer,
    PlatformerSystem,
    Position,
    ResponseSystem,
    Shape,
    Velocity,
)
from arcade_collide.ecs.esper_internals import start_entity_ids_at
from arcade_collide.ecs.solids import Body
from arcade_collide.geometry.convex_pieces import convex_pieces, ellipse_outline
from arcade_collide.geometry.tile_merge import merge_cells

NAN = math.nan
INF = math.inf
_ONE_CIRCLE = pack([Circle(1)], [(0, 0)])
DOC = Path(__file__).resolve().parents[1] / "docs" / "errors.md"
SCENE_WORLD = "errors-scene"
OTHER_WORLD = "errors-other"
BRIDGE_WORLD = "errors-bridge"


class Scene:
    """An isolated esper world: entities 1 and 2 touch, 3 is apart; it has ticked once."""

    def __init__(self) -> None:
        self.movement = MovementSystem()
        self.collisions = CollisionSystem()
        esper.add_processor(self.movement, priority=1)
        esper.add_processor(self.collisions)
        self.a = esper.create_entity(Position(0, 0), Velocity(1, 0), Shape(Circle(5)))
        self.b = esper.create_entity(Position(6, 0), Velocity(1, 0), Shape(Rect(4, 4)))
        self.c = esper.create_entity(Position(40, 0), Velocity(0, 1), Shape(Circle(3)))
        self.events: list[CollisionStarted | CollisionEnded] = []
        self.subscription = self.collisions.subscribe(
            on_started=self.events.append, on_ended=self.events.append
        )
        esper.process(1 / 60)

    def position(self, entity: int) -> Position:
        return esper.component_for_entity(entity, Position)

    def velocity(self, entity: int) -> Velocity:
        return esper.component_for_entity(entity, Velocity)

    def shape(self, entity: int) -> Shape:
        return esper.component_for_entity(entity, Shape)

    def poses(self) -> dict[int, tuple[float, float, float]]:
        return {e: (p.x, p.y, p.angle) for e, p in esper.get_component(Position)}


def brute_force_pairs() -> list[tuple[int, int]]:
    """All touching pairs of the current world, from scratch with the scalar query."""
    bodies = sorted(
        (e, (p.x, p.y, p.angle), s) for e, (p, s) in esper.get_components(Position, Shape)
    )
    return [
        (ea, eb)
        for (ea, pa, sa), (eb, pb, sb) in itertools.combinations(bodies, 2)
        if sa.layer & sb.mask
        and sb.layer & sa.mask
        and intersects(sa.geometry, pa, sb.geometry, pb)
    ]


@pytest.fixture
def scene() -> Iterator[Scene]:
    previous = esper.current_world
    esper.switch_world(SCENE_WORLD)
    try:
        yield Scene()
    finally:
        esper.switch_world(previous)
        for name in (SCENE_WORLD, OTHER_WORLD):
            if name in esper.list_worlds() and name != previous:
                esper.delete_world(name)


@dataclass(frozen=True)
class Row:
    """One bad input: what is done, what it raises, and the exact message."""

    id: str
    input: str
    """What the caller does, as shown in docs/errors.md."""
    error: type[Exception]
    message: str
    geometry: Callable[[], object] | None = None
    """For geometry rows: the bad call."""
    ecs: Callable[[Scene], object] | None = None
    """For ECS rows: the bad action on the scene."""
    repair: Callable[[Scene], object] | None = None
    """Undo what the bad action left behind (e.g. delete the shape-only entity)."""
    bridge: Callable[[BridgeScene], object] | None = None
    """For Arcade bridge rows: the bad action on a CollisionWorld scene."""
    pending: str | None = None
    """Set while the row fails: the test is a strict xfail until the bug is fixed."""

    def doc_line(self) -> str:
        return f"| `{self.id}` | {self.input} | `{self.error.__name__}` | `{self.message}` |"


def _second_response() -> None:
    collisions = CollisionSystem()
    ResponseSystem(collisions)
    ResponseSystem(collisions)


def _shapeless_body() -> None:
    previous = esper.current_world
    esper.switch_world("errors-response")
    try:
        ResponseSystem(collisions := CollisionSystem())
        esper.add_processor(collisions)
        esper.create_entity(Position(0, 0), Body())
        esper.process(1 / 60)
    finally:
        esper.switch_world(previous)
        esper.delete_world("errors-response")


def _g(
    id: str, input: str, error: type[Exception], message: str, call: Callable[[], object]
) -> Row:
    return Row(id, input, error, message, geometry=call)


def _e(
    id: str,
    input: str,
    error: type[Exception],
    message: str,
    action: Callable[[Scene], object],
    repair: Callable[[Scene], object] | None = None,
) -> Row:
    return Row(id, input, error, message, ecs=action, repair=repair)


def _b(
    id: str,
    input: str,
    error: type[Exception],
    message: str,
    action: Callable[[BridgeScene], object],
    pending: str | None = None,
) -> Row:
    return Row(id, input, error, message, bridge=action, pending=pending)


class BridgeScene:
    """A CollisionWorld: sprites a and b overlap, c is apart; it has stepped once."""

    def __init__(self) -> None:
        import arcade

        from arcade_collide.arcade import CollisionWorld

        self.arcade = arcade
        self.world = CollisionWorld(BRIDGE_WORLD)
        self.a = arcade.SpriteSolidColor(10, 10, center_x=0, center_y=0)
        self.b = arcade.SpriteSolidColor(10, 10, center_x=8, center_y=0)
        self.c = arcade.SpriteSolidColor(10, 10, center_x=100, center_y=0)
        self.world.add_sprite(self.a, velocity=(1.0, 0.0))
        self.world.add_sprite(self.b, velocity=(1.0, 0.0))
        self.world.add_sprite(self.c)
        self.world.step(1 / 60)

    def sprite(self, x: float = 0.0, y: float = 0.0) -> object:
        return self.arcade.SpriteSolidColor(10, 10, center_x=x, center_y=y)

    def state(self) -> tuple[object, ...]:
        sprites = (self.a, self.b, self.c)
        return (
            len(self.world),
            [self.world.velocity(s) for s in sprites],
            [(s.center_x, s.center_y, s.angle) for s in sprites],
            [(id(x), id(y)) for x, y, _ in self.world.contacts()],
        )


def _move_to_nan(s: BridgeScene) -> None:
    s.c.center_x = NAN
    try:
        s.world.step(1 / 60)
    finally:
        s.c.center_x = 100.0


def _shrink_to_nothing(s: BridgeScene) -> None:
    s.c.scale = 0
    try:
        s.world.step(1 / 60)
    finally:
        s.c.scale = 1


def _sprite_list(s: BridgeScene, *sprites: object) -> object:
    sprite_list = s.arcade.SpriteList()
    sprite_list.extend(sprites)
    return sprite_list


def _move_a_static_sprite(s: BridgeScene) -> None:
    tile = s.sprite(200)
    s.world.add_sprite(tile, static=True)
    try:
        s.world.set_velocity(tile, 1, 0)
    finally:
        s.world.remove_sprite(tile)


def _add_list_twice(s: BridgeScene) -> None:
    sprite_list = _sprite_list(s)
    s.world.add_sprite_list(sprite_list)
    s.world.add_sprite_list(sprite_list)


def _append_zero_size(s: BridgeScene) -> None:
    sprite_list = _sprite_list(s)
    s.world.add_sprite_list(sprite_list)
    try:
        sprite_list.append(s.arcade.Sprite(scale=0))  # type: ignore[attr-defined]
    finally:
        assert len(sprite_list) == 0  # type: ignore[arg-type]


_TRI = ((0.0, 0.0), (4.0, 0.0), (0.0, 3.0))
_SQUARE = [(0, 0), (2, 0), (2, 2), (0, 2)]
_PENTAGRAM = [
    (math.cos(math.radians(90 + 144 * k)), math.sin(math.radians(90 + 144 * k))) for k in range(5)
]
_VALID = "angle_sum, angle_compare, same_side, line_equation, barycentric, area"


def _set(obj: object, name: str, value: object) -> None:
    setattr(obj, name, value)


def _process_in_other_world(s: Scene) -> None:
    esper.switch_world(OTHER_WORLD)
    try:
        esper.add_processor(s.collisions)
        esper.process(1 / 60)
    finally:
        esper.switch_world(SCENE_WORLD)


def _tick_with_id_2_to_the_63() -> None:
    """A tick in a world of its own whose second entity has id ``2**63``."""
    previous = esper.current_world
    esper.switch_world("errors-huge-ids")
    try:
        esper.add_processor(CollisionSystem())
        esper.create_entity(Position(0, 0), Shape(Circle(5)))
        start_entity_ids_at(2**63)
        esper.create_entity(Position(8, 0), Shape(Circle(5)))
        esper.process(1 / 60)
    finally:
        esper.switch_world(previous)
        esper.delete_world("errors-huge-ids")


def _shape_without_position(s: Scene) -> None:
    esper.create_entity(Shape(Circle(1)))
    esper.process(1 / 60)


def _remove_position(s: Scene) -> None:
    esper.remove_component(s.c, Position)
    esper.process(1 / 60)


def _overflow_x(s: Scene) -> None:
    s.velocity(s.a).x = 1e308
    esper.process(2.0)


def _overflow_angle(s: Scene) -> None:
    s.position(s.b).x = 6.0
    s.velocity(s.b).x = 0.0
    s.position(s.b).angle = 1e308
    s.velocity(s.b).angular = 1e308
    esper.process(1.0)


def _repair_overflow(s: Scene) -> None:
    s.velocity(s.a).x = 1.0
    s.velocity(s.b).x = 1.0
    s.position(s.b).angle = 0.0
    s.velocity(s.b).angular = 0.0


def _delete_shape_only(s: Scene) -> None:
    for entity, _ in esper.get_component(Shape):
        if not esper.has_component(entity, Position):
            esper.delete_entity(entity)


ROWS: tuple[Row, ...] = (
    # -- shapes ------------------------------------------------------------------------
    _g("circle-radius-nan", "`Circle(nan)`", ValueError, "radius must be finite, got nan",
       lambda: Circle(NAN)),
    _g("circle-radius-inf", "`Circle(inf)`", ValueError, "radius must be finite, got inf",
       lambda: Circle(INF)),
    _g("circle-radius-numpy-nan", "`Circle(np.float64('nan'))`", ValueError,
       "radius must be finite, got nan", lambda: Circle(np.float64("nan"))),
    _g("circle-radius-zero", "`Circle(0)`", ValueError, "radius must be > 0, got 0.0",
       lambda: Circle(0)),
    _g("circle-radius-negative", "`Circle(-1)`", ValueError, "radius must be > 0, got -1.0",
       lambda: Circle(-1)),
    _g("circle-radius-str", "`Circle('1')`", TypeError, "radius must be a real number, got str",
       lambda: Circle("1")),  # type: ignore[arg-type]
    _g("circle-radius-none", "`Circle(None)`", TypeError,
       "radius must be a real number, got NoneType", lambda: Circle(None)),  # type: ignore[arg-type]
    _g("circle-radius-bool", "`Circle(True)`", TypeError,
       "radius must be a real number, got bool", lambda: Circle(True)),
    _g("circle-radius-complex", "`Circle(1j)`", TypeError,
       "radius must be a real number, got complex", lambda: Circle(1j)),  # type: ignore[arg-type]
    _g("circle-radius-huge-int", "`Circle(10**400)`", ValueError,
       "radius must be finite, got int too large for a float", lambda: Circle(10**400)),
    _g("circle-radius-decimal-snan", "`Circle(Decimal('sNaN'))`", ValueError,
       "radius must be finite, got Decimal('sNaN')",
       lambda: Circle(Decimal("sNaN"))),  # type: ignore[arg-type]
    _g("circle-radius-numpy-array", "`Circle(np.array([3.0]))`", TypeError,
       "radius must be a real number, got a numpy array of shape (1,)",
       lambda: Circle(np.array([3.0]))),  # type: ignore[arg-type]
    _g("circle-radius-numpy-bool", "`Circle(np.True_)`", TypeError,
       "radius must be a real number, got numpy bool",
       lambda: Circle(np.True_)),  # type: ignore[arg-type]
    _g("rect-width-zero", "`Rect(0, 1)`", ValueError, "width must be > 0, got 0.0",
       lambda: Rect(0, 1)),
    _g("rect-width-negative", "`Rect(-3, 1)`", ValueError, "width must be > 0, got -3.0",
       lambda: Rect(-3, 1)),
    _g("rect-height-zero", "`Rect(1, 0)`", ValueError, "height must be > 0, got 0.0",
       lambda: Rect(1, 0)),
    _g("rect-height-negative", "`Rect(1, -2)`", ValueError, "height must be > 0, got -2.0",
       lambda: Rect(1, -2)),
    _g("rect-width-nan", "`Rect(nan, 1)`", ValueError, "width must be finite, got nan",
       lambda: Rect(NAN, 1)),
    _g("rect-height-inf", "`Rect(1, inf)`", ValueError, "height must be finite, got inf",
       lambda: Rect(1, INF)),
    _g("rect-height-none", "`Rect(1, None)`", TypeError,
       "height must be a real number, got NoneType", lambda: Rect(1, None)),  # type: ignore[arg-type]
    _g("rect-height-numpy-array", "`Rect(2, np.ones(2))`", TypeError,
       "height must be a real number, got a numpy array of shape (2,)",
       lambda: Rect(2, np.ones(2))),  # type: ignore[arg-type]
    _g("triangle-collinear", "`Triangle((0, 0), (1, 1), (2, 2))`", ValueError,
       "triangle is degenerate: vertices a, b, c are collinear (zero area)",
       lambda: Triangle((0, 0), (1, 1), (2, 2))),
    _g("triangle-repeated-vertex", "`Triangle((0, 0), (0, 0), (1, 1))`", ValueError,
       "triangle is degenerate: vertices a, b, c are collinear (zero area)",
       lambda: Triangle((0, 0), (0, 0), (1, 1))),
    _g("triangle-sliver-zero-area", "`Triangle((0, 0), (1e6, 0), (2e6, 1e-9))`", ValueError,
       "triangle is degenerate: vertices a, b, c are collinear (zero area)",
       lambda: Triangle((0, 0), (1e6, 0), (2e6, 1e-9))),
    _g("triangle-too-large", "`Triangle((0, 0), (1e300, 0), (0, 1e150))`", ValueError,
       "triangle is too large: its vertices span 1e+300, beyond 1e154",
       lambda: Triangle((0, 0), (1e300, 0), (0, 1e150))),
    _g("triangle-vertex-nan", "`Triangle((0, nan), (1, 0), (0, 1))`", ValueError,
       "a[1] must be finite, got nan", lambda: Triangle((0, NAN), (1, 0), (0, 1))),
    _g("triangle-vertex-inf", "`Triangle((0, 0), (inf, 0), (0, 1))`", ValueError,
       "b[0] must be finite, got inf", lambda: Triangle((0, 0), (INF, 0), (0, 1))),
    _g("triangle-vertex-three-coords", "`Triangle((0, 0, 0), (1, 0), (0, 1))`", ValueError,
       "a must have exactly 2 coordinates, got 3",
       lambda: Triangle((0, 0, 0), (1, 0), (0, 1))),  # type: ignore[arg-type]
    _g("triangle-vertex-str", "`Triangle('ab', (1, 0), (0, 1))`", TypeError,
       "a must be a pair of numbers (x, y), got str",
       lambda: Triangle("ab", (1, 0), (0, 1))),  # type: ignore[arg-type]
    _g("triangle-vertex-none", "`Triangle((0, 0), (1, 0), None)`", TypeError,
       "c must be a pair of numbers (x, y), got NoneType",
       lambda: Triangle((0, 0), (1, 0), None)),  # type: ignore[arg-type]
    _g("triangle-vertex-str-coordinate", "`Triangle((0, '0'), (1, 0), (0, 1))`", TypeError,
       "a[1] must be a real number, got str",
       lambda: Triangle((0, "0"), (1, 0), (0, 1))),  # type: ignore[arg-type]
    _g("triangle-vertex-numpy-array-coordinate",
       "`Triangle((0, np.array([0.0])), (1, 0), (0, 1))`", TypeError,
       "a[1] must be a real number, got a numpy array of shape (1,)",
       lambda: Triangle((0, np.array([0.0])), (1, 0), (0, 1))),  # type: ignore[arg-type]
    _g("polygon-no-points", "`Polygon([])`", ValueError, "polygon needs at least 3 points, got 0",
       lambda: Polygon([])),  # type: ignore[arg-type]
    _g("polygon-two-points", "`Polygon([(0, 0), (1, 0)])`", ValueError,
       "polygon needs at least 3 points, got 2",
       lambda: Polygon([(0, 0), (1, 0)])),  # type: ignore[arg-type]
    _g("polygon-repeated-point", "`Polygon([(0, 0), (2, 0), (2, 2), (2, 0)])`", ValueError,
       "polygon has a repeated point",
       lambda: Polygon([(0, 0), (2, 0), (2, 2), (2, 0)])),  # type: ignore[arg-type]
    _g("polygon-collinear-neighbours", "`Polygon([(0, 0), (1, 0), (2, 0), (1, 1)])`", ValueError,
       "polygon has collinear neighbours at vertex 1",
       lambda: Polygon([(0, 0), (1, 0), (2, 0), (1, 1)])),  # type: ignore[arg-type]
    _g("polygon-non-convex", "`Polygon([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)])`", ValueError,
       "polygon is not convex (turns both ways at vertex 2)",
       lambda: Polygon([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)])),  # type: ignore[arg-type]
    _g("polygon-bow-tie", "`Polygon([(0, 0), (2, 2), (2, 0), (0, 2)])` (edges cross)", ValueError,
       "polygon is not convex (turns both ways at vertex 1)",
       lambda: Polygon([(0, 0), (2, 2), (2, 0), (0, 2)])),  # type: ignore[arg-type]
    _g("polygon-pentagram", "a five-pointed star (turns one way, winds twice)", ValueError,
       "polygon outline is self-intersecting", lambda: Polygon(_PENTAGRAM)),  # type: ignore[arg-type]
    _g("polygon-point-nan", "`Polygon([(0, 0), (2, 0), (nan, 2)])`", ValueError,
       "points[2][0] must be finite, got nan",
       lambda: Polygon([(0, 0), (2, 0), (NAN, 2)])),  # type: ignore[arg-type]
    _g("polygon-point-inf", "`Polygon([(0, 0), (2, -inf), (1, 2)])`", ValueError,
       "points[1][1] must be finite, got -inf",
       lambda: Polygon([(0, 0), (2, -INF), (1, 2)])),  # type: ignore[arg-type]
    _g("polygon-points-none", "`Polygon(None)`", TypeError,
       "points must be a sequence of (x, y) pairs, got NoneType",
       lambda: Polygon(None)),  # type: ignore[arg-type]
    _g("polygon-points-str", "`Polygon('abc')`", TypeError,
       "points must be a sequence of (x, y) pairs, got str",
       lambda: Polygon("abc")),  # type: ignore[arg-type]
    _g("polygon-flat-list", "`Polygon([0, 0, 1, 0, 0, 1])` (flat, not pairs)", TypeError,
       "points[0] must be a pair of numbers (x, y), got int",
       lambda: Polygon([0, 0, 1, 0, 0, 1])),  # type: ignore[arg-type]
    _g("polygon-nested-too-deep", "`Polygon([[[0, 0]], [[1, 0]], [[0, 1]]])`", ValueError,
       "points[0] must have exactly 2 coordinates, got 1",
       lambda: Polygon([[[0, 0]], [[1, 0]], [[0, 1]]])),  # type: ignore[arg-type, list-item]
    _g("polygon-point-three-coords", "`Polygon([(0, 0), (1, 0, 0), (0, 1)])`", ValueError,
       "points[1] must have exactly 2 coordinates, got 3",
       lambda: Polygon([(0, 0), (1, 0, 0), (0, 1)])),  # type: ignore[arg-type, list-item]
    _g("polygon-points-2d-array-rows", "`Polygon(np.zeros((3, 2, 1)))`", TypeError,
       "points[0][0] must be a real number, got a numpy array of shape (1,)",
       lambda: Polygon(np.zeros((3, 2, 1)))),  # type: ignore[arg-type]
    _g("polygon-too-large", "`Polygon([(0, 0), (1e200, 0), (0, 1e200)])`", ValueError,
       "polygon is too large: its vertices span 1e+200, beyond 1e154",
       lambda: Polygon([(0, 0), (1e200, 0), (0, 1e200)])),
    # -- poses and queries ---------------------------------------------------------------
    _g("pose-one-value", "`intersects(Circle(1), (0,), Circle(1), (0, 0))`", ValueError,
       "pose_a must be (x, y) or (x, y, angle), got 1 values",
       lambda: intersects(Circle(1), (0,), Circle(1), (0, 0))),
    _g("pose-four-values", "`contact(Circle(1), (0, 0), Circle(1), (0, 0, 0, 0))`", ValueError,
       "pose_b must be (x, y) or (x, y, angle), got 4 values",
       lambda: contact(Circle(1), (0, 0), Circle(1), (0, 0, 0, 0))),
    _g("pose-nested", "`intersects(Circle(1), [(0, 0)], Circle(1), (0, 0))`", ValueError,
       "pose_a must be (x, y) or (x, y, angle), got 1 values",
       lambda: intersects(Circle(1), [(0, 0)], Circle(1), (0, 0))),
    _g("pose-x-nan", "`intersects(Rect(1, 1), (nan, 0), Point(), (0, 0))`", ValueError,
       "pose_a x must be finite, got nan",
       lambda: intersects(Rect(1, 1), (NAN, 0), Point(), (0, 0))),
    _g("pose-y-inf", "`contact(Point(), (0, 0), Rect(1, 1), (0, inf))`", ValueError,
       "pose_b y must be finite, got inf",
       lambda: contact(Point(), (0, 0), Rect(1, 1), (0, INF))),
    _g("pose-angle-nan", "`intersects(Rect(1, 1), (0, 0, nan), Point(), (0, 0))`", ValueError,
       "pose_a angle must be finite, got nan",
       lambda: intersects(Rect(1, 1), (0, 0, NAN), Point(), (0, 0))),
    _g("pose-none", "`intersects(Circle(1), None, Circle(1), (0, 0))`", TypeError,
       "pose_a must be (x, y) or (x, y, angle), got NoneType",
       lambda: intersects(Circle(1), None, Circle(1), (0, 0))),
    _g("pose-str", "`intersects(Circle(1), (0, 0), Circle(1), '00')`", TypeError,
       "pose_b must be (x, y) or (x, y, angle), got str",
       lambda: intersects(Circle(1), (0, 0), Circle(1), "00")),
    _g("pose-str-coordinate", "`intersects(Circle(1), ('1', 0), Circle(1), (0, 0))`", TypeError,
       "pose_a x must be a real number, got str",
       lambda: intersects(Circle(1), ("1", 0), Circle(1), (0, 0))),
    _g("pose-none-coordinate", "`intersects(Circle(1), (0, None), Circle(1), (0, 0))`", TypeError,
       "pose_a y must be a real number, got NoneType",
       lambda: intersects(Circle(1), (0, None), Circle(1), (0, 0))),
    _g("pose-dict", "`intersects(Circle(1), {'x': 1, 'y': 2}, Circle(1), (0, 0))`", TypeError,
       "pose_a must be (x, y) or (x, y, angle), got dict",
       lambda: intersects(Circle(1), {"x": 1, "y": 2}, Circle(1), (0, 0))),
    _g("pose-set", "`intersects(Circle(1), {3.0, 0.5}, Circle(1), (0, 0))` (no order)",
       TypeError, "pose_a must be (x, y) or (x, y, angle), got set",
       lambda: intersects(Circle(1), {3.0, 0.5}, Circle(1), (0, 0))),
    _g("triangle-vertex-set", "`Triangle({0, 5}, (1, 0), (0, 1))` (no order)", TypeError,
       "a must be a pair of numbers (x, y), got set",
       lambda: Triangle({0.0, 5.0}, (1, 0), (0, 1))),  # type: ignore[arg-type]
    _g("polygon-point-set", "`Polygon([(0, 0), {1, 2}, (0, 1)])` (no order)", TypeError,
       "points[1] must be a pair of numbers (x, y), got set",
       lambda: Polygon([(0, 0), {1.0, 2.0}, (0, 1)])),  # type: ignore[list-item]
    _g("shape-str", "`intersects('circle', (0, 0), Circle(1), (0, 0))`", TypeError,
       "shape_a must be a Point, Circle, Rect, Triangle or Polygon, got str",
       lambda: intersects("circle", (0, 0), Circle(1), (0, 0))),  # type: ignore[arg-type]
    _g("shape-none", "`contact(Circle(1), (0, 0), None, (0, 0))`", TypeError,
       "shape_b must be a Point, Circle, Rect, Triangle or Polygon, got NoneType",
       lambda: contact(Circle(1), (0, 0), None, (0, 0))),  # type: ignore[arg-type]
    _g("shape-class-not-instance", "`intersects(Circle, (0, 0), Circle(1), (0, 0))`", TypeError,
       "shape_a must be a Point, Circle, Rect, Triangle or Polygon, got type",
       lambda: intersects(Circle, (0, 0), Circle(1), (0, 0))),  # type: ignore[arg-type]
    _g("batch-not-a-record", "`intersects_batch([1], circles)`", TypeError,
       "a must be a PointArrays, CircleArrays, RectArrays, TriangleArrays or PolygonArrays "
       "record, got list",
       lambda: intersects_batch([1], pack([Circle(1)], [(0, 0)]))),  # type: ignore[arg-type]
    _g("batch-row-counts-differ", "`contact_batch(one_circle, two_circles)`", ValueError,
       "a and b must have the same number of rows, got 1 and 2",
       lambda: contact_batch(pack([Circle(1)], [(0, 0)]), pack([Circle(1)] * 2, [(0, 0)] * 2))),
    _g("pack-lengths-differ", "`pack([Circle(1)], [(0, 0), (1, 1)])`", ValueError,
       "got 1 shapes but 2 poses", lambda: pack([Circle(1)], [(0, 0), (1, 1)])),
    _g("pack-empty", "`pack([], [])`", ValueError, "pack needs at least one shape",
       lambda: pack([], [])),
    _g("pack-mixed-types", "`pack([Circle(1), Rect(1, 1)], [(0, 0), (0, 0)])`", ValueError,
       "pack needs shapes of one type: shapes[0] is Circle but shapes[1] is Rect",
       lambda: pack([Circle(1), Rect(1, 1)], [(0, 0), (0, 0)])),
    _g("pack-not-a-shape", "`pack(['circle'], [(0, 0)])`", TypeError,
       "shapes[0] must be a Point, Circle, Rect, Triangle or Polygon, got str",
       lambda: pack(["circle"], [(0, 0)])),  # type: ignore[list-item]
    _g("pack-pose-nan", "`pack([Circle(1)], [(0, nan)])`", ValueError,
       "poses[0] y must be finite, got nan", lambda: pack([Circle(1)], [(0, NAN)])),
    # -- rays and shape casts ----------------------------------------------------------------
    _g("ray-direction-zero", "`ray_cast(Circle(1), (0, 0), (5, 0), (0, 0))`",
       ValueError, "direction must be a non-zero vector, got (0.0, 0.0)",
       lambda: ray_cast(Circle(1), (0, 0), (5, 0), (0, 0))),
    _g("ray-origin-nan", "`ray_cast(Circle(1), (0, 0), (nan, 0), (1, 0))`",
       ValueError, "origin[0] must be finite, got nan",
       lambda: ray_cast(Circle(1), (0, 0), (NAN, 0), (1, 0))),
    _g("ray-direction-inf", "`ray_cast(Circle(1), (0, 0), (5, 0), (1, inf))`",
       ValueError, "direction[1] must be finite, got inf",
       lambda: ray_cast(Circle(1), (0, 0), (5, 0), (1, INF))),
    _g("ray-origin-none", "`ray_cast(Circle(1), (0, 0), None, (1, 0))`",
       TypeError, "origin must be a pair of numbers (x, y), got NoneType",
       lambda: ray_cast(Circle(1), (0, 0), None, (1, 0))),
    _g("ray-direction-three-values", "`ray_cast(Circle(1), (0, 0), (5, 0), (1, 0, 0))`",
       ValueError, "direction must have exactly 2 coordinates, got 3",
       lambda: ray_cast(Circle(1), (0, 0), (5, 0), (1, 0, 0))),
    _g("ray-max-distance-negative", "`ray_cast(Circle(1), (0, 0), (5, 0), (1, 0), -1)`",
       ValueError, "max_distance must be >= 0, got -1.0",
       lambda: ray_cast(Circle(1), (0, 0), (5, 0), (1, 0), -1)),
    _g("ray-max-distance-nan", "`ray_cast(Circle(1), (0, 0), (5, 0), (1, 0), nan)`",
       ValueError, "max_distance must not be NaN",
       lambda: ray_cast(Circle(1), (0, 0), (5, 0), (1, 0), NAN)),
    _g("ray-max-distance-str", "`ray_cast(Circle(1), (0, 0), (5, 0), (1, 0), '9')`",
       TypeError, "max_distance must be a real number, got str",
       lambda: ray_cast(Circle(1), (0, 0), (5, 0), (1, 0), "9")),  # type: ignore[arg-type]
    _g("ray-shape-str", "`ray_cast('circle', (0, 0), (5, 0), (1, 0))`",
       TypeError, "shape must be a Point, Circle, Rect, Triangle or Polygon, got str",
       lambda: ray_cast("circle", (0, 0), (5, 0), (1, 0))),  # type: ignore[arg-type]
    _g("ray-pose-nan", "`ray_cast(Circle(1), (nan, 0), (5, 0), (1, 0))`",
       ValueError, "pose x must be finite, got nan",
       lambda: ray_cast(Circle(1), (NAN, 0), (5, 0), (1, 0))),
    _g("cast-translation-nan", "`shape_cast(Circle(1), (0, 0), (nan, 0), Circle(1), (5, 0))`",
       ValueError, "translation[0] must be finite, got nan",
       lambda: shape_cast(Circle(1), (0, 0), (NAN, 0), Circle(1), (5, 0))),
    _g("cast-translation-one-value", "`shape_cast(Circle(1), (0, 0), (5,), Circle(1), (5, 0))`",
       ValueError, "translation must have exactly 2 coordinates, got 1",
       lambda: shape_cast(Circle(1), (0, 0), (5,), Circle(1), (5, 0))),
    _g("cast-shape-none", "`shape_cast(Circle(1), (0, 0), (5, 0), None, (5, 0))`",
       TypeError, "shape_b must be a Point, Circle, Rect, Triangle or Polygon, got NoneType",
       lambda: shape_cast(Circle(1), (0, 0), (5, 0), None, (5, 0))),  # type: ignore[arg-type]
    _g("cast-pose-inf", "`shape_cast(Circle(1), (0, inf), (5, 0), Circle(1), (5, 0))`",
       ValueError, "pose_a y must be finite, got inf",
       lambda: shape_cast(Circle(1), (0, INF), (5, 0), Circle(1), (5, 0))),
    _g("ray-batch-not-a-record", "`ray_cast_batch([1], [(0, 0)], [(1, 0)])`",
       TypeError, "shapes must be a PointArrays, CircleArrays, RectArrays, TriangleArrays or"
       " PolygonArrays record, got list",
       lambda: ray_cast_batch([1], [(0, 0)], [(1, 0)])),  # type: ignore[arg-type]
    _g("ray-batch-direction-zero", "`ray_cast_batch(one_circle, [(0, 0)], [(0, 0)])`",
       ValueError, "directions[0] must be a non-zero vector",
       lambda: ray_cast_batch(_ONE_CIRCLE, [(0, 0)], [(0, 0)])),
    _g("ray-batch-origins-shape", "`ray_cast_batch(one_circle, [(0, 0), (1, 1)], [(1, 0)])`",
       ValueError, "origins must have shape (1, 2), got (2, 2)",
       lambda: ray_cast_batch(_ONE_CIRCLE, [(0, 0), (1, 1)], [(1, 0)])),
    _g("ray-batch-origins-nan", "`ray_cast_batch(one_circle, [(nan, 0)], [(1, 0)])`",
       ValueError, "origins must be finite",
       lambda: ray_cast_batch(_ONE_CIRCLE, [(NAN, 0)], [(1, 0)])),
    _g("ray-batch-origins-str", "`ray_cast_batch(one_circle, [('a', 0)], [(1, 0)])`",
       TypeError, "origins must be an (M, 2) array of numbers",
       lambda: ray_cast_batch(_ONE_CIRCLE, [('a', 0)], [(1, 0)])),
    _g("ray-batch-max-distance-negative",
       "`ray_cast_batch(one_circle, [(0, 0)], [(1, 0)], np.array([-1.0]))`",
       ValueError, "max_distance[0] must be >= 0, got -1.0",
       lambda: ray_cast_batch(_ONE_CIRCLE, [(0, 0)], [(1, 0)], np.array([-1.0]))),
    _g("cast-batch-translations-shape",
       "`shape_cast_batch(one_circle, [(1, 0), (2, 0)], one_circle)`",
       ValueError, "translations must have shape (1, 2), got (2, 2)",
       lambda: shape_cast_batch(_ONE_CIRCLE, [(1, 0), (2, 0)], _ONE_CIRCLE)),
    # -- point in triangle -----------------------------------------------------------------
    _g("pit-unknown-method", "`point_in_triangle(p, a, b, c, method='fast')`", ValueError,
       f"unknown method 'fast'; valid methods: {_VALID}",
       lambda: point_in_triangle((1, 1), *_TRI, method="fast")),
    _g("pit-method-wrong-case", "`point_in_triangle(p, a, b, c, method='Barycentric')`",
       ValueError, f"unknown method 'Barycentric'; valid methods: {_VALID}",
       lambda: point_in_triangle((1, 1), *_TRI, method="Barycentric")),
    _g("pit-method-int", "`point_in_triangle(p, a, b, c, method=0)`", TypeError,
       "method must be a str naming a method, got int",
       lambda: point_in_triangle((1, 1), *_TRI, method=0)),  # type: ignore[arg-type]
    _g("pit-degenerate", "`point_in_triangle((0, 0), (0, 0), (1, 1), (2, 2))`", ValueError,
       "triangle a=(0.0, 0.0), b=(1.0, 1.0), c=(2.0, 2.0) is degenerate: its vertices are "
       "collinear (zero area)",
       lambda: point_in_triangle((0, 0), (0, 0), (1, 1), (2, 2))),
    _g("pit-point-nan", "`point_in_triangle((nan, 0), a, b, c)`", ValueError,
       "p[0] must be finite, got nan", lambda: point_in_triangle((NAN, 0), *_TRI)),
    _g("pit-vertex-inf", "`point_in_triangle(p, a, b, (0, inf))`", ValueError,
       "c[1] must be finite, got inf",
       lambda: point_in_triangle((1, 1), (0, 0), (4, 0), (0, INF))),
    _g("pit-point-none", "`point_in_triangle(None, a, b, c)`", TypeError,
       "p must be a pair of numbers (x, y), got NoneType",
       lambda: point_in_triangle(None, *_TRI)),  # type: ignore[arg-type]
    _g("barycentric-degenerate", "`barycentric((0, 0), (0, 0), (1, 1), (2, 2))`", ValueError,
       "triangle a=(0.0, 0.0), b=(1.0, 1.0), c=(2.0, 2.0) is degenerate: its vertices are "
       "collinear (zero area)",
       lambda: barycentric((0, 0), (0, 0), (1, 1), (2, 2))),
    # -- ECS components ----------------------------------------------------------------------
    _e("position-x-nan", "`Position(nan, 0)`", ValueError, "Position.x must be finite, got nan",
       lambda s: Position(NAN, 0)),
    _e("position-angle-inf", "`Position(0, 0, angle=inf)`", ValueError,
       "Position.angle must be finite, got inf", lambda s: Position(0, 0, angle=INF)),
    _e("position-x-huge-int", "`Position(10**400, 0)`", ValueError,
       "Position.x must be finite, got int too large for a float",
       lambda s: Position(10**400, 0)),
    _e("position-y-str", "`Position(0, '1')`", TypeError,
       "Position.y must be a real number, got str", lambda s: Position(0, "1")),  # type: ignore[arg-type]
    _e("velocity-y-nan", "`Velocity(0, nan)`", ValueError, "Velocity.y must be finite, got nan",
       lambda s: Velocity(0, NAN)),
    _e("velocity-angular-inf", "`Velocity(0, 0, angular=-inf)`", ValueError,
       "Velocity.angular must be finite, got -inf", lambda s: Velocity(0, 0, angular=-INF)),
    _e("velocity-x-none", "`Velocity(None, 0)`", TypeError,
       "Velocity.x must be a real number, got NoneType",
       lambda s: Velocity(None, 0)),  # type: ignore[arg-type]
    _e("position-x-numpy-array", "`Position(np.array([1.0]), 0)`", TypeError,
       "Position.x must be a real number, got a numpy array of shape (1,)",
       lambda s: Position(np.array([1.0]), 0)),  # type: ignore[arg-type]
    _e("velocity-angular-numpy-complex", "`Velocity(0, 0, angular=np.complex128(1))`",
       TypeError, "Velocity.angular must be a real number, got numpy complex128",
       lambda s: Velocity(0, 0, angular=np.complex128(1))),  # type: ignore[arg-type]
    _e("position-set-x-nan", "`position.x = nan` between ticks", ValueError,
       "Position.x must be finite, got nan", lambda s: _set(s.position(s.a), "x", NAN)),
    _e("position-set-angle-inf", "`position.angle = inf` between ticks", ValueError,
       "Position.angle must be finite, got inf", lambda s: _set(s.position(s.b), "angle", INF)),
    _e("position-set-y-str", "`position.y = '3'` between ticks", TypeError,
       "Position.y must be a real number, got str", lambda s: _set(s.position(s.a), "y", "3")),
    _e("velocity-set-x-inf", "`velocity.x = inf` between ticks", ValueError,
       "Velocity.x must be finite, got inf", lambda s: _set(s.velocity(s.a), "x", INF)),
    _e("velocity-set-angular-nan", "`velocity.angular = nan` between ticks", ValueError,
       "Velocity.angular must be finite, got nan",
       lambda s: _set(s.velocity(s.c), "angular", NAN)),
    _e("position-set-y-numpy-array", "`position.y = np.array([3.0])` between ticks",
       TypeError, "Position.y must be a real number, got a numpy array of shape (1,)",
       lambda s: _set(s.position(s.a), "y", np.array([3.0]))),
    _e("velocity-set-x-numpy-array", "`velocity.x = np.zeros((1, 1))` between ticks",
       TypeError, "Velocity.x must be a real number, got a numpy array of shape (1, 1)",
       lambda s: _set(s.velocity(s.b), "x", np.zeros((1, 1)))),
    _e("shape-geometry-str", "`Shape('circle')`", TypeError,
       "Shape geometry must be a Point, Circle, Rect, Triangle or Polygon, got str",
       lambda s: Shape("circle")),  # type: ignore[arg-type]
    _e("shape-geometry-class", "`Shape(Circle)` (the class, not a circle)", TypeError,
       "Shape geometry must be a Point, Circle, Rect, Triangle or Polygon, got type",
       lambda s: Shape(Circle)),  # type: ignore[arg-type]
    _e("shape-set-geometry-none", "`shape.geometry = None` between ticks", TypeError,
       "Shape geometry must be a Point, Circle, Rect, Triangle or Polygon, got NoneType",
       lambda s: _set(s.shape(s.a), "geometry", None)),
    _e("shape-layer-negative", "`Shape(Circle(1), layer=-1)`", ValueError,
       "layer must be a 32-bit mask in [0, 0xFFFFFFFF], got -1",
       lambda s: Shape(Circle(1), layer=-1)),
    _e("shape-mask-33-bits", "`Shape(Circle(1), mask=1 << 32)`", ValueError,
       "mask must be a 32-bit mask in [0, 0xFFFFFFFF], got 4294967296",
       lambda s: Shape(Circle(1), mask=1 << 32)),
    _e("shape-layer-float", "`Shape(Circle(1), layer=1.0)`", TypeError,
       "layer must be an int bitmask, got float",
       lambda s: Shape(Circle(1), layer=1.0)),  # type: ignore[arg-type]
    _e("shape-set-mask-bool", "`shape.mask = True` between ticks", TypeError,
       "mask must be an int bitmask, got bool", lambda s: _set(s.shape(s.b), "mask", True)),
    # -- ECS ticks ---------------------------------------------------------------------------
    _e("shape-without-position", "an entity with a Shape and no Position, then a tick",
       ValueError,
       "entity 4 has a Shape but no Position: add a Position or remove the Shape",
       _shape_without_position, _delete_shape_only),
    _e("position-removed", "`esper.remove_component(entity, Position)` on a shaped entity, "
       "then a tick", ValueError,
       "entity 3 has a Shape but no Position: add a Position or remove the Shape",
       _remove_position, lambda s: esper.add_component(s.c, Position(40, 1))),
    _e("velocity-overflow", "`velocity.x = 1e308`, then `esper.process(2.0)`", ValueError,
       "entity 1: Position would not be finite ([inf, 0.0, 0.0]) after moving by dt=2.0",
       _overflow_x, _repair_overflow),
    _e("angle-overflow", "`position.angle = velocity.angular = 1e308`, then "
       "`esper.process(1.0)`", ValueError,
       "entity 2: Position would not be finite ([6.0, 0.0, inf]) after moving by dt=1.0",
       _overflow_angle, _repair_overflow),
    _e("dt-nan", "`esper.process(nan)`", ValueError, "dt must be finite, got nan",
       lambda s: esper.process(NAN)),
    _e("dt-str", "`esper.process('1/60')`", TypeError, "dt must be a real number, got str",
       lambda s: esper.process("1/60")),
    _e("dt-numpy-array", "`esper.process(np.array([1 / 60]))`", TypeError,
       "dt must be a real number, got a numpy array of shape (1,)",
       lambda s: esper.process(np.array([1 / 60]))),
    _g("entity-id-2-to-the-63", "an entity id of `2**63` (esper's counter jumped there), "
       "then a tick", ValueError, "entity 9223372036854775808: entity ids must be below 2**63",
       _tick_with_id_2_to_the_63),
    _e("system-in-another-world", "one CollisionSystem processed in a second esper world",
       RuntimeError,
       f"this CollisionSystem belongs to esper world {SCENE_WORLD!r} but ran in "
       f"{OTHER_WORLD!r}: add one CollisionSystem per world",
       _process_in_other_world),
    _g("system-on-stop-not-callable", "`CollisionSystem(on_stop=3)`", TypeError,
       "on_stop must be callable or None, got int", lambda: CollisionSystem(on_stop=3)),
    _g("response-not-a-system", "`ResponseSystem('collisions')`", TypeError,
       "collisions must be a CollisionSystem, got str",
       lambda: ResponseSystem("collisions")),  # type: ignore[arg-type]
    _g("response-twice", "a second `ResponseSystem(collisions)` on one CollisionSystem",
       ValueError, "this CollisionSystem already has a ResponseSystem", _second_response),
    _g("response-bounce-speed-negative", "`ResponseSystem(collisions, bounce_speed=-1)`",
       ValueError, "bounce_speed must be finite and at least 0, got -1",
       lambda: ResponseSystem(CollisionSystem(), bounce_speed=-1)),
    _g("response-iterations-zero", "`ResponseSystem(collisions, iterations=0)`", ValueError,
       "iterations must be at least 1, got 0",
       lambda: ResponseSystem(CollisionSystem(), iterations=0)),
    _g("response-on-moved-not-callable", "`ResponseSystem(collisions, on_moved=3)`",
       TypeError, "on_moved must be callable or None, got int",
       lambda: ResponseSystem(CollisionSystem(), on_moved=3)),  # type: ignore[arg-type]
    _g("response-support-str", "`response.support('player')`", TypeError,
       "entity must be an int, got str",
       lambda: ResponseSystem(CollisionSystem()).support("player")),  # type: ignore[arg-type]
    _g("response-body-without-shape", "an entity with a `Body` and a Position but no Shape, "
       "then a tick", ValueError,
       "entity 1 has a Body but no Shape and Position: a body needs both", _shapeless_body),
)


ROWS += (
    # -- Arcade bridge (arcade_collide.arcade.CollisionWorld) ------------------------------
    _b("bridge-add-not-a-sprite", "`world.add_sprite('player')`", TypeError,
       "sprite must be an arcade.Sprite, got str",
       lambda s: s.world.add_sprite("player")),  # type: ignore[arg-type]
    _b("bridge-add-twice", "`world.add_sprite(sprite)` for a sprite already added", ValueError,
       "sprite is already in this CollisionWorld", lambda s: s.world.add_sprite(s.a)),
    _b("bridge-add-zero-size", "`world.add_sprite(arcade.Sprite(scale=0))` (no explicit shape)",
       ValueError, "sprite has zero size (0 x 0); give an explicit shape",
       lambda s: s.world.add_sprite(s.arcade.Sprite(scale=0))),
    _b("bridge-add-nan-position", "`world.add_sprite(sprite)` with `sprite.center_x = nan`",
       ValueError, "Position.x must be finite, got nan",
       lambda s: s.world.add_sprite(s.sprite(x=NAN))),
    _b("bridge-add-velocity-nan", "`world.add_sprite(sprite, velocity=(nan, 0))`", ValueError,
       "Velocity.x must be finite, got nan",
       lambda s: s.world.add_sprite(s.sprite(), velocity=(NAN, 0))),
    _b("bridge-add-shape-str", "`world.add_sprite(sprite, shape='circle')`", TypeError,
       "Shape geometry must be a Point, Circle, Rect, Triangle or Polygon, got str",
       lambda s: s.world.add_sprite(s.sprite(), shape="circle")),  # type: ignore[arg-type]
    _b("bridge-add-layer-negative", "`world.add_sprite(sprite, layer=-1)`", ValueError,
       "layer must be a 32-bit mask in [1, 0xFFFFFFFF], got -1",
       lambda s: s.world.add_sprite(s.sprite(), layer=-1)),
    _b("bridge-add-velocity-three-values", "`world.add_sprite(sprite, velocity=(1, 2, 3))`",
       ValueError, "velocity must be (vx, vy), got 3 values",
       lambda s: s.world.add_sprite(s.sprite(), velocity=(1, 2, 3))),  # type: ignore[arg-type]
    _b("bridge-add-angular-str", "`world.add_sprite(sprite, angular='fast')`", TypeError,
       "angular must be a real number, got str",
       lambda s: s.world.add_sprite(s.sprite(), angular="fast")),  # type: ignore[arg-type]
    _b("bridge-set-velocity-inf", "`world.set_velocity(sprite, 5.0, inf)`", ValueError,
       "Velocity.y must be finite, got inf",
       lambda s: s.world.set_velocity(s.a, 5.0, INF)),
    _b("bridge-set-velocity-str", "`world.set_velocity(sprite, 'fast', 0)`", TypeError,
       "vx must be a real number, got str",
       lambda s: s.world.set_velocity(s.a, "fast", 0)),  # type: ignore[arg-type]
    _b("bridge-set-velocity-none", "`world.set_velocity(sprite, 0, None)`", TypeError,
       "vy must be a real number, got NoneType",
       lambda s: s.world.set_velocity(s.a, 0, None)),  # type: ignore[arg-type]
    _b("bridge-step-nan", "`world.step(nan)`", ValueError,
       "delta_time must be finite and >= 0, got nan", lambda s: s.world.step(NAN)),
    _b("bridge-step-negative", "`world.step(-1)`", ValueError,
       "delta_time must be finite and >= 0, got -1", lambda s: s.world.step(-1)),
    _b("bridge-step-str", "`world.step('1/60')`", TypeError,
       "delta_time must be a real number, got str",
       lambda s: s.world.step("1/60")),  # type: ignore[arg-type]
    _b("bridge-sprite-moved-to-nan", "`sprite.center_x = nan`, then `world.step(1/60)`",
       ValueError, "a sprite (entity 3) was moved to a non-finite pose", _move_to_nan),
    _b("bridge-on-collision-not-callable", "`world.on_collision('ship', 'rock', start=5)`",
       TypeError, "start must be callable, got int",
       lambda s: s.world.on_collision("ship", "rock", start=5)),  # type: ignore[arg-type]
    _b("bridge-sprite-scaled-to-zero", "`sprite.scale = 0`, then `world.step(1/60)`",
       ValueError,
       "a sprite (entity 3): sprite has zero size (0 x 0); give an explicit shape",
       _shrink_to_nothing),
    _b("bridge-add-kind-unhashable", "`world.add_sprite(sprite, kind=['ship'])`", TypeError,
       "kind must be hashable, got list",
       lambda s: s.world.add_sprite(s.sprite(50), kind=["ship"])),  # type: ignore[arg-type]
    _b("bridge-add-velocity-huge", "`world.add_sprite(sprite, velocity=(10**400, 0))`",
       ValueError, "vx must be finite, got int too large for a float",
       lambda s: s.world.add_sprite(s.sprite(50), velocity=(10**400, 0))),  # type: ignore[arg-type]
    _b("bridge-step-huge", "`world.step(10**400)`", ValueError,
       "delta_time must be finite, got int too large for a float",
       lambda s: s.world.step(10**400)),
    _b("bridge-unknown-sprite", "`world.set_velocity(sprite, 1, 0)` for a sprite not added",
       KeyError, "'sprite is not in this CollisionWorld'",
       lambda s: s.world.set_velocity(s.sprite(50), 1, 0)),  # type: ignore[arg-type]
    _b("bridge-on-collision-kind-unhashable", "`world.on_collision(['ship'], 'rock')`",
       TypeError, "kind_a must be hashable, got list",
       lambda s: s.world.on_collision(["ship"], "rock")),  # type: ignore[arg-type]
    _b("bridge-on-layers-float", "`world.on_layers(1.5, 1)`", TypeError,
       "layer_a must be an int, got float",
       lambda s: s.world.on_layers(1.5, 1)),  # type: ignore[arg-type]
    _b("bridge-on-layers-zero", "`world.on_layers(1, 0)` (no bit set)", ValueError,
       "layer_b must be a 32-bit mask in [1, 0xFFFFFFFF], got 0",
       lambda s: s.world.on_layers(1, 0)),
    _b("bridge-add-layer-zero", "`world.add_sprite(sprite, layer=0)` (no bit set)", ValueError,
       "layer must be a 32-bit mask in [1, 0xFFFFFFFF], got 0",
       lambda s: s.world.add_sprite(s.sprite(50), layer=0)),
    _b("bridge-add-list-layer-zero", "`world.add_sprite_list(sprite_list, layer=0)`",
       ValueError, "layer must be a 32-bit mask in [1, 0xFFFFFFFF], got 0",
       lambda s: s.world.add_sprite_list(_sprite_list(s, s.sprite(50)), layer=0)),
    _b("bridge-set-layers-zero", "`world.set_layers(sprite, layer=0)`", ValueError,
       "layer must be a 32-bit mask in [1, 0xFFFFFFFF], got 0",
       lambda s: s.world.set_layers(s.a, layer=0)),
    _b("bridge-set-layers-float", "`world.set_layers(sprite, layer=1.5)`", TypeError,
       "layer must be an int, got float",
       lambda s: s.world.set_layers(s.a, layer=1.5)),  # type: ignore[arg-type]
    _b("bridge-add-static-with-velocity",
       "`world.add_sprite(sprite, static=True, velocity=(1, 0))`", ValueError,
       "a static sprite cannot have a velocity or turn rate",
       lambda s: s.world.add_sprite(s.sprite(50), static=True, velocity=(1, 0))),
    _b("bridge-set-velocity-static", "`world.set_velocity(sprite, 1, 0)` for a static sprite",
       ValueError, "a static sprite cannot have a velocity or turn rate", _move_a_static_sprite),
    _b("bridge-add-list-not-a-list", "`world.add_sprite_list([sprite])`", TypeError,
       "sprite_list must be an arcade.SpriteList, got list",
       lambda s: s.world.add_sprite_list([s.sprite(50)])),  # type: ignore[arg-type]
    _b("bridge-add-list-twice", "`world.add_sprite_list(sprite_list)` for a list already added",
       ValueError, "sprite_list is already registered in this CollisionWorld", _add_list_twice),
    _b("bridge-add-list-zero-size",
       "`world.add_sprite_list(sprite_list)` with `sprite_list[1]` of zero size", ValueError,
       "sprite_list[1]: sprite has zero size (0 x 0); give an explicit shape",
       lambda s: s.world.add_sprite_list(
           _sprite_list(s, s.sprite(50), s.arcade.Sprite(scale=0), s.sprite(80)))),
    _b("bridge-append-zero-size",
       "`sprite_list.append(arcade.Sprite(scale=0))` to a list given to `add_sprite_list`",
       ValueError, "sprite has zero size (0 x 0); give an explicit shape", _append_zero_size),
    _b("bridge-join-world-with-systems",
       "`CollisionWorld('game')` for an esper world with a MovementSystem and a CollisionSystem",
       ValueError,
       f"esper world {BRIDGE_WORLD!r} already has a MovementSystem and a CollisionSystem: "
       "join it with one CollisionWorld and no systems of its own",
       lambda s: type(s.world)(BRIDGE_WORLD)),
    _b("bridge-add-solid-str", "`world.add_sprite(sprite, solid='yes')`", TypeError,
       "solid must be a bool or a Solid, got str",
       lambda s: s.world.add_sprite(s.sprite(), solid="yes")),
    _b("bridge-add-body-float", "`world.add_sprite(sprite, body=1.5)`", TypeError,
       "body must be a Body, True or None, got float",
       lambda s: s.world.add_sprite(s.sprite(), body=1.5)),
    _b("bridge-add-solid-body", "`world.add_sprite(sprite, solid=True, body=Body())`",
       ValueError, "a sprite cannot be both solid and a body: bodies already block each other",
       lambda s: s.world.add_sprite(s.sprite(), solid=True, body=Body())),
    _b("bridge-add-static-body", "`world.add_sprite(sprite, static=True, body=Body())`",
       ValueError, "a static sprite cannot be a body: a body moves",
       lambda s: s.world.add_sprite(s.sprite(), static=True, body=Body())),
    _b("bridge-add-platformer-str", "`world.add_sprite(sprite, platformer='yes')`", TypeError,
       "platformer must be a Platformer, True or None, got str",
       lambda s: s.world.add_sprite(s.sprite(), platformer="yes")),
    _b("bridge-add-static-platformer", "`world.add_sprite(sprite, static=True, platformer=True)`",
       ValueError, "a static sprite cannot be a platformer: a platformer moves",
       lambda s: s.world.add_sprite(s.sprite(), static=True, platformer=True)),
    _b("bridge-add-ladder-int", "`world.add_sprite(sprite, ladder=1)`", TypeError,
       "ladder must be a bool, got int",
       lambda s: s.world.add_sprite(s.sprite(), ladder=1)),
    _b("bridge-add-solid-ladder", "`world.add_sprite(sprite, ladder=True, solid=True)`",
       ValueError, "a ladder cannot be solid, a body or a platformer: platformers climb it",
       lambda s: s.world.add_sprite(s.sprite(), ladder=True, solid=True)),
    _b("bridge-platformer-of-other",
       "`world.platformer(sprite)` for a sprite added without `platformer=`", KeyError,
       "'sprite was not added with platformer='",
       lambda s: s.world.platformer(s.c)),
)

def _pixel_outside() -> object:
    import PIL.Image

    from arcade_collide.arcade.headless import pixel_at

    return pixel_at(PIL.Image.new("RGB", (100, 80)), -0.5, 5)


def _query_after_nan(s: BridgeScene) -> None:
    s.c.center_x = NAN
    try:
        s.world.sprites_at((0, 0))
    finally:
        s.c.center_x = 100.0


def _query_in_other_world(s: Scene) -> object:
    esper.switch_world(OTHER_WORLD)
    try:
        return s.collisions.point_query((0, 0))
    finally:
        esper.switch_world(SCENE_WORLD)


ROWS += (
    # -- world queries (CollisionSystem, CollisionWorld) ------------------------------------
    _e("query-point-nan", "`collisions.point_query((nan, 0))`", ValueError,
       "point[0] must be finite, got nan", lambda s: s.collisions.point_query((NAN, 0))),
    _e("query-point-str", "`collisions.point_query('xy')`", TypeError,
       "point must be a pair of numbers (x, y), got str",
       lambda s: s.collisions.point_query("xy")),
    _e("query-point-three-values", "`collisions.point_query((0, 0, 0))`", ValueError,
       "point must have exactly 2 coordinates, got 3",
       lambda s: s.collisions.point_query((0, 0, 0))),
    _e("query-box-inverted", "`collisions.aabb_query(1, 0, 0, 1)` (left > right)", ValueError,
       "the box needs left <= right and bottom <= top, got left=1.0, bottom=0.0, right=0.0, "
       "top=1.0", lambda s: s.collisions.aabb_query(1, 0, 0, 1)),
    _e("query-box-inf", "`collisions.aabb_query(0, 0, inf, 1)`", ValueError,
       "right must be finite, got inf", lambda s: s.collisions.aabb_query(0, 0, INF, 1)),
    _e("query-mask-negative", "`collisions.point_query((0, 0), mask=-1)`", ValueError,
       "mask must be a 32-bit mask in [0, 0xFFFFFFFF], got -1",
       lambda s: s.collisions.point_query((0, 0), mask=-1)),
    _e("query-where-not-callable", "`collisions.point_query((0, 0), where=1)`", TypeError,
       "where must be a callable taking an entity id, got int",
       lambda s: s.collisions.point_query((0, 0), where=1)),  # type: ignore[arg-type]
    _e("query-shape-str", "`collisions.shape_query('circle', (0, 0))`", TypeError,
       "shape must be a Point, Circle, Rect, Triangle or Polygon, got str",
       lambda s: s.collisions.shape_query("circle", (0, 0))),  # type: ignore[arg-type]
    _e("query-pose-nan", "`collisions.shape_query(Circle(1), (0, nan))`", ValueError,
       "pose y must be finite, got nan",
       lambda s: s.collisions.shape_query(Circle(1), (0, NAN))),
    _e("query-in-another-world", "`collisions.point_query((0, 0))` while a second esper "
       "world is current", RuntimeError,
       f"this CollisionSystem belongs to esper world {SCENE_WORLD!r}, but {OTHER_WORLD!r} is "
       "current: query it in its own world", _query_in_other_world),
    _e("explain-unknown-entity", "`collisions.explain(1, 999)`", ValueError,
       "entity 999 is not collidable in this world (it does not exist, was deleted, or has "
       "no Position and Shape)", lambda s: s.collisions.explain(s.a, 999)),
    _e("explain-same-entity", "`collisions.explain(1, 1)`", ValueError,
       "explain needs two different entities, got 1 twice",
       lambda s: s.collisions.explain(s.a, s.a)),
    _e("explain-not-an-id", "`collisions.explain(1, 'b')`", TypeError,
       "b must be an entity id (int), got str",
       lambda s: s.collisions.explain(s.a, "b")),  # type: ignore[arg-type]
    _b("bridge-sprites-at-nan", "`world.sprites_at((nan, 0))`", ValueError,
       "point[0] must be finite, got nan", lambda s: s.world.sprites_at((NAN, 0))),
    _b("bridge-sprites-in-rect-tuple", "`world.sprites_in_rect((0, 0, 10, 10))`", TypeError,
       "rect must be an arcade.types.Rect, got tuple",
       lambda s: s.world.sprites_in_rect((0, 0, 10, 10))),
    _b("bridge-query-kind-unhashable", "`world.overlapping(sprite, kind=['ship'])`", TypeError,
       "kind must be hashable, got list",
       lambda s: s.world.overlapping(s.a, kind=["ship"])),  # type: ignore[arg-type]
    _b("bridge-query-where-not-callable", "`world.point_query((0, 0), where=1)`", TypeError,
       "where must be a callable taking a sprite, got int",
       lambda s: s.world.point_query((0, 0), where=1)),  # type: ignore[arg-type]
    _b("bridge-explain-unknown-sprite", "`world.explain(sprite, other)` for a sprite not added",
       KeyError, "'sprite is not in this CollisionWorld'",
       lambda s: s.world.explain(s.a, s.sprite(50))),  # type: ignore[arg-type]
    _b("bridge-query-sprite-moved-to-nan", "`sprite.center_x = nan`, then "
       "`world.sprites_at((0, 0))`", ValueError,
       "a sprite (entity 3) was moved to a non-finite pose", _query_after_nan),
    # -- world rays (CollisionSystem, CollisionWorld) -----------------------------------------
    _e("world-ray-zero-direction", "`collisions.ray_cast((0, 0), (0, 0))`", ValueError,
       "direction must be a non-zero vector, got (0.0, 0.0)",
       lambda s: s.collisions.ray_cast((0, 0), (0, 0))),
    _e("world-cast-translation-nan", "`collisions.shape_cast(Circle(1), (0, 0), (nan, 0))`",
       ValueError, "translation[0] must be finite, got nan",
       lambda s: s.collisions.shape_cast(Circle(1), (0, 0), (NAN, 0))),
    _b("bridge-sight-max-distance-zero", "`world.has_line_of_sight(a, b, walls, 0)`",
       ValueError, "max_distance must be greater than zero",
       lambda s: s.world.has_line_of_sight((0, 0), (1, 0), [], 0)),
    _b("bridge-sight-resolution-zero",
       "`world.has_line_of_sight(a, b, walls, check_resolution=0)`", ValueError,
       "check_resolution must be greater than zero",
       lambda s: s.world.has_line_of_sight((0, 0), (1, 0), [], check_resolution=0)),
    _b("bridge-sight-wall-not-added", "`world.has_line_of_sight(a, b, [sprite_not_added])`",
       ValueError, "a wall is not a sprite of this CollisionWorld: add it first",
       lambda s: s.world.has_line_of_sight((0, 0), (1, 0), [s.sprite(50)])),
    _b("bridge-many-unknown-sprite", "`world.overlapping_many([a, sprite_not_added])`",
       KeyError, "'sprite is not in this CollisionWorld'",
       lambda s: s.world.overlapping_many([s.a, s.sprite(50)])),  # type: ignore[list-item]
    _b("bridge-many-kind-unhashable", "`world.overlapping_many(sprites, kind=['ship'])`",
       TypeError, "kind must be hashable, got list",
       lambda s: s.world.overlapping_many([s.a], kind=["ship"])),  # type: ignore[arg-type]
)


def _no_ticks() -> object:
    import arcade

    from arcade_collide.arcade.headless import run_view

    return run_view(arcade.View, 0)


def _texture(shape: object) -> object:
    from arcade_collide.arcade.shape_sprites import shape_texture

    return shape_texture(shape, (255, 0, 0, 255))  # type: ignore[arg-type]


ROWS += (
    # -- headless helpers and shape sprites ----------------------------------------------
    _g("headless-pixel-outside", "`pixel_at(image, -0.5, 5)` on a 100x80 image", ValueError,
       "(-0.5, 5) is outside the 100x80 image", _pixel_outside),
    _g("headless-run-view-no-ticks", "`run_view(View, 0)`", ValueError,
       "ticks must be >= 1, got 0", _no_ticks),
    _g("shape-texture-not-a-shape", "`shape_texture('circle', color)`", TypeError,
       "shape must be a Point, Circle, Rect, Triangle or Polygon, got str",
       lambda: _texture("circle")),
    _g("shape-texture-too-large", "`shape_texture(Circle(1e7), color)`", ValueError,
       "shape needs a 20000002x20000002 texture; at most 4096 pixels a side",
       lambda: _texture(Circle(1e7))),
)


def _engine(kind: str, *args: object, **kwargs: object) -> object:
    import arcade

    import arcade_collide.arcade as plugin

    player = arcade.SpriteSolidColor(10, 10)
    return getattr(plugin, kind)(player, *args, **kwargs)


def _ladder_appended() -> object:
    engine: Any = _engine("PhysicsEnginePlatformer")
    engine.ladders.append(5)
    return engine.update()


def _walls_entry_not_a_list() -> object:
    import arcade

    return _engine("PhysicsEngineSimple", [arcade.SpriteList(), [arcade.SpriteSolidColor(4, 4)]])


def _player_none() -> object:
    from arcade_collide.arcade import PhysicsEngineSimple

    return PhysicsEngineSimple(None)  # type: ignore[arg-type]


ROWS += (
    # -- drop-in physics engines ---------------------------------------------------------
    _g("engine-player-not-a-sprite", "`PhysicsEngineSimple(None)`", TypeError,
       "player_sprite must be an arcade.Sprite, got NoneType", _player_none),
    _g("engine-walls-entry-not-a-list", "`PhysicsEngineSimple(player, [walls, [crate]])`",
       TypeError, "walls[1] must be an arcade.SpriteList, got list", _walls_entry_not_a_list),
    _g("engine-ladders-entry-appended", "`engine.ladders.append(5)`, then `engine.update()`",
       TypeError, "ladders[0] must be an arcade.SpriteList, got int", _ladder_appended),
    _g("engine-gravity-not-a-number",
       "`PhysicsEnginePlatformer(player, gravity_constant='1')`", TypeError,
       "gravity_constant must be a real number, got str",
       lambda: _engine("PhysicsEnginePlatformer", gravity_constant="1")),
    _g("engine-can-jump-nan", "`engine.can_jump(nan)`", ValueError,
       "y_distance must be finite, got nan",
       lambda: _engine("PhysicsEnginePlatformer").can_jump(NAN)),  # type: ignore[attr-defined]
)


def _tile_map() -> object:
    """A Tiled map of three layers: 'Walls' (two full tiles), 'Both' (a tile marked
    one-way and ladder) and 'Shapes' (a rectangle and a polygon that crosses itself)."""
    global _TILE_MAP
    if _TILE_MAP is None:
        import tempfile

        import arcade

        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
        from tiled_json import object_layer, tile_layer, write_map

        objects = [{"x": 0, "y": 0, "width": 16, "height": 16},
                   {"x": 0, "y": 0, "polygon": [(0, 0), (16, 16), (16, 0), (0, 16)]}]
        layers = [tile_layer("Walls", ["##"]), tile_layer("Both", ["=#"]),
                  object_layer("Shapes", objects)]
        _TILE_MAP = arcade.load_tilemap(write_map(Path(tempfile.mkdtemp()), layers, 2, 1))
        _TILE_MAP.sprite_lists["Both"][0].properties["ladder"] = True
    return _TILE_MAP


_TILE_MAP: Any = None


def _add_layer(s: BridgeScene, name: object, **options: object) -> object:
    return s.world.add_tile_layer(_tile_map(), name, **options)  # type: ignore[arg-type]


ROWS += (
    # -- Tiled layers (add_tile_layer) and their geometry ---------------------------------
    _b("tiles-not-a-map", "`world.add_tile_layer('map.json', 'Walls')`", TypeError,
       "tile_map must be an arcade.TileMap, got str",
       lambda s: s.world.add_tile_layer("map.json", "Walls")),  # type: ignore[arg-type]
    _b("tiles-unknown-layer", "`world.add_tile_layer(tile_map, 'Wall')`", ValueError,
       "tile_map has no layer 'Wall'; its layers: 'Walls', 'Both', 'Shapes'",
       lambda s: _add_layer(s, "Wall")),
    _b("tiles-layer-name-int", "`world.add_tile_layer(tile_map, 3)`", TypeError,
       "layer_name must be a str, got int", lambda s: _add_layer(s, 3)),
    _b("tiles-one-way-and-ladders",
       "`world.add_tile_layer(tile_map, 'Walls', one_way=True, ladders=True)`", ValueError,
       "one_way and ladders cannot both be set: a tile has one role",
       lambda s: _add_layer(s, "Walls", one_way=True, ladders=True)),
    _b("tiles-flag-not-bool", "`world.add_tile_layer(tile_map, 'Walls', one_way=1)`",
       TypeError, "one_way must be a bool, got int",
       lambda s: _add_layer(s, "Walls", one_way=1)),
    _b("tiles-both-roles",
       "`world.add_tile_layer(tile_map, 'Both')`, its first tile's `one_way` and `ladder` "
       "properties both true", ValueError,
       "tile 0 of layer 'Both' is marked both one-way and ladder ('one_way' and 'ladder' "
       "are both true)", lambda s: _add_layer(s, "Both")),
    _b("tiles-polygon-crosses",
       "`world.add_tile_layer(tile_map, 'Shapes')`, its second object a crossing polygon",
       ValueError, "object 1 (Polygon) of layer 'Shapes': outline touches or crosses itself "
       "(sides 0 and 2)", lambda s: _add_layer(s, "Shapes")),
    _b("tiles-layer-zero", "`world.add_tile_layer(tile_map, 'Walls', layer=0)`", ValueError,
       "layer must be a 32-bit mask in [1, 0xFFFFFFFF], got 0",
       lambda s: _add_layer(s, "Walls", layer=0)),
    _b("tiles-remove-not-colliders", "`world.remove_tile_layer((1, 2))`", TypeError,
       "colliders must be a TileColliders, got tuple",
       lambda s: s.world.remove_tile_layer((1, 2))),  # type: ignore[arg-type]
    _g("merge-cells-floats", "`merge_cells([[0.5, 1.0]])`", TypeError,
       "grid must be an array of booleans (or 0 and 1), got float64",
       lambda: merge_cells([[0.5, 1.0]])),
    _g("merge-cells-one-dimension", "`merge_cells([1, 0, 1])`", ValueError,
       "grid must be two-dimensional, got 1 dimensions", lambda: merge_cells([1, 0, 1])),
    _g("convex-pieces-crossing", "`convex_pieces([(0, 0), (2, 2), (2, 0), (0, 2)])`",
       ValueError, "outline touches or crosses itself (sides 0 and 2)",
       lambda: convex_pieces([(0, 0), (2, 2), (2, 0), (0, 2)])),
    _g("convex-pieces-no-area", "`convex_pieces([(0, 0), (1, 1), (2, 2)])`", ValueError,
       "outline has no area", lambda: convex_pieces([(0, 0), (1, 1), (2, 2)])),
    _g("ellipse-outline-zero-width", "`ellipse_outline(0, 3)`", ValueError,
       "width must be a finite number > 0, got 0", lambda: ellipse_outline(0, 3)),
)


def _set_platformer(field: str, value: object) -> None:
    setattr(Platformer(), field, value)


def _platformer_tick(shared: bool) -> None:
    """A tick of a fresh world whose second Platformer has no Velocity (or is the
    first's, given to a second entity)."""
    previous = esper.current_world
    esper.switch_world("errors-platformer")
    try:
        collisions = CollisionSystem()
        esper.add_processor(PlatformerSystem(ResponseSystem(collisions), collisions))
        first = Platformer()
        esper.create_entity(Position(0, 0), Velocity(0, 0), first)
        if shared:
            esper.create_entity(Position(0, 0), Velocity(0, 0), first)
        else:
            esper.create_entity(Position(0, 0), Platformer())
        esper.process(1 / 60)
    finally:
        esper.switch_world(previous)
        esper.delete_world("errors-platformer")


ROWS += (
    # -- platformer controller ------------------------------------------------------------
    _g("platformer-gravity-negative", "`Platformer(gravity=-1)`", ValueError,
       "Platformer.gravity must be at least 0, got -1", lambda: Platformer(gravity=-1)),
    _g("platformer-run-speed-str", "`Platformer(run_speed='fast')`", TypeError,
       "Platformer.run_speed must be a real number, got str",
       lambda: Platformer(run_speed="fast")),  # type: ignore[arg-type]
    _g("platformer-max-jumps-float", "`Platformer(max_jumps=1.5)`", TypeError,
       "Platformer.max_jumps must be an int, got float",
       lambda: Platformer(max_jumps=1.5)),  # type: ignore[arg-type]
    _g("platformer-floor-angle-90", "`Platformer(max_floor_angle=90)`", ValueError,
       "Platformer.max_floor_angle must be at least 0 and below 90 degrees, got 90",
       lambda: Platformer(max_floor_angle=90)),
    _g("platformer-set-move-2", "`platformer.move = 2`", ValueError,
       "Platformer.move must be between -1 and 1, got 2", lambda: _set_platformer("move", 2)),
    _g("platformer-set-jump-int", "`platformer.jump = 1`", TypeError,
       "Platformer.jump must be a bool, got int", lambda: _set_platformer("jump", 1)),
    _g("platformer-set-on-ground", "`platformer.on_ground = True`", AttributeError,
       "Platformer.on_ground is state the PlatformerSystem writes",
       lambda: _set_platformer("on_ground", True)),
    _g("platformer-system-no-supports", "`PlatformerSystem(collisions, collisions)`",
       TypeError, "response must have a supports(entities) method, got CollisionSystem",
       lambda: PlatformerSystem(CollisionSystem(), CollisionSystem())),  # type: ignore[arg-type]
    _g("platformer-without-velocity", "an entity with a Platformer and no Velocity, then a "
       "tick", ValueError, "entity 2: a Platformer needs a Velocity",
       lambda: _platformer_tick(shared=False)),
    _g("platformer-shared", "one Platformer on two entities, then a tick", ValueError,
       "entity 2: its Platformer is also entity 1's; give each character a Platformer of "
       "its own", lambda: _platformer_tick(shared=True)),
)


GEOMETRY_ROWS = [row for row in ROWS if row.geometry is not None]
ECS_ROWS = [row for row in ROWS if row.ecs is not None]


def test_row_ids_are_unique() -> None:
    ids = [row.id for row in ROWS]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("row", GEOMETRY_ROWS, ids=lambda row: row.id)
def test_geometry_row(row: Row) -> None:
    assert row.geometry is not None
    with pytest.raises(row.error) as raised:
        row.geometry()
    assert type(raised.value) is row.error
    assert str(raised.value) == row.message


@pytest.mark.parametrize("row", ECS_ROWS, ids=lambda row: row.id)
def test_ecs_row_leaves_nothing_half_updated(row: Row, scene: Scene) -> None:
    assert row.ecs is not None
    touching = scene.collisions.touching()
    contacts = scene.collisions.contacts()
    assert touching == [(scene.a, scene.b)]
    scene.events.clear()
    with pytest.raises(row.error) as raised:
        row.ecs(scene)
    assert type(raised.value) is row.error
    assert str(raised.value) == row.message
    # Nothing half-updated: no event, the same pairs and contacts, no entity moved
    # (an entity the bad action itself added or stripped aside).
    assert scene.events == []
    assert scene.collisions.touching() == touching
    if row.id in _SETS_POSES_ITSELF:  # contacts() follows the poses the action set by hand
        assert scene.collisions.contacts().keys() == contacts.keys()
    else:
        assert scene.collisions.contacts() == contacts
    if row.repair is not None:
        row.repair(scene)
    # The next valid tick is correct.
    for _ in range(2):
        esper.process(1 / 60)
        assert scene.collisions.touching() == brute_force_pairs()
    assert scene.collisions.touching() == [(scene.a, scene.b)]
    assert scene.events == []


_SETS_POSES_ITSELF = ("velocity-overflow", "angle-overflow")


@pytest.mark.parametrize(
    "row",
    [row for row in ECS_ROWS if row.id not in _SETS_POSES_ITSELF],
    ids=lambda row: row.id,
)
def test_ecs_row_moves_nothing(row: Row, scene: Scene) -> None:
    assert row.ecs is not None
    poses = scene.poses()
    with pytest.raises(row.error):
        row.ecs(scene)
    now = scene.poses()
    assert {e: now[e] for e in poses if e in now} == {e: poses[e] for e in poses if e in now}


BRIDGE_ROWS = [
    pytest.param(row, marks=pytest.mark.xfail(strict=True, reason=row.pending))
    if row.pending
    else row
    for row in ROWS
    if row.bridge is not None
]


@pytest.fixture
def bridge() -> Iterator[BridgeScene]:
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    previous = esper.current_world
    scene = BridgeScene()
    try:
        yield scene
    finally:
        if BRIDGE_WORLD in esper.list_worlds():
            scene.world.close()
        esper.switch_world(previous)


@pytest.mark.parametrize("row", BRIDGE_ROWS, ids=lambda row: row.id)
def test_bridge_row_leaves_nothing_half_updated(row: Row, bridge: BridgeScene) -> None:
    assert row.bridge is not None
    before = bridge.state()
    assert len(before[3]) == 1  # a and b touch  # type: ignore[arg-type]
    with pytest.raises(row.error) as raised:
        row.bridge(bridge)
    assert type(raised.value) is row.error
    assert str(raised.value) == row.message
    assert bridge.state() == before
    bridge.world.step(1 / 60)
    assert [(id(x), id(y)) for x, y, _ in bridge.world.contacts()] == before[3]


def test_overflow_moves_nothing(scene: Scene) -> None:
    before = scene.poses()
    scene.velocity(scene.c).y = 1e308
    with pytest.raises(ValueError, match="entity 3: Position would not be finite"):
        esper.process(2.0)
    # Entities 1 and 2 would have moved fine; the step is all or nothing.
    assert scene.poses() == before


def _doc_lines() -> set[str]:
    return {line.strip() for line in DOC.read_text(encoding="utf-8").splitlines()}


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.id)
def test_every_row_is_documented(row: Row) -> None:
    assert row.doc_line() in _doc_lines(), f"docs/errors.md lacks the line:\n{row.doc_line()}"


def test_documented_rows_all_have_a_test() -> None:
    ids = {row.id for row in ROWS}
    documented = {
        match.group(1)
        for line in _doc_lines()
        if (match := re.match(r"\| `([a-z0-9-]+)` \|", line))
    }
    assert documented == ids


# -- inputs that are NOT errors ---------------------------------------------------------------


@pytest.mark.parametrize("offset", [0.0, 1e9, -1e9])
def test_huge_coordinates_give_correct_answers(offset: float) -> None:
    # At 1e9 doubles are spaced 1.2e-7 apart, so gaps of 1e-6 are still representable.
    assert intersects(Circle(1), (offset, offset), Circle(1), (offset + 2, offset))
    assert not intersects(Circle(1), (offset, offset), Circle(1), (offset + 2 + 1e-6, offset))
    assert intersects(Rect(2, 2), (offset, 0), Rect(2, 2), (offset + 2, 0))
    assert not intersects(Rect(2, 2), (offset, 0), Rect(2, 2), (offset + 2 + 1e-6, 0))
    tri = Triangle((0, 0), (4, 0), (0, 4))
    assert intersects(Point(), (offset + 2, 2), tri, (offset, 0))  # on the hypotenuse
    assert not intersects(Point(), (offset + 2, 2 + 1e-6), tri, (offset, 0))
    assert intersects(Rect(1e9, 1e9), (0, 0), Circle(1), (5e8 + 1, 0))
    assert not intersects(Rect(1e9, 1e9), (0, 0), Circle(1), (5e8 + 1 + 1e-6, 0))
    hit = contact(Circle(1), (offset, offset), Circle(1), (offset + 1.5, offset))
    assert hit is not None
    assert hit.depth == pytest.approx(0.5, abs=1e-6)


@pytest.mark.parametrize("scale", [2.0**-30, 2.0**-40])
def test_tiny_shapes_give_correct_answers(scale: float) -> None:
    # Powers of two keep every coordinate below exact, so "touching" really touches;
    # 1e-9 itself is checked with clear hits and misses below.
    assert intersects(Circle(scale), (0, 0), Circle(scale), (2 * scale, 0))
    assert not intersects(Circle(scale), (0, 0), Circle(scale), (2.001 * scale, 0))
    tri = Triangle((0, 0), (4 * scale, 0), (0, 4 * scale))
    assert intersects(tri, (0, 0), Rect(2 * scale, 2 * scale), (3 * scale, 3 * scale))
    assert not intersects(tri, (0, 0), Rect(2 * scale, 2 * scale), (3.01 * scale, 3.01 * scale))
    poly = Polygon([(0, 0), (scale, 0), (scale, scale)])
    assert intersects(poly, (0, 0), Point(), (scale, scale / 2))
    assert not intersects(poly, (0, 0), Point(), (1.001 * scale, scale / 2))
    hit = contact(Circle(scale), (0, 0), Circle(scale), (scale, 0))
    assert hit is not None
    assert hit.depth == pytest.approx(scale, rel=1e-9)
    assert point_in_triangle((scale, scale), (0, 0), (2 * scale, 0), (0, 2 * scale))


def test_shapes_of_size_1e_9() -> None:
    tiny = 1e-9
    tri = Triangle((0, 0), (4 * tiny, 0), (0, 4 * tiny))
    assert intersects(tri, (0, 0), Rect(2 * tiny, 2 * tiny), (2.9 * tiny, 2.9 * tiny))
    assert not intersects(tri, (0, 0), Rect(2 * tiny, 2 * tiny), (3.1 * tiny, 3.1 * tiny))
    assert intersects(Circle(tiny), (1.0, 1.0), Circle(tiny), (1.0 + 1.9 * tiny, 1.0))
    assert not intersects(Circle(tiny), (1.0, 1.0), Circle(tiny), (1.0 + 2.1 * tiny, 1.0))


@pytest.mark.parametrize(("where", "size"), [(1e9, 10.0), (0.0, 1e-9), (-1e9, 1e-3)])
def test_ecs_at_huge_and_tiny_scales(where: float, size: float) -> None:
    previous = esper.current_world
    esper.switch_world("errors-scales")
    try:
        collisions = CollisionSystem()
        esper.add_processor(collisions)
        a = esper.create_entity(Position(where, where), Shape(Circle(size)))
        b = esper.create_entity(Position(where + 2 * size, where), Shape(Rect(2 * size, size)))
        esper.create_entity(Position(where + 4.5 * size, where), Shape(Circle(size)))
        esper.process(1 / 60)
        assert collisions.touching() == brute_force_pairs() == [(a, b)]
    finally:
        esper.switch_world(previous)
        esper.delete_world("errors-scales")


@pytest.mark.parametrize("angle", [90 * 2.0**70, 1e308, -1e308, 90 * 2.0**62 + 90])
def test_huge_finite_angles_work_without_warnings(angle: float) -> None:
    """Any finite angle is a valid pose: scalar, batch and ECS agree, and no numpy
    overflow warning escapes (RuntimeWarnings are errors in this suite)."""
    rect = Rect(4, 2)
    scalar = intersects(rect, (0, 0, angle), Point(), (0, 1.5))
    batch = intersects_batch(pack([rect], [(0, 0, angle)]), pack([Point()], [(0, 1.5)]))
    assert bool(batch[0]) == scalar
    previous = esper.current_world
    esper.switch_world("errors-angles")
    try:
        collisions = CollisionSystem()
        esper.add_processor(collisions)
        esper.create_entity(Position(0, 0, angle), Shape(rect))
        esper.create_entity(Position(0, 1.5), Shape(Point()))
        esper.process(1 / 60)
        assert (collisions.touching() == [(1, 2)]) == scalar
    finally:
        esper.switch_world(previous)
        esper.delete_world("errors-angles")


def test_numpy_scalars_are_accepted() -> None:
    assert Circle(np.float32(2)).radius == 2.0
    assert intersects(Circle(np.int64(1)), np.array([0.0, 0.0]), Point(), (np.float64(1), 0))


def test_lambda_handlers(scene: Scene) -> None:
    """The documented rule: ``subscribe`` holds lambdas strongly; ``esper.set_handler``
    holds only a weak reference, so a lambda given to it is gone at once (esper's
    behaviour), and the CollisionSystem makes that drop warn rather than pass silently."""
    strong: list[object] = []
    scene.collisions.subscribe(on_started=lambda event: strong.append(event))
    weak: list[object] = []
    with pytest.warns(HandlerDroppedWarning, match="'on_collision_started'.*subscribe"):
        esper.set_handler("on_collision_started", lambda event: weak.append(event))
    try:
        scene.position(scene.c).x = 10.0
        esper.process(1 / 60)
        assert [(e.a, e.b) for e in strong] == [(scene.b, scene.c)]  # type: ignore[attr-defined]
        assert weak == []
        assert not esper.event_registry.get("on_collision_started")
    finally:
        esper.event_registry.pop("on_collision_started", None)

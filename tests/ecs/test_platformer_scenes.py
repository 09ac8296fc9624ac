"""The platformer controller in the whole tick (PlatformerSystem, MovementSystem,
CollisionSystem with its ResponseSystem): jumps, ledges, one-way platforms, moving
platforms, slopes, ladders and long standing, against exact expectations."""

from __future__ import annotations

import itertools
import math

import esper
import pytest

from arcade_collide import (
    Body,
    CollisionSystem,
    Ladder,
    MovementSystem,
    Platformer,
    PlatformerSystem,
    Polygon,
    Position,
    Rect,
    Shape,
    Solid,
    Static,
    Velocity,
)
from arcade_collide.ecs.response import ResponseSystem

DT = 1 / 64
HALF = 20.0
"""Half the height of the 16 x 40 px characters."""
TUNING = {"gravity": 2048.0, "run_speed": 128.0, "jump_speed": 640.0}


class Level:
    """An esper world (the test's own) with the platformer's systems in their order."""

    def __init__(self) -> None:
        self.collisions = CollisionSystem()
        self.response = ResponseSystem(self.collisions)
        esper.add_processor(PlatformerSystem(self.response, self.collisions), priority=2)
        esper.add_processor(MovementSystem(), priority=1)
        esper.add_processor(self.collisions, priority=0)

    def solid(self, x: float, y: float, w: float, h: float, one_way: bool = False) -> int:
        return esper.create_entity(
            Position(x, y), Shape(Rect(w, h)), Static(), Solid(one_way=one_way)
        )

    def character(self, x: float, y: float, **tuning: float) -> tuple[int, Platformer]:
        control = Platformer(**{**TUNING, **tuning})
        body = esper.create_entity(
            Position(x, y), Velocity(0, 0), Shape(Rect(16, 2 * HALF)), Body(), control
        )
        return body, control

    def run(self, ticks: int = 1) -> None:
        for _ in range(ticks):
            esper.process(DT)


def position(entity: int) -> tuple[float, float]:
    p = esper.component_for_entity(entity, Position)
    return p.x, p.y


def settle(level: Level) -> None:
    """A few ticks so that bodies placed resting find their supports."""
    level.run(3)


def test_jump_height_and_air_time_follow_from_the_tuning() -> None:
    level = Level()
    level.solid(0, -8, 400, 16)
    body, control = level.character(0, HALF)
    settle(level)
    assert control.on_ground and position(body)[1] == pytest.approx(HALF, abs=1e-9)
    control.jump = True
    heights = []
    for _ in range(60):
        level.run()
        heights.append(position(body)[1] - HALF)
    assert max(heights) == pytest.approx(105.0, abs=1e-9)  # 640**2 / (2 * 2048) + 640 * DT / 2
    landed = next(k for k, h in enumerate(heights) if h < 1e-6) + 1
    assert landed == 41
    assert all(abs(h) < 1e-6 for h in heights[landed - 1:])
    assert control.on_ground and control.jumps_used == 0


@pytest.mark.parametrize("late", [1, 3, 4])
def test_coyote_time_allows_a_jump_for_its_ticks_after_walking_off_a_ledge(late: int) -> None:
    level = Level()
    level.solid(0, -8, 64, 16)  # the ledge ends at x = 32
    body, control = level.character(16, HALF, coyote_time=3 * DT, jump_buffer=0.0)
    settle(level)
    control.move = 1.0
    ticks_off = 0
    while ticks_off < late:
        level.run()
        ticks_off = 0 if control.on_ground else ticks_off + 1
    control.move = 0.0
    y = position(body)[1]
    # ``late`` ticks have seen no floor: the jump comes on the next one, the
    # (late + 1)-th without a floor, allowed while that is within the coyote time.
    control.jump = True
    level.run()
    jumped = position(body)[1] > y
    assert jumped is (late + 1 <= 3)


def test_a_jump_pressed_just_before_landing_is_kept_by_the_buffer() -> None:
    level = Level()
    level.solid(0, -8, 400, 16)
    # Dropped from 40 px: it lands at the end of tick 13, past its coyote time.
    body, control = level.character(0, HALF + 40, jump_buffer=8 * DT)
    level.run(8)
    assert control.jumps_used == 1 and not control.can_jump
    control.jump = True
    rises = []
    for _ in range(8):
        level.run()
        rises.append(esper.component_for_entity(body, Velocity).y == 640.0)
    assert rises == [False] * 5 + [True, False, False]  # on the tick after landing
    assert position(body)[1] > HALF + 640.0 * DT


def test_double_jump_then_no_more() -> None:
    level = Level()
    level.solid(0, -8, 400, 16)
    body, control = level.character(0, HALF, max_jumps=2, jump_buffer=0.0)
    settle(level)
    rises = []
    for _ in range(3):
        control.jump = True
        level.run()
        before = esper.component_for_entity(body, Velocity).y
        rises.append(before == pytest.approx(640.0))
        level.run(5)
    assert rises == [True, True, False]
    assert control.jumps_used == 2


def test_one_way_platform_is_jumped_through_from_below_and_landed_on() -> None:
    level = Level()
    level.solid(0, -8, 400, 16)
    level.solid(0, 60, 100, 8, one_way=True)  # top at y = 64
    body, control = level.character(0, HALF)
    settle(level)
    control.jump = True
    level.run(80)
    assert control.on_ground
    assert position(body) == pytest.approx((0.0, 64 + HALF), abs=1e-6)


def test_one_way_platform_holds_a_body_falling_from_above() -> None:
    level = Level()
    level.solid(0, 60, 100, 8, one_way=True)
    body, control = level.character(0, 200)
    level.run(60)
    assert control.on_ground
    assert position(body) == pytest.approx((0.0, 64 + HALF), abs=1e-6)


def test_a_moving_platform_carries_the_body_without_slipping() -> None:
    level = Level()
    platform = esper.create_entity(
        Position(0, -8), Velocity(45, 30), Shape(Rect(100, 16)), Solid()
    )
    body, control = level.character(10, HALF)
    settle(level)
    offset = (position(body)[0] - position(platform)[0], position(body)[1] - position(platform)[1])
    level.run(200)
    assert control.on_ground
    now = (position(body)[0] - position(platform)[0], position(body)[1] - position(platform)[1])
    assert now == pytest.approx(offset, abs=1e-6)


def slope_level(level: Level) -> None:
    """A 30 degree slope rising to the right from (0, 0) to (300, 300 tan 30°)."""
    top = 300 * math.tan(math.radians(30))
    esper.create_entity(
        Position(0, 0), Shape(Polygon([(0, 0), (300, 0), (300, top)])), Static(), Solid()
    )
    level.solid(150, -8, 600, 16)


def test_standing_on_a_slope_does_not_slide() -> None:
    level = Level()
    slope_level(level)
    body, control = level.character(150, 150 * math.tan(math.radians(30)) + 40)
    level.run(30)
    assert control.on_ground
    start = position(body)
    level.run(300)
    assert position(body) == pytest.approx(start, abs=1e-6)


def test_walking_up_a_30_degree_slope_follows_it_at_run_speed() -> None:
    level = Level()
    slope_level(level)
    body, control = level.character(100, 100 * math.tan(math.radians(30)) + 40)
    level.run(30)
    x0, y0 = position(body)
    control.move = 1.0
    level.run(32)
    x1, y1 = position(body)
    assert control.on_ground
    assert math.degrees(math.atan2(y1 - y0, x1 - x0)) == pytest.approx(30.0, abs=1e-6)
    assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(128.0 * 32 * DT, rel=1e-6)


def test_a_ladder_climbs_without_gravity_and_lets_go_at_the_top() -> None:
    level = Level()
    level.solid(0, -8, 400, 16)
    esper.create_entity(Position(0, 100), Shape(Rect(20, 200)), Static(), Ladder())
    body, control = level.character(0, HALF, ladder_speed=64.0)
    level.run(2)
    assert control.on_ladder
    control.climb = 1.0
    heights = []
    while control.on_ladder or not heights:
        level.run()
        heights.append(position(body)[1])
    steps = [b - a for a, b in itertools.pairwise(heights[:-1])]
    assert steps == pytest.approx([64.0 * DT] * len(steps))
    # It climbs until its box no longer touches the ladder (top at 200): bottom at 201.
    assert heights[-2] - HALF == pytest.approx(201.0)
    vy = esper.component_for_entity(body, Velocity).y
    assert vy == pytest.approx(64.0 - 2048.0 * DT)  # gravity again
    control.climb = 0.0
    level.run()
    assert esper.component_for_entity(body, Velocity).y < vy


def test_standing_a_thousand_ticks_on_tiles_drifts_nowhere() -> None:
    level = Level()
    for k in range(8):
        level.solid(16 + 32 * k, -16, 32, 32)
    bodies = [level.character(30 + 40 * k, HALF)[0] for k in range(5)]
    settle(level)
    start = [position(b) for b in bodies]
    level.run(1000)
    for b, (x, y) in zip(bodies, start, strict=True):
        assert position(b) == pytest.approx((x, y), abs=0.01)
        assert position(b)[1] == pytest.approx(HALF, abs=1e-9)

"""The platformer controller's tick as a pure array function, against exact expectations.

A tiny stand-in world moves one body: ``y += vy * dt`` with a floor at ``y = 0`` that
stops it (its support the next tick), so jump heights, air times, coyote time, jump
buffers, multi-jumps, ladders, carried speeds and slopes are checked without the
collision pipeline. ``dt = 1/64`` and powers of two keep every sum exact.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from arcade_collide.ecs import platformer_step as col
from arcade_collide.ecs.platformer import Platformer
from arcade_collide.ecs.storage import PooledRows

DT = 1 / 64
FLOOR = (0.0, 1.0)
NO_SUPPORT = None


class Controlled:
    """One body under :func:`platformer_step`, its table row and Velocity."""

    def __init__(self, **tuning: float) -> None:
        self.table = PooledRows([Platformer(**tuning)]).read(col.WIDTH).copy()
        self.vel = np.zeros((1, 3))
        self.one = np.zeros(1, dtype=np.int64)

    def __getitem__(self, column: int) -> float:
        return float(self.table[0, column])

    def press(self, column: int, value: float = 1.0) -> None:
        self.table[0, column] = value

    def step(
        self,
        normal: tuple[float, float] | None = FLOOR,
        carry: tuple[float, float] = (0.0, 0.0),
        ladder: bool = False,
    ) -> tuple[float, float]:
        found = normal is not None
        support = np.array([[float(found), *(normal or (0.0, 0.0)), *carry]])
        ladders = np.array([ladder])
        col.platformer_step(self.table, self.one, self.vel, self.one, support, ladders, DT)
        return float(self.vel[0, 0]), float(self.vel[0, 1])


def fly(body: Controlled, ticks: int) -> list[float]:
    """Heights over ``ticks`` ticks on a floor at 0 that stops the body."""
    y, heights, normal = 0.0, [], FLOOR
    for _ in range(ticks):
        _, vy = body.step(normal)
        y += vy * DT
        if y <= 0.0:
            y, body.vel[0, 1], normal = 0.0, 0.0, FLOOR
        else:
            normal = NO_SUPPORT
        heights.append(y)
    return heights


def test_jump_height_and_air_time_follow_from_the_tuning() -> None:
    gravity, jump = 2048.0, 640.0  # 32 px/s lost per tick: 20 ticks to the peak
    body = Controlled(gravity=gravity, jump_speed=jump)
    body.press(col.JUMP)
    heights = fly(body, 60)
    # Semi-implicit Euler: the peak is the continuous one plus half a tick of rise.
    assert max(heights) == jump**2 / (2 * gravity) + jump * DT / 2 == 105.0
    air_ticks = heights.index(0.0) + 1
    assert air_ticks == 2 * jump / (gravity * DT) + 1 == 41
    assert all(h == 0.0 for h in heights[air_ticks:])
    assert body[col.ON_GROUND] == 1.0 and body[col.JUMPS_USED] == 0.0


def test_standing_presses_into_the_floor_by_one_tick_of_gravity() -> None:
    body = Controlled(gravity=2048.0, run_speed=128.0)
    assert body.step(FLOOR) == (0.0, -32.0)
    body.press(col.MOVE, -1.0)
    assert body.step(FLOOR) == (-128.0, -32.0)
    assert body[col.ON_GROUND] == 1.0 and body[col.AIR_TIME] == 0.0


@pytest.mark.parametrize("ticks_off", [1, 2, 3, 4])
def test_coyote_time_keeps_the_ground_jump_for_its_ticks_only(ticks_off: int) -> None:
    body = Controlled(gravity=2048.0, jump_speed=640.0, coyote_time=3 * DT, jump_buffer=0.0)
    body.step(FLOOR)
    for _ in range(ticks_off - 1):
        body.step(NO_SUPPORT)
    body.press(col.JUMP)
    _, vy = body.step(NO_SUPPORT)
    jumped = ticks_off <= 3
    assert (vy == 640.0) is jumped
    assert body[col.JUMPS_USED] == 1.0  # used by the jump, or lapsed with the coyote time
    assert body[col.AIR_TIME] == ticks_off * DT


def test_walking_off_a_ledge_starts_falling_from_rest() -> None:
    body = Controlled(gravity=2048.0)
    body.step(FLOOR)
    assert body.step(NO_SUPPORT) == (0.0, -32.0)
    assert body.step(NO_SUPPORT) == (0.0, -64.0)


@pytest.mark.parametrize("ticks_early", [0, 1, 4, 5])
def test_jump_buffer_keeps_a_press_for_its_ticks(ticks_early: int) -> None:
    body = Controlled(gravity=2048.0, jump_speed=640.0, coyote_time=0.0, jump_buffer=4 * DT)
    body.step(NO_SUPPORT)  # in the air, its ground jump already lapsed
    body.press(col.JUMP)
    for _ in range(ticks_early):
        _, vy = body.step(NO_SUPPORT)
        assert vy < 0.0
    _, vy = body.step(FLOOR)  # lands: jumps if the press is still kept
    assert (vy == 640.0) is (ticks_early <= 4)
    waiting = math.inf if ticks_early <= 4 else ticks_early * DT
    assert body[col.JUMP_PRESS_AGE] == waiting
    _, vy = body.step(NO_SUPPORT if ticks_early <= 4 else FLOOR)
    assert vy < 640.0  # one press, one jump


@pytest.mark.parametrize("max_jumps", [0, 1, 2, 3])
def test_multi_jump_allows_max_jumps_between_landings(max_jumps: int) -> None:
    body = Controlled(gravity=2048.0, jump_speed=640.0, max_jumps=max_jumps, jump_buffer=0.0)
    jumps = 0
    normal: tuple[float, float] | None = FLOOR
    for _ in range(max_jumps + 2):
        body.press(col.JUMP)
        _, vy = body.step(normal)
        jumps += vy == 640.0
        body.step(NO_SUPPORT)
        normal = NO_SUPPORT
    assert jumps == max_jumps and body[col.JUMPS_USED] == max_jumps
    body.step(FLOOR)
    assert body[col.JUMPS_USED] == 0.0


def test_walking_off_a_ledge_leaves_the_air_jumps_once_coyote_time_is_over() -> None:
    body = Controlled(gravity=2048.0, jump_speed=640.0, max_jumps=2, coyote_time=DT,
                      jump_buffer=0.0)  # fmt: skip
    body.step(FLOOR)
    body.step(NO_SUPPORT)
    body.step(NO_SUPPORT)
    assert body[col.JUMPS_USED] == 1.0
    body.press(col.JUMP)
    assert body.step(NO_SUPPORT)[1] == 640.0
    body.press(col.JUMP)
    assert body.step(NO_SUPPORT)[1] == 640.0 - 32.0


def test_a_ladder_has_no_gravity_and_climbs_at_ladder_speed() -> None:
    body = Controlled(gravity=2048.0, run_speed=128.0, ladder_speed=96.0)
    assert body.step(NO_SUPPORT, ladder=True) == (0.0, 0.0)
    assert body[col.ON_LADDER] == 1.0 and body[col.AIR_TIME] == 0.0
    body.press(col.CLIMB, 1.0)
    body.press(col.MOVE, 0.5)
    for _ in range(5):
        assert body.step(NO_SUPPORT, ladder=True) == (64.0, 96.0)
    body.press(col.CLIMB, -1.0)
    assert body.step(NO_SUPPORT, ladder=True) == (64.0, -96.0)


def test_climbing_past_the_top_of_a_ladder_gives_it_back_to_gravity() -> None:
    body = Controlled(gravity=2048.0, ladder_speed=96.0)
    body.press(col.CLIMB, 1.0)
    body.step(NO_SUPPORT, ladder=True)
    assert body.step(NO_SUPPORT, ladder=False) == (0.0, 96.0 - 32.0)
    assert body[col.ON_LADDER] == 0.0
    assert body.step(NO_SUPPORT, ladder=False) == (0.0, 96.0 - 64.0)


def test_a_jump_lets_go_of_the_ladder_until_the_body_climbs_again() -> None:
    body = Controlled(gravity=2048.0, jump_speed=640.0, jump_buffer=0.0)
    body.step(NO_SUPPORT, ladder=True)
    body.press(col.JUMP)
    assert body.step(NO_SUPPORT, ladder=True) == (0.0, 640.0)
    assert body.step(NO_SUPPORT, ladder=True) == (0.0, 608.0)  # falls, still overlapping
    assert body[col.ON_LADDER] == 0.0
    body.press(col.CLIMB, -1.0)
    assert body.step(NO_SUPPORT, ladder=True) == (0.0, -300.0)
    assert body[col.ON_LADDER] == 1.0 and body[col.JUMPS_USED] == 0.0


def test_a_moving_support_carries_the_body() -> None:
    body = Controlled(gravity=2048.0, run_speed=128.0)
    assert body.step(FLOOR, carry=(50.0, -20.0)) == (50.0, -20.0 - 32.0)
    body.press(col.MOVE, 1.0)
    assert body.step(FLOOR, carry=(50.0, -20.0)) == (178.0, -20.0 - 32.0)
    body.press(col.MOVE, 0.0)
    assert body.step(NO_SUPPORT) == (0.0, -20.0 - 32.0)  # walked off: falls from its speed


def slope(degrees: float) -> tuple[float, float]:
    """The normal of a floor rising to the right at ``degrees``."""
    return (-math.sin(math.radians(degrees)), math.cos(math.radians(degrees)))


def test_on_a_slope_standing_presses_along_the_normal_and_walking_follows_it() -> None:
    body = Controlled(gravity=2048.0, run_speed=128.0)
    nx, ny = slope(30.0)
    vx, vy = body.step((nx, ny))
    assert vx * ny - vy * nx == pytest.approx(0.0, abs=1e-12)  # no part along the slope
    assert vx * nx + vy * ny == pytest.approx(-32.0)
    body.press(col.MOVE, 1.0)
    vx, vy = body.step((nx, ny))
    assert vx * ny - vy * nx == pytest.approx(128.0)  # up the slope at run speed
    assert vx * nx + vy * ny == pytest.approx(-32.0)
    assert math.degrees(math.atan2(vy + 32 * ny, vx + 32 * nx)) == pytest.approx(30.0)


def test_a_support_steeper_than_max_floor_angle_is_no_floor() -> None:
    body = Controlled(gravity=2048.0, max_floor_angle=46.0)
    body.step(slope(45.0))
    assert body[col.ON_GROUND] == 1.0
    body.step(slope(47.0))
    assert body[col.ON_GROUND] == 0.0


def test_standing_a_thousand_ticks_on_a_slope_drifts_nowhere() -> None:
    body = Controlled(gravity=2048.0)
    normal = slope(30.0)
    n = np.array(normal)
    pos = np.zeros(2)
    for _ in range(1000):
        pos += np.array(body.step(normal)) * DT
        pos -= min(float(pos @ n), 0.0) * n  # pushed back out along the normal
    assert np.abs(pos).max() < 1e-12


def test_at_the_foot_of_a_ladder_the_climb_input_wins_over_the_floor() -> None:
    body = Controlled(gravity=2048.0, ladder_speed=96.0)
    assert body.step(FLOOR, ladder=True) == (0.0, 0.0)
    body.press(col.CLIMB, 1.0)
    assert body.step(FLOOR, ladder=True) == (0.0, 96.0)
    assert body[col.ON_LADDER] == 1.0 and body[col.ON_GROUND] == 1.0

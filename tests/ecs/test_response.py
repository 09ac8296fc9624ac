"""The kinematic response against exact expectations: push-out, sliding, corners,
one-way solids, restitution, friction, bodies against bodies, supports."""

from __future__ import annotations

import math

import esper
import numpy as np
import pytest

from arcade_collide import Circle, Position, Rect, ResponseSystem, Shape, Static, Velocity
from arcade_collide.ecs.solids import Body, Solid
from tests.ecs.response_scene import DT, TILE, Scene, pos, vel

FLUSH = 1e-6
"""How far from exactly flush a resolved pose may be (the push leaves an overlap of
the table's coordinate slack, about 1e-9 here)."""


def test_push_out_of_the_floor_ends_flush_and_touching() -> None:
    scene = Scene()
    floor = scene.tile(0, 0, 200, 10)
    box = scene.body(3, 12, vy=-60)  # 3 px into the floor after the move
    scene.step()
    x, y = pos(box)
    assert x == 3 and abs(y - 15.0) < FLUSH and y <= 15.0
    assert vel(box) == (0.0, 0.0)
    assert [(e.a, e.b) for e in scene.started] == [(floor, box)]
    assert scene.started[0].contact.depth < FLUSH


@pytest.mark.parametrize("degrees", range(0, 360, 5))
def test_slide_along_a_wall_of_tiles_at_every_angle(degrees: int) -> None:
    # A column of flush tiles: the wall's left face is x = 100.
    scene = Scene()
    scene.column(100 + TILE / 2, -40 * TILE, 80)
    speed = 300.0
    vx, vy = speed * math.cos(math.radians(degrees)), speed * math.sin(math.radians(degrees))
    box = scene.body(60, 0.0, vx, vy)
    scene.step(60)
    x, y = pos(box)
    # Expected: y moves freely (no friction), x stops flush at the wall (90) if it
    # goes right far enough, else moves freely.
    free_x = 60 + vx * DT * 60
    hits = free_x > 90
    assert abs(y - vy * DT * 60) < 1e-6
    if hits:
        assert abs(x - 90) < FLUSH and x >= 90  # touching: overlapping by a hair
        assert vel(box) == pytest.approx((0.0, vy), abs=1e-9)
    else:
        assert abs(x - free_x) < 1e-6
        assert vel(box) == pytest.approx((vx, vy), abs=1e-9)


@pytest.mark.parametrize("speed", [37.0, 120.0, 600.0])
def test_walk_over_a_flush_row_of_tiles_never_catches_an_inner_edge(speed: float) -> None:
    scene = Scene()
    scene.row(0, 0, 200)
    box = scene.body(0, TILE / 2 + 10, vx=speed)
    ticks = 300
    scene.step(ticks, gravity=1000.0, bodies=(box,))
    x, y = pos(box)
    assert abs(x - speed * DT * ticks) < 1e-6
    assert abs(y - (TILE / 2 + 10)) < FLUSH
    assert vel(box)[0] == speed
    # Each tile passed over starts once and ends once, in order: no flicker.
    started = [e.a for e in scene.started]
    assert started == sorted(set(started))
    assert [e.a for e in scene.ended] == started[: len(scene.ended)]


def test_inner_corner_floor_and_wall() -> None:
    scene = Scene()
    scene.row(0, 0, 10)
    scene.column(5 * TILE, TILE, 5)  # wall face at x = 4.5 * TILE = 144
    box = scene.body(100, 60, vx=400, vy=-400)
    scene.step(30)
    x, y = pos(box)
    assert abs(x - (144 - 10)) < FLUSH and abs(y - (16 + 10)) < FLUSH
    assert vel(box) == (0.0, 0.0)


def test_lands_on_an_outer_corner_top() -> None:
    scene = Scene()
    scene.tile(0, 0)  # top at 16, left edge at -16
    box = scene.body(-24, 40, vy=-300)  # overlaps the block by 2 px in x
    scene.step(10)
    x, y = pos(box)
    assert x == -24 and abs(y - 26) < FLUSH
    assert vel(box) == (0.0, 0.0)


def test_one_way_platform_jump_up_through_then_land() -> None:
    scene = Scene()
    scene.row(0, 0, 5, one_way=True)  # top at 16
    box = scene.body(32, -40, vy=500)
    scene.step(1, gravity=1000.0, bodies=(box,))
    passed = False
    for _ in range(120):
        scene.step(1, gravity=1000.0, bodies=(box,))
        passed |= pos(box)[1] > 26 + 1
    assert passed
    assert abs(pos(box)[1] - 26) < FLUSH
    assert vel(box)[1] == 0.0


def test_one_way_platform_passed_sideways_below_its_top() -> None:
    scene = Scene()
    scene.tile(0, 0, one_way=True)
    box = scene.body(-60, 5, vx=600)
    scene.step(12)
    assert pos(box) == pytest.approx((-60 + 600 * 12 * DT, 5), abs=1e-9)


@pytest.mark.parametrize("restitution", [0.0, 0.5, 1.0])
def test_restitution(restitution: float) -> None:
    scene = Scene()
    scene.tile(0, 0, 200, 10)
    box = scene.body(0, 17, vy=-300, restitution=restitution)
    scene.step()
    assert vel(box) == (0.0, 300 * restitution)
    assert abs(pos(box)[1] - 15) < FLUSH


def test_slow_approach_does_not_bounce() -> None:
    scene = Scene(bounce_speed=50.0)
    scene.tile(0, 0, 200, 10)
    box = scene.body(0, 15.5, vy=-40, restitution=1.0)
    scene.step()
    assert vel(box) == (0.0, 0.0)


@pytest.mark.parametrize(("friction", "expected"), [(0.0, 100.0), (0.5, 70.0), (2.0, 0.0)])
def test_friction_slows_along_the_surface_coulomb(friction: float, expected: float) -> None:
    scene = Scene()
    scene.tile(0, 0, 2000, 10)
    box = scene.body(0, 15, vx=100, vy=-60, friction=friction)
    scene.step()
    assert vel(box) == pytest.approx((expected, 0.0), abs=1e-9)


def test_bodies_push_each_other_half_the_depth_each() -> None:
    scene = Scene()
    a = scene.body(0, 0)
    b = scene.body(18, 0)  # 2 px overlap
    scene.step()
    assert abs(pos(a)[0] - -1) < FLUSH and abs(pos(b)[0] - 19) < FLUSH
    assert pos(b)[0] - pos(a)[0] <= 20


def test_bodies_meeting_head_on_stop() -> None:
    scene = Scene()
    a = scene.body(0, 0, vx=60)
    b = scene.body(21, 0, vx=-60)
    scene.step()
    assert vel(a) == (0.0, 0.0) and vel(b) == (0.0, 0.0)


def test_resting_bodies_stay_put_without_flicker() -> None:
    scene = Scene()
    scene.row(0, 0, 20)
    boxes = [scene.body(k * 30.0 + 3, TILE / 2 + 10) for k in range(10)]
    boxes.append(scene.body(410, 40, shape=Circle(10)))  # alone: no stack
    scene.step(30, gravity=1000.0, bodies=tuple(boxes))  # the circle falls and lands
    rest = [pos(b) for b in boxes]
    starts = len(scene.started)
    scene.step(600, gravity=1000.0, bodies=tuple(boxes))
    now = [pos(b) for b in boxes]
    drift = max(abs(y - y0) + abs(x - x0) for (x, y), (x0, y0) in zip(now, rest, strict=True))
    assert drift < 1e-9
    assert len(scene.started) == starts and not scene.ended


def test_layers_not_in_blocked_by_pass_through() -> None:
    scene = Scene()
    esper.create_entity(Position(0, 0), Shape(Rect(100, 10), layer=2), Static(), Solid())
    box = scene.body(0, 12, vy=-60, blocked_by=1)
    scene.step()
    assert pos(box) == (0, 11)


def test_support_on_floor_and_moving_platform() -> None:
    scene = Scene()
    floor = scene.tile(0, 0, 200, 10)
    platform = esper.create_entity(
        Position(300, 0), Velocity(30, 0), Shape(Rect(100, 10)), Solid()
    )
    on_floor = scene.body(0, 15, vy=-10)
    on_platform = scene.body(300, 15, vx=30, vy=-10)
    flying = scene.body(0, 200)
    scene.step()
    assert scene.response.support(on_floor) == (floor, (0.0, 1.0), (0.0, 0.0))
    support = scene.response.support(on_platform)
    assert support is not None and support.entity == platform and support.velocity == (30.0, 0.0)
    assert scene.response.support(flying) is None
    assert scene.response.support(floor) is None  # not a body
    many = scene.response.supports([flying, on_floor, 12345])
    assert many.entity.tolist() == [-1, floor, -1]
    assert many.normal.tolist() == [[0.0, 0.0], [0.0, 1.0], [0.0, 0.0]]


def test_queries_after_the_tick_see_resolved_poses() -> None:
    scene = Scene()
    scene.tile(0, 0, 200, 10)
    box = scene.body(0, 12, vy=-60)
    scene.step()
    assert box not in scene.collisions.aabb_query(-5, 4, 5, 4.9)
    assert box in scene.collisions.point_query((0, 20))


def test_errors() -> None:
    scene = Scene()
    with pytest.raises(TypeError, match="collisions must be a CollisionSystem"):
        ResponseSystem("nope")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="already has a ResponseSystem"):
        ResponseSystem(scene.collisions)
    from arcade_collide import CollisionSystem

    with pytest.raises(ValueError, match="bounce_speed"):
        ResponseSystem(CollisionSystem(), bounce_speed=-1)
    with pytest.raises(ValueError, match="iterations"):
        ResponseSystem(CollisionSystem(), iterations=0)
    with pytest.raises(TypeError, match="entity must be an int"):
        scene.response.support("a")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="entities must be"):
        scene.response.supports([[1]])
    lone = esper.create_entity(Position(0, 0), Body())
    with pytest.raises(ValueError, match=f"entity {lone} has a Body but no Shape"):
        scene.step()
    esper.delete_entity(lone, immediate=True)
    both = esper.create_entity(Position(0, 0), Shape(Rect(2, 2)), Body(), Solid())
    with pytest.raises(ValueError, match=f"entity {both} is both a Body and a Solid"):
        scene.step()
    esper.delete_entity(both, immediate=True)
    frozen = esper.create_entity(Position(0, 0), Shape(Rect(2, 2)), Body(), Static())
    with pytest.raises(ValueError, match=f"entity {frozen} is a Static Body"):
        scene.step()
    esper.delete_entity(frozen, immediate=True)
    scene.step()


def test_supports_arrays_shape() -> None:
    scene = Scene()
    scene.step()
    found = scene.response.supports(np.array([], dtype=np.int64))
    assert found.entity.shape == (0,) and found.normal.shape == (0, 2)

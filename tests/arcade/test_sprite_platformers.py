"""Platformer characters and ladders among sprites (arcade/platformers.py)."""

from __future__ import annotations

from collections.abc import Iterator

import arcade
import pytest

from arcade_collide import Body, Platformer, Solid
from arcade_collide.arcade import CollisionWorld

DT = 1 / 60


@pytest.fixture
def level() -> Iterator[tuple[CollisionWorld, arcade.Sprite, arcade.Sprite]]:
    """A floor of 32 px tiles (top y = 32), a one-way ledge (top y = 124) at x 150-250,
    a ladder at x 384-416, and a 20 x 30 player dropped at x = 100."""
    world = CollisionWorld()
    floor = arcade.SpriteList()
    for x in range(16, 640, 32):
        floor.append(arcade.SpriteSolidColor(32, 32, center_x=x, center_y=16))
    world.add_sprite_list(floor, static=True, solid=True)
    ledge = arcade.SpriteSolidColor(100, 8, center_x=200, center_y=120)
    world.add_sprite(ledge, static=True, solid=Solid(one_way=True))
    ladder = arcade.SpriteSolidColor(32, 200, center_x=400, center_y=132)
    world.add_sprite(ladder, static=True, ladder=True, kind="ladder")
    player = arcade.SpriteSolidColor(20, 30, center_x=100, center_y=200)
    world.add_sprite(player, platformer=True, kind="player")
    try:
        yield world, player, ladder
    finally:
        world.close()


def _steps(world: CollisionWorld, count: int) -> None:
    for _ in range(count):
        world.step(DT)


def test_a_platformer_sprite_falls_and_stands_on_the_floor(level) -> None:
    world, player, _ = level
    control = world.platformer(player)
    assert not control.on_ground
    _steps(world, 60)
    assert control.on_ground and control.can_jump
    assert player.bottom == pytest.approx(32, abs=1e-6)
    support = world.support(player)
    assert support is not None and support.normal == (0.0, 1.0)
    assert world.velocity(player)[:2] == (0.0, 0.0)


def test_its_input_walks_it_and_jumps_it_through_the_one_way_ledge_onto_it(level) -> None:
    world, player, _ = level
    control = world.platformer(player)
    _steps(world, 60)
    control.jump = True
    world.step(DT)
    assert world.velocity(player)[1] == pytest.approx(control.jump_speed)
    assert not control.on_ground
    control.move = 1
    highest = player.bottom
    while world.velocity(player)[1] > 0:  # up through the ledge from below
        world.step(DT)
        highest = max(highest, player.bottom)
    assert highest > 124
    control.move = 0
    _steps(world, 60)
    assert control.on_ground
    assert player.bottom == pytest.approx(124, abs=1e-6)  # landed on the ledge's top
    assert 150 <= player.center_x <= 250


def test_it_climbs_a_ladder_and_the_ladder_blocks_nothing(level) -> None:
    world, player, ladder = level
    control = world.platformer(player)
    _steps(world, 60)
    control.move = 1
    for _ in range(120):
        world.step(DT)
        if control.on_ladder:
            break
    assert control.on_ladder
    assert ladder in world.overlapping(player, kind="ladder")
    control.move, control.climb = 0, 1
    start = player.center_y
    _steps(world, 20)
    assert player.center_y - start == pytest.approx(20 * control.ladder_speed * DT, rel=1e-6)


def test_platformer_accepts_its_own_tuning_and_is_a_body() -> None:
    world = CollisionWorld()
    try:
        sprite = arcade.SpriteSolidColor(10, 10)
        tuned = Platformer(gravity=1000.0, max_jumps=2)
        world.add_sprite(sprite, platformer=tuned, body=Body(friction=0.5))
        assert world.platformer(sprite) is tuned
        other = arcade.SpriteSolidColor(10, 10)
        world.add_sprite(other)
        with pytest.raises(KeyError, match="platformer="):
            world.platformer(other)
        assert world.support(other) is None
    finally:
        world.close()


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"platformer": "yes"}, TypeError, "platformer must be a Platformer, True or None"),
        ({"platformer": True, "static": True}, ValueError, "a static sprite cannot be a"),
        ({"ladder": 1}, TypeError, "ladder must be a bool, got int"),
        ({"ladder": True, "solid": True}, ValueError, "a ladder cannot be solid, a body or a"),
        ({"ladder": True, "platformer": True}, ValueError, "a ladder cannot be solid"),
    ],
)
def test_bad_platformer_and_ladder_options_are_refused_and_add_nothing(
    options: dict[str, object], error: type[Exception], message: str
) -> None:
    world = CollisionWorld()
    try:
        sprite = arcade.SpriteSolidColor(10, 10)
        with pytest.raises(error, match=message):
            world.add_sprite(sprite, **options)
        assert world.sprites() == []
    finally:
        world.close()

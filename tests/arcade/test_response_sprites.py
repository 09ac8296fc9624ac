"""The response in the bridge: ``add_sprite(..., body=Body())`` against
``add_sprite_list(walls, static=True, solid=True)``."""

from __future__ import annotations

from typing import Any

import arcade
import pytest

from arcade_collide import Body, Rect, Solid
from arcade_collide.arcade import CollisionWorld
from arcade_collide.geometry.contact import Contact
from tests.arcade.test_swept_sprites import world

__all__ = ["world"]  # the fixture
DT = 1 / 60


class Player(arcade.SpriteSolidColor):
    """A 20 px square that notes its position when a contact starts or ends."""

    def __init__(self, **options: Any) -> None:
        super().__init__(20, 20, **options)
        self.seen: list[tuple[str, tuple[float, float]]] = []

    def on_collision_start(self, other: arcade.Sprite, contact: Contact) -> None:
        self.seen.append(("start", self.position))

    def on_collision_end(self, other: arcade.Sprite) -> None:
        self.seen.append(("end", self.position))


def _walls(world: CollisionWorld, count: int = 20) -> arcade.SpriteList[arcade.Sprite]:
    walls: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
    for k in range(count):
        walls.append(arcade.SpriteSolidColor(32, 32, center_x=k * 32, center_y=0))
    world.add_sprite_list(walls, Rect(32, 32), static=True, solid=True)
    return walls


def test_a_body_sprite_lands_on_solid_walls_and_slides(world: CollisionWorld) -> None:
    _walls(world)
    player = Player(center_x=40, center_y=30)
    world.add_sprite(player, Rect(20, 20), velocity=(120, -300), body=Body())
    world.step(DT)
    assert player.center_y == pytest.approx(26.0, abs=1e-6) and player.center_y <= 26.0
    assert player.center_x == pytest.approx(42.0)
    assert world.velocity(player)[:2] == pytest.approx((120.0, 0.0))
    # The callback ran with the resolved pose.
    assert player.seen and player.seen[0][1] == player.position
    for _ in range(60):
        vx, vy, _ = world.velocity(player)
        world.set_velocity(player, vx, vy - 1000 * DT)
        world.step(DT)
    assert player.center_y == pytest.approx(26.0, abs=1e-6)
    assert player.center_x == pytest.approx(42.0 + 120 * 60 * DT)
    assert all(what == "start" for what, _ in player.seen[:1])


def test_one_way_solid_sprite(world: CollisionWorld) -> None:
    platform = arcade.SpriteSolidColor(100, 10, center_x=0, center_y=0)
    world.add_sprite(platform, Rect(100, 10), static=True, solid=Solid(one_way=True))
    player = Player(center_x=0, center_y=-30)
    world.add_sprite(player, Rect(20, 20), velocity=(0, 600), body=True)
    world.step(DT)
    world.step(DT)
    assert player.center_y == pytest.approx(-30 + 20)  # passed up through freely


def test_a_body_is_not_static_nor_solid(world: CollisionWorld) -> None:
    with pytest.raises(ValueError, match="static sprite cannot be a body"):
        world.add_sprite(Player(), static=True, body=Body())
    with pytest.raises(ValueError, match="both solid and a body"):
        world.add_sprite(Player(), solid=True, body=True)
    with pytest.raises(TypeError, match="solid must be a bool or a Solid"):
        world.add_sprite(Player(), solid="yes")
    with pytest.raises(TypeError, match="body must be a Body, True or None"):
        world.add_sprite(Player(), body=1.5)
    assert len(world) == 0

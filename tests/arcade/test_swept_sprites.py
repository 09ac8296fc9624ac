"""Swept sprites in the bridge: ``add_sprite(..., swept=True, stop_at_impact=True)``."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import arcade
import pytest

from arcade_collide.arcade import CollisionWorld
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.shapes import Circle

DT = 1 / 60


@pytest.fixture
def world() -> Iterator[CollisionWorld]:
    made = CollisionWorld()
    yield made
    made.close()


class Bullet(arcade.SpriteSolidColor):
    """Records where it was when each of its callbacks ran."""

    def __init__(self, **options: Any) -> None:
        super().__init__(2, 2, **options)
        self.seen: list[tuple[str, tuple[float, float], Contact | None]] = []

    def on_collision_start(self, other: arcade.Sprite, contact: Contact) -> None:
        self.seen.append(("start", self.position, contact))

    def on_collision_end(self, other: arcade.Sprite) -> None:
        self.seen.append(("end", self.position, None))


def _wall(world: CollisionWorld, x: float, **options: Any) -> arcade.Sprite:
    wall = arcade.SpriteSolidColor(4, 200, center_x=x, center_y=0)
    world.add_sprite(wall, static=True, **options)
    return wall


def test_a_stopped_bullet_is_at_its_impact_when_its_callback_runs(world: CollisionWorld) -> None:
    _wall(world, 100)
    bullet = Bullet(center_x=0, center_y=0)
    world.add_sprite(bullet, Circle(1), velocity=(6000, 0), swept=True, stop_at_impact=True)
    world.step(DT)  # from where it was added (0) towards 100: stopped at the wall's face
    ((what, where, contact),) = bullet.seen
    assert what == "start"
    assert where[0] == pytest.approx(97.0) and where[0] >= 97.0
    assert bullet.center_x == where[0]
    assert contact is not None and contact.normal[0] == 1.0  # from the bullet to the wall
    world.step(DT)
    world.step(DT)
    assert bullet.center_x == where[0] and len(bullet.seen) == 1


def test_a_bullet_moved_by_the_game_is_swept_from_where_it_was_added(
    world: CollisionWorld,
) -> None:
    _wall(world, 50)
    bullet = Bullet(center_x=0, center_y=0)
    world.add_sprite(bullet, Circle(1), swept=True)
    bullet.center_x = 100  # the game moves it before the first step: over the wall
    world.step(DT)
    assert [what for what, _, _ in bullet.seen] == ["start", "end"]
    bullet.seen.clear()
    bullet.center_x = 200
    world.step(DT)
    assert bullet.seen == []


def test_a_sprite_that_is_not_swept_still_tunnels(world: CollisionWorld) -> None:
    _wall(world, 50)
    bullet = Bullet(center_x=0, center_y=0)
    world.add_sprite(bullet, Circle(1), velocity=(6000, 0))
    world.step(DT)
    assert bullet.seen == [] and bullet.center_x == pytest.approx(100.0)


def test_a_trigger_crossed_in_one_step_gives_one_start_then_one_end(
    world: CollisionWorld,
) -> None:
    _wall(world, 50, sensor=True, kind="trigger")
    counts = {"start": 0, "end": 0}

    def count(what: str) -> Any:
        return lambda *_: counts.__setitem__(what, counts[what] + 1)

    world.on_collision("bullet", "trigger", start=count("start"), end=count("end"))
    bullet = Bullet(center_x=0, center_y=0)
    world.add_sprite(
        bullet, Circle(1), velocity=(6000, 0), swept=True, stop_at_impact=True, kind="bullet"
    )
    world.step(DT)
    assert counts == {"start": 1, "end": 1}
    assert bullet.center_x == pytest.approx(100.0)  # a sensor does not stop it
    assert world.touching(bullet) == []


def test_a_dropped_world_is_not_kept_alive_by_its_stop_callback() -> None:
    world = CollisionWorld()
    _wall(world, 100)
    bullet = Bullet(center_x=0, center_y=0)
    world.add_sprite(bullet, Circle(1), velocity=(6000, 0), swept=True, stop_at_impact=True)
    world.step(DT)
    assert bullet.center_x == pytest.approx(97.0)
    dropped = weakref.ref(world)
    del world
    gc.collect()
    assert dropped() is None

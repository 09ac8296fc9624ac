"""Small worlds find the game's moves by comparing stamps, without the touch log
(``pose_mirror.SMALL_WORLD``, ``STAMP_CHECKS``): every change must be seen, also when a
world grows or shrinks past the threshold and when the game asks many questions.
"""

from __future__ import annotations

from collections.abc import Iterator

import arcade
import pytest

from arcade_collide.arcade import CollisionWorld, pose_mirror
from arcade_collide.arcade.arcade_internals import PRIVATE, Record

DT = 1.0 / 60.0
pytestmark = pytest.mark.skipif(not PRIVATE, reason="the touch log needs private fields")


@pytest.fixture
def world() -> Iterator[CollisionWorld]:
    created = CollisionWorld()
    yield created
    created.close()


def _row(count: int, kind: str = "rock", gap: float = 40.0) -> arcade.SpriteList:
    sprites = arcade.SpriteList()
    for k in range(count):
        sprites.append(arcade.SpriteSolidColor(10, 10, center_x=k * gap, center_y=0))
    return sprites


def _armed(sprite: arcade.Sprite) -> bool:
    return type(sprite.sprite_lists) is not Record


def _brute(sprite: arcade.Sprite, others: list[arcade.Sprite]) -> list[arcade.Sprite]:
    """The others overlapping or touching ``sprite`` (unrotated rectangles here)."""
    return [
        other
        for other in others
        if other is not sprite
        and abs(other.center_x - sprite.center_x) <= (other.width + sprite.width) / 2
        and abs(other.center_y - sprite.center_y) <= (other.height + sprite.height) / 2
    ]


def test_moves_seen_without_arming(world: CollisionWorld) -> None:
    rocks = _row(10)
    world.add_sprite_list(rocks, kind="rock")
    probe = rocks[0]
    assert world.overlapping(probe) == []
    for tick in range(1, 32):
        for sprite in rocks[1:]:
            sprite.center_x -= 1.0  # the row closes in on the probe
        found = world.overlapping(probe)
        assert set(found) == set(_brute(probe, list(rocks))), tick
        assert not any(map(_armed, rocks)), tick
    assert world.overlapping(probe) == [rocks[1]]


def test_private_field_writes_and_sizes_are_seen(world: CollisionWorld) -> None:
    rocks = _row(2, gap=30.0)
    world.add_sprite_list(rocks, kind="rock")
    first, second = rocks
    assert world.overlapping(first) == []
    first._position = (22.0, 0.0)  # no setter called
    assert world.overlapping(first) == [second]
    first.position = (-20.0, 0.0)
    assert world.overlapping(first) == []
    first.scale = 10.0  # 100 px wide, centred 50 px from the other: they overlap
    assert world.overlapping(first) == [second]
    first.angle = 45.0
    assert world.overlapping(second) == [first]


def test_answers_stay_exact_while_growing_and_shrinking(
    world: CollisionWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past SMALL_WORLD rows the log takes over (armed after a read), below it again
    the stamps; moves made in each state and across each switch are all seen."""
    monkeypatch.setattr(pose_mirror, "SMALL_WORLD", 8)
    rocks = arcade.SpriteList()
    world.add_sprite_list(rocks, kind="rock")
    probe = arcade.SpriteSolidColor(10, 10, center_x=0, center_y=0)
    world.add_sprite(probe, kind="probe")
    sizes = [*range(1, 14), *range(13, 0, -1)]
    for tick, size in enumerate(sizes):
        while len(rocks) < size:
            rocks.append(arcade.SpriteSolidColor(10, 10, center_x=100, center_y=0))
        while len(rocks) > size:
            rocks.pop().remove_from_sprite_lists()
        for k, rock in enumerate(rocks):
            rock.center_x = 3.0 + ((tick + k) % 7) * 2.0  # touching the probe or not
        found = world.overlapping(probe, kind="rock")
        assert set(found) == set(_brute(probe, list(rocks))), tick
        if len(rocks) + 1 <= 8:  # small: nothing armed, not even after the log's use
            assert not any(map(_armed, [probe, *rocks])), tick


def test_many_questions_between_moves_use_the_log(world: CollisionWorld) -> None:
    rocks = _row(20, gap=12.0)
    bullets = _row(20, gap=12.0)
    world.add_sprite_list(rocks, kind="rock")
    world.add_sprite_list(bullets, kind="bullet")
    for tick in range(6):
        for bullet in bullets:
            bullet.center_y = float(tick * 3)
        hits = world.overlapping_many(bullets, kind="rock")
        for k, bullet in enumerate(bullets):
            assert set(hits[bullet]) == set(_brute(bullet, list(rocks))), (tick, k)
            if k == 10:
                rocks[k].center_y = 100.0  # a move between questions
        assert hits[bullets[10]] == []
        rocks[10].center_y = 0.0
    # 40 rows asked 20 questions a read: past STAMP_CHECKS, so the log answers them.
    assert pose_mirror.STAMP_CHECKS < 40 * 21
    assert all(map(_armed, bullets))


def test_a_sprite_in_two_worlds_moved_by_one_is_seen_by_the_other() -> None:
    mover, watcher = CollisionWorld(), CollisionWorld()
    try:
        ship = arcade.SpriteSolidColor(10, 10, center_x=0, center_y=0)
        rock = arcade.SpriteSolidColor(10, 10, center_x=30, center_y=0)
        mover.add_sprite(ship, velocity=(600.0, 0.0))
        watcher.add_sprite(ship, kind="ship")
        watcher.add_sprite(rock, kind="rock")
        assert watcher.overlapping(rock) == []
        for _ in range(3):
            mover.step(DT)  # 10 px a step, written in bulk (no setter)
        assert ship.center_x == pytest.approx(30.0)
        assert watcher.overlapping(rock) == [ship]
    finally:
        mover.close()
        watcher.close()

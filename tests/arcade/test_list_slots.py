"""The sprite lists' rows and slots a world keeps (:mod:`arcade_collide.arcade.list_slots`):
after any mix of joins, leaves, additions and removals they are those a fresh lookup
finds, and every list's buffer shows what its world sprites hold."""

from __future__ import annotations

import random

import arcade
import numpy as np
import pytest

from arcade_collide.arcade import CollisionWorld
from arcade_collide.arcade.list_slots import ListSlots, lists_of, slots_in

DT = 1.0 / 60.0


def _fresh(world: CollisionWorld) -> dict[int, list[tuple[int, int]]]:
    mirror = world._bodies.mirror
    fast = ~mirror._slow_rows
    held = [sprite for sprite, ok in zip(mirror.sprites, fast, strict=True) if ok]
    found = (slots_in(each, mirror.sprites, fast) for each in lists_of(held))
    return {
        id(entry.sprite_list): list(zip(entry.rows.tolist(), entry.slots.tolist(), strict=True))
        for entry in found
        if len(entry.rows)
    }


def _kept(world: CollisionWorld) -> dict[int, list[tuple[int, int]]]:
    entries = world._bodies.mirror._sprite_lists()
    for entry in entries:
        _check_parts(entry)
    return {
        id(entry.sprite_list): list(zip(entry.rows.tolist(), entry.slots.tolist(), strict=True))
        for entry in entries
    }


def _check_parts(entry: ListSlots) -> None:
    """The entry's span, block and rest describe its rows and slots."""
    rows, slots = entry.rows.tolist(), entry.slots.tolist()
    assert rows == sorted(set(rows))
    span = entry.row_span
    if isinstance(span, slice):
        assert list(range(span.start, span.stop)) == rows
    else:
        assert span.tolist() == rows
    block = list(zip(range(entry.block_rows.start, entry.block_rows.stop),
                     range(entry.block_slots.start, entry.block_slots.stop), strict=True))
    rest = list(zip(entry.rest_rows.tolist(), entry.rest_slots.tolist(), strict=True))
    assert sorted(block + rest) == list(zip(rows, slots, strict=True))


def _buffer(sprite_list: arcade.SpriteList, sprite: arcade.Sprite) -> list[float]:
    data = np.frombuffer(sprite_list._sprite_pos_angle_data, dtype=np.float32).reshape(-1, 4)
    return data[sprite_list.sprite_slot[sprite], [0, 1, 3]].tolist()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kept_slots_are_those_a_fresh_lookup_finds(seed: int) -> None:
    rng = random.Random(seed)
    world = CollisionWorld()
    lists = [arcade.SpriteList(), arcade.SpriteList(use_spatial_hash=True), arcade.SpriteList()]
    outside = [arcade.SpriteSolidColor(4, 4) for _ in range(20)]

    def spawn() -> arcade.Sprite:
        sprite = arcade.SpriteSolidColor(4, 4, rng.uniform(0, 500), rng.uniform(0, 500))
        lists[0].append(sprite)
        velocity = (rng.uniform(-60, 60), rng.uniform(-60, 60))
        world.add_sprite(sprite, velocity=velocity, angular=rng.choice([0.0, 45.0]))
        return sprite

    held = [spawn() for _ in range(300)]
    try:
        for _ in range(60):
            for _ in range(rng.randrange(6)):
                sprite_list, sprite = rng.choice(lists[1:]), rng.choice(held + outside)
                if sprite in sprite_list:
                    sprite_list.remove(sprite)
                elif rng.random() < 0.5:
                    sprite_list.append(sprite)
                else:
                    sprite_list.insert(rng.randrange(len(sprite_list) + 1), sprite)
            if len(lists[2]) and rng.random() < 0.3:
                lists[2].pop(rng.randrange(len(lists[2])))
            if len(lists[1]) and rng.random() < 0.3:
                newcomer = rng.choice(held + outside)
                if newcomer not in lists[1]:
                    lists[1][rng.randrange(len(lists[1]))] = newcomer
            for _ in range(rng.randrange(4)):
                gone = held.pop(rng.randrange(len(held)))
                gone.remove_from_sprite_lists()
                held.append(spawn())
            world.step(DT)
            assert _kept(world) == _fresh(world)
            for sprite_list in lists:
                for sprite in sprite_list:
                    if sprite in world:
                        pose = (*sprite.position, sprite.angle)
                        assert _buffer(sprite_list, sprite) == np.float32(pose).tolist()
    finally:
        world.close()


def test_bullets_fired_and_removed_keep_slots_and_buffer() -> None:
    """Bullets appended to the drawn list and the oldest removed, tick after tick (the
    rows that change are the newest, outside the block of the sprites that stay)."""
    world = CollisionWorld()
    drawn = arcade.SpriteList()
    for k in range(200):
        rock = arcade.SpriteSolidColor(8, 8, 20.0 * (k % 20), 20.0 * (k // 20))
        drawn.append(rock)
        world.add_sprite(rock, velocity=(1.0, 0.0))
    bullets: list[arcade.Sprite] = []
    try:
        for tick in range(40):
            for k in range(3):
                bullet = arcade.SpriteSolidColor(2, 6, 7.0 * tick + k, 5.0 * k)
                drawn.append(bullet)
                world.add_sprite(bullet, velocity=(0.0, 600.0))
                bullets.append(bullet)
            while len(bullets) > 10:
                bullets.pop(tick % 3).remove_from_sprite_lists()
            world.step(DT)
            assert _kept(world) == _fresh(world)
            for sprite in drawn:
                pose = (*sprite.position, sprite.angle)
                assert _buffer(drawn, sprite) == np.float32(pose).tolist()
    finally:
        world.close()

"""Random games against a model: whatever the game does between steps, the world and
the sprites agree on every pose, and sprite-list buffers show what the sprites hold.

Each step a random mix of what games do: move a few sprites or most of them by hand
(through position, center_x or angle), rescale some, make them join or leave a sprite
list, give one a new hit box, change velocities, remove and add sprites, and now and
then replace a sprite's ``sprite_lists`` record. Hit boxes are checked too: their
adjusted points must be those Arcade's setters would give. The model is plain
kinematics: a sprite the game moved is at the pose the game gave it, then the world
adds ``velocity * dt`` (collisions change no velocity here), with the same float
operations as the MovementSystem.
"""

from __future__ import annotations

import random

import arcade
import numpy as np
import pytest
from arcade.hitbox import RotatableHitBox

from arcade_collide.arcade import CollisionWorld

DT = 1.0 / 60.0


def _buffer(sprite_list: arcade.SpriteList, sprite: arcade.Sprite) -> list[float]:
    data = np.frombuffer(sprite_list._sprite_pos_angle_data, dtype=np.float32).reshape(-1, 4)
    row = data[sprite_list.sprite_slot[sprite]]
    return [float(row[0]), float(row[1]), float(row[3])]


def _hit_box_is_right(sprite: arcade.Sprite) -> bool:
    twin = arcade.SpriteSolidColor(4, 4)
    twin.hit_box = RotatableHitBox(sprite.hit_box.points, scale=sprite.hit_box.scale)
    twin.position = sprite.position
    twin.angle = sprite.angle
    return sprite.hit_box.get_adjusted_points() == twin.hit_box.get_adjusted_points()


def _as_float32(sprite: arcade.Sprite) -> list[float]:
    x, y = sprite.position
    return np.array([x, y, sprite.angle], dtype=np.float32).tolist()


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_random_games_keep_world_sprites_and_lists_in_step(seed: int) -> None:
    rng = random.Random(seed)
    world = CollisionWorld()
    lists = [arcade.SpriteList(), arcade.SpriteList(use_spatial_hash=True)]
    velocity: dict[arcade.Sprite, tuple[float, float, float]] = {}
    expected: dict[arcade.Sprite, tuple[float, float, float]] = {}

    def add() -> None:
        sprite = arcade.SpriteSolidColor(
            rng.choice([4, 8, 12]), 6, center_x=rng.uniform(0, 400),
            center_y=rng.uniform(0, 400), angle=rng.uniform(0, 360),
        )
        lists[0].append(sprite)
        moving = rng.random() < 0.7
        v = (rng.uniform(-90, 90), rng.uniform(-90, 90), rng.uniform(-60, 60)) if moving else None
        world.add_sprite(sprite, velocity=v[:2] if v else None, angular=v[2] if v else 0.0)
        velocity[sprite] = v or (0.0, 0.0, 0.0)
        expected[sprite] = (*sprite.position, sprite.angle)

    for _ in range(40):
        add()
    try:
        for tick in range(120):
            sprites = list(velocity)
            many = rng.random() < 0.15
            for sprite in rng.sample(sprites, len(sprites) * 3 // 4 if many else 3):
                how = rng.randrange(3)
                if how == 0:
                    sprite.position = (rng.uniform(0, 400), rng.uniform(0, 400))
                elif how == 1:
                    sprite.center_x = rng.uniform(0, 400)
                else:
                    sprite.angle = rng.uniform(-720, 720)
                expected[sprite] = (*sprite.position, sprite.angle)
            for sprite in rng.sample(sprites, 2):
                sprite.scale = rng.choice([0.5, 1.0, 2.0])
            boxed = rng.choice(sprites)
            if rng.random() < 0.5:
                boxed.sync_hit_box_to_texture()
            else:
                size = rng.uniform(1, 5)
                boxed.hit_box = RotatableHitBox(
                    [(-size, -size), (size, -size), (0.0, size)],
                    position=boxed.position, angle=boxed.angle, scale=boxed.scale,
                )
            joiner = rng.choice(sprites)
            if joiner in lists[1]:
                lists[1].remove(joiner)
            else:
                lists[1].append(joiner)
            if rng.random() < 0.2:
                sprite = rng.choice(sprites)
                vx, vy, turn = rng.uniform(-90, 90), rng.uniform(-90, 90), rng.uniform(-60, 60)
                world.set_velocity(sprite, vx, vy, turn)
                velocity[sprite] = (vx, vy, turn)
            if rng.random() < 0.1:
                gone = rng.choice(sprites)
                gone.remove_from_sprite_lists()
                assert gone not in world
                del velocity[gone], expected[gone]
                add()
            if rng.random() < 0.05:
                # The same lists in a new record, copied without iterating the old one.
                replaced = rng.choice(sprites)
                replaced.sprite_lists = list.copy(replaced.sprite_lists)
            world.step(DT)
            for sprite, (x, y, angle) in expected.items():
                vx, vy, turn = velocity[sprite]
                expected[sprite] = (x + vx * DT, y + vy * DT, angle + turn * DT)
            xy, angles = world.poses()
            for row, sprite in enumerate(world.sprites()):
                pose = expected[sprite]
                assert (*sprite.position, sprite.angle) == pose, (seed, tick)
                assert (*xy[row].tolist(), float(angles[row])) == pose, (seed, tick)
                assert _hit_box_is_right(sprite), (seed, tick)
                for sprite_list in lists:
                    if sprite in sprite_list:
                        assert _buffer(sprite_list, sprite) == _as_float32(sprite), (seed, tick)
    finally:
        world.close()

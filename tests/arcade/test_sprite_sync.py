"""Bulk pose write-back leaves sprites exactly as the public setters do."""

import arcade
import numpy as np
import pytest

from arcade_collide.arcade.sprite_sync import has_fast_pose, read_poses, read_sizes, write_poses


def _scene(seed: int) -> tuple[list[arcade.Sprite], arcade.SpriteList, arcade.SpriteList]:
    rng = np.random.default_rng(seed)
    sprites: list[arcade.Sprite] = []
    for i in range(60):
        if i % 3 == 0:
            sprite: arcade.Sprite = arcade.SpriteCircle(5, (255, 255, 255))
        else:
            sprite = arcade.SpriteSolidColor(int(rng.integers(4, 30)), 8)
        sprite.position = tuple(rng.uniform(0, 500, 2))
        sprite.angle = float(rng.uniform(0, 360))
        sprites.append(sprite)
    drawn = arcade.SpriteList()
    drawn.extend(sprites[:50])
    hashed = arcade.SpriteList(use_spatial_hash=True)
    hashed.extend(sprites[40:])  # 40..49 are in both lists, 50.. only in the hashed one
    return sprites, drawn, hashed


def _buffer(sprite_list: arcade.SpriteList) -> dict[int, tuple[float, ...]]:
    data = np.frombuffer(sprite_list._sprite_pos_angle_data, dtype=np.float32).reshape(-1, 4)
    return {id(s): tuple(data[slot]) for s, slot in sprite_list.sprite_slot.items()}


def _buckets(sprite_list: arcade.SpriteList) -> dict[int, int]:
    spatial = sprite_list.spatial_hash
    assert spatial is not None
    return {id(s): len(b) for s, b in spatial.buckets_for_sprite.items()}


def test_bulk_write_matches_the_setters() -> None:
    fast, fast_drawn, fast_hashed = _scene(1)
    slow, slow_drawn, slow_hashed = _scene(1)
    rng = np.random.default_rng(2)
    xy = rng.uniform(-50, 550, (60, 2))
    angle = rng.uniform(-720, 720, 60)
    write_poses(fast, xy, angle)
    for sprite, (x, y), turn in zip(slow, xy.tolist(), angle.tolist(), strict=True):
        sprite.position = (x, y)
        sprite.angle = turn
    for a, b in zip(fast, slow, strict=True):
        assert a.position == b.position and type(a.position) is tuple
        assert a.angle == b.angle
        assert a.hit_box.get_adjusted_points() == b.hit_box.get_adjusted_points()
    assert _buffer(fast_drawn).values() != _buffer(_scene(1)[1]).values()
    assert list(_buffer(fast_drawn).values()) == list(_buffer(slow_drawn).values())
    assert list(_buffer(fast_hashed).values()) == list(_buffer(slow_hashed).values())
    assert list(_buckets(fast_hashed).values()) == list(_buckets(slow_hashed).values())
    probe = fast[45]
    assert probe in arcade.check_for_collision_with_list(
        arcade.SpriteSolidColor(2, 2, *probe.position), fast_hashed
    )


class _Loud(arcade.Sprite):
    """Overrides the position setter, so it must keep getting setter calls."""

    moves = 0

    @property
    def position(self) -> tuple[float, float]:
        return self._position

    @position.setter
    def position(self, value: tuple[float, float]) -> None:
        type(self).moves += 1
        arcade.Sprite.position.fset(self, value)  # type: ignore[attr-defined]


def test_sprites_overriding_the_setters_keep_them() -> None:
    plain = arcade.Sprite()
    loud = _Loud()
    assert has_fast_pose(plain) and not has_fast_pose(loud)
    write_poses([plain, loud], np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([10.0, 20.0]))
    assert _Loud.moves == 1
    assert loud.position == (3.0, 4.0) and loud.angle == 20.0
    assert plain.position == (1.0, 2.0) and plain.angle == 10.0


def test_read_poses_and_sizes() -> None:
    a = arcade.SpriteSolidColor(10, 20, 1, 2, angle=30)
    b = arcade.SpriteCircle(3, (0, 0, 0), center_x=5, center_y=6)
    xy, angle = read_poses([a, b])
    assert xy.tolist() == [[1.0, 2.0], [5.0, 6.0]] and angle.tolist() == [30.0, 0.0]
    size, textures = read_sizes([a, b])
    assert size.tolist() == [[10.0, 20.0], [6.0, 6.0]]
    assert textures[0] == id(a.texture) and textures[1] == id(b.texture)


def test_write_poses_checks_shapes() -> None:
    with pytest.raises(ValueError, match="xy must be"):
        write_poses([arcade.Sprite()], np.zeros((2, 2)), np.zeros(1))

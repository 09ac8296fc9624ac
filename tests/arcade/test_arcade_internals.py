"""Arcade's private fields: the bulk write-back leaves sprites exactly as the public
setters do, and a world on Arcade's public API alone gives the same poses and events."""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

import arcade
import numpy as np
import pytest
from arcade.hitbox import RotatableHitBox

from arcade_collide.arcade import CollisionWorld
from arcade_collide.arcade import arcade_internals as internals
from arcade_collide.arcade.arcade_internals import has_fast_pose, read_poses, read_sizes
from arcade_collide.arcade.pose_mirror import PoseMirror
from arcade_collide.geometry.contact import Contact

DT = 1.0 / 60.0


def _write(sprites: list[arcade.Sprite], xy: np.ndarray, angle: np.ndarray) -> None:
    """The world's write-back: a mirror of the sprites, given new poses."""
    mirror = PoseMirror()
    for sprite in sprites:
        mirror.add([sprite])
    mirror.write(xy.copy(), angle.copy())


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
    _write(fast, xy, angle)
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
    _write([plain, loud], np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([10.0, 20.0]))
    assert _Loud.moves == 1
    assert loud.position == (3.0, 4.0) and loud.angle == 20.0
    assert plain.position == (1.0, 2.0) and plain.angle == 10.0


def test_read_poses_and_sizes() -> None:
    a = arcade.SpriteSolidColor(10, 20, 1, 2, angle=30)
    b = arcade.SpriteCircle(3, (0, 0, 0), center_x=5, center_y=6)
    xy, angle = read_poses([a, b])
    assert xy.tolist() == [[1.0, 2.0], [5.0, 6.0]] and angle.tolist() == [30.0, 0.0]
    assert read_sizes([a, b]).tolist() == [[10.0, 20.0], [6.0, 6.0]]


def test_only_arcade_3_3_releases_count_as_tested() -> None:
    assert internals.version_tested(arcade.version.VERSION) == internals.PRIVATE
    assert [internals.version_tested(v) for v in ("3.3.0", "3.3.12.dev1", "3.4.0", "4.0")] == [
        True, True, False, False
    ]


@pytest.fixture
def public_api_only() -> Iterator[None]:
    """Run as on an Arcade release the private-field paths were not tested with."""
    internals.use_private_fields(internals.version_tested("9.9.9"))
    try:
        yield
    finally:
        internals.use_private_fields(internals.version_tested(arcade.version.VERSION))


class _Logger(arcade.SpriteSolidColor):
    log: ClassVar[list[tuple[object, ...]]] = []

    def on_collision_start(self, other: arcade.Sprite, contact: Contact) -> None:
        self.log.append(("start", self.label, other.label, contact))  # type: ignore[attr-defined]

    def on_collision_end(self, other: arcade.Sprite) -> None:
        self.log.append(("end", self.label, other.label))  # type: ignore[attr-defined]


def _scene_run() -> tuple[list[tuple[object, ...]], list[arcade.Sprite], list[object]]:
    """Moving, turning, scaled and hand-moved sprites, in a drawn and a hashed list; returns
    the events, the sprites and per tick the poses, contacts and hit-box points."""
    rng = np.random.default_rng(7)
    _Logger.log = []
    world = CollisionWorld()
    drawn, hashed = arcade.SpriteList(), arcade.SpriteList(use_spatial_hash=True)
    sprites: list[arcade.Sprite] = []
    for k in range(24):
        sprite = _Logger(int(rng.integers(6, 24)), int(rng.integers(6, 24)),
                         center_x=float(rng.uniform(0, 200)), center_y=float(rng.uniform(0, 200)),
                         angle=float(rng.uniform(0, 360)))
        sprite.label = k  # type: ignore[attr-defined]
        (drawn if k % 2 else hashed).append(sprite)
        world.add_sprite(sprite, velocity=tuple(rng.uniform(-90, 90, 2)),
                         angular=float(rng.uniform(-120, 120)), hull=k % 5 == 0)
        sprites.append(sprite)
    states: list[object] = []
    try:
        for tick in range(40):
            if tick % 7 == 3:
                sprites[tick % 24].scale = 1.5 if tick % 2 else 0.75
            if tick % 5 == 1:
                sprites[(3 * tick) % 24].position = (100.0, 100.0 + tick)
            world.step(DT)
            xy, angle = world.poses()
            states.append((
                xy.tolist(), angle.tolist(),
                sorted((a.label, b.label, c) for a, b, c in world.contacts()),  # type: ignore[attr-defined]
                [s.hit_box.get_adjusted_points() for s in sprites],
                [(s.position, s.angle) for s in sprites],
                [sorted(o.label for o in arcade.check_for_collision_with_list(s, hashed))  # type: ignore[attr-defined]
                 for s in sprites],
            ))
    finally:
        world.close()
    return list(_Logger.log), sprites, states


def test_public_api_only_gives_the_same_poses_contacts_and_events(
    public_api_only: None,
) -> None:
    slow_events, slow_sprites, slow_states = _scene_run()
    internals.use_private_fields(True)
    fast_events, fast_sprites, fast_states = _scene_run()
    assert any(event[0] == "start" for event in fast_events)
    assert any(event[0] == "end" for event in fast_events)
    assert slow_states == fast_states
    assert slow_events == fast_events
    # The public paths changed no hit box class and armed no record (a record still
    # tells the world of list changes); the private ones did.
    assert all(type(s.hit_box) is RotatableHitBox for s in slow_sprites)
    assert all(type(s.sprite_lists) is internals.Record for s in slow_sprites)
    assert not any(s.sprite_lists.logs for s in slow_sprites)
    assert any(type(s.hit_box) is not RotatableHitBox for s in fast_sprites)
    assert all(type(s.sprite_lists) is not list for s in fast_sprites)

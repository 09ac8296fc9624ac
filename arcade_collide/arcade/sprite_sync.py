"""Reading sprite poses into arrays and writing them back, in bulk.

The per-sprite setters ``sprite.position = ...`` and ``sprite.angle = ...`` are
the honest way to move a sprite, but each call also updates the hit box, every
sprite list's GPU buffer and every spatial hash the sprite is in: about 0.6 us
for the position and 0.5 us for the angle per sprite, ~6 ms for 5,000 sprites,
most of a 60 Hz tick budget.

:func:`write_poses` does the same work in bulk for sprites whose class keeps
Arcade's own ``position`` and ``angle`` properties: it stores the new values on
the sprite and its hit box in one loop, then updates each sprite list's
position/angle buffer with one numpy assignment per list. Sprites whose class
overrides those properties, and sprites in a sprite list with a spatial hash,
still go through the public setters so nothing Arcade or the game relies on is
skipped. ``tests/arcade/test_sprite_sync.py`` checks the fast path leaves
sprites, hit boxes and sprite-list buffers exactly as the setters do.

This relies on Arcade 3.3's private sprite fields (``_position``, ``_angle``,
``_hit_box``) and sprite-list buffers (``_sprite_pos_angle_data``,
``sprite_slot``), which is why the dependency is pinned to ``arcade~=3.3``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, repeat
from operator import attrgetter
from typing import Any

import arcade
import numpy as np
from arcade.hitbox import RotatableHitBox
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]

_POSITION = attrgetter("_position")
_ANGLE = attrgetter("_angle")
_SIZE = attrgetter("_width", "_height")
_TEXTURE = attrgetter("_texture")
_SPRITE_LISTS = attrgetter("sprite_lists")

_fast_classes: dict[type, bool] = {}


def has_fast_pose(sprite: arcade.Sprite) -> bool:
    """True when ``sprite``'s class uses Arcade's own ``position``/``angle`` properties.

    Only such sprites may have their pose written in bulk; a subclass that
    overrides either property (to react to moves, say) keeps its setter calls.

    >>> has_fast_pose(arcade.SpriteSolidColor(4, 4))
    True
    >>> class Noisy(arcade.Sprite):
    ...     @property
    ...     def angle(self) -> float:
    ...         return self._angle
    ...     @angle.setter
    ...     def angle(self, value: float) -> None:
    ...         self._angle = value
    >>> has_fast_pose(Noisy())
    False
    """
    cls = type(sprite)
    known = _fast_classes.get(cls)
    if known is None:
        known = (
            isinstance(sprite, arcade.Sprite)
            and cls.position is arcade.BasicSprite.position
            and cls.angle is arcade.Sprite.angle
            and cls.__setattr__ is object.__setattr__
        )
        _fast_classes[cls] = known
    return known


def read_poses(sprites: Sequence[arcade.Sprite]) -> tuple[FloatArray, FloatArray]:
    """The sprites' positions ``(N, 2)`` and clockwise angles ``(N,)`` as float64.

    >>> xy, angle = read_poses([arcade.Sprite(center_x=1, center_y=2, angle=30)])
    >>> xy.tolist(), angle.tolist()
    ([[1.0, 2.0]], [30.0])
    """
    n = len(sprites)
    xy = np.fromiter(chain.from_iterable(map(_POSITION, sprites)), np.float64, count=2 * n)
    angle = np.fromiter(map(_ANGLE, sprites), np.float64, count=n)
    return xy.reshape(n, 2), angle


def read_sizes(sprites: Sequence[arcade.Sprite]) -> tuple[FloatArray, NDArray[np.int64]]:
    """The sprites' ``(width, height)`` ``(N, 2)`` and texture identities ``(N,)``.

    Together these change exactly when a sprite's scale or texture changes,
    which is when its collision shape must be rebuilt.
    """
    n = len(sprites)
    size = np.fromiter(chain.from_iterable(map(_SIZE, sprites)), np.float64, count=2 * n)
    textures = np.fromiter(map(id, map(_TEXTURE, sprites)), np.int64, count=n)
    return size.reshape(n, 2), textures


def write_poses(
    sprites: Sequence[arcade.Sprite],
    xy: FloatArray,
    angle: FloatArray,
    fast: Sequence[bool] | None = None,
) -> None:
    """Move ``sprites[i]`` to ``xy[i]`` at clockwise ``angle[i]`` degrees.

    The result is the same as ``sprite.position = xy[i]; sprite.angle = angle[i]``
    for every sprite (see the module docstring for how it is faster).

    Args:
        sprites: The sprites to move.
        xy: ``(N, 2)`` new positions.
        angle: ``(N,)`` new angles, clockwise degrees.
        fast: Per sprite, whether :func:`has_fast_pose` holds (computed here
            when not given; callers that write every tick cache it).

    Raises:
        ValueError: the array lengths do not match ``len(sprites)``.
    """
    n = len(sprites)
    if xy.shape != (n, 2) or angle.shape != (n,):
        raise ValueError(f"xy must be ({n}, 2) and angle ({n},), got {xy.shape} and {angle.shape}")
    if n == 0:
        return
    if fast is None:
        fast = [has_fast_pose(s) for s in sprites]
    if not all(fast):
        rows = [i for i, ok in enumerate(fast) if ok]
        for i, ok in enumerate(fast):
            if not ok:
                sprites[i].position = (float(xy[i, 0]), float(xy[i, 1]))
                sprites[i].angle = float(angle[i])
        sprites = [sprites[i] for i in rows]
        xy = xy[rows]
        angle = angle[rows]
    _store_on_sprites(sprites, xy, angle)
    _store_in_sprite_lists(sprites, xy, angle)


def _store_on_sprites(sprites: Sequence[arcade.Sprite], xy: FloatArray, angle: FloatArray) -> None:
    """Set the pose fields on each sprite and its hit box, as the two setters do."""
    positions = zip(xy[:, 0].tolist(), xy[:, 1].tolist(), strict=True)
    for sprite, position, turn in zip(sprites, positions, angle.tolist(), strict=True):
        sprite._position = position
        sprite._angle = turn
        box: RotatableHitBox = sprite._hit_box
        box._position = position
        box._angle = turn
        box._adjusted_cache_dirty = True


def _store_in_sprite_lists(
    sprites: Sequence[arcade.Sprite], xy: FloatArray, angle: FloatArray
) -> None:
    """Update every sprite list holding ``sprites``: its GPU buffer, and its spatial hash."""
    lists: dict[arcade.SpriteList[Any], None] = dict.fromkeys(
        chain.from_iterable(map(_SPRITE_LISTS, sprites))
    )
    for sprite_list in lists:
        slot_of = sprite_list.sprite_slot.get
        slots = np.fromiter(map(slot_of, sprites, repeat(-1)), np.int64, count=len(sprites))
        member = slots >= 0
        everyone = bool(member.all())
        # A numpy view of the list's array('f') buffer: 4 floats per slot, x y depth angle.
        # It is dropped before returning, so the list can still grow its buffer later.
        data = np.frombuffer(sprite_list._sprite_pos_angle_data, dtype=np.float32).reshape(-1, 4)
        if everyone:
            data[slots, 0:2] = xy
            data[slots, 3] = angle
        else:
            data[slots[member], 0:2] = xy[member]
            data[slots[member], 3] = angle[member]
        del data
        sprite_list._sprite_pos_angle_changed = True
        spatial_hash = sprite_list.spatial_hash
        if spatial_hash is not None:
            # The setters move the sprite in every hash it is in; only this list's hash
            # is touched here, and each list is visited once.
            moved = sprites if everyone else [s for s, m in zip(sprites, member, strict=True) if m]
            for sprite in moved:
                spatial_hash.move(sprite)

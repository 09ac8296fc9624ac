"""Hit boxes that follow their sprites: a sprite's ``RotatableHitBox`` switched in place to
:class:`FollowingHitBox`, which reads the sprite's pose.

Part of the private-names layer (:mod:`.arcade_internals` re-exports these names and
checks the Arcade version): it reads a sprite's ``_hit_box``, ``_position`` and
``_angle`` and answers a box's ``_position``, ``_angle`` and ``_adjusted_cache_dirty``.
"""

from __future__ import annotations

import weakref
from typing import Any, cast

import arcade
from arcade.hitbox import RotatableHitBox


def _from_sprite(name: str) -> Any:
    """A property reading the sprite's field ``name``; what is stored goes to ``_last<name>``,
    the value used once the sprite is gone (Arcade's setters store it there too)."""
    last = "_last" + name

    def get(box: RotatableHitBox) -> Any:
        fields = box.__dict__
        sprite = fields["_follow"]()
        return getattr(sprite, name) if sprite is not None else fields[last]

    def put(box: RotatableHitBox, value: Any) -> None:
        box.__dict__[last] = value

    return property(get, put)


class FollowingHitBox(RotatableHitBox):
    """A :class:`~arcade.hitbox.RotatableHitBox` whose pose is its sprite's.

    Arcade keeps a sprite's pose on the sprite and on its hit box. A following box
    reads the sprite's pose on demand and recomputes its adjusted points when the
    sprite's pose objects are not those they were computed from, so Arcade sees what
    the setters would have left; it stays correct when the sprite leaves the world.
    No ``__slots__``: an existing box changes class in place. The instance dict holds
    ``_follow`` (a weak reference to the sprite), ``_last_position``/``_last_angle``
    (used once the sprite is gone), ``_dirty``, ``_seen_position`` and ``_seen_angle``.

    >>> sprite = arcade.SpriteSolidColor(2, 2, center_x=10, center_y=0)
    >>> box = follow(sprite)
    >>> box is sprite.hit_box, type(box).__name__
    (True, 'FollowingHitBox')
    >>> sprite._position = (20.0, 0.0)  # a bulk write: nothing stored on the box
    >>> sorted(box.get_adjusted_points())
    [(19.0, -1.0), (19.0, 1.0), (21.0, -1.0), (21.0, 1.0)]
    """

    _position = _from_sprite("_position")
    _angle = _from_sprite("_angle")

    @property
    def _adjusted_cache_dirty(self) -> bool:
        fields = self.__dict__
        if fields["_dirty"]:
            return True
        sprite = fields["_follow"]()
        return sprite is not None and (
            sprite._position is not fields["_seen_position"]
            or sprite._angle is not fields["_seen_angle"]
        )

    @_adjusted_cache_dirty.setter
    def _adjusted_cache_dirty(self, value: bool) -> None:
        fields = self.__dict__
        fields["_dirty"] = value
        if not value:
            # The points were just computed from the sprite's current pose objects.
            sprite = fields["_follow"]()
            if sprite is not None:
                fields["_seen_position"] = sprite._position
                fields["_seen_angle"] = sprite._angle


def follow(sprite: arcade.Sprite) -> FollowingHitBox | None:
    """Make ``sprite``'s hit box a :class:`FollowingHitBox` (in place); None if it cannot.
    Only a box of exactly ``RotatableHitBox`` is switched (a game's own subclass keeps its
    behaviour), and a box already following another sprite is left alone."""
    box: Any = sprite._hit_box
    if type(box) is FollowingHitBox:
        following: FollowingHitBox | None = box if box.__dict__["_follow"]() is sprite else None
        return following
    if type(box) is not RotatableHitBox:
        return None
    fields = box.__dict__
    # The properties answer for these from now on. Adjusted points computed for the
    # box's pose objects stay good while the sprite holds those same objects.
    fields["_dirty"] = fields.pop("_adjusted_cache_dirty", True)
    fields["_last_position"] = fields["_seen_position"] = fields.pop("_position", None)
    fields["_last_angle"] = fields["_seen_angle"] = fields.pop("_angle", None)
    if fields["_last_position"] is None or fields["_last_angle"] is None:
        fields["_last_position"], fields["_last_angle"] = sprite._position, sprite._angle
        fields["_dirty"] = True
    fields["_follow"] = weakref.ref(sprite)
    box.__class__ = FollowingHitBox
    return cast(FollowingHitBox, box)


def can_follow(box: Any) -> bool:
    """Whether ``box`` is of the one class :func:`follow` switches."""
    return type(box) is RotatableHitBox

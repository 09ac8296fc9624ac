"""A sprite's hit box that reads its position and angle from the sprite.

Arcade keeps a sprite's pose twice: on the sprite (``_position``, ``_angle``) and on
its :class:`~arcade.hitbox.RotatableHitBox`, an object with an instance dict that the
setters update too. When a :class:`~arcade_collide.arcade.CollisionWorld` writes back
thousands of poses per tick, those hit-box stores take a large share of the time:
after the ECS tick the boxes and their dicts are out of the CPU caches.

:func:`follow` turns a sprite's own ``RotatableHitBox`` into a
:class:`FollowingHitBox` in place (a class switch: the game's ``sprite.hit_box`` is
still the same object, with the same points and scale). Its position and angle are then
the sprite's, read on demand, and its cached adjusted points are recomputed when the
sprite's pose objects differ from the ones they were computed from, so Arcade's
collision checks, spatial hashes and ``draw_hit_box`` see exactly what the setters
would have left. The box stays correct when the sprite leaves the world (Arcade's
setters keep the sprite's own fields), so it is never switched back.
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

    No ``__slots__``: the layout stays that of ``RotatableHitBox``, so an existing box
    changes class in place. The pose fields are properties over the instance dict's
    ``_follow`` (a weak reference to the sprite), ``_last_position``/``_last_angle``
    (what was last stored, used once the sprite is gone) and ``_dirty``,
    ``_seen_position``, ``_seen_angle`` (the pose objects the cached points were
    computed from).

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

    Only a box of exactly ``RotatableHitBox`` is switched (a game's own subclass keeps
    its behaviour), and a box already following another sprite is left alone.
    """
    box: Any = sprite._hit_box
    if type(box) is FollowingHitBox:
        following: FollowingHitBox | None = box if box.__dict__["_follow"]() is sprite else None
        return following
    if type(box) is not RotatableHitBox:
        return None
    fields = box.__dict__
    # The properties answer for these from now on.
    fields.pop("_adjusted_cache_dirty", None)
    fields["_last_position"] = fields.pop("_position", sprite._position)
    fields["_last_angle"] = fields.pop("_angle", sprite._angle)
    fields["_follow"] = weakref.ref(sprite)
    fields["_dirty"] = True
    fields["_seen_position"] = fields["_seen_angle"] = None
    box.__class__ = FollowingHitBox
    return cast(FollowingHitBox, box)

"""Platformer characters and ladders among sprites: the bridge's side of
:mod:`arcade_collide.ecs.platformer`.

:class:`SpritePlatformers` is a mixin of
:class:`~arcade_collide.arcade.world.CollisionWorld`. A sprite added with
``platformer=True`` (or a :class:`~arcade_collide.ecs.platformer.Platformer` with its
own tuning) is a body with a velocity whose Velocity the world's
:class:`~arcade_collide.ecs.platformer.PlatformerSystem` sets each step, before the
MovementSystem, from the component's input: the game sets ``move``, ``jump`` and
``climb`` on :meth:`~SpritePlatformers.platformer`'s component before
:meth:`~arcade_collide.arcade.world.CollisionWorld.step`, and reads ``on_ground``,
``on_ladder`` and ``can_jump`` after it. Sprites added with ``ladder=True`` are the
ladders it climbs (sensors: they block nothing); ``solid=True`` sprites are its floors
and walls, ``Solid(one_way=True)`` its jump-through platforms.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol

import arcade
import esper

from arcade_collide.ecs import CollisionSystem
from arcade_collide.ecs.platformer import Platformer, PlatformerSystem
from arcade_collide.ecs.response import ResponseSystem, Support

PLATFORMER_PRIORITY = 3
"""The PlatformerSystem's priority in a world's esper world: before its MovementSystem
(priority 2), so a step's input moves the sprite in that step."""


class _World(Protocol):
    _collisions: CollisionSystem
    _response: ResponseSystem | None
    _platformers: PlatformerSystem | None

    def entity(self, sprite: arcade.Sprite) -> int: ...
    def _in_world(self) -> AbstractContextManager[None]: ...


class SpritePlatformers:
    """The platformer methods of a CollisionWorld (see the module docstring)."""

    _platformers: PlatformerSystem | None

    def platformer(self: _World, sprite: arcade.Sprite) -> Platformer:
        """The :class:`~arcade_collide.ecs.platformer.Platformer` component of a sprite
        added with ``platformer=``: set its input (``move``, ``jump``, ``climb``) before
        a step, read its state (``on_ground``, ``on_ladder``, ``can_jump``) after.

        Raises:
            KeyError: the sprite is not in this world, or is not a platformer.

        Examples:
            >>> import arcade
            >>> from arcade_collide.arcade import CollisionWorld
            >>> world = CollisionWorld()
            >>> floor = arcade.SpriteSolidColor(400, 32, center_x=200, center_y=16)
            >>> player = arcade.SpriteSolidColor(20, 30, center_x=100, center_y=80)
            >>> _ = world.add_sprite(floor, static=True, solid=True)
            >>> _ = world.add_sprite(player, platformer=True)
            >>> control = world.platformer(player)
            >>> for _ in range(30):
            ...     world.step(1 / 60)
            >>> control.on_ground, round(player.bottom, 6)
            (True, 32.0)
            >>> control.jump = True
            >>> world.step(1 / 60)
            >>> control.on_ground, world.velocity(player)[1] > 0
            (False, True)
            >>> world.support(player) is None
            True
            >>> world.close()
        """
        entity = self.entity(sprite)
        with self._in_world():
            found = esper.try_component(entity, Platformer)
        if found is None:
            raise KeyError("sprite was not added with platformer=")
        return found

    def support(self: _World, sprite: arcade.Sprite) -> Support | None:
        """What a body sprite stood on after the last step: the supporting solid's
        entity, the contact normal (pointing from the support towards the sprite) and
        the support's velocity; None in the air, or when the world has no bodies.

        Raises:
            KeyError: the sprite is not in this world.
        """
        entity = self.entity(sprite)
        if self._response is None:
            return None
        with self._in_world():
            return self._response.support(entity)

    def _control(self: _World) -> None:
        """Make sure the world runs a PlatformerSystem (called inside the world, once a
        platformer is added; the world's ResponseSystem exists by then)."""
        if self._platformers is not None:
            return
        assert self._response is not None  # a platformer is a body
        system = PlatformerSystem(self._response, self._collisions)
        esper.add_processor(system, priority=PLATFORMER_PRIORITY)
        self._platformers = system

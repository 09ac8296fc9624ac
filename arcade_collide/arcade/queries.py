"""The world queries of :class:`~arcade_collide.arcade.world.CollisionWorld`, with sprites.

:class:`WorldQueries` is a mixin of ``CollisionWorld``: point, box and shape queries,
the Arcade-style conveniences built on them (:meth:`~WorldQueries.sprites_at` for
``arcade.get_sprites_at_point``, :meth:`~WorldQueries.sprites_in_rect` for
``arcade.get_sprites_in_rect``, :meth:`~WorldQueries.overlapping` for
``arcade.check_for_collision_with_list``), :meth:`~WorldQueries.touching` and
:meth:`~WorldQueries.kind`, and :meth:`~WorldQueries.explain`.

Every query answers from the sprites as they are now, without a step: the sprites
the game moved since the last step are read first, as :meth:`step
<arcade_collide.arcade.world.CollisionWorld.step>` reads them (the pose mirror's
log of touched sprites: the cost is what moved, not the world), and the ECS query
(:mod:`arcade_collide.ecs.queries`) does the rest; :meth:`~WorldQueries.overlapping`
asks the bounding circles of the kind (:mod:`.kind_circles`), which prove most of its
answers empty, and tests the few sprites they leave pair by pair (:mod:`.sprite_pairs`)
without the ECS query. Shapes are closed (touching counts);
sprites are returned in the order they were added (ascending entity id); entities of
a joined esper world that are not sprites of this world are left out.

Filters: ``mask`` keeps the sprites whose collision ``layer`` shares a bit with it;
``kind`` keeps the sprites added with that kind (:data:`ANY_KIND`, the default, keeps
all); ``where`` is called with each sprite found and keeps those it returns true for.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, Protocol

import arcade

from arcade_collide.arcade.bodies import Bodies
from arcade_collide.arcade.handlers import Body, Router
from arcade_collide.arcade.kind_circles import KindCircles
from arcade_collide.arcade.lifetime import in_world
from arcade_collide.arcade.overlap_batches import Overlaps, answer_batch
from arcade_collide.ecs import ALL_LAYERS, CollisionSystem
from arcade_collide.ecs.queries import Explanation, check_mask
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.shapes import AnyShape


class _AnyKind:
    """The type of :data:`ANY_KIND`."""

    def __repr__(self) -> str:
        return "ANY_KIND"


ANY_KIND: Any = _AnyKind()
"""The ``kind`` filter that keeps sprites of every kind (``kind=None`` keeps the
sprites added without a kind)."""

SpriteFilter = Callable[[arcade.Sprite], object]
"""A ``where`` filter: called with each sprite found, keeps it when truthy."""


class _World(Protocol):
    """What the mixin uses of ``CollisionWorld``."""

    name: str
    _bodies: Bodies
    _circles: KindCircles
    _collisions: CollisionSystem
    _router: Router
    _closed: bool
    _sweeping: bool

    def _check_open(self) -> None: ...
    def overlapping(
        self, sprite: arcade.Sprite, kind: Hashable = ..., mask: int = ...
    ) -> list[arcade.Sprite]: ...
    def _sync(self) -> None: ...
    def _overlapping_read(
        self, body: Body, kind: Hashable, mask: int
    ) -> list[arcade.Sprite]: ...
    def entity(self, sprite: arcade.Sprite) -> int: ...


def _sprites(
    world: _World, entities: list[int], kind: Hashable, where: SpriteFilter | None
) -> list[arcade.Sprite]:
    """The sprites of ``entities`` (others left out) passing the ``kind`` and ``where``
    filters, in that order."""
    body_of = world._bodies.by_entity.get
    bodies = [body for body in map(body_of, entities) if body is not None]
    if kind is not ANY_KIND:
        bodies = [body for body in bodies if body.kind == kind]
    sprites = [body.sprite for body in bodies]
    return sprites if where is None else [sprite for sprite in sprites if where(sprite)]


def _query(
    world: _World,
    ask: Callable[[CollisionSystem], list[int]],
    kind: Hashable,
    where: SpriteFilter | None,
) -> list[arcade.Sprite]:
    """The sprites of the entities ``ask`` finds with the world's CollisionSystem, in
    its esper world, once the sprites the game moved were read; filtered."""
    _check_filters(kind, where)
    world._check_open()
    world._sync()
    with in_world(world.name):
        found = ask(world._collisions)
    return _sprites(world, found, kind, where)


def _check_filters(kind: object, where: object) -> None:
    if kind is not ANY_KIND and not isinstance(kind, Hashable):
        raise TypeError(f"kind must be hashable, got {type(kind).__name__}")
    if where is not None and not callable(where):
        raise TypeError(f"where must be a callable taking a sprite, got {type(where).__name__}")


class WorldQueries:
    """The queries of a ``CollisionWorld`` (see the module docstring)."""

    def point_query(
        self: _World,
        point: object,
        mask: int = ALL_LAYERS,
        kind: Hashable = ANY_KIND,
        where: SpriteFilter | None = None,
    ) -> list[arcade.Sprite]:
        """The sprites whose collision shapes contain ``point`` (boundary included), now.

        Args:
            point: ``(x, y)``.
            mask: Only sprites whose collision ``layer`` shares a bit with it.
            kind: Only sprites of this kind (default: any).
            where: Called with each sprite found; keeps those it returns true for.

        Raises:
            TypeError: ``point`` is not a pair of numbers, ``mask`` not an int,
                ``kind`` not hashable or ``where`` not callable.
            ValueError: a coordinate is not finite, ``mask`` is outside 32 bits, or a
                sprite was moved to a non-finite pose.
            RuntimeError: the world was closed.
        """
        return _query(self, lambda system: system.point_query(point, mask), kind, where)

    def aabb_query(
        self: _World,
        left: float,
        bottom: float,
        right: float,
        top: float,
        mask: int = ALL_LAYERS,
        kind: Hashable = ANY_KIND,
        where: SpriteFilter | None = None,
    ) -> list[arcade.Sprite]:
        """The sprites whose collision shapes overlap or touch the axis-aligned box, now.

        As :meth:`point_query`, for the closed box from ``(left, bottom)`` to
        ``(right, top)``.

        Raises:
            ValueError: a side is not finite, ``left > right`` or ``bottom > top``;
                or as :meth:`point_query`.
        """
        return _query(
            self, lambda system: system.aabb_query(left, bottom, right, top, mask), kind, where
        )

    def shape_query(
        self: _World,
        shape: AnyShape,
        pose: object,
        mask: int = ALL_LAYERS,
        kind: Hashable = ANY_KIND,
        where: SpriteFilter | None = None,
    ) -> list[arcade.Sprite]:
        """The sprites whose collision shapes overlap or touch ``shape`` at ``pose``, now.

        As :meth:`point_query`, for any of the five shapes at ``(x, y)`` or
        ``(x, y, angle)`` (clockwise degrees, like ``Sprite.angle``).

        Raises:
            TypeError: ``shape`` is not one of the five shapes, or ``pose`` not a
                sequence of numbers; or as :meth:`point_query`.
            ValueError: ``pose`` has the wrong length or a non-finite value; or as
                :meth:`point_query`.
        """
        return _query(self, lambda system: system.shape_query(shape, pose, mask), kind, where)

    def sprites_at(
        self: _World, point: object, mask: int = ALL_LAYERS, kind: Hashable = ANY_KIND
    ) -> list[arcade.Sprite]:
        """The sprites at ``point``: ``arcade.get_sprites_at_point`` over the world,
        exact for every shape (its boundary included). :meth:`point_query` with fewer
        options."""
        return _query(self, lambda system: system.point_query(point, mask), kind, None)

    def sprites_in_rect(
        self: _World, rect: object, mask: int = ALL_LAYERS, kind: Hashable = ANY_KIND
    ) -> list[arcade.Sprite]:
        """The sprites overlapping or touching ``rect`` (an :class:`arcade.types.Rect`):
        ``arcade.get_sprites_in_rect`` over the world, on the collision shapes.

        Raises:
            TypeError: ``rect`` is not an ``arcade.types.Rect``; or as :meth:`aabb_query`.
        """
        if not isinstance(rect, arcade.types.Rect):
            raise TypeError(f"rect must be an arcade.types.Rect, got {type(rect).__name__}")
        sides = (rect.left, rect.bottom, rect.right, rect.top)
        return _query(self, lambda system: system.aabb_query(*sides, mask), kind, None)

    def overlapping(
        self: _World,
        sprite: arcade.Sprite,
        kind: Hashable = ANY_KIND,
        mask: int = ALL_LAYERS,
    ) -> list[arcade.Sprite]:
        """The other sprites whose collision shapes overlap or touch ``sprite``'s, now
        (``arcade.check_for_collision_with_list`` over the world, without a step).

        Args:
            sprite: A registered sprite, at its pose now.
            kind: Only sprites of this kind (default: any).
            mask: Only sprites whose collision ``layer`` shares a bit with it
                (default: all, whatever ``sprite``'s own mask).

        Raises:
            KeyError: the sprite is not in this world.
            TypeError: ``kind`` is not hashable or ``mask`` not an int.
            ValueError: ``mask`` is outside 32 bits, or a sprite was moved to a
                non-finite pose (in a small world, which reads only ``sprite`` and
                the sprites of ``kind``, one of those).
            RuntimeError: the world was closed.
        """
        if type(kind) is not str:
            _check_filters(kind, None)
        self._check_open()
        row = self._bodies.row(sprite)
        body = self._bodies.list[row]
        if mask is not ALL_LAYERS:
            mask = check_mask(mask)
        # A small world answers from its sprites' poses, read straight from them.
        direct = None if self._sweeping else self._circles.touching_direct(body, row, kind, mask)
        if direct is not None:
            return [other.sprite for other in direct]
        return self._overlapping_read(body, kind, mask)

    def _overlapping_read(
        self: _World, body: Body, kind: Hashable, mask: int
    ) -> list[arcade.Sprite]:
        """:meth:`overlapping` of ``body`` (checked arguments, an open world) once the
        world read its sprites."""
        self._sync()
        # Most sprites are near nothing of the kind: their bounding circles prove it,
        # and the few that are near are tested exactly, pair by pair.
        touching = self._circles.touching(body, kind, mask)
        if touching is not None:
            return [other.sprite for other in touching]
        with in_world(self.name):  # a pose is not finite: the ECS query names it
            position = body.position
            pose = (position.x, position.y, position.angle)
            found = self._collisions.shape_query(body.shape.geometry, pose, mask)
        return _sprites(self, [e for e in found if e != body.entity], kind, None)

    def overlapping_many(
        self: _World,
        sprites: Iterable[arcade.Sprite],
        kind: Hashable = ANY_KIND,
        mask: int = ALL_LAYERS,
    ) -> Overlaps:
        """:meth:`overlapping` for each of ``sprites`` at once: a read-only mapping from
        each sprite to the sprites of ``kind`` overlapping or touching it.

        One read of the world answers them all, and each answer stays the one
        :meth:`overlapping` would give when it is looked up: sprites removed since are
        left out, and after a sprite of ``kind`` joined the world, a sprite was moved
        or resized, or a Shape was edited, the answer is asked afresh. (A small world
        finds each answer when it is looked up, from the sprites.) So a game can
        ask about every bullet once per tick and act on each answer in turn, as it
        would call ``arcade.check_for_collision_with_list`` per bullet.

        Args:
            sprites: Registered sprites (a sprite list, say).
            kind: Only sprites of this kind (default: any).
            mask: Only sprites whose collision ``layer`` shares a bit with it.

        Returns:
            A :class:`~.overlap_batches.Overlaps` mapping, its keys in the order given.

        Raises:
            KeyError: a sprite is not in this world (also when an answer is looked up
                after its sprite left the world).
            TypeError: ``kind`` is not hashable or ``mask`` not an int.
            ValueError: ``mask`` is outside 32 bits, or a sprite was moved to a
                non-finite pose (in a small world, whose answers are found when they
                are looked up, an asked sprite at the question, a sprite of ``kind``
                at the lookup, as :meth:`overlapping` raises).
            RuntimeError: the world was closed.

        >>> from arcade_collide.arcade import CollisionWorld
        >>> world = CollisionWorld()
        >>> rocks, bullets = arcade.SpriteList(), arcade.SpriteList()
        >>> world.add_sprite_list(rocks, kind="rock")
        >>> world.add_sprite_list(bullets, kind="bullet")
        >>> rocks.append(arcade.SpriteSolidColor(20, 20, center_x=0, center_y=0))
        >>> bullets.extend([arcade.SpriteSolidColor(4, 4, center_x=x, center_y=0)
        ...                 for x in (5, 12, 50)])
        >>> hits = world.overlapping_many(bullets, kind="rock")
        >>> [len(hits[bullet]) for bullet in bullets]  # inside, touching, apart
        [1, 1, 0]
        >>> rocks[0].remove_from_sprite_lists()  # the first bullet's hit
        >>> hits[bullets[1]]  # the rock has left the world
        []
        >>> world.close()
        """
        if type(kind) is not str:
            _check_filters(kind, None)
        self._check_open()
        bodies = self._bodies
        rows = bodies.rows(sprites)
        asked = list(map(bodies.list.__getitem__, rows))
        if mask is not ALL_LAYERS:
            mask = check_mask(mask)
        return answer_batch(self, asked, rows, kind, mask, kind is ANY_KIND)

    def contacts(self: _World) -> list[tuple[arcade.Sprite, arcade.Sprite, Contact]]:
        """Pairs touching after the last step (in the order they met), each with its
        contact at the sprites' poses now: a sprite pushed deeper since the step reports
        its new depth.

        ``contact.normal`` points from the first sprite to the second. A pair moved
        apart since the step keeps the contact it had then (its end comes with the next
        step), as every pair does while a sprite is at a non-finite pose or has zero
        size (the next step raises).
        """
        active = self._router.active
        if not active:
            return []
        try:
            self._sync()
            with in_world(self.name):
                now = self._collisions.contacts()
        except ValueError:
            now = {}
        body_of = self._bodies.by_entity
        return [
            (body_of[a].sprite, body_of[b].sprite, now.get((a, b), contact))
            for (a, b), contact in active.items()
        ]

    def touching(
        self: _World, sprite: arcade.Sprite, kind: Hashable = ANY_KIND
    ) -> list[arcade.Sprite]:
        """The sprites touching ``sprite`` after the last step (in the order they met
        it), of ``kind`` only when it is given.

        Raises:
            KeyError: the sprite is not in this world.
            TypeError: ``kind`` is not hashable.
        """
        _check_filters(kind, None)
        return _sprites(self, self._router.partners(self.entity(sprite)), kind, None)

    def kind(self: _World, sprite: arcade.Sprite) -> Hashable:
        """The kind ``sprite`` was added with (None when none was given).

        Raises:
            KeyError: the sprite is not in this world.
        """
        return self._bodies.list[self._bodies.row(sprite)].kind

    def explain(self: _World, a: arcade.Sprite, b: arcade.Sprite) -> Explanation[arcade.Sprite]:
        """Why sprites ``a`` and ``b`` do or do not collide, at their poses now: the
        layer/mask verdict, the boxes, and the exact test's contact or separating axis
        (:class:`~arcade_collide.ecs.queries.Explanation`, naming the sprites).

        Raises:
            KeyError: a sprite is not in this world.
            ValueError: ``a`` is ``b``, or a sprite was moved to a non-finite pose.
            RuntimeError: the world was closed.
        """
        self._check_open()
        entity_a, entity_b = self.entity(a), self.entity(b)
        self._sync()
        with in_world(self.name):
            why = self._collisions.explain(entity_a, entity_b)
        return why.naming(a, b)

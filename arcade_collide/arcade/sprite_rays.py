"""Rays, shape casts and line of sight over a :class:`~arcade_collide.arcade.world.CollisionWorld`.

:class:`SpriteRays` is a mixin of ``CollisionWorld``: :meth:`~SpriteRays.ray_cast`,
:meth:`~SpriteRays.ray_cast_all` and :meth:`~SpriteRays.shape_cast` return sprites
where the ECS calls (:mod:`~arcade_collide.ecs.world_rays`) return entities, with the
filters of the other queries (:mod:`~arcade_collide.arcade.queries`: ``mask``,
``kind``, ``where``); :meth:`~SpriteRays.has_line_of_sight` is a drop-in for
``arcade.has_line_of_sight``. Like every query they answer from the sprites as they
are now, the ones the game moved since the last step included.

``has_line_of_sight`` differs from Arcade's in one way: it is exact. Arcade samples a
point every ``check_resolution`` pixels along the segment and asks which walls' hit
boxes hold it, so a wall corner (or a wall thinner than the step) between two samples
does not block; here the segment is tested against each wall's collision shape, and a
segment that only touches a wall is blocked.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sized
from typing import Any

import arcade
import numpy as np

from arcade_collide.arcade import arcade_internals as internals
from arcade_collide.arcade.lifetime import in_world
from arcade_collide.arcade.queries import ANY_KIND, SpriteFilter, _check_filters, _World
from arcade_collide.ecs import ALL_LAYERS
from arcade_collide.geometry.grid_ray import RayGrid
from arcade_collide.geometry.hits import CastHit, RayHit
from arcade_collide.geometry.pose import check_number, check_vec2
from arcade_collide.geometry.query.ray_queries import check_max_distance, parse_ray
from arcade_collide.geometry.shapes import AnyShape
from arcade_collide.geometry.static_grid import StaticGrid


def _keeper(world: _World, kind: Hashable, where: SpriteFilter | None) -> Any:
    """The entity filter for ``kind`` and ``where``: sprites of this world only."""
    body_of = world._bodies.by_entity.get

    def keep(entity: int) -> bool:
        body = body_of(entity)
        if body is None or (kind is not ANY_KIND and body.kind != kind):
            return False
        return where is None or bool(where(body.sprite))

    return keep


class SpriteRays:
    """The rays and casts of a ``CollisionWorld`` (see the module docstring)."""

    _sight: tuple[tuple[Any, ...], RayGrid] | None = None

    def ray_cast(
        self: _World,
        origin: object,
        direction: object,
        max_distance: float = math.inf,
        mask: int = ALL_LAYERS,
        kind: Hashable = ANY_KIND,
        where: SpriteFilter | None = None,
    ) -> tuple[arcade.Sprite, RayHit] | None:
        """The first sprite the ray from ``origin`` along ``direction`` hits, now.

        Args:
            origin: ``(x, y)``.
            direction: ``(dx, dy)``, any non-zero vector.
            max_distance: How far the ray reaches (``>= 0``).
            mask: Only sprites whose collision ``layer`` shares a bit with it.
            kind: Only sprites of this kind (default: any).
            where: Called with each sprite hit; keeps those it returns true for.

        Returns:
            ``(sprite, hit)``, or None. The hit's ``normal`` is the outward normal of the
            sprite's shape where the ray meets it; a ray starting inside a sprite hits
            it at distance 0.

        Raises:
            TypeError, ValueError: as ``CollisionSystem.ray_cast`` raises; ``kind`` not
                hashable.
            RuntimeError: the world was closed.
        """
        hits = _rays(self, origin, direction, max_distance, mask, kind, where, first=True)
        return hits[0] if hits else None

    def ray_cast_all(
        self: _World,
        origin: object,
        direction: object,
        max_distance: float = math.inf,
        mask: int = ALL_LAYERS,
        kind: Hashable = ANY_KIND,
        where: SpriteFilter | None = None,
    ) -> list[tuple[arcade.Sprite, RayHit]]:
        """Every sprite the ray hits, now, nearest first: as :meth:`ray_cast`."""
        return _rays(self, origin, direction, max_distance, mask, kind, where, first=False)

    def shape_cast(
        self: _World,
        shape: AnyShape,
        pose: object,
        translation: object,
        mask: int = ALL_LAYERS,
        kind: Hashable = ANY_KIND,
        where: SpriteFilter | None = None,
    ) -> tuple[arcade.Sprite, CastHit] | None:
        """The first sprite ``shape`` meets when moved from ``pose`` (``(x, y)`` or
        ``(x, y, angle)``, clockwise degrees like ``Sprite.angle``) along
        ``translation``: ``(sprite, hit)`` with the fraction of the move, or None.

        Raises:
            TypeError, ValueError: as ``CollisionSystem.shape_cast`` raises.
            RuntimeError: the world was closed.
        """
        _check_filters(kind, where)
        self._check_open()
        keep = _keeper(self, kind, where)
        self._sync()
        with in_world(self.name):
            found = self._collisions.shape_cast(shape, pose, translation, mask, keep)
        if found is None:
            return None
        return self._bodies.by_entity[found[0]].sprite, found[1]

    def has_line_of_sight(
        self: _World,
        observer: object,
        target: object,
        walls: Iterable[arcade.Sprite],
        max_distance: float = math.inf,
        check_resolution: int = 2,
    ) -> bool:
        """Whether nothing of ``walls`` lies between ``observer`` and ``target``, now:
        ``arcade.has_line_of_sight`` over the world, exact (see the module docstring).

        Args:
            observer: ``(x, y)`` where the sight starts.
            target: ``(x, y)`` it looks at.
            walls: The blocking sprites (a ``SpriteList``), each registered in this
                world (``add_sprite(wall, static=True)`` for a level).
            max_distance: Beyond this distance nothing is seen.
            check_resolution: Accepted for Arcade's signature; the test is exact.

        Returns:
            True when the segment from observer to target meets no wall's collision
            shape and is at most ``max_distance`` long; True as well when the two points
            are the same point (as Arcade answers).

        Raises:
            ValueError: ``max_distance`` or ``check_resolution`` is not positive (as
                Arcade raises), a point is not finite, or a wall is not in this world.
            TypeError: a point is not a pair of numbers.
            RuntimeError: the world was closed.

        >>> from arcade_collide.arcade import CollisionWorld
        >>> world = CollisionWorld()
        >>> wall = arcade.SpriteSolidColor(20, 100, 50, 0)
        >>> _ = world.add_sprite(wall, static=True)
        >>> walls = arcade.SpriteList()
        >>> walls.append(wall)
        >>> world.has_line_of_sight((0, 0), (100, 0), walls)  # blocked
        False
        >>> world.has_line_of_sight((0, 60), (100, 60), walls)  # above the wall
        True
        >>> world.has_line_of_sight((0, 50), (100, 50), walls)  # along its top edge
        False
        >>> world.close()
        """
        self._check_open()
        ox, oy = check_vec2(observer, "observer")
        tx, ty = check_vec2(target, "target")
        if check_max_distance(max_distance) == 0.0:
            raise ValueError("max_distance must be greater than zero")
        reach = float(max_distance)
        if check_number(check_resolution, "check_resolution") <= 0:
            raise ValueError("check_resolution must be greater than zero")
        distance = math.hypot(tx - ox, ty - oy)
        if distance == 0.0:
            return True
        if distance > reach:
            return False
        self._sync()
        with in_world(self.name):
            grid = _wall_grid(self, walls)
            if grid is None:
                return True
            return grid.first(parse_ray((ox, oy), (tx - ox, ty - oy), distance)) is None


def _rays(
    world: _World,
    origin: object,
    direction: object,
    max_distance: float,
    mask: int,
    kind: Hashable,
    where: SpriteFilter | None,
    first: bool,
) -> list[tuple[arcade.Sprite, RayHit]]:
    """The sprites the ray hits (only the first one, when ``first``), with the hits."""
    _check_filters(kind, where)
    world._check_open()
    keep = _keeper(world, kind, where)
    body_of = world._bodies.by_entity
    world._sync()
    with in_world(world.name):
        system = world._collisions
        if first:
            # The quick path first; filters (or entities that are not sprites) need all.
            found = system.ray_cast(origin, direction, max_distance, mask)
            if found is None:
                return []
            if keep(found[0]):
                return [(body_of[found[0]].sprite, found[1])]
        hits = system.ray_cast_all(origin, direction, max_distance, mask, keep)
    if first:
        hits = hits[:1]
    return [(body_of[entity].sprite, hit) for entity, hit in hits]


def _wall_grid(world: _World, walls: Iterable[arcade.Sprite]) -> RayGrid | None:
    """A ray walk over the walls' rows of the world's table (None: no walls), kept
    while the walls and, for walls that may move, the table's poses stay the same."""
    system = world._collisions
    table, index = system.query_table()
    size = len(walls) if isinstance(walls, Sized) else -1
    kept = world._sight  # type: ignore[attr-defined]
    key: tuple[Any, ...] = (id(walls), size, internals.membership_changes(), table.layout)
    if kept is not None and kept[0][:4] == key and kept[0][4] is walls:
        moving = kept[0][5]
        if kept[0][6] == (table.revision if moving else table.static_revision):
            return kept[1] if kept[0][7] else None
    entities = []
    for wall in walls:
        body = world._bodies.row_of.get(wall)
        if body is None:
            raise ValueError("a wall is not a sprite of this CollisionWorld: add it first")
        entities.append(world._bodies.list[body].entity)
    rows = index.rows_of(table, np.array(entities, dtype=np.int64))
    rows = np.unique(rows[rows >= 0])
    moving = not bool(table.static[rows].all())
    grid = RayGrid(StaticGrid(table.aabbs[rows]), table.rows, rows)
    stamp = table.revision if moving else table.static_revision
    world._sight = ((*key, walls, moving, stamp, bool(len(rows))), grid)  # type: ignore[attr-defined]
    return grid if len(rows) else None

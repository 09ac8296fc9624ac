"""Rays and shape casts over a world: the ray queries of
:class:`~arcade_collide.ecs.collision.CollisionSystem`.

:class:`WorldRays` is a mixin of ``CollisionSystem``. Like the overlap queries
(:mod:`~arcade_collide.ecs.queries`) it answers from the current components without
a tick, reading the same query index: the static shapes are walked in ray order
through the grid of the static rows (:class:`~arcade_collide.geometry.grid_ray.RayGrid`,
which stops at the first hit), the other shapes are tested in one compiled scan after a
box test. The exact tests are those of :mod:`~arcade_collide.geometry.query.rays` and
:mod:`~arcade_collide.geometry.query.casts`.

Conventions (those of :class:`~arcade_collide.geometry.hits.RayHit` and
:class:`~arcade_collide.geometry.hits.CastHit`): touching counts as a hit; a ray
starting inside or on a shape hits it at distance 0; a cast's normal points from the
shape hit towards the moving shape. Equally near hits are ordered by shape kind (point,
circle, rectangle, triangle, polygon), then entity id: the table's row order.
Filters: ``mask`` keeps the shapes whose ``layer`` shares a bit with it; ``where`` is
called with each entity id hit and keeps those it returns true for (the nearest kept
hit is the answer).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from arcade_collide.ecs.components import ALL_LAYERS
from arcade_collide.ecs.queries import QueryIndex, Where, check_mask, check_where
from arcade_collide.ecs.table import ShapeTable
from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.grid_ray import RayGrid
from arcade_collide.geometry.hits import BatchRayHits, CastHit, RayHit
from arcade_collide.geometry.pose import check_vec2
from arcade_collide.geometry.query.kernel_base import Int64Array, WorldRows
from arcade_collide.geometry.query.probe import rows_touching_box
from arcade_collide.geometry.query.ray_batches import parse_rays
from arcade_collide.geometry.query.ray_queries import Ray, parse_ray, shape_rows
from arcade_collide.geometry.query.ray_rows import cast_first, ray_all, ray_first
from arcade_collide.geometry.shapes import AnyShape
from arcade_collide.geometry.static_grid import StaticGrid

if TYPE_CHECKING:
    from arcade_collide.ecs.collision import CollisionSystem


class WorldRays:
    """Ray casts and shape casts of a ``CollisionSystem`` (see the module docstring)."""

    _ray_grid: tuple[object, object, RayGrid] | None = None

    def ray_cast(
        self,
        origin: object,
        direction: object,
        max_distance: float = math.inf,
        mask: int = ALL_LAYERS,
        where: Where | None = None,
    ) -> tuple[int, RayHit] | None:
        """The first shape the ray from ``origin`` along ``direction`` hits, now.

        Args:
            origin: ``(x, y)`` where the ray starts.
            direction: ``(dx, dy)``, any non-zero vector (normalised inside).
            max_distance: How far the ray reaches, in world units (``>= 0``).
            mask: Only shapes whose ``layer`` shares a bit with it.
            where: Called with each entity id hit; keeps those it returns true for.

        Returns:
            ``(entity, hit)`` of the nearest hit (ties: see the module docstring), or None.

        Raises:
            TypeError: a vector is not a pair of numbers, ``max_distance`` or ``mask``
                not a number, ``where`` not callable.
            ValueError: a value is not finite, ``direction`` is zero, ``max_distance``
                negative or ``mask`` outside 32 bits; or as ``query_table`` raises.

        >>> import esper
        >>> from arcade_collide.ecs.components import Position, Shape
        >>> from arcade_collide.ecs.collision import CollisionSystem
        >>> from arcade_collide.geometry.shapes import Rect
        >>> esper.switch_world("ray-doctest")
        >>> wall = esper.create_entity(Position(10, 0), Shape(Rect(2, 20)))
        >>> system = CollisionSystem()
        >>> system.ray_cast((0, 0), (1, 0))  # a hit
        (1, RayHit(distance=9.0, point=(9.0, 0.0), normal=(-1.0, 0.0)))
        >>> system.ray_cast((0, 0), (1, 0), max_distance=8.0) is None  # a miss
        True
        >>> system.ray_cast((0, 10), (1, 0))[1].point  # along the wall's top edge
        (9.0, 10.0)
        >>> esper.switch_world("default"); esper.delete_world("ray-doctest")
        """
        ray = parse_ray(origin, direction, max_distance)
        mask_bits, keep = check_mask(mask), check_where(where)
        if keep is not None:
            hits = self._ray_hits(ray, mask_bits, keep)
            return hits[0] if hits else None
        table, index = _system(self).query_table()
        best: tuple[float, int, RayHit] | None = None
        found = _grid(self, table, index).first(ray, mask_bits)
        if found is not None:
            best = (found[1].distance, found[0], found[1])
            # Only a shape up to that hit (ties included) can come first.
            reach = math.nextafter(found[1].distance / ray.length, math.inf)
            ray = ray._replace(limit=min(ray.limit, reach))
        moving = _moving(table, index, ray, mask_bits)
        out = np.empty(3)
        row = ray_first(table.rows, moving, *ray[:5], out) if len(moving) else -1
        if row >= 0:
            hit = ray.hit(float(out[0]), float(out[1]), float(out[2]))
            if best is None or (hit.distance, row) < best[:2]:
                best = (hit.distance, row, hit)
        return None if best is None else (int(table.entities[best[1]]), best[2])

    def ray_cast_all(
        self,
        origin: object,
        direction: object,
        max_distance: float = math.inf,
        mask: int = ALL_LAYERS,
        where: Where | None = None,
    ) -> list[tuple[int, RayHit]]:
        """Every shape the ray hits, now: ``(entity, hit)`` nearest first (ties: see the
        module docstring).

        As :meth:`ray_cast`, which takes the first of these.
        """
        ray = parse_ray(origin, direction, max_distance)
        return self._ray_hits(ray, check_mask(mask), check_where(where))

    def _ray_hits(self, ray: Ray, mask: int, keep: Where | None) -> list[tuple[int, RayHit]]:
        table, index = _system(self).query_table()
        hits = _grid(self, table, index).all(ray, mask)
        moving = _moving(table, index, ray, mask)
        if len(moving):
            rows = np.empty(len(moving), dtype=np.int64)
            out = np.empty((len(moving), 3))
            m = ray_all(table.rows, moving, *ray[:5], rows, out)
            hits += [
                (row, ray.hit(s, nx, ny))
                for row, (s, nx, ny) in zip(rows[:m].tolist(), out[:m].tolist(), strict=True)
            ]
        hits.sort(key=lambda found: (found[1].distance, found[0]))
        entities = table.entities
        named = [(int(entities[row]), hit) for row, hit in hits]
        return named if keep is None else [found for found in named if keep(found[0])]

    def ray_cast_batch(
        self,
        origins: object,
        directions: object,
        max_distance: float | FloatArray = math.inf,
        mask: int = ALL_LAYERS,
    ) -> tuple[Int64Array, BatchRayHits]:
        """:meth:`ray_cast` of ``M`` rays at once (without ``where``).

        Args:
            origins: ``(M, 2)`` ray origins.
            directions: ``(M, 2)`` non-zero directions.
            max_distance: One reach for all rays, or ``(M,)`` reaches.
            mask: Only shapes whose ``layer`` shares a bit with it.

        Returns:
            The entity each ray hits first (-1 for none), and the hits
            (:class:`~arcade_collide.geometry.hits.BatchRayHits`, zeros where none).
            A static and a moving shape hit at the same distance: the static one.
        """
        mask_bits = check_mask(mask)
        o, d, limit, length = parse_rays(origins, directions, max_distance)
        table, index = _system(self).query_table()
        rows, hits = _grid(self, table, index).first_batch(o, d, max_distance, mask_bits)
        moving = index.moving_rows
        if len(moving):
            # The moving rows get a grid of their own for this call; each ray looks in
            # it only up to its static hit.
            with np.errstate(invalid="ignore"):  # an infinite limit times a length
                reach = np.where(hits.hit, hits.distance, limit * length)
            walk = RayGrid(StaticGrid(table.aabbs[moving]), table.rows, moving, table.layer)
            found, near = walk.first_batch(o, d, reach, mask_bits)
            better = near.hit & (~hits.hit | (near.distance < hits.distance))
            rows[better] = found[better]
            for mine, theirs in zip(hits, near, strict=True):
                mine[better] = theirs[better]
        entities = np.where(rows >= 0, table.entities[np.maximum(rows, 0)], -1)
        return entities.astype(np.int64), hits

    def shape_cast(
        self,
        shape: AnyShape,
        pose: object,
        translation: object,
        mask: int = ALL_LAYERS,
        where: Where | None = None,
    ) -> tuple[int, CastHit] | None:
        """The first shape ``shape`` meets when moved from ``pose`` along ``translation``.

        Args:
            shape: Any of the five shapes.
            pose: ``(x, y)`` or ``(x, y, angle)`` where the move starts.
            translation: ``(tx, ty)``, the whole move (no turn).
            mask: Only shapes whose ``layer`` shares a bit with it.
            where: Called with each entity id met; keeps those it returns true for.

        Returns:
            ``(entity, hit)``: the hit's ``fraction`` of the move (0 when touching at
            the start), the contact point then, and the normal from the entity's shape
            towards the moving one; None when it meets nothing.

        Raises:
            TypeError, ValueError: as :meth:`ray_cast` and
                :func:`~arcade_collide.geometry.query.ray_queries.shape_cast` raise.
        """
        mask_bits, keep = check_mask(mask), check_where(where)
        moving = shape_rows(shape, pose)
        tx, ty = check_vec2(translation, "translation")
        table, index = _system(self).query_table()
        x0, y0, x1, y1 = _row_box(moving)
        swept = (x0 + min(tx, 0.0), y0 + min(ty, 0.0), x1 + max(tx, 0.0), y1 + max(ty, 0.0))
        rows = index.rows_in_box(swept)
        if mask_bits != ALL_LAYERS:
            rows = rows[(table.layer[rows] & mask_bits) != 0]
        if keep is not None:
            rows = rows[np.fromiter(map(keep, table.entities[rows].tolist()), np.bool_, len(rows))]
        out = np.empty(5)
        row = cast_first(moving, 0, table.rows, rows, tx, ty, out) if len(rows) else -1
        if row < 0:
            return None
        fraction, px, py, nx, ny = out.tolist()
        return int(table.entities[row]), CastHit(fraction, (px, py), (nx, ny))


def _system(rays: WorldRays) -> CollisionSystem:
    return cast("CollisionSystem", rays)


def _grid(rays: WorldRays, table: ShapeTable, index: QueryIndex) -> RayGrid:
    """The ray walk over the index's grid of static rows, kept while both hold."""
    grid, static_rows = index.static_grid()
    kept = rays._ray_grid
    if kept is None or kept[0] is not grid or kept[1] is not table.rows:
        kept = (grid, table.rows, RayGrid(grid, table.rows, static_rows, table.layer))
        rays._ray_grid = kept
    return kept[2]


def _moving(table: ShapeTable, index: QueryIndex, ray: Ray, mask: int) -> Int64Array:
    """The non-static rows the ray may hit: those passing ``mask`` whose boxes meet the
    box of the ray's segment (all of them for an infinite ray)."""
    moving = index.moving_rows
    if not len(moving):
        return moving
    if math.isfinite(ray.limit):
        ex, ey = ray.ox + ray.limit * ray.dx, ray.oy + ray.limit * ray.dy
        box = (min(ray.ox, ex), min(ray.oy, ey), max(ray.ox, ex), max(ray.oy, ey))
        moving = rows_touching_box(table.aabbs, moving, *box)
    if mask != ALL_LAYERS:
        moving = moving[(table.layer[moving] & mask) != 0]
    return moving


def _row_box(rows: WorldRows) -> tuple[float, float, float, float]:
    """The box of the one shape of a one-row table."""
    kind = int(rows.kinds[0])
    points: Any
    if kind == 0:
        x, y = rows.point_xy[0].tolist()
        return x, y, x, y
    if kind == 1:
        (x, y), r = rows.circle_center[0].tolist(), float(rows.circle_radius[0])
        return x - r, y - r, x + r, y + r
    points = (rows.rect_vertices, rows.triangle_vertices, rows.polygon_vertices)[kind - 2][0]
    low, high = points.min(axis=0).tolist(), points.max(axis=0).tolist()
    return low[0], low[1], high[0], high[1]

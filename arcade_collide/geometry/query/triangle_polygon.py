"""Triangle against convex polygon: separating-axis test over both outlines' edge normals.

Exact for convex shapes, containment included (RTCD 5.2.1).

This module never imports esper or arcade.
"""

from __future__ import annotations

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import (
    CONTACT,
    INTERSECTS,
    WorldRows,
)
from arcade_collide.geometry.query.sat import sat_contact, sat_intersects


@kernel(INTERSECTS, inline=True)
def intersects_triangle_polygon(rows: WorldRows, a: int, b: int) -> bool:
    """True when triangle A and polygon B touch or overlap (closed sets).

    Args:
        rows: The shapes in world space.
        a: Row of the triangle (A) in the triangle arrays of ``rows``.
        b: Row of the polygon (B) in the polygon arrays of ``rows``.

    Returns:
        Whether the closed shapes share a point.

    >>> from arcade_collide.geometry.query.dispatch import intersects
    >>> from arcade_collide.geometry.shapes import Polygon, Triangle
    >>> a, b = Triangle((0, 0), (2, 0), (0, 2)), Polygon([(0, 0), (1, 0), (1, 1), (0, 1)])
    >>> intersects(a, (0, 0, 0), b, (-0.5, 0.5, 0))
    True
    >>> intersects(a, (0, 0, 0), b, (5, 5, 0))
    False
    >>> intersects(a, (0, 0, 0), b, (-1, 0.5, 0))  # touching
    True
    """
    return sat_intersects(
        rows.triangle_vertices[a],
        3,
        3,
        rows.polygon_vertices[b],
        rows.polygon_nverts[b],
        rows.polygon_nverts[b],
    )


@kernel(CONTACT, inline=True)
def contact_triangle_polygon(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """Contact of triangle A with polygon B, normal from A to B, or None.

    Args:
        rows: The shapes in world space.
        a: Row of the triangle (A) in the triangle arrays of ``rows``.
        b: Row of the polygon (B) in the polygon arrays of ``rows``.
        out: Output row ``(nx, ny, depth, px, py)``, the normal from A to B.

    Returns:
        False (``out`` untouched) when the shapes do not touch.

    >>> from arcade_collide.geometry.query.dispatch import contact
    >>> from arcade_collide.geometry.shapes import Polygon, Triangle
    >>> a, b = Triangle((0, 0), (2, 0), (0, 2)), Polygon([(0, 0), (1, 0), (1, 1), (0, 1)])
    >>> contact(a, (0, 0, 0), b, (-0.5, 0.5, 0))
    Contact(normal=(-1.0, 0.0), depth=0.5, point=(0.25, 1.0))
    >>> contact(a, (0, 0, 0), b, (5, 5, 0)) is None
    True
    >>> contact(a, (0, 0, 0), b, (-1, 0.5, 0))  # touching
    Contact(normal=(-1.0, 0.0), depth=0.0, point=(0.0, 1.0))
    """
    return sat_contact(
        rows.triangle_vertices[a],
        3,
        3,
        rows.polygon_vertices[b],
        rows.polygon_nverts[b],
        rows.polygon_nverts[b],
        False,
        out,
    )

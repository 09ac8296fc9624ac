"""Rectangle against triangle: separating-axis test over both outlines' edge normals.

Both shapes are convex outlines (rectangle corners, triangle vertices in any
winding: SAT does not need the winding), so SAT is exact and catches one shape
lying wholly inside the other (RTCD 5.2.1).

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
def intersects_rect_triangle(rows: WorldRows, a: int, b: int) -> bool:
    """True when rectangle A and triangle B touch or overlap (closed sets).

    Args:
        rows: The shapes in world space.
        a: Row of the rectangle (A) in the rectangle arrays of ``rows``.
        b: Row of the triangle (B) in the triangle arrays of ``rows``.

    Returns:
        Whether the closed shapes share a point.

    >>> from arcade_collide.geometry.query.dispatch import intersects
    >>> from arcade_collide.geometry.shapes import Rect, Triangle
    >>> a, b = Rect(2, 2), Triangle((0, 0), (2, 0), (0, 2))
    >>> intersects(a, (0, 0, 0), b, (0.5, -1, 0))
    True
    >>> intersects(a, (0, 0, 0), b, (5, 5, 0))
    False
    >>> intersects(a, (0, 0, 0), b, (1, 0, 0))  # touching
    True
    """
    return sat_intersects(rows.rect_vertices[a], 4, 2, rows.triangle_vertices[b], 3, 3)


@kernel(CONTACT, inline=True)
def contact_rect_triangle(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """Contact of rectangle A with triangle B, normal from A to B, or None.

    Args:
        rows: The shapes in world space.
        a: Row of the rectangle (A) in the rectangle arrays of ``rows``.
        b: Row of the triangle (B) in the triangle arrays of ``rows``.
        out: Output row ``(nx, ny, depth, px, py)``, the normal from A to B.

    Returns:
        False (``out`` untouched) when the shapes do not touch.

    >>> from arcade_collide.geometry.query.dispatch import contact
    >>> from arcade_collide.geometry.shapes import Rect, Triangle
    >>> a, b = Rect(2, 2), Triangle((0, 0), (2, 0), (0, 2))
    >>> contact(a, (0, 0, 0), b, (0.5, -1, 0))
    Contact(normal=(1.0, 0.0), depth=0.5, point=(0.75, 0.0))
    >>> contact(a, (0, 0, 0), b, (5, 5, 0)) is None
    True
    >>> contact(a, (0, 0, 0), b, (1, 0, 0))  # touching
    Contact(normal=(1.0, 0.0), depth=0.0, point=(1.0, 0.5))
    """
    return sat_contact(rows.rect_vertices[a], 4, 2, rows.triangle_vertices[b], 3, 3, False, out)

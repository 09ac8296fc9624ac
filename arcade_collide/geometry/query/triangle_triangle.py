"""Triangle against triangle: separating-axis test over the six edge normals.

Exact whatever the windings, containment included (RTCD 5.2.1).
``contact(a, b) == contact(b, a).flipped()`` holds bit for bit: without a tie
the two orders compute the same numbers, and a contact decided by a tie (equal
depths on two axes, or equal overlap on both sides) is evaluated with the
shapes in a canonical order (smaller world-vertex key first) and flipped back.
Only triangles that coincide exactly break it (no direction tells A from B).

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
def intersects_triangle_triangle(rows: WorldRows, a: int, b: int) -> bool:
    """True when triangle A and triangle B touch or overlap (closed sets).

    Args:
        rows: The shapes in world space.
        a: Row of the triangle (A) in the triangle arrays of ``rows``.
        b: Row of the triangle (B) in the triangle arrays of ``rows``.

    Returns:
        Whether the closed shapes share a point.

    >>> from arcade_collide.geometry.query.dispatch import intersects
    >>> from arcade_collide.geometry.shapes import Triangle
    >>> a, b = Triangle((0, 0), (2, 0), (0, 2)), Triangle((0, 0), (-2, 0), (0, 2))
    >>> intersects(a, (0, 0, 0), b, (0.5, 0, 0))
    True
    >>> intersects(a, (0, 0, 0), b, (-5, 5, 0))
    False
    >>> intersects(a, (0, 0, 0), b, (0, 0, 0))  # touching
    True
    """
    return sat_intersects(rows.triangle_vertices[a], 3, 3, rows.triangle_vertices[b], 3, 3)


@kernel(CONTACT, inline=True)
def contact_triangle_triangle(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """Contact of triangle A with triangle B, normal from A to B, or None.

    Args:
        rows: The shapes in world space.
        a: Row of the triangle (A) in the triangle arrays of ``rows``.
        b: Row of the triangle (B) in the triangle arrays of ``rows``.
        out: Output row ``(nx, ny, depth, px, py)``, the normal from A to B.

    Returns:
        False (``out`` untouched) when the shapes do not touch.

    >>> from arcade_collide.geometry.query.dispatch import contact
    >>> from arcade_collide.geometry.shapes import Triangle
    >>> a, b = Triangle((0, 0), (2, 0), (0, 2)), Triangle((0, 0), (-2, 0), (0, 2))
    >>> contact(a, (0, 0, 0), b, (0.5, 0, 0))
    Contact(normal=(-1.0, 0.0), depth=0.5, point=(0.25, 1.0))
    >>> contact(a, (0, 0, 0), b, (-5, 5, 0)) is None
    True
    >>> contact(a, (0, 0, 0), b, (0, 0, 0))  # touching
    Contact(normal=(-1.0, -0.0), depth=0.0, point=(0.0, 1.0))
    """
    return sat_contact(rows.triangle_vertices[a], 3, 3, rows.triangle_vertices[b], 3, 3, True, out)

"""Convex polygon against convex polygon: separating-axis test.

Testing every edge pair for a crossing (the parametric segment test) misses a
polygon lying wholly inside the other; SAT over the edge normals of both is
exact for convex polygons, containment included (RTCD 5.2.1).
``contact(a, b) == contact(b, a).flipped()`` holds bit for bit: without a tie
the two orders compute the same numbers, and a contact decided by a tie (equal
depths on two axes, or equal overlap on both sides) is evaluated with the
shapes in a canonical order (smaller world-vertex key first) and flipped back.
Only polygons that coincide exactly break it (no direction tells A from B).

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
def intersects_polygon_polygon(rows: WorldRows, a: int, b: int) -> bool:
    """True when polygon A and polygon B touch or overlap (closed sets).

    Args:
        rows: The shapes in world space.
        a: Row of the polygon (A) in the polygon arrays of ``rows``.
        b: Row of the polygon (B) in the polygon arrays of ``rows``.

    Returns:
        Whether the closed shapes share a point.

    >>> from arcade_collide.geometry.query.dispatch import intersects
    >>> from arcade_collide.geometry.shapes import Polygon
    >>> a, b = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)]), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> intersects(a, (0, 0, 0), b, (1, 1, 0))
    True
    >>> intersects(a, (0, 0, 0), b, (5, 5, 0))
    False
    >>> intersects(a, (0, 0, 0), b, (2, 0, 0))  # touching
    True
    """
    return sat_intersects(
        rows.polygon_vertices[a],
        rows.polygon_nverts[a],
        rows.polygon_nverts[a],
        rows.polygon_vertices[b],
        rows.polygon_nverts[b],
        rows.polygon_nverts[b],
    )


@kernel(CONTACT, inline=True)
def contact_polygon_polygon(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """Contact of polygon A with polygon B, normal from A to B, or None.

    Args:
        rows: The shapes in world space.
        a: Row of the polygon (A) in the polygon arrays of ``rows``.
        b: Row of the polygon (B) in the polygon arrays of ``rows``.
        out: Output row ``(nx, ny, depth, px, py)``, the normal from A to B.

    Returns:
        False (``out`` untouched) when the shapes do not touch.

    >>> from arcade_collide.geometry.query.dispatch import contact
    >>> from arcade_collide.geometry.shapes import Polygon
    >>> a, b = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)]), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> contact(a, (0, 0, 0), b, (1, 1, 0))
    Contact(normal=(0.0, 1.0), depth=1.0, point=(1.5, 1.5))
    >>> contact(a, (0, 0, 0), b, (5, 5, 0)) is None
    True
    >>> contact(a, (0, 0, 0), b, (2, 0, 0))  # touching
    Contact(normal=(1.0, 0.0), depth=0.0, point=(2.0, 1.0))
    """
    return sat_contact(
        rows.polygon_vertices[a],
        rows.polygon_nverts[a],
        rows.polygon_nverts[a],
        rows.polygon_vertices[b],
        rows.polygon_nverts[b],
        rows.polygon_nverts[b],
        True,
        out,
    )

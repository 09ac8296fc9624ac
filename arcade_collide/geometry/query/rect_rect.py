"""Rectangle against rectangle (both rotated): separating-axis test.

Each rectangle is reduced to its four world corners, a convex outline, as
Box2D reduces a box to a polygon; SAT over the edge normals of both is exact
(RTCD 4.4.1 for oriented boxes, 5.2.1). A rectangle's opposite edges are
parallel, so two axes per rectangle suffice (edges 0 and 1 of its corners).
``contact(a, b) == contact(b, a).flipped()`` holds bit for bit: without a tie
the two orders compute the same numbers, and a contact decided by a tie (equal
depths on two axes, or equal overlap on both sides) is evaluated with the
shapes in a canonical order (smaller world-vertex key first) and flipped back.
Only rectangles that coincide exactly break it (no direction tells A from B).

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
def intersects_rect_rect(rows: WorldRows, a: int, b: int) -> bool:
    """True when rectangle A and rectangle B touch or overlap (closed sets).

    Args:
        rows: The shapes in world space.
        a: Row of the rectangle (A) in the rectangle arrays of ``rows``.
        b: Row of the rectangle (B) in the rectangle arrays of ``rows``.

    Returns:
        Whether the closed shapes share a point.

    >>> from arcade_collide.geometry.query.dispatch import intersects
    >>> from arcade_collide.geometry.shapes import Rect
    >>> a, b = Rect(2, 2), Rect(2, 2)
    >>> intersects(a, (0, 0, 0), b, (1.5, 0, 0))
    True
    >>> intersects(a, (0, 0, 0), b, (3, 0.5, 0))
    False
    >>> intersects(a, (0, 0, 0), b, (2, 1, 0))  # touching
    True
    """
    return sat_intersects(rows.rect_vertices[a], 4, 2, rows.rect_vertices[b], 4, 2)


@kernel(CONTACT, inline=True)
def contact_rect_rect(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """Contact of rectangle A with rectangle B, normal from A to B, or None.

    Args:
        rows: The shapes in world space.
        a: Row of the rectangle (A) in the rectangle arrays of ``rows``.
        b: Row of the rectangle (B) in the rectangle arrays of ``rows``.
        out: Output row ``(nx, ny, depth, px, py)``, the normal from A to B.

    Returns:
        False (``out`` untouched) when the shapes do not touch.

    >>> from arcade_collide.geometry.query.dispatch import contact
    >>> from arcade_collide.geometry.shapes import Rect
    >>> a, b = Rect(2, 2), Rect(2, 2)
    >>> contact(a, (0, 0, 0), b, (1.5, 0, 0))
    Contact(normal=(1.0, 0.0), depth=0.5, point=(0.75, 0.0))
    >>> contact(a, (0, 0, 0), b, (3, 0.5, 0)) is None
    True
    >>> contact(a, (0, 0, 0), b, (2, 1, 0))  # touching
    Contact(normal=(1.0, 0.0), depth=0.0, point=(1.0, 0.5))
    """
    return sat_contact(rows.rect_vertices[a], 4, 2, rows.rect_vertices[b], 4, 2, True, out)

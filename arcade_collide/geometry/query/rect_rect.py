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
"""

from __future__ import annotations

from arcade_collide.geometry.arrays import (
    BatchContacts,
    BoolArray,
    RectArrays,
)
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.query._convex import (
    sat_contact,
    sat_contact_batch,
    sat_intersects,
    sat_intersects_batch,
    world_outline,
)
from arcade_collide.geometry.shapes import Rect


def intersects_rect_rect(
    a: Rect, pose_a: tuple[float, float, float], b: Rect, pose_b: tuple[float, float, float]
) -> bool:
    """True when rectangle A and rectangle B touch or overlap (closed sets).

    Args:
        a: Rectangle A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Rectangle B.
        pose_b: Validated pose of B.

    Returns:
        Whether the shapes share a point.

    >>> a, b = Rect(2, 2), Rect(2, 2)
    >>> intersects_rect_rect(a, (0, 0, 0), b, (1.5, 0, 0))
    True
    >>> intersects_rect_rect(a, (0, 0, 0), b, (3, 0.5, 0))
    False
    >>> intersects_rect_rect(a, (0, 0, 0), b, (2, 1, 0))  # touching
    True
    """
    va = world_outline(a.local_vertices(), pose_a)
    vb = world_outline(b.local_vertices(), pose_b)
    return sat_intersects(va, vb, 2, 2)


def contact_rect_rect(
    a: Rect, pose_a: tuple[float, float, float], b: Rect, pose_b: tuple[float, float, float]
) -> Contact | None:
    """Contact of rectangle A with rectangle B, normal from A to B, or None.

    Args:
        a: Rectangle A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Rectangle B.
        pose_b: Validated pose of B.

    Returns:
        The contact, or None when the shapes do not touch.

    >>> a, b = Rect(2, 2), Rect(2, 2)
    >>> contact_rect_rect(a, (0, 0, 0), b, (1.5, 0, 0))
    Contact(normal=(1.0, 0.0), depth=0.5, point=(0.75, 0.0))
    >>> contact_rect_rect(a, (0, 0, 0), b, (3, 0.5, 0)) is None
    True
    >>> contact_rect_rect(a, (0, 0, 0), b, (2, 1, 0))  # touching
    Contact(normal=(1.0, 0.0), depth=0.0, point=(1.0, 0.5))
    """
    va = world_outline(a.local_vertices(), pose_a)
    vb = world_outline(b.local_vertices(), pose_b)
    return sat_contact(va, vb, 2, 2, canonical=True)


def intersects_rect_rect_batch(a: RectArrays, b: RectArrays) -> BoolArray:
    """Vectorised :func:`intersects_rect_rect` over ``M`` rows.

    Args:
        a: ``M`` world-space shapes of side A.
        b: ``M`` world-space shapes of side B.

    Returns:
        ``(M,)`` booleans, equal to the scalar form row by row.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a, b = Rect(2, 2), Rect(2, 2)
    >>> pa = pack([a] * 3, [(0, 0, 0)] * 3)
    >>> pb = pack([b] * 3, [(1.5, 0, 0), (3, 0.5, 0), (2, 1, 0)])
    >>> intersects_rect_rect_batch(pa, pb).tolist()  # hit, miss, touching
    [True, False, True]
    """
    return sat_intersects_batch(a.vertices, b.vertices, 2, 2)


def contact_rect_rect_batch(a: RectArrays, b: RectArrays) -> BatchContacts:
    """Vectorised :func:`contact_rect_rect` over ``M`` rows (bitwise equal to it).

    Args:
        a: ``M`` world-space shapes of side A.
        b: ``M`` world-space shapes of side B.

    Returns:
        The contacts; rows that do not touch hold zeros.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a, b = Rect(2, 2), Rect(2, 2)
    >>> pa = pack([a] * 3, [(0, 0, 0)] * 3)
    >>> pb = pack([b] * 3, [(1.5, 0, 0), (3, 0.5, 0), (2, 1, 0)])
    >>> r = contact_rect_rect_batch(pa, pb)
    >>> r.hit.tolist(), r.depth.tolist()  # hit, miss, touching
    ([True, False, True], [0.5, 0.0, 0.0])
    """
    return sat_contact_batch(a.vertices, b.vertices, 2, 2, canonical=True)

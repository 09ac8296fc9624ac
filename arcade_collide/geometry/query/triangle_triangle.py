"""Triangle against triangle: separating-axis test over the six edge normals.

Exact whatever the windings, containment included (RTCD 5.2.1).
``contact(a, b) == contact(b, a).flipped()`` holds bit for bit: without a tie
the two orders compute the same numbers, and a contact decided by a tie (equal
depths on two axes, or equal overlap on both sides) is evaluated with the
shapes in a canonical order (smaller world-vertex key first) and flipped back.
Only triangles that coincide exactly break it (no direction tells A from B).
"""

from __future__ import annotations

from arcade_collide.geometry.arrays import (
    BatchContacts,
    BoolArray,
    TriangleArrays,
)
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.query._convex import (
    sat_contact,
    sat_contact_batch,
    sat_intersects,
    sat_intersects_batch,
    world_outline,
)
from arcade_collide.geometry.shapes import Triangle


def intersects_triangle_triangle(
    a: Triangle, pose_a: tuple[float, float, float], b: Triangle, pose_b: tuple[float, float, float]
) -> bool:
    """True when triangle A and triangle B touch or overlap (closed sets).

    Args:
        a: Triangle A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Triangle B.
        pose_b: Validated pose of B.

    Returns:
        Whether the shapes share a point.

    >>> a, b = Triangle((0, 0), (2, 0), (0, 2)), Triangle((0, 0), (-2, 0), (0, 2))
    >>> intersects_triangle_triangle(a, (0, 0, 0), b, (0.5, 0, 0))
    True
    >>> intersects_triangle_triangle(a, (0, 0, 0), b, (-5, 5, 0))
    False
    >>> intersects_triangle_triangle(a, (0, 0, 0), b, (0, 0, 0))  # touching
    True
    """
    va = world_outline(a.local_vertices(), pose_a)
    vb = world_outline(b.local_vertices(), pose_b)
    return sat_intersects(va, vb, 3, 3)


def contact_triangle_triangle(
    a: Triangle, pose_a: tuple[float, float, float], b: Triangle, pose_b: tuple[float, float, float]
) -> Contact | None:
    """Contact of triangle A with triangle B, normal from A to B, or None.

    Args:
        a: Triangle A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Triangle B.
        pose_b: Validated pose of B.

    Returns:
        The contact, or None when the shapes do not touch.

    >>> a, b = Triangle((0, 0), (2, 0), (0, 2)), Triangle((0, 0), (-2, 0), (0, 2))
    >>> contact_triangle_triangle(a, (0, 0, 0), b, (0.5, 0, 0))
    Contact(normal=(-1.0, 0.0), depth=0.5, point=(0.25, 1.0))
    >>> contact_triangle_triangle(a, (0, 0, 0), b, (-5, 5, 0)) is None
    True
    >>> contact_triangle_triangle(a, (0, 0, 0), b, (0, 0, 0))  # touching
    Contact(normal=(-1.0, -0.0), depth=0.0, point=(0.0, 1.0))
    """
    va = world_outline(a.local_vertices(), pose_a)
    vb = world_outline(b.local_vertices(), pose_b)
    return sat_contact(va, vb, 3, 3, canonical=True)


def intersects_triangle_triangle_batch(a: TriangleArrays, b: TriangleArrays) -> BoolArray:
    """Vectorised :func:`intersects_triangle_triangle` over ``M`` rows.

    Args:
        a: ``M`` world-space shapes of side A.
        b: ``M`` world-space shapes of side B.

    Returns:
        ``(M,)`` booleans, equal to the scalar form row by row.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a, b = Triangle((0, 0), (2, 0), (0, 2)), Triangle((0, 0), (-2, 0), (0, 2))
    >>> pa = pack([a] * 3, [(0, 0, 0)] * 3)
    >>> pb = pack([b] * 3, [(0.5, 0, 0), (-5, 5, 0), (0, 0, 0)])
    >>> intersects_triangle_triangle_batch(pa, pb).tolist()  # hit, miss, touching
    [True, False, True]
    """
    return sat_intersects_batch(a.vertices, b.vertices, 3, 3)


def contact_triangle_triangle_batch(a: TriangleArrays, b: TriangleArrays) -> BatchContacts:
    """Vectorised :func:`contact_triangle_triangle` over ``M`` rows (bitwise equal to it).

    Args:
        a: ``M`` world-space shapes of side A.
        b: ``M`` world-space shapes of side B.

    Returns:
        The contacts; rows that do not touch hold zeros.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a, b = Triangle((0, 0), (2, 0), (0, 2)), Triangle((0, 0), (-2, 0), (0, 2))
    >>> pa = pack([a] * 3, [(0, 0, 0)] * 3)
    >>> pb = pack([b] * 3, [(0.5, 0, 0), (-5, 5, 0), (0, 0, 0)])
    >>> r = contact_triangle_triangle_batch(pa, pb)
    >>> r.hit.tolist(), r.depth.tolist()  # hit, miss, touching
    ([True, False, True], [0.5, 0.0, 0.0])
    """
    return sat_contact_batch(a.vertices, b.vertices, 3, 3, canonical=True)

"""Circle against triangle: closest point of the triangle to the circle centre.

The triangle is put in counter-clockwise order and handled as a convex
outline (RTCD 5.1.5, 5.2.8): the circle hits when its centre is inside the
triangle or within ``r`` of an edge. See
:func:`arcade_collide.geometry.query._convex.circle_convex_contact` for the
contact rule (a centre inside leaves through the nearest edge, the earlier
edge on ties).
"""

from __future__ import annotations

from arcade_collide.geometry.arrays import (
    BatchContacts,
    BoolArray,
    CircleArrays,
    TriangleArrays,
)
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.query._convex import (
    circle_convex_contact,
    circle_convex_contact_batch,
    circle_convex_intersects,
    circle_convex_intersects_batch,
    counter_clockwise,
    counter_clockwise_batch,
    world_outline,
)
from arcade_collide.geometry.shapes import Circle, Triangle


def intersects_circle_triangle(
    a: Circle, pose_a: tuple[float, float, float], b: Triangle, pose_b: tuple[float, float, float]
) -> bool:
    """True when circle A and triangle B touch or overlap (closed sets).

    Args:
        a: Circle A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Triangle B.
        pose_b: Validated pose of B.

    Returns:
        Whether the shapes share a point.

    >>> a, b = Circle(1), Triangle((0, 0), (4, 0), (0, 4))
    >>> intersects_circle_triangle(a, (2, -0.5, 0), b, (0, 0, 0))
    True
    >>> intersects_circle_triangle(a, (5, 5, 0), b, (0, 0, 0))
    False
    >>> intersects_circle_triangle(a, (2, -1, 0), b, (0, 0, 0))  # touching
    True
    """
    outline = counter_clockwise(world_outline(b.local_vertices(), pose_b))
    return circle_convex_intersects(pose_a[0], pose_a[1], a.radius, outline)


def contact_circle_triangle(
    a: Circle, pose_a: tuple[float, float, float], b: Triangle, pose_b: tuple[float, float, float]
) -> Contact | None:
    """Contact of circle A with triangle B, normal from A to B, or None.

    Args:
        a: Circle A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Triangle B.
        pose_b: Validated pose of B.

    Returns:
        The contact, or None when the shapes do not touch.

    >>> a, b = Circle(1), Triangle((0, 0), (4, 0), (0, 4))
    >>> contact_circle_triangle(a, (2, -0.5, 0), b, (0, 0, 0))
    Contact(normal=(0.0, 1.0), depth=0.5, point=(2.0, 0.25))
    >>> contact_circle_triangle(a, (5, 5, 0), b, (0, 0, 0)) is None
    True
    >>> contact_circle_triangle(a, (2, -1, 0), b, (0, 0, 0))  # touching
    Contact(normal=(0.0, 1.0), depth=0.0, point=(2.0, 0.0))
    """
    outline = counter_clockwise(world_outline(b.local_vertices(), pose_b))
    return circle_convex_contact(pose_a[0], pose_a[1], a.radius, outline)


def intersects_circle_triangle_batch(a: CircleArrays, b: TriangleArrays) -> BoolArray:
    """Vectorised :func:`intersects_circle_triangle` over ``M`` rows.

    Args:
        a: ``M`` world-space shapes of side A.
        b: ``M`` world-space shapes of side B.

    Returns:
        ``(M,)`` booleans, equal to the scalar form row by row.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a, b = Circle(1), Triangle((0, 0), (4, 0), (0, 4))
    >>> pa = pack([a] * 3, [(2, -0.5, 0), (5, 5, 0), (2, -1, 0)])
    >>> pb = pack([b] * 3, [(0, 0, 0)] * 3)
    >>> intersects_circle_triangle_batch(pa, pb).tolist()  # hit, miss, touching
    [True, False, True]
    """
    return circle_convex_intersects_batch(a.center, a.radius, counter_clockwise_batch(b.vertices))


def contact_circle_triangle_batch(a: CircleArrays, b: TriangleArrays) -> BatchContacts:
    """Vectorised :func:`contact_circle_triangle` over ``M`` rows (bitwise equal to it).

    Args:
        a: ``M`` world-space shapes of side A.
        b: ``M`` world-space shapes of side B.

    Returns:
        The contacts; rows that do not touch hold zeros.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a, b = Circle(1), Triangle((0, 0), (4, 0), (0, 4))
    >>> pa = pack([a] * 3, [(2, -0.5, 0), (5, 5, 0), (2, -1, 0)])
    >>> pb = pack([b] * 3, [(0, 0, 0)] * 3)
    >>> r = contact_circle_triangle_batch(pa, pb)
    >>> r.hit.tolist(), r.depth.tolist()  # hit, miss, touching
    ([True, False, True], [0.5, 0.0, 0.0])
    """
    return circle_convex_contact_batch(a.center, a.radius, counter_clockwise_batch(b.vertices))

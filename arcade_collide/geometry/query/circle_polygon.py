"""Circle against convex polygon: closest point of the polygon to the circle centre.

The circle hits when its centre is inside the polygon or within ``r`` of an
edge (RTCD 5.2.8). Padded batch rows mask their zero-length edges. See
:func:`arcade_collide.geometry.query._convex.circle_convex_contact` for the
contact rule (a centre inside leaves through the nearest edge, the earlier
edge on ties).
"""

from __future__ import annotations

from arcade_collide.geometry.arrays import (
    BatchContacts,
    BoolArray,
    CircleArrays,
    PolygonArrays,
)
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.query._convex import (
    circle_convex_contact,
    circle_convex_contact_batch,
    circle_convex_intersects,
    circle_convex_intersects_batch,
    padding_mask,
    world_outline,
)
from arcade_collide.geometry.shapes import Circle, Polygon


def intersects_circle_polygon(
    a: Circle, pose_a: tuple[float, float, float], b: Polygon, pose_b: tuple[float, float, float]
) -> bool:
    """True when circle A and polygon B touch or overlap (closed sets).

    Args:
        a: Circle A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Polygon B.
        pose_b: Validated pose of B.

    Returns:
        Whether the shapes share a point.

    >>> a, b = Circle(1), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> intersects_circle_polygon(a, (2.5, 1, 0), b, (0, 0, 0))
    True
    >>> intersects_circle_polygon(a, (5, 5, 0), b, (0, 0, 0))
    False
    >>> intersects_circle_polygon(a, (3, 1, 0), b, (0, 0, 0))  # touching
    True
    """
    outline = world_outline(b.points, pose_b)
    return circle_convex_intersects(pose_a[0], pose_a[1], a.radius, outline)


def contact_circle_polygon(
    a: Circle, pose_a: tuple[float, float, float], b: Polygon, pose_b: tuple[float, float, float]
) -> Contact | None:
    """Contact of circle A with polygon B, normal from A to B, or None.

    Args:
        a: Circle A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Polygon B.
        pose_b: Validated pose of B.

    Returns:
        The contact, or None when the shapes do not touch.

    >>> a, b = Circle(1), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> contact_circle_polygon(a, (2.5, 1, 0), b, (0, 0, 0))
    Contact(normal=(-1.0, 0.0), depth=0.5, point=(1.75, 1.0))
    >>> contact_circle_polygon(a, (5, 5, 0), b, (0, 0, 0)) is None
    True
    >>> contact_circle_polygon(a, (3, 1, 0), b, (0, 0, 0))  # touching
    Contact(normal=(-1.0, 0.0), depth=0.0, point=(2.0, 1.0))
    """
    outline = world_outline(b.points, pose_b)
    return circle_convex_contact(pose_a[0], pose_a[1], a.radius, outline)


def intersects_circle_polygon_batch(a: CircleArrays, b: PolygonArrays) -> BoolArray:
    """Vectorised :func:`intersects_circle_polygon` over ``M`` rows.

    Args:
        a: ``M`` world-space shapes of side A.
        b: ``M`` world-space shapes of side B.

    Returns:
        ``(M,)`` booleans, equal to the scalar form row by row.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a, b = Circle(1), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> pa = pack([a] * 3, [(2.5, 1, 0), (5, 5, 0), (3, 1, 0)])
    >>> pb = pack([b] * 3, [(0, 0, 0)] * 3)
    >>> intersects_circle_polygon_batch(pa, pb).tolist()  # hit, miss, touching
    [True, False, True]
    """
    mask = padding_mask(b.nverts, b.vertices.shape[1])
    return circle_convex_intersects_batch(a.center, a.radius, b.vertices, mask)


def contact_circle_polygon_batch(a: CircleArrays, b: PolygonArrays) -> BatchContacts:
    """Vectorised :func:`contact_circle_polygon` over ``M`` rows (bitwise equal to it).

    Args:
        a: ``M`` world-space shapes of side A.
        b: ``M`` world-space shapes of side B.

    Returns:
        The contacts; rows that do not touch hold zeros.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a, b = Circle(1), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> pa = pack([a] * 3, [(2.5, 1, 0), (5, 5, 0), (3, 1, 0)])
    >>> pb = pack([b] * 3, [(0, 0, 0)] * 3)
    >>> r = contact_circle_polygon_batch(pa, pb)
    >>> r.hit.tolist(), r.depth.tolist()  # hit, miss, touching
    ([True, False, True], [0.5, 0.0, 0.0])
    """
    mask = padding_mask(b.nverts, b.vertices.shape[1])
    return circle_convex_contact_batch(a.center, a.radius, b.vertices, mask)

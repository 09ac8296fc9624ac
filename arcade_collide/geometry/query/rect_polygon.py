"""Rectangle against convex polygon: separating-axis test over both outlines' edge normals.

Exact for convex shapes, containment included (RTCD 5.2.1). Padded batch
polygon rows mask their zero-length edges out of the axis search.
"""

from __future__ import annotations

from arcade_collide.geometry.arrays import (
    BatchContacts,
    BoolArray,
    PolygonArrays,
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
from arcade_collide.geometry.shapes import Polygon, Rect


def intersects_rect_polygon(
    a: Rect, pose_a: tuple[float, float, float], b: Polygon, pose_b: tuple[float, float, float]
) -> bool:
    """True when rectangle A and polygon B touch or overlap (closed sets).

    Args:
        a: Rectangle A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Polygon B.
        pose_b: Validated pose of B.

    Returns:
        Whether the shapes share a point.

    >>> a, b = Rect(2, 2), Polygon([(0, -1), (1, 0), (0, 1), (-1, 0)])
    >>> intersects_rect_polygon(a, (0, 0, 0), b, (1.5, 0, 0))
    True
    >>> intersects_rect_polygon(a, (0, 0, 0), b, (5, 5, 0))
    False
    >>> intersects_rect_polygon(a, (0, 0, 0), b, (2, 0, 0))  # touching
    True
    """
    va = world_outline(a.local_vertices(), pose_a)
    vb = world_outline(b.points, pose_b)
    return sat_intersects(va, vb, 2, len(vb))


def contact_rect_polygon(
    a: Rect, pose_a: tuple[float, float, float], b: Polygon, pose_b: tuple[float, float, float]
) -> Contact | None:
    """Contact of rectangle A with polygon B, normal from A to B, or None.

    Args:
        a: Rectangle A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Polygon B.
        pose_b: Validated pose of B.

    Returns:
        The contact, or None when the shapes do not touch.

    >>> a, b = Rect(2, 2), Polygon([(0, -1), (1, 0), (0, 1), (-1, 0)])
    >>> contact_rect_polygon(a, (0, 0, 0), b, (1.5, 0, 0))
    Contact(normal=(1.0, 0.0), depth=0.5, point=(0.75, 0.0))
    >>> contact_rect_polygon(a, (0, 0, 0), b, (5, 5, 0)) is None
    True
    >>> contact_rect_polygon(a, (0, 0, 0), b, (2, 0, 0))  # touching
    Contact(normal=(1.0, 0.0), depth=0.0, point=(1.0, 0.0))
    """
    va = world_outline(a.local_vertices(), pose_a)
    vb = world_outline(b.points, pose_b)
    return sat_contact(va, vb, 2, len(vb))


def intersects_rect_polygon_batch(a: RectArrays, b: PolygonArrays) -> BoolArray:
    """Vectorised :func:`intersects_rect_polygon` over ``M`` rows.

    Args:
        a: ``M`` world-space shapes of side A.
        b: ``M`` world-space shapes of side B.

    Returns:
        ``(M,)`` booleans, equal to the scalar form row by row.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a, b = Rect(2, 2), Polygon([(0, -1), (1, 0), (0, 1), (-1, 0)])
    >>> pa = pack([a] * 3, [(0, 0, 0)] * 3)
    >>> pb = pack([b] * 3, [(1.5, 0, 0), (5, 5, 0), (2, 0, 0)])
    >>> intersects_rect_polygon_batch(pa, pb).tolist()  # hit, miss, touching
    [True, False, True]
    """
    return sat_intersects_batch(a.vertices, b.vertices, 2)


def contact_rect_polygon_batch(a: RectArrays, b: PolygonArrays) -> BatchContacts:
    """Vectorised :func:`contact_rect_polygon` over ``M`` rows (bitwise equal to it).

    Args:
        a: ``M`` world-space shapes of side A.
        b: ``M`` world-space shapes of side B.

    Returns:
        The contacts; rows that do not touch hold zeros.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a, b = Rect(2, 2), Polygon([(0, -1), (1, 0), (0, 1), (-1, 0)])
    >>> pa = pack([a] * 3, [(0, 0, 0)] * 3)
    >>> pb = pack([b] * 3, [(1.5, 0, 0), (5, 5, 0), (2, 0, 0)])
    >>> r = contact_rect_polygon_batch(pa, pb)
    >>> r.hit.tolist(), r.depth.tolist()  # hit, miss, touching
    ([True, False, True], [0.5, 0.0, 0.0])
    """
    return sat_contact_batch(a.vertices, b.vertices, 2, nverts_b=b.nverts)

"""Convex polygon against convex polygon: separating-axis test.

Testing every edge pair for a crossing (the parametric segment test) misses a
polygon lying wholly inside the other; SAT over the edge normals of both is
exact for convex polygons, containment included (RTCD 5.2.1). Padded batch
rows mask their zero-length edges out of the axis search.
``contact(a, b) == contact(b, a).flipped()`` holds bit for bit: without a tie
the two orders compute the same numbers, and a contact decided by a tie (equal
depths on two axes, or equal overlap on both sides) is evaluated with the
shapes in a canonical order (smaller world-vertex key first) and flipped back.
Only polygons that coincide exactly break it (no direction tells A from B).
"""

from __future__ import annotations

import numpy as np

from arcade_collide.geometry.arrays import (
    BatchContacts,
    BoolArray,
    FloatArray,
    PolygonArrays,
)
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.query._convex import (
    sat_contact,
    sat_contact_batch,
    sat_intersects,
    sat_intersects_batch,
    world_outline,
)
from arcade_collide.geometry.shapes import Polygon


def intersects_polygon_polygon(
    a: Polygon, pose_a: tuple[float, float, float], b: Polygon, pose_b: tuple[float, float, float]
) -> bool:
    """True when polygon A and polygon B touch or overlap (closed sets).

    Args:
        a: Polygon A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Polygon B.
        pose_b: Validated pose of B.

    Returns:
        Whether the shapes share a point.

    >>> a, b = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)]), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> intersects_polygon_polygon(a, (0, 0, 0), b, (1, 1, 0))
    True
    >>> intersects_polygon_polygon(a, (0, 0, 0), b, (5, 5, 0))
    False
    >>> intersects_polygon_polygon(a, (0, 0, 0), b, (2, 0, 0))  # touching
    True
    """
    va = world_outline(a.points, pose_a)
    vb = world_outline(b.points, pose_b)
    return sat_intersects(va, vb, len(va), len(vb))


def contact_polygon_polygon(
    a: Polygon, pose_a: tuple[float, float, float], b: Polygon, pose_b: tuple[float, float, float]
) -> Contact | None:
    """Contact of polygon A with polygon B, normal from A to B, or None.

    Args:
        a: Polygon A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Polygon B.
        pose_b: Validated pose of B.

    Returns:
        The contact, or None when the shapes do not touch.

    >>> a, b = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)]), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> contact_polygon_polygon(a, (0, 0, 0), b, (1, 1, 0))
    Contact(normal=(0.0, 1.0), depth=1.0, point=(1.5, 1.5))
    >>> contact_polygon_polygon(a, (0, 0, 0), b, (5, 5, 0)) is None
    True
    >>> contact_polygon_polygon(a, (0, 0, 0), b, (2, 0, 0))  # touching
    Contact(normal=(1.0, 0.0), depth=0.0, point=(2.0, 1.0))
    """
    va = world_outline(a.points, pose_a)
    vb = world_outline(b.points, pose_b)
    return sat_contact(va, vb, len(va), len(vb), canonical=True)


def intersects_polygon_polygon_batch(a: PolygonArrays, b: PolygonArrays) -> BoolArray:
    """Vectorised :func:`intersects_polygon_polygon` over ``M`` rows.

    Args:
        a: ``M`` world-space shapes of side A.
        b: ``M`` world-space shapes of side B.

    Returns:
        ``(M,)`` booleans, equal to the scalar form row by row.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a, b = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)]), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> pa = pack([a] * 3, [(0, 0, 0)] * 3)
    >>> pb = pack([b] * 3, [(1, 1, 0), (5, 5, 0), (2, 0, 0)])
    >>> intersects_polygon_polygon_batch(pa, pb).tolist()  # hit, miss, touching
    [True, False, True]
    """
    return sat_intersects_batch(a.vertices, b.vertices)


def contact_polygon_polygon_batch(a: PolygonArrays, b: PolygonArrays) -> BatchContacts:
    """Vectorised :func:`contact_polygon_polygon` over ``M`` rows (bitwise equal to it).

    Args:
        a: ``M`` world-space shapes of side A.
        b: ``M`` world-space shapes of side B.

    Returns:
        The contacts; rows that do not touch hold zeros.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a, b = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)]), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> pa = pack([a] * 3, [(0, 0, 0)] * 3)
    >>> pb = pack([b] * 3, [(1, 1, 0), (5, 5, 0), (2, 0, 0)])
    >>> r = contact_polygon_polygon_batch(pa, pb)
    >>> r.hit.tolist(), r.depth.tolist()  # hit, miss, touching
    ([True, False, True], [1.0, 0.0, 0.0])
    """
    return sat_contact_batch(
        a.vertices, b.vertices, nverts_a=a.nverts, nverts_b=b.nverts, canonical=True
    )


def _same_width(va: FloatArray, vb: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Pad the narrower side's rows (repeating their last vertex) to the wider side's K."""
    k = max(va.shape[1], vb.shape[1])
    return _pad(va, k), _pad(vb, k)


def _pad(v: FloatArray, k: int) -> FloatArray:
    if v.shape[1] == k:
        return v
    extra = np.repeat(v[:, -1:], k - v.shape[1], axis=1)
    return np.concatenate([v, extra], axis=1)

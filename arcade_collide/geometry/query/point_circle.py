"""Point against circle.

The point is in the closed disc when its squared distance to the centre is at
most ``r*r``. The contact pushes the circle off the point along the line from
the point through the centre: ``normal = (center - p) / |center - p|`` and
``depth = r - |center - p|``, so moving the circle by ``normal * depth`` brings
its boundary onto the point. A point exactly at the centre has no such
direction and gets the fixed fallback normal ``(1.0, 0.0)`` with depth ``r``.
"""

from __future__ import annotations

import math

import numpy as np

from arcade_collide.geometry.arrays import BatchContacts, BoolArray, CircleArrays, PointArrays
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.query._convex import scatter, touching_rows
from arcade_collide.geometry.shapes import Circle, Point

FALLBACK_NORMAL = (1.0, 0.0)
"""Normal reported when the point sits exactly on the circle's centre."""


def intersects_point_circle(
    a: Point, pose_a: tuple[float, float, float], b: Circle, pose_b: tuple[float, float, float]
) -> bool:
    """Whether the point lies in the closed disc.

    Args:
        a: The point.
        pose_a: Validated ``(x, y, angle)`` of the point.
        b: The circle.
        pose_b: Validated ``(x, y, angle)`` of the circle's centre.

    Returns:
        True when the point is inside the circle or on it.

    >>> intersects_point_circle(Point(), (1.0, 1.0, 0.0), Circle(5), (0.0, 0.0, 0.0))
    True
    >>> intersects_point_circle(Point(), (4.0, 4.0, 0.0), Circle(5), (0.0, 0.0, 0.0))
    False
    >>> intersects_point_circle(Point(), (3.0, 4.0, 0.0), Circle(5), (0.0, 0.0, 0.0))
    True
    """
    dx = pose_b[0] - pose_a[0]
    dy = pose_b[1] - pose_a[1]
    r = b.radius
    return dx * dx + dy * dy <= r * r


def contact_point_circle(
    a: Point, pose_a: tuple[float, float, float], b: Circle, pose_b: tuple[float, float, float]
) -> Contact | None:
    """Contact of a point inside a circle (see the module docstring for conventions).

    Args:
        a: The point.
        pose_a: Validated ``(x, y, angle)`` of the point.
        b: The circle.
        pose_b: Validated ``(x, y, angle)`` of the circle's centre.

    Returns:
        The contact, or None when the point is outside the circle.

    >>> contact_point_circle(Point(), (1.0, 0.0, 0.0), Circle(5), (0.0, 0.0, 0.0))
    Contact(normal=(-1.0, 0.0), depth=4.0, point=(3.0, 0.0))
    >>> contact_point_circle(Point(), (6.0, 0.0, 0.0), Circle(5), (0.0, 0.0, 0.0)) is None
    True
    >>> contact_point_circle(Point(), (3.0, 4.0, 0.0), Circle(5), (0.0, 0.0, 0.0))
    Contact(normal=(-0.6, -0.8), depth=0.0, point=(3.0, 4.0))
    """
    px, py = pose_a[0], pose_a[1]
    dx = pose_b[0] - px
    dy = pose_b[1] - py
    r = b.radius
    dist_sq = dx * dx + dy * dy
    if dist_sq > r * r:
        return None
    dist = math.sqrt(dist_sq)
    # sqrt(fl(r*r)) == r in binary floating point, so this is already >= 0;
    # the clamp documents the Contact invariant.
    depth = max(r - dist, 0.0)
    if dist > 0.0:
        nx, ny = dx / dist, dy / dist
    else:
        nx, ny = FALLBACK_NORMAL
    half = depth * 0.5
    # Midway between the point and the circle's nearest boundary point p - n*depth.
    return Contact((nx, ny), depth, (px - nx * half, py - ny * half))


def intersects_point_circle_batch(a: PointArrays, b: CircleArrays) -> BoolArray:
    """Vectorised :func:`intersects_point_circle` over ``M`` rows.

    Args:
        a: ``M`` world points.
        b: ``M`` world circles.

    Returns:
        ``(M,)`` mask, True where the point is in the closed disc.

    >>> pa = PointArrays(np.array([[1.0, 1.0], [4.0, 4.0], [3.0, 4.0]]))
    >>> cb = CircleArrays(np.zeros((3, 2)), np.full(3, 5.0))
    >>> intersects_point_circle_batch(pa, cb)
    array([ True, False,  True])
    """
    dx = b.center[:, 0] - a.xy[:, 0]
    dy = b.center[:, 1] - a.xy[:, 1]
    r = b.radius
    hit: BoolArray = dx * dx + dy * dy <= r * r
    return hit


def contact_point_circle_batch(a: PointArrays, b: CircleArrays) -> BatchContacts:
    """Vectorised :func:`contact_point_circle`; rows without contact hold zeros.

    Args:
        a: ``M`` world points.
        b: ``M`` world circles.

    Returns:
        The ``M`` contacts, equal to the scalar ones bit for bit.

    >>> pa = PointArrays(np.array([[1.0, 0.0], [6.0, 0.0], [3.0, 4.0]]))
    >>> cb = CircleArrays(np.zeros((3, 2)), np.full(3, 5.0))
    >>> out = contact_point_circle_batch(pa, cb)
    >>> out.hit.tolist(), out.depth.tolist(), out.normal[2].tolist()
    ([True, False, True], [4.0, 0.0, 0.0], [-0.6, -0.8])
    """
    px = a.xy[:, 0]
    py = a.xy[:, 1]
    dx = b.center[:, 0] - px
    dy = b.center[:, 1] - py
    r = b.radius
    dist_sq = dx * dx + dy * dy
    hit = dist_sq <= r * r
    # The direction and the point only for the touching rows (scattered into zeros).
    rows = touching_rows(hit)
    if rows is not None:
        px, py, dx, dy, r, dist_sq = (v[rows] for v in (px, py, dx, dy, r, dist_sq))
    dist = np.sqrt(dist_sq)
    depth = np.maximum(r - dist, 0.0)
    away = dist > 0.0
    if away.all():
        nx = dx / dist
        ny = dy / dist
    else:
        safe = np.where(away, dist, 1.0)
        nx = np.where(away, dx / safe, FALLBACK_NORMAL[0])
        ny = np.where(away, dy / safe, FALLBACK_NORMAL[1])
    half = depth * 0.5
    return scatter(hit, rows, nx, ny, depth, px - nx * half, py - ny * half)

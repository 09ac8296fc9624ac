"""Point against point: they collide only when their coordinates are equal.

Two points have no extent, so the only contact is coincidence. The contact
then has ``depth`` 0 and, since no direction is preferred, the fixed fallback
normal ``(1.0, 0.0)``.
"""

from __future__ import annotations

import numpy as np

from arcade_collide.geometry.arrays import BatchContacts, BoolArray, PointArrays
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.shapes import Point

FALLBACK_NORMAL = (1.0, 0.0)
"""Normal reported when the direction from A to B is undefined (coincident points)."""


def intersects_point_point(
    a: Point, pose_a: tuple[float, float, float], b: Point, pose_b: tuple[float, float, float]
) -> bool:
    """Whether two points coincide (exact equality of world coordinates).

    Args:
        a: The first point.
        pose_a: Validated ``(x, y, angle)`` of ``a``.
        b: The second point.
        pose_b: Validated ``(x, y, angle)`` of ``b``.

    Returns:
        True when both points are at the same place (angles do not matter).

    >>> intersects_point_point(Point(), (1.0, 2.0, 0.0), Point(), (1.0, 2.0, 45.0))
    True
    >>> intersects_point_point(Point(), (1.0, 2.0, 0.0), Point(), (1.0, 2.5, 0.0))
    False
    >>> intersects_point_point(Point(), (0.0, 0.0, 0.0), Point(), (-0.0, 0.0, 0.0))
    True
    """
    return pose_a[0] == pose_b[0] and pose_a[1] == pose_b[1]


def contact_point_point(
    a: Point, pose_a: tuple[float, float, float], b: Point, pose_b: tuple[float, float, float]
) -> Contact | None:
    """Contact of two points: only when they coincide.

    Args:
        a: The first point.
        pose_a: Validated ``(x, y, angle)`` of ``a``.
        b: The second point.
        pose_b: Validated ``(x, y, angle)`` of ``b``.

    Returns:
        ``Contact(FALLBACK_NORMAL, 0.0, point)`` when the points coincide,
        else None.

    >>> contact_point_point(Point(), (1.0, 2.0, 0.0), Point(), (1.0, 2.0, 0.0))
    Contact(normal=(1.0, 0.0), depth=0.0, point=(1.0, 2.0))
    >>> contact_point_point(Point(), (1.0, 2.0, 0.0), Point(), (3.0, 2.0, 0.0)) is None
    True
    >>> contact_point_point(Point(), (0.0, 0.0, 0.0), Point(), (0.0, 0.0, 90.0)).depth
    0.0
    """
    if pose_a[0] != pose_b[0] or pose_a[1] != pose_b[1]:
        return None
    return Contact(FALLBACK_NORMAL, 0.0, (pose_a[0], pose_a[1]))


def intersects_point_point_batch(a: PointArrays, b: PointArrays) -> BoolArray:
    """Vectorised :func:`intersects_point_point` over ``M`` rows.

    Args:
        a: ``M`` world points.
        b: ``M`` world points.

    Returns:
        ``(M,)`` mask, True where the rows' points coincide.

    >>> pa = PointArrays(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]))
    >>> pb = PointArrays(np.array([[0.0, 0.0], [1.0, 1.5], [2.0, 2.0]]))
    >>> intersects_point_point_batch(pa, pb)
    array([ True, False,  True])
    """
    hit: BoolArray = (a.xy[:, 0] == b.xy[:, 0]) & (a.xy[:, 1] == b.xy[:, 1])
    return hit


def contact_point_point_batch(a: PointArrays, b: PointArrays) -> BatchContacts:
    """Vectorised :func:`contact_point_point`; rows without contact hold zeros.

    Args:
        a: ``M`` world points.
        b: ``M`` world points.

    Returns:
        The ``M`` contacts.

    >>> pa = PointArrays(np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]]))
    >>> pb = PointArrays(np.array([[0.0, 0.0], [1.0, 1.5], [2.0, 2.0]]))
    >>> out = contact_point_point_batch(pa, pb)
    >>> out.hit.tolist(), out.normal[:, 0].tolist(), out.point[2].tolist()
    ([True, False, True], [1.0, 0.0, 1.0], [2.0, 2.0])
    """
    hit = intersects_point_point_batch(a, b)
    m = hit.shape[0]
    normal = np.zeros((m, 2))
    point = np.zeros((m, 2))
    rows = np.flatnonzero(hit)
    if rows.size:  # coincident points are rare: touch only their rows
        normal[rows, 0] = FALLBACK_NORMAL[0]
        normal[rows, 1] = FALLBACK_NORMAL[1]
        point[rows] = a.xy[rows]
    return BatchContacts(hit, normal, np.zeros(m), point)

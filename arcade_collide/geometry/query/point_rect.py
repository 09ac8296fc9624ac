"""Point against (rotated) rectangle.

The seeds' "point in axis-aligned rectangle" test, done in the rectangle's
local frame so it holds at any angle: with ``d = p - center``, the local
coordinates are ``lx = d . x_axis`` and ``ly = d . y_axis`` and the point is in
the closed rectangle when ``|lx| <= half_width`` and ``|ly| <= half_height``.

Contact: the nearest side wins. Sides are numbered like the edges of
:meth:`Rect.local_vertices` (0 bottom, 1 right, 2 top, 3 left, counter-clockwise
from the bottom-left corner); equally near sides break to the lowest number.
``normal`` is minus that side's outward normal and ``depth`` the distance to
it, so moving the rectangle by ``normal * depth`` brings that side onto the
point.
"""

from __future__ import annotations

import numpy as np

from arcade_collide.geometry.arrays import (
    BatchContacts,
    BoolArray,
    FloatArray,
    PointArrays,
    RectArrays,
)
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.pose import rotation
from arcade_collide.geometry.query._convex import scatter, touching_rows
from arcade_collide.geometry.shapes import Point, Rect


def _local(
    pose_a: tuple[float, float, float], pose_b: tuple[float, float, float]
) -> tuple[float, float, float, float]:
    """The point in the rectangle's frame: ``(lx, ly, cos, sin)``.

    The local x axis is ``(cos, -sin)`` in world space and the local y axis
    ``(sin, cos)`` (clockwise angles, see :mod:`~arcade_collide.geometry.pose`),
    written in the operation order the batch form uses.
    """
    cos, sin = rotation(pose_b[2])
    dx = pose_a[0] - pose_b[0]
    dy = pose_a[1] - pose_b[1]
    return (dx * cos - dy * sin, dx * sin + dy * cos, cos, sin)


def intersects_point_rect(
    a: Point, pose_a: tuple[float, float, float], b: Rect, pose_b: tuple[float, float, float]
) -> bool:
    """Whether the point lies in the closed, possibly rotated, rectangle.

    Args:
        a: The point.
        pose_a: Validated ``(x, y, angle)`` of the point.
        b: The rectangle.
        pose_b: Validated ``(x, y, angle)`` of the rectangle's centre.

    Returns:
        True when the point is inside the rectangle or on its boundary.

    >>> intersects_point_rect(Point(), (1.0, 0.5, 0.0), Rect(4, 2), (0.0, 0.0, 0.0))
    True
    >>> intersects_point_rect(Point(), (1.9, 0.0, 0.0), Rect(4, 2), (0.0, 0.0, 90.0))
    False
    >>> intersects_point_rect(Point(), (2.0, 1.0, 0.0), Rect(4, 2), (0.0, 0.0, 0.0))
    True
    """
    lx, ly, _, _ = _local(pose_a, pose_b)
    return abs(lx) <= b.half_width and abs(ly) <= b.half_height


def contact_point_rect(
    a: Point, pose_a: tuple[float, float, float], b: Rect, pose_b: tuple[float, float, float]
) -> Contact | None:
    """Contact of a point inside a rectangle: pushed out through the nearest side.

    Args:
        a: The point.
        pose_a: Validated ``(x, y, angle)`` of the point.
        b: The rectangle.
        pose_b: Validated ``(x, y, angle)`` of the rectangle's centre.

    Returns:
        The contact (see the module docstring), or None when the point is outside.

    >>> contact_point_rect(Point(), (1.5, 0.0, 0.0), Rect(4, 2), (0.0, 0.0, 0.0))
    Contact(normal=(-1.0, 0.0), depth=0.5, point=(1.75, 0.0))
    >>> contact_point_rect(Point(), (3.0, 0.0, 0.0), Rect(4, 2), (0.0, 0.0, 0.0)) is None
    True
    >>> contact_point_rect(Point(), (0.0, 2.0, 0.0), Rect(4, 2), (0.0, 0.0, 90.0))
    Contact(normal=(0.0, -1.0), depth=0.0, point=(0.0, 2.0))
    """
    lx, ly, cos, sin = _local(pose_a, pose_b)
    hw = b.half_width
    hh = b.half_height
    if abs(lx) > hw or abs(ly) > hh:
        return None
    distances = (hh + ly, hw - lx, hh - ly, hw + lx)
    best = 0
    for i in (1, 2, 3):
        if distances[i] < distances[best]:
            best = i
    depth = distances[best]
    # Outward normals of the sides in world space: -y axis, x axis, y axis, -x axis.
    ox, oy = ((-sin, -cos), (cos, -sin), (sin, cos), (-cos, sin))[best]
    half = depth * 0.5
    # 0.0 - x rather than -x: the normal never holds a -0.0 (clean output, same bits in batch).
    return Contact((0.0 - ox, 0.0 - oy), depth, (pose_a[0] + ox * half, pose_a[1] + oy * half))


def intersects_point_rect_batch(a: PointArrays, b: RectArrays) -> BoolArray:
    """Vectorised :func:`intersects_point_rect` over ``M`` rows.

    Args:
        a: ``M`` world points.
        b: ``M`` world rectangles.

    Returns:
        ``(M,)`` mask, True where the point is in the closed rectangle.

    >>> from arcade_collide.geometry.arrays import pack
    >>> rb = pack([Rect(4, 2)] * 3, [(0, 0)] * 3)
    >>> intersects_point_rect_batch(PointArrays(np.array([[1.0, 0.5], [3.0, 0.0], [2.0, 1.0]])), rb)
    array([ True, False,  True])
    """
    lx, ly, _, _ = _local_batch(a, b)
    hit: BoolArray = (np.abs(lx) <= b.half[:, 0]) & (np.abs(ly) <= b.half[:, 1])
    return hit


def _local_batch(
    a: PointArrays, b: RectArrays
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Batch form of :func:`_local`; ``sin = -axis_y`` is an exact negation."""
    cos = b.axis[:, 0]
    sin = -b.axis[:, 1]
    dx = a.xy[:, 0] - b.center[:, 0]
    dy = a.xy[:, 1] - b.center[:, 1]
    return (dx * cos - dy * sin, dx * sin + dy * cos, cos, sin)


def contact_point_rect_batch(a: PointArrays, b: RectArrays) -> BatchContacts:
    """Vectorised :func:`contact_point_rect`; rows without contact hold zeros.

    Args:
        a: ``M`` world points.
        b: ``M`` world rectangles.

    Returns:
        The ``M`` contacts, equal to the scalar ones bit for bit.

    >>> from arcade_collide.geometry.arrays import pack
    >>> rb = pack([Rect(4, 2)] * 3, [(0, 0)] * 3)
    >>> out = contact_point_rect_batch(PointArrays(np.array([[1.5, 0], [3, 0], [2, 1]])), rb)
    >>> out.hit.tolist(), out.depth.tolist(), out.normal[0].tolist()
    ([True, False, True], [0.5, 0.0, 0.0], [-1.0, 0.0])
    """
    lx, ly, cos, sin = _local_batch(a, b)
    hw = b.half[:, 0]
    hh = b.half[:, 1]
    px = a.xy[:, 0]
    py = a.xy[:, 1]
    hit = (np.abs(lx) <= hw) & (np.abs(ly) <= hh)
    # The nearest side only for the touching rows (scattered into zeros).
    rows = touching_rows(hit)
    if rows is not None:
        lx, ly, cos, sin, hw, hh, px, py = (v[rows] for v in (lx, ly, cos, sin, hw, hh, px, py))
    distances = np.stack([hh + ly, hw - lx, hh - ly, hw + lx], axis=1)
    best = np.argmin(distances, axis=1)[:, None]  # first minimum: lowest side wins ties
    depth = np.take_along_axis(distances, best, axis=1)[:, 0]
    ox = np.take_along_axis(np.stack([-sin, cos, sin, -cos], axis=1), best, axis=1)[:, 0]
    oy = np.take_along_axis(np.stack([-cos, -sin, cos, sin], axis=1), best, axis=1)[:, 0]
    half = depth * 0.5
    return scatter(hit, rows, 0.0 - ox, 0.0 - oy, depth, px + ox * half, py + oy * half)

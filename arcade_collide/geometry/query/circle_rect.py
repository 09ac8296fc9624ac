"""Circle against rotated rectangle, worked in the rectangle's own frame.

The boolean is the centre-line method: with ``d1``, ``d2`` the distances of
the circle centre to the rectangle's two centre lines (parallel to its width
and to its height), the circle misses when ``d1 > hh + r`` or ``d2 > hw + r``,
hits when ``d1 <= hh`` or ``d2 <= hw`` (it crosses a side), and otherwise the
centre sits in a corner region and the corner must lie within ``r``. Expressing
the centre in the rectangle's frame makes the same test work at any angle.

The contact uses the closest point of the rectangle (RTCD 5.1.3 for a box).
A centre inside the rectangle leaves through the nearer side pair: x on ties
(``hw - |x| <= hh - |y|``), and the side on the centre's side of the centre
line, the positive one when the centre is exactly on it.
"""

from __future__ import annotations

import math

import numpy as np

from arcade_collide.geometry.arrays import (
    BatchContacts,
    BoolArray,
    CircleArrays,
    FloatArray,
    RectArrays,
)
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.pose import rotation
from arcade_collide.geometry.query._convex import TINY_SQUARED, scatter, touching_rows
from arcade_collide.geometry.shapes import Circle, Rect


def _local(
    a: Circle, pose_a: tuple[float, float, float], pose_b: tuple[float, float, float]
) -> tuple[float, float, float, float]:
    """Circle centre in B's frame, plus B's world x axis ``(cos, -sin)``."""
    cos, sin = rotation(pose_b[2])
    ax = cos
    ay = -sin
    dx = pose_a[0] - pose_b[0]
    dy = pose_a[1] - pose_b[1]
    return dx * ax + dy * ay, dy * ax - dx * ay, ax, ay


def _hit(lx: float, ly: float, hw: float, hh: float, r: float) -> bool:
    d1 = abs(ly)
    d2 = abs(lx)
    if d1 > hh + r or d2 > hw + r:
        return False
    if d1 <= hh or d2 <= hw:
        return True
    ex = d2 - hw
    ey = d1 - hh
    return ex * ex + ey * ey <= r * r


def intersects_circle_rect(
    a: Circle, pose_a: tuple[float, float, float], b: Rect, pose_b: tuple[float, float, float]
) -> bool:
    """True when circle A touches or overlaps rectangle B (centre-line method).

    Args:
        a: Circle A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Rectangle B.
        pose_b: Validated pose of B.

    Returns:
        Whether the closed shapes share a point.

    >>> intersects_circle_rect(Circle(1), (2.5, 0, 0), Rect(4, 2), (0, 0, 0))
    True
    >>> intersects_circle_rect(Circle(1), (2.8, 1.8, 0), Rect(4, 2), (0, 0, 0))  # corner region
    False
    >>> intersects_circle_rect(Circle(1), (3, 0, 0), Rect(4, 2), (0, 0, 0))  # tangent to a side
    True
    """
    lx, ly, _, _ = _local(a, pose_a, pose_b)
    return _hit(lx, ly, b.half_width, b.half_height, a.radius)


def contact_circle_rect(
    a: Circle, pose_a: tuple[float, float, float], b: Rect, pose_b: tuple[float, float, float]
) -> Contact | None:
    """Contact of circle A with rectangle B, normal from A to B.

    Centre outside B: normal from the centre to B's closest point ``q``,
    ``depth = r - |q - centre|``. Centre inside: normal is the inward normal of
    the nearer side, ``depth = r +`` distance to that side, ``q`` the point of
    that side level with the centre. ``point`` is the midpoint of the circle's
    deepest point ``centre + r*normal`` and ``q``.

    Args:
        a: Circle A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Rectangle B.
        pose_b: Validated pose of B.

    Returns:
        The contact, or None when the shapes do not touch.

    >>> contact_circle_rect(Circle(1), (2.5, 0, 0), Rect(4, 2), (0, 0, 0))
    Contact(normal=(-1.0, 0.0), depth=0.5, point=(1.75, 0.0))
    >>> contact_circle_rect(Circle(1), (0, 5, 0), Rect(4, 2), (0, 0, 0)) is None
    True
    >>> contact_circle_rect(Circle(1), (0, 2, 0), Rect(4, 2), (0, 0, 0))  # touching
    Contact(normal=(0.0, -1.0), depth=0.0, point=(0.0, 1.0))
    """
    lx, ly, ax, ay = _local(a, pose_a, pose_b)
    hw = b.half_width
    hh = b.half_height
    r = a.radius
    if not _hit(lx, ly, hw, hh, r):
        return None
    d1 = abs(ly)
    d2 = abs(lx)
    sx = 1.0 if lx >= 0.0 else -1.0
    sy = 1.0 if ly >= 0.0 else -1.0
    qx = min(max(lx, -hw), hw)
    qy = min(max(ly, -hh), hh)
    gx = qx - lx
    gy = qy - ly
    g2 = gx * gx + gy * gy
    # A centre within ~1e-145 of the outline (squared gap subnormal) is taken as on it: the
    # side rule below gives an accurate direction where the tiny gap would not.
    if (d2 <= hw and d1 <= hh) or g2 < TINY_SQUARED:
        px = hw - d2
        py = hh - d1
        if px <= py:
            nlx, nly, depth, qx, qy = -sx, 0.0, r + px, sx * hw, ly
        else:
            nlx, nly, depth, qx, qy = 0.0, -sy, r + py, lx, sy * hh
    else:
        d = math.sqrt(g2)
        nlx = gx / d
        nly = gy / d
        depth = r - d
    nx = nlx * ax - nly * ay
    ny = nlx * ay + nly * ax
    qwx = pose_b[0] + (qx * ax - qy * ay)
    qwy = pose_b[1] + (qx * ay + qy * ax)
    point = ((pose_a[0] + nx * r + qwx) * 0.5, (pose_a[1] + ny * r + qwy) * 0.5)
    return Contact((nx, ny), max(depth, 0.0), point)


def _local_batch(
    a: CircleArrays, b: RectArrays
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    ax = b.axis[:, 0]
    ay = b.axis[:, 1]
    dx = a.center[:, 0] - b.center[:, 0]
    dy = a.center[:, 1] - b.center[:, 1]
    return dx * ax + dy * ay, dy * ax - dx * ay, ax, ay


def _hit_batch(
    lx: FloatArray, ly: FloatArray, hw: FloatArray, hh: FloatArray, r: FloatArray
) -> BoolArray:
    d1 = np.abs(ly)
    d2 = np.abs(lx)
    ex = d2 - hw
    ey = d1 - hh
    near = ~((d1 > hh + r) | (d2 > hw + r))
    result: BoolArray = near & ((d1 <= hh) | (d2 <= hw) | (ex * ex + ey * ey <= r * r))
    return result


def intersects_circle_rect_batch(a: CircleArrays, b: RectArrays) -> BoolArray:
    """Vectorised :func:`intersects_circle_rect` over ``M`` rows.

    Args:
        a: ``M`` world-space circles (side A).
        b: ``M`` world-space rectangles (side B).

    Returns:
        ``(M,)`` booleans, equal to the scalar form row by row.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a = pack([Circle(1)] * 3, [(2.5, 0), (2.8, 1.8), (3, 0)])
    >>> b = pack([Rect(4, 2)] * 3, [(0, 0)] * 3)
    >>> intersects_circle_rect_batch(a, b).tolist()  # hit, miss, touching
    [True, False, True]
    """
    lx, ly, _, _ = _local_batch(a, b)
    return _hit_batch(lx, ly, b.half[:, 0], b.half[:, 1], a.radius)


def contact_circle_rect_batch(a: CircleArrays, b: RectArrays) -> BatchContacts:
    """Vectorised :func:`contact_circle_rect` over ``M`` rows (bitwise equal to it).

    Args:
        a: ``M`` world-space circles (side A).
        b: ``M`` world-space rectangles (side B).

    Returns:
        The contacts; rows that do not touch hold zeros.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a = pack([Circle(1)] * 3, [(2.5, 0), (2.8, 1.8), (3, 0)])
    >>> b = pack([Rect(4, 2)] * 3, [(0, 0)] * 3)
    >>> r = contact_circle_rect_batch(a, b)
    >>> r.hit.tolist(), r.depth.tolist()  # hit, miss, touching
    ([True, False, True], [0.5, 0.0, 0.0])
    """
    lx, ly, ax, ay = _local_batch(a, b)
    hw = b.half[:, 0]
    hh = b.half[:, 1]
    r = a.radius
    hit = _hit_batch(lx, ly, hw, hh, r)
    cx = a.center[:, 0]
    cy = a.center[:, 1]
    bx = b.center[:, 0]
    by = b.center[:, 1]
    # The contact geometry only for the touching rows (scattered into zeros).
    rows = touching_rows(hit)
    if rows is not None:
        lx, ly, ax, ay, hw, hh, r, cx, cy, bx, by = (
            v[rows] for v in (lx, ly, ax, ay, hw, hh, r, cx, cy, bx, by)
        )
    d1 = np.abs(ly)
    d2 = np.abs(lx)
    sx = np.where(lx >= 0.0, 1.0, -1.0)
    sy = np.where(ly >= 0.0, 1.0, -1.0)
    px = hw - d2
    py = hh - d1
    use_x = px <= py
    qx_o = np.minimum(np.maximum(lx, -hw), hw)
    qy_o = np.minimum(np.maximum(ly, -hh), hh)
    gx = qx_o - lx
    gy = qy_o - ly
    g2 = gx * gx + gy * gy
    inside = ((d2 <= hw) & (d1 <= hh)) | (g2 < TINY_SQUARED)
    d = np.sqrt(g2)
    d_safe = np.where(inside, 1.0, d)
    nlx_o = gx / d_safe
    nly_o = gy / d_safe
    nlx = np.where(inside, np.where(use_x, -sx, 0.0), nlx_o)
    nly = np.where(inside, np.where(use_x, 0.0, -sy), nly_o)
    depth = np.where(inside, r + np.where(use_x, px, py), r - d)
    qx = np.where(inside, np.where(use_x, sx * hw, lx), qx_o)
    qy = np.where(inside, np.where(use_x, ly, sy * hh), qy_o)
    nx = nlx * ax - nly * ay
    ny = nlx * ay + nly * ax
    qwx = bx + (qx * ax - qy * ay)
    qwy = by + (qx * ay + qy * ax)
    return scatter(
        hit,
        rows,
        nx,
        ny,
        np.maximum(depth, 0.0),
        (cx + nx * r + qwx) * 0.5,
        (cy + ny * r + qwy) * 0.5,
    )

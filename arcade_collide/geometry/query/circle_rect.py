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

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Circle, Rect
>>> cases = [((2.5, 0), (0, 0)), ((2.8, 1.8), (0, 0)), ((0, 2), (0, 0))]
>>> a, b = Circle(1), Rect(4, 2)  # hit, miss (corner region), touching
>>> for pa, pb in cases: print(intersects(a, pa, b, pb), contact(a, pa, b, pb))
True Contact(normal=(-1.0, 0.0), depth=0.5, point=(1.75, 0.0))
False None
True Contact(normal=(0.0, -1.0), depth=0.0, point=(0.0, 1.0))
"""

from __future__ import annotations

import math

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import (
    CONTACT,
    INTERSECTS,
    TINY_SQUARED,
    WorldRows,
    first_max,
    first_min,
    put,
    rect_frame,
)


@kernel("boolean(float64, float64, float64, float64, float64)", inline=True)
def _hit(lx: float, ly: float, hw: float, hh: float, r: float) -> bool:
    """The seed's centre-line test in the rectangle's frame."""
    d1 = abs(ly)
    d2 = abs(lx)
    if d1 > hh + r or d2 > hw + r:
        return False
    if d1 <= hh or d2 <= hw:
        return True
    ex = d2 - hw
    ey = d1 - hh
    return bool(ex * ex + ey * ey <= r * r)


@kernel(INTERSECTS, inline=True)
def intersects_circle_rect(rows: WorldRows, a: int, b: int) -> bool:
    """True when circle A touches or overlaps rectangle B (centre-line method)."""
    lx, ly = rect_frame(rows, b, rows.circle_center[a, 0], rows.circle_center[a, 1])
    return _hit(lx, ly, rows.rect_half[b, 0], rows.rect_half[b, 1], rows.circle_radius[a])


@kernel(CONTACT, inline=True)
def contact_circle_rect(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """Contact of circle A with rectangle B, normal from A to B."""
    lx, ly = rect_frame(rows, b, rows.circle_center[a, 0], rows.circle_center[a, 1])
    hw = rows.rect_half[b, 0]
    hh = rows.rect_half[b, 1]
    r = rows.circle_radius[a]
    if not _hit(lx, ly, hw, hh, r):
        return False
    ax = rows.rect_axis[b, 0]
    ay = rows.rect_axis[b, 1]
    d1 = abs(ly)
    d2 = abs(lx)
    sx = 1.0 if lx >= 0.0 else -1.0
    sy = 1.0 if ly >= 0.0 else -1.0
    qx = first_min(first_max(lx, -hw), hw)
    qy = first_min(first_max(ly, -hh), hh)
    gx = qx - lx
    gy = qy - ly
    g2 = gx * gx + gy * gy
    # A centre within ~1e-145 of the outline (squared gap subnormal) is taken as on it:
    # the side rule gives an accurate direction where the tiny gap would not.
    if (d2 <= hw and d1 <= hh) or g2 < TINY_SQUARED:
        gap_x = hw - d2
        gap_y = hh - d1
        if gap_x <= gap_y:
            nlx = -sx
            nly = 0.0
            depth = r + gap_x
            qx = sx * hw
            qy = ly
        else:
            nlx = 0.0
            nly = -sy
            depth = r + gap_y
            qx = lx
            qy = sy * hh
    else:
        d = math.sqrt(g2)
        nlx = gx / d
        nly = gy / d
        depth = r - d
    nx = nlx * ax - nly * ay
    ny = nlx * ay + nly * ax
    qwx = rows.rect_center[b, 0] + (qx * ax - qy * ay)
    qwy = rows.rect_center[b, 1] + (qx * ay + qy * ax)
    cx = rows.circle_center[a, 0]
    cy = rows.circle_center[a, 1]
    put(out, nx, ny, first_max(depth, 0.0), (cx + nx * r + qwx) * 0.5, (cy + ny * r + qwy) * 0.5)
    return True

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

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Point, Rect
>>> cases = [((1.5, 0.0), (0, 0)), ((1.9, 0.0), (0, 0, 90)), ((0.0, 2.0), (0, 0, 90))]
>>> a, b = Point(), Rect(4, 2)  # hit, miss, touching
>>> for pa, pb in cases: print(intersects(a, pa, b, pb), contact(a, pa, b, pb))
True Contact(normal=(-1.0, 0.0), depth=0.5, point=(1.75, 0.0))
False None
True Contact(normal=(0.0, -1.0), depth=0.0, point=(0.0, 2.0))
"""

from __future__ import annotations

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import (
    CONTACT,
    INTERSECTS,
    WorldRows,
    put,
    rect_frame,
)


@kernel(INTERSECTS, inline=True)
def intersects_point_rect(rows: WorldRows, a: int, b: int) -> bool:
    """Whether the point lies in the closed, possibly rotated, rectangle."""
    lx, ly = rect_frame(rows, b, rows.point_xy[a, 0], rows.point_xy[a, 1])
    return bool(abs(lx) <= rows.rect_half[b, 0] and abs(ly) <= rows.rect_half[b, 1])


@kernel(CONTACT, inline=True)
def contact_point_rect(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """Contact of a point inside a rectangle: pushed out through the nearest side."""
    lx, ly = rect_frame(rows, b, rows.point_xy[a, 0], rows.point_xy[a, 1])
    hw = rows.rect_half[b, 0]
    hh = rows.rect_half[b, 1]
    if abs(lx) > hw or abs(ly) > hh:
        return False
    cos = rows.rect_axis[b, 0]
    sin = -rows.rect_axis[b, 1]
    # Sides in order bottom, right, top, left; (ox, oy) is the outward normal.
    depth = hh + ly
    ox = -sin
    oy = -cos
    if hw - lx < depth:
        depth = hw - lx
        ox = cos
        oy = -sin
    if hh - ly < depth:
        depth = hh - ly
        ox = sin
        oy = cos
    if hw + lx < depth:
        depth = hw + lx
        ox = -cos
        oy = sin
    half = depth * 0.5
    px = rows.point_xy[a, 0]
    py = rows.point_xy[a, 1]
    put(out, 0.0 - ox, 0.0 - oy, depth, px + ox * half, py + oy * half)
    return True

"""Rays against one shape, in compiled code: a kernel per shape form and one per table row.

A ray is ``origin + s * d`` for ``s`` in ``[0, limit]``, ``d`` any direction (the
public queries scale it by a power of two, which keeps every bit). Each kernel returns
``(hit, s, nx, ny)``: whether the ray meets the closed shape, the smallest such ``s``
and the unit outward normal there (see :mod:`~arcade_collide.geometry.hits`); when
the origin is inside or on the shape, ``s`` is 0 and the normal is ``-unit(d)``. The
kernels work in ``s`` rather than in distance so that integer inputs stay exact: a ray
that grazes a vertex enters and leaves at the same correctly rounded ``s``, and a ray
along an edge is parallel to it exactly.
"""

from __future__ import annotations

import math
from typing import Any

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.circle_outline import circle_outline_intersects, clockwise
from arcade_collide.geometry.query.convex import polygon_outline, rect_outline, triangle_outline
from arcade_collide.geometry.query.kernel_base import (
    ROWS,
    WorldRows,
    first_max,
    first_min,
    types,
    unit,
)
from arcade_collide.geometry.shapes import ShapeKind

_POINT, _CIRCLE, _RECT, _TRIANGLE, _POLYGON = (int(kind) for kind in ShapeKind)
_INF = math.inf

Hit = tuple[bool, float, float, float]
"""``(hit, s, nx, ny)``."""
HIT: Any = types.Tuple((types.boolean, types.float64, types.float64, types.float64))
_RAY = (types.float64,) * 5
"""``ox, oy, dx, dy, limit``."""


@kernel(HIT(types.float64, types.float64), inline=True)
def _start(dx: float, dy: float) -> Hit:
    """The hit of a ray whose origin is inside or on the shape: ``s = 0``, normal ``-d``."""
    nx, ny = unit(-dx, -dy)
    return True, 0.0, nx + 0.0, ny + 0.0  # + 0.0: no negative zeros


@kernel(HIT(types.float64, types.float64, *_RAY), inline=True)
def ray_point(
    px: float, py: float, ox: float, oy: float, dx: float, dy: float, limit: float
) -> Hit:
    """The ray against the point ``(px, py)``: a hit only when the ray passes exactly
    through it (``d x (p - o) == 0`` ahead of the origin)."""
    wx = px - ox
    wy = py - oy
    if wx == 0.0 and wy == 0.0:
        return _start(dx, dy)
    dot = dx * wx + dy * wy
    if dx * wy - dy * wx != 0.0 or not dot > 0.0:
        return False, 0.0, 0.0, 0.0
    s = dot / (dx * dx + dy * dy)
    if s > limit:
        return False, 0.0, 0.0, 0.0
    _, _, nx, ny = _start(dx, dy)
    return True, s, nx, ny


@kernel(HIT(types.float64, types.float64, types.float64, *_RAY), inline=True)
def ray_circle(
    cx: float, cy: float, r: float, ox: float, oy: float, dx: float, dy: float, limit: float
) -> Hit:
    """The ray against the circle ``(cx, cy, r)`` (Ericson, RTCD 5.3.2). The root is
    taken as ``c / (-b + sqrt(disc))``, which does not cancel (``b < 0`` there); a
    tangent ray (``disc == 0``) hits."""
    wx = ox - cx
    wy = oy - cy
    c = wx * wx + wy * wy - r * r
    if c <= 0.0:
        return _start(dx, dy)
    b = wx * dx + wy * dy
    if b >= 0.0:
        return False, 0.0, 0.0, 0.0
    disc = b * b - (dx * dx + dy * dy) * c
    if disc < 0.0:
        return False, 0.0, 0.0, 0.0
    s = c / (math.sqrt(disc) - b)
    if s > limit:
        return False, 0.0, 0.0, 0.0
    nx, ny = unit(wx + s * dx, wy + s * dy)
    return True, s, nx, ny


@kernel(
    types.UniTuple(types.float64, 2)(
        types.float64[:, ::1], types.int64, types.boolean, types.int64
    ),
    inline=True,
)
def outward(v: FloatArray, n: int, swap: bool, e: int) -> tuple[float, float]:
    """The outward normal ``(ey, -ex)`` of edge ``e`` (vertex ``e`` to the next) of the
    first ``n`` vertices, counter-clockwise, or clockwise when ``swap`` (unnormalised)."""
    f = e + 1 if e + 1 < n else 0
    mx = v[f, 1] - v[e, 1]
    my = v[e, 0] - v[f, 0]
    return (-mx, -my) if swap else (mx, my)


@kernel(HIT(types.float64[:, ::1], types.int64, types.boolean, *_RAY), inline=True)
def ray_outline(
    v: FloatArray, n: int, swap: bool, ox: float, oy: float, dx: float, dy: float, limit: float
) -> Hit:
    """The ray against a convex outline (the first ``n`` vertices of ``v``, clockwise
    when ``swap``), clipped by each edge's half-plane in turn (Cyrus-Beck; Ericson,
    RTCD 5.3.8). Touching counts: the ray hits while the entering ``s`` is not above
    the leaving one, and a ray parallel to an edge is cut off only when strictly
    outside it. At a vertex the normal is that of the first edge entered there."""
    enter = 0.0
    leave = limit
    edge = -1
    ex = ey = 0.0
    for e in range(n):
        mx, my = outward(v, n, swap, e)
        num = mx * (v[e, 0] - ox) + my * (v[e, 1] - oy)
        den = mx * dx + my * dy
        if den == 0.0:
            if num < 0.0:
                return False, 0.0, 0.0, 0.0
            continue
        s = num / den
        if den < 0.0:
            if s > enter:
                enter = s
                edge = e
                ex, ey = mx, my
        elif s < leave:
            leave = s
        if enter > leave:
            return False, 0.0, 0.0, 0.0
    if edge < 0:
        return _start(dx, dy)
    nx, ny = unit(ex, ey)
    return True, enter, nx, ny


@kernel(HIT(types.float64[:, ::1], types.int64, types.boolean, types.float64, *_RAY), inline=True)
def ray_rounded(
    v: FloatArray,
    n: int,
    swap: bool,
    r: float,
    ox: float,
    oy: float,
    dx: float,
    dy: float,
    limit: float,
) -> Hit:
    """The ray against a convex outline rounded by ``r > 0`` (the outline's Minkowski
    sum with a disc): its boundary is each edge pushed out by ``r`` along its unit
    normal and an arc of radius ``r`` round each vertex. From outside, the first hit is
    the nearest hit on those pieces (each piece lies in the sum, and the first boundary
    point reached lies on one); an origin within ``r`` of the outline hits at 0."""
    if circle_outline_intersects(ox, oy, r, v, n, swap):
        return _start(dx, dy)
    best = _INF
    bx = by = 0.0
    for e in range(n):
        f = e + 1 if e + 1 < n else 0
        mx, my = outward(v, n, swap, e)
        mx, my = unit(mx, my)
        den = mx * dx + my * dy
        if den < 0.0:
            # w = origin - (vertex e pushed out by r); the pushed edge runs along e.
            wx = (ox - v[e, 0]) - r * mx
            wy = (oy - v[e, 1]) - r * my
            s = -(mx * wx + my * wy) / den
            ex = v[f, 0] - v[e, 0]
            ey = v[f, 1] - v[e, 1]
            along = (wx + s * dx) * ex + (wy + s * dy) * ey
            if s >= 0.0 and 0.0 <= along <= ex * ex + ey * ey and s < best:
                best = s
                bx, by = mx, my
        hit, s, nx, ny = ray_circle(v[e, 0], v[e, 1], r, ox, oy, dx, dy, limit)
        if hit and s < best:
            best = s
            bx, by = nx, ny
    if best > limit:
        return False, 0.0, 0.0, 0.0
    return True, best, bx, by


@kernel(HIT(ROWS, types.int64, types.float64, *_RAY), inline=True)
def ray_rounded_rect(
    rows: WorldRows, t: int, r: float, ox: float, oy: float, dx: float, dy: float, limit: float
) -> Hit:
    """:func:`ray_rounded` for rectangle row ``t`` (its index among the rectangles), in
    the rectangle's frame (Ericson, RTCD 5.5.7): the ray against the box grown by ``r``
    on every side, then, when it enters that box beyond a corner of the rectangle, the
    ray against the circle of radius ``r`` round that corner (the rounded box there).
    """
    ax = rows.rect_axis[t, 0]
    ay = rows.rect_axis[t, 1]
    hx = rows.rect_half[t, 0]
    hy = rows.rect_half[t, 1]
    wx = ox - rows.rect_center[t, 0]
    wy = oy - rows.rect_center[t, 1]
    # The origin and direction along the rectangle's x axis (ax, ay) and y axis (-ay, ax).
    ou = wx * ax + wy * ay
    ov = wy * ax - wx * ay
    du = dx * ax + dy * ay
    dv = dy * ax - dx * ay
    gu = ou - first_min(first_max(ou, -hx), hx)
    gv = ov - first_min(first_max(ov, -hy), hy)
    if gu * gu + gv * gv <= r * r:
        return _start(dx, dy)
    enter = 0.0
    leave = limit
    nu = nv = 0.0
    for axis in range(2):
        o, d, e = (ou, du, hx + r) if axis == 0 else (ov, dv, hy + r)
        if d == 0.0:
            if abs(o) > e:
                return False, 0.0, 0.0, 0.0
            continue
        near = (-e - o) / d if d > 0.0 else (e - o) / d
        far = (e - o) / d if d > 0.0 else (-e - o) / d
        if near > enter:
            enter = near
            side = -1.0 if d > 0.0 else 1.0
            nu, nv = (side, 0.0) if axis == 0 else (0.0, side)
        leave = min(leave, far)
        if enter > leave:
            return False, 0.0, 0.0, 0.0
    pu = ou + enter * du
    pv = ov + enter * dv
    if abs(pu) > hx and abs(pv) > hy:
        cu = hx if pu > 0.0 else -hx
        cv = hy if pv > 0.0 else -hy
        hit, enter, nu, nv = ray_circle(cu, cv, r, ou, ov, du, dv, limit)
        if not hit:
            return False, 0.0, 0.0, 0.0
    return True, enter, nu * ax - nv * ay + 0.0, nu * ay + nv * ax + 0.0


OUTLINE_OF: Any = types.Tuple(
    (types.float64[:, ::1], types.int64, types.int64, types.boolean)
)(ROWS, types.int64)


@kernel(OUTLINE_OF, inline=True)
def outline_of(rows: WorldRows, t: int) -> tuple[FloatArray, int, int, bool]:
    """Table row ``t`` of a rectangle, triangle or polygon as ``(v, n, axes, swap)``: its
    convex outline (:mod:`.convex`) and whether it runs clockwise."""
    kind = rows.kinds[t]
    r = t - rows.start[kind]
    if kind == _RECT:
        v, n, axes = rect_outline(rows, r)
        return v, n, axes, False
    if kind == _TRIANGLE:
        v, n, axes = triangle_outline(rows, r)
        return v, n, axes, clockwise(v)
    v, n, axes = polygon_outline(rows, r)
    return v, n, axes, False


@kernel(types.UniTuple(types.float64, 3)(ROWS, types.int64), inline=True)
def round_of(rows: WorldRows, t: int) -> tuple[float, float, float]:
    """Table row ``t`` of a point or circle as ``(x, y, radius)``, a point's radius 0."""
    kind = rows.kinds[t]
    r = t - rows.start[kind]
    if kind == _POINT:
        return rows.point_xy[r, 0], rows.point_xy[r, 1], 0.0
    return rows.circle_center[r, 0], rows.circle_center[r, 1], rows.circle_radius[r]


@kernel(HIT(ROWS, types.int64, *_RAY))
def ray_row(
    rows: WorldRows, t: int, ox: float, oy: float, dx: float, dy: float, limit: float
) -> Hit:
    """The ray against table row ``t`` (of kind ``rows.kinds[t]``)."""
    kind = rows.kinds[t]
    if kind == _POINT:
        x, y, _ = round_of(rows, t)
        return ray_point(x, y, ox, oy, dx, dy, limit)
    if kind == _CIRCLE:
        x, y, radius = round_of(rows, t)
        return ray_circle(x, y, radius, ox, oy, dx, dy, limit)
    v, n, _, swap = outline_of(rows, t)
    return ray_outline(v, n, swap, ox, oy, dx, dy, limit)

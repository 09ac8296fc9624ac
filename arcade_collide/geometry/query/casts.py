"""Shape casts in compiled code: when a shape A moved along a translation first touches B.

The time of impact is found exactly, as a ray against the Minkowski sum of B and the
reflected A, or by per-axis intervals (Ericson, RTCD 5.5, whose moving boxes are the
axis-aligned case of the last item):

* point or circle against point or circle: A's centre as a ray against a circle of
  the summed radius around B's centre (two points: a ray through a point);
* point or circle A against a convex outline B: A's centre as a ray against B's
  outline rounded by A's radius (:func:`~.rays.ray_rounded`, for a rectangle
  :func:`~.rays.ray_rounded_rect` in its own frame; a point: the outline);
* convex outline A against a point or circle B: the same with the roles exchanged, B's
  centre moving along the reversed translation;
* two convex outlines: the translational separating-axis test. Under translation the
  edge normals of both outlines stay the only candidate axes, and on each axis the
  fractions at which the projections overlap form one interval; the shapes touch
  exactly on the intersection of these intervals, whose start is the time of impact
  and whose start axis is the normal.

Shapes touching or overlapping at the start hit at fraction 0 with their contact
(:func:`~.dispatch.run_pairs`), as :mod:`~arcade_collide.geometry.hits` states.
Each cast kernel returns ``(hit, fraction, nx, ny, px, py)``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.dispatch import SLOTS, run_pairs
from arcade_collide.geometry.query.kernel_base import (
    ROWS,
    Int64Array,
    WorldRows,
    copy_row,
    empty_rows,
    types,
    unit,
)
from arcade_collide.geometry.query.rays import (
    outline_of,
    ray_circle,
    ray_outline,
    ray_point,
    ray_rounded,
    ray_rounded_rect,
    round_of,
)
from arcade_collide.geometry.query.sat import _project
from arcade_collide.geometry.shapes import ShapeKind

_POINT, _CIRCLE, _RECT, _TRIANGLE, _POLYGON = (int(kind) for kind in ShapeKind)
_KINDS = len(ShapeKind)
_INF = math.inf
_F = types.float64
CAST: Any = types.Tuple((types.boolean, *(_F,) * 5))
"""``(hit, fraction, nx, ny, px, py)``."""
_MISS = (False, 0.0, 0.0, 0.0, 0.0, 0.0)
_OUTLINE = types.float64[:, ::1], types.int64, types.int64


@kernel(types.UniTuple(_F, 3)(types.float64[:, ::1], types.int64, *(_F,) * 4, types.boolean),
        inline=True)  # fmt: skip
def _support(
    v: FloatArray, n: int, nx: float, ny: float, sx: float, sy: float, low: bool
) -> tuple[float, float, float]:
    """The outline's face towards ``-(nx, ny)`` (``low``) or ``(nx, ny)``, moved by
    ``(sx, sy)``, as ``(level, first, last)``: its projection on the unit normal and its
    extent along the tangent ``(-ny, nx)``. A vertex within a relative 1e-9 of the
    extreme level belongs to the face (rounding would split a face in two)."""
    sign = -1.0 if low else 1.0
    level = -_INF
    size = 0.0
    for k in range(n):
        d = sign * (nx * (v[k, 0] + sx) + ny * (v[k, 1] + sy))
        level = max(level, d)
        size = max(size, abs(d))
    first = _INF
    last = -_INF
    for k in range(n):
        x = v[k, 0] + sx
        y = v[k, 1] + sy
        if sign * (nx * x + ny * y) >= level - 1e-9 * size:
            along = ny * -x + nx * y
            first = min(first, along)
            last = max(last, along)
    return sign * level, first, last


@kernel(CAST(*_OUTLINE, *_OUTLINE, _F, _F), inline=True)
def sat_cast(
    va: FloatArray, na: int, axes_a: int, vb: FloatArray, nb: int, axes_b: int,
    tx: float, ty: float,
) -> tuple[bool, float, float, float, float, float]:  # fmt: skip
    """Outline A moved along ``(tx, ty)`` against outline B (the module docstring's
    translational SAT); at the touch, the point is the middle of the shared part of
    the two faces that meet (a vertex, or where two parallel edges overlap)."""
    enter = -_INF
    leave = 1.0
    ax = ay = speed = 0.0
    for side in range(2):
        for e in range(axes_a if side == 0 else axes_b):
            nx, ny, max_a, min_a, max_b, min_b = _project(va, na, vb, nb, side, e)
            v = nx * tx + ny * ty
            if v == 0.0:
                if min_a > max_b or max_a < min_b:
                    return _MISS
                continue
            lo = (min_b - max_a) / v
            hi = (max_b - min_a) / v
            if v < 0.0:
                lo, hi = hi, lo
            if lo > enter:
                enter = lo
                ax, ay, speed = nx, ny, v
            leave = min(leave, hi)
            if enter > leave:
                return _MISS
    if leave < 0.0:
        return _MISS
    if enter <= 0.0:  # touching at the start: cast_rows reports the start contact
        return True, 0.0, 0.0, 0.0, 0.0, 0.0
    f = enter
    nx, ny = unit(ax, ay)
    if speed > 0.0:  # A comes from below B along the axis: the normal from B to A is -axis
        nx, ny = -nx, -ny
    level_a, first_a, last_a = _support(va, na, nx, ny, f * tx, f * ty, True)
    level_b, first_b, last_b = _support(vb, nb, nx, ny, 0.0, 0.0, False)
    level = 0.5 * (level_a + level_b)
    along = 0.5 * (max(first_a, first_b) + min(last_a, last_b))
    return True, f, nx, ny, level * nx - along * ny, level * ny + along * nx


@kernel(CAST(*(_F,) * 8), inline=True)
def cast_circles(
    xa: float, ya: float, ra: float, xb: float, yb: float, rb: float, tx: float, ty: float
) -> tuple[bool, float, float, float, float, float]:
    """A point or circle ``(xa, ya, ra)`` moved along ``(tx, ty)`` against the point or
    circle ``(xb, yb, rb)`` (a point's radius 0): A's centre as a ray against the circle
    of the summed radius round B's centre."""
    if ra + rb == 0.0:
        hit, f, nx, ny = ray_point(xb, yb, xa, ya, tx, ty, 1.0)
    else:
        hit, f, nx, ny = ray_circle(xb, yb, ra + rb, xa, ya, tx, ty, 1.0)
    return hit, f, nx, ny, xa + f * tx - ra * nx, ya + f * ty - ra * ny


@kernel(CAST(_F, _F, _F, ROWS, types.int64, _F, _F), inline=True)
def cast_round(
    xa: float, ya: float, ra: float, rows_b: WorldRows, b: int, tx: float, ty: float
) -> tuple[bool, float, float, float, float, float]:
    """A point or circle ``(xa, ya, ra)`` moved along ``(tx, ty)`` against row ``b`` of
    ``rows_b``: A's centre as a ray against B rounded by A's radius.

    A caller that holds A as numbers calls this rather than :func:`cast_pair`: a call
    that passes a table costs more than the cast itself, and B's outline is taken
    only where a ray needs it."""
    kind_b = rows_b.kinds[b]
    if kind_b <= _CIRCLE:
        xb, yb, rb = round_of(rows_b, b)
        return cast_circles(xa, ya, ra, xb, yb, rb, tx, ty)
    if ra > 0.0 and kind_b == _RECT:
        r = b - rows_b.start[_RECT]
        hit, f, nx, ny = ray_rounded_rect(rows_b, r, ra, xa, ya, tx, ty, 1.0)
    else:
        v, n, _, swap = outline_of(rows_b, b)
        if ra == 0.0:
            hit, f, nx, ny = ray_outline(v, n, swap, xa, ya, tx, ty, 1.0)
        else:
            hit, f, nx, ny = ray_rounded(v, n, swap, ra, xa, ya, tx, ty, 1.0)
    return hit, f, nx, ny, xa + f * tx - ra * nx, ya + f * ty - ra * ny


@kernel(CAST(ROWS, types.int64, ROWS, types.int64, _F, _F))
def cast_pair(
    rows_a: WorldRows, a: int, rows_b: WorldRows, b: int, tx: float, ty: float
) -> tuple[bool, float, float, float, float, float]:
    """Row ``a`` of ``rows_a`` moved along ``(tx, ty)`` against row ``b`` of ``rows_b``,
    by the method of its kind pair (the module docstring), without the start contact.

    Compiled once and called, not inlined: an inlined copy holds every kind pair's
    method and costs its caller tens of seconds of compilation, while the call adds a
    few percent to a cast of two outlines (``docs/decisions.md``)."""
    if rows_a.kinds[a] <= _CIRCLE:
        xa, ya, ra = round_of(rows_a, a)
        return cast_round(xa, ya, ra, rows_b, b, tx, ty)
    if rows_b.kinds[b] <= _CIRCLE:
        # B's centre moving along the reversed translation against A rounded by B's radius.
        xb, yb, rb = round_of(rows_b, b)
        hit, f, nx, ny, _, _ = cast_round(xb, yb, rb, rows_a, a, -tx, -ty)
        return hit, f, -nx, -ny, xb - rb * nx, yb - rb * ny
    va, na, axes_a, _ = outline_of(rows_a, a)
    vb, nb, axes_b, _ = outline_of(rows_b, b)
    return sat_cast(va, na, axes_a, vb, nb, axes_b, tx, ty)


@kernel(types.Tuple((ROWS, types.int64[::1], types.int64[::1]))(*(types.int64,) * 4), inline=True)
def pair_rows(
    kind_a: int, width_a: int, kind_b: int, width_b: int
) -> tuple[WorldRows, Int64Array, Int64Array]:
    """An unwritten two-row table for a shape of ``kind_a`` and one of ``kind_b`` (a
    polygon's width its vertex count, else 0), and the table rows of A and of B, each as
    a one-element array (as the dispatch chain takes them)."""
    kinds = np.empty(2, dtype=np.int8)
    kinds[0] = min(kind_a, kind_b)
    kinds[1] = max(kind_a, kind_b)
    i = np.zeros(1, dtype=np.int64)
    i[0] = 1 if kind_a > kind_b else 0
    return empty_rows(kinds, max(width_a, width_b)), i, 1 - i


@kernel(types.boolean(ROWS, types.int64, ROWS, types.int64, _F[::1]))
def start_contact(rows_a: WorldRows, a: int, rows_b: WorldRows, b: int, out: FloatArray) -> bool:
    """The contact of row ``a`` of ``rows_a`` with row ``b`` of ``rows_b`` into ``out``
    as ``(nx, ny, depth, px, py)`` (normal from A to B), through the dispatch chain on a
    two-row table holding copies of them; False when apart.

    Compiled once and called (only shapes touching at the start need it), not inlined
    into each caller: see :func:`cast_pair`."""
    kind_a = rows_a.kinds[a]
    kind_b = rows_b.kinds[b]
    width_a = rows_a.polygon_nverts[a - rows_a.start[kind_a]] if kind_a == _POLYGON else 0
    width_b = rows_b.polygon_nverts[b - rows_b.start[kind_b]] if kind_b == _POLYGON else 0
    pair, i, j = pair_rows(kind_a, width_a, kind_b, width_b)
    copy_row(rows_a, a, pair, i[0])
    copy_row(rows_b, b, pair, j[0])
    counts = np.zeros(SLOTS + 1, dtype=np.int64)
    counts[min(kind_a, kind_b) * _KINDS + max(kind_a, kind_b) + 1 :] = 1
    hit = np.empty(1, dtype=np.bool_)
    contact = np.zeros((1, 5))
    run_pairs(pair, i, j, np.zeros(1, dtype=np.int64), counts, True, hit, contact)
    out[:] = contact[0]
    return bool(hit[0])


@kernel(types.boolean(ROWS, types.int64, ROWS, types.int64, _F, _F, _F[::1]))
def cast_rows(
    rows_a: WorldRows, a: int, rows_b: WorldRows, b: int, tx: float, ty: float, out: FloatArray
) -> bool:
    """Table row ``a`` of ``rows_a`` moved along ``(tx, ty)`` against table row ``b`` of
    ``rows_b`` (the same table or another): False when they never touch, else the first
    touch into ``out`` as ``(fraction, px, py, nx, ny)``, the normal from B towards A.
    Touching or overlapping at the start gives fraction 0 and the reversed contact normal.
    """
    hit, f, nx, ny, px, py = cast_pair(rows_a, a, rows_b, b, tx, ty)
    if not hit:
        return False
    if f == 0.0:
        contact = np.empty(5)
        if start_contact(rows_a, a, rows_b, b, contact):
            nx, ny, px, py = -contact[0], -contact[1], contact[3], contact[4]
        elif tx == 0.0 and ty == 0.0:
            return False  # no motion and (by the pair test) apart
        else:
            nx, ny = unit(-tx, -ty)
    out[0] = f
    out[1] = px
    out[2] = py
    out[3] = nx + 0.0  # + 0.0: no negative zeros
    out[4] = ny + 0.0
    return True

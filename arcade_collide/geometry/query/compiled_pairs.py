"""The boolean pair tests as one compiled pass over the broad phase's candidate pairs.

:func:`touching_rows` decides, for every candidate pair of rows of a world table,
whether the two shapes touch: the layer/mask filter first, then the pose-centred
circles of :mod:`~arcade_collide.geometry.bounding_circles`, then the exact test of
the pair's shape types. It is the loop form of running
:func:`~arcade_collide.geometry.bounding_circles.classify` and
:func:`~arcade_collide.geometry.query.dispatch.intersects_batch` per type pair, and
gives the same booleans: each exact test below performs the floating-point operations
of its scalar form (``intersects_<a>_<b>``) in the same order, and the kernel is
compiled without fast-math, so no operation is fused or reordered. The tests check
it against ``intersects_batch`` pair type by pair type, touching cases included.

Used by the ECS when the compiled kernels are enabled (:mod:`..compiled`); the
dispatch table stays the public entry point and the reference.

The type switch in :func:`_touching` is the compiled counterpart of the dispatch
table: shape kinds are ordered (``kind(a) <= kind(b)``) before it, as the table's
reverse entries swap their arguments; a boolean needs no flip.

This module never imports esper or arcade.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry.arrays import (
    BoolArray,
    CircleArrays,
    FloatArray,
    PointArrays,
    PolygonArrays,
    RectArrays,
    ShapeArrays,
    TriangleArrays,
)
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.shapes import ShapeKind

Int64Array = NDArray[np.int64]

_POINT = 0
_CIRCLE = 1
_RECT = 2
_TRIANGLE = 3
"""Shape kinds as the kernels compare them (ShapeKind's values; a polygon is any other)."""


class WorldRows(NamedTuple):
    """A world table's shapes as the kernel reads them: one record per kind, each
    C-contiguous, empty (with the right number of axes) for kinds not present.

    Table row ``r`` of kind ``k`` is row ``r - start[k]`` of its kind's arrays.
    """

    kinds: NDArray[np.int8]
    start: Int64Array
    point_xy: FloatArray
    circle_center: FloatArray
    circle_radius: FloatArray
    rect_center: FloatArray
    rect_axis: FloatArray
    rect_half: FloatArray
    rect_vertices: FloatArray
    triangle_vertices: FloatArray
    polygon_vertices: FloatArray
    polygon_nverts: Int64Array


def world_rows(
    kinds: NDArray[np.int8], world: dict[ShapeKind, ShapeArrays], start: dict[ShapeKind, int]
) -> WorldRows:
    """Bundle a table's per-kind world records (``start``: first table row of each kind)."""
    starts = np.zeros(5, dtype=np.int64)
    for kind, first in start.items():
        starts[kind] = first
    points = world.get(ShapeKind.POINT)
    circles = world.get(ShapeKind.CIRCLE)
    rects = world.get(ShapeKind.RECT)
    triangles = world.get(ShapeKind.TRIANGLE)
    polygons = world.get(ShapeKind.POLYGON)
    two = np.empty((0, 2))
    c = np.ascontiguousarray
    return WorldRows(
        c(kinds, dtype=np.int8),
        starts,
        c(points.xy) if isinstance(points, PointArrays) else two,
        c(circles.center) if isinstance(circles, CircleArrays) else two,
        c(circles.radius) if isinstance(circles, CircleArrays) else np.empty(0),
        c(rects.center) if isinstance(rects, RectArrays) else two,
        c(rects.axis) if isinstance(rects, RectArrays) else two,
        c(rects.half) if isinstance(rects, RectArrays) else two,
        c(rects.vertices) if isinstance(rects, RectArrays) else np.empty((0, 4, 2)),
        c(triangles.vertices) if isinstance(triangles, TriangleArrays) else np.empty((0, 3, 2)),
        c(polygons.vertices) if isinstance(polygons, PolygonArrays) else np.empty((0, 3, 2)),
        c(polygons.nverts, dtype=np.int64)
        if isinstance(polygons, PolygonArrays)
        else np.empty(0, dtype=np.int64),
    )


@kernel("boolean(float64[:, ::1], int64, int64, float64[:, ::1], int64, int64)", inline=True)
def _sat(va: FloatArray, na: int, axes_a: int, vb: FloatArray, nb: int, axes_b: int) -> bool:
    """:func:`~._convex.sat_intersects` on the first ``na`` / ``nb`` vertices."""
    for side in range(2):
        v = va if side == 0 else vb
        n = na if side == 0 else nb
        count = axes_a if side == 0 else axes_b
        for e in range(count):
            x0 = v[e, 0]
            y0 = v[e, 1]
            f = e + 1 if e + 1 < n else 0
            nx = v[f, 1] - y0
            ny = x0 - v[f, 0]
            lo_a = hi_a = nx * va[0, 0] + ny * va[0, 1]
            for k in range(1, na):
                d = nx * va[k, 0] + ny * va[k, 1]
                lo_a = min(lo_a, d)
                hi_a = max(hi_a, d)
            lo_b = hi_b = nx * vb[0, 0] + ny * vb[0, 1]
            for k in range(1, nb):
                d = nx * vb[k, 0] + ny * vb[k, 1]
                lo_b = min(lo_b, d)
                hi_b = max(hi_b, d)
            if hi_a < lo_b or hi_b < lo_a:
                return False
    return True


@kernel("boolean(float64, float64, float64, float64[:, ::1], int64, boolean)", inline=True)
def _circle_convex(cx: float, cy: float, r: float, v: FloatArray, n: int, swap: bool) -> bool:
    """:func:`~._convex.circle_convex_intersects` on the first ``n`` vertices of ``v``,
    taken in the order 0, 2, 1 when ``swap`` (a clockwise triangle made
    counter-clockwise, as :func:`~._convex.counter_clockwise` does)."""
    rr = r * r
    inside = True
    within = False
    for e in range(n):
        s = (n - e) % n if swap else e
        f = (n - e - 1) % n if swap else (e + 1) % n
        px = v[s, 0]
        py = v[s, 1]
        ex = v[f, 0] - px
        ey = v[f, 1] - py
        wx = cx - px
        wy = cy - py
        cross = ex * wy - ey * wx
        len2 = ex * ex + ey * ey
        dot = wx * ex + wy * ey
        t = min(max(dot / len2, 0.0), 1.0) if len2 > 0.0 else 0.0
        dx = wx - t * ex
        dy = wy - t * ey
        inside = inside and cross >= 0.0
        d2 = dx * dx + dy * dy
        edge_within = cross * cross <= rr * len2 if 0.0 < dot < len2 else d2 <= rr
        within = within or edge_within
    return inside or within


@kernel("boolean(float64[:, ::1])", inline=True)
def _clockwise(v: FloatArray) -> bool:
    """Whether a triangle's vertices run clockwise (y up), as ``counter_clockwise`` tests."""
    ax = v[0, 0]
    ay = v[0, 1]
    return bool((v[1, 0] - ax) * (v[2, 1] - ay) - (v[1, 1] - ay) * (v[2, 0] - ax) < 0.0)


@kernel("boolean(float64, float64, float64[:, ::1])", inline=True)
def _point_in_triangle(px: float, py: float, v: FloatArray) -> bool:
    """``point_in_triangle_line_equation``: no two edge values of opposite signs."""
    ax = v[0, 0]
    ay = v[0, 1]
    bx = v[1, 0]
    by = v[1, 1]
    cx = v[2, 0]
    cy = v[2, 1]
    d1 = (by - ay) * (px - ax) + (ax - bx) * (py - ay)
    d2 = (cy - by) * (px - bx) + (bx - cx) * (py - by)
    d3 = (ay - cy) * (px - cx) + (cx - ax) * (py - cy)
    return not ((d1 < 0.0 or d2 < 0.0 or d3 < 0.0) and (d1 > 0.0 or d2 > 0.0 or d3 > 0.0))


@kernel("boolean(float64, float64, float64[:, ::1], int64)", inline=True)
def _point_in_polygon(px: float, py: float, v: FloatArray, n: int) -> bool:
    """``intersects_point_polygon``: left of or on every edge of the first ``n`` vertices."""
    sx = v[n - 1, 0]
    sy = v[n - 1, 1]
    for k in range(n):
        tx = v[k, 0]
        ty = v[k, 1]
        if (tx - sx) * (py - sy) - (ty - sy) * (px - sx) < 0.0:
            return False
        sx = tx
        sy = ty
    return True


@kernel("boolean(float64, float64, float64, float64, float64)", inline=True)
def _circle_rect_hit(lx: float, ly: float, hw: float, hh: float, r: float) -> bool:
    """``circle_rect._hit``: the seed's centre-line test in the rectangle's frame."""
    d1 = abs(ly)
    d2 = abs(lx)
    if d1 > hh + r or d2 > hw + r:
        return False
    if d1 <= hh or d2 <= hw:
        return True
    ex = d2 - hw
    ey = d1 - hh
    return bool(ex * ex + ey * ey <= r * r)


@kernel(
    "void(int64[::1], int64[::1], int8[::1], int64[::1], float64[:, ::1], float64[:, ::1],"
    " float64[::1], float64[:, ::1], float64[:, ::1], float64[:, ::1], float64[:, :, ::1],"
    " float64[:, :, ::1], float64[:, :, ::1], int64[::1], boolean, int64[::1], int64[::1],"
    " boolean, float64[::1], float64[::1], float64[::1], float64[::1], float64, boolean[::1])"
)
def _touching(
    i: Int64Array,
    j: Int64Array,
    kinds: NDArray[np.int8],
    start: Int64Array,
    point_xy: FloatArray,
    circle_center: FloatArray,
    circle_radius: FloatArray,
    rect_center: FloatArray,
    rect_axis: FloatArray,
    rect_half: FloatArray,
    rect_vertices: FloatArray,
    triangle_vertices: FloatArray,
    polygon_vertices: FloatArray,
    polygon_nverts: Int64Array,
    filtered: bool,
    layer: Int64Array,
    mask: Int64Array,
    circles: bool,
    origin_x: FloatArray,
    origin_y: FloatArray,
    inner: FloatArray,
    outer: FloatArray,
    slack: float,
    out: BoolArray,
) -> None:
    # The type switch is written out in the loop rather than in a function: a call
    # that takes the twelve record arrays costs more than most tests (numba counts a
    # reference per array argument, per call).
    for p in range(len(i)):
        a = i[p]
        b = j[p]
        if filtered and ((layer[a] & mask[b]) == 0 or (layer[b] & mask[a]) == 0):
            out[p] = False
            continue
        if circles:
            # bounding_circles.classify, operation for operation.
            dx = origin_x[b] - origin_x[a]
            dy = origin_y[b] - origin_y[a]
            d2 = dx * dx + dy * dy
            sure = (inner[a] + inner[b]) - slack
            if sure >= 0.0 and d2 <= sure * sure:
                out[p] = True
                continue
            reach = (outer[a] + outer[b]) + slack
            if d2 > reach * reach:
                out[p] = False
                continue
        ka = kinds[a]
        kb = kinds[b]
        if ka > kb:  # the table's reverse entries swap their arguments
            a, b = b, a
            ka, kb = kb, ka
        a -= start[ka]
        b -= start[kb]
        if ka == _POINT:
            px = point_xy[a, 0]
            py = point_xy[a, 1]
            if kb == _POINT:  # intersects_point_point
                hit = px == point_xy[b, 0] and py == point_xy[b, 1]
            elif kb == _CIRCLE:  # intersects_point_circle
                dx = circle_center[b, 0] - px
                dy = circle_center[b, 1] - py
                r = circle_radius[b]
                hit = dx * dx + dy * dy <= r * r
            elif kb == _RECT:  # intersects_point_rect
                cos = rect_axis[b, 0]
                sin = -rect_axis[b, 1]
                dx = px - rect_center[b, 0]
                dy = py - rect_center[b, 1]
                lx = dx * cos - dy * sin
                ly = dx * sin + dy * cos
                hit = abs(lx) <= rect_half[b, 0] and abs(ly) <= rect_half[b, 1]
            elif kb == _TRIANGLE:  # intersects_point_triangle (the line-equation method)
                hit = _point_in_triangle(px, py, triangle_vertices[b])
            else:  # intersects_point_polygon
                hit = _point_in_polygon(px, py, polygon_vertices[b], polygon_nverts[b])
        elif ka == _CIRCLE:
            cx = circle_center[a, 0]
            cy = circle_center[a, 1]
            r = circle_radius[a]
            if kb == _CIRCLE:  # intersects_circle_circle
                dx = circle_center[b, 0] - cx
                dy = circle_center[b, 1] - cy
                rs = r + circle_radius[b]
                hit = dx * dx + dy * dy <= rs * rs
            elif kb == _RECT:  # intersects_circle_rect, the centre-line method
                ax = rect_axis[b, 0]
                ay = rect_axis[b, 1]
                dx = cx - rect_center[b, 0]
                dy = cy - rect_center[b, 1]
                hit = _circle_rect_hit(
                    dx * ax + dy * ay, dy * ax - dx * ay, rect_half[b, 0], rect_half[b, 1], r
                )
            elif kb == _TRIANGLE:  # intersects_circle_triangle
                v = triangle_vertices[b]
                hit = _circle_convex(cx, cy, r, v, 3, _clockwise(v))
            else:  # intersects_circle_polygon
                hit = _circle_convex(cx, cy, r, polygon_vertices[b], polygon_nverts[b], False)
        else:  # convex against convex: intersects_rect_rect ... intersects_polygon_polygon
            # (Outline, vertex count and axis count picked inline, as in
            # compiled_contacts._contact: a helper returning them measured 0.3 ms
            # slower per pass over 12,000 candidates of the mixed 20,000 scene.)
            if ka == _RECT:
                va = rect_vertices[a]
                na = 4
                axes_a = 2
            elif ka == _TRIANGLE:
                va = triangle_vertices[a]
                na = 3
                axes_a = 3
            else:
                va = polygon_vertices[a]
                na = polygon_nverts[a]
                axes_a = na
            if kb == _RECT:
                vb = rect_vertices[b]
                nb = 4
                axes_b = 2
            elif kb == _TRIANGLE:
                vb = triangle_vertices[b]
                nb = 3
                axes_b = 3
            else:
                vb = polygon_vertices[b]
                nb = polygon_nverts[b]
                axes_b = nb
            hit = _sat(va, na, axes_a, vb, nb, axes_b)
        out[p] = hit


class PairFilter(NamedTuple):
    """Per-row collision filter bits: a pair passes when ``layer[a] & mask[b]`` and
    ``layer[b] & mask[a]`` are both non-zero."""

    layer: Int64Array
    mask: Int64Array


class PoseCircles(NamedTuple):
    """Per-row pose origins and inner/outer radii (see
    :mod:`~arcade_collide.geometry.bounding_circles`), with the absolute ``slack``."""

    origin_x: FloatArray
    origin_y: FloatArray
    inner: FloatArray
    outer: FloatArray
    slack: float


def touching_rows(
    i: Int64Array,
    j: Int64Array,
    rows: WorldRows,
    pair_filter: PairFilter | None = None,
    circles: PoseCircles | None = None,
) -> BoolArray:
    """Which candidate pairs ``(i[p], j[p])`` of table rows touch (closed shapes).

    Args:
        i: Table rows of one side of the pairs (int64).
        j: Table rows of the other side.
        rows: The table's shapes (:func:`world_rows`).
        pair_filter: Layer/mask bits; pairs it rejects are not touching.
        circles: Pose circles to decide most pairs without the exact test (the same
            answers, sooner).

    Returns:
        ``(M,)`` booleans, equal to ``intersects_batch`` on the same pairs.

    >>> from arcade_collide.geometry.arrays import pack
    >>> from arcade_collide.geometry.shapes import Circle, Rect
    >>> kinds = np.array([ShapeKind.CIRCLE, ShapeKind.CIRCLE, ShapeKind.RECT], dtype=np.int8)
    >>> world = {ShapeKind.CIRCLE: pack([Circle(1), Circle(1)], [(0, 0), (2, 0)]),
    ...          ShapeKind.RECT: pack([Rect(2, 2)], [(5, 0)])}
    >>> rows = world_rows(kinds, world, {ShapeKind.CIRCLE: 0, ShapeKind.RECT: 2})
    >>> pairs = np.array([0, 0, 1]), np.array([1, 2, 2])  # touching, a miss, a miss
    >>> touching_rows(*pairs, rows).tolist()
    [True, False, False]
    """
    out = np.empty(len(i), dtype=np.bool_)
    none = np.empty(0, dtype=np.int64)
    nowhere = np.empty(0)
    f = pair_filter if pair_filter is not None else PairFilter(none, none)
    c = circles if circles is not None else PoseCircles(nowhere, nowhere, nowhere, nowhere, 0.0)
    floats = [np.ascontiguousarray(v, dtype=np.float64) for v in c[:4]]
    # (Uncompiled, numpy scalars would warn where the compiled code quietly yields
    # infinities or NaN, as the numpy kernels do under their own errstate.)
    with np.errstate(all="ignore"):
        _touching(
            np.ascontiguousarray(i, dtype=np.int64),
            np.ascontiguousarray(j, dtype=np.int64),
            *rows,
            pair_filter is not None,
            np.ascontiguousarray(f.layer, dtype=np.int64),
            np.ascontiguousarray(f.mask, dtype=np.int64),
            circles is not None,
            floats[0],
            floats[1],
            floats[2],
            floats[3],
            float(c.slack),
            out,
        )
    return out


@kernel("void(int64[::1], int64[::1], int64[::1], int64[::1], int64[::1])")
def _pair_order(
    i: Int64Array, j: Int64Array, rank: Int64Array, counts: Int64Array, order: Int64Array
) -> None:
    m = len(i)
    counts[:] = 0
    for p in range(m):
        counts[min(rank[i[p]], rank[j[p]]) + 1] += 1
    for r in range(1, len(counts)):
        counts[r] += counts[r - 1]
    # Counting sort by the lower rank (stable), then an insertion pass by the higher
    # rank, which only moves pairs within their (small) groups.
    for p in range(m):
        low = min(rank[i[p]], rank[j[p]])
        order[counts[low]] = p
        counts[low] += 1
    for p in range(1, m):
        q = order[p]
        low = min(rank[i[q]], rank[j[q]])
        high = max(rank[i[q]], rank[j[q]])
        k = p - 1
        while k >= 0:
            s = order[k]
            s_low = min(rank[i[s]], rank[j[s]])
            if s_low < low or (s_low == low and max(rank[i[s]], rank[j[s]]) <= high):
                break
            order[k + 1] = s
            k -= 1
        order[k + 1] = q


def pair_order(i: Int64Array, j: Int64Array, rank: Int64Array) -> Int64Array:
    """The order that sorts pairs by ``(min(rank[i], rank[j]), max(rank[i], rank[j]))``.

    Linear time for pairs with few partners per row: a counting sort on the lower rank,
    then insertion within each group. Ties keep their input order.

    Args:
        i: One side of the pairs (row indices).
        j: The other side.
        rank: A rank per row, each of ``0 .. len(rank) - 1`` once.

    >>> rank = np.array([0, 2, 1])  # row 1 ranks last
    >>> pair_order(np.array([1, 0, 2]), np.array([2, 1, 0]), rank).tolist()
    [2, 1, 0]
    """
    order = np.empty(len(i), dtype=np.int64)
    counts = np.empty(len(rank) + 1, dtype=np.int64)
    _pair_order(
        np.ascontiguousarray(i, dtype=np.int64),
        np.ascontiguousarray(j, dtype=np.int64),
        np.ascontiguousarray(rank, dtype=np.int64),
        counts,
        order,
    )
    return order

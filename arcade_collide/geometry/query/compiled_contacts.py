"""The pair contacts as one compiled pass over touching pairs of a world table.

:func:`contact_rows` computes, for pairs of table rows, what
:func:`~arcade_collide.geometry.query.dispatch.contact_batch` computes for them: the
normal from A to B, the depth and the point, with zeros where a pair does not touch.
Each function below performs the floating-point operations of its scalar form
(``contact_<a>_<b>``) in the same order; where the scalar form takes Python's
``min``/``max`` (which keep the first argument on ties, so ``max(-0.0, 0.0)`` is
``-0.0``), :func:`_first_min` and :func:`_first_max` do the same. The only library
function is the square root, correctly rounded everywhere. So the results equal the
scalar contacts, and the batch contacts bit for bit but for the sign of a zero (the
batch kernels' block reductions may keep the other zero of a ``-0.0``/``0.0`` tie;
adding ``0.0`` makes them identical). The tests check them pair type by pair type.

Used by the ECS for the contacts of its events when the compiled kernels are enabled
(:mod:`..compiled`); the dispatch table stays the public entry point and reference.

This module never imports esper or arcade.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query._convex import NEAR_EDGE, TINY_SQUARED
from arcade_collide.geometry.query.circle_circle import _UP
from arcade_collide.geometry.query.compiled_pairs import (
    _CIRCLE,
    _POINT,
    _RECT,
    _TRIANGLE,
    Int64Array,
    WorldRows,
    _circle_rect_hit,
    _clockwise,
    _point_in_polygon,
    _point_in_triangle,
)

_INF = math.inf


@kernel("float64(float64, float64)")
def _first_min(a: float, b: float) -> float:
    """Python's ``min(a, b)``: ``a`` unless ``b < a``."""
    return b if b < a else a


@kernel("float64(float64, float64)")
def _first_max(a: float, b: float) -> float:
    """Python's ``max(a, b)``: ``a`` unless ``b > a``."""
    return b if b > a else a


@kernel("void(float64[::1], float64, float64, float64, float64, float64)")
def _put(out: FloatArray, nx: float, ny: float, depth: float, px: float, py: float) -> None:
    out[0] = nx
    out[1] = ny
    out[2] = depth
    out[3] = px
    out[4] = py


@kernel(
    "int64(float64[:, ::1], int64, int64, float64[:, ::1], int64, int64, boolean,"
    " float64[::1])"
)
def _sat_contact(
    va: FloatArray,
    na: int,
    axes_a: int,
    vb: FloatArray,
    nb: int,
    axes_b: int,
    flip: bool,
    out: FloatArray,
) -> int:
    """``_convex._sat``: 0 when separated, else the contact into ``out`` (its normal
    reversed when ``flip``, as ``Contact.flipped`` does) and 2 if a tie decided it, 1 if
    not."""
    best = _INF
    best_a = _INF
    best_b = _INF
    k_side = 0
    k_edge = 0
    k_forward = 0.0
    k_backward = 0.0
    first = True
    for side in range(2):
        v = va if side == 0 else vb
        n = na if side == 0 else nb
        for e in range(axes_a if side == 0 else axes_b):
            x0 = v[e, 0]
            y0 = v[e, 1]
            f = e + 1 if e + 1 < n else 0
            nx = v[f, 1] - y0
            ny = x0 - v[f, 0]
            max_a = min_a = nx * va[0, 0] + ny * va[0, 1]
            for k in range(1, na):
                d = nx * va[k, 0] + ny * va[k, 1]
                max_a = _first_max(max_a, d)
                min_a = _first_min(min_a, d)
            max_b = min_b = nx * vb[0, 0] + ny * vb[0, 1]
            for k in range(1, nb):
                d = nx * vb[k, 0] + ny * vb[k, 1]
                max_b = _first_max(max_b, d)
                min_b = _first_min(min_b, d)
            if max_a < min_b or max_b < min_a:
                return 0
            forward = max_a - min_b
            backward = max_b - min_a
            overlap = forward if forward <= backward else backward
            len2 = nx * nx + ny * ny
            rank = overlap * (overlap / len2) if len2 > 0.0 else _INF
            # min(ranks) and ranks.index(best): the first smallest rank.
            if first or rank < best:
                best = rank
                k_side = side
                k_edge = e
                k_forward = forward
                k_backward = backward
                first = False
            if side == 0:
                best_a = _first_min(best_a, rank) if e > 0 else rank
            else:
                best_b = _first_min(best_b, rank) if e > 0 else rank
    tie = (axes_a > 0 and best_a == best and axes_b > 0 and best_b == best) or (
        k_forward == k_backward
    )
    v = va if k_side == 0 else vb
    n = na if k_side == 0 else nb
    f = k_edge + 1 if k_edge + 1 < n else 0
    nx = v[f, 1] - v[k_edge, 1]
    ny = v[k_edge, 0] - v[f, 0]
    length = math.sqrt(nx * nx + ny * ny)
    sign = 1.0 if k_forward <= k_backward else -1.0
    depth = (k_forward if sign > 0.0 else k_backward) / length
    ux = nx / length * sign + 0.0
    uy = ny / length * sign + 0.0
    # _sat_point: midway between the surfaces along u, mid-overlap along t.
    tx = -uy
    ty = ux
    top_a = ux * va[0, 0] + uy * va[0, 1]
    lo_ta = hi_ta = tx * va[0, 0] + ty * va[0, 1]
    for k in range(1, na):
        top_a = _first_max(top_a, ux * va[k, 0] + uy * va[k, 1])
        t = tx * va[k, 0] + ty * va[k, 1]
        lo_ta = _first_min(lo_ta, t)
        hi_ta = _first_max(hi_ta, t)
    low_b = ux * vb[0, 0] + uy * vb[0, 1]
    lo_tb = hi_tb = tx * vb[0, 0] + ty * vb[0, 1]
    for k in range(1, nb):
        low_b = _first_min(low_b, ux * vb[k, 0] + uy * vb[k, 1])
        t = tx * vb[k, 0] + ty * vb[k, 1]
        lo_tb = _first_min(lo_tb, t)
        hi_tb = _first_max(hi_tb, t)
    s_n = (top_a + low_b) * 0.5
    s_t = (_first_max(lo_ta, lo_tb) + _first_min(hi_ta, hi_tb)) * 0.5
    px = ux * s_n + tx * s_t
    py = uy * s_n + ty * s_t
    if flip:
        ux = -ux
        uy = -uy
    _put(out, ux, uy, _first_max(depth, 0.0), px, py)
    return 2 if tie else 1


@kernel("boolean(float64[:, ::1], int64, float64[:, ::1], int64)")
def _key_less(vb: FloatArray, nb: int, va: FloatArray, na: int) -> bool:
    """``outline_key(vb) < outline_key(va)``: vertex count, then coordinates in order."""
    if nb != na:
        return nb < na
    for k in range(nb):
        for c in range(2):
            if vb[k, c] != va[k, c]:
                return bool(vb[k, c] < va[k, c])
    return False


@kernel(
    "boolean(float64[:, ::1], int64, int64, float64[:, ::1], int64, int64, boolean,"
    " float64[::1])"
)
def _convex_contact(
    va: FloatArray,
    na: int,
    axes_a: int,
    vb: FloatArray,
    nb: int,
    axes_b: int,
    canonical: bool,
    out: FloatArray,
) -> bool:
    """``_convex.sat_contact`` (``canonical`` for same-type pairs); False when apart."""
    found = _sat_contact(va, na, axes_a, vb, nb, axes_b, False, out)
    if canonical and found == 2 and _key_less(vb, nb, va, na):
        _sat_contact(vb, nb, axes_b, va, na, axes_a, True, out)
    return found > 0


@kernel("boolean(float64, float64, float64, float64[:, ::1], int64, boolean, float64[::1])")
def _circle_convex_contact(
    cx: float, cy: float, r: float, v: FloatArray, n: int, swap: bool, out: FloatArray
) -> bool:
    """``_convex.circle_convex_contact`` on the first ``n`` vertices (order 0, 2, 1 when
    ``swap``, a clockwise triangle made counter-clockwise); False when apart."""
    rr = r * r
    inside = True
    within = False
    d2_min = _INF
    k_min = 0
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
        t = _first_min(_first_max(dot / len2, 0.0), 1.0) if len2 > 0.0 else 0.0
        dx = wx - t * ex
        dy = wy - t * ey
        inside = inside and cross >= 0.0
        d2 = dx * dx + dy * dy
        edge_within = cross * cross <= rr * len2 if 0.0 < dot < len2 else d2 <= rr
        within = within or edge_within
        # min(d2s) and d2s.index(min): the first smallest.
        if e == 0 or d2 < d2_min:
            d2_min = d2
            k_min = e
    if not (inside or within):
        return False
    d2 = d2_min
    near = NEAR_EDGE * (abs(cx) + abs(cy) + r)
    if inside or d2 <= near * near:
        best = _INF
        k = 0
        for e in range(n):
            s = (n - e) % n if swap else e
            f = (n - e - 1) % n if swap else (e + 1) % n
            px = v[s, 0]
            py = v[s, 1]
            ex = v[f, 0] - px
            ey = v[f, 1] - py
            cross = ex * (cy - py) - ey * (cx - px)
            length = math.sqrt(ex * ex + ey * ey)
            dist = cross / length if length > 0.0 else _INF
            if dist < best:
                best = dist
                k = e
        s_k = (n - k) % n if swap else k
        f_k = (n - k - 1) % n if swap else (k + 1) % n
        ex = v[f_k, 0] - v[s_k, 0]
        ey = v[f_k, 1] - v[s_k, 1]
        length = math.sqrt(ex * ex + ey * ey)
        nx = (v[s_k, 1] - v[f_k, 1]) / length
        ny = (v[f_k, 0] - v[s_k, 0]) / length
        depth = r + best
        qx = cx - best * nx
        qy = cy - best * ny
    else:
        s_k = (n - k_min) % n if swap else k_min
        f_k = (n - k_min - 1) % n if swap else (k_min + 1) % n
        px = v[s_k, 0]
        py = v[s_k, 1]
        ex = v[f_k, 0] - px
        ey = v[f_k, 1] - py
        wx = cx - px
        wy = cy - py
        len2 = ex * ex + ey * ey
        dot = wx * ex + wy * ey
        t = _first_min(_first_max(dot / len2, 0.0), 1.0) if len2 > 0.0 else 0.0
        dx = wx - t * ex
        dy = wy - t * ey
        d = math.sqrt(d2)
        nx = (0.0 - dx) / d
        ny = (0.0 - dy) / d
        qx = cx - dx
        qy = cy - dy
        depth = r - d
    _put(out, nx, ny, _first_max(depth, 0.0), (cx + nx * r + qx) * 0.5, (cy + ny * r + qy) * 0.5)
    return True


@kernel(
    "boolean(int64, int64, int64, int64, float64[:, ::1],"
    " float64[:, ::1], float64[::1], float64[:, ::1], float64[:, ::1], float64[:, ::1],"
    " float64[:, :, ::1], float64[:, :, ::1], float64[:, :, ::1], int64[::1], float64[::1])"
)
def _contact(
    ka: int,
    kb: int,
    a: int,
    b: int,
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
    out: FloatArray,
) -> bool:
    """The contact of kind-ordered rows ``a`` (kind ``ka``) and ``b`` (``kb >= ka``) of
    their kinds' records into ``out`` (nx, ny, depth, px, py); False (``out``
    untouched) when they do not touch. Called for a few pairs (new contacts), so its
    many array arguments cost little."""
    if ka == _POINT:
        px = point_xy[a, 0]
        py = point_xy[a, 1]
        if kb == _POINT:  # contact_point_point
            if px != point_xy[b, 0] or py != point_xy[b, 1]:
                return False
            _put(out, 1.0, 0.0, 0.0, px, py)
        elif kb == _CIRCLE:  # contact_point_circle
            dx = circle_center[b, 0] - px
            dy = circle_center[b, 1] - py
            r = circle_radius[b]
            dist_sq = dx * dx + dy * dy
            if dist_sq > r * r:
                return False
            dist = math.sqrt(dist_sq)
            depth = _first_max(r - dist, 0.0)
            nx = 1.0
            ny = 0.0
            if dist > 0.0:
                nx = dx / dist
                ny = dy / dist
            half = depth * 0.5
            _put(out, nx, ny, depth, px - nx * half, py - ny * half)
        elif kb == _RECT:  # contact_point_rect
            cos = rect_axis[b, 0]
            sin = -rect_axis[b, 1]
            dx = px - rect_center[b, 0]
            dy = py - rect_center[b, 1]
            lx = dx * cos - dy * sin
            ly = dx * sin + dy * cos
            hw = rect_half[b, 0]
            hh = rect_half[b, 1]
            if abs(lx) > hw or abs(ly) > hh:
                return False
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
            _put(out, 0.0 - ox, 0.0 - oy, depth, px + ox * half, py + oy * half)
        elif kb == _TRIANGLE:  # contact_point_triangle: out through the nearest edge
            v = triangle_vertices[b]
            if not _point_in_triangle(px, py, v):
                return False
            ax = v[0, 0]
            ay = v[0, 1]
            turn = (v[1, 0] - ax) * (v[2, 1] - ay) - (v[1, 1] - ay) * (v[2, 0] - ax)
            side = 1.0 if turn > 0.0 else -1.0
            best_depth = _INF
            ox = 0.0
            oy = 0.0
            for e in range(3):
                f = e + 1 if e < 2 else 0
                sx = v[e, 0]
                sy = v[e, 1]
                tx = v[f, 0]
                ty = v[f, 1]
                ex = tx - sx
                ey = ty - sy
                length = math.sqrt(ex * ex + ey * ey)
                if length == 0.0:
                    continue
                depth = abs((sx - px) * (ty - py) - (tx - px) * (sy - py)) / length
                if depth < best_depth:
                    best_depth = depth
                    ox = ey / length * side
                    oy = -ex / length * side
            half = best_depth * 0.5
            _put(out, 0.0 - ox, 0.0 - oy, best_depth, px + ox * half, py + oy * half)
        else:  # contact_point_polygon: out through the nearest edge
            v = polygon_vertices[b]
            n = polygon_nverts[b]
            if not _point_in_polygon(px, py, v, n):
                return False
            best_depth = _INF
            ox = 0.0
            oy = 0.0
            for e in range(n):
                f = e + 1 if e + 1 < n else 0
                sx = v[e, 0]
                sy = v[e, 1]
                tx = v[f, 0]
                ty = v[f, 1]
                cross = (tx - sx) * (py - sy) - (ty - sy) * (px - sx)
                ex = tx - sx
                ey = ty - sy
                length = math.sqrt(ex * ex + ey * ey)
                if length == 0.0:
                    continue
                depth = cross / length
                if depth < best_depth:
                    best_depth = depth
                    ox = ey / length
                    oy = -ex / length
            half = best_depth * 0.5
            _put(out, 0.0 - ox, 0.0 - oy, best_depth, px + ox * half, py + oy * half)
        return True
    if ka == _CIRCLE:
        cx = circle_center[a, 0]
        cy = circle_center[a, 1]
        r = circle_radius[a]
        if kb == _CIRCLE:  # contact_circle_circle
            bx = circle_center[b, 0]
            by = circle_center[b, 1]
            rb = circle_radius[b]
            dx = bx - cx
            dy = by - cy
            d2 = dx * dx + dy * dy
            rs = r + rb
            if d2 > rs * rs:
                return False
            d = math.sqrt(d2)
            if d2 >= TINY_SQUARED:
                nx = dx / d
                ny = dy / d
            elif dx != 0.0 or dy != 0.0:
                sx = dx * _UP
                sy = dy * _UP
                ds = math.sqrt(sx * sx + sy * sy)
                nx = sx / ds
                ny = sy / ds
            else:
                nx = 1.0 if r <= rb else -1.0
                ny = 0.0
            _put(
                out, nx, ny, _first_max(rs - d, 0.0),
                (cx + nx * r + (bx - nx * rb)) * 0.5, (cy + ny * r + (by - ny * rb)) * 0.5,
            )
            return True
        if kb == _RECT:  # contact_circle_rect
            ax = rect_axis[b, 0]
            ay = rect_axis[b, 1]
            bx = rect_center[b, 0]
            by = rect_center[b, 1]
            dx = cx - bx
            dy = cy - by
            lx = dx * ax + dy * ay
            ly = dy * ax - dx * ay
            hw = rect_half[b, 0]
            hh = rect_half[b, 1]
            if not _circle_rect_hit(lx, ly, hw, hh, r):
                return False
            d1 = abs(ly)
            d2 = abs(lx)
            sx = 1.0 if lx >= 0.0 else -1.0
            sy = 1.0 if ly >= 0.0 else -1.0
            qx = _first_min(_first_max(lx, -hw), hw)
            qy = _first_min(_first_max(ly, -hh), hh)
            gx = qx - lx
            gy = qy - ly
            g2 = gx * gx + gy * gy
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
            qwx = bx + (qx * ax - qy * ay)
            qwy = by + (qx * ay + qy * ax)
            _put(
                out, nx, ny, _first_max(depth, 0.0),
                (cx + nx * r + qwx) * 0.5, (cy + ny * r + qwy) * 0.5,
            )
            return True
        if kb == _TRIANGLE:  # contact_circle_triangle
            v = triangle_vertices[b]
            return _circle_convex_contact(cx, cy, r, v, 3, _clockwise(v), out)
        return _circle_convex_contact(  # contact_circle_polygon
            cx, cy, r, polygon_vertices[b], polygon_nverts[b], False, out
        )
    # Convex against convex: contact_rect_rect ... contact_polygon_polygon.
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
    return _convex_contact(va, na, axes_a, vb, nb, axes_b, ka == kb, out)


@kernel(
    "void(int64[::1], int64[::1], int8[::1], int64[::1], float64[:, ::1], float64[:, ::1],"
    " float64[::1], float64[:, ::1], float64[:, ::1], float64[:, ::1], float64[:, :, ::1],"
    " float64[:, :, ::1], float64[:, :, ::1], int64[::1], boolean[::1], float64[:, ::1])"
)
def _contacts(
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
    hit: BoolArray,
    out: FloatArray,
) -> None:
    for p in range(len(i)):
        a = i[p]
        b = j[p]
        ka = kinds[a]
        kb = kinds[b]
        swapped = ka > kb
        if swapped:
            a, b = b, a
            ka, kb = kb, ka
        ra = a - start[ka]
        rb = b - start[kb]
        row = out[p]
        touching = _contact(
            ka, kb, ra, rb, point_xy, circle_center, circle_radius,
            rect_center, rect_axis, rect_half, rect_vertices, triangle_vertices,
            polygon_vertices, polygon_nverts, row,
        )
        hit[p] = touching
        if not touching:
            _put(row, 0.0, 0.0, 0.0, 0.0, 0.0)
            continue
        if swapped:  # the reverse order flips the result, as the dispatch table does
            row[0] = -row[0]
            row[1] = -row[1]


def contact_rows(
    i: Int64Array, j: Int64Array, rows: WorldRows
) -> tuple[BoolArray, FloatArray, FloatArray, FloatArray]:
    """Contacts of the pairs of table rows ``(i[p], j[p])``, normals from ``i`` to ``j``.

    Args:
        i: Table rows of side A.
        j: Table rows of side B.
        rows: The table's shapes (:func:`~.compiled_pairs.world_rows`).

    Returns:
        ``(hit, normal, depth, point)`` as in
        :class:`~arcade_collide.geometry.arrays.BatchContacts`: ``(M,)``, ``(M, 2)``,
        ``(M,)``, ``(M, 2)``, zeros where a pair does not touch; equal to
        ``contact_batch`` on the same pairs (bit for bit once zeros are made positive).

    >>> from arcade_collide.geometry.arrays import pack
    >>> from arcade_collide.geometry.query.compiled_pairs import world_rows
    >>> from arcade_collide.geometry.shapes import Circle, ShapeKind
    >>> kinds = np.full(3, ShapeKind.CIRCLE, dtype=np.int8)
    >>> rows = world_rows(kinds, {ShapeKind.CIRCLE: pack([Circle(1)] * 3,
    ...                   [(0, 0), (1.5, 0), (5, 0)])}, {ShapeKind.CIRCLE: 0})
    >>> hit, normal, depth, point = contact_rows(np.array([0, 0]), np.array([1, 2]), rows)
    >>> hit.tolist(), normal.tolist(), depth.tolist(), point.tolist()  # a hit, a miss
    ([True, False], [[1.0, 0.0], [0.0, 0.0]], [0.5, 0.0], [[0.75, 0.0], [0.0, 0.0]])
    """
    m = len(i)
    hit = np.empty(m, dtype=np.bool_)
    out = np.empty((m, 5), dtype=np.float64)
    # (Uncompiled, numpy scalars would warn where the compiled code quietly yields
    # infinities or NaN, as the numpy kernels do under their own errstate.)
    with np.errstate(all="ignore"):
        _contacts(
            np.ascontiguousarray(i, dtype=np.int64),
            np.ascontiguousarray(j, dtype=np.int64),
            *rows,
            hit,
            out,
        )
    return hit, out[:, 0:2].copy(), out[:, 2].copy(), out[:, 3:5].copy()

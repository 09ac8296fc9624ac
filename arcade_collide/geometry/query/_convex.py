"""Shared cores of the pair tests: SAT for two convex outlines, circle against a convex outline.

Rectangles, triangles and polygons are all reduced to a convex outline (a list of
world vertices) here, as Box2D reduces a box to a polygon; each pair module keeps
its own named functions and only calls into these cores.

Every core comes twice, a scalar form (plain floats, early exits) and a batch form
(numpy over ``M`` rows). The two perform the same floating-point operations in the
same order, so the batch boolean equals the scalar boolean exactly and the batch
contact equals the scalar contact bit for bit.

Conventions shared by every core (see :class:`~arcade_collide.geometry.contact.Contact`):

* closed sets: a separation test uses strict ``<``, so touching shapes collide;
* the normal points from A to B; translating B by ``normal * depth`` leaves the
  shapes touching; ``depth`` is clamped at ``0.0`` from below;
* ties are broken by the lowest index (first axis, first vertex, first edge).

This module is private: the public names live in the pair modules and in
:mod:`arcade_collide.geometry.query.dispatch`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

import numpy as np

from arcade_collide.geometry.arrays import BatchContacts, BoolArray, FloatArray, IntArray
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.pose import Vec2, rotation, to_world

_Rows = TypeVar("_Rows", FloatArray, BoolArray)

Outline = list[Vec2]
"""World vertices of a convex shape, in order around the outline."""


# ---------------------------------------------------------------------------
# Scalar helpers
# ---------------------------------------------------------------------------


def world_outline(local: Sequence[Vec2], pose: tuple[float, float, float]) -> Outline:
    """World vertices of local offsets under a validated pose (same arithmetic as ``pack``)."""
    x, y, angle = pose
    cos, sin = rotation(angle)
    return [to_world(p, x, y, cos, sin) for p in local]


def counter_clockwise(outline: Outline) -> Outline:
    """A triangle's outline reordered counter-clockwise (y up); other windings kept as given."""
    (ax, ay), (bx, by), (cx, cy) = outline
    if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) < 0.0:
        return [outline[0], outline[2], outline[1]]
    return outline


def outline_key(outline: Outline) -> tuple[float, ...]:
    """Canonical ordering key of an outline: vertex count, then the coordinates in order."""
    key: list[float] = [float(len(outline))]
    for x, y in outline:
        key.append(x)
        key.append(y)
    return tuple(key)


def sat_intersects(va: Outline, vb: Outline) -> bool:
    """Separating-axis test of two convex outlines (Ericson, RTCD 5.2.1 / 4.4.1).

    Two convex sets are disjoint exactly when some edge normal of either one
    separates their projections, so testing the edge normals of both outlines is
    exact; containment is caught because no axis then separates.
    """
    for owner in (va, vb):
        n = len(owner)
        for i in range(n):
            x0, y0 = owner[i]
            x1, y1 = owner[(i + 1) % n]
            nx = y1 - y0
            ny = x0 - x1
            pa = [nx * x + ny * y for x, y in va]
            pb = [nx * x + ny * y for x, y in vb]
            if max(pa) < min(pb) or max(pb) < min(pa):
                return False
    return True


def sat_contact(va: Outline, vb: Outline) -> Contact | None:
    """SAT contact of two convex outlines: minimum-overlap axis, normal from A to B.

    Axes are A's edge normals in edge order, then B's. On each axis the overlap
    is ``max(A) - min(B)`` when B lies on the positive side (ties choose the
    positive side) else ``max(B) - min(A)``; depth is the overlap divided by the
    axis length and the smallest depth wins (first axis on ties). For convex
    outlines that minimum is the penetration depth (RTCD 5.2.1).

    The point is defined in the frame of the unit normal ``u`` and its tangent
    ``t = (-u.y, u.x)``: along ``u`` it is midway between A's furthest extent
    along ``u`` and B's furthest extent against it (the two surfaces, ``depth``
    apart); along ``t`` it is the middle of the interval where the two shapes'
    shadows on ``t`` overlap. It depends continuously on the shapes and does not
    single out an arbitrary vertex when edges lie flat against each other.
    """
    best_depth = math.inf
    best: tuple[float, float, float, float] | None = None
    for owner in (va, vb):
        n = len(owner)
        for i in range(n):
            x0, y0 = owner[i]
            x1, y1 = owner[(i + 1) % n]
            nx = y1 - y0
            ny = x0 - x1
            pa = [nx * x + ny * y for x, y in va]
            pb = [nx * x + ny * y for x, y in vb]
            max_a = max(pa)
            min_a = min(pa)
            max_b = max(pb)
            min_b = min(pb)
            if max_a < min_b or max_b < min_a:
                return None
            forward = max_a - min_b
            backward = max_b - min_a
            length = math.sqrt(nx * nx + ny * ny)
            if forward <= backward:
                depth = forward / length
                sign = 1.0
            else:
                depth = backward / length
                sign = -1.0
            if depth < best_depth:
                best_depth = depth
                best = (nx, ny, length, sign)
    if best is None:  # unreachable for real outlines (they have edges); kept for the type checker
        return None
    nx, ny, length, sign = best
    # Adding 0.0 turns a -0.0 component into 0.0 (cosmetic; -0.0 == 0.0 anyway).
    ux = nx / length * sign + 0.0
    uy = ny / length * sign + 0.0
    return Contact((ux, uy), max(best_depth, 0.0), _sat_point(ux, uy, va, vb))


def _sat_point(ux: float, uy: float, va: Outline, vb: Outline) -> Vec2:
    """The SAT contact point for unit normal ``(ux, uy)`` (see :func:`sat_contact`)."""
    tx = -uy
    ty = ux
    s_n = (max(ux * x + uy * y for x, y in va) + min(ux * x + uy * y for x, y in vb)) * 0.5
    ta = [tx * x + ty * y for x, y in va]
    tb = [tx * x + ty * y for x, y in vb]
    s_t = (max(min(ta), min(tb)) + min(max(ta), max(tb))) * 0.5
    return (ux * s_n + tx * s_t, uy * s_n + ty * s_t)


def _circle_edges(
    cx: float, cy: float, ccw: Outline
) -> tuple[bool, list[float], list[float], list[float], list[float], list[float]]:
    """Per edge of a counter-clockwise outline: closest point to (cx, cy) and its squared distance.

    Returns ``(inside, d2, qx, qy, cross, len2)`` where ``cross >= 0`` on every
    edge means the centre is inside or on the outline (closed set).
    """
    n = len(ccw)
    inside = True
    d2s: list[float] = []
    qxs: list[float] = []
    qys: list[float] = []
    crosses: list[float] = []
    len2s: list[float] = []
    for i in range(n):
        px, py = ccw[i]
        x1, y1 = ccw[(i + 1) % n]
        ex = x1 - px
        ey = y1 - py
        wx = cx - px
        wy = cy - py
        cross = ex * wy - ey * wx
        len2 = ex * ex + ey * ey
        # Closest point on the segment (RTCD 5.1.2): clamp the projection parameter to [0, 1].
        t = min(max((wx * ex + wy * ey) / len2, 0.0), 1.0)
        qx = px + t * ex
        qy = py + t * ey
        dx = cx - qx
        dy = cy - qy
        inside = inside and cross >= 0.0
        d2s.append(dx * dx + dy * dy)
        qxs.append(qx)
        qys.append(qy)
        crosses.append(cross)
        len2s.append(len2)
    return inside, d2s, qxs, qys, crosses, len2s


def circle_convex_intersects(cx: float, cy: float, r: float, ccw: Outline) -> bool:
    """Circle against a counter-clockwise convex outline: centre inside, or an edge within r."""
    inside, d2s, _, _, _, _ = _circle_edges(cx, cy, ccw)
    return inside or min(d2s) <= r * r


def circle_convex_contact(cx: float, cy: float, r: float, ccw: Outline) -> Contact | None:
    """Contact of circle A with convex outline B (counter-clockwise), normal from A to B.

    Centre outside B: the normal runs from the centre to B's closest point ``q``
    and ``depth = r - |q - centre|`` (RTCD 5.1.2, 5.2.8). Centre inside or on B's
    boundary: B leaves through the face nearest the centre (first face on ties,
    so a centre exactly on a vertex uses the earlier face); the normal is that
    face's inward normal and ``depth = r + distance to the face``. In both cases
    the point is the midpoint of the circle's deepest point ``centre + r*normal``
    and ``q`` (the face point level with the centre in the inside case).
    """
    inside, d2s, qxs, qys, crosses, len2s = _circle_edges(cx, cy, ccw)
    d2 = min(d2s)
    if not (inside or d2 <= r * r):
        return None
    if inside or d2 == 0.0:
        n = len(ccw)
        best = math.inf
        k = 0
        lengths = [math.sqrt(v) for v in len2s]
        for i in range(n):
            s = crosses[i] / lengths[i]
            if s < best:
                best = s
                k = i
        s = best
        px, py = ccw[k]
        x1, y1 = ccw[(k + 1) % n]
        nx = (py - y1) / lengths[k]
        ny = (x1 - px) / lengths[k]
        depth = r + s
        qx = cx - s * nx
        qy = cy - s * ny
    else:
        k = d2s.index(d2)
        qx = qxs[k]
        qy = qys[k]
        d = math.sqrt(d2)
        nx = (qx - cx) / d
        ny = (qy - cy) / d
        depth = r - d
    point = ((cx + nx * r + qx) * 0.5, (cy + ny * r + qy) * 0.5)
    return Contact((nx, ny), max(depth, 0.0), point)


# ---------------------------------------------------------------------------
# Batch helpers (same operations, same order, over M rows)
# ---------------------------------------------------------------------------


def counter_clockwise_batch(vertices: FloatArray) -> FloatArray:
    """Vectorised :func:`counter_clockwise` for ``(M, 3, 2)`` triangles."""
    a = vertices[:, 0]
    b = vertices[:, 1]
    c = vertices[:, 2]
    cw = (b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (b[:, 1] - a[:, 1]) * (c[:, 0] - a[:, 0]) < 0.0
    if not cw.any():
        return vertices
    out: FloatArray = vertices.copy()
    out[cw, 1] = vertices[cw, 2]
    out[cw, 2] = vertices[cw, 1]
    return out


def polygon_edge_mask(nverts: IntArray, k: int) -> BoolArray:
    """``(M, K)`` True for real edges of padded polygon rows.

    A row with ``n < K`` vertices repeats its last vertex, so edges ``n-1 .. K-2``
    have zero length and edge ``K-1`` is the closing edge ``v[n-1] -> v[0]``.
    """
    index = np.arange(k)[None, :]
    mask: BoolArray = (index < (nverts[:, None] - 1)) | (index == k - 1)
    return mask


def outline_key_batch(vertices: FloatArray, nverts: IntArray | None = None) -> FloatArray:
    """Vectorised :func:`outline_key`: ``(M, 1 + 2K)`` rows (padding repeats the last vertex)."""
    m, k = vertices.shape[0], vertices.shape[1]
    counts = np.full(m, float(k)) if nverts is None else nverts.astype(np.float64)
    return np.concatenate([counts[:, None], vertices.reshape(m, 2 * k)], axis=1)


def lex_less_batch(ka: FloatArray, kb: FloatArray) -> BoolArray:
    """Rows where key ``ka`` sorts strictly before ``kb`` (Python tuple order on equal lengths)."""
    differ = ka != kb
    first = differ.argmax(axis=1)
    rows = np.arange(ka.shape[0])
    result: BoolArray = differ.any(axis=1) & (ka[rows, first] < kb[rows, first])
    return result


def swap_rows(swap: BoolArray, a: _Rows, b: _Rows) -> tuple[_Rows, _Rows]:
    """``(a, b)`` with the rows marked in ``swap`` exchanged."""
    if not swap.any():
        return a, b
    shape = (-1,) + (1,) * (a.ndim - 1)
    s = swap.reshape(shape)
    first: _Rows = np.where(s, b, a)
    second: _Rows = np.where(s, a, b)
    return first, second


def flip_rows(result: BatchContacts, swap: BoolArray) -> BatchContacts:
    """Reverse the normals of the rows marked in ``swap`` (their pair was evaluated as B, A)."""
    if not swap.any():
        return result
    sign = np.where(swap, -1.0, 1.0)[:, None]
    return BatchContacts(result.hit, result.normal * sign, result.depth, result.point)


def _projections(
    va: FloatArray, vb: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Edge axes of A then B ``(M, KA+KB)`` and both outlines projected on them ``(M, NAX, K)``."""
    xa, ya = va[..., 0], va[..., 1]
    xb, yb = vb[..., 0], vb[..., 1]
    nx = np.concatenate([np.roll(ya, -1, axis=1) - ya, np.roll(yb, -1, axis=1) - yb], axis=1)
    ny = np.concatenate([xa - np.roll(xa, -1, axis=1), xb - np.roll(xb, -1, axis=1)], axis=1)
    pa = nx[:, :, None] * xa[:, None, :] + ny[:, :, None] * ya[:, None, :]
    pb = nx[:, :, None] * xb[:, None, :] + ny[:, :, None] * yb[:, None, :]
    return nx, ny, pa, pb


def sat_intersects_batch(va: FloatArray, vb: FloatArray) -> BoolArray:
    """Vectorised :func:`sat_intersects` for ``(M, KA, 2)`` and ``(M, KB, 2)`` outlines.

    Zero-length padded edges give the axis ``(0, 0)``, on which everything
    projects to 0: it never separates, so no mask is needed for the boolean.
    """
    _, _, pa, pb = _projections(va, vb)
    separated = (pa.max(axis=2) < pb.min(axis=2)) | (pb.max(axis=2) < pa.min(axis=2))
    result: BoolArray = ~separated.any(axis=1)
    return result


def sat_contact_batch(
    va: FloatArray,
    vb: FloatArray,
    mask_a: BoolArray | None = None,
    mask_b: BoolArray | None = None,
) -> BatchContacts:
    """Vectorised :func:`sat_contact`; ``mask_*`` mark real edges of padded polygon rows."""
    m = va.shape[0]
    nx, ny, pa, pb = _projections(va, vb)
    max_a = pa.max(axis=2)
    min_a = pa.min(axis=2)
    max_b = pb.max(axis=2)
    min_b = pb.min(axis=2)
    hit = ~((max_a < min_b) | (max_b < min_a)).any(axis=1)
    forward = max_a - min_b
    backward = max_b - min_a
    if mask_a is None:
        mask_a = np.ones(va.shape[:2], dtype=bool)
    if mask_b is None:
        mask_b = np.ones(vb.shape[:2], dtype=bool)
    valid = np.concatenate([mask_a, mask_b], axis=1)
    length = np.sqrt(np.where(valid, nx * nx + ny * ny, 1.0))
    positive = forward <= backward
    depth_all = np.where(valid, np.where(positive, forward, backward) / length, np.inf)
    k = depth_all.argmin(axis=1)
    rows = np.arange(m)
    sign = np.where(positive[rows, k], 1.0, -1.0)
    depth = depth_all[rows, k]
    ux = nx[rows, k] / length[rows, k] * sign + 0.0
    uy = ny[rows, k] / length[rows, k] * sign + 0.0
    point = _sat_point_batch(ux, uy, va, vb)
    return masked(hit, np.stack([ux, uy], axis=1), np.maximum(depth, 0.0), point)


def _sat_point_batch(ux: FloatArray, uy: FloatArray, va: FloatArray, vb: FloatArray) -> FloatArray:
    """Vectorised :func:`_sat_point` (padding repeats a real vertex, so it changes no extreme)."""
    tx = -uy
    ty = ux
    u_x, u_y, t_x, t_y = ux[:, None], uy[:, None], tx[:, None], ty[:, None]
    xa, ya, xb, yb = va[..., 0], va[..., 1], vb[..., 0], vb[..., 1]
    s_n = ((u_x * xa + u_y * ya).max(axis=1) + (u_x * xb + u_y * yb).min(axis=1)) * 0.5
    ta = t_x * xa + t_y * ya
    tb = t_x * xb + t_y * yb
    lo = np.maximum(ta.min(axis=1), tb.min(axis=1))
    hi = np.minimum(ta.max(axis=1), tb.max(axis=1))
    s_t = (lo + hi) * 0.5
    return np.stack([ux * s_n + tx * s_t, uy * s_n + ty * s_t], axis=1)


def masked(
    hit: BoolArray, normal: FloatArray, depth: FloatArray, point: FloatArray
) -> BatchContacts:
    """Zero the rows that do not hit, as :class:`BatchContacts` promises."""
    h = hit[:, None]
    return BatchContacts(
        hit, np.where(h, normal, 0.0), np.where(hit, depth, 0.0), np.where(h, point, 0.0)
    )


def _circle_edges_batch(
    center: FloatArray, ccw: FloatArray, mask: BoolArray | None
) -> tuple[BoolArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, BoolArray]:
    """Vectorised :func:`_circle_edges`; masked-out edges get ``d2 = inf``."""
    px, py = ccw[..., 0], ccw[..., 1]
    ex = np.roll(px, -1, axis=1) - px
    ey = np.roll(py, -1, axis=1) - py
    cx = center[:, 0:1]
    cy = center[:, 1:2]
    wx = cx - px
    wy = cy - py
    cross = ex * wy - ey * wx
    len2 = ex * ex + ey * ey
    valid = len2 > 0.0 if mask is None else mask
    t = np.minimum(np.maximum((wx * ex + wy * ey) / np.where(valid, len2, 1.0), 0.0), 1.0)
    qx = px + t * ex
    qy = py + t * ey
    dx = cx - qx
    dy = cy - qy
    d2 = np.where(valid, dx * dx + dy * dy, np.inf)
    inside: BoolArray = np.asarray(((cross >= 0.0) | ~valid).all(axis=1))
    return inside, d2, qx, qy, cross, len2, valid


def circle_convex_intersects_batch(
    center: FloatArray, radius: FloatArray, ccw: FloatArray, mask: BoolArray | None = None
) -> BoolArray:
    """Vectorised :func:`circle_convex_intersects` (``mask`` marks real edges of padded rows)."""
    inside, d2, _, _, _, _, _ = _circle_edges_batch(center, ccw, mask)
    result: BoolArray = inside | (d2.min(axis=1) <= radius * radius)
    return result


def circle_convex_contact_batch(
    center: FloatArray, radius: FloatArray, ccw: FloatArray, mask: BoolArray | None = None
) -> BatchContacts:
    """Vectorised :func:`circle_convex_contact`."""
    m = center.shape[0]
    rows = np.arange(m)
    inside, d2_all, qx_all, qy_all, cross, len2, valid = _circle_edges_batch(center, ccw, mask)
    k_out = d2_all.argmin(axis=1)
    d2 = d2_all[rows, k_out]
    hit = inside | (d2 <= radius * radius)
    face = inside | (d2 == 0.0)
    cx = center[:, 0]
    cy = center[:, 1]
    # Outside branch.
    qx_o = qx_all[rows, k_out]
    qy_o = qy_all[rows, k_out]
    d = np.sqrt(d2)
    d_safe = np.where(face, 1.0, d)
    nx_o = (qx_o - cx) / d_safe
    ny_o = (qy_o - cy) / d_safe
    # Face branch.
    lengths = np.sqrt(np.where(valid, len2, 1.0))
    s_all = np.where(valid, cross / lengths, np.inf)
    k_in = s_all.argmin(axis=1)
    s = s_all[rows, k_in]
    s = np.where(face, s, 0.0)
    n_edges = ccw.shape[1]
    p = ccw[rows, k_in]
    p1 = ccw[rows, (k_in + 1) % n_edges]
    length = lengths[rows, k_in]
    nx_i = (p[:, 1] - p1[:, 1]) / length
    ny_i = (p1[:, 0] - p[:, 0]) / length
    nx = np.where(face, nx_i, nx_o)
    ny = np.where(face, ny_i, ny_o)
    depth = np.where(face, radius + s, radius - np.where(face, 0.0, d))
    qx = np.where(face, cx - s * nx_i, qx_o)
    qy = np.where(face, cy - s * ny_i, qy_o)
    point = np.stack([(cx + nx * radius + qx) * 0.5, (cy + ny * radius + qy) * 0.5], axis=1)
    return masked(hit, np.stack([nx, ny], axis=1), np.maximum(depth, 0.0), point)

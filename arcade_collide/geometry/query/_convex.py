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
* ties are broken by the lowest index (first axis, first edge).

The batch forms never loop over rows. Batches of up to :data:`ROWS_ABOVE` rows
(the ECS's per-tick batches) handle every axis or edge in one numpy call, on
``(K, axes, M)`` projection blocks, so a kernel call costs a few dozen numpy calls
whatever its shape; larger batches loop over axes and vertices with ``(M,)``
temporaries, which numpy's allocator serves without fresh pages. The contact
kernels run the boolean test first and work out the contact geometry for the
touching rows only (:func:`scatter` puts them back among zero rows).

This module is private: the public names live in the pair modules and in
:mod:`arcade_collide.geometry.query.dispatch`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from arcade_collide.geometry.arrays import BatchContacts, BoolArray, FloatArray, IntArray
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.pose import Vec2, rotation, to_world
from arcade_collide.geometry.work_arrays import thread_work_arrays

TINY_SQUARED = 2.0**-960
"""Squared distances below this (about 1e-145 squared) are subnormal or close: too few
bits to normalise a direction."""

NEAR_EDGE = 2.0**-44
"""A circle centre closer to an outline than ``NEAR_EDGE * (|x| + |y| + r)`` (256 units in
the last place of that sum) is treated as on it: so close, ``q - centre`` is rounding
noise (a few units in the last place of the coordinates) and points anywhere, while the
nearest face's normal is exact (the depth changes by that gap). A wider band would take
a centre near a sharp corner, well clear of rounding far from the origin, for one on the
corner's face: 2**-33 gave a unit circle at (1e9, 1e9) a normal 80 degrees off."""

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


def _axes(outline: Outline, count: int) -> list[tuple[float, float]]:
    """Normals ``(ey, -ex)`` of the first ``count`` edges (unnormalised; direction is irrelevant).

    A rectangle passes ``count=2``: its other two edges are parallel to these.
    """
    n = len(outline)
    axes = []
    for i in range(count):
        x0, y0 = outline[i]
        x1, y1 = outline[(i + 1) % n]
        axes.append((y1 - y0, x0 - x1))
    return axes


def sat_intersects(va: Outline, vb: Outline, axes_a: int, axes_b: int) -> bool:
    """Separating-axis test of two convex outlines (Ericson, RTCD 5.2.1 / 4.4.1).

    Two convex sets are disjoint exactly when some edge normal of either one
    separates their projections, so testing the edge normals of both outlines is
    exact; containment is caught because no axis then separates. ``axes_*`` is
    how many leading edges of each outline give distinct axes.
    """
    for nx, ny in _axes(va, axes_a) + _axes(vb, axes_b):
        pa = [nx * x + ny * y for x, y in va]
        pb = [nx * x + ny * y for x, y in vb]
        if max(pa) < min(pb) or max(pb) < min(pa):
            return False
    return True


def _sat(va: Outline, vb: Outline, axes_a: int, axes_b: int) -> tuple[Contact, bool] | None:
    """SAT contact, plus whether a tie decided it (see :func:`sat_contact`)."""
    axes = _axes(va, axes_a) + _axes(vb, axes_b)
    forwards: list[float] = []
    backwards: list[float] = []
    ranks: list[float] = []
    for nx, ny in axes:
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
        overlap = forward if forward <= backward else backward
        forwards.append(forward)
        backwards.append(backward)
        # Axes are ranked by the squared depth overlap * (overlap / |axis|^2) (no square root
        # per axis; the overlaps of a hit are >= 0, so the order is that of the depths).
        # overlap^2 first would overflow for shapes over ~1e77 and every rank would tie.
        # An edge rounded to zero length far from the origin gives no axis.
        len2 = nx * nx + ny * ny
        ranks.append(overlap * (overlap / len2) if len2 > 0.0 else math.inf)
    best = min(ranks)
    k = ranks.index(best)
    # Only a tie between an axis of A and an axis of B (or equal overlap on both sides) can
    # resolve differently when the arguments swap; ties among one shape's own parallel edges
    # resolve the same way in both orders.
    na = min(axes_a, len(ranks))
    tie = (best in ranks[:na] and best in ranks[na:]) or forwards[k] == backwards[k]
    nx, ny = axes[k]
    length = math.sqrt(nx * nx + ny * ny)
    sign = 1.0 if forwards[k] <= backwards[k] else -1.0
    depth = (forwards[k] if sign > 0.0 else backwards[k]) / length
    # Adding 0.0 turns a -0.0 component into 0.0 (cosmetic; -0.0 == 0.0 anyway).
    ux = nx / length * sign + 0.0
    uy = ny / length * sign + 0.0
    return Contact((ux, uy), max(depth, 0.0), _sat_point(ux, uy, va, vb)), tie


def sat_contact(
    va: Outline, vb: Outline, axes_a: int, axes_b: int, canonical: bool = False
) -> Contact | None:
    """SAT contact of two convex outlines: minimum-overlap axis, normal from A to B.

    Axes are A's edge normals in edge order, then B's. On each axis the overlap
    is ``max(A) - min(B)`` when B lies on the positive side (ties choose the
    positive side) else ``max(B) - min(A)``; depth is the overlap divided by the
    axis length and the smallest depth wins (first axis on ties). For convex
    outlines that minimum is the penetration depth (RTCD 5.2.1).

    Without ties the answer for (B, A) is exactly the flipped answer for (A, B).
    With ``canonical`` (same-type pairs), a contact decided by a tie (an axis of
    A and an axis of B of equal depth, or equal overlap on both sides; ties
    among one outline's own parallel edges resolve alike in both orders) is
    evaluated with the outlines
    in a canonical order (:func:`outline_key`, smaller first) and flipped back,
    so symmetry holds there too unless the outlines are identical.

    The point is defined in the frame of the unit normal ``u`` and its tangent
    ``t = (-u.y, u.x)``: along ``u`` it is midway between A's furthest extent
    along ``u`` and B's furthest extent against it (the two surfaces, ``depth``
    apart); along ``t`` it is the middle of the interval where the two shapes'
    shadows on ``t`` overlap. It depends continuously on the shapes and does not
    single out an arbitrary vertex when edges lie flat against each other.
    """
    found = _sat(va, vb, axes_a, axes_b)
    if found is None:
        return None
    result, tie = found
    if canonical and tie and outline_key(vb) < outline_key(va):
        swapped = _sat(vb, va, axes_b, axes_a)
        if swapped is not None:  # always: the same pair, just the other way round
            return swapped[0].flipped()
    return result


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
    cx: float, cy: float, r: float, ccw: Outline
) -> tuple[bool, bool, list[float], list[float], list[float], list[float], list[float]]:
    """Per edge of a counter-clockwise outline: offset from its closest point to (cx, cy).

    Returns ``(inside, within, d2, dx, dy, cross, len2)``: ``(dx, dy)`` is the centre
    minus the edge's closest point and ``d2`` its square; ``cross >= 0`` on every edge
    means the centre is inside or on the outline (closed set); ``within`` says some
    edge is no farther than ``r`` from the centre, decided exactly (see below).
    """
    n = len(ccw)
    rr = r * r
    inside = True
    within = False
    d2s: list[float] = []
    dxs: list[float] = []
    dys: list[float] = []
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
        dot = wx * ex + wy * ey
        # (An edge rounded to zero length far from the origin is its start point.)
        t = min(max(dot / len2, 0.0), 1.0) if len2 > 0.0 else 0.0
        # The offset centre - q is formed from w = centre - start, never from the world
        # point q = start + t*e: far from the origin q would be rounded to the coordinates'
        # ulp before the subtraction, and a circle exactly touching an edge would miss it.
        dx = wx - t * ex
        dy = wy - t * ey
        inside = inside and cross >= 0.0
        d2 = dx * dx + dy * dy
        # "Within r" is decided without the rounded t: when the closest point lies inside
        # the edge, distance^2 = cross^2 / len2, so compare cross^2 <= r^2 * len2 (no
        # division: exact on integer coordinates, so exactly touching circles touch);
        # at an end the offset is w or w - e, already exact.
        edge_within = cross * cross <= rr * len2 if 0.0 < dot < len2 else d2 <= rr
        within = within or edge_within
        d2s.append(d2)
        dxs.append(dx)
        dys.append(dy)
        crosses.append(cross)
        len2s.append(len2)
    return inside, within, d2s, dxs, dys, crosses, len2s


def circle_convex_intersects(cx: float, cy: float, r: float, ccw: Outline) -> bool:
    """Circle against a counter-clockwise convex outline: centre inside, or an edge within r."""
    inside, within, _, _, _, _, _ = _circle_edges(cx, cy, r, ccw)
    return inside or within


def circle_convex_contact(cx: float, cy: float, r: float, ccw: Outline) -> Contact | None:
    """Contact of circle A with convex outline B (counter-clockwise), normal from A to B.

    Centre outside B: the normal runs from the centre to B's closest point ``q``
    and ``depth = r - |q - centre|`` (RTCD 5.1.2, 5.2.8). Centre inside or on B's
    boundary (within :data:`NEAR_EDGE`): B leaves through the face nearest the
    centre (first face on ties, so a centre exactly on a vertex uses the earlier
    face); the normal is that face's inward normal and ``depth = r +`` the
    distance to the face. In both cases the point is the midpoint of the circle's
    deepest point ``centre + r*normal`` and ``q`` (the face point level with the
    centre in the inside case).
    """
    inside, within, d2s, dxs, dys, crosses, len2s = _circle_edges(cx, cy, r, ccw)
    if not (inside or within):
        return None
    d2 = min(d2s)
    near = NEAR_EDGE * (abs(cx) + abs(cy) + r)
    if inside or d2 <= near * near:
        n = len(ccw)
        best = math.inf
        k = 0
        lengths = [math.sqrt(v) for v in len2s]
        for i in range(n):
            s = crosses[i] / lengths[i] if lengths[i] > 0.0 else math.inf
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
        d = math.sqrt(d2)
        # 0.0 - dx rather than -dx: no -0.0 components (same bits in the batch form).
        nx = (0.0 - dxs[k]) / d
        ny = (0.0 - dys[k]) / d
        qx = cx - dxs[k]
        qy = cy - dys[k]
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


def padding_mask(nverts: IntArray, k: int) -> BoolArray | None:
    """:func:`polygon_edge_mask`, or None when no row is padded (every edge is real).

    Skipping the mask when it is all True saves several passes per edge.
    """
    if nverts.size == 0 or int(nverts.min()) == k:
        return None
    return polygon_edge_mask(nverts, k)


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


BLOCK = 65_536
"""Elements per ``(K, axes, rows)`` projection block of the batch cores (512 kB): small
batches project every axis in one numpy call, large ones a few axes at a time, so the
block stays in the CPU cache while each call still covers many rows."""


ROWS_ABOVE = 2048
"""Batches of more rows than this use the per-axis, per-vertex forms (``*_rows``): their
per-call overhead is then small against the work, and their ``(M,)`` temporaries are
cheaper than the blocks of the all-axes forms (measured with
``benchmarks/bench_narrowphase.py``)."""


def columns(vertices: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``(M, K, 2)`` vertices as contiguous ``(K, M)`` x and y arrays.

    Reductions over the K vertices then run along the first axis, which numpy
    does as fast elementwise passes instead of M tiny reductions.
    """
    return np.ascontiguousarray(vertices[..., 0].T), np.ascontiguousarray(vertices[..., 1].T)


def _scratch(name: str, size: int) -> FloatArray:
    """A float64 work array of ``size`` elements from this thread's
    :class:`~arcade_collide.geometry.work_arrays.WorkArrays` (contents undefined).

    Fresh blocks of this size would fault their pages in on every call (see that
    module). A buffer is used by one call at a time: nothing that holds it calls back in.
    """
    return thread_work_arrays().get(name, (size,))


def _axes_batch(
    x: FloatArray, y: FloatArray, count: int, out: tuple[FloatArray, FloatArray] | None = None
) -> tuple[FloatArray, FloatArray]:
    """Vectorised :func:`_axes`: ``(count, M)`` arrays of the axes ``(y1 - y0, x0 - x1)``.

    Written into ``out`` when given. Slices, not fancy indexing (several times
    faster on small batches). A padded row's closing edge is edge ``K-1`` (see
    :func:`polygon_edge_mask`).
    """
    k, m = x.shape
    nx, ny = (np.empty((count, m)), np.empty((count, m))) if out is None else out
    inner = min(count, k - 1)
    np.subtract(y[1 : inner + 1], y[:inner], out=nx[:inner])
    np.subtract(x[:inner], x[1 : inner + 1], out=ny[:inner])
    if count == k:  # the closing edge, last vertex to the first
        np.subtract(y[0], y[k - 1], out=nx[k - 1])
        np.subtract(x[k - 1], x[0], out=ny[k - 1])
    return nx, ny


def _extent(
    nx: FloatArray, ny: FloatArray, x: FloatArray, y: FloatArray, side: str
) -> tuple[FloatArray, FloatArray]:
    """Max and min over the K vertices of ``nx*x + ny*y`` for every axis.

    ``nx``/``ny`` are ``(A, M)`` axes and ``x``/``y`` ``(K, M)`` vertices; the
    ``(K, axes, M)`` projections are formed with the scalar form's operations
    (``nx*x``, ``ny*y``, then their sum) and reduced over the first axis, which
    numpy does as elementwise passes. Returns ``(A, M)`` highs and lows in work
    arrays of ``side`` (:func:`_scratch`): valid until the next call with the same
    ``side``, so callers combine them into fresh arrays at once.

    The axes go in groups of at most :data:`BLOCK` projections, through two
    scratch buffers reused between groups and between calls (:func:`_scratch`):
    fresh arrays of that size would each cost new memory pages, and bigger ones
    would leave the CPU cache.
    """
    k = x.shape[0]
    axes, m = nx.shape
    group = max(1, min(axes, BLOCK // max(1, k * m)))
    high = _scratch(side + "-high", axes * m).reshape(axes, m)
    low = _scratch(side + "-low", axes * m).reshape(axes, m)
    p_flat = _scratch("p", k * group * m)
    q_flat = _scratch("q", k * group * m)
    xs = x[:, None]
    ys = y[:, None]
    for start in range(0, axes, group):
        stop = min(start + group, axes)
        shape = (k, stop - start, m)
        p = p_flat[: k * (stop - start) * m].reshape(shape)
        q = q_flat[: p.size].reshape(shape)
        np.multiply(nx[start:stop], xs, out=p)
        np.multiply(ny[start:stop], ys, out=q)
        p += q
        np.max(p, axis=0, out=high[start:stop])
        np.min(p, axis=0, out=low[start:stop])
    return high, low


def sat_intersects_batch(
    va: FloatArray, vb: FloatArray, axes_a: int | None = None, axes_b: int | None = None
) -> BoolArray:
    """Vectorised :func:`sat_intersects` for ``(M, KA, 2)`` and ``(M, KB, 2)`` outlines.

    ``axes_*`` default to every edge. Zero-length padded edges give the axis
    ``(0, 0)``, on which everything projects to 0: it never separates, so the
    boolean needs no mask.
    """
    xa, ya = columns(va)
    xb, yb = columns(vb)
    result: BoolArray = ~_separated(xa, ya, xb, yb, axes_a or xa.shape[0], axes_b or xb.shape[0])
    return result


def _separated(
    xa: FloatArray, ya: FloatArray, xb: FloatArray, yb: FloatArray, axes_a: int, axes_b: int
) -> BoolArray:
    """Columns where some axis separates the outlines."""
    if xa.shape[1] > ROWS_ABOVE:
        return _separated_rows(xa, ya, xb, yb, axes_a, axes_b)
    return _apart(_project(xa, ya, xb, yb, axes_a, axes_b))


_Projection = tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]
"""``(nx, ny, max_a, min_a, max_b, min_b)``: every axis and both outlines' extents on it."""


def _project(
    xa: FloatArray, ya: FloatArray, xb: FloatArray, yb: FloatArray, axes_a: int, axes_b: int
) -> _Projection:
    """All axes of both outlines and the extents of each outline on them (``(A, M)`` each)."""
    nx, ny = _all_axes(xa, ya, xb, yb, axes_a, axes_b)
    max_a, min_a = _extent(nx, ny, xa, ya, "a")
    max_b, min_b = _extent(nx, ny, xb, yb, "b")
    return nx, ny, max_a, min_a, max_b, min_b


def _apart(projection: _Projection) -> BoolArray:
    """Columns where some axis of a :func:`_project` result separates the outlines."""
    _, _, max_a, min_a, max_b, min_b = projection
    apart: BoolArray = max_a < min_b
    apart |= max_b < min_a
    separated: BoolArray = np.logical_or.reduce(apart, axis=0)
    return separated


def _all_axes(
    xa: FloatArray, ya: FloatArray, xb: FloatArray, yb: FloatArray, axes_a: int, axes_b: int
) -> tuple[FloatArray, FloatArray]:
    """``(axes_a + axes_b, M)`` axes: A's edge normals in edge order, then B's."""
    m = xa.shape[1]
    nx = np.empty((axes_a + axes_b, m))
    ny = np.empty((axes_a + axes_b, m))
    _axes_batch(xa, ya, axes_a, (nx[:axes_a], ny[:axes_a]))
    _axes_batch(xb, yb, axes_b, (nx[axes_a:], ny[axes_a:]))
    return nx, ny


def _sat_batch(
    xa: FloatArray,
    ya: FloatArray,
    xb: FloatArray,
    yb: FloatArray,
    axes_a: int,
    axes_b: int,
    valid: BoolArray | None,
    projection: _Projection | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, BoolArray]:
    """Vectorised :func:`_sat` over columns of touching pairs: ``(ux, uy, depth, point, tie)``.

    All axes are projected at once (``(A, M)`` overlaps), or ``projection`` of these
    very columns is used when the caller has it; the first minimum of the ranks wins,
    as in the scalar loop (``argmin`` returns the first minimum).
    """
    m = xa.shape[1]
    if m > ROWS_ABOVE:
        return _sat_rows(xa, ya, xb, yb, axes_a, axes_b, valid)
    if projection is None:
        projection = _project(xa, ya, xb, yb, axes_a, axes_b)
    nx, ny, max_a, min_a, max_b, min_b = projection
    forward = max_a - min_b
    backward = max_b - min_a
    overlap = np.minimum(forward, backward)
    len2 = nx * nx
    len2 += ny * ny
    # Padded edges of short polygon rows, and edges rounded to zero length: no axis.
    fake = len2 == 0.0
    if valid is not None:
        fake |= ~valid
    np.putmask(len2, fake, 1.0)
    rank = overlap / len2
    rank *= overlap
    np.putmask(rank, fake, np.inf)
    k = rank.argmin(axis=0)
    cols = np.arange(m)
    best = rank[k, cols]
    tie_a = (rank[:axes_a] == best).any(axis=0)
    tie_b = (rank[axes_a:] == best).any(axis=0)
    forward = forward[k, cols]
    backward = backward[k, cols]
    best_nx = nx[k, cols]
    best_ny = ny[k, cols]
    tie = (tie_a & tie_b) | (forward == backward)
    length = np.sqrt(len2[k, cols])
    positive = forward <= backward
    sign = np.where(positive, 1.0, -1.0)
    depth = np.where(positive, forward, backward) / length
    ux = best_nx / length * sign + 0.0
    uy = best_ny / length * sign + 0.0
    point = _sat_point_batch(ux, uy, xa, ya, xb, yb)
    return ux, uy, depth, point, tie


# Large batches: one axis and one vertex at a time. Every temporary is then (M,)-sized
# (80 kB at 10,000 rows) and comes from the heap; the (K, axes, M) blocks of the
# all-axes form would be fresh memory-mapped pages at that size. Same operations, same
# order, so both forms give the same bits.


def _axes_rows(x: FloatArray, y: FloatArray, count: int) -> list[tuple[FloatArray, FloatArray]]:
    """:func:`_axes_batch` as a list of ``(M,)`` pairs (padded rows: see the mask)."""
    k = x.shape[0]
    return [(y[(i + 1) % k] - y[i], x[i] - x[(i + 1) % k]) for i in range(count)]


def _extent_rows(
    nx: FloatArray, ny: FloatArray, x: FloatArray, y: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """:func:`_extent` for one axis, one vertex at a time (``(M,)`` temporaries only)."""
    high = nx * x[0]
    high += ny * y[0]
    low = high.copy()
    for i in range(1, x.shape[0]):
        p = nx * x[i]
        p += ny * y[i]
        np.maximum(high, p, out=high)
        np.minimum(low, p, out=low)
    return high, low


def _separated_rows(
    xa: FloatArray, ya: FloatArray, xb: FloatArray, yb: FloatArray, axes_a: int, axes_b: int
) -> BoolArray:
    """Large-batch form of :func:`_separated`: one axis and one vertex at a time."""
    separated = np.zeros(xa.shape[1], dtype=bool)
    for nx, ny in _axes_rows(xa, ya, axes_a) + _axes_rows(xb, yb, axes_b):
        max_a, min_a = _extent_rows(nx, ny, xa, ya)
        max_b, min_b = _extent_rows(nx, ny, xb, yb)
        separated |= max_a < min_b
        separated |= max_b < min_a
    return separated


def _sat_rows(
    xa: FloatArray,
    ya: FloatArray,
    xb: FloatArray,
    yb: FloatArray,
    axes_a: int,
    axes_b: int,
    valid: BoolArray | None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, BoolArray]:
    """Large-batch form of :func:`_sat_batch`, one axis at a time.

    The best axis is tracked while looping over the axes (first minimum wins,
    as in the scalar loop), so nothing of size ``axes x M`` is gathered.
    """
    m = xa.shape[1]
    axes = _axes_rows(xa, ya, axes_a) + _axes_rows(xb, yb, axes_b)
    ranks: list[FloatArray] = []
    best = np.full(m, np.inf)
    k = np.zeros(m, dtype=np.intp)
    for j, (nx, ny) in enumerate(axes):
        max_a, min_a = _extent_rows(nx, ny, xa, ya)
        max_b, min_b = _extent_rows(nx, ny, xb, yb)
        overlap = np.minimum(max_a - min_b, max_b - min_a)
        len2 = nx * nx + ny * ny
        fake = len2 == 0.0
        if valid is not None:
            fake |= ~valid[j]
        np.putmask(len2, fake, 1.0)
        rank = overlap / len2
        rank *= overlap
        np.putmask(rank, fake, np.inf)
        ranks.append(rank)
        # First minimum wins, as in the scalar loop; only (M,)-sized arrays on purpose:
        # (axes x M) scratch arrays cost more in fresh memory than they save in calls.
        np.putmask(k, rank < best, j)
        np.minimum(best, rank, out=best)
    tie_a = np.zeros(m, dtype=bool)
    tie_b = np.zeros(m, dtype=bool)
    for j, rank in enumerate(ranks):
        if j < axes_a:
            tie_a |= rank == best
        else:
            tie_b |= rank == best
    cols = np.arange(m)
    best_nx = np.stack([nx for nx, _ in axes])[k, cols]
    best_ny = np.stack([ny for _, ny in axes])[k, cols]
    # The winning axis's overlaps, recomputed with the same operations as in the loop.
    max_a, min_a = _extent_rows(best_nx, best_ny, xa, ya)
    max_b, min_b = _extent_rows(best_nx, best_ny, xb, yb)
    forward = max_a - min_b
    backward = max_b - min_a
    tie = (tie_a & tie_b) | (forward == backward)
    len2 = best_nx * best_nx + best_ny * best_ny
    length = np.sqrt(len2)
    positive = forward <= backward
    sign = np.where(positive, 1.0, -1.0)
    depth = np.where(positive, forward, backward) / length
    ux = best_nx / length * sign + 0.0
    uy = best_ny / length * sign + 0.0
    point = _sat_point_rows(ux, uy, xa, ya, xb, yb)
    return ux, uy, depth, point, tie


def _sat_point_rows(
    ux: FloatArray, uy: FloatArray, xa: FloatArray, ya: FloatArray, xb: FloatArray, yb: FloatArray
) -> FloatArray:
    """Vectorised :func:`_sat_point` (padding repeats a real vertex, so it changes no extreme)."""
    tx = -uy
    ty = ux
    s_n = (_extent_rows(ux, uy, xa, ya)[0] + _extent_rows(ux, uy, xb, yb)[1]) * 0.5
    ta_max, ta_min = _extent_rows(tx, ty, xa, ya)
    tb_max, tb_min = _extent_rows(tx, ty, xb, yb)
    s_t = (np.maximum(ta_min, tb_min) + np.minimum(ta_max, tb_max)) * 0.5
    return np.stack([ux * s_n + tx * s_t, uy * s_n + ty * s_t], axis=1)


def sat_contact_batch(
    va: FloatArray,
    vb: FloatArray,
    axes_a: int | None = None,
    axes_b: int | None = None,
    nverts_a: IntArray | None = None,
    nverts_b: IntArray | None = None,
    canonical: bool = False,
) -> BatchContacts:
    """Vectorised :func:`sat_contact`; ``nverts_*`` mark the real edges of padded polygon rows."""
    xa, ya = columns(va)
    xb, yb = columns(vb)
    ka = axes_a or xa.shape[0]
    kb = axes_b or xb.shape[0]
    m = xa.shape[1]
    # The contact geometry costs several times the separation test: work it out
    # for the touching rows only. The projections of the test are kept for them.
    projection: _Projection | None = None
    if m > ROWS_ABOVE:
        hit = ~_separated(xa, ya, xb, yb, ka, kb)
    else:
        projection = _project(xa, ya, xb, yb, ka, kb)
        hit = ~_apart(projection)
    rows = np.flatnonzero(hit)
    normal = np.zeros((m, 2))
    depth = np.zeros(m)
    point = np.zeros((m, 2))
    if rows.size == 0:
        return BatchContacts(hit, normal, depth, point)
    if rows.size < m:
        # np.take: several times faster than fancy indexing on 2-D and 3-D arrays.
        xa, ya, xb, yb = (np.take(v, rows, axis=1) for v in (xa, ya, xb, yb))
        if projection is not None:
            projection = tuple(np.take(v, rows, axis=1) for v in projection)  # type: ignore[assignment]
        va, vb = np.take(va, rows, axis=0), np.take(vb, rows, axis=0)
        nverts_a = None if nverts_a is None else nverts_a[rows]
        nverts_b = None if nverts_b is None else nverts_b[rows]
    full_a = None if nverts_a is None else padding_mask(nverts_a, xa.shape[0])
    full_b = None if nverts_b is None else padding_mask(nverts_b, xb.shape[0])
    mask_a = None if full_a is None else full_a.T
    mask_b = None if full_b is None else full_b.T
    valid = _stack_masks(mask_a, mask_b, ka, kb, rows.size)
    ux, uy, sub_depth, sub_point, tie = _sat_batch(xa, ya, xb, yb, ka, kb, valid, projection)
    if canonical:
        redo = np.flatnonzero(tie)
        if redo.size:
            # Keys of rows padded to one width (repeating the last vertex, as pack does).
            width = max(va.shape[1], vb.shape[1])
            key_a = outline_key_batch(
                _pad(va[redo], width), None if nverts_a is None else nverts_a[redo]
            )
            key_b = outline_key_batch(
                _pad(vb[redo], width), None if nverts_b is None else nverts_b[redo]
            )
            redo = redo[lex_less_batch(key_b, key_a)]
        if redo.size:
            sub_valid = _stack_masks(
                None if mask_b is None else mask_b[:, redo],
                None if mask_a is None else mask_a[:, redo],
                kb,
                ka,
                redo.size,
            )
            sx, sy, sd, sp, _ = _sat_batch(
                xb[:, redo], yb[:, redo], xa[:, redo], ya[:, redo], kb, ka, sub_valid
            )
            ux[redo] = -sx
            uy[redo] = -sy
            sub_depth[redo] = sd
            sub_point[redo] = sp
    normal[rows, 0] = ux
    normal[rows, 1] = uy
    depth[rows] = np.maximum(sub_depth, 0.0)
    point[rows] = sub_point
    return BatchContacts(hit, normal, depth, point)


def _pad(vertices: FloatArray, width: int) -> FloatArray:
    """Rows padded to ``width`` vertices by repeating their last vertex."""
    extra = width - vertices.shape[1]
    if extra == 0:
        return vertices
    return np.concatenate([vertices, np.repeat(vertices[:, -1:], extra, axis=1)], axis=1)


def _stack_masks(
    mask_a: BoolArray | None, mask_b: BoolArray | None, ka: int, kb: int, m: int
) -> BoolArray | None:
    """``(KA+KB, M)`` validity of the axes, or None when every axis is real."""
    if mask_a is None and mask_b is None:
        return None
    full_a = np.ones((ka, m), dtype=bool) if mask_a is None else mask_a[:ka]
    full_b = np.ones((kb, m), dtype=bool) if mask_b is None else mask_b[:kb]
    stacked: BoolArray = np.concatenate([full_a, full_b], axis=0)
    return stacked


def _sat_point_batch(
    ux: FloatArray,
    uy: FloatArray,
    xa: FloatArray,
    ya: FloatArray,
    xb: FloatArray,
    yb: FloatArray,
) -> FloatArray:
    """Vectorised :func:`_sat_point` (padding repeats a real vertex, so it changes no extreme).

    Projects on the normal ``u`` and the tangent ``t = (-u.y, u.x)`` as two axes at once.
    """
    axes_x = np.stack([ux, -uy])
    axes_y = np.stack([uy, ux])
    high_a, low_a = _extent(axes_x, axes_y, xa, ya, "point-a")
    high_b, low_b = _extent(axes_x, axes_y, xb, yb, "point-b")
    s_n = (high_a[0] + low_b[0]) * 0.5
    s_t = (np.maximum(low_a[1], low_b[1]) + np.minimum(high_a[1], high_b[1])) * 0.5
    return np.stack([ux * s_n + axes_x[1] * s_t, uy * s_n + axes_y[1] * s_t], axis=1)


class _EdgeScan(NamedTuple):
    """Per-row results of scanning the edges of an outline against a circle centre."""

    inside: BoolArray
    within: BoolArray
    d2: FloatArray
    dx: FloatArray
    dy: FloatArray
    s: FloatArray
    fx: FloatArray
    fy: FloatArray


SCAN_BLOCK = 12_288
"""Elements per ``(K, rows)`` array of the circle scan (96 kB): below the size from
which numpy's allocator maps fresh pages, and cache-resident."""


def _scan_edges(
    center: FloatArray,
    ccw: FloatArray,
    mask: BoolArray | None,
    faces: bool,
    radius: FloatArray | None = None,
    offsets: bool = True,
) -> _EdgeScan:
    """Vectorised :func:`_circle_edges` over all K edges at once, keeping the winners.

    Per row: the closest edge point's offset (first minimum of the squared
    distance) and, when ``faces``, the face nearest from inside (first minimum of
    ``cross / length``) with its unit inward normal. ``mask`` is ``(M, K)``, True
    for real edges of padded rows. Rows go in blocks of ``(K, rows)`` arrays of
    at most :data:`SCAN_BLOCK` elements. With ``radius``, ``within`` says some edge
    is within the radius (decided as in :func:`_circle_edges`); without ``offsets``
    and ``faces`` only ``inside``, ``within`` and ``d2`` are filled in (the boolean test).
    """
    x, y = columns(ccw)
    k, m = x.shape
    valid = None if mask is None else np.ascontiguousarray(mask.T)
    inside = np.empty(m, dtype=bool)
    d2 = np.empty(m)
    within = np.zeros(m, dtype=bool)
    rr = None if radius is None else radius * radius
    full = faces or offsets
    dx = np.empty(m) if full else d2
    dy = np.empty(m) if full else d2
    s = np.empty(m) if faces else d2
    fx = np.empty(m) if faces else d2
    fy = np.empty(m) if faces else d2
    step = max(1, SCAN_BLOCK // k)
    for start in range(0, m, step):
        c = slice(start, min(start + step, m))
        bx = x[:, c]
        by = y[:, c]
        ex = edge_vectors(bx)
        ey = edge_vectors(by)
        wx = center[c, 0] - bx
        wy = center[c, 1] - by
        cross = ex * wy
        cross -= ey * wx
        len2 = ex * ex
        len2 += ey * ey
        fake = None if valid is None else ~valid[:, c]
        if fake is not None:
            np.putmask(len2, fake, 1.0)
        # An edge rounded to zero length (dot == 0) gets t == 0 and is no face.
        zero = len2 == 0.0
        np.putmask(len2, zero, 1.0)
        dot = wx * ex
        dot += wy * ey
        t = dot / len2
        np.maximum(t, 0.0, out=t)
        np.minimum(t, 1.0, out=t)
        # Offsets from the centre (see _circle_edges): wx - t*ex, never centre - (p + t*e).
        ox = wx - t * ex
        oy = wy - t * ey
        dist2 = ox * ox
        dist2 += oy * oy
        on_left = cross >= 0.0
        if fake is not None:
            np.putmask(dist2, fake, np.inf)
            on_left |= fake
        np.logical_and.reduce(on_left, axis=0, out=inside[c])
        if rr is not None:
            # As in _circle_edges: cross^2 <= r^2 * len2 where the closest point lies
            # inside the edge, the exact end offset otherwise.
            block_rr = rr[c]
            interior = (dot > 0.0) & (dot < len2)
            near = np.where(interior, cross * cross <= block_rr * len2, dist2 <= block_rr)
            if fake is not None:
                near &= valid[:, c]  # type: ignore[index]
            np.logical_or.reduce(near, axis=0, out=within[c])
        cols = np.arange(c.stop - c.start)
        best = dist2.argmin(axis=0)
        d2[c] = dist2[best, cols]
        if full:
            dx[c] = ox[best, cols]
            dy[c] = oy[best, cols]
        if faces:
            length = np.sqrt(len2)
            dist = cross / length
            if fake is not None:
                np.putmask(dist, fake, np.inf)
            np.putmask(dist, zero, np.inf)
            face = dist.argmin(axis=0)
            s[c] = dist[face, cols]
            flen = length[face, cols]
            fx[c] = -ey[face, cols] / flen
            fy[c] = ex[face, cols] / flen
    return _EdgeScan(inside, within, d2, dx, dy, s, fx, fy)


def edge_vectors(v: FloatArray) -> FloatArray:
    """``(K, M)`` differences ``v[i + 1] - v[i]`` around the outline (edge ``K-1`` closes it).

    Slices rather than a rolled fancy index: several times faster on small batches.
    """
    out = np.empty(v.shape)
    np.subtract(v[1:], v[:-1], out=out[:-1])
    np.subtract(v[0], v[-1], out=out[-1])
    return out


def circle_convex_intersects_batch(
    center: FloatArray, radius: FloatArray, ccw: FloatArray, mask: BoolArray | None = None
) -> BoolArray:
    """Vectorised :func:`circle_convex_intersects` (``mask`` marks real edges of padded rows)."""
    scan = _scan_edges(center, ccw, mask, faces=False, radius=radius, offsets=False)
    result: BoolArray = scan.within | scan.inside
    return result


def circle_convex_contact_batch(
    center: FloatArray, radius: FloatArray, ccw: FloatArray, mask: BoolArray | None = None
) -> BatchContacts:
    """Vectorised :func:`circle_convex_contact`.

    One scan finds the closest edge points of every row; the faces (the inside
    case) are scanned again only for the touching rows whose centre is inside or
    on the outline, usually a small share.
    """
    scan = _scan_edges(center, ccw, mask, faces=False, radius=radius)
    hit: BoolArray = scan.within | scan.inside
    rows = touching_rows(hit)
    d2, ox, oy, inside = scan.d2, scan.dx, scan.dy, scan.inside
    if rows is not None:
        center, radius, ccw = (np.take(v, rows, axis=0) for v in (center, radius, ccw))
        mask = None if mask is None else np.take(mask, rows, axis=0)
        d2, ox, oy, inside = d2[rows], ox[rows], oy[rows], inside[rows]
    cx = center[:, 0]
    cy = center[:, 1]
    near = NEAR_EDGE * (np.abs(cx) + np.abs(cy) + radius)
    face = d2 <= near * near
    face |= inside
    d = np.sqrt(d2)
    face_rows = np.flatnonzero(face)
    if face_rows.size:
        d[face_rows] = 1.0  # no division by a zero distance; these rows take the face below
    nx = (0.0 - ox) / d
    ny = (0.0 - oy) / d
    depth = radius - d
    qx = cx - ox
    qy = cy - oy
    if face_rows.size:
        inner = _scan_edges(
            center[face_rows], ccw[face_rows], None if mask is None else mask[face_rows], True
        )
        r = radius[face_rows]
        nx[face_rows] = inner.fx
        ny[face_rows] = inner.fy
        depth[face_rows] = r + inner.s
        qx[face_rows] = cx[face_rows] - inner.s * inner.fx
        qy[face_rows] = cy[face_rows] - inner.s * inner.fy
    np.maximum(depth, 0.0, out=depth)
    return scatter(
        hit, rows, nx, ny, depth, (cx + nx * radius + qx) * 0.5, (cy + ny * radius + qy) * 0.5
    )


def touching_rows(hit: BoolArray) -> IntArray | None:
    """Rows where ``hit`` holds, or None when every row does (nothing to compress)."""
    rows = np.flatnonzero(hit)
    return None if rows.size == hit.shape[0] else rows


def scatter(
    hit: BoolArray,
    rows: IntArray | None,
    nx: FloatArray,
    ny: FloatArray,
    depth: FloatArray,
    px: FloatArray,
    py: FloatArray,
) -> BatchContacts:
    """Contacts computed for the touching ``rows`` only, placed in zero-filled ``(M,)`` arrays.

    ``rows`` None means every row touches and the arrays are used as they are.
    """
    m = hit.shape[0]
    if rows is None or rows.size == m:
        return BatchContacts(hit, np.stack([nx, ny], axis=1), depth, np.stack([px, py], axis=1))
    full_depth = np.zeros(m)
    full_depth[rows] = depth
    normal = _scatter_xy(m, rows, nx, ny)
    return BatchContacts(hit, normal, full_depth, _scatter_xy(m, rows, px, py))


def _scatter_xy(m: int, rows: IntArray, x: FloatArray, y: FloatArray) -> FloatArray:
    """``(m, 2)`` zeros with ``(x, y)`` placed at ``rows``.

    Each ``(x, y)`` pair is moved as one 16-byte item (a complex view: bits are
    copied, no arithmetic), which numpy scatters about twice as fast as two
    strided column assignments.
    """
    out = np.zeros((m, 2))
    pairs = np.empty((rows.size, 2))
    pairs[:, 0] = x
    pairs[:, 1] = y
    out.view(np.complex128)[rows, 0] = pairs.view(np.complex128)[:, 0]
    return out

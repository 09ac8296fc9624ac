"""The separating-axis test and SAT contact of two convex vertex outlines.

Rectangles, triangles and polygons are all reduced to a convex outline (world
vertices in order around the shape), as Box2D reduces a box to a polygon; the pair
modules pick the outlines and call these cores. An outline is given as its vertex
array ``v``, the number ``n`` of its vertices and the number of leading edges whose
normals are distinct axes (a rectangle's opposite edges are parallel: 2 of 4).

Conventions (see :class:`~arcade_collide.geometry.contact.Contact`): closed sets
(separation needs a strict ``<``, so touching shapes collide); the normal points
from A to B and translating B by ``normal * depth`` leaves the shapes touching;
ties go to the first axis (A's edges in order, then B's).
"""

from __future__ import annotations

import math

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import first_max, first_min, put

_INF = math.inf
_OUTLINE = "Tuple((float64[:, ::1], int64, int64))"

Outline = tuple[FloatArray, int, int]
"""A convex outline ``(v, n, axes)``: vertex array, vertex count, number of axes."""


@kernel("UniTuple(float64, 2)(float64[:, ::1], int64, int64)", inline=True)
def _axis(v: FloatArray, n: int, e: int) -> tuple[float, float]:
    """The normal ``(ey, -ex)`` of edge ``e`` of the first ``n`` vertices (unnormalised)."""
    f = e + 1 if e + 1 < n else 0
    return v[f, 1] - v[e, 1], v[e, 0] - v[f, 0]


@kernel("UniTuple(float64, 2)(float64, float64, float64[:, ::1], int64)", inline=True)
def _extent(nx: float, ny: float, v: FloatArray, n: int) -> tuple[float, float]:
    """Highest and lowest projection ``nx*x + ny*y`` of the first ``n`` vertices (the
    first of equal values, as Python's ``max`` and ``min`` keep)."""
    high = low = nx * v[0, 0] + ny * v[0, 1]
    for k in range(1, n):
        d = nx * v[k, 0] + ny * v[k, 1]
        high = first_max(high, d)
        low = first_min(low, d)
    return high, low


@kernel(
    "UniTuple(float64, 6)(float64[:, ::1], int64, float64[:, ::1], int64, int64, int64)",
    inline=True,
)
def _project(
    va: FloatArray, na: int, vb: FloatArray, nb: int, side: int, e: int
) -> tuple[float, float, float, float, float, float]:
    """Edge ``e`` of outline A (``side`` 0) or B (1) as an axis ``(nx, ny)`` and both
    outlines' highest and lowest projections on it: ``(nx, ny, max_a, min_a, max_b, min_b)``."""
    nx, ny = _axis(va if side == 0 else vb, na if side == 0 else nb, e)
    max_a, min_a = _extent(nx, ny, va, na)
    max_b, min_b = _extent(nx, ny, vb, nb)
    return nx, ny, max_a, min_a, max_b, min_b


@kernel(f"boolean({_OUTLINE}, {_OUTLINE})", inline=True)
def sat_intersects(a: Outline, b: Outline) -> bool:
    """Whether two convex outlines touch or overlap (Ericson, RTCD 5.2.1 / 4.4.1).

    Two convex sets are disjoint exactly when some edge normal of either one
    separates their projections, so testing the edge normals ``(ey, -ex)`` of both
    outlines is exact; containment is caught because no axis then separates.
    """
    va, na, axes_a = a
    vb, nb, axes_b = b
    for side in range(2):
        for e in range(axes_a if side == 0 else axes_b):
            _, _, hi_a, lo_a, hi_b, lo_b = _project(va, na, vb, nb, side, e)
            if hi_a < lo_b or hi_b < lo_a:
                return False
    return True


@kernel(f"int64({_OUTLINE}, {_OUTLINE}, boolean, float64[::1])")
def _sat_contact(a: Outline, b: Outline, flip: bool, out: FloatArray) -> int:
    """0 when separated, else the contact into ``out`` (its normal reversed when
    ``flip``) and 2 if a tie decided it, 1 if not (see :func:`sat_contact`)."""
    va, na, axes_a = a
    vb, nb, axes_b = b
    best = _INF
    best_a = _INF
    best_b = _INF
    k_side = 0
    k_edge = 0
    k_forward = 0.0
    k_backward = 0.0
    first = True
    for side in range(2):
        for e in range(axes_a if side == 0 else axes_b):
            nx, ny, max_a, min_a, max_b, min_b = _project(va, na, vb, nb, side, e)
            if max_a < min_b or max_b < min_a:
                return 0
            forward = max_a - min_b
            backward = max_b - min_a
            overlap = forward if forward <= backward else backward
            # Axes rank by the squared depth overlap * (overlap / |axis|^2): no square
            # root per axis, and overlap^2 first would overflow beyond ~1e77 and tie
            # every axis. An edge rounded to zero length far out gives no axis.
            len2 = nx * nx + ny * ny
            rank = overlap * (overlap / len2) if len2 > 0.0 else _INF
            if first or rank < best:
                best = rank
                k_side = side
                k_edge = e
                k_forward = forward
                k_backward = backward
                first = False
            if side == 0:
                best_a = first_min(best_a, rank) if e > 0 else rank
            else:
                best_b = first_min(best_b, rank) if e > 0 else rank
    # Only a tie between an axis of A and one of B (or equal overlap both ways) can
    # resolve differently when the arguments swap; ties among one outline's own
    # parallel edges resolve alike in both orders.
    tie = (axes_a > 0 and best_a == best and axes_b > 0 and best_b == best) or (
        k_forward == k_backward
    )
    if k_side == 0:
        nx, ny = _axis(va, na, k_edge)
    else:
        nx, ny = _axis(vb, nb, k_edge)
    length = math.sqrt(nx * nx + ny * ny)
    sign = 1.0 if k_forward <= k_backward else -1.0
    depth = (k_forward if sign > 0.0 else k_backward) / length
    # Adding 0.0 turns a -0.0 component into 0.0.
    ux = nx / length * sign + 0.0
    uy = ny / length * sign + 0.0
    # The point: midway between the two surfaces along u, mid-overlap along t.
    tx = -uy
    ty = ux
    top_a = _extent(ux, uy, va, na)[0]
    low_b = _extent(ux, uy, vb, nb)[1]
    hi_ta, lo_ta = _extent(tx, ty, va, na)
    hi_tb, lo_tb = _extent(tx, ty, vb, nb)
    s_n = (top_a + low_b) * 0.5
    s_t = (first_max(lo_ta, lo_tb) + first_min(hi_ta, hi_tb)) * 0.5
    px = ux * s_n + tx * s_t
    py = uy * s_n + ty * s_t
    if flip:
        ux = -ux
        uy = -uy
    put(out, ux, uy, first_max(depth, 0.0), px, py)
    return 2 if tie else 1


@kernel("boolean(float64[:, ::1], int64, float64[:, ::1], int64)")
def _key_less(vb: FloatArray, nb: int, va: FloatArray, na: int) -> bool:
    """Whether outline ``vb`` sorts before ``va``: vertex count, then coordinates in order."""
    if nb != na:
        return nb < na
    for k in range(nb):
        for c in range(2):
            if vb[k, c] != va[k, c]:
                return bool(vb[k, c] < va[k, c])
    return False


@kernel(f"boolean({_OUTLINE}, {_OUTLINE}, boolean, float64[::1])")
def sat_contact(a: Outline, b: Outline, canonical: bool, out: FloatArray) -> bool:
    """SAT contact of two convex outlines into ``out``; False (``out`` untouched) when apart.

    Axes are A's edge normals in edge order, then B's. On each axis the overlap is
    ``max(A) - min(B)`` when B lies on the positive side (ties choose the positive
    side) else ``max(B) - min(A)``; depth is the overlap divided by the axis length
    and the smallest depth wins (first axis on ties). For convex outlines that
    minimum is the penetration depth (RTCD 5.2.1).

    Without ties the answer for (B, A) is exactly the flipped answer for (A, B).
    With ``canonical`` (same-type pairs), a contact decided by a tie (an axis of A
    and an axis of B of equal depth, or equal overlap on both sides) is evaluated
    with the outlines in a canonical order (:func:`_key_less`, smaller first) and
    flipped back, so symmetry holds there too unless the outlines are identical.

    The point is defined in the frame of the unit normal ``u`` and its tangent
    ``t = (-u.y, u.x)``: along ``u`` it is midway between A's furthest extent along
    ``u`` and B's furthest extent against it (the two surfaces, ``depth`` apart);
    along ``t`` it is the middle of the interval where the two shapes' shadows on
    ``t`` overlap. It moves continuously with the shapes and does not single out an
    arbitrary vertex when edges lie flat against each other.
    """
    found = _sat_contact(a, b, False, out)
    if canonical and found == 2 and _key_less(b[0], b[1], a[0], a[1]):
        _sat_contact(b, a, True, out)
    return found > 0

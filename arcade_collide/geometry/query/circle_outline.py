"""A circle against a convex vertex outline: the boolean test and the contact.

The outline is the first ``n`` rows of a vertex array, counter-clockwise (y up), or
a triangle in either winding: with ``swap`` its vertices are taken in the order
0, 2, 1, which makes a clockwise triangle counter-clockwise (:func:`clockwise`).

The circle hits when its centre is inside the outline or within ``r`` of an edge
(RTCD 5.1.2, 5.2.8). Closest points on an edge clamp the projection parameter to
``[0, 1]``; the offset ``centre - q`` is formed from ``w = centre - start``, never
from the world point ``q = start + t*e``: far from the origin ``q`` would be rounded
to the coordinates' ulp before the subtraction, and a circle exactly touching an
edge would miss it. "Within r" is decided without the rounded ``t``: when the
closest point lies inside the edge, distance^2 = cross^2 / len2, so the test is
``cross^2 <= r^2 * len2`` (no division: exact on integer coordinates); at an end
the offset is ``w`` or ``w - e``, already exact. An edge rounded to zero length far
from the origin is its start point and no face.
"""

from __future__ import annotations

import math

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import first_max, first_min, put

NEAR_EDGE = 2.0**-44
"""A circle centre closer to an outline than ``NEAR_EDGE * (|x| + |y| + r)`` (256 units in
the last place of that sum) is treated as on it: so close, ``q - centre`` is rounding
noise (a few units in the last place of the coordinates) and points anywhere, while the
nearest face's normal is exact (the depth changes by that gap). A wider band would take
a centre near a sharp corner, well clear of rounding far from the origin, for one on the
corner's face: 2**-33 gave a unit circle at (1e9, 1e9) a normal 80 degrees off."""

_INF = math.inf
_CIRCLE_OUTLINE = "float64, float64, float64, float64[:, ::1], int64, boolean"


@kernel("boolean(float64[:, ::1])", inline=True)
def clockwise(v: FloatArray) -> bool:
    """Whether a triangle's three vertices run clockwise (y up)."""
    ax = v[0, 0]
    ay = v[0, 1]
    return bool((v[1, 0] - ax) * (v[2, 1] - ay) - (v[1, 1] - ay) * (v[2, 0] - ax) < 0.0)


@kernel("UniTuple(float64, 4)(float64[:, ::1], int64, boolean, int64)", inline=True)
def _side(v: FloatArray, n: int, swap: bool, e: int) -> tuple[float, float, float, float]:
    """Edge ``e`` of the outline (vertex order 0, 2, 1 with ``swap``): its start
    ``(px, py)`` and its vector ``(ex, ey)`` to the next vertex."""
    s = (n - e) % n if swap else e
    f = (n - e - 1) % n if swap else (e + 1) % n
    return v[s, 0], v[s, 1], v[f, 0] - v[s, 0], v[f, 1] - v[s, 1]


@kernel(
    f"Tuple((float64, boolean, float64, float64, float64))({_CIRCLE_OUTLINE}, int64)",
    inline=True,
)
def _edge(
    cx: float, cy: float, r: float, v: FloatArray, n: int, swap: bool, e: int
) -> tuple[float, bool, float, float, float]:
    """Edge ``e`` against the centre: ``(cross, within, d2, dx, dy)``, where ``cross >= 0``
    puts the centre on the inner side, ``within`` says the edge is no farther than ``r``
    (decided exactly, see the module docstring) and ``(dx, dy)`` is the centre minus
    the edge's closest point, ``d2`` its square."""
    px, py, ex, ey = _side(v, n, swap, e)
    wx = cx - px
    wy = cy - py
    cross = ex * wy - ey * wx
    len2 = ex * ex + ey * ey
    dot = wx * ex + wy * ey
    t = first_min(first_max(dot / len2, 0.0), 1.0) if len2 > 0.0 else 0.0
    dx = wx - t * ex
    dy = wy - t * ey
    d2 = dx * dx + dy * dy
    within = cross * cross <= r * r * len2 if 0.0 < dot < len2 else d2 <= r * r
    return cross, within, d2, dx, dy


@kernel(f"boolean({_CIRCLE_OUTLINE})", inline=True)
def circle_outline_intersects(
    cx: float, cy: float, r: float, v: FloatArray, n: int, swap: bool
) -> bool:
    """Whether the circle ``(cx, cy, r)`` touches or overlaps the outline (closed sets)."""
    inside = True
    for e in range(n):
        cross, within, _, _, _ = _edge(cx, cy, r, v, n, swap, e)
        if within:
            return True
        inside = inside and cross >= 0.0
    return inside


@kernel(f"boolean({_CIRCLE_OUTLINE}, float64[::1])")
def circle_outline_contact(
    cx: float, cy: float, r: float, v: FloatArray, n: int, swap: bool, out: FloatArray
) -> bool:
    """Contact of circle A with outline B into ``out``, normal from A to B; False when apart.

    Centre outside B: the normal runs from the centre to B's closest point ``q`` and
    ``depth = r - |q - centre|``. Centre inside or on B's boundary (within
    :data:`NEAR_EDGE`): B leaves through the face nearest the centre (first face on
    ties, so a centre exactly on a vertex uses the earlier face); the normal is that
    face's inward normal and ``depth = r +`` the distance to the face. In both cases
    the point is the midpoint of the circle's deepest point ``centre + r*normal`` and
    ``q`` (the face point level with the centre in the inside case).
    """
    inside = True
    touching = False
    d2_min = _INF
    k_min = 0
    for e in range(n):
        cross, within, d2, _, _ = _edge(cx, cy, r, v, n, swap, e)
        inside = inside and cross >= 0.0
        touching = touching or within
        if e == 0 or d2 < d2_min:  # the first nearest edge
            d2_min = d2
            k_min = e
    if not (inside or touching):
        return False
    d2 = d2_min
    near = NEAR_EDGE * (abs(cx) + abs(cy) + r)
    if inside or d2 <= near * near:
        best = _INF
        k = 0
        for e in range(n):
            px, py, ex, ey = _side(v, n, swap, e)
            cross = ex * (cy - py) - ey * (cx - px)
            length = math.sqrt(ex * ex + ey * ey)
            dist = cross / length if length > 0.0 else _INF
            if dist < best:
                best = dist
                k = e
        _, _, ex, ey = _side(v, n, swap, k)
        length = math.sqrt(ex * ex + ey * ey)
        # 0.0 - ey is start.y - end.y exactly (rounding is symmetric; equal values give 0.0).
        nx = (0.0 - ey) / length
        ny = ex / length
        depth = r + best
        qx = cx - best * nx
        qy = cy - best * ny
    else:
        _, _, _, dx, dy = _edge(cx, cy, r, v, n, swap, k_min)
        d = math.sqrt(d2)
        # 0.0 - dx rather than -dx: no -0.0 components.
        nx = (0.0 - dx) / d
        ny = (0.0 - dy) / d
        qx = cx - dx
        qy = cy - dy
        depth = r - d
    put(out, nx, ny, first_max(depth, 0.0), (cx + nx * r + qx) * 0.5, (cy + ny * r + qy) * 0.5)
    return True

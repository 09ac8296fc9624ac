"""Is a point inside a triangle? Six ways to ask, one boundary rule.

**Boundary rule.** A triangle is a closed set: a point on an edge or on a vertex
is inside. The vertices may be given in either winding order. Every method
below obeys this rule; the tests check that all six give the same answer on
integer grids that include edge and vertex points.

**The six methods** (see ``POINT_IN_TRIANGLE_METHODS``):

``angle_sum``
    From each vertex, measure the angles between the vertex->P vector and the
    two edges leaving that vertex. Inside, each pair adds up to the triangle's
    angle at that vertex, so all six add up to pi; outside, at least one pair
    overshoots, so the total exceeds pi. Needs a tolerance (see below).
``angle_compare``
    The same angles, used differently: P is inside when, at every vertex, the
    vertex->P vector makes no larger an angle with either edge than the two
    edges make with each other. Can stop at the first vertex that fails.
``same_side``
    P is inside when, for every edge, P lies on the same side of the edge's
    line as the third vertex (or on the line): the cross products
    ``edge x (P - start)`` and ``edge x (third - start)`` do not have opposite
    signs. Exact on integer coordinates.
``line_equation``
    Each edge's line ``a*x + b*y + c = 0`` (``a = yb - ya``, ``b = xa - xb``,
    ``c = xb*ya - xa*yb``) is evaluated at P, relative to the edge's start; P is
    inside when the three values never have opposite signs. Exact on integer
    coordinates. This is the default (see its docstring).
``barycentric``
    Write ``P = u*A + v*B + w*C`` with ``u + v + w = 1`` (Ericson, *Real-Time
    Collision Detection*, 3.4); P is inside when ``u, v, w >= 0``. The
    coordinates are ratios of signed areas, all sharing the denominator
    ``2 * signed area(ABC)``; the test compares the numerators' signs with the
    denominator's instead of dividing, so it is exact on integer coordinates.
``area``
    The three triangles P makes with the edges have a total area equal to the
    triangle's area when P is inside, and larger otherwise. Needs a tolerance.

**Exactness.** ``same_side``, ``line_equation`` and ``barycentric`` only
multiply two coordinate differences and add or subtract at most three such
products, so for integer coordinates of magnitude up to ``2**24`` every such
product and sum is exact and no point is misjudged, boundary points included;
for general floats they are as good as the sign of a floating-point cross
product (a point within rounding error of an edge line may go either way).

**Tolerances.** The angle methods accept an overshoot of ``ANGLE_TOLERANCE``
radians. Angles do not change when the triangle is scaled, so this is a
relative tolerance by construction: a point counts as touching when it lies
within about ``1e-12`` times its distance from the nearest vertex outside an
edge. The angles are computed with ``atan2(|cross|, dot)``, whose error is a
few units in the last place, rather than the seeds' ``acos(dot / lengths)``,
which loses about half the digits near 0 and pi. The area method accepts an
excess of ``AREA_TOLERANCE`` times the squared longest edge, i.e. points
within about ``1e-12`` times the longest edge outside an edge count as
touching; measured rounding errors stay below ``3e-16`` times that square.

Each method ``point_in_triangle_<method>(p, a, b, c)`` takes the point and the
three vertices (either winding) and returns True when ``p`` is inside or on the
boundary. They are unchecked fast paths: finite pairs and a non-degenerate
triangle are assumed. :func:`point_in_triangle` and :func:`barycentric` validate
their arguments and reject degenerate (zero-area) triangles.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from arcade_collide.geometry.pose import Vec2, check_vec2
from arcade_collide.geometry.shapes import DEGENERATE_TOLERANCE

__all__ = [
    "ANGLE_TOLERANCE",
    "AREA_TOLERANCE",
    "DEFAULT_POINT_IN_TRIANGLE_METHOD",
    "POINT_IN_TRIANGLE_METHODS",
    "barycentric",
    "point_in_triangle",
    "point_in_triangle_angle_compare",
    "point_in_triangle_angle_sum",
    "point_in_triangle_area",
    "point_in_triangle_barycentric",
    "point_in_triangle_line_equation",
    "point_in_triangle_same_side",
]

ANGLE_TOLERANCE = 1e-12
"""Radians an angle test may overshoot and still count as touching: about 2250 times
``math.ulp(math.pi)``, where the six-angle sum of inside points stays within 2."""

AREA_TOLERANCE = 1e-12
"""Excess of the doubled area sum allowed, as a fraction of the squared longest edge."""

POINT_IN_TRIANGLE_METHODS = (
    "angle_sum",
    "angle_compare",
    "same_side",
    "line_equation",
    "barycentric",
    "area",
)
"""The valid ``method`` names for :func:`point_in_triangle`."""

DEFAULT_POINT_IN_TRIANGLE_METHOD = "line_equation"
"""The method :func:`point_in_triangle` uses when none is given."""


def _angle(ux: float, uy: float, vx: float, vy: float) -> float:
    """Unsigned angle between two vectors in ``[0, pi]``; 0 when either is zero.

    ``atan2(|u x v|, u . v)`` is accurate to a few ulps everywhere, unlike
    ``acos`` whose slope is infinite at 0 and pi.
    """
    # With a zero vector the dot product can be -0.0, and atan2(0.0, -0.0) is pi;
    # adding 0.0 turns -0.0 into +0.0 and leaves every other value unchanged.
    return math.atan2(abs(ux * vy - uy * vx), ux * vx + uy * vy + 0.0)


def point_in_triangle_angle_sum(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool:
    """Angle-sum method: the six vertex angles to P add up to pi inside.

    Tolerance: the sum may exceed pi by ``ANGLE_TOLERANCE`` radians (scale-free).

    >>> points = [(1, 1), (3, 3), (2, 2)]  # hit, miss, touching
    >>> [point_in_triangle_angle_sum(p, (0, 0), (4, 0), (0, 4)) for p in points]
    [True, False, True]
    """
    px, py = p
    ax, ay = a
    bx, by = b
    cx, cy = c
    apx, apy = px - ax, py - ay
    bpx, bpy = px - bx, py - by
    cpx, cpy = px - cx, py - cy
    abx, aby = bx - ax, by - ay
    bcx, bcy = cx - bx, cy - by
    cax, cay = ax - cx, ay - cy
    # P on a vertex gives a zero vector whose angles are 0, so the sum is pi minus
    # that vertex's angle: below pi, hence inside, as the boundary rule wants.
    total = (
        _angle(apx, apy, abx, aby)
        + _angle(apx, apy, -cax, -cay)
        + _angle(bpx, bpy, -abx, -aby)
        + _angle(bpx, bpy, bcx, bcy)
        + _angle(cpx, cpy, -bcx, -bcy)
        + _angle(cpx, cpy, cax, cay)
    )
    return total <= math.pi + ANGLE_TOLERANCE


def point_in_triangle_angle_compare(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool:
    """Angle-comparison method: at each vertex, P is within the vertex's angle.

    Tolerance: an angle may exceed the vertex angle by ``ANGLE_TOLERANCE`` radians
    (scale-free). Stops at the first vertex that fails.

    >>> points = [(1, 1), (-1, 1), (0, 4)]  # hit, miss, touching
    >>> [point_in_triangle_angle_compare(p, (0, 0), (4, 0), (0, 4)) for p in points]
    [True, False, True]
    """
    px, py = p
    # One vertex's test alone admits a wider region when its angle exceeds
    # 120 degrees (the two "within the angle" cones then overlap behind the
    # vertex); at most one angle can, and the other two vertices' wedges
    # intersect exactly in the triangle, so testing all three is exact.
    for (ox, oy), (ux, uy), (wx, wy) in ((a, b, c), (b, c, a), (c, a, b)):
        e1x, e1y = ux - ox, uy - oy
        e2x, e2y = wx - ox, wy - oy
        opx, opy = px - ox, py - oy
        limit = _angle(e1x, e1y, e2x, e2y) + ANGLE_TOLERANCE
        if _angle(e1x, e1y, opx, opy) > limit or _angle(e2x, e2y, opx, opy) > limit:
            return False
    return True


def point_in_triangle_same_side(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool:
    """Same-side method: for every edge, P and the third vertex share a side.

    Exact on integer coordinates up to ``2**24``; P on an edge's line (zero cross
    product) is on "both" sides, hence inside.

    >>> points = [(1, 1), (5, 0), (0, 0)]  # hit, miss, touching
    >>> [point_in_triangle_same_side(p, (0, 0), (0, 4), (4, 0)) for p in points]
    [True, False, True]
    """
    px, py = p
    for (sx, sy), (ex, ey), (tx, ty) in ((a, b, c), (b, c, a), (c, a, b)):
        dx, dy = ex - sx, ey - sy
        side_p = dx * (py - sy) - dy * (px - sx)
        side_t = dx * (ty - sy) - dy * (tx - sx)
        # The seeds test dot(cross1, cross2) >= 0; in 2D that is the product of
        # the two z values, which can overflow or underflow to a wrong sign, so
        # compare the signs themselves.
        if (side_p < 0.0 < side_t) or (side_t < 0.0 < side_p):
            return False
    return True


def point_in_triangle_line_equation(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool:
    """Line-equation method, each edge measured from its own start (the default method).

    Exact on integer coordinates up to ``2**24``.

    The default: the fastest in ``benchmarks/bench_point_in_triangle.py`` (tied with
    ``barycentric``), and it treats the three edges alike with no winding branch; the
    point-triangle kernel performs exactly its operations.

    >>> points = [(1, 1), (1, -1), (2, 0)]  # hit, miss, touching
    >>> [point_in_triangle_line_equation(p, (0, 0), (4, 0), (0, 4)) for p in points]
    [True, False, True]
    """
    px, py = p
    ax, ay = a
    bx, by = b
    cx, cy = c
    # The seed's line through (xa, ya), (xb, yb): A = yb - ya, B = xa - xb and
    # d = A*x + B*y + C. Evaluated relative to the edge's own start vertex, C
    # cancels: d = A*(x - xa) + B*(y - ya). The rounding error then scales with
    # the edge, not with |P|, so a tiny triangle far from P keeps its sign. The
    # edges go round in one winding order, so inside means the three values never
    # have opposite signs (zero = on a line).
    d1 = (by - ay) * (px - ax) + (ax - bx) * (py - ay)
    d2 = (cy - by) * (px - bx) + (bx - cx) * (py - by)
    d3 = (ay - cy) * (px - cx) + (cx - ax) * (py - cy)
    return not ((d1 < 0.0 or d2 < 0.0 or d3 < 0.0) and (d1 > 0.0 or d2 > 0.0 or d3 > 0.0))


def point_in_triangle_barycentric(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool:
    """Barycentric method: ``u, v, w >= 0``, decided on the numerators.

    Exact on integer coordinates up to ``2**24``: no division happens.

    >>> points = [(1, 1), (4, 4), (4, 0)]  # hit, miss, touching
    >>> [point_in_triangle_barycentric(p, (0, 0), (4, 0), (0, 4)) for p in points]
    [True, False, True]
    """
    ax, ay = a
    abx, aby = b[0] - ax, b[1] - ay
    acx, acy = c[0] - ax, c[1] - ay
    apx, apy = p[0] - ax, p[1] - ay
    # v = (AP x AC) / (AB x AC), w = (AB x AP) / (AB x AC), u = 1 - v - w.
    denom = abx * acy - aby * acx
    v_num = apx * acy - apy * acx
    w_num = abx * apy - aby * apx
    if denom < 0.0:
        denom, v_num, w_num = -denom, -v_num, -w_num
    # u >= 0  <=>  v_num + w_num <= denom, since denom > 0.
    return v_num >= 0.0 and w_num >= 0.0 and v_num + w_num <= denom


def point_in_triangle_area(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool:
    """Area method: the three sub-triangles' areas add up to the triangle's.

    Tolerance: the doubled area sum may exceed the doubled area by ``AREA_TOLERANCE``
    times the squared longest edge, so the allowance scales with the triangle (the
    seed's fixed 0.1 does not).

    >>> points = [(1, 1), (1, 5), (0, 1)]  # hit, miss, touching
    >>> [point_in_triangle_area(p, (0, 0), (4, 0), (0, 4)) for p in points]
    [True, False, True]
    """
    px, py = p
    ax, ay = a
    bx, by = b
    cx, cy = c
    abx, aby = bx - ax, by - ay
    bcx, bcy = cx - bx, cy - by
    cax, cay = ax - cx, ay - cy
    # Twice the areas of PAB, PBC, PCA, each measured from its edge's start so the
    # rounding error scales with the triangle rather than with |P|; then ABC.
    parts = (
        abs(abx * (py - ay) - aby * (px - ax))
        + abs(bcx * (py - by) - bcy * (px - bx))
        + abs(cax * (py - cy) - cay * (px - cx))
    )
    whole = abs(abx * bcy - aby * bcx)
    longest_sq = max(abx * abx + aby * aby, bcx * bcx + bcy * bcy, cax * cax + cay * cay)
    return parts - whole <= AREA_TOLERANCE * longest_sq


_METHODS: dict[str, Callable[[Vec2, Vec2, Vec2, Vec2], bool]] = {
    "angle_sum": point_in_triangle_angle_sum,
    "angle_compare": point_in_triangle_angle_compare,
    "same_side": point_in_triangle_same_side,
    "line_equation": point_in_triangle_line_equation,
    "barycentric": point_in_triangle_barycentric,
    "area": point_in_triangle_area,
}


def _vec2(value: object, name: str) -> Vec2:
    """``check_vec2`` with a shortcut, giving the same floats, for two finite floats."""
    if type(value) is tuple and len(value) == 2:
        x, y = value
        if type(x) is float and type(y) is float and math.isfinite(x) and math.isfinite(y):
            return (x, y)
    return check_vec2(value, name)


def _checked_triangle(p: object, a: object, b: object, c: object) -> tuple[Vec2, ...]:
    """Validate ``p, a, b, c``; reject a degenerate triangle with the shapes' rule."""
    pv = _vec2(p, "p")
    av = _vec2(a, "a")
    bv = _vec2(b, "b")
    cv = _vec2(c, "c")
    twice_area = (bv[0] - av[0]) * (cv[1] - av[1]) - (bv[1] - av[1]) * (cv[0] - av[0])
    xs = (av[0], bv[0], cv[0])
    ys = (av[1], bv[1], cv[1])
    size = max(max(xs) - min(xs), max(ys) - min(ys))
    if abs(twice_area) <= DEGENERATE_TOLERANCE * size * size:
        raise ValueError(
            f"triangle a={av}, b={bv}, c={cv} is degenerate: its vertices are collinear"
            " (zero area)"
        )
    return (pv, av, bv, cv)


def point_in_triangle(
    p: Vec2, a: Vec2, b: Vec2, c: Vec2, method: str = DEFAULT_POINT_IN_TRIANGLE_METHOD
) -> bool:
    """Whether ``p`` lies in the closed triangle ``a, b, c`` (boundary counts).

    Args:
        p: The point ``(x, y)``.
        a: First vertex ``(x, y)``.
        b: Second vertex.
        c: Third vertex (either winding order).
        method: One of ``POINT_IN_TRIANGLE_METHODS``; all give the same answer
            (see the module docstring).

    Returns:
        True when ``p`` is inside the triangle or on its boundary.

    Raises:
        TypeError: a point is not a pair of real numbers, or ``method`` is not a str.
        ValueError: a coordinate is NaN or infinite, the triangle is degenerate
            (collinear vertices), or ``method`` is unknown.

    >>> point_in_triangle((1, 1), (0, 0), (4, 0), (0, 4))
    True
    >>> point_in_triangle((3, 3), (0, 0), (4, 0), (0, 4), method="area")
    False
    >>> point_in_triangle((2, 2), (0, 0), (0, 4), (4, 0), method="angle_sum")
    True
    >>> point_in_triangle((1, 1), (0, 0), (1, 1), (2, 2))
    Traceback (most recent call last):
    ...
    ValueError: triangle a=(0.0, 0.0), b=(1.0, 1.0), c=(2.0, 2.0) is degenerate: its vertices are collinear (zero area)
    >>> point_in_triangle((1, 1), (0, 0), (4, 0), (0, 4), method="winding")
    Traceback (most recent call last):
    ...
    ValueError: unknown method 'winding'; valid methods: angle_sum, angle_compare, same_side, line_equation, barycentric, area
    """  # noqa: E501
    if not isinstance(method, str):
        raise TypeError(f"method must be a str naming a method, got {type(method).__name__}")
    fast = _METHODS.get(method)
    if fast is None:
        valid = ", ".join(POINT_IN_TRIANGLE_METHODS)
        raise ValueError(f"unknown method {method!r}; valid methods: {valid}")
    pv, av, bv, cv = _checked_triangle(p, a, b, c)
    return fast(pv, av, bv, cv)


def barycentric(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> tuple[float, float, float]:
    """Barycentric coordinates ``(u, v, w)`` of ``p``: ``p = u*a + v*b + w*c``.

    ``u + v + w = 1`` (``u`` is computed as ``1 - v - w``, as in Ericson,
    *Real-Time Collision Detection*, 3.4). ``v`` and ``w`` are ratios of signed
    areas: ``v = area(P, C, A) / area(A, B, C)``, ``w = area(A, B, P) / area(A, B, C)``.
    ``p`` is in the closed triangle exactly when all three are ``>= 0``.

    Args:
        p: The point ``(x, y)``.
        a: First vertex.
        b: Second vertex.
        c: Third vertex.

    Returns:
        ``(u, v, w)``.

    Raises:
        TypeError: a point is not a pair of real numbers.
        ValueError: a coordinate is NaN or infinite, or the triangle is degenerate.

    >>> barycentric((1, 1), (0, 0), (4, 0), (0, 4))
    (0.5, 0.25, 0.25)
    >>> barycentric((4, 4), (0, 0), (4, 0), (0, 4))
    (-1.0, 1.0, 1.0)
    >>> barycentric((0, 4), (0, 0), (4, 0), (0, 4))
    (0.0, 0.0, 1.0)
    """
    (px, py), (ax, ay), (bx, by), (cx, cy) = _checked_triangle(p, a, b, c)
    abx, aby = bx - ax, by - ay
    acx, acy = cx - ax, cy - ay
    apx, apy = px - ax, py - ay
    denom = abx * acy - aby * acx
    v = (apx * acy - apy * acx) / denom
    w = (abx * apy - aby * apx) / denom
    return (1.0 - v - w, v, w)

"""Tests for the six point-in-triangle methods, barycentric() and the batch form."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from arcade_collide.geometry.arrays import pack
from arcade_collide.geometry.point_in_triangle import (
    DEFAULT_POINT_IN_TRIANGLE_METHOD,
    POINT_IN_TRIANGLE_METHODS,
    barycentric,
    point_in_triangle,
    point_in_triangle_line_equation,
)
from arcade_collide.geometry.query.dispatch import intersects_batch
from arcade_collide.geometry.shapes import Point, Triangle

Vec = tuple[float, float]


def exact_inside(p: Vec, a: Vec, b: Vec, c: Vec) -> bool:
    """Reference answer in exact rational arithmetic (closed triangle, any winding)."""
    px, py = Fraction(p[0]), Fraction(p[1])
    signs = set()
    for (sx, sy), (tx, ty) in ((a, b), (b, c), (c, a)):
        sx, sy, tx, ty = Fraction(sx), Fraction(sy), Fraction(tx), Fraction(ty)
        cross = (tx - sx) * (py - sy) - (ty - sy) * (px - sx)
        if cross != 0:
            signs.add(cross > 0)
    return len(signs) < 2


def exact_edge_distance(p: Vec, a: Vec, b: Vec, c: Vec) -> float:
    """Distance from p to the nearest edge LINE (enough to keep random cases off edges)."""
    best = math.inf
    for (sx, sy), (tx, ty) in ((a, b), (b, c), (c, a)):
        ex, ey = tx - sx, ty - sy
        best = min(best, abs(ex * (p[1] - sy) - ey * (p[0] - sx)) / math.hypot(ex, ey))
    return best


def orders(a: Vec, b: Vec, c: Vec) -> list[tuple[Vec, Vec, Vec]]:
    """All six vertex orders: three of each winding."""
    return list(itertools.permutations((a, b, c)))


def integer_triangles(count: int, seed: int, span: int = 6) -> list[tuple[Vec, Vec, Vec]]:
    rng = random.Random(seed)
    found: list[tuple[Vec, Vec, Vec]] = [
        ((0.0, 0.0), (4.0, 0.0), (0.0, 4.0)),  # right angle, hypotenuse through lattice points
        ((-6.0, 0.0), (6.0, 0.0), (0.0, 1.0)),  # flat, with a 161-degree angle at (0, 1)
        ((-6.0, -6.0), (6.0, -6.0), (0.0, 6.0)),
    ]
    while len(found) < count:
        a, b, c = (
            (float(rng.randint(-span, span)), float(rng.randint(-span, span))) for _ in range(3)
        )
        if (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]) != 0:
            found.append((a, b, c))
    return found


GRID = [(float(x), float(y)) for x in range(-7, 8) for y in range(-7, 8)]


def test_methods_tuple_and_default() -> None:
    assert POINT_IN_TRIANGLE_METHODS == (
        "angle_sum",
        "angle_compare",
        "same_side",
        "line_equation",
        "barycentric",
        "area",
    )
    assert DEFAULT_POINT_IN_TRIANGLE_METHOD in POINT_IN_TRIANGLE_METHODS
    assert DEFAULT_POINT_IN_TRIANGLE_METHOD == "line_equation"


def test_all_methods_agree_on_integer_grids_both_windings() -> None:
    on_boundary = inside = outside = 0
    for tri in integer_triangles(24, seed=7):
        for p in GRID:
            expected = exact_inside(p, *tri)
            boundary = exact_edge_distance(p, *tri) == 0.0 and expected
            on_boundary += boundary
            inside += expected and not boundary
            outside += not expected
            for a, b, c in orders(*tri):
                got = {
                    m: point_in_triangle(p, a, b, c, method=m) for m in POINT_IN_TRIANGLE_METHODS
                }
                assert set(got.values()) == {expected}, (p, (a, b, c), got)
    # The grid really exercised every case, boundary included.
    assert on_boundary > 100 and inside > 100 and outside > 1000


def test_vertices_and_edge_midpoints_are_inside() -> None:
    a, b, c = (1.0, 1.0), (9.0, 3.0), (4.0, 8.0)
    points = [a, b, c, (5.0, 2.0), (6.5, 5.5), (2.5, 4.5)]
    for p in points:
        for order in orders(a, b, c):
            for m in POINT_IN_TRIANGLE_METHODS:
                assert point_in_triangle(p, *order, method=m), (p, order, m)


finite = st.floats(min_value=-100.0, max_value=100.0, allow_nan=False, allow_infinity=False)
point_st = st.tuples(finite, finite)


@settings(max_examples=300, deadline=None)
@given(point_st, point_st, point_st, point_st)
def test_methods_match_exact_reference_away_from_edges(p: Vec, a: Vec, b: Vec, c: Vec) -> None:
    twice_area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    longest = max(math.dist(a, b), math.dist(b, c), math.dist(c, a))
    assume(abs(twice_area) > 1e-3 * longest * longest)
    assume(exact_edge_distance(p, a, b, c) > 1e-6 * longest)
    expected = exact_inside(p, a, b, c)
    for order in ((a, b, c), (a, c, b)):
        for m in POINT_IN_TRIANGLE_METHODS:
            assert point_in_triangle(p, *order, method=m) == expected, m


def test_random_floats_both_outcomes_occur() -> None:
    rng = random.Random(3)
    results = []
    a, b, c = (-3.5, -2.25), (4.75, -1.0), (0.5, 5.125)
    for _ in range(400):
        p = (rng.uniform(-6, 6), rng.uniform(-6, 6))
        if exact_edge_distance(p, a, b, c) < 1e-9:
            continue
        answers = {point_in_triangle(p, a, b, c, method=m) for m in POINT_IN_TRIANGLE_METHODS}
        assert answers == {exact_inside(p, a, b, c)}
        results.append(answers.pop())
    assert 50 < sum(results) < len(results) - 50


@settings(max_examples=200, deadline=None)
@given(point_st, point_st, point_st, point_st)
# A point 1e34 triangle sizes away: v and w near -+7.7e33, so u = 1 - v - w keeps no digit
# of the 1; the sum is 1 to within the rounding of those magnitudes.
@example((0.0, 1.0), (1.300871271499321e-34, 0.0), (0.0, 0.0), (0.0, 1.300871271499321e-34))
def test_barycentric_reconstructs_point(p: Vec, a: Vec, b: Vec, c: Vec) -> None:
    longest = max(math.dist(a, b), math.dist(b, c), math.dist(c, a))
    twice_area = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    assume(abs(twice_area) > 1e-3 * longest * longest)
    u, v, w = barycentric(p, a, b, c)
    size = max(1.0, abs(u) + abs(v) + abs(w))
    assert u + v + w == pytest.approx(1.0, abs=1e-12 * size)
    # Error bound: coordinates are ratios with a well-conditioned denominator.
    scale = max(1.0, *map(abs, (*p, *a, *b, *c)))
    cond = longest * longest / abs(twice_area)
    tol = 1e-12 * scale * cond * size
    assert u * a[0] + v * b[0] + w * c[0] == pytest.approx(p[0], abs=tol)
    assert u * a[1] + v * b[1] + w * c[1] == pytest.approx(p[1], abs=tol)
    inside = u >= 0 and v >= 0 and w >= 0
    if exact_edge_distance(p, a, b, c) > 1e-6 * longest:
        assert inside == exact_inside(p, a, b, c)


def test_barycentric_of_vertices_and_centroid() -> None:
    a, b, c = (2.0, 1.0), (10.0, 1.0), (2.0, 7.0)
    assert barycentric(a, a, b, c) == (1.0, 0.0, 0.0)
    assert barycentric(b, a, b, c) == (0.0, 1.0, 0.0)
    assert barycentric(c, a, b, c) == (0.0, 0.0, 1.0)
    centroid = ((2 + 10 + 2) / 3, (1 + 1 + 7) / 3)
    assert barycentric(centroid, a, b, c) == pytest.approx((1 / 3, 1 / 3, 1 / 3))


@pytest.mark.parametrize("method", POINT_IN_TRIANGLE_METHODS)
def test_degenerate_triangle_rejected(method: str) -> None:
    with pytest.raises(ValueError, match=r"triangle a=\(0.0, 0.0\).*degenerate"):
        point_in_triangle((0, 0), (0, 0), (1, 1), (3, 3), method=method)
    with pytest.raises(ValueError, match="degenerate"):
        point_in_triangle((0, 0), (1, 1), (1, 1), (5, 2), method=method)
    # Scale-relative: a thin but honest triangle at tiny scale is accepted.
    assert point_in_triangle((0, 0), (0, 0), (1e-9, 0), (0, 1e-12), method=method)


def test_barycentric_rejects_degenerate_and_bad_input() -> None:
    with pytest.raises(ValueError, match="degenerate"):
        barycentric((0, 0), (0, 0), (1, 1), (2, 2))
    with pytest.raises(ValueError, match=r"p\[0\] must be finite"):
        barycentric((math.nan, 0), (0, 0), (1, 0), (0, 1))
    with pytest.raises(TypeError, match="c must be a pair"):
        barycentric((0, 0), (0, 0), (1, 0), 5)


@pytest.mark.parametrize("method", POINT_IN_TRIANGLE_METHODS)
def test_nan_and_infinity_rejected(method: str) -> None:
    with pytest.raises(ValueError, match=r"p\[1\] must be finite, got nan"):
        point_in_triangle((0, math.nan), (0, 0), (1, 0), (0, 1), method=method)
    with pytest.raises(ValueError, match=r"b\[0\] must be finite, got inf"):
        point_in_triangle((0, 0), (0, 0), (math.inf, 0), (0, 1), method=method)


def test_wrong_types_rejected() -> None:
    with pytest.raises(TypeError, match="p must be a pair of numbers"):
        point_in_triangle("ab", (0, 0), (1, 0), (0, 1))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"a\[0\] must be a real number, got str"):
        point_in_triangle((0, 0), ("0", 0), (1, 0), (0, 1))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="c must be a pair of numbers"):
        point_in_triangle((0, 0), (0, 0), (1, 0), None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="b must have exactly 2 coordinates, got 3"):
        point_in_triangle((0, 0), (0, 0), (1, 0, 0), (0, 1))  # type: ignore[arg-type]


def test_unknown_method_lists_valid_names() -> None:
    with pytest.raises(ValueError, match="unknown method 'crossing'") as info:
        point_in_triangle((0, 0), (0, 0), (1, 0), (0, 1), method="crossing")
    for name in POINT_IN_TRIANGLE_METHODS:
        assert name in str(info.value)
    with pytest.raises(TypeError, match="method must be a str"):
        point_in_triangle((0, 0), (0, 0), (1, 0), (0, 1), method=2)  # type: ignore[arg-type]


@pytest.mark.parametrize("scale", [1e9, 2.0**-30])
def test_scaled_integer_grids_stay_exact(scale: float) -> None:
    """1e9 and 2**-30 times small integers multiply exactly, so edges stay exact."""
    for tri in integer_triangles(6, seed=11):
        big = tuple((x * scale, y * scale) for x, y in tri)
        for p in GRID[::2]:
            expected = exact_inside(p, *tri)
            q = (p[0] * scale, p[1] * scale)
            for a, b, c in (big, (big[0], big[2], big[1])):
                for m in POINT_IN_TRIANGLE_METHODS:
                    assert point_in_triangle(q, a, b, c, method=m) == expected, (scale, p, tri, m)


@pytest.mark.parametrize("scale", [1e9, 1e-9, 1.0])
def test_tolerances_scale_with_the_triangle(scale: float) -> None:
    """Near-boundary answers do not depend on the triangle's size (the seeds' 0.1 did)."""
    a, b, c = ((0.0, 0.0), (4.0 * scale, 0.0), (0.0, 4.0 * scale))
    off = 1e-7 * scale  # far outside the documented ~1e-12 relative bands
    cases = {
        (1.0 * scale, off): True,
        (1.0 * scale, -off): False,
        (2.0 * scale - off, 2.0 * scale - off): True,
        (2.0 * scale + off, 2.0 * scale + off): False,
        (-off, 3.0 * scale): False,
        (0.25 * scale, 0.5 * scale): True,
        (4.0 * scale + off, 0.0): False,
    }
    for p, expected in cases.items():
        for order in ((a, b, c), (c, b, a)):
            for m in POINT_IN_TRIANGLE_METHODS:
                assert point_in_triangle(p, *order, method=m) == expected, (scale, p, m)


def test_default_is_line_equation() -> None:
    rng = random.Random(5)
    for _ in range(200):
        p, a, b, c = ((rng.uniform(-5, 5), rng.uniform(-5, 5)) for _ in range(4))
        if abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) < 1e-3:
            continue
        assert point_in_triangle(p, a, b, c) == point_in_triangle_line_equation(p, a, b, c)


def test_the_point_triangle_kernel_is_the_default_method() -> None:
    rng = np.random.default_rng(17)
    m = 4000
    vertices = rng.integers(-6, 7, size=(m, 3, 2)).astype(np.float64)
    points = rng.integers(-7, 8, size=(m, 2)).astype(np.float64)
    # Half the rows in general float position, scaled and shifted away from the origin.
    vertices[m // 2 :] = vertices[m // 2 :] * 1.37 + 1e4 + rng.normal(size=(m // 2, 3, 2))
    points[m // 2 :] = points[m // 2 :] * 1.37 + 1e4
    ab = vertices[:, 1] - vertices[:, 0]
    ac = vertices[:, 2] - vertices[:, 0]
    keep = np.abs(ab[:, 0] * ac[:, 1] - ab[:, 1] * ac[:, 0]) > 1e-6
    vertices, points = vertices[keep], points[keep]
    # The point-triangle kernel (intersects_batch) performs the line-equation method.
    local = [Triangle(*map(tuple, v)) for v in vertices.tolist()]  # type: ignore[arg-type]
    mask = intersects_batch(
        pack([Point()] * len(points), points.tolist()), pack(local, [(0.0, 0.0)] * len(local))
    )
    scalar = [
        point_in_triangle_line_equation(tuple(p), *map(tuple, v))  # type: ignore[arg-type]
        for p, v in zip(points.tolist(), vertices.tolist(), strict=True)
    ]
    assert mask.dtype == np.bool_
    assert mask.tolist() == scalar
    assert 100 < mask.sum() < len(mask) - 100


def test_accepts_any_pair_like_input() -> None:
    tri = ((0.0, 0.0), (4.0, 0.0), (0.0, 4.0))
    variants = [
        ((1, 1), (0, 0), [4, 0], (0.0, 4.0)),
        (np.array([1.0, 1.0]), *tri),
        ((np.float64(1.0), np.int32(1)), *tri),
        ((1.0, 1.0), *tri),
    ]
    for args in variants:
        for m in POINT_IN_TRIANGLE_METHODS:
            assert point_in_triangle(*args, method=m) is True  # type: ignore[misc]
    with pytest.raises(TypeError, match=r"p\[0\] must be a real number, got bool"):
        point_in_triangle((True, 1.0), *tri)
    with pytest.raises(ValueError, match=r"a\[1\] must be finite, got -inf"):
        point_in_triangle((1.0, 1.0), (0.0, -math.inf), tri[1], tri[2])


EXACT_METHODS = ("same_side", "line_equation", "barycentric")


@settings(max_examples=300, deadline=None)
@given(
    st.tuples(st.integers(-(2**23), 2**23), st.integers(-(2**23), 2**23)),
    st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
    st.integers(1, 2**17),
    st.tuples(st.integers(-(2**24), 2**24), st.integers(-(2**24), 2**24)),
    st.integers(0, 2**17),
    st.integers(-3, 3),
)
def test_exact_methods_on_large_integer_coordinates(
    a: tuple[int, int],
    step: tuple[int, int],
    n: int,
    c: tuple[int, int],
    k: int,
    offset: int,
) -> None:
    """Up to 2**24, lattice points on an edge (and one lattice step off it) are exact."""
    assume(step != (0, 0))
    b = (a[0] + n * step[0], a[1] + n * step[1])
    assume(max(map(abs, (*b, *c))) <= 2**24)
    # A triangle the library takes (a thin sliver of a huge span counts as collinear
    # and is refused: test_degenerate_triangle_rejected).
    assume(_accepted(a, b, c))
    k = min(k, n)
    # On edge ab, then nudged by a few units across it (perpendicular lattice vector).
    p = (a[0] + k * step[0] - offset * step[1], a[1] + k * step[1] + offset * step[0])
    assume(max(map(abs, p)) <= 2**24)
    fa, fb, fc, fp = ((float(x), float(y)) for x, y in (a, b, c, p))
    expected = exact_inside(fp, fa, fb, fc)
    if offset == 0:
        assert expected
    for order in ((fa, fb, fc), (fa, fc, fb)):
        for m in EXACT_METHODS:
            assert point_in_triangle(fp, *order, method=m) == expected, m


def _accepted(a: Vec, b: Vec, c: Vec) -> bool:
    """Whether :class:`Triangle` takes these vertices (not degenerate by its rule)."""
    try:
        Triangle(a, b, c)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("method", POINT_IN_TRIANGLE_METHODS)
@pytest.mark.parametrize("size", [2.212e-26, 1e-12, 1e-9])
def test_tiny_triangle_far_from_the_point_is_missed(method: str, size: float) -> None:
    # Found by hypothesis: measuring every vertex from P rounded the triangle away.
    a, b, c = (size, 0.0), (0.0, 0.0), (0.0, size)
    assert not point_in_triangle((1.0, 1.0), a, b, c, method=method)
    assert point_in_triangle((size / 4, size / 4), a, b, c, method=method)
    assert point_in_triangle((size / 2, size / 2), a, b, c, method=method)

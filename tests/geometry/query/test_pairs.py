"""Hand-picked cases for the ten shape pairs: touching, containment, degenerate rules, padding."""

from __future__ import annotations

import math

import numpy as np
import pytest

from arcade_collide.geometry.arrays import PolygonArrays, pack
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.query.dispatch import (
    contact,
    contact_batch,
    intersects,
    intersects_batch,
)
from arcade_collide.geometry.shapes import AnyShape, Circle, Polygon, Rect, Triangle

SQUARE = Polygon([(0, 0), (1, 0), (1, 1), (0, 1)])
UNIT = Rect(1, 1)
RIGHT = Triangle((0, 0), (1, 0), (0, 1))
CUP = Triangle((0, 0), (-1, 1), (1, 1))

Case = tuple[AnyShape, tuple[float, ...], AnyShape, tuple[float, ...]]

# Shapes that share only boundary points, on integer (exactly representable) coordinates.
TOUCHING: dict[str, Case] = {
    "rect-rect edge": (UNIT, (0.5, 0.5), UNIT, (1.5, 0.5)),
    "rect-rect corner": (UNIT, (0.5, 0.5), UNIT, (1.5, 1.5)),
    "rect-rect turned 90": (Rect(2, 4), (0, 0, 90), Rect(2, 2), (0, 2)),
    "polygon-polygon edge": (SQUARE, (0, 0), SQUARE, (1, 0)),
    "polygon-polygon corner": (SQUARE, (0, 0), SQUARE, (1, 1)),
    "rect-polygon edge": (UNIT, (0.5, 0.5), SQUARE, (0, 1)),
    "rect-triangle edge": (UNIT, (0.5, 0.5), RIGHT, (1, 0)),
    "triangle-triangle vertex": (RIGHT, (0, 0), RIGHT, (1, 0)),
    "triangle-triangle hypotenuse": (RIGHT, (0, 0), Triangle((1, 0), (1, 1), (0, 1)), (0, 0)),
    "triangle-polygon vertex on edge": (CUP, (0.5, 1), SQUARE, (0, 0)),
    "circle-circle": (Circle(3), (0, 0), Circle(2), (3, 4)),
    "circle-rect side": (Circle(1), (2, 0), Rect(2, 2), (0, 0)),
    "circle-rect corner": (Circle(5), (4, 5), Rect(2, 2), (0, 0)),
    "circle-rect turned corner": (Circle(5), (-4, 5), Rect(2, 2), (0, 0, 90)),
    "circle-triangle vertex": (Circle(5), (8, -3), Triangle((0, 0), (4, 0), (0, 4)), (0, 0)),
    "circle-triangle edge": (Circle(1), (2, -1), Triangle((0, 0), (4, 0), (0, 4)), (0, 0)),
    "circle-polygon corner": (Circle(5), (4, 5), SQUARE, (0, 0)),
    "circle-polygon edge": (Circle(1), (2, 0.5), SQUARE, (0, 0)),
}


@pytest.mark.parametrize("case", TOUCHING.values(), ids=TOUCHING.keys())
def test_touching_counts(case: Case) -> None:
    a, pa, b, pb = case
    for first, p_first, second, p_second in ((a, pa, b, pb), (b, pb, a, pa)):
        assert intersects(first, p_first, second, p_second)
        got = contact(first, p_first, second, p_second)
        assert got is not None and got.depth == 0.0
        batch = intersects_batch(pack([first], [p_first]), pack([second], [p_second]))
        assert batch.tolist() == [True]


@pytest.mark.parametrize("case", TOUCHING.values(), ids=TOUCHING.keys())
def test_a_hair_apart_misses(case: Case) -> None:
    a, pa, b, pb = case
    got = contact(a, pa, b, pb)
    assert got is not None
    nx, ny = got.normal
    moved = (pb[0] + nx * 1e-9, pb[1] + ny * 1e-9, *pb[2:])
    assert not intersects(a, pa, b, moved)


BIG_SHAPES: dict[str, AnyShape] = {
    "rect": Rect(20, 20),
    "triangle": Triangle((-30, -20), (30, -20), (0, 30)),
    "polygon": Polygon([(-15, -15), (15, -15), (18, 0), (0, 18), (-15, 10)]),
    "circle": Circle(15),
}
SMALL_SHAPES: dict[str, AnyShape] = {
    "rect": Rect(1, 2),
    "triangle": Triangle((0, 0), (1, 0), (0, 1)),
    "polygon": Polygon([(0, 0), (1, 0), (1.5, 1), (0, 1)]),
    "circle": Circle(1),
}


@pytest.mark.parametrize("outer", BIG_SHAPES)
@pytest.mark.parametrize("inner", SMALL_SHAPES)
def test_containment_is_a_hit(outer: str, inner: str) -> None:
    """One shape wholly inside the other: no edges cross, yet they collide (the seeds' gap)."""
    big, small = BIG_SHAPES[outer], SMALL_SHAPES[inner]
    pose_small = (2.0, 1.0, 30.0)
    for a, pa, b, pb in ((big, (0, 0), small, pose_small), (small, pose_small, big, (0, 0))):
        assert intersects(a, pa, b, pb)
        got = contact(a, pa, b, pb)
        assert got is not None and got.depth > 1.0
        nx, ny = got.normal
        step = got.depth * (1 + 1e-9) + 1e-9
        assert not intersects(a, pa, b, (pb[0] + nx * step, pb[1] + ny * step, *pb[2:]))


def test_convex_polygons_inside_each_other_in_batch() -> None:
    a = pack([Polygon([(-5, -5), (5, -5), (5, 5), (-5, 5)])], [(0, 0)])
    b = pack([Polygon([(0, 0), (1, 0), (0, 1)])], [(0, 0, 45)])
    assert intersects_batch(a, b).tolist() == [True]
    assert intersects(
        Polygon([(-5, -5), (5, -5), (5, 5), (-5, 5)]), (0, 0, 0), SQUARE, (0, 0, 0)
    )


def test_coincident_circle_centres_use_the_fallback_normal() -> None:
    got = contact(Circle(1), (3, 4), Circle(2), (3, 4))
    # Midway between A's deepest point (4, 4) and B's (1, 4).
    assert got == Contact((1.0, 0.0), 3.0, (2.5, 4.0))
    # Distinct circles still satisfy the symmetry rule: the canonical order decides.
    back = contact(Circle(2), (3, 4), Circle(1), (3, 4))
    assert back == got.flipped()
    # Identical circles at one place: both orders give the fallback normal.
    same = contact(Circle(1), (0, 0, 0), Circle(1), (0, 0, 0))
    assert same is not None and same.normal == (1.0, 0.0)


def test_circle_centre_on_a_polygon_edge_leaves_through_that_edge() -> None:
    got = contact(Circle(1), (1, 0.5, 0), SQUARE, (0, 0, 0))
    # The point is midway between the circle's deepest point (0, 0.5) and the edge point (1, 0.5).
    assert got == Contact((-1.0, 0.0), 1.0, (0.5, 0.5))


def test_circle_centre_on_a_polygon_vertex_uses_the_earlier_edge() -> None:
    # Edges of the CCW square: 0 bottom, 1 right, 2 top, 3 left; the vertex (1, 1) joins 1 and 2.
    got = contact(Circle(1), (1, 1, 0), SQUARE, (0, 0, 0))
    assert got is not None and got.normal == (-1.0, 0.0) and got.depth == 1.0


def test_circle_centre_deep_inside_a_rect() -> None:
    # Nearer to the top/bottom sides: the circle leaves along y.
    got = contact(Circle(1), (0, 0.5, 0), Rect(4, 2), (0, 0, 0))
    assert got == Contact((0.0, -1.0), 1.5, (0.0, 0.25))
    # Exactly at the centre of a square: x wins the tie, positive side.
    got = contact(Circle(1), (0, 0, 0), Rect(2, 2), (0, 0, 0))
    assert got is not None and got.normal == (-1.0, 0.0) and got.depth == 2.0


def test_circle_rect_follows_the_rect_rotation() -> None:
    # A 4 x 2 rect turned 90 degrees is 2 wide and 4 tall.
    assert intersects(Circle(1), (0, 2.9, 0), Rect(4, 2), (0, 0, 90))
    assert not intersects(Circle(1), (2.1, 0, 0), Rect(4, 2), (0, 0, 90))
    # At 45 degrees the corner reaches sqrt(2) along the axes.
    r = math.sqrt(2)
    assert intersects(Circle(0.5), (r + 0.49, 0, 0), Rect(2, 2), (0, 0, 45))
    assert not intersects(Circle(0.5), (r + 0.51, 0, 0), Rect(2, 2), (0, 0, 45))
    got = contact(Circle(2), (3, 0, 0), Rect(2, 2), (0, 0, 45))
    assert got is not None
    assert got.normal == pytest.approx((-1.0, 0.0), abs=1e-12)
    assert got.depth == pytest.approx(2.0 - (3.0 - r), abs=1e-12)


def test_circle_rect_corner_region_misses_like_the_seed() -> None:
    # Within hw + r and hh + r of both centre lines, yet the corner is out of reach.
    a = pack([Circle(1)] * 2, [(2.8, 1.8), (2.7, 1.7)])
    b = pack([Rect(4, 2)] * 2, [(0, 0)] * 2)
    assert intersects_batch(a, b).tolist() == [False, True]  # type: ignore[arg-type]


def test_equal_axes_pick_the_first_axis_of_the_canonical_first_shape() -> None:
    # Overlap 1 along x and along y: A's first edge (the bottom) gives the axis.
    got = contact(SQUARE, (0, 0), SQUARE, (0.5, 0.5))
    assert got == Contact((0.0, 1.0), 0.5, (0.75, 0.75))
    assert contact(SQUARE, (0.5, 0.5), SQUARE, (0, 0)) == got.flipped()


def test_polygon_rows_padded_to_different_lengths() -> None:
    rng = np.random.default_rng(5)
    kite = Polygon([(0, 0), (1, -1), (2, 0), (1, 2)])
    shapes_a = [SQUARE, Polygon([(0, 0), (2, 0), (1, 1)]), kite]
    shapes_b = [Polygon([(math.cos(t), math.sin(t)) for t in np.linspace(0, 6, 8)])] * 3

    def poses() -> list[tuple[float, float, float]]:
        xy = rng.uniform(-1.5, 1.5, (3, 2))
        return [(float(x), float(y), float(rng.uniform(0, 360))) for x, y in xy]

    for _ in range(20):
        poses_a = poses()
        poses_b = poses()
        a = pack(shapes_a, poses_a)
        b = pack(shapes_b, poses_b)
        assert isinstance(a, PolygonArrays) and a.vertices.shape[1] == 4
        for left, right, pl, pr, sl, sr in (
            (a, b, poses_a, poses_b, shapes_a, shapes_b),
            (b, a, poses_b, poses_a, shapes_b, shapes_a),
        ):
            result = contact_batch(left, right)
            for i in range(3):
                got = contact(sl[i], pl[i], sr[i], pr[i])
                assert bool(result.hit[i]) == (got is not None)
                if got is not None:
                    assert got.normal == tuple(result.normal[i])
                    assert got.depth == result.depth[i]
                    assert got.point == tuple(result.point[i])
        assert contact_batch(a, b).hit.dtype == bool


@pytest.mark.parametrize("gap", [0.0, 1e-300, 1e-160, 1e-13, -1e-13])
@pytest.mark.parametrize("shape", [Rect(2, 2), Polygon([(-1, -1), (1, -1), (1, 1), (-1, 1)])])
def test_circle_centre_within_rounding_of_a_turned_side(gap: float, shape: AnyShape) -> None:
    """So close to the side, ``q - centre`` is rounding noise; the side's normal is used."""
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    centre = ((1 + gap) * c, -(1 + gap) * s)  # on the local +x side of the turned square
    got = contact(Circle(0.5), centre, shape, (0, 0, 30))
    assert got is not None
    assert got.normal == pytest.approx((-c, s), abs=1e-12)
    nx, ny = got.normal
    step = got.depth * (1 + 1e-6) + 1e-9
    assert not intersects(Circle(0.5), centre, shape, (nx * step, ny * step, 30))


@pytest.mark.parametrize("offset", [(3e-161, 1e-161), (3e-310, 1e-310), (0.0, 1e-193)])
def test_circle_centres_closer_than_a_square_can_hold(offset: tuple[float, float]) -> None:
    got = contact(Circle(1), (0, 0), Circle(1), offset)
    assert got is not None and math.isclose(math.hypot(*got.normal), 1.0, abs_tol=1e-15)
    norm = math.hypot(*offset)
    # Subnormal offsets carry few bits, hence the looser comparison.
    assert got.normal == pytest.approx((offset[0] / norm, offset[1] / norm), abs=1e-12)
    back = contact(Circle(1), offset, Circle(1), (0, 0))
    assert back == got.flipped()

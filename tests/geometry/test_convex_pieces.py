"""convex_pieces against shapely: the pieces' union is the polygon, each piece is
convex and valid as a Polygon, and pieces only share sides; ellipse_outline."""

from __future__ import annotations

import itertools
import math

import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon as ShapelyPolygon

from arcade_collide.geometry.convex_pieces import convex_pieces, ellipse_outline
from arcade_collide.geometry.shapes import Polygon, Triangle


def _check(points: list[tuple[float, float]]) -> list[tuple[tuple[float, float], ...]]:
    pieces = convex_pieces(points)
    whole = ShapelyPolygon(points)
    assert whole.is_valid
    shapes = [ShapelyPolygon(p) for p in pieces]
    for piece, shape in zip(pieces, shapes, strict=True):
        # The project's own validation: counter-clockwise, strictly convex.
        (Triangle(*piece) if len(piece) == 3 else Polygon(piece))
        assert shape.is_valid and math.isclose(shape.convex_hull.area, shape.area)
    union = shapely.union_all(shapes)
    scale = max(whole.area, 1e-300)
    assert union.symmetric_difference(whole).area <= 1e-9 * scale
    assert sum(s.area for s in shapes) == pytest.approx(whole.area, rel=1e-9)
    return pieces


@st.composite
def star_polygons(draw: st.DrawFn) -> list[tuple[float, float]]:
    """A simple polygon: vertices at increasing angles around a centre, random radii
    (star-shaped, so concave at random places)."""
    count = draw(st.integers(3, 24))
    angles = sorted(draw(st.lists(st.floats(0.0, 2 * math.pi - 1e-3), min_size=count,
                                  max_size=count, unique=True)))
    if any(b - a < 1e-3 for a, b in itertools.pairwise(angles)):
        angles = [2 * math.pi * k / count for k in range(count)]
    radii = draw(st.lists(st.floats(0.2, 10.0), min_size=count, max_size=count))
    points = [(r * math.cos(a), r * math.sin(a)) for a, r in zip(angles, radii, strict=True)]
    polygon = ShapelyPolygon(points)
    if not polygon.is_valid or polygon.area < 1e-3:
        return [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]
    return points


@given(star_polygons(), st.booleans())
@settings(max_examples=300, deadline=None)
def test_pieces_cover_the_polygon_and_are_convex(
    points: list[tuple[float, float]], clockwise: bool
) -> None:
    _check(points[::-1] if clockwise else points)


@st.composite
def staircases(draw: st.DrawFn) -> list[tuple[float, float]]:
    """Orthogonal staircases, like tile hit boxes traced round transparent pixels."""
    steps = draw(st.integers(1, 8))
    points = [(0.0, 0.0), (float(steps), 0.0)]
    for k in range(steps, 0, -1):
        points += [(float(k), float(steps - k + 1)), (float(k - 1), float(steps - k + 1))]
    return points


@given(staircases())
@settings(max_examples=50, deadline=None)
def test_staircases(points: list[tuple[float, float]]) -> None:
    pieces = _check(points)
    assert len(pieces) <= len(points) - 3


def test_convex_outline_is_one_piece_without_collinear_points() -> None:
    square = [(0, 0), (1, 0), (2, 0), (2, 2), (0, 2), (0, 2)]
    assert convex_pieces(square) == [((0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0))]


def test_u_shape_needs_three_pieces_at_most() -> None:
    u = [(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)]
    assert 2 <= len(_check(u)) <= 3


@pytest.mark.parametrize(
    ("points", "error", "message"),
    [
        ([(0, 0), (1, 1)], ValueError, "outline needs at least 3 distinct points, got 2"),
        ([(0, 0), (1, 1), (2, 2)], ValueError, "outline has no area"),
        ([(0, 0), (2, 2), (2, 0), (0, 2)], ValueError,
         "outline touches or crosses itself (sides 0 and 2)"),
        ("abc", TypeError, "points must be a sequence of (x, y) pairs, got str"),
        ([(0, 0), (1, math.nan), (0, 1)], ValueError, "points[1][1] must be finite, got nan"),
    ],
)
def test_bad_outlines(points: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        convex_pieces(points)  # type: ignore[arg-type]
    assert str(raised.value) == message


@pytest.mark.parametrize(("width", "height"), [(40, 20), (3, 300), (1000, 999), (0.5, 0.25)])
def test_ellipse_outline_is_convex_inside_and_close(width: float, height: float) -> None:
    outline = ellipse_outline(width, height)
    Polygon(outline)
    assert len(outline) % 4 == 0 and 8 <= len(outline) <= 64
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    assert (min(xs), max(xs)) == pytest.approx((-width / 2, width / 2))
    assert (min(ys), max(ys)) == pytest.approx((-height / 2, height / 2))
    exact = math.pi * width * height / 4
    area = ShapelyPolygon(outline).area
    assert area <= exact
    if len(outline) < 64:  # enough vertices: the sides stray at most half a unit inside
        perimeter = ShapelyPolygon(outline).length
        assert exact - area <= 0.5 * perimeter

"""Shapes: validation, normalisation and derived values."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.geometry.shapes import (
    SHAPE_TYPES,
    Circle,
    Point,
    Polygon,
    Rect,
    ShapeKind,
    Triangle,
)


def test_kinds_index_the_shape_types() -> None:
    for kind in ShapeKind:
        assert SHAPE_TYPES[kind].kind is kind


def test_shapes_are_immutable_values() -> None:
    circle = Circle(2)
    with pytest.raises(AttributeError):
        circle.radius = 3.0  # type: ignore[misc]
    assert Circle(2) == Circle(2.0)
    assert hash(Rect(1, 2)) == hash(Rect(1.0, 2.0))
    assert Point() == Point()


def test_rect_vertices_are_counter_clockwise() -> None:
    assert Polygon(Rect(4, 2).local_vertices()).points == Rect(4, 2).local_vertices()


def test_polygon_is_stored_counter_clockwise_whatever_the_winding() -> None:
    cw = [(0, 0), (0, 1), (1, 1), (1, 0)]
    ccw = Polygon(cw).points
    assert ccw == ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    assert Polygon(ccw).points == ccw
    assert Polygon(cw).area == pytest.approx(1.0)


def test_triangle_keeps_its_winding() -> None:
    t = Triangle((0, 0), (0, 1), (1, 0))
    assert not t.is_counter_clockwise
    assert t.local_vertices() == ((0.0, 0.0), (0.0, 1.0), (1.0, 0.0))
    assert t.area == 0.5


@pytest.mark.parametrize("scale", [1e-9, 1.0, 1e9])
def test_degeneracy_tolerance_scales_with_the_shape(scale: float) -> None:
    assert Triangle((0, 0), (scale, 0), (0, scale)).area == pytest.approx(scale * scale / 2)
    with pytest.raises(ValueError, match="degenerate"):
        Triangle((0, 0), (scale, scale), (2 * scale, 2 * scale))
    square = Polygon([(0, 0), (scale, 0), (scale, scale), (0, scale)])
    assert square.area == pytest.approx(scale * scale)


def test_pentagram_is_refused_even_though_it_turns_one_way() -> None:
    star = [
        (math.cos(math.radians(90 + 144 * i)), math.sin(math.radians(90 + 144 * i)))
        for i in range(5)
    ]
    with pytest.raises(ValueError, match="self-intersecting"):
        Polygon(star)


@given(
    st.integers(3, 12),
    st.floats(0.1, 1e4),
    st.floats(0, 360),
)
@settings(max_examples=60, deadline=None)
def test_regular_polygons_are_accepted(n: int, radius: float, phase: float) -> None:
    pts = [
        (
            radius * math.cos(math.radians(phase + 360 * i / n)),
            radius * math.sin(math.radians(phase + 360 * i / n)),
        )
        for i in range(n)
    ]
    poly = Polygon(pts)
    assert len(poly.points) == n
    assert poly.area > 0
    assert poly.bounding_radius == pytest.approx(radius)


def test_bounding_radius() -> None:
    assert Point().bounding_radius == 0.0
    assert Circle(3).bounding_radius == 3.0
    assert Rect(6, 8).bounding_radius == 5.0
    assert Triangle((3, 4), (0, 1), (1, 0)).bounding_radius == 5.0

"""Batch records: packing, row selection and the vectorised pose arithmetic."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.geometry.arrays import (
    CircleArrays,
    PolygonArrays,
    RectArrays,
    TriangleArrays,
    pack,
    take,
    transform,
)
from arcade_collide.geometry.pose import rotation, to_world
from arcade_collide.geometry.shapes import Circle, Point, Polygon, Rect, Triangle

finite = st.floats(-1e5, 1e5, allow_nan=False)


@given(finite, finite, finite, finite, st.floats(-720, 720))
@settings(max_examples=100, deadline=None)
def test_transform_matches_to_world_bitwise(
    x: float, y: float, lx: float, ly: float, a: float
) -> None:
    cos, sin = rotation(a)
    out = transform(np.array([[[lx, ly]]]), np.array([[x, y]]), np.array([cos]), np.array([sin]))
    assert tuple(out[0, 0]) == to_world((lx, ly), x, y, cos, sin)


def test_pack_builds_world_space_records() -> None:
    rects = pack([Rect(4, 2)], [(10, 20, 90)])
    assert isinstance(rects, RectArrays)
    assert rects.vertices[0].tolist() == [[9.0, 22.0], [9.0, 18.0], [11.0, 18.0], [11.0, 22.0]]
    assert rects.axis[0].tolist() == [0.0, -1.0]
    assert rects.half[0].tolist() == [2.0, 1.0]

    tris = pack([Triangle((0, 0), (1, 0), (0, 1))], [(1, 1)])
    assert isinstance(tris, TriangleArrays)
    assert tris.vertices[0].tolist() == [[1.0, 1.0], [2.0, 1.0], [1.0, 2.0]]

    polys = pack(
        [Polygon([(0, 0), (1, 0), (0, 1)]), Polygon([(0, 0), (1, 0), (1, 1), (0, 1)])],
        [(0, 0), (0, 0)],
    )
    assert isinstance(polys, PolygonArrays)
    assert polys.nverts.tolist() == [3, 4]
    # Short rows repeat their last vertex.
    assert polys.vertices[0, 3].tolist() == polys.vertices[0, 2].tolist()

    points = pack([Point(), Point()], [(1, 2), (3, 4, 45)])
    assert points.xy.tolist() == [[1.0, 2.0], [3.0, 4.0]]


def test_take_selects_rows_of_every_field() -> None:
    circles = pack([Circle(1), Circle(2), Circle(3)], [(0, 0), (1, 1), (2, 2)])
    assert isinstance(circles, CircleArrays)
    picked = take(circles, np.array([2, 2, 0]))
    assert picked.radius.tolist() == [3.0, 3.0, 1.0]
    assert picked.center.tolist() == [[2.0, 2.0], [2.0, 2.0], [0.0, 0.0]]


@pytest.mark.parametrize(
    ("shapes", "poses", "message"),
    [
        ([Circle(1)], [], "got 1 shapes but 0 poses"),
        ([], [], "at least one shape"),
        ([Circle(1), Rect(1, 1)], [(0, 0), (0, 0)], "one type"),
        ([Circle(1)], [(0, float("nan"))], r"poses\[0\] y must be finite"),
    ],
)
def test_pack_rejects_bad_input(shapes: list[object], poses: list[object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pack(shapes, poses)  # type: ignore[arg-type]

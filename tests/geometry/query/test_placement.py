"""Compiled placement: the rotation and the whole-table pass, bit for bit against pack."""

from __future__ import annotations

import math

import numpy as np

from arcade_collide.geometry.arrays import (
    CircleArrays,
    PointArrays,
    PolygonArrays,
    RectArrays,
    TriangleArrays,
    pack,
)
from arcade_collide.geometry.pose import rotation
from arcade_collide.geometry.query.kernel_base import empty_rows
from arcade_collide.geometry.query.placement import place_table, turn
from arcade_collide.geometry.shapes import AnyShape, Circle, Point, Polygon, Rect, Triangle


def test_turn_equals_the_scalar_rotation_bit_for_bit() -> None:
    # Exact quarter turns, the floats either side of them (whose quotient by 90 can
    # round to an integer), ordinary and huge angles: signs of zero included.
    quarters = np.arange(-400, 401) * 90.0
    rng = np.random.default_rng(3)
    angles = np.concatenate(
        [
            quarters,
            np.nextafter(quarters, np.inf),
            np.nextafter(quarters, -np.inf),
            rng.uniform(-1e4, 1e4, 500),
            [1e300, -1e300, -0.0, 5e-324, 90.0 * 2.0**70, 2.0**60 + 8.0, 1e16 + 2.0],
        ]
    )
    for a in angles.tolist():
        c, s = turn(a)
        rc, rs = rotation(a)
        assert (c, s) == (rc, rs), a
        assert (math.copysign(1.0, c), math.copysign(1.0, s)) == (
            math.copysign(1.0, rc),
            math.copysign(1.0, rs),
        ), a


def _shapes(rng: np.random.Generator) -> list[AnyShape]:
    """Shapes of every kind in kind order (rows of a table are grouped by kind)."""
    shapes: list[AnyShape] = [Point() for _ in range(5)]
    shapes += [Circle(float(r)) for r in rng.uniform(0.5, 9, 7)]
    shapes += [Rect(float(w), float(h)) for w, h in rng.uniform(0.5, 9, (6, 2))]
    shapes += [
        Triangle((0, 0), (float(x), 0.5), (0.3, float(y))) for x, y in rng.uniform(2, 9, (4, 2))
    ]
    shapes += [
        Polygon([(0, 0), (4, 0), (4, 3)]),
        Polygon([(0, 0), (4, 0), (5, 2), (2, 5), (-1, 2)]),
    ]
    return shapes


def _placed(shapes: list[AnyShape], poses: np.ndarray) -> tuple[object, ...]:
    kinds = np.array([s.kind for s in shapes], dtype=np.int8)
    convex = [s for s in shapes if isinstance(s, (Rect, Triangle, Polygon))]
    width = max(len(s.local_vertices()) for s in convex)
    local = np.array(
        [list(v) + [v[-1]] * (width - len(v)) for v in (s.local_vertices() for s in convex)]
    )
    nlocal = np.array([len(s.local_vertices()) for s in convex], dtype=np.int64)
    size_x = np.array([getattr(s, "radius", getattr(s, "half_width", 0.0)) for s in shapes])
    size_y = np.array([getattr(s, "half_height", 0.0) for s in shapes])
    rows = empty_rows(kinds, 5)
    boxes = np.empty((len(shapes), 4))
    ox, oy = np.empty(len(shapes)), np.empty(len(shapes))
    every = np.arange(len(shapes))
    bad, reach = place_table(
        rows, poses, every, every, size_x, size_y, local, nlocal, boxes, ox, oy, 0.0
    )
    return rows, bad, reach, boxes, ox, oy


def test_a_placed_table_equals_pack_bit_for_bit() -> None:
    rng = np.random.default_rng(8)
    shapes = _shapes(rng)
    poses = rng.uniform(-1e6, 1e6, (len(shapes), 3))
    poses[::3, 2] = rng.integers(-8, 9, len(poses[::3])) * 90.0  # exact quarter turns
    rows, bad, reach, boxes, ox, oy = _placed(shapes, poses)
    assert bad == -1
    assert np.array_equal(ox, poses[:, 0]) and np.array_equal(oy, poses[:, 1])
    by_kind: dict[type, list[int]] = {}
    for t, s in enumerate(shapes):
        by_kind.setdefault(type(s), []).append(t)
    records = {
        kind: pack([shapes[t] for t in ts], [tuple(poses[t]) for t in ts])
        for kind, ts in by_kind.items()
    }
    points, circles, rects, tris, polys = (
        records[k] for k in (Point, Circle, Rect, Triangle, Polygon)
    )
    assert isinstance(points, PointArrays) and isinstance(circles, CircleArrays)
    assert isinstance(rects, RectArrays) and isinstance(tris, TriangleArrays)
    assert isinstance(polys, PolygonArrays)
    assert np.array_equal(rows.point_xy, points.xy)
    assert np.array_equal(rows.circle_center, circles.center)
    assert np.array_equal(rows.circle_radius, circles.radius)
    for got, want in zip(rows[5:9], rects, strict=True):
        assert np.array_equal(got, want)
    assert np.array_equal(rows.triangle_vertices, tris.vertices)
    assert np.array_equal(rows.polygon_vertices, polys.vertices)
    assert rows.polygon_nverts.tolist() == polys.nverts.tolist()
    exact = np.concatenate(
        [
            np.hstack([points.xy, points.xy]),
            np.hstack(
                [circles.center - circles.radius[:, None], circles.center + circles.radius[:, None]]
            ),
            *(
                np.hstack([r.vertices.min(axis=1), r.vertices.max(axis=1)])
                for r in (rects, tris, polys)
            ),
        ]
    )
    assert reach == float(np.abs(exact).max())
    assert np.array_equal(boxes, exact)


def test_a_non_finite_pose_is_reported_and_nothing_is_written() -> None:
    shapes = _shapes(np.random.default_rng(1))
    poses = np.zeros((len(shapes), 3))
    rows, _, _, boxes, _, _ = _placed(shapes, poses)
    before = [np.copy(field) for field in rows] + [boxes.copy()]
    poses[9, 2] = math.inf
    _, bad, reach, _, _, _ = _placed(shapes, poses)
    assert (bad, reach) == (9, 0.0)
    rows2, *_ = _placed(shapes, np.zeros((len(shapes), 3)))
    assert all(np.array_equal(a, b) for a, b in zip(before[:-1], rows2, strict=True))

"""Ray casts against every shape kind: shapely as the oracle, exact grazing cases, batches."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from narrow_cases import KINDS, lattice_shape, random_shape

from arcade_collide.geometry.arrays import pack
from arcade_collide.geometry.hits import RayHit
from arcade_collide.geometry.query.dispatch import intersects
from arcade_collide.geometry.query.ray_batches import ray_cast_batch
from arcade_collide.geometry.query.ray_queries import ray_cast
from arcade_collide.geometry.shapes import AnyShape, Circle, Point, Polygon, Rect, ShapeKind

CONVEX = (ShapeKind.RECT, ShapeKind.TRIANGLE, ShapeKind.POLYGON)
Pose3 = tuple[float, float, float]


def _outline(shape: AnyShape, pose: Pose3) -> np.ndarray:  # type: ignore[type-arg]
    """World vertices of a rect, triangle or polygon, as pack places them."""
    record = pack([shape], [pose])
    vertices = record.vertices[0]  # type: ignore[union-attr]
    return vertices[: len(shape.local_vertices())]  # type: ignore[union-attr]


def _oracle(
    shape: AnyShape, pose: Pose3, o: np.ndarray, d: np.ndarray  # type: ignore[type-arg]
) -> tuple[float | None, bool]:
    """shapely's first-hit distance along the unit ray (None: miss, within 100 units) and
    whether the case is within 1e-7 of grazing (too close to call)."""
    if isinstance(shape, Circle):
        outline = shapely.Point(pose[:2]).buffer(shape.radius, quad_segs=512)
    else:
        outline = shapely.Polygon(_outline(shape, pose))
    start = shapely.Point(o)
    if outline.covers(start):
        return 0.0, outline.exterior.distance(start) < 1e-7
    segment = shapely.LineString([o, o + 100.0 * d])
    inside = segment.intersection(outline)
    if inside.is_empty:
        return None, segment.distance(outline) < 1e-7
    return float(start.distance(inside)), inside.length < 1e-7


@pytest.mark.parametrize("cases", [400, pytest.param(8000, marks=pytest.mark.slow)])
@pytest.mark.parametrize("kind", [ShapeKind.CIRCLE, *CONVEX], ids=lambda k: k.name.lower())
def test_rays_agree_with_shapely(kind: ShapeKind, cases: int) -> None:
    rng = np.random.default_rng([15, int(kind), cases])
    hits = misses = 0
    tolerance = 1e-4 if kind is ShapeKind.CIRCLE else 1e-9  # a buffered circle is a polygon
    for _ in range(cases):
        shape = random_shape(kind, rng)
        pose = (*(float(v) for v in rng.uniform(-3, 3, 2)), float(rng.uniform(-360, 360)))
        o = rng.uniform(-6, 6, 2)
        d = np.array(pose[:2]) - o + rng.normal(size=2) * 2.0  # roughly towards the shape
        d /= np.hypot(*d)
        expected, near = _oracle(shape, pose, o, d)
        got = ray_cast(shape, pose, tuple(o), tuple(d * rng.uniform(0.1, 10)), 100.0)
        if near:
            continue
        if expected is None:
            assert got is None
            misses += 1
            continue
        assert got is not None
        hits += 1
        assert got.distance == pytest.approx(expected, abs=tolerance)
        _check_hit(shape, pose, o, d, got)
    assert hits > cases / 8 and misses > cases / 8


def _check_hit(shape: AnyShape, pose: Pose3, o: np.ndarray, d: np.ndarray, hit: RayHit) -> None:  # type: ignore[type-arg]
    """The point is where the ray is at the distance, the normal a unit vector facing the
    ray, and a step along the normal leaves the shape (unless the ray started inside)."""
    nx, ny = hit.normal
    assert math.hypot(nx, ny) == pytest.approx(1.0, abs=1e-12)
    assert nx * d[0] + ny * d[1] <= 1e-12
    assert hit.point == pytest.approx(tuple(o + hit.distance * d), abs=1e-9)
    if hit.distance > 0.0:
        assert not intersects(Point(), (hit.point[0] + 1e-6 * nx, hit.point[1] + 1e-6 * ny),
                              shape, pose)  # fmt: skip
        assert intersects(Point(), (hit.point[0] - 1e-6 * nx, hit.point[1] - 1e-6 * ny),
                          shape, pose)  # fmt: skip


# -- exact cases on integer coordinates -------------------------------------------------------

OFFSETS = [0.0, 2.0**30, -1e9]
"""Around the origin and at the documented coordinate range (docs/errors.md)."""
directions = st.tuples(st.integers(-3, 3), st.integers(-3, 3)).filter(lambda d: d != (0, 0))


def _lattice(seed: int, kind: ShapeKind, offset: float) -> tuple[AnyShape, Pose3, np.ndarray]:  # type: ignore[type-arg]
    rng = np.random.default_rng(seed)
    shape = lattice_shape(kind, rng)
    pose = (offset + float(rng.integers(-4, 5)), float(rng.integers(-4, 5)),
            90.0 * float(rng.integers(-2, 3)))  # fmt: skip
    return shape, pose, _outline(shape, pose)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(CONVEX), st.sampled_from(OFFSETS),
       directions, st.integers(1, 5), st.data())  # fmt: skip
def test_a_ray_through_a_vertex_hits(
    seed: int, kind: ShapeKind, offset: float, d: tuple[int, int], k: int, data: st.DataObject
) -> None:
    shape, pose, v = _lattice(seed, kind, offset)
    vertex = v[data.draw(st.integers(0, len(v) - 1))]
    origin = (vertex[0] - k * d[0], vertex[1] - k * d[1])
    hit = ray_cast(shape, pose, origin, d)
    assert hit is not None
    assert hit.distance <= k * math.hypot(*d) * (1 + 1e-15)
    # Stopping short of the vertex misses whenever the ray only grazes it.
    short = ray_cast(shape, pose, origin, d, k * math.hypot(*d) * (1 - 1e-9))
    if short is None:
        assert hit.point == pytest.approx(tuple(vertex), abs=1e-6 * (1 + abs(offset)))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(CONVEX), st.sampled_from(OFFSETS),
       st.integers(1, 5), st.data())  # fmt: skip
def test_a_ray_along_an_edge_hits_and_one_beside_it_misses(
    seed: int, kind: ShapeKind, offset: float, k: int, data: st.DataObject
) -> None:
    shape, pose, v = _lattice(seed, kind, offset)
    e = data.draw(st.integers(0, len(v) - 1))
    start, end = v[e], v[(e + 1) % len(v)]
    edge = end - start
    origin = start - k * edge
    hit = ray_cast(shape, pose, tuple(origin), tuple(edge))
    assert hit is not None
    assert hit.distance == k * math.hypot(*edge)
    assert hit.point == tuple(start)
    # Just outside the edge, parallel to it: a miss.
    centre = v.mean(axis=0)
    normal = np.array([edge[1], -edge[0]])
    if normal @ (start - centre) < 0:
        normal = -normal
    beside = origin + 1e-3 * normal / np.hypot(*normal)
    assert ray_cast(shape, pose, tuple(beside), tuple(edge)) is None


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(KINDS[1:]), st.sampled_from(OFFSETS),
       directions, st.booleans())  # fmt: skip
def test_a_ray_starting_inside_or_on_hits_at_zero(
    seed: int, kind: ShapeKind, offset: float, d: tuple[int, int], on_vertex: bool
) -> None:
    rng = np.random.default_rng(seed)
    shape = lattice_shape(kind, rng)
    pose = (offset, 0.0, 0.0)
    if isinstance(shape, Circle):
        origin = (offset + shape.radius, 0.0) if on_vertex else (offset, 0.0)
    else:
        v = _outline(shape, pose)
        origin = tuple(v[0]) if on_vertex else tuple(v.mean(axis=0))
    length = math.hypot(*d)
    for max_distance in (math.inf, 0.0):
        hit = ray_cast(shape, pose, origin, d, max_distance)
        assert hit == RayHit(0.0, origin, (-d[0] / length + 0.0, -d[1] / length + 0.0))


def test_zero_max_distance_outside_misses() -> None:
    assert ray_cast(Rect(2, 2), (5, 0), (0, 0), (1, 0), 0.0) is None
    assert ray_cast(Rect(2, 2), (5, 0), (0, 0), (1, 0), 4.0) == RayHit(4.0, (4.0, 0.0), (-1.0, 0.0))
    assert ray_cast(Rect(2, 2), (5, 0), (0, 0), (1, 0), 3.999) is None


def test_points_are_hit_only_exactly() -> None:
    assert ray_cast(Point(), (3, 4), (0, 0), (3, 4)) == RayHit(5.0, (3.0, 4.0), (-0.6, -0.8))
    assert ray_cast(Point(), (3, 4), (0, 0), (3, 4.000001)) is None
    assert ray_cast(Point(), (3, 4), (0, 0), (-3, -4)) is None
    assert ray_cast(Point(), (3, 4), (0, 0), (3, 4), 4.9) is None
    assert ray_cast(Point(), (1e9, 7), (-1e9, 7), (1, 0)) == RayHit(2e9, (1e9, 7.0), (-1.0, 0.0))


def test_circles_tangent_and_far() -> None:
    assert ray_cast(Circle(1), (5, 1), (0, 0), (1, 0)) == RayHit(5.0, (5.0, 0.0), (0.0, -1.0))
    assert ray_cast(Circle(1), (5, 1.000001), (0, 0), (1, 0)) is None
    far = ray_cast(Circle(1), (1e9 + 5, 1e9), (1e9, 1e9), (1, 0))
    assert far == RayHit(4.0, (1e9 + 4, 1e9), (-1.0, 0.0))


def test_a_rotated_polygon() -> None:
    hexagon = Polygon([(math.cos(a), math.sin(a)) for a in np.arange(6) * math.pi / 3])
    hit = ray_cast(hexagon, (0, 0, 60), (0, -5), (0, 1))
    assert hit is not None
    assert hit.distance == pytest.approx(5.0 - math.sqrt(3) / 2)
    assert hit.normal == pytest.approx((0.0, -1.0))


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name.lower())
def test_batch_equals_scalar(kind: ShapeKind) -> None:
    rng = np.random.default_rng([7, int(kind)])
    n = 300
    shapes = [random_shape(kind, rng) for _ in range(n)]
    poses = [(*(float(v) for v in rng.uniform(-3, 3, 2)), float(rng.uniform(-360, 360)))
             for _ in range(n)]  # fmt: skip
    origins = rng.uniform(-6, 6, (n, 2))
    if kind is ShapeKind.POINT:  # aim half of the rays exactly at the points
        origins[::2] = 0.0
    directions = rng.normal(size=(n, 2)) * 3
    directions[::2] = np.array([p[:2] for p in poses])[::2]
    limits = rng.uniform(0, 12, n)
    batch = ray_cast_batch(pack(shapes, poses), origins, directions, limits)
    for i in range(n):
        hit = ray_cast(shapes[i], poses[i], tuple(origins[i]), tuple(directions[i]), limits[i])
        assert batch.hit[i] == (hit is not None)
        if hit is not None:
            assert (batch.distance[i], tuple(batch.point[i]), tuple(batch.normal[i])) == hit
    assert 0.05 < batch.hit.mean() < 0.95

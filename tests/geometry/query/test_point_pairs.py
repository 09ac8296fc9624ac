"""Tests for the five point pairs: point against point, circle, rect, triangle, polygon."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import shapely

from arcade_collide.geometry.arrays import BatchContacts, PointArrays, pack
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.pose import parse_pose, rotation, to_world
from arcade_collide.geometry.query.dispatch import (
    contact,
    contact_batch,
    intersects,
    intersects_batch,
)
from arcade_collide.geometry.shapes import AnyShape, Circle, Point, Polygon, Rect, Triangle

Pose3 = tuple[float, float, float]

# name -> (intersects, contact, intersects_batch, contact_batch): every point pair
# goes through the public queries, which run that pair's kernels.
_API = (intersects, contact, intersects_batch, contact_batch)
PAIRS: dict[str, tuple[Callable[..., Any], ...]] = {
    name: _API for name in ("point", "circle", "rect", "triangle", "polygon")
}
AREAL = ("circle", "rect", "triangle", "polygon")
ORIGIN: Pose3 = (0.0, 0.0, 0.0)


def random_shape(kind: str, rng: np.random.Generator) -> AnyShape:
    if kind == "point":
        return Point()
    if kind == "circle":
        return Circle(float(rng.uniform(0.5, 5.0)))
    if kind == "rect":
        return Rect(float(rng.uniform(0.5, 8.0)), float(rng.uniform(0.5, 8.0)))
    if kind == "triangle":
        while True:
            pts = rng.uniform(-5.0, 5.0, size=(3, 2))
            (ax, ay), (bx, by), (cx, cy) = pts
            if abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) > 4.0:
                return Triangle(*(tuple(p) for p in pts.tolist()))
    n = int(rng.integers(3, 9))
    step = 2.0 * math.pi / n
    angles = np.arange(n) * step + rng.uniform(-0.3, 0.3, size=n) * step
    rx, ry = rng.uniform(1.0, 6.0, size=2)
    return Polygon([(rx * math.cos(t), ry * math.sin(t)) for t in angles])


def random_pose(rng: np.random.Generator) -> Pose3:
    x, y = rng.uniform(-20.0, 20.0, size=2)
    angle = float(rng.choice([0.0, 90.0, 180.0, -90.0, rng.uniform(-360.0, 360.0)]))
    return (float(x), float(y), angle)


def world_vertices(shape: AnyShape, pose: Pose3) -> list[tuple[float, float]]:
    if isinstance(shape, Point | Circle):
        return [(pose[0], pose[1])]
    cos, sin = rotation(pose[2])
    return [to_world(v, pose[0], pose[1], cos, sin) for v in shape.local_vertices()]


def make_cases(kind: str, count: int, seed: int) -> list[tuple[AnyShape, Pose3, Pose3]]:
    """(shape B, pose B, pose of point A): random points plus exact boundary points."""
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(count):
        shape = random_shape(kind, rng)
        pose = random_pose(rng)
        if kind == "point":
            p = (pose[0], pose[1]) if i % 2 else tuple(rng.uniform(-20, 20, size=2).tolist())
        elif i % 5 == 0:
            verts = world_vertices(shape, pose)
            if kind == "circle":
                r = shape.radius  # type: ignore[union-attr]
                p = [(pose[0] + r, pose[1]), (pose[0], pose[1] - r), (pose[0], pose[1])][i % 3]
            else:
                j = int(rng.integers(len(verts)))
                (x0, y0), (x1, y1) = verts[j], verts[(j + 1) % len(verts)]
                p = (x0, y0) if i % 2 else ((x0 + x1) * 0.5, (y0 + y1) * 0.5)
        else:
            # Uniform over B's world bounding box grown by 30%: both outcomes are common.
            verts = np.array(world_vertices(shape, pose))
            grow = 1.3 * (shape.bounding_radius if kind == "circle" else 0.0)
            lo = verts.min(axis=0) - grow
            hi = verts.max(axis=0) + grow
            mid, half = (lo + hi) * 0.5, (hi - lo) * 0.65
            p = tuple(rng.uniform(mid - half, mid + half).tolist())
        cases.append((shape, pose, (float(p[0]), float(p[1]), float(rng.uniform(-180, 180)))))
    return cases


def batch_records(cases: list[tuple[AnyShape, Pose3, Pose3]]) -> tuple[Any, Any]:
    a = pack([Point()] * len(cases), [c[2] for c in cases])
    b = pack([c[0] for c in cases], [c[1] for c in cases])
    return a, b


def boundary_distance(kind: str, shape: AnyShape, pose: Pose3, p: tuple[float, float]) -> float:
    """Distance from p to B's boundary, computed independently with shapely."""
    point = shapely.Point(p)
    if kind == "point":
        return point.distance(shapely.Point(pose[0], pose[1]))
    if kind == "circle":
        return abs(point.distance(shapely.Point(pose[0], pose[1])) - shape.radius)  # type: ignore[union-attr]
    return point.distance(shapely.Polygon(world_vertices(shape, pose)).exterior)


@pytest.fixture(scope="module", params=list(PAIRS))
def kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def cases(kind: str) -> list[tuple[AnyShape, Pose3, Pose3]]:
    return make_cases(kind, 1500, seed=sum(map(ord, kind)))


# ---------------------------------------------------------------------------
# scalar against batch
# ---------------------------------------------------------------------------


def test_batch_equals_scalar_bitwise(kind: str, cases: list[tuple[AnyShape, Pose3, Pose3]]) -> None:
    intersects, contact, intersects_batch, contact_batch = PAIRS[kind]
    a, b = batch_records(cases)
    mask = intersects_batch(a, b)
    out: BatchContacts = contact_batch(a, b)
    assert mask.shape == (len(cases),) and mask.dtype == np.bool_
    hits = 0
    for i, (shape, pose_b, pose_a) in enumerate(cases):
        expected = intersects(Point(), pose_a, shape, pose_b)
        assert bool(mask[i]) == expected
        c = contact(Point(), pose_a, shape, pose_b)
        assert (c is not None) == expected == bool(out.hit[i])
        if c is None:
            assert out.normal[i].tolist() == [0.0, 0.0]
            assert out.depth[i] == 0.0 and out.point[i].tolist() == [0.0, 0.0]
            continue
        hits += 1
        assert out.normal[i].tolist() == list(c.normal), i
        assert out.depth[i] == c.depth, i
        assert out.point[i].tolist() == list(c.point), i
    assert 100 < hits < len(cases) - 100


# ---------------------------------------------------------------------------
# Contact conventions
# ---------------------------------------------------------------------------


def test_contact_conventions(kind: str, cases: list[tuple[AnyShape, Pose3, Pose3]]) -> None:
    contact = PAIRS[kind][1]
    for shape, pose_b, pose_a in cases:
        c = contact(Point(), pose_a, shape, pose_b)
        if c is None:
            continue
        assert isinstance(c, Contact)
        assert math.hypot(*c.normal) == pytest.approx(1.0, abs=1e-12)
        assert c.depth >= 0.0
        # point = p + outward * depth / 2, with outward = -normal.
        assert c.point[0] == pytest.approx(pose_a[0] - c.normal[0] * c.depth * 0.5, abs=1e-12)
        assert c.point[1] == pytest.approx(pose_a[1] - c.normal[1] * c.depth * 0.5, abs=1e-12)


def test_depth_translation_separates_and_touches(
    kind: str, cases: list[tuple[AnyShape, Pose3, Pose3]]
) -> None:
    """Moving B by normal*(depth+eps) separates it from the point; by depth-eps it still touches."""
    intersects, contact = PAIRS[kind][:2]
    eps = 1e-7
    checked = 0
    for shape, pose_b, pose_a in cases:
        c = contact(Point(), pose_a, shape, pose_b)
        if c is None:
            continue
        (nx, ny), depth = c.normal, c.depth
        far = (pose_b[0] + nx * (depth + eps), pose_b[1] + ny * (depth + eps), pose_b[2])
        assert not intersects(Point(), pose_a, shape, far)
        # Two points touch only when equal: any move separates them. A point on a
        # polygon's vertex sits on two edges: moving along one edge's normal keeps
        # it exactly on the other, where rounding decides; such ties are skipped.
        tie = kind in ("rect", "triangle", "polygon") and (
            edge_gap(kind, shape, pose_b, (pose_a[0], pose_a[1])) < 1e-6
        )
        if kind != "point" and not tie:
            near = (pose_b[0] + nx * (depth - eps), pose_b[1] + ny * (depth - eps), pose_b[2])
            assert intersects(Point(), pose_a, shape, near)
        checked += 1
    assert checked > 100


# ---------------------------------------------------------------------------
# Agreement with shapely
# ---------------------------------------------------------------------------

BAND = 1e-9  # documented exclusion band: cases this close to B's boundary are skipped


@pytest.mark.parametrize("pair", AREAL)
def test_agrees_with_shapely(pair: str) -> None:
    intersects, contact = PAIRS[pair][:2]
    cases = make_cases(pair, 3000, seed=1000 + len(pair))
    compared = inside = 0
    for shape, pose_b, pose_a in cases:
        p = (pose_a[0], pose_a[1])
        dist = boundary_distance(pair, shape, pose_b, p)
        if dist < BAND:
            continue
        if pair == "circle":
            expected = shapely.Point(p).distance(shapely.Point(pose_b[:2])) <= shape.radius  # type: ignore[union-attr]
        else:
            expected = shapely.Point(p).intersects(shapely.Polygon(world_vertices(shape, pose_b)))
        assert intersects(Point(), pose_a, shape, pose_b) == expected
        c = contact(Point(), pose_a, shape, pose_b)
        assert (c is not None) == expected
        if c is not None:
            assert c.depth == pytest.approx(dist, abs=1e-9)
            inside += 1
        compared += 1
    assert compared > 2000 and 300 < inside < compared - 300


def test_boundary_points_touch() -> None:
    """Exact boundary points (vertices, axis-aligned edge midpoints) count as hits, depth 0."""
    for pair in ("rect", "triangle", "polygon"):
        intersects, contact = PAIRS[pair][:2]
        shape = {
            "rect": Rect(4, 2),
            "triangle": Triangle((0, 0), (4, 0), (0, 4)),
            "polygon": Polygon([(0, 0), (4, 0), (4, 4), (0, 4)]),
        }[pair]
        for angle in (0.0, 90.0, 180.0, 270.0):
            pose_b = (10.0, -3.0, angle)
            verts = world_vertices(shape, pose_b)
            for j, (x0, y0) in enumerate(verts):
                x1, y1 = verts[(j + 1) % len(verts)]
                for p in ((x0, y0), ((x0 + x1) / 2, (y0 + y1) / 2)):
                    pose_a = (p[0], p[1], 0.0)
                    assert intersects(Point(), pose_a, shape, pose_b), (pair, angle, p)
                    c = contact(Point(), pose_a, shape, pose_b)
                    assert c is not None and c.depth == 0.0 and c.point == p


# ---------------------------------------------------------------------------
# Invariance under rigid motions
# ---------------------------------------------------------------------------


def edge_gap(kind: str, shape: AnyShape, pose: Pose3, p: tuple[float, float]) -> float:
    """Gap between the nearest and second-nearest edge lines (ties make the choice arbitrary)."""
    if kind == "circle":
        return math.dist(p, pose[:2])  # the centre is the circle's only tie
    verts = world_vertices(shape, pose)
    dists = []
    for j, (x0, y0) in enumerate(verts):
        x1, y1 = verts[(j + 1) % len(verts)]
        ex, ey = x1 - x0, y1 - y0
        dists.append(abs(ex * (p[1] - y0) - ey * (p[0] - x0)) / math.hypot(ex, ey))
    dists.sort()
    return dists[1] - dists[0]


@pytest.mark.parametrize("pair", AREAL)
def test_rigid_motion_invariance(pair: str) -> None:
    intersects, contact = PAIRS[pair][:2]
    rng = np.random.default_rng(99)
    checked = 0
    for shape, pose_b, pose_a in make_cases(pair, 800, seed=77 + len(pair)):
        p = (pose_a[0], pose_a[1])
        near_boundary = boundary_distance(pair, shape, pose_b, p) < 1e-6
        if near_boundary or edge_gap(pair, shape, pose_b, p) < 1e-6:
            continue
        tx, ty = rng.uniform(-1e3, 1e3, size=2)
        phi = float(rng.uniform(-180.0, 180.0))
        cos, sin = rotation(phi)
        moved_b = (*to_world(pose_b[:2], tx, ty, cos, sin), pose_b[2] + phi)
        moved_a = (*to_world(p, tx, ty, cos, sin), pose_a[2])
        hit = intersects(Point(), pose_a, shape, pose_b)
        assert intersects(Point(), moved_a, shape, moved_b) == hit
        c0 = contact(Point(), pose_a, shape, pose_b)
        c1 = contact(Point(), moved_a, shape, moved_b)
        if c0 is None or c1 is None:
            assert c0 is c1
            continue
        assert c1.depth == pytest.approx(c0.depth, abs=1e-9)
        turned = to_world(c0.normal, 0.0, 0.0, cos, sin)
        assert c1.normal == pytest.approx(turned, abs=1e-9)
        assert c1.point == pytest.approx(to_world(c0.point, tx, ty, cos, sin), abs=1e-9)
        checked += 1
    assert checked > 100


# ---------------------------------------------------------------------------
# Fallbacks, ties and padding
# ---------------------------------------------------------------------------


def test_point_point_equality_and_fallback() -> None:
    assert intersects(Point(), (1.5, 2.0, 0.0), Point(), (1.5, 2.0, 30.0))
    assert not intersects(Point(), (1.5, 2.0, 0.0), Point(), (1.5, 2.0 + 1e-15, 0.0))
    c = contact(Point(), (1.5, 2.0, 0.0), Point(), (1.5, 2.0, 30.0))
    assert c == Contact((1.0, 0.0), 0.0, (1.5, 2.0))
    assert contact(Point(), ORIGIN, Point(), (0.0, 1e-300, 0.0)) is None


def test_point_at_circle_centre_uses_fallback_normal() -> None:
    c = contact(Point(), (3.0, 4.0, 0.0), Circle(2.0), (3.0, 4.0, 45.0))
    assert c == Contact((1.0, 0.0), 2.0, (2.0, 4.0))
    out = contact_batch(
        PointArrays(np.array([[3.0, 4.0]])), pack([Circle(2.0)], [(3.0, 4.0, 45.0)])  # type: ignore[arg-type]
    )
    assert out.normal.tolist() == [[1.0, 0.0]] and out.depth.tolist() == [2.0]


def test_circle_contact_values() -> None:
    c = contact(Point(), (1.0, 1.0, 0.0), Circle(5.0), (4.0, 5.0, 0.0))
    assert c is not None
    assert c.normal == pytest.approx((0.6, 0.8))
    assert c.depth == pytest.approx(0.0, abs=1e-15)
    c = contact(Point(), (4.0, 2.0, 0.0), Circle(5.0), (4.0, 5.0, 0.0))
    assert c == Contact((0.0, 1.0), 2.0, (4.0, 1.0))


def test_rect_ties_break_to_lowest_side() -> None:
    # Centre of a square: all four sides tie, side 0 (bottom) wins; pushing the
    # square up (normal +y) brings its bottom onto the point.
    c = contact(Point(), (5.0, 5.0, 0.0), Rect(2, 2), (5.0, 5.0, 0.0))
    assert c == Contact((0.0, 1.0), 1.0, (5.0, 4.5))
    # Rotated 90 degrees clockwise the local bottom faces world -x... pushed towards +x.
    c = contact(Point(), (5.0, 5.0, 0.0), Rect(2, 2), (5.0, 5.0, 90.0))
    assert c is not None and c.normal == (1.0, 0.0) and c.depth == 1.0
    # Right side (1) beats top side (2) at the top-right corner region diagonal.
    c = contact(Point(), (1.5, 0.5, 0.0), Rect(4, 2), ORIGIN)
    assert c == Contact((-1.0, 0.0), 0.5, (1.75, 0.5))


def test_triangle_ties_and_winding() -> None:
    # (1, 1) is 1 from edge 0 (a->b) and from edge 2 (c->a): edge 0 wins.
    ccw = Triangle((0, 0), (4, 0), (0, 4))
    cw = Triangle((0, 0), (0, 4), (4, 0))
    c = contact(Point(), (1.0, 1.0, 0.0), ccw, ORIGIN)
    assert c == Contact((0.0, 1.0), 1.0, (1.0, 0.5))
    # In the other winding edge 0 is the left side x = 0: pushed towards +x.
    c = contact(Point(), (1.0, 1.0, 0.0), cw, ORIGIN)
    assert c == Contact((1.0, 0.0), 1.0, (0.5, 1.0))


def test_polygon_ties_and_padding() -> None:
    square = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    c = contact(Point(), (1.0, 1.0, 0.0), square, ORIGIN)
    assert c == Contact((0.0, 1.0), 1.0, (1.0, 0.5))
    # A triangle padded to 8 columns: the closing edge sits in the last column,
    # after five zero-length padding edges that must change nothing.
    tri = Polygon([(0, 0), (4, 0), (0, 4)])
    octagon = Polygon([(math.cos(k * math.pi / 4), math.sin(k * math.pi / 4)) for k in range(8)])
    points = [(0.5, 1.5), (0.25, 0.25), (4.0, 0.0), (0.0, 2.0), (-0.1, 2.0)]
    for p in points:
        a = pack([Point(), Point()], [p, (0.0, 0.0)])
        b = pack([tri, octagon], [ORIGIN, ORIGIN])
        assert b.vertices.shape == (2, 8, 2)  # type: ignore[union-attr]
        out = contact_batch(a, b)  # type: ignore[arg-type]
        expected = contact(Point(), (*p, 0.0), tri, ORIGIN)
        assert bool(out.hit[0]) == (expected is not None)
        if expected is not None:
            assert tuple(out.normal[0].tolist()) == expected.normal
            assert out.depth[0] == expected.depth
    c = contact(Point(), (0.5, 1.5, 0.0), tri, ORIGIN)
    assert c is not None and c.normal == (1.0, 0.0) and c.depth == 0.5


def test_scalar_inputs_use_parsed_poses() -> None:
    """parse_pose output is a valid pose."""
    pose = parse_pose((2, 3))
    assert intersects(Point(), parse_pose((2, 3)), Rect(1, 1), pose)
    assert intersects(Point(), pose, Triangle((0, 0), (1, 0), (0, 1)), pose)


def test_empty_batches(kind: str) -> None:
    intersects_batch, contact_batch = PAIRS[kind][2:]
    cases = make_cases(kind, 3, seed=1)
    a, b = batch_records(cases)
    none = np.zeros(0, dtype=np.intp)
    a0 = type(a)(*(f[none] for f in a))
    b0 = type(b)(*(f[none] for f in b))
    assert intersects_batch(a0, b0).shape == (0,)
    out = contact_batch(a0, b0)
    assert out.hit.shape == (0,) and out.normal.shape == (0, 2) and out.point.shape == (0, 2)


def test_a_point_next_to_the_centre_keeps_its_direction() -> None:
    """An offset whose square underflows still gives the unit normal along it."""
    for offset in ((3e-160, -4e-160), (3e-170, -4e-170), (3e-320, -4e-320)):
        got = contact(Point(), (0.0, 0.0), Circle(5), offset)
        assert got is not None
        assert got.normal == pytest.approx((0.6, -0.8), rel=1e-12)
        assert got.depth == 5.0

"""Random shapes and poses for the narrow-phase tests, plus the shapely oracle.

Two generators: seeded numpy ones for the bulk comparisons (thousands of cases,
built fast) and hypothesis strategies for the structural properties.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pytest
import shapely
from hypothesis import strategies as st

from arcade_collide.geometry.arrays import (
    CircleArrays,
    PointArrays,
    PolygonArrays,
    RectArrays,
    ShapeArrays,
    TriangleArrays,
    pack,
)
from arcade_collide.geometry.query.rows import world_rows
from arcade_collide.geometry.shapes import (
    AnyShape,
    Circle,
    Point,
    Polygon,
    Rect,
    ShapeKind,
    Triangle,
)

KINDS = tuple(ShapeKind)
Pose3 = tuple[float, float, float]
ORDERED_PAIRS = tuple((a, b) for a in KINDS for b in KINDS)
CANONICAL_PAIRS = tuple((a, b) for a in KINDS for b in KINDS if a <= b)
SPREAD = 4.0
"""Poses fall in ``[-SPREAD, SPREAD]^2``; shapes are a few units wide, so many pairs hit."""
SCALE = 10.0
"""Rough size of the scenes, for tolerances."""


def _ellipse_polygon(rng: np.random.Generator) -> Polygon:
    """A strictly convex polygon: 3..8 points on an ellipse at well-spread angles."""
    while True:
        n = int(rng.integers(3, 9))
        angles = np.sort(rng.uniform(0.0, 2.0 * math.pi, n))
        gaps = np.diff(np.concatenate([angles, angles[:1] + 2.0 * math.pi]))
        if gaps.min() < 0.15 or gaps.max() > math.pi - 0.15:
            continue
        rx, ry = rng.uniform(0.4, 2.5, 2)
        cx, cy = rng.uniform(-0.5, 0.5, 2)
        points = [(cx + rx * math.cos(t), cy + ry * math.sin(t)) for t in angles]
        return Polygon(points)


def _triangle(rng: np.random.Generator) -> Triangle:
    while True:
        pts = rng.uniform(-2.0, 2.0, (3, 2))
        (ax, ay), (bx, by), (cx, cy) = pts
        if abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) > 0.3:
            return Triangle((ax, ay), (bx, by), (cx, cy))


def random_shape(kind: ShapeKind, rng: np.random.Generator) -> AnyShape:
    """One random shape of ``kind``."""
    if kind is ShapeKind.POINT:
        return Point()
    if kind is ShapeKind.CIRCLE:
        return Circle(float(rng.uniform(0.2, 2.5)))
    if kind is ShapeKind.RECT:
        return Rect(float(rng.uniform(0.2, 4.0)), float(rng.uniform(0.2, 4.0)))
    if kind is ShapeKind.TRIANGLE:
        return _triangle(rng)
    return _ellipse_polygon(rng)


def random_shapes(kind: ShapeKind, n: int, rng: np.random.Generator) -> list[AnyShape]:
    """``n`` random shapes of one kind."""
    return [random_shape(kind, rng) for _ in range(n)]


def random_poses(n: int, rng: np.random.Generator) -> list[tuple[float, float, float]]:
    """``n`` poses; one in four has an angle that is a multiple of 90 degrees."""
    xy = rng.uniform(-SPREAD, SPREAD, (n, 2))
    angles = rng.uniform(-360.0, 360.0, n)
    right = rng.random(n) < 0.25
    angles[right] = rng.integers(-4, 5, int(right.sum())) * 90.0
    return [(float(x), float(y), float(a)) for (x, y), a in zip(xy, angles, strict=True)]


def random_side(
    kind: ShapeKind, n: int, rng: np.random.Generator
) -> tuple[list[AnyShape], list[tuple[float, float, float]], ShapeArrays]:
    """Shapes, poses and their packed world-space record."""
    shapes = random_shapes(kind, n, rng)
    poses = random_poses(n, rng)
    return shapes, poses, pack(shapes, poses)


# ---------------------------------------------------------------------------
# shapely oracle
# ---------------------------------------------------------------------------


def world_polygons(arrays: ShapeArrays) -> np.ndarray:  # type: ignore[type-arg]
    """shapely polygons of the rect/triangle/polygon rows (padding repeats a vertex: harmless)."""
    if isinstance(arrays, (RectArrays, TriangleArrays, PolygonArrays)):
        return shapely.polygons(arrays.vertices)
    raise TypeError(type(arrays).__name__)


def oracle(a: ShapeArrays, b: ShapeArrays, eps: float) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[type-arg]
    """shapely's answer per row and a mask of rows within ``eps`` of touching.

    Circles are never buffered (a buffered circle is a polygon, not a circle):
    a circle hits a shape exactly when the shape's distance to its centre is at
    most the radius. Point-circle and circle-circle use plain float distances.
    """
    if isinstance(b, CircleArrays) and not isinstance(a, CircleArrays):
        return oracle(b, a, eps)
    if isinstance(a, CircleArrays):
        c, r = a.center, a.radius
        if isinstance(b, CircleArrays):
            d = np.hypot(*(b.center - c).T)
            gap = d - (r + b.radius)
        elif isinstance(b, PointArrays):
            gap = np.hypot(*(b.xy - c).T) - r
        else:
            gap = shapely.distance(world_polygons(b), shapely.points(c)) - r
        return gap <= 0.0, np.abs(gap) <= eps
    if isinstance(b, PointArrays) and not isinstance(a, PointArrays):
        return oracle(b, a, eps)
    if isinstance(a, PointArrays):
        pts = shapely.points(a.xy)
        if isinstance(b, PointArrays):
            same = (a.xy == b.xy).all(axis=1)
            return same, ~same & (np.hypot(*(a.xy - b.xy).T) <= eps)
        polys = world_polygons(b)
        truth = shapely.intersects(polys, pts)
        near = shapely.distance(shapely.boundary(polys), pts) <= eps
        return truth, near
    pa = world_polygons(a)
    pb = world_polygons(b)
    truth = shapely.intersects(pa, pb)
    # Near touching from outside (tiny gap) or from inside (A shrunk by eps misses B).
    near = (~truth & (shapely.distance(pa, pb) <= eps)) | (
        truth & ~shapely.intersects(shapely.buffer(pa, -eps, join_style="mitre"), pb)
    )
    return truth, near


def translated(arrays: ShapeArrays, offset: np.ndarray) -> ShapeArrays:  # type: ignore[type-arg]
    """The record moved by per-row world offsets ``(M, 2)``."""
    if isinstance(arrays, PointArrays):
        return PointArrays(arrays.xy + offset)
    if isinstance(arrays, CircleArrays):
        return CircleArrays(arrays.center + offset, arrays.radius)
    if isinstance(arrays, RectArrays):
        return RectArrays(
            arrays.center + offset, arrays.axis, arrays.half, arrays.vertices + offset[:, None]
        )
    if isinstance(arrays, TriangleArrays):
        return TriangleArrays(arrays.vertices + offset[:, None])
    return PolygonArrays(arrays.vertices + offset[:, None], arrays.nverts)


def aabbs(arrays: ShapeArrays) -> np.ndarray:  # type: ignore[type-arg]
    """``(M, 4)`` world bounds ``min_x, min_y, max_x, max_y``."""
    if isinstance(arrays, PointArrays):
        return np.concatenate([arrays.xy, arrays.xy], axis=1)
    if isinstance(arrays, CircleArrays):
        r = arrays.radius[:, None]
        return np.concatenate([arrays.center - r, arrays.center + r], axis=1)
    v = arrays.vertices
    return np.concatenate([v.min(axis=1), v.max(axis=1)], axis=1)


# ---------------------------------------------------------------------------
# hypothesis strategies
# ---------------------------------------------------------------------------

coordinates = st.floats(-SPREAD, SPREAD, allow_nan=False, allow_infinity=False)
angles = st.one_of(
    st.floats(-360.0, 360.0, allow_nan=False), st.integers(-4, 4).map(lambda q: q * 90.0)
)
poses = st.tuples(coordinates, coordinates, angles)


@st.composite
def shapes(draw: st.DrawFn, kind: ShapeKind) -> AnyShape:
    """A random shape of ``kind``, drawn through a seeded numpy generator."""
    seed = draw(st.integers(0, 2**32 - 1))
    return random_shape(kind, np.random.default_rng(seed))


def posed(kind: ShapeKind) -> st.SearchStrategy[tuple[AnyShape, tuple[float, float, float]]]:
    """A shape of ``kind`` with a pose."""
    return st.tuples(shapes(kind), poses)


def rotate_pose(
    pose: Sequence[float], theta: float
) -> tuple[float, float, float]:
    """The pose after turning the whole scene clockwise by ``theta`` degrees about the origin."""
    x, y, angle = pose
    c = math.cos(math.radians(theta))
    s = math.sin(math.radians(theta))
    return (x * c + y * s, -x * s + y * c, angle + theta)


# ---------------------------------------------------------------------------
# world tables of paired scenes (the compiled kernels' tests)
# ---------------------------------------------------------------------------




def pair_ids(pair: tuple[ShapeKind, ShapeKind]) -> str:
    """Test id of a type pair, e.g. ``circle-rect``."""
    return f"{pair[0].name.lower()}-{pair[1].name.lower()}"


def lattice_shape(kind: ShapeKind, rng: np.random.Generator) -> AnyShape:
    """Integer-sized shapes: with integer poses and quarter turns, touching is exact."""
    if kind is ShapeKind.CIRCLE:
        return Circle(float(rng.integers(1, 4)))
    if kind is ShapeKind.RECT:
        return Rect(2.0 * float(rng.integers(1, 3)), 2.0 * float(rng.integers(1, 3)))
    if kind is ShapeKind.TRIANGLE:
        while True:
            p = rng.integers(-2, 3, (3, 2)).astype(float)
            cross = (p[1, 0] - p[0, 0]) * (p[2, 1] - p[0, 1]) - (p[1, 1] - p[0, 1]) * (
                p[2, 0] - p[0, 0]
            )
            if cross != 0:
                return Triangle(*(tuple(v) for v in p))  # type: ignore[arg-type]
    if kind is ShapeKind.POLYGON:
        corners = [(-2.0, -1.0), (1.0, -2.0), (2.0, 1.0), (-1.0, 2.0)]
        return Polygon(corners[: int(rng.integers(3, 5))])
    return random_shape(kind, rng)


def paired_scene(
    pair: tuple[ShapeKind, ShapeKind], n: int, seed: int, lattice: bool, offset: float
) -> tuple[list[AnyShape], list[Pose3], list[AnyShape], list[Pose3]]:
    """``n`` pairs of one type pair, as (shapes A, poses A, shapes B, poses B): random
    shapes and poses, or lattice ones where touching is exact, around ``offset``."""
    rng = np.random.default_rng([seed, int(pair[0]), int(pair[1])])
    make = lattice_shape if lattice else random_shape
    shapes_a = [make(pair[0], rng) for _ in range(n)]
    shapes_b = [make(pair[1], rng) for _ in range(n)]

    def pose() -> Pose3:
        if lattice:
            x, y = (float(v) for v in rng.integers(-5, 6, 2))
            return (offset + x, offset + y, 90.0 * float(rng.integers(-2, 3)))
        x, y = rng.uniform(-4.0, 4.0, 2)
        return (offset + float(x), offset + float(y), float(rng.uniform(-360.0, 360.0)))

    poses_a = [pose() for _ in range(n)]
    # A quarter of the pairs share a pose (coincident points hit only this way).
    poses_b = [pa if rng.random() < 0.25 else pose() for pa in poses_a]
    return shapes_a, poses_a, shapes_b, poses_b


def table_rows_for(
    pair: tuple[ShapeKind, ShapeKind], a: ShapeArrays, b: ShapeArrays, n: int
) -> tuple[np.ndarray, np.ndarray, object, np.ndarray]:  # type: ignore[type-arg]
    """A two-kind (or one-kind) world table holding ``a`` then ``b``, and row pairs."""
    ka, kb = pair
    kinds = np.concatenate([np.full(n, ka), np.full(n, kb)]).astype(np.int8)
    return np.arange(n), np.arange(n, 2 * n), world_rows(a, b), kinds


SCENES = [  # (lattice, offset) for paired_scene
    pytest.param(False, 0.0, id="random"),
    pytest.param(False, 1e9, id="random-far"),
    pytest.param(True, 0.0, id="lattice"),
    pytest.param(True, 2.0**30, id="lattice-far"),
]

"""Swept pairs (:mod:`arcade_collide.geometry.query.sweeps`) for every kind pair.

Each case is a two-row table holding A and B where they are at the end of the tick,
as the ECS hands it to :func:`swept_rows`. A reported fraction is checked by placing
the shapes there: touching (shapely's distance, circles exact) and, a little earlier,
apart by the exact pair test. A turning A is cast as the circle that holds it at every
angle; a finely sub-stepped shapely run of the turning outline checks that it never
misses a touch the outline made. Hypothesis checks translation invariance and
agreement with a sub-stepped shapely reference.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from narrow_cases import KINDS, ORDERED_PAIRS, pair_ids, random_shape

from arcade_collide.geometry.arrays import FloatArray, pack
from arcade_collide.geometry.query.dispatch import intersects
from arcade_collide.geometry.query.kernel_base import WorldRows
from arcade_collide.geometry.query.rows import world_rows
from arcade_collide.geometry.query.sweeps import shift_row, swept_rows
from arcade_collide.geometry.shapes import AnyShape, Circle, Point, ShapeKind

Pose3 = tuple[float, float, float]
BEFORE = 1e-6
"""How far before a reported fraction (in fractions of the tick) the shapes are apart."""
TOUCH = 1e-9
"""shapely's distance at a reported fraction is at most this (rounding)."""


def _table(a: AnyShape, pose_a: Pose3, b: AnyShape, pose_b: Pose3) -> tuple[WorldRows, int, int]:
    """A two-row table of A and B (records in kind order, as the ECS lays them out)."""
    if type(a) is type(b):
        return world_rows(pack([a, b], [pose_a, pose_b])), 0, 1
    first_a = ShapeKind[type(a).__name__.upper()] < ShapeKind[type(b).__name__.upper()]
    if first_a:
        return world_rows(pack([a], [pose_a]), pack([b], [pose_b])), 0, 1
    return world_rows(pack([b], [pose_b]), pack([a], [pose_a])), 1, 0


def sweep(
    a: AnyShape,
    start_a: Pose3,
    end_a: Pose3,
    b: AnyShape,
    start_b: Pose3,
    end_b: Pose3 | None = None,
    radius_a: float = 0.0,
) -> FloatArray | None:
    """``(fraction, px, py, nx, ny)`` of A moving from ``start_a`` to ``end_a`` (B from
    ``start_b`` to ``end_b``, translating) as :func:`swept_rows` finds it, or None."""
    end_b = start_b if end_b is None else end_b
    rows, ia, ib = _table(a, end_a, b, end_b)
    d = [
        (end_a[0] - start_a[0]) - (end_b[0] - start_b[0]),
        (end_a[1] - start_a[1]) - (end_b[1] - start_b[1]),
    ]
    hit = np.empty(1, dtype=np.bool_)
    out = np.full((1, 6), np.nan)
    count = swept_rows(
        rows, np.array([ia]), np.array([ib]), np.array([d]), np.array([radius_a]),
        np.zeros(1), np.array([[end_a[0], end_a[1], end_b[0], end_b[1]]]),
        np.ones(1, dtype=np.bool_), hit, out,
    )  # fmt: skip
    assert count == int(hit[0])
    return out[0] if hit[0] else None


def at(start: Pose3, end: Pose3, f: float) -> Pose3:
    """The pose a fraction ``f`` of the way (angle included)."""
    return (
        start[0] + f * (end[0] - start[0]),
        start[1] + f * (end[1] - start[1]),
        start[2] + f * (end[2] - start[2]),
    )


def shapely_gaps(shape: AnyShape, poses: list[Pose3], other: AnyShape, pose: Pose3) -> FloatArray:
    """The distance between ``shape`` at each of ``poses`` and ``other`` at ``pose``
    (shapely; circles as exact discs), <= 0 where they overlap."""
    geometry, radius = _geometries(shape, poses)
    other_geometry, other_radius = _geometries(other, [pose])
    gaps: FloatArray = shapely.distance(geometry, other_geometry[0]) - radius - other_radius
    return gaps


def _geometries(shape: AnyShape, poses: list[Pose3]) -> tuple[np.ndarray, float]:  # type: ignore[type-arg]
    if isinstance(shape, (Point, Circle)):
        xy = np.array([p[:2] for p in poses], dtype=float)
        return shapely.points(xy), shape.bounding_radius
    vertices = pack([shape] * len(poses), poses).vertices  # type: ignore[union-attr]
    return shapely.polygons(vertices[:, : len(shape.local_vertices())]), 0.0


def check_touch(
    a: AnyShape, start_a: Pose3, end_a: Pose3, b: AnyShape, start_b: Pose3, end_b: Pose3,
    found: FloatArray,
) -> None:  # fmt: skip
    """At the reported fraction the two touch; a little before they are apart (unless A
    slides along B, or they touched at the start)."""
    f, nx, ny = float(found[0]), float(found[3]), float(found[4])
    assert 0.0 <= f <= 1.0
    assert math.hypot(nx, ny) == pytest.approx(1.0, abs=1e-12)
    pose_a, pose_b = at(start_a, end_a, f), at(start_b, end_b, f)
    if isinstance(a, Point) and isinstance(b, Point):
        assert math.dist(pose_a[:2], pose_b[:2]) < 1e-9
    else:
        assert shapely_gaps(a, [pose_a], b, pose_b)[0] <= TOUCH
    if f == 0.0:
        return
    d = np.subtract(end_a[:2], start_a[:2]) - np.subtract(end_b[:2], start_b[:2])
    if -(nx * d[0] + ny * d[1]) > 1e-2 * math.hypot(*d):
        g = max(0.0, f - BEFORE)
        assert not intersects(a, at(start_a, end_a, g), b, at(start_b, end_b, g))


def _case(
    kind_a: ShapeKind, kind_b: ShapeKind, rng: np.random.Generator
) -> tuple[AnyShape, AnyShape, Pose3, float]:
    """Shapes A and B, B's pose, and how far apart their centres must be to clear."""
    a, b = random_shape(kind_a, rng), random_shape(kind_b, rng)
    pose_b = (*(float(v) for v in rng.uniform(-3, 3, 2)), float(rng.uniform(-180, 180)))
    if isinstance(a, Point) and isinstance(b, Point):
        pose_b = (float(round(pose_b[0])), float(round(pose_b[1])), 0.0)
    return a, b, pose_b, a.bounding_radius + b.bounding_radius


def centroid(shape: AnyShape, pose: Pose3) -> tuple[float, float]:
    """A point inside the posed shape: its pose for a point, circle or rectangle, else
    the mean of its vertices (the shapes are convex)."""
    if isinstance(shape, (Point, Circle)) or type(shape).__name__ == "Rect":
        return pose[0], pose[1]
    vertices = pack([shape], [pose]).vertices[0, : len(shape.local_vertices())]  # type: ignore[union-attr]
    x, y = vertices.mean(axis=0)
    return float(x), float(y)


def _towards(
    a: AnyShape, b: AnyShape, pose_b: Pose3, reach: float, rng: np.random.Generator
) -> tuple[Pose3, Pose3]:
    """A start and end pose of A, its centroid passing straight over B's, from outside
    ``reach``. Two points meet only exactly: then the motion is along an axis by whole
    units, so that no rounding makes them miss."""
    angle = float(rng.uniform(0, 2 * math.pi))
    if reach == 0.0:
        angle = math.pi / 2 * int(rng.integers(4))
    u = (round(math.cos(angle), 12), round(math.sin(angle), 12))
    far = reach + float(rng.uniform(0.5, 4.0))
    if reach == 0.0:
        far = float(rng.integers(1, 5))
    spin = float(rng.uniform(-180, 180)) if reach else 0.0
    bx, by = centroid(b, pose_b)
    ax, ay = centroid(a, (0.0, 0.0, spin))
    start = (bx - ax - far * u[0], by - ay - far * u[1], spin)
    end = (bx - ax + far * u[0], by - ay + far * u[1], spin)
    return start, end


@pytest.mark.parametrize("pair", ORDERED_PAIRS, ids=pair_ids)
def test_a_crossing_hits_where_the_shapes_first_touch_and_a_pass_beside_misses(
    pair: tuple[ShapeKind, ShapeKind],
) -> None:
    rng = np.random.default_rng([16, *pair])
    for _ in range(30):
        a, b, pose_b, reach = _case(*pair, rng)
        start, end = _towards(a, b, pose_b, reach, rng)
        found = sweep(a, start, end, b, pose_b)
        assert found is not None
        assert found[0] > 0.0
        check_touch(a, start, end, b, pose_b, pose_b, found)
        # Stopping short of B misses.
        ux, uy = end[0] - start[0], end[1] - start[1]
        assert sweep(a, (start[0] - ux, start[1] - uy, start[2]), start, b, pose_b) is None
        # So does the same line shifted sideways: A's pose passes farther than both
        # reaches from B's (the line went through B's centroid, within ``reach`` of it).
        side = (2 * reach + 0.01) / math.hypot(ux, uy)
        shift = (-uy * side, ux * side)
        start = (start[0] + shift[0], start[1] + shift[1], start[2])
        end = (end[0] + shift[0], end[1] + shift[1], end[2])
        assert sweep(a, start, end, b, pose_b) is None


@pytest.mark.parametrize("pair", ORDERED_PAIRS, ids=pair_ids)
def test_touching_at_the_start_hits_at_fraction_zero(pair: tuple[ShapeKind, ShapeKind]) -> None:
    rng = np.random.default_rng([18, *pair])
    for _ in range(30):
        a, b, pose_b, _reach = _case(*pair, rng)
        spin = float(rng.uniform(-180, 180))
        (bx, by), (ax, ay) = centroid(b, pose_b), centroid(a, (0.0, 0.0, spin))
        start = (bx - ax, by - ay, spin)
        step = rng.normal(size=2) * 5.0
        end = (start[0] + float(step[0]), start[1] + float(step[1]), start[2])
        found = sweep(a, start, end, b, pose_b)
        assert found is not None
        assert found[0] == 0.0
        check_touch(a, start, end, b, pose_b, pose_b, found)


@pytest.mark.parametrize("pair", ORDERED_PAIRS, ids=pair_ids)
def test_both_moving_count_their_relative_motion(pair: tuple[ShapeKind, ShapeKind]) -> None:
    rng = np.random.default_rng([19, *pair])
    hits = 0
    for _ in range(30):
        a, b, pose_b, reach = _case(*pair, rng)
        start, end = _towards(a, b, pose_b, reach, rng)
        # B drifts along A's line; A passes where B is at the middle of the tick.
        drift = rng.normal(size=2) * 2.0
        if pair == (ShapeKind.POINT, ShapeKind.POINT):
            drift = (np.subtract(end[:2], start[:2])) * float(rng.uniform(-0.4, 0.4))
        start_b = (pose_b[0] - drift[0] / 2, pose_b[1] - drift[1] / 2, pose_b[2])
        end_b = (pose_b[0] + drift[0] / 2, pose_b[1] + drift[1] / 2, pose_b[2])
        found = sweep(a, start, end, b, start_b, end_b)
        if found is None:
            # A miss only where A's path relative to B clears it.
            f = np.linspace(0.0, 1.0, 2001)
            poses_a = [at(start, end, float(x)) for x in f]
            rel = [(p[0] - q[0] + pose_b[0], p[1] - q[1] + pose_b[1], p[2])
                   for p, q in zip(poses_a, (at(start_b, end_b, float(x)) for x in f),
                                   strict=True)]  # fmt: skip
            assert shapely_gaps(a, rel, b, pose_b).min() > 0.0
            continue
        hits += 1
        check_touch(a, start, end, b, start_b, end_b, found)
        # Relative to B the motion is the difference: the same as B standing still.
        rel_start = (start[0] - start_b[0] + end_b[0], start[1] - start_b[1] + end_b[1], start[2])
        still = sweep(a, rel_start, end, b, end_b)
        assert still is not None
        assert still[0] == pytest.approx(found[0], abs=1e-12)
    assert hits > 10


def first_substep_touch(
    a: AnyShape, start: Pose3, end: Pose3, b: AnyShape, pose_b: Pose3, steps: int
) -> float | None:
    """The first of ``steps + 1`` evenly spaced fractions at which A (translating and
    turning) touches B by shapely, or None."""
    fractions = np.linspace(0.0, 1.0, steps + 1)
    poses = [at(start, end, float(f)) for f in fractions]
    touching = np.flatnonzero(shapely_gaps(a, poses, b, pose_b) <= 0.0)
    return float(fractions[touching[0]]) if len(touching) else None


@pytest.mark.parametrize("kind_b", KINDS, ids=lambda k: k.name.lower())
@pytest.mark.parametrize("kind_a", KINDS[2:], ids=lambda k: k.name.lower())
def test_a_turning_shape_never_misses_what_its_outline_touched(
    kind_a: ShapeKind, kind_b: ShapeKind
) -> None:
    rng = np.random.default_rng([20, kind_a, kind_b])
    touched = 0
    for _ in range(25):
        a, b, pose_b, reach = _case(kind_a, kind_b, rng)
        start, end = _towards(a, b, pose_b, reach, rng)
        # Aim off to the side (sometimes clear of B), and turn up to a full turn.
        side = rng.normal(size=2) * reach * 0.6
        turn = float(rng.uniform(-360, 360))
        start = (start[0] + side[0], start[1] + side[1], start[2])
        end = (end[0] + side[0], end[1] + side[1], start[2] + turn)
        first = first_substep_touch(a, start, end, b, pose_b, 2000)
        found = sweep(a, start, end, b, pose_b, radius_a=a.bounding_radius)
        if first is None:
            continue
        touched += 1
        assert found is not None
        assert found[0] <= first + 1e-12
        # The circle it was cast as touches B there.
        circle_at = at(start, end, float(found[0]))
        gap = shapely_gaps(Circle(a.bounding_radius), [circle_at], b, pose_b)[0]
        assert gap <= TOUCH
    assert touched > 5


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name.lower())
def test_shift_row_moves_a_row_as_its_pose_would(kind: ShapeKind) -> None:
    rng = np.random.default_rng([21, kind])
    shapes = [random_shape(kind, rng) for _ in range(3)]
    poses = [(float(x), float(y), float(t)) for x, y, t in rng.uniform(-50, 50, (3, 3))]
    rows = world_rows(pack(shapes, poses))
    shift_row(rows, 1, 3.25, -7.5)
    moved = list(poses)
    moved[1] = (poses[1][0] + 3.25, poses[1][1] - 7.5, poses[1][2])
    expected = world_rows(pack(shapes, moved))
    for name, got in rows._asdict().items():
        assert np.allclose(got, getattr(expected, name), rtol=0, atol=1e-12), name


_coordinate = st.floats(-6.0, 6.0)
_poses = st.tuples(_coordinate, _coordinate, st.floats(-180.0, 180.0))
SCENES = {
    "kinds": st.sampled_from(ORDERED_PAIRS),
    "seed": st.integers(0, 2**32 - 1),
    "start": _poses,
    "end": _poses,
}
"""A kind pair, a seed for the shapes and B's pose, and A's start and end poses."""


@settings(max_examples=60, deadline=None)
@given(**SCENES, shift=st.tuples(st.floats(-1e4, 1e4), st.floats(-1e4, 1e4)))
def test_sweeps_are_translation_invariant(
    kinds: tuple[ShapeKind, ShapeKind], seed: int, start: Pose3, end: Pose3,
    shift: tuple[float, float],
) -> None:  # fmt: skip
    rng = np.random.default_rng(seed)
    a, b, pose_b, _reach = _case(*kinds, rng)
    end = (end[0], end[1], start[2])
    found = sweep(a, start, end, b, pose_b)

    def moved(pose: Pose3) -> Pose3:
        return (pose[0] + shift[0], pose[1] + shift[1], pose[2])

    far = sweep(a, moved(start), moved(end), b, moved(pose_b))
    if kinds == (ShapeKind.POINT, ShapeKind.POINT):
        return  # points meet only exactly: moved, they may miss by a rounding
    rounding = 1e-9 * (1.0 + max(abs(shift[0]), abs(shift[1])))
    d = (end[0] - start[0], end[1] - start[1])
    length = math.hypot(*d)
    if found is None or far is None:
        # One misses only where A's path grazes B within the rounding of the shift.
        if found is not None or far is not None:
            poses = [at(start, end, float(f)) for f in np.linspace(0, 1, 2001)]
            assert shapely_gaps(a, poses, b, pose_b).min() >= -rounding
        return
    approach = -(found[3] * d[0] + found[4] * d[1])
    if found[0] > 0.0 and approach > 1e-3 * length:
        assert far[0] == pytest.approx(found[0], abs=rounding / approach)
    else:
        assert (far[0] == 0.0) == (found[0] == 0.0) or abs(far[0] - found[0]) < 1e-6


@settings(max_examples=80, deadline=None)
@given(**SCENES, turning=st.booleans())
def test_sweeps_agree_with_a_substepped_shapely_run(
    kinds: tuple[ShapeKind, ShapeKind], seed: int, start: Pose3, end: Pose3, turning: bool
) -> None:
    rng = np.random.default_rng(seed)
    a, b, pose_b, _reach = _case(*kinds, rng)
    if not turning or kinds[0] < ShapeKind.RECT:
        end = (end[0], end[1], start[2])
        turning = False
    steps = 1000
    radius = a.bounding_radius if turning else 0.0
    found = sweep(a, start, end, b, pose_b, radius_a=radius)
    first = first_substep_touch(a, start, end, b, pose_b, steps)
    if first is not None and kinds != (ShapeKind.POINT, ShapeKind.POINT):
        assert found is not None
        assert found[0] <= first + 1e-12
    if found is None or turning:
        return
    check_touch(a, start, end, b, pose_b, pose_b, found)
    # A touch between two sub-steps lies within half a step of one of them.
    length = math.dist(start[:2], end[:2])
    poses = [at(start, end, float(f)) for f in np.linspace(0.0, 1.0, steps + 1)]
    assert shapely_gaps(a, poses, b, pose_b).min() <= length / steps + 1e-9

"""Shape casts for every kind pair: checked by moving A to the reported fraction."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
import shapely
from narrow_cases import KINDS, ORDERED_PAIRS, lattice_shape, pair_ids, random_shape

from arcade_collide.geometry.arrays import pack
from arcade_collide.geometry.hits import CastHit
from arcade_collide.geometry.query.dispatch import contact, intersects
from arcade_collide.geometry.query.ray_batches import shape_cast_batch
from arcade_collide.geometry.query.ray_queries import shape_cast
from arcade_collide.geometry.shapes import AnyShape, Circle, Point, Rect, ShapeKind, Triangle

Pose3 = tuple[float, float, float]
Case = tuple[AnyShape, Pose3, tuple[float, float], AnyShape, Pose3]


@functools.cache
def _cases(kind_a: ShapeKind, kind_b: ShapeKind, n: int) -> list[Case]:
    """Random casts of A roughly towards B; when both are points, A aims exactly at B."""
    rng = np.random.default_rng([15, int(kind_a), int(kind_b)])
    cases = []
    for _ in range(n):
        a, b = random_shape(kind_a, rng), random_shape(kind_b, rng)
        pose_a = (*(float(v) for v in rng.uniform(-8, 8, 2)), float(rng.uniform(-360, 360)))
        pose_b = (*(float(v) for v in rng.uniform(-3, 3, 2)), float(rng.uniform(-360, 360)))
        aim = np.array(pose_b[:2]) - np.array(pose_a[:2])
        if not (kind_a is kind_b is ShapeKind.POINT):
            aim = aim * rng.uniform(0.3, 2.0) + rng.normal(size=2) * 2.0
        cases.append((a, pose_a, (float(aim[0]), float(aim[1])), b, pose_b))
    return cases


def _moved(pose: Pose3, t: tuple[float, float], f: float) -> Pose3:
    return (pose[0] + f * t[0], pose[1] + f * t[1], pose[2])


def _geometry(shape: AnyShape, pose: Pose3) -> tuple[shapely.Geometry, float]:
    """shapely's geometry of a posed shape and the radius to take off its distances."""
    if isinstance(shape, (Point, Circle)):
        return shapely.Point(pose[:2]), shape.bounding_radius
    record = pack([shape], [pose])
    vertices = record.vertices[0][: len(shape.local_vertices())]  # type: ignore[union-attr]
    return shapely.Polygon(vertices), 0.0


def _gap(a: AnyShape, pose_a: Pose3, b: AnyShape, pose_b: Pose3) -> float:
    """The distance between two posed shapes (shapely; circles exact), <= 0 overlapping."""
    (ga, ra), (gb, rb) = _geometry(a, pose_a), _geometry(b, pose_b)
    return float(shapely.distance(ga, gb)) - ra - rb


def _check(case: Case, hit: CastHit | None) -> None:
    a, pose_a, t, b, pose_b = case
    if hit is None:
        for f in np.linspace(0.0, 1.0, 201):
            assert not intersects(a, _moved(pose_a, t, float(f)), b, pose_b)
        return
    f = hit.fraction
    assert 0.0 <= f <= 1.0
    assert math.hypot(*hit.normal) == pytest.approx(1.0, abs=1e-12)
    if isinstance(a, Point) and isinstance(b, Point):  # they meet only exactly: up to rounding
        at = _moved(pose_a, t, f)
        assert math.hypot(at[0] - pose_b[0], at[1] - pose_b[1]) < 1e-12 * (1 + math.hypot(*t))
        return
    at = _moved(pose_a, t, f)
    nx, ny = hit.normal
    # Touching at the fraction (within rounding).
    assert _gap(a, at, b, pose_b) <= 1e-9
    if f == 0.0:
        start = contact(a, pose_a, b, pose_b)
        assert start is not None
        assert hit.normal == (-start.normal[0] + 0.0, -start.normal[1] + 0.0)
        return
    # Apart just before, unless A slides past B (the gap then closes to second order).
    length = math.hypot(*t)
    if f > 1e-9 and -(nx * t[0] + ny * t[1]) > 1e-3 * length:
        assert not intersects(a, _moved(pose_a, t, f - 1e-9), b, pose_b)
    # The normal points from B to A: A moved a little along it is apart.
    nudged = (at[0] + 1e-6 * hit.normal[0], at[1] + 1e-6 * hit.normal[1], at[2])
    assert not intersects(a, nudged, b, pose_b)
    # The point is on both shapes (within rounding).
    for shape, pose in ((a, at), (b, pose_b)):
        near = Circle(1e-6)
        assert intersects(near, hit.point, shape, pose)


@pytest.mark.parametrize("n", [150, pytest.param(3000, marks=pytest.mark.slow)])
@pytest.mark.parametrize("pair", ORDERED_PAIRS, ids=pair_ids)
def test_cast_lands_touching(pair: tuple[ShapeKind, ShapeKind], n: int) -> None:
    cases = _cases(*pair, n)
    hits = [shape_cast(*case) for case in cases]
    for case, hit in zip(cases, hits, strict=True):
        _check(case, hit)
    moving = [h for h in hits if h is not None and h.fraction > 0.0]
    assert len(moving) > n / 15
    assert sum(h is None for h in hits) > n / 15 or pair == (ShapeKind.POINT, ShapeKind.POINT)


@pytest.mark.parametrize("pair", ORDERED_PAIRS, ids=pair_ids)
def test_cast_is_symmetric_and_translation_invariant(pair: tuple[ShapeKind, ShapeKind]) -> None:
    for a, pose_a, t, b, pose_b in _cases(*pair, 60):
        hit = shape_cast(a, pose_a, t, b, pose_b)
        back = shape_cast(b, pose_b, (-t[0], -t[1]), a, pose_a)
        assert (hit is None) == (back is None)
        if hit is None or back is None:
            continue
        assert back.fraction == pytest.approx(hit.fraction, abs=1e-9)
        if pair == (ShapeKind.POINT, ShapeKind.POINT):
            continue  # points meet only exactly: moved, they may miss by a rounding
        if hit.fraction > 0.0:
            assert back.normal == pytest.approx((-hit.normal[0], -hit.normal[1]), abs=1e-6)
        shift = (1000.0, -500.0)
        far = shape_cast(a, _moved(pose_a, shift, 1.0), t, b, _moved(pose_b, shift, 1.0))
        assert far is not None
        assert far.fraction == pytest.approx(hit.fraction, abs=1e-9)
        assert far.normal == pytest.approx(hit.normal, abs=1e-6)


@pytest.mark.parametrize("pair", ORDERED_PAIRS, ids=pair_ids)
def test_batch_equals_scalar(pair: tuple[ShapeKind, ShapeKind]) -> None:
    cases = _cases(*pair, 60)
    a = pack([c[0] for c in cases], [c[1] for c in cases])
    b = pack([c[3] for c in cases], [c[4] for c in cases])
    batch = shape_cast_batch(a, [c[2] for c in cases], b)
    for i, case in enumerate(cases):
        hit = shape_cast(*case)
        assert batch.hit[i] == (hit is not None)
        if hit is not None:
            row = (batch.fraction[i], tuple(batch.point[i]), tuple(batch.normal[i]))
            assert row == hit


@pytest.mark.parametrize("kind_a", KINDS, ids=lambda k: k.name.lower())
@pytest.mark.parametrize("kind_b", KINDS, ids=lambda k: k.name.lower())
def test_lattice_casts_touch_exactly(kind_a: ShapeKind, kind_b: ShapeKind) -> None:
    rng = np.random.default_rng([3, int(kind_a), int(kind_b)])
    for _ in range(40):
        a, b = lattice_shape(kind_a, rng), lattice_shape(kind_b, rng)
        pose_a = (float(rng.integers(-12, -6)), float(rng.integers(-3, 4)), 0.0)
        pose_b = (0.0, 0.0, 90.0 * float(rng.integers(0, 4)))
        t = (float(rng.integers(8, 20)), float(rng.integers(-3, 4)))
        _check((a, pose_a, t, b, pose_b), shape_cast(a, pose_a, t, b, pose_b))


@pytest.mark.parametrize("offset", [2.0**30, 1e9])
@pytest.mark.parametrize("pair", ORDERED_PAIRS, ids=pair_ids)
def test_casts_far_from_the_origin(pair: tuple[ShapeKind, ShapeKind], offset: float) -> None:
    for a, pose_a, t, b, pose_b in _cases(*pair, 40):
        hit = shape_cast(a, pose_a, t, b, pose_b)
        far = shape_cast(a, _moved(pose_a, (offset, offset), 1.0), t,
                         b, _moved(pose_b, (offset, offset), 1.0))  # fmt: skip
        if pair == (ShapeKind.POINT, ShapeKind.POINT) or hit is None or hit.fraction < 1e-6:
            continue  # exact-only meetings, and grazes within the coordinates' rounding
        assert far is not None
        assert far.fraction == pytest.approx(hit.fraction, abs=1e-6)
        assert far.normal == pytest.approx(hit.normal, abs=1e-3)


def test_sliding_along_an_edge_line() -> None:
    # A slides along the line of B's top edge and meets B's corner.
    hit = shape_cast(Rect(2, 2), (0, 2), (10, 0), Rect(2, 2), (5, 0))
    assert hit == CastHit(0.3, (4.0, 1.0), (-1.0, 0.0))
    assert shape_cast(Rect(2, 2), (0, 2.001), (10, 0), Rect(2, 2), (5, 0)) is None
    # Touching from the start and sliding along B's top edge.
    hit = shape_cast(Rect(2, 2), (4, 2), (10, 0), Rect(2, 2), (5, 0))
    assert hit is not None and hit.fraction == 0.0 and hit.normal == (0.0, 1.0)


def test_overlapping_at_the_start() -> None:
    hit = shape_cast(Circle(1), (0, 0), (5, 0), Circle(1), (1.5, 0))
    assert hit == CastHit(0.0, (0.75, 0.0), (-1.0, 0.0))
    still = shape_cast(Circle(1), (0, 0), (0, 0), Circle(1), (1.5, 0))
    assert still == hit
    assert shape_cast(Circle(1), (0, 0), (0, 0), Circle(1), (3, 0)) is None
    moving_away = shape_cast(Point(), (0, 0), (-1, 0), Triangle((0, 0), (1, 0), (0, 1)), (0, 0))
    assert moving_away is not None and moving_away.fraction == 0.0


def test_points_meet_only_exactly() -> None:
    assert shape_cast(Point(), (0, 0), (4, 2), Point(), (2, 1)) == CastHit(
        0.5, (2.0, 1.0), (-0.8944271909999159, -0.4472135954999579)
    )
    assert shape_cast(Point(), (0, 0), (4, 2), Point(), (2, 1.001)) is None


def test_the_rounded_rectangle_ray_agrees_with_the_rounded_outline() -> None:
    """``ray_rounded_rect`` (a circle cast against a rectangle, in its frame) gives the
    general rounded outline's answers: hits, misses, grazes of the corner arcs and
    origins inside; a ray along a grown face (exact, dyadic numbers) touches it."""
    from arcade_collide.geometry.query.kernel_base import world_rows
    from arcade_collide.geometry.query.rays import outline_of, ray_rounded, ray_rounded_rect

    rng = np.random.default_rng(16)
    mismatches = []
    for k in range(400):
        grazing = k % 4 == 0
        if grazing:  # quarters and integers: the grown face's level is exact
            width, height, r = (float(v) / 4 for v in rng.integers(2, 80, 3))
            pose = (float(rng.integers(-5, 5)), float(rng.integers(-5, 5)), 0.0)
        else:
            width, height = (float(v) for v in rng.uniform(0.5, 20, 2))
            pose = (*(float(v) for v in rng.uniform(-5, 5, 2)), float(rng.choice([0, 30, -47])))
            r = float(rng.uniform(0.1, 4))
        rows = world_rows(pack([Rect(width, height)], [pose]))
        v, n, _, swap = outline_of(rows, 0)
        for _ in range(25):
            ox, oy = (float(c) for c in rng.uniform(-25, 25, 2))
            dx, dy = (float(c) for c in rng.uniform(-40, 40, 2))
            if grazing:
                dy = 0.0
                oy = pose[1] + (height / 2 + r) * float(rng.choice([-1, 1]))
                ox = pose[0] + float(rng.choice([-1, 1])) * 30.0
                dx = -60.0 if ox > pose[0] else 60.0
            general = ray_rounded(v, n, swap, r, ox, oy, dx, dy, 1.0)
            boxed = ray_rounded_rect(rows, 0, r, ox, oy, dx, dy, 1.0)
            if grazing:
                same = general[0] and boxed[0] and math.isclose(general[1], boxed[1])
            else:
                same = general[0] == boxed[0] and (
                    not general[0]
                    or (
                        math.isclose(general[1], boxed[1], rel_tol=1e-9, abs_tol=1e-12)
                        and math.isclose(general[2], boxed[2], abs_tol=1e-6)
                        and math.isclose(general[3], boxed[3], abs_tol=1e-6)
                    )
                )
            if not same:
                mismatches.append((width, height, pose, r, ox, oy, dx, dy, general, boxed))
    assert mismatches == []

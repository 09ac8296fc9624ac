"""The narrow phase over a world table: independent references, not copies.

``touching_rows`` is checked against shapely on mixed tables, ``contact_rows`` against
the public ``contact`` pair by pair (both orders of every pair of kinds in one
table, so the grouping by kind pair and the swapped entries are exercised), and
both against exact hand-computed values.
"""

from __future__ import annotations

import numpy as np
import pytest
from narrow_cases import (
    CANONICAL_PAIRS,
    KINDS,
    SCENES,
    oracle,
    pair_ids,
    paired_scene,
    random_poses,
    random_shapes,
    table_rows_for,
)

from arcade_collide.geometry.arrays import PointArrays, pack
from arcade_collide.geometry.bounding_circles import coordinate_slack, pose_circles
from arcade_collide.geometry.query.dispatch import contact, contact_batch, intersects_batch
from arcade_collide.geometry.query.rows import (
    PairFilter,
    PoseCircles,
    contact_rows,
    touching_rows,
    world_rows,
)
from arcade_collide.geometry.shapes import Circle, Point, Polygon, Rect, ShapeKind, Triangle


@pytest.mark.parametrize(("lattice", "offset"), SCENES)
@pytest.mark.parametrize("pair", CANONICAL_PAIRS, ids=pair_ids)
def test_touching_rows_agree_with_shapely(
    pair: tuple[ShapeKind, ShapeKind], lattice: bool, offset: float
) -> None:
    """Rows further than a rounding band from touching agree with shapely, in both orders."""
    n = 150
    sa, pa, sb, pb = paired_scene(pair, n, 7, lattice, offset)
    a, b = pack(sa, pa), pack(sb, pb)
    truth, near = oracle(a, b, 1e-9 * max(1.0, offset))
    i, j, rows, _ = table_rows_for(pair, a, b, n)
    for got in (touching_rows(i, j, rows), touching_rows(j, i, rows)):
        assert got[~near].tolist() == truth[~near].tolist()
        assert 0 < got.sum() < n, "the scene should have hits and misses"


def _mixed_table(
    n: int, seed: int
) -> tuple[list[object], list[tuple[float, float, float]], object]:
    """``n`` shapes of each kind in one table (kinds in order), and their poses."""
    rng = np.random.default_rng(seed)
    shapes: list[object] = []
    poses: list[tuple[float, float, float]] = []
    records = []
    for kind in KINDS:
        s, p = random_shapes(kind, n, rng), random_poses(n, rng)
        records.append(pack(s, p))
        shapes += s
        poses += p
    return shapes, poses, world_rows(*records)  # type: ignore[arg-type]


def test_a_mixed_table_answers_as_the_public_queries_pair_by_pair() -> None:
    """Pairs of every ordered kind pair, shuffled in one call: each answer is the one
    ``intersects``/``contact`` give for that pair alone (normals from ``i`` to ``j``)."""
    shapes, poses, rows = _mixed_table(12, 4)
    rng = np.random.default_rng(9)
    i = rng.integers(0, len(shapes), 2000)
    j = rng.integers(0, len(shapes), 2000)
    touching = touching_rows(i, j, rows)  # type: ignore[arg-type]
    hit, normal, depth, point = contact_rows(i, j, rows)  # type: ignore[arg-type]
    assert touching.tolist() == hit.tolist()
    assert 0 < hit.sum() < len(i)
    for p, (x, y) in enumerate(zip(i.tolist(), j.tolist(), strict=True)):
        expected = contact(shapes[x], poses[x], shapes[y], poses[y])  # type: ignore[arg-type]
        if expected is None:
            assert not hit[p] and not normal[p].any() and depth[p] == 0.0
            continue
        assert hit[p]
        assert tuple(normal[p].tolist()) == expected.normal
        assert depth[p] == expected.depth
        assert tuple(point[p].tolist()) == expected.point


def test_batch_queries_equal_the_table_pass() -> None:
    """``contact_batch`` of two records equals ``contact_rows`` on a table holding both."""
    for pair in CANONICAL_PAIRS:
        sa, pa, sb, pb = paired_scene(pair, 60, 2, False, 0.0)
        a, b = pack(sa, pa), pack(sb, pb)
        i, j, rows, _ = table_rows_for(pair, a, b, 60)
        for (x, y), batch in (((i, j), contact_batch(a, b)), ((j, i), contact_batch(b, a))):
            hit, normal, depth, point = contact_rows(x, y, rows)
            assert hit.tolist() == batch.hit.tolist()
            assert normal.tobytes() == batch.normal.tobytes()
            assert depth.tobytes() == batch.depth.tobytes()
            assert point.tobytes() == batch.point.tobytes()


def test_lattice_scenes_include_exact_touching() -> None:
    # A circle of radius 1 at (2, 0) touches a 2x2 square at the origin; one at (2.5, 0)
    # does not; one at (1.5, 0) overlaps.
    circles = pack([Circle(1.0)] * 3, [(2.0, 0.0), (2.5, 0.0), (1.5, 0.0)])
    rows = world_rows(circles, pack([Rect(2.0, 2.0)], [(0.0, 0.0)]))
    hit = touching_rows(np.array([0, 1, 2]), np.array([3, 3, 3]), rows)
    assert hit.tolist() == [True, False, True]


@pytest.mark.parametrize("pair", CANONICAL_PAIRS, ids=pair_ids)
def test_filter_and_pose_circles_change_no_answer(pair: tuple[ShapeKind, ShapeKind]) -> None:
    n = 200
    sa, pa, sb, pb = paired_scene(pair, n, 11, False, 0.0)
    a, b = pack(sa, pa), pack(sb, pb)
    expected = intersects_batch(a, b)
    i, j, rows, _ = table_rows_for(pair, a, b, n)
    radii = np.array([pose_circles(s) for s in sa + sb])
    origins = np.array([p[:2] for p in pa + pb])
    boxes = np.hstack([origins - radii[:, 1:], origins + radii[:, 1:]])
    columns = np.ascontiguousarray(np.hstack([origins, radii]).T)
    circles = PoseCircles(*columns, coordinate_slack(float(np.abs(boxes).max())))
    assert touching_rows(i, j, rows, circles=circles).tolist() == expected.tolist()
    rng = np.random.default_rng(5)
    layer = rng.integers(0, 4, 2 * n)
    mask = rng.integers(0, 4, 2 * n)
    passes = ((layer[i] & mask[j]) != 0) & ((layer[j] & mask[i]) != 0)
    got = touching_rows(i, j, rows, PairFilter(layer, mask), circles)
    assert got.tolist() == (expected & passes).tolist()
    assert passes.any() and not passes.all()


def test_empty_input() -> None:
    rows = world_rows(PointArrays(np.zeros((1, 2))))
    none = np.empty(0, dtype=np.int64)
    assert touching_rows(none, none, rows).shape == (0,)
    assert contact_rows(none, none, rows)[1].shape == (0, 2)


def test_a_hit_a_miss_and_a_touching_contact() -> None:
    circles = pack([Circle(1.0)] * 3, [(1.5, 0.0), (2.5, 0.0), (2.0, 0.0)])
    rows = world_rows(circles, pack([Rect(2.0, 2.0)], [(0.0, 0.0)]))
    hit, normal, depth, point = contact_rows(np.array([0, 1, 2]), np.array([3, 3, 3]), rows)
    assert hit.tolist() == [True, False, True]
    assert normal.tolist() == [[-1.0, 0.0], [0.0, 0.0], [-1.0, 0.0]]
    assert depth.tolist() == [0.5, 0.0, 0.0]
    assert point.tolist() == [[0.75, 0.0], [0.0, 0.0], [1.0, 0.0]]


@pytest.mark.parametrize("origin", [0.0, 1e3, 1e9])
@pytest.mark.parametrize("kind", [ShapeKind.TRIANGLE, ShapeKind.POLYGON])
def test_a_circle_near_a_sharp_corner_gets_the_same_contact_anywhere(
    origin: float, kind: ShapeKind
) -> None:
    """The tip of a 20-degree corner lies 0.21 right of a unit circle's centre: B leaves
    along +x by 0.79. A centre is taken as on the outline only within rounding of
    it, so far from the origin the corner is not mistaken for its nearest face."""
    h = np.radians(10.0)
    corner = [(0.0, 0.0), (10 * np.cos(h), 10 * np.sin(h)), (10 * np.cos(h), -10 * np.sin(h))]
    shape = Triangle(*corner) if kind == ShapeKind.TRIANGLE else Polygon(corner)
    centre, tip = (origin, origin), (origin + 0.21, origin)
    got = contact(Circle(1.0), centre, shape, tip)
    assert got is not None
    assert got.normal == pytest.approx((1.0, 0.0), abs=1e-6)
    assert got.depth == pytest.approx(0.79, abs=1e-6)
    circles, others = pack([Circle(1.0)], [centre]), pack([shape], [tip])
    batch = contact_batch(circles, others)
    i, j, rows, _ = table_rows_for((ShapeKind.CIRCLE, kind), circles, others, 1)
    hit, normal, depth, _ = contact_rows(i, j, rows)
    assert hit.tolist() == batch.hit.tolist() == [True]
    assert normal[0].tolist() == batch.normal[0].tolist() == list(got.normal)
    assert depth[0] == batch.depth[0] == got.depth


def _three_ways(a: object, pose_a: tuple[float, float], b: object,
                pose_b: tuple[float, float]) -> list[tuple[list[float], float]]:
    """(normal, depth) of one pair from contact(), contact_batch() and contact_rows()."""
    got = contact(a, pose_a, b, pose_b)  # type: ignore[arg-type]
    assert got is not None
    pa, pb = pack([a], [pose_a]), pack([b], [pose_b])  # type: ignore[list-item]
    batch = contact_batch(pa, pb)
    i, j, rows, _ = table_rows_for((a.kind, b.kind), pa, pb, 1)  # type: ignore[attr-defined]
    hit, normal, depth, _ = contact_rows(i, j, rows)
    assert bool(batch.hit[0]) and bool(hit[0])
    return [
        (list(got.normal), got.depth),
        (batch.normal[0].tolist(), float(batch.depth[0])),
        (normal[0].tolist(), float(depth[0])),
    ]


@pytest.mark.parametrize("size", [1e70, 1e80, 1e150])
@pytest.mark.parametrize("kind", ["rect", "polygon"])
def test_huge_outlines_take_the_shallowest_axis(size: float, kind: str) -> None:
    """Squared overlaps of shapes over ~1e77 overflow: every axis tied at infinity and the
    first one won, ten times too deep. The ranks stay finite up to the 1e154 span limit."""
    half = size / 2
    square = Polygon([(-half, -half), (half, -half), (half, half), (-half, half)])
    shape = Rect(size, size) if kind == "rect" else square
    for normal, depth in _three_ways(shape, (0.0, 0.0), square, (0.9 * size, 0.0)):
        assert normal == [1.0, 0.0]
        assert depth == pytest.approx(0.1 * size, rel=1e-12)


@pytest.mark.parametrize(
    ("a", "b", "angle", "normal", "depth"),
    [
        (Rect(1, 1), Rect(1e-11, 1.0), 0.0, [1.0, 0.0], 0.5),
        (Circle(1.0), Polygon([(0, 0), (1e-11, 0), (0, 1e-9)]), 0.0, [-1.0, 0.0], 1.0),
        (Triangle((0, 0), (1e-11, 0), (0, 3e-9)), Point(), 45.0, [-0.5**0.5, 0.5**0.5], 0.0),
    ],
)
def test_edges_rounded_to_zero_length_far_out_give_finite_contacts(
    a: object, b: object, angle: float, normal: list[float], depth: float
) -> None:
    """At (1e6, 1e6) a 1e-11 side rounds to nothing: such an edge is no axis and no face
    (it raised ZeroDivisionError, or gave NaN contacts in the batch kernels)."""
    at = (1e6, 1e6, angle)
    for got_normal, got_depth in _three_ways(a, at, b, at):
        assert got_normal == normal
        assert got_depth == depth

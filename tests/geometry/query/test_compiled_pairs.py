"""The compiled pass over candidate pairs gives the dispatch table's booleans.

Compiled where numba is installed, plain Python otherwise: either way the same source
must agree with ``intersects_batch`` row for row, including exact touching cases,
and its filter and pose-circle verdicts must not change any answer.
"""

from __future__ import annotations

import numpy as np
import pytest
from narrow_cases import CANONICAL_PAIRS, SCENES, pair_ids, paired_scene, table_rows_for

from arcade_collide.geometry.arrays import (
    PointArrays,
    pack,
)
from arcade_collide.geometry.bounding_circles import coordinate_slack, pose_circles
from arcade_collide.geometry.query.compiled_pairs import (
    PairFilter,
    PoseCircles,
    pair_order,
    touching_rows,
    world_rows,
)
from arcade_collide.geometry.query.dispatch import intersects_batch
from arcade_collide.geometry.shapes import Circle, Rect, ShapeKind


@pytest.mark.parametrize(("lattice", "offset"), SCENES)
@pytest.mark.parametrize("pair", CANONICAL_PAIRS, ids=pair_ids)
def test_exact_tests_equal_the_dispatch_table(
    pair: tuple[ShapeKind, ShapeKind], lattice: bool, offset: float
) -> None:
    n = 150
    sa, pa, sb, pb = paired_scene(pair, n, 7, lattice, offset)
    a, b = pack(sa, pa), pack(sb, pb)
    expected = intersects_batch(a, b)
    assert 0 < expected.sum() < n, "the scene should have hits and misses"
    i, j, rows, _ = table_rows_for(pair, a, b, n)
    assert touching_rows(i, j, rows).tolist() == expected.tolist()
    # Pairs given the other way round (kind order swapped inside) answer the same.
    assert touching_rows(j, i, rows).tolist() == expected.tolist()


def test_lattice_scenes_include_exact_touching() -> None:
    # A circle of radius 1 at (2, 0) touches a 2x2 square at the origin; one at (2.5, 0)
    # does not; one at (1.5, 0) overlaps.
    kinds = np.array([ShapeKind.CIRCLE] * 3 + [ShapeKind.RECT], dtype=np.int8)
    circles = pack([Circle(1.0)] * 3, [(2.0, 0.0), (2.5, 0.0), (1.5, 0.0)])
    rect = pack([Rect(2.0, 2.0)], [(0.0, 0.0)])
    rows = world_rows(kinds, {ShapeKind.CIRCLE: circles, ShapeKind.RECT: rect},
                      {ShapeKind.CIRCLE: 0, ShapeKind.RECT: 3})
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
    circles = PoseCircles(origins[:, 0], origins[:, 1], radii[:, 0], radii[:, 1],
                          coordinate_slack(boxes))
    assert touching_rows(i, j, rows, circles=circles).tolist() == expected.tolist()
    rng = np.random.default_rng(5)
    layer = rng.integers(0, 4, 2 * n)
    mask = rng.integers(0, 4, 2 * n)
    passes = ((layer[i] & mask[j]) != 0) & ((layer[j] & mask[i]) != 0)
    got = touching_rows(i, j, rows, PairFilter(layer, mask), circles)
    assert got.tolist() == (expected & passes).tolist()
    assert passes.any() and not passes.all()


def test_pair_order_sorts_by_lower_then_higher_rank() -> None:
    rng = np.random.default_rng(2)
    for _ in range(50):
        n = int(rng.integers(1, 40))
        m = int(rng.integers(0, 120))
        rank = rng.permutation(n)
        i, j = rng.integers(0, n, m), rng.integers(0, n, m)
        order = pair_order(i, j, rank)
        low, high = np.minimum(rank[i], rank[j]), np.maximum(rank[i], rank[j])
        assert sorted(order.tolist()) == list(range(m))
        expected = np.lexsort((high, low))
        assert low[order].tolist() == low[expected].tolist()
        assert high[order].tolist() == high[expected].tolist()


def test_empty_input() -> None:
    kinds = np.array([ShapeKind.POINT], dtype=np.int8)
    rows = world_rows(kinds, {ShapeKind.POINT: PointArrays(np.zeros((1, 2)))}, {ShapeKind.POINT: 0})
    none = np.empty(0, dtype=np.int64)
    assert touching_rows(none, none, rows).shape == (0,)
    assert pair_order(none, none, np.zeros(1, dtype=np.int64)).shape == (0,)

"""The grid broad phase reports exactly the pairs brute force reports."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.geometry.broad_phase import (
    MAX_BIG_BOXES,
    GridBroadPhase,
    overlapping_pairs,
    overlapping_pairs_brute_force,
)


def pair_set(i: np.ndarray, j: np.ndarray) -> set[tuple[int, int]]:
    assert len(i) == len(j)
    assert (i < j).all()
    pairs = set(zip(i.tolist(), j.tolist(), strict=True))
    assert len(pairs) == len(i), "a pair was reported twice"
    return pairs


def check(boxes: np.ndarray, cell_size: float | None = None) -> set[tuple[int, int]]:
    expected = pair_set(*overlapping_pairs_brute_force(boxes))
    assert pair_set(*overlapping_pairs(boxes, cell_size)) == expected
    return expected


def boxes_from(centres: np.ndarray, half: np.ndarray) -> np.ndarray:
    return np.column_stack([centres - half, centres + half])


coord = st.floats(-1000, 1000, allow_nan=False, allow_infinity=False)
size = st.floats(0, 300, allow_nan=False, allow_infinity=False)
box = st.tuples(coord, coord, size, size).map(lambda b: (b[0], b[1], b[0] + b[2], b[1] + b[3]))


@given(st.lists(box, min_size=0, max_size=60), st.none() | st.floats(0.5, 500))
@settings(max_examples=300, deadline=None)
def test_matches_brute_force(rows: list[tuple[float, ...]], cell: float | None) -> None:
    boxes = np.array(rows, dtype=np.float64).reshape(-1, 4)
    check(boxes, cell)


# Integer grid coordinates make exact touching (max == min) and duplicates common.
int_box = st.tuples(
    st.integers(-5, 5), st.integers(-5, 5), st.integers(0, 4), st.integers(0, 4)
).map(lambda b: (b[0], b[1], b[0] + b[2], b[1] + b[3]))


@given(st.lists(int_box, min_size=2, max_size=40), st.sampled_from([None, 1.0, 2.0, 3.0]))
@settings(max_examples=300, deadline=None)
def test_touching_and_duplicates_on_cell_borders(
    rows: list[tuple[int, ...]], cell: float | None
) -> None:
    check(np.array(rows, dtype=np.float64), cell)


def test_touching_boxes_count_in_both_axes_and_at_corners() -> None:
    boxes = np.array(
        [[0, 0, 1, 1], [1, 0, 2, 1], [0, 1, 1, 2], [1, 1, 2, 2], [2.0000001, 0, 3, 1]],
        dtype=np.float64,
    )
    pairs = check(boxes, 1.0)
    assert pairs == {(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)}


def test_identical_boxes_and_points() -> None:
    same = np.tile([[5.0, 5.0, 5.0, 5.0]], (7, 1))
    assert len(check(same)) == 21
    assert len(check(np.tile([[0.0, 0.0, 2.0, 2.0]], (5, 1)))) == 10


@pytest.mark.parametrize("seed", range(6))
def test_random_scenes_with_a_few_huge_boxes(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 800
    centres = rng.uniform(0, 900, (n, 2))
    half = rng.uniform(2, 10, (n, 2))
    boxes = boxes_from(centres, half)
    # A floor, a wall and a level-sized trigger: far larger than any cell.
    boxes[:3] = [[-50, -20, 950, 0], [0, 0, 15, 900], [-100, -100, 1000, 1000]]
    pairs = check(boxes)
    assert sum(1 for a, b in pairs if 2 in (a, b)) == n - 1  # the trigger meets everything
    assert len(pairs) > n


def test_many_big_boxes_choose_a_larger_cell() -> None:
    rng = np.random.default_rng(7)
    small = boxes_from(rng.uniform(0, 500, (300, 2)), rng.uniform(1, 3, (300, 2)))
    big = boxes_from(rng.uniform(0, 500, (4 * MAX_BIG_BOXES, 2)), np.full((32, 2), 120.0))
    check(np.vstack([small, big]))


def test_sparse_far_apart_clusters() -> None:
    rng = np.random.default_rng(3)
    a = boxes_from(rng.uniform(0, 100, (200, 2)), rng.uniform(1, 5, (200, 2)))
    b = boxes_from(rng.uniform(1e7, 1e7 + 100, (200, 2)), rng.uniform(1, 5, (200, 2)))
    check(np.vstack([a, b]))
    # Coordinates far beyond the cell range still pair correctly (cells are clipped).
    check(np.array([[1e300, 0, 1e300, 1], [1e300, 1, 1e300, 2], [-1e300, 0, -1e300, 0]]), 1.0)


def test_stateful_grid_matches_on_a_moving_scene() -> None:
    rng = np.random.default_rng(11)
    n = 1500
    centres = rng.uniform(0, np.sqrt(n) * 30, (n, 2))
    half = rng.uniform(5, 10, (n, 1)) * np.ones((1, 2))
    velocity = rng.uniform(-120, 120, (n, 2))
    grid = GridBroadPhase()
    for tick in range(40):
        boxes = boxes_from(centres, half)
        if tick == 20:
            boxes[5] = [-1e4, -1e4, 1e4, 1e4]  # something huge appears
        expected = pair_set(*overlapping_pairs(boxes))
        assert pair_set(*grid.pairs(boxes)) == expected
        if tick % 10 == 0:
            assert expected == pair_set(*overlapping_pairs_brute_force(boxes))
        centres += velocity / 60
    # Fewer boxes than before: the kept order is not reused blindly.
    boxes = boxes_from(centres[:100], half[:100])
    assert pair_set(*grid.pairs(boxes)) == pair_set(*overlapping_pairs_brute_force(boxes))


def test_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match=r"shape \(N, 4\)"):
        overlapping_pairs(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="finite"):
        overlapping_pairs(np.array([[0, 0, np.nan, 1.0]]))
    with pytest.raises(ValueError, match="min <= max"):
        overlapping_pairs(np.array([[0, 0, -1, 1.0]]))
    with pytest.raises(ValueError, match="cell_size"):
        overlapping_pairs(np.zeros((2, 4)), cell_size=0.0)


def test_cell_keys_stay_exact_on_a_huge_sparse_grid() -> None:
    # Cells span the whole clipped range (about 2**31 per axis): keys need 62 bits.
    rng = np.random.default_rng(5)
    far = rng.uniform(-2e9, 2e9, (40, 2))
    boxes = np.vstack(
        [
            boxes_from(far, np.full((40, 2), 0.6)),
            boxes_from(far + 1.0, np.full((40, 2), 0.6)),  # each touches its twin
        ]
    )
    pairs = check(boxes, 1.0)
    assert {(k, k + 40) for k in range(40)} <= pairs

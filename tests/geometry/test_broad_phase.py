"""The broad phase (the row sweep with its rows picked) reports exactly the brute-force pairs."""

from __future__ import annotations

import numpy as np
import pytest
from box_cases import EXTREME_BOXES, overlapping_pairs_brute_force, pair_set
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.geometry.broad_phase import (
    MIN_BIG_BOXES,
    SweepBroadPhase,
    overlapping_pairs,
)


def check(boxes: np.ndarray) -> set[tuple[int, int]]:
    expected = pair_set(*overlapping_pairs_brute_force(boxes))
    assert pair_set(*overlapping_pairs(boxes)) == expected
    return expected


def boxes_from(centres: np.ndarray, half: np.ndarray) -> np.ndarray:
    return np.column_stack([centres - half, centres + half])


coord = st.floats(-1000, 1000, allow_nan=False, allow_infinity=False)
size = st.floats(0, 300, allow_nan=False, allow_infinity=False)
box = st.tuples(coord, coord, size, size).map(lambda b: (b[0], b[1], b[0] + b[2], b[1] + b[3]))


@given(st.lists(box, min_size=0, max_size=60))
@settings(max_examples=300, deadline=None)
def test_matches_brute_force(rows: list[tuple[float, ...]]) -> None:
    boxes = np.array(rows, dtype=np.float64).reshape(-1, 4)
    check(boxes)


# Integer grid coordinates make exact touching (max == min) and duplicates common.
int_box = st.tuples(
    st.integers(-5, 5), st.integers(-5, 5), st.integers(0, 4), st.integers(0, 4)
).map(lambda b: (b[0], b[1], b[0] + b[2], b[1] + b[3]))


@given(st.lists(int_box, min_size=2, max_size=40))
@settings(max_examples=300, deadline=None)
def test_touching_and_duplicates_on_row_borders(rows: list[tuple[int, ...]]) -> None:
    check(np.array(rows, dtype=np.float64))


def test_touching_boxes_count_in_both_axes_and_at_corners() -> None:
    boxes = np.array(
        [[0, 0, 1, 1], [1, 0, 2, 1], [0, 1, 1, 2], [1, 1, 2, 2], [2.0000001, 0, 3, 1]],
        dtype=np.float64,
    )
    pairs = check(boxes)
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


def test_many_big_boxes_choose_taller_rows() -> None:
    rng = np.random.default_rng(7)
    small = boxes_from(rng.uniform(0, 500, (300, 2)), rng.uniform(1, 3, (300, 2)))
    count = 8 * MIN_BIG_BOXES
    big = boxes_from(rng.uniform(0, 500, (count, 2)), np.full((count, 2), 120.0))
    check(np.vstack([small, big]))


def test_sparse_far_apart_clusters() -> None:
    rng = np.random.default_rng(3)
    a = boxes_from(rng.uniform(0, 100, (200, 2)), rng.uniform(1, 5, (200, 2)))
    b = boxes_from(rng.uniform(1e7, 1e7 + 100, (200, 2)), rng.uniform(1, 5, (200, 2)))
    check(np.vstack([a, b]))
    # Coordinates far beyond the row range still pair correctly (rows are clipped).
    check(np.array([[1e300, 0, 1e300, 1], [1e300, 1, 1e300, 2], [-1e300, 0, -1e300, 0]]))
def test_kept_rows_and_order_match_on_a_moving_scene() -> None:
    rng = np.random.default_rng(11)
    n = 1500
    centres = rng.uniform(0, np.sqrt(n) * 30, (n, 2))
    half = rng.uniform(5, 10, (n, 1)) * np.ones((1, 2))
    velocity = rng.uniform(-120, 120, (n, 2))
    grid = SweepBroadPhase()
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


def test_boxes_outgrowing_the_rows_at_once_are_swept_with_new_rows() -> None:
    """Every shape grown threefold in one tick (or squares turning together from 0
    degrees): the rows are picked again within the call, not after a call that tested
    thousands of big boxes against each other; the pairs stay exact."""
    rng = np.random.default_rng(12)
    centres = rng.uniform(0, 1200, (1500, 2))
    grid = SweepBroadPhase()
    for half in (6.0, 6.0, 18.0, 18.0):
        boxes = boxes_from(centres, np.full((1500, 2), half))
        assert pair_set(*grid.pairs(boxes)) == pair_set(*overlapping_pairs(boxes))
        assert grid._rows is not None and grid._rows[0] >= 2 * half  # not dropped
    assert pair_set(*grid.pairs(boxes)) == pair_set(*overlapping_pairs_brute_force(boxes))


def test_a_few_dozen_walls_stay_big_in_a_large_scene() -> None:
    """A column of 4,000 small boxes beside six tall walls (one in 512 may stay big: 7):
    rows as tall as a wall would put the whole column in one row, swept as one x range."""
    column = boxes_from(np.column_stack([np.zeros(4000), np.arange(4000) * 9.0]),
                        np.full((4000, 2), 5.0))
    walls = np.array([[1000.0 + 50 * k, -1e5, 1010.0 + 50 * k, 1e5] for k in range(6)])
    boxes = np.vstack([column, walls])
    grid = SweepBroadPhase()
    assert pair_set(*grid.pairs(boxes)) == pair_set(*overlapping_pairs_brute_force(boxes))
    assert grid._rows is not None and grid._rows[0] < 20.0


def test_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match=r"shape \(N, 4\)"):
        overlapping_pairs(np.zeros((3, 3)))
    with pytest.raises(ValueError, match="finite"):
        overlapping_pairs(np.array([[0, 0, np.nan, 1.0]]))
    with pytest.raises(ValueError, match="min <= max"):
        overlapping_pairs(np.array([[0, 0, -1, 1.0]]))


moving_scene = st.tuples(
    st.integers(2, 120),  # boxes
    st.integers(0, 2**32 - 1),  # seed
    st.sampled_from([0.0, 0.5, 3.0]),  # speed per tick, in box sizes
    st.integers(0, 6 * MIN_BIG_BOXES),  # most big boxes at once
)


@given(scene=moving_scene)
@settings(max_examples=60, deadline=None)
def test_moving_scene_with_big_boxes_coming_and_going(
    scene: tuple[int, int, float, int]
) -> None:
    n, seed, speed, most_big = scene
    rng = np.random.default_rng(seed)
    side = np.sqrt(n) * 12
    centres = rng.uniform(0, side, (n, 2))
    half = rng.uniform(1, 5, (n, 2))
    velocity = rng.normal(0, speed * 3, (n, 2))
    grid = SweepBroadPhase()
    for _ in range(12):
        boxes = boxes_from(centres, half)
        # A changing set of boxes grows huge (tall, wide or both) for one tick.
        grow = rng.choice(n, size=min(n, int(rng.integers(0, most_big + 1))), replace=False)
        boxes[grow, 2:] += rng.uniform(0, 4, (len(grow), 2)) * side
        expected = pair_set(*overlapping_pairs_brute_force(boxes))
        assert pair_set(*grid.pairs(boxes)) == expected
        centres += velocity
        if rng.random() < 0.2:
            # Occasionally the count changes (entities created or deleted).
            keep = max(2, n - int(rng.integers(0, 3)))
            centres, half, velocity = centres[:keep], half[:keep], velocity[:keep]
            n = keep
def test_same_calls_give_the_same_arrays() -> None:
    rng = np.random.default_rng(4)
    scenes = [
        boxes_from(rng.uniform(0, 400, (500, 2)), rng.uniform(1, 8, (500, 2))) for _ in range(5)
    ]
    scenes[2][7] = [-1e3, -1e3, 1e3, 1e3]
    first, second = SweepBroadPhase(), SweepBroadPhase()
    for boxes in scenes:
        a, b = first.pairs(boxes), second.pairs(boxes.copy())
        assert a[0].tolist() == b[0].tolist() and a[1].tolist() == b[1].tolist()
        # The stateless function's order depends only on the input.
        c, d = overlapping_pairs(boxes), overlapping_pairs(boxes.copy())
        assert c[0].tolist() == d[0].tolist() and c[1].tolist() == d[1].tolist()
        assert pair_set(*a) == pair_set(*c)
def test_degenerate_scenes() -> None:
    # Boxes on one horizontal line (no area), zero-size boxes, and 0, 1 or 2 boxes.
    line = np.column_stack([np.arange(50.0), np.zeros(50), np.arange(50.0) + 1.5, np.zeros(50)])
    assert len(check(line)) == 49
    points = np.repeat(np.arange(30.0)[:, None] % 3, 4, axis=1)
    assert len(check(points)) == 3 * 45
    for count in (0, 1, 2):
        boxes = np.tile([[0.0, 0.0, 1.0, 1.0]], (count, 1))
        check(boxes)
        assert pair_set(*SweepBroadPhase().pairs(boxes)) == ({(0, 1)} if count == 2 else set())


def test_sizes_and_coordinates_at_the_ends_of_the_float_range() -> None:
    # Widths and row numbers overflow to infinity here; no warning, same pairs.
    boxes = EXTREME_BOXES
    assert len(check(boxes)) == 5 + 2  # the first box meets all; (1, 3), (3, 5)
    assert pair_set(*SweepBroadPhase().pairs(boxes)) == pair_set(
        *overlapping_pairs_brute_force(boxes)
    )
def test_non_contiguous_input() -> None:
    rng = np.random.default_rng(2)
    boxes = boxes_from(rng.uniform(0, 200, (300, 2)), rng.uniform(1, 9, (300, 2)))
    expected = pair_set(*overlapping_pairs_brute_force(boxes))
    assert pair_set(*overlapping_pairs(np.asfortranarray(boxes))) == expected
    assert pair_set(*SweepBroadPhase().pairs(np.asfortranarray(boxes))) == expected
    wide = np.hstack([boxes, boxes])[:, :4]  # a strided view
    assert pair_set(*SweepBroadPhase().pairs(wide)) == expected


def test_a_renumbered_order_keeps_the_old_order_then_lists_the_new_boxes() -> None:
    boxes = np.array([[4.0 * k, 0, 4 * k + 2, 2] for k in range(40)])
    broad = SweepBroadPhase()
    broad.pairs(boxes)
    old = broad._order.copy()  # type: ignore[union-attr]
    new_of_old = np.arange(40) + 2
    new_of_old[[3, 7]] = -1  # two gone, every other shifted by two: two new at 0 and 1
    broad.renumber(new_of_old, 42)
    kept = new_of_old[old]
    assert broad._order.tolist() == [*kept[kept >= 0].tolist(), 0, 1, 5, 9]  # type: ignore[union-attr]
    assert broad._fresh == 4


@pytest.mark.parametrize("seed", range(5))
def test_boxes_reused_in_place_give_the_brute_force_pairs(seed: int) -> None:
    """Boxes replaced by new ones at their numbers (:meth:`SweepBroadPhase.reuse`),
    tick after tick, while the others move a little."""
    rng = np.random.default_rng(seed)
    centres = rng.uniform(0, 400, (300, 2))
    half = rng.uniform(2, 12, (300, 2))
    broad = SweepBroadPhase()
    for tick in range(30):
        boxes = boxes_from(centres, half)
        assert pair_set(*broad.pairs(boxes)) == pair_set(*overlapping_pairs_brute_force(boxes))
        centres += rng.uniform(-1, 1, centres.shape)
        reused = np.sort(rng.choice(300, int(rng.integers(1, 12)), replace=False))
        centres[reused] = rng.uniform(0, 400, (len(reused), 2))
        half[reused] = rng.uniform(2, 12, (len(reused), 2))
        broad.reuse(reused)
        if tick % 7 == 0:
            broad.reuse(reused[:1])  # twice before a call: still each box once
    order = broad._order
    assert order is not None and sorted(order.tolist()) == list(range(300))

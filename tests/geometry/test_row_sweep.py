"""The row sweep against brute force: any row height, width limit and starting order."""

from __future__ import annotations

import numpy as np
from box_cases import EXTREME_BOXES, overlapping_pairs_brute_force, pair_set
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.geometry.row_sweep import sweep_pairs
from arcade_collide.geometry.work_arrays import WorkArrays


def scene(rng: np.random.Generator, n: int) -> np.ndarray:
    """Boxes on a coarse lattice (many exact touches), some of them huge."""
    digits = int(rng.integers(0, 3))
    xy = rng.uniform(-20, 20, (n, 2)).round(digits)
    wh = rng.uniform(0, 6, (n, 2)).round(digits)
    huge = rng.random(n) < 0.05
    wh[huge] *= rng.uniform(5, 50)
    return np.hstack([xy, xy + wh])


@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 80),
    row_height=st.floats(0.05, 100.0),
    wide=st.floats(0.0, 100.0),
)
@settings(max_examples=150, deadline=None)
def test_any_rows_width_limit_and_hint_give_the_brute_force_pairs(
    seed: int, n: int, row_height: float, wide: float
) -> None:
    rng = np.random.default_rng(seed)
    boxes = scene(rng, n)
    expected = pair_set(*overlapping_pairs_brute_force(boxes))
    work = WorkArrays()
    order = None
    for step in range(3):
        i, j, order, big = sweep_pairs(boxes, row_height, wide, order, work)
        assert pair_set(i, j) == expected
        assert sorted(order.tolist()) == list(range(n))
        assert 0 <= big <= n
        if step == 1:
            order = rng.permutation(n).astype(np.int64)  # any permutation is a valid hint


def test_touching_boxes_and_the_three_outcomes() -> None:
    boxes = np.array(
        [
            [0, 0, 2, 2],  # 0 touches 1 at x == 2
            [2, 0, 4, 2],
            [0, 2, 2, 4],  # 2 touches 0 at y == 2 and 1 at a corner
            [5, 5, 6, 6],  # 3 meets nothing
        ],
        dtype=float,
    )
    i, j, _, _ = sweep_pairs(boxes, 2.0, 2.0, None, WorkArrays())
    assert pair_set(i, j) == {(0, 1), (0, 2), (1, 2)}


def test_output_buffer_grows_when_every_box_meets_every_other() -> None:
    n = 60
    boxes = np.tile([[0.0, 0.0, 1.0, 1.0]], (n, 1))
    i, j, _, _ = sweep_pairs(boxes, 1.0, 1.0, None, WorkArrays())
    assert len(i) == n * (n - 1) // 2
    assert pair_set(i, j) == pair_set(*overlapping_pairs_brute_force(boxes))


def test_extreme_coordinates_and_sizes() -> None:
    boxes = EXTREME_BOXES
    expected = pair_set(*overlapping_pairs_brute_force(boxes))
    for row_height in (1e-300, 1e-3, 1.0, 1e300):
        for wide in (0.0, 1.0, np.inf):
            i, j, _, _ = sweep_pairs(boxes, row_height, wide, None, WorkArrays())
            assert pair_set(i, j) == expected


def test_a_large_moving_scene_with_its_kept_order() -> None:
    rng = np.random.default_rng(3)
    n = 5000
    centres = rng.uniform(0, np.sqrt(n) * 30, (n, 2))
    half = rng.uniform(5, 10, (n, 1)) * np.ones((1, 2))
    velocity = rng.uniform(-120, 120, (n, 2))
    work = WorkArrays()
    order = None
    for tick in range(20):
        boxes = np.hstack([centres - half, centres + half])
        i, j, order, big = sweep_pairs(boxes, 21.0, 21.0, order, work)
        if tick % 5 == 0:
            assert pair_set(i, j) == pair_set(*overlapping_pairs_brute_force(boxes))
        assert big == 0
        centres += velocity / 60


def test_too_many_big_boxes_give_up_before_sorting() -> None:
    rng = np.random.default_rng(4)
    centres = rng.uniform(0, 300, (100, 2))
    boxes = np.hstack([centres - 5.0, centres + 5.0])
    work = WorkArrays()
    _, _, order, big = sweep_pairs(boxes, 11.0, 11.0, None, work, max_big=3)
    assert big == 0
    kept = order.copy()
    grown = np.hstack([centres - 15.0, centres + 15.0])  # every box wider than 11
    assert sweep_pairs(grown, 11.0, 11.0, order, work, max_big=3) is None
    assert order.tolist() == kept.tolist()  # left as it was
    i, j, _, big = sweep_pairs(grown, 31.0, 31.0, order, work, max_big=3)
    assert big == 0
    assert pair_set(i, j) == pair_set(*overlapping_pairs_brute_force(grown))


@given(seed=st.integers(0, 2**32 - 1), n=st.integers(8, 400), share=st.floats(0.01, 0.25))
@settings(max_examples=150, deadline=None)
def test_new_boxes_merged_into_a_kept_order_sort_as_a_fresh_sort_does(
    seed: int, n: int, share: float
) -> None:
    """Boxes replaced at their numbers go to the end of the kept order as new ones; the
    sweep sorts them apart and merges them in: the order and pairs of a sort afresh."""
    rng = np.random.default_rng(seed)
    xy = rng.uniform(0, 500, (n, 2))  # distinct coordinates: no ties in the order
    boxes = np.hstack([xy, xy + rng.uniform(1, 9, (n, 2))])
    work = WorkArrays()
    _, _, order, _ = sweep_pairs(boxes, 10.0, 20.0, None, work)
    new = np.sort(rng.choice(n, max(1, int(share * n)), replace=False))
    xy = rng.uniform(0, 500, (len(new), 2))
    boxes[new] = np.hstack([xy, xy + rng.uniform(1, 9, (len(new), 2))])
    order = np.concatenate([order[~np.isin(order, new)], new])
    i, j, merged, _ = sweep_pairs(boxes, 10.0, 20.0, order, work, fresh=len(new))
    fi, fj, afresh, _ = sweep_pairs(boxes, 10.0, 20.0, None, WorkArrays())
    assert merged.tolist() == afresh.tolist()
    assert pair_set(i, j) == pair_set(fi, fj) == pair_set(*overlapping_pairs_brute_force(boxes))

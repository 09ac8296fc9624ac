"""LooseGrid: after any sequence of moves, its pairs equal a brute-force check."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.geometry.loose_grid import LooseGrid


def _brute_force(
    boxes: np.ndarray, queries: np.ndarray, static: np.ndarray
) -> set[tuple[int, int]]:
    found = set()
    for q in queries.tolist():
        for s in range(len(boxes)):
            if s == q or (static[q] and static[s]):
                continue
            a, b = boxes[q], boxes[s]
            if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                found.add((min(q, s), max(q, s)))
    return found


def _boxes(rng: np.random.Generator, n: int, spread: float) -> np.ndarray:
    low = rng.uniform(-spread, spread, (n, 2))
    size = rng.uniform(0.0, 12.0, (n, 2))
    # A few big boxes, spanning many cells.
    size[rng.random(n) < 0.05] *= 40.0
    return np.ascontiguousarray(np.column_stack([low, low + size]))


def _pairs_of(
    grid: LooseGrid,
    boxes: np.ndarray,
    picked: np.ndarray | list[int],
    static: np.ndarray | None = None,
) -> set[tuple[int, int]]:
    """Tell ``grid`` the ``picked`` boxes moved and return their pairs (each once)."""
    n = len(boxes)
    queries = np.array(picked, dtype=np.int64)
    grid.update(queries)
    moved = np.zeros(n, dtype=bool)
    moved[queries] = True
    i, j = grid.pairs(queries, moved, np.zeros(n, dtype=bool) if static is None else static)
    got = list(zip(i.tolist(), j.tolist(), strict=True))
    assert len(got) == len(set(got))  # each pair once
    return set(got)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31), n=st.integers(1, 120), spread=st.sampled_from([20.0, 300.0, 1e6])
)
def test_pairs_equal_brute_force_after_moves(seed: int, n: int, spread: float) -> None:
    rng = np.random.default_rng(seed)
    boxes = np.round(_boxes(rng, n, spread), 1)  # rounded: many boxes touch exactly
    static = rng.random(n) < 0.3
    grid = LooseGrid(boxes)
    for _ in range(6):
        picked = np.flatnonzero(rng.random(n) < 0.3).astype(np.int64)
        step = rng.normal(0.0, rng.choice([0.5, 5.0, 50.0]), (len(picked), 2))
        boxes[picked] += np.column_stack([step, step])
        assert _pairs_of(grid, boxes, picked, static) == _brute_force(boxes, picked, static)


def test_an_item_moved_within_its_fat_box_finds_a_newcomer() -> None:
    # Item 0 is queried (it keeps its partners), item 2 comes from far away next to it,
    # then item 0 moves a little, staying within its fat box: it must find item 2.
    boxes = np.array([[0, 0, 10, 10], [30, 0, 40, 10], [500, 500, 510, 510.0]])
    grid = LooseGrid(boxes)
    assert _pairs_of(grid, boxes, [0]) == set()
    boxes[2] = (10.8, 0, 20.8, 10)  # out of its fat box: put in again
    assert _pairs_of(grid, boxes, [2]) == set()
    boxes[0] += 1.0  # within its fat box (margin 2.5)
    assert _pairs_of(grid, boxes, [0]) == {(0, 2)}
    boxes[2] = (500, 500, 510, 510)  # and away again: 0 no longer finds it
    assert _pairs_of(grid, boxes, [2]) == set()
    boxes[0] -= 1.0
    assert _pairs_of(grid, boxes, [0]) == set()


def test_a_crowded_item_beyond_its_partner_row_still_finds_every_pair() -> None:
    # 40 boxes over one spot: more partners than a list holds.
    rng = np.random.default_rng(5)
    low = rng.uniform(0.0, 6.0, (40, 2))
    boxes = np.ascontiguousarray(np.column_stack([low, low + 4.0]))
    grid = LooseGrid(boxes)
    none = np.zeros(40, dtype=bool)
    for step in (0.2, 3.0, 0.2, 30.0, 0.2):
        picked = [0, 1, 17]
        boxes[picked] += step
        expected = _brute_force(boxes, np.array(picked), none)
        assert _pairs_of(grid, boxes, picked) == expected


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 160), spread=st.sampled_from([20.0, 300.0]))
def test_long_runs_of_small_moves_equal_brute_force(seed: int, n: int, spread: float) -> None:
    # Mostly moves within the fat boxes (the partner lists), now and then one out.
    rng = np.random.default_rng(seed)
    boxes = _boxes(rng, n, spread)
    static = rng.random(n) < 0.2
    grid = LooseGrid(boxes)
    velocity = rng.normal(0.0, 1.0, (n, 2))
    for _ in range(25):
        picked = np.flatnonzero(rng.random(n) < 0.15).astype(np.int64)
        step = velocity[picked] * rng.choice([0.3, 0.3, 0.3, 8.0])
        boxes[picked] += np.column_stack([step, step])
        assert _pairs_of(grid, boxes, picked, static) == _brute_force(boxes, picked, static)


def test_a_steady_mover_gets_a_fat_box_stretched_its_way_and_a_jump_no_huge_one() -> None:
    boxes = np.array([[0, 0, 10, 10], [100, 0, 110, 10.0]])
    grid = LooseGrid(boxes)  # margin 2.5: fat box of item 0 (-2.5, -2.5, 12.5, 12.5)
    boxes[0] += (3.0, 0.0, 3.0, 0.0)  # out of it to the right
    assert _pairs_of(grid, boxes, [0]) == set()
    left, _, right, _ = grid._fat[0]
    assert (3.0 - left, right - 13.0) == (2.5, 2.5 + 3.0)  # stretched right only
    boxes[1] = (5000, 5000, 5010, 5010)  # a jump far away
    assert _pairs_of(grid, boxes, [1]) == set()
    # Stretched by at most two margins (5) up and right, the way it jumped.
    assert grid._fat[1].tolist() == [4997.5, 4997.5, 5012.5 + 5.0, 5012.5 + 5.0]

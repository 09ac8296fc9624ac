"""LooseGrid: after any sequence of moves, its pairs equal a brute-force check."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.geometry.loose_grid import LooseGrid


def _brute_force(
    boxes: np.ndarray, queries: np.ndarray, moved: np.ndarray, static: np.ndarray
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
        grid.update(picked)
        moved = np.zeros(n, dtype=bool)
        moved[picked] = True
        i, j = grid.pairs(picked, moved, static)
        got = list(zip(i.tolist(), j.tolist(), strict=True))
        assert len(got) == len(set(got))  # each pair once
        assert set(got) == _brute_force(boxes, picked, moved, static)

"""StaticGrid: the same (query, box) pairs as brute force, whatever the boxes."""

from __future__ import annotations

import numpy as np
from box_cases import random_boxes
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.geometry.static_grid import BIG_CELLS, StaticGrid


def _brute(queries: np.ndarray, boxes: np.ndarray) -> list[tuple[int, int]]:
    return [
        (q, s)
        for q in range(len(queries))
        for s in range(len(boxes))
        if queries[q, 0] <= boxes[s, 2]
        and boxes[s, 0] <= queries[q, 2]
        and queries[q, 1] <= boxes[s, 3]
        and boxes[s, 1] <= queries[q, 3]
    ]


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(0, 60),
    st.integers(0, 30),
    st.sampled_from([0.0, 1.0, 10.0, 300.0]),
    st.booleans(),
)
def test_pairs_equal_brute_force(seed: int, n: int, m: int, size: float, lattice: bool) -> None:
    rng = np.random.default_rng(seed)
    boxes = random_boxes(rng, n, size, lattice)
    queries = random_boxes(rng, m, size / 2 + 1.0, lattice)
    q, s = StaticGrid(boxes).pairs(queries)
    assert sorted(zip(q.tolist(), s.tolist(), strict=True)) == _brute(queries, boxes)


def test_a_level_of_tiles_big_walls_and_far_coordinates() -> None:
    k = 40
    xs, ys = np.meshgrid(np.arange(k) * 32.0, np.arange(k) * 32.0)
    tiles = np.column_stack([xs.ravel(), ys.ravel(), xs.ravel() + 32, ys.ravel() + 32])
    wall = np.array([[-10.0, -10.0, 32.0 * k * 2, 0.0]])  # spans far more than BIG_CELLS cells
    far = np.array([[-1e300, 5.0, -1e299, 6.0]])
    boxes = np.vstack([tiles, wall, far])
    queries = np.array([[31.0, 31.0, 33.0, 33.0], [100.0, -5.0, 101.0, -1.0], [1e6, 1e6, 1e6, 1e6]])
    q, s = StaticGrid(boxes).pairs(queries)
    assert sorted(zip(q.tolist(), s.tolist(), strict=True)) == _brute(queries, boxes)
    assert len(q) == 5 and (32 * k * 2 + 10) / 32 > BIG_CELLS

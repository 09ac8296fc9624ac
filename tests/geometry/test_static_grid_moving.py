"""StaticGrid.moving_pairs: every box a moving box's hexagon meets, each once, and only
boxes its swept bounding box meets."""

from __future__ import annotations

import numpy as np
from box_cases import random_boxes
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.geometry.static_grid import StaticGrid


def _hexagon_meets(end: np.ndarray, shift: np.ndarray, box: np.ndarray) -> bool:
    """The exact test, by separating axes: x, y and the axis across the motion (the
    hexagon's edges lie along x, y and the motion; the box's along x and y)."""
    start = end - np.concatenate([shift, shift])
    hexagon = np.array(
        [[b[0], b[1]] for b in (end, start)]
        + [[b[2], b[1]] for b in (end, start)]
        + [[b[0], b[3]] for b in (end, start)]
        + [[b[2], b[3]] for b in (end, start)]
    )
    corners = np.array([[box[0], box[1]], [box[2], box[1]], [box[0], box[3]], [box[2], box[3]]])
    for axis in (np.array([1.0, 0.0]), np.array([0.0, 1.0]), np.array([-shift[1], shift[0]])):
        a, b = hexagon @ axis, corners @ axis
        if a.max() < b.min() or b.max() < a.min():
            return False
    return True


def _in_swept_box(end: np.ndarray, shift: np.ndarray, box: np.ndarray) -> bool:
    low = np.minimum(end[:2], end[:2] - shift)
    high = np.maximum(end[2:], end[2:] - shift)
    return bool(low[0] <= box[2] and box[0] <= high[0] and low[1] <= box[3] and box[1] <= high[1])


@settings(max_examples=300, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(0, 60),
    st.integers(0, 20),
    st.sampled_from([0.0, 1.0, 10.0, 300.0]),
    st.sampled_from([0.0, 5.0, 60.0, 400.0]),
    st.booleans(),
)
def test_moving_pairs_hold_every_pair_the_hexagon_meets_once(
    seed: int, n: int, m: int, size: float, reach: float, lattice: bool
) -> None:
    rng = np.random.default_rng(seed)
    boxes = random_boxes(rng, n, size, lattice)
    ends = random_boxes(rng, m, size / 2 + 1.0, lattice)
    shifts = rng.uniform(-reach, reach, (m, 2))
    if lattice:
        shifts = np.round(shifts)
    shifts[rng.random(m) < 0.2, rng.integers(0, 2)] = 0.0  # along an axis, or still
    q, s = StaticGrid(boxes).moving_pairs(ends, shifts)
    found = list(zip(q.tolist(), s.tolist(), strict=True))
    assert len(found) == len(set(found))
    for k in range(m):
        for b in range(n):
            if _hexagon_meets(ends[k], shifts[k], boxes[b]):
                assert (k, b) in found, (k, b)
    for k, b in found:
        assert _in_swept_box(ends[k], shifts[k], boxes[b])


def test_a_long_diagonal_motion_meets_the_tiles_along_it_only() -> None:
    k = 40
    xs, ys = np.meshgrid(np.arange(k) * 32.0, np.arange(k) * 32.0)
    tiles = np.column_stack([xs.ravel(), ys.ravel(), xs.ravel() + 30, ys.ravel() + 30])
    end, shift = np.array([[1000.0, 1000.0, 1001.0, 1001.0]]), np.array([[990.0, 990.0]])
    _, s = StaticGrid(tiles).moving_pairs(end, shift)
    met = sorted(s.tolist())
    on_path = [t for t in range(len(tiles)) if _hexagon_meets(end[0], shift[0], tiles[t])]
    assert met == on_path
    assert len(met) < 3 * k  # the diagonal's tiles, not the 31 x 31 of its box

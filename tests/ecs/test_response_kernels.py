"""The response's compiled passes against brute force."""

from __future__ import annotations

import numpy as np
import pytest

from arcade_collide.ecs.response_kernels import boxes_meeting


def _brute(queries: np.ndarray, boxes: np.ndarray) -> list[tuple[int, int]]:
    return [
        (q, s)
        for q in range(len(queries))
        for s in range(len(boxes))
        if queries[q, 0] <= boxes[s, 2] and boxes[s, 0] <= queries[q, 2]
        and queries[q, 1] <= boxes[s, 3] and boxes[s, 1] <= queries[q, 3]
    ]  # fmt: skip


@pytest.mark.parametrize("spread", [(400.0, 40.0), (40.0, 400.0), (400.0, 400.0)])
@pytest.mark.parametrize("seed", range(5))
def test_boxes_meeting_equals_brute_force_in_order(spread: tuple[float, float], seed: int) -> None:
    rng = np.random.default_rng(seed)
    low = rng.uniform(0.0, 1.0, (150, 2)) * spread
    boxes = np.column_stack((low, low + rng.uniform(0.0, 30.0, (150, 2))))
    low = rng.uniform(0.0, 1.0, (120, 2)) * spread
    queries = np.column_stack((low, low + rng.uniform(0.0, 30.0, (120, 2))))
    queries[:10] = boxes[:10]  # boxes meeting themselves, flush on every side
    q, s = boxes_meeting(queries, boxes)
    found = list(zip(q.tolist(), s.tolist(), strict=True))
    assert found == _brute(queries, boxes)
    assert len(found) > 10  # hits beyond the ten boxes that are their own queries


def test_boxes_meeting_finds_touching_edges_and_corners_and_no_others() -> None:
    boxes = np.array([[0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 2.0, 2.0], [3.0, 0.0, 4.0, 1.0]])
    queries = np.array([[1.0, 0.0, 2.0, 1.0], [2.0 + 1e-9, 0.0, 3.0 - 1e-9, 1.0]])
    q, s = boxes_meeting(queries, boxes)
    assert list(zip(q.tolist(), s.tolist(), strict=True)) == [(0, 0), (0, 1)]


def test_boxes_meeting_with_no_boxes_or_no_queries() -> None:
    none = np.empty((0, 4))
    some = np.array([[0.0, 0.0, 1.0, 1.0]])
    for queries, boxes in ((none, some), (some, none), (none, none)):
        q, s = boxes_meeting(queries, boxes)
        assert len(q) == len(s) == 0


@pytest.mark.parametrize("seed", range(3))
def test_boxes_meeting_on_floors_and_columns_equals_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    # Bodies standing on rows of floors, some in columns of equal x, a few far away.
    x = np.repeat(rng.uniform(0.0, 2000.0, 20), 10) + rng.choice([0.0, 5.0], 200)
    y = np.tile(np.arange(10) * 256.0, 20) + rng.choice([0.0, 0.5, 40.0], 200)
    boxes = np.column_stack((x, y, x + 24.0, y + 40.0))
    boxes[:3] = [[-1e12, -1e12, -1e12 + 5, -1e12 + 5], [1e12, 3.0, 1e12 + 1, 4.0], [5, 5, 5, 5]]
    queries = boxes + rng.uniform(-3.0, 3.0, (200, 1)) * np.array([1.0, 1.0, -1.0, -1.0])
    queries = np.column_stack(
        (np.minimum(queries[:, :2], boxes[:, :2]), np.maximum(queries[:, 2:], boxes[:, 2:]))
    )
    q, s = boxes_meeting(queries, boxes)
    found = list(zip(q.tolist(), s.tolist(), strict=True))
    assert found == _brute(queries, boxes)
    assert len(found) > len(boxes)  # each box meets itself, and some meet others

"""The response's compiled passes against brute force."""

from __future__ import annotations

import numpy as np
import pytest

from arcade_collide.ecs.response_kernels import boxes_meeting, candidate_pairs, pairs_to_measure
from arcade_collide.ecs.response_roster import BODY, NOT_BLOCKING, ONE_WAY, SOLID


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


@pytest.mark.parametrize("seed", range(4))
def test_candidate_pairs_keep_what_may_block_grouped_by_body(seed: int) -> None:
    rng = np.random.default_rng(seed)
    count, bodies = 40, 8
    rows = np.sort(rng.choice(count, bodies, replace=False)).astype(np.int64)
    body_of = np.full(count, -1, dtype=np.int64)
    body_of[rows] = np.arange(bodies)
    code = rng.choice([NOT_BLOCKING, SOLID, ONE_WAY], count).astype(np.int8)
    code[rows] = BODY
    layer = rng.choice([1, 2, 3], count).astype(np.int64)
    blocked_by = rng.choice([1, 2, 3], bodies).astype(np.int64)
    sensor = rng.random(count) < 0.1
    static_rows = np.sort(rng.choice(np.setdiff1d(np.arange(count), rows), 20, replace=False))
    moving_rows = np.union1d(rows, np.setdiff1d(np.arange(count), static_rows)[:3])
    static_q = np.sort(rng.integers(0, bodies, 30))
    static_s = rng.integers(0, len(static_rows), 30)
    moving_q = np.repeat(np.arange(bodies), 3)
    moving_s = np.sort(rng.integers(0, len(moving_rows), (bodies, 3)), axis=1).ravel()
    body, other, other_body, share = candidate_pairs(
        static_q, static_s, static_rows, moving_q, moving_s, moving_rows, rows, body_of,
        code, blocked_by, layer, sensor,
    )  # fmt: skip
    expected = []
    for k in range(bodies):
        met = [static_rows[s] for q, s in zip(static_q, static_s, strict=True) if q == k]
        met += [moving_rows[s] for q, s in zip(moving_q, moving_s, strict=True) if q == k]
        for o in met:
            row = rows[k]
            if code[o] == NOT_BLOCKING or o == row or not blocked_by[k] & layer[o]:
                continue
            if sensor[row] or sensor[o]:
                continue
            their = body_of[o]
            mutual = their >= 0 and blocked_by[their] & layer[row]
            expected.append((k, int(o), int(their), 0.5 if mutual else 1.0))
    found = zip(body.tolist(), other.tolist(), other_body.tolist(), share.tolist(), strict=True)
    assert list(found) == expected
    assert len(expected) > 5  # some kept, some left out
    assert len(expected) < len(static_q) + len(moving_q)


def test_pairs_to_measure_takes_moved_bodies_pairs_whose_boxes_meet() -> None:
    boxes = np.array([[0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 2.0, 1.0], [5.0, 5.0, 6.0, 6.0],
                      [0.5, 0.5, 1.5, 1.5]])  # fmt: skip
    body = np.array([0, 0, 1, 1])
    other_body = np.array([-1, -1, -1, 0])
    body_row = np.array([0, 0, 3, 3])
    other = np.array([1, 2, 2, 0])
    hit = np.ones(4, dtype=np.bool_)
    # Body 0 moved: its two pairs, and body 1's pair against it; body 1's other pair stands.
    which = pairs_to_measure(np.array([True, False]), body, other_body, body_row, other, boxes, hit)
    assert which.tolist() == [0, 3]
    assert hit.tolist() == [True, False, True, True]  # the pair apart cannot touch

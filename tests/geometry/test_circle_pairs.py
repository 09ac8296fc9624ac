"""Every meeting pair of two small sets of circles, against the grid's circle query."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.geometry.circle_pairs import widened_circle_pairs
from arcade_collide.geometry.static_grid import StaticGrid

ALLOWANCE = 1e-9

coordinate = st.floats(-200.0, 200.0, allow_nan=False)
circle = st.tuples(coordinate, coordinate, st.floats(0.0, 40.0))


def _pairs(
    at: np.ndarray, own: np.ndarray, centres: np.ndarray, radii: np.ndarray
) -> list[tuple[int, int]] | int:
    largest = float(radii.max(initial=0.0))
    room = len(at) * len(centres)
    out_q, out_s = np.empty(room, np.int64), np.empty(room, np.int64)
    found = widened_circle_pairs(at, own, ALLOWANCE, largest, centres, radii, out_q, out_s)
    if found < 0:
        return found
    return list(zip(out_q[:found].tolist(), out_s[:found].tolist(), strict=True))


def _arrays(circles: list[tuple[float, float, float]]) -> tuple[np.ndarray, np.ndarray]:
    table = np.array(circles, dtype=np.float64).reshape(-1, 3)
    return np.ascontiguousarray(table[:, 0:2]), np.ascontiguousarray(table[:, 2])


@settings(max_examples=200, deadline=None)
@given(st.lists(circle, max_size=12), st.lists(circle, max_size=12))
def test_the_pairs_are_the_grid_querys_for_the_widened_circles(
    asked: list[tuple[float, float, float]], members: list[tuple[float, float, float]]
) -> None:
    at, own = _arrays(asked)
    centres, radii = _arrays(members)
    pairs = _pairs(at, own, centres, radii)
    assert isinstance(pairs, list)
    assert pairs == sorted(pairs)  # ascending asked circle, then member
    if not len(at) or not len(centres):
        assert pairs == []
        return
    largest = float(radii.max())
    reach = (own * (1.0 + 2.0 * ALLOWANCE) + ALLOWANCE * (1.0 + 2.0 * largest)
             + 2.0 * ALLOWANCE * np.abs(at).sum(axis=1))  # fmt: skip
    grid = StaticGrid(np.column_stack((centres - radii[:, None], centres + radii[:, None])))
    q, s = grid.circle_pairs(at, reach, centres, radii)
    assert pairs == sorted(zip(q.tolist(), s.tolist(), strict=True))


def test_a_hit_a_touch_and_a_miss() -> None:
    at, own = np.array([[0.0, 0.0], [10.0, 0.0], [5.0, 9.0]]), np.ones(3)
    centres, radii = np.array([[1.5, 0.0], [12.0, 0.0]]), np.ones(2)
    assert _pairs(at, own, centres, radii) == [(0, 0), (1, 1)]


def test_circles_apart_by_less_than_the_allowance_meet() -> None:
    centres, radii = np.array([[0.0, 0.0]]), np.ones(1)
    own = np.ones(1)
    assert _pairs(np.array([[2.0 + 1e-9, 0.0]]), own, centres, radii) == [(0, 0)]
    assert _pairs(np.array([[2.0 + 1e-6, 0.0]]), own, centres, radii) == []


def test_a_position_that_is_not_finite_proves_nothing() -> None:
    centres, radii = np.array([[0.0, 0.0]]), np.ones(1)
    for bad in (np.nan, np.inf, -np.inf):
        at = np.array([[0.0, 0.0], [bad, 0.0]])
        assert _pairs(at, np.ones(2), centres, radii) == -1
        assert _pairs(at[::-1].copy(), np.ones(2), np.empty((0, 2)), np.empty(0)) == -1

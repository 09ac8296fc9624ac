"""merge_cells: the rectangles cover exactly the set cells, never overlap, and are
fewer than the cells wherever two cells of a row touch."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.geometry.tile_merge import CellRect, merge_cells


def _cover(rects: list[CellRect], shape: tuple[int, int]) -> np.ndarray:
    """How many rectangles cover each cell."""
    count = np.zeros(shape, dtype=np.int64)
    for r in rects:
        assert r.columns >= 1 and r.rows >= 1
        count[r.row : r.row + r.rows, r.column : r.column + r.columns] += 1
    return count


def _check(grid: np.ndarray) -> list[CellRect]:
    rects = merge_cells(grid)
    count = _cover(rects, grid.shape)
    assert count.max(initial=0) <= 1, "rectangles overlap"
    assert np.array_equal(count == 1, grid), "union differs from the set cells"
    return rects


grids = st.integers(1, 24).flatmap(
    lambda rows: st.integers(1, 24).flatmap(
        lambda columns: st.lists(
            st.lists(st.booleans(), min_size=columns, max_size=columns),
            min_size=rows, max_size=rows,
        )
    )
)


@given(grids)
@settings(max_examples=300, deadline=None)
def test_union_is_the_cells_without_overlap(rows: list[list[bool]]) -> None:
    grid = np.array(rows, dtype=bool)
    rects = _check(grid)
    assert len(rects) <= int(grid.sum())
    if (grid[:, 1:] & grid[:, :-1]).any():
        assert len(rects) < int(grid.sum())


@st.composite
def platformer_levels(draw: st.DrawFn) -> np.ndarray:
    """A floor, walls and floating platforms: what a platformer level looks like."""
    rows, columns = draw(st.integers(4, 40)), draw(st.integers(8, 80))
    grid = np.zeros((rows, columns), dtype=bool)
    grid[: draw(st.integers(1, 3)), :] = True
    grid[:, 0] = grid[:, -1] = True
    for _ in range(draw(st.integers(0, 12))):
        row = draw(st.integers(0, rows - 1))
        start = draw(st.integers(0, columns - 1))
        grid[row, start : start + draw(st.integers(1, 10))] = True
    return grid


@given(platformer_levels())
@settings(max_examples=200, deadline=None)
def test_typical_levels_need_far_fewer_shapes(grid: np.ndarray) -> None:
    rects = _check(grid)
    assert len(rects) < int(grid.sum())
    # The floor is one rectangle: nothing for a sliding body to catch on.
    assert any(r.row == 0 and r.column == 0 and r.columns == grid.shape[1] for r in rects)


def test_a_solid_block_is_one_rectangle() -> None:
    assert merge_cells(np.ones((5, 7), dtype=bool)) == [CellRect(0, 0, 7, 5)]


def test_rows_apart_are_not_stacked() -> None:
    grid = np.array([[1, 1], [0, 0], [1, 1]], dtype=bool)
    assert merge_cells(grid) == [CellRect(0, 0, 2, 1), CellRect(0, 2, 2, 1)]


def test_hundred_thousand_cells() -> None:
    rng = np.random.default_rng(17)
    grid = rng.random((250, 400)) < 0.5
    grid[:3] = True
    _check(grid)


@pytest.mark.parametrize(
    ("grid", "error", "message"),
    [
        ([[0.5, 1.0]], TypeError, "grid must be an array of booleans (or 0 and 1), got float64"),
        ([1, 0, 1], ValueError, "grid must be two-dimensional, got 1 dimensions"),
        ([[1, 2]], TypeError, "grid must be an array of booleans (or 0 and 1), got int64"),
    ],
)
def test_bad_grids(grid: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        merge_cells(grid)
    assert str(raised.value) == message

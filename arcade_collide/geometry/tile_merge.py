"""Cells of a grid merged into rectangles: a tile map's solid tiles as few shapes.

A level of square tiles holds thousands of cells that a body could catch on the
inner edges of. :func:`merge_cells` covers the set cells of a boolean grid with
rectangles that never overlap: first each row's horizontal runs (so a floor is one
rectangle without inner edges along its top), then runs of equal span in
consecutive rows are stacked into one (a wall, a block of ground). The union of the
rectangles is exactly the set of cells; shapes that only touch share a side.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class CellRect(NamedTuple):
    """A rectangle of cells: ``grid[row:row + rows, column:column + columns]``.

    >>> CellRect(2, 0, 3, 1).cells
    3
    """

    column: int
    """The first column it covers."""
    row: int
    """The first row it covers."""
    columns: int
    """How many columns it spans (at least 1)."""
    rows: int
    """How many rows it spans (at least 1)."""

    @property
    def cells(self) -> int:
        """How many cells it covers."""
        return self.columns * self.rows


def merge_cells(grid: object) -> list[CellRect]:
    """Cover the set cells of ``grid`` exactly with non-overlapping rectangles.

    Each row's runs of set cells are found, then a run whose span (first and last
    column) equals a run of the row before joins that run's rectangle. The
    rectangles come in the order of their first row, then their first column.

    Args:
        grid: A 2-D array-like of booleans, ``grid[row][column]``.

    Returns:
        The rectangles; empty when no cell is set.

    Raises:
        TypeError: ``grid`` is not an array of booleans.
        ValueError: ``grid`` is not two-dimensional.

    A hit (an L: the bottom row is one run, the column above it a stack):

    >>> merge_cells([[1, 1, 1], [1, 0, 0], [1, 0, 0]])
    [CellRect(column=0, row=0, columns=3, rows=1), CellRect(column=0, row=1, columns=1, rows=2)]

    A miss (no cell set):

    >>> merge_cells([[0, 0], [0, 0]])
    []

    Touching runs of unequal span stay two rectangles sharing a side:

    >>> merge_cells([[True, True], [False, True]])
    [CellRect(column=0, row=0, columns=2, rows=1), CellRect(column=1, row=1, columns=1, rows=1)]
    """
    cells = _bool_grid(grid)
    rows, columns = cells.shape
    padded = np.zeros((rows, columns + 2), dtype=np.int8)
    padded[:, 1:-1] = cells
    steps = np.diff(padded, axis=1)
    # Row-major order: the k-th start and the k-th end belong to the same run.
    start_rows, starts = np.nonzero(steps == 1)
    ends = np.nonzero(steps == -1)[1]
    merged: list[list[int]] = []
    open_runs: dict[tuple[int, int], int] = {}
    """The rectangles that reach the row before, by the span of their last run."""
    reaching: dict[tuple[int, int], int] = {}
    current_row = -1
    for row, start, end in zip(start_rows.tolist(), starts.tolist(), ends.tolist(), strict=True):
        if row != current_row:
            open_runs = reaching if row == current_row + 1 else {}
            reaching = {}
            current_row = row
        span = (start, end)
        index = open_runs.get(span)
        if index is None:
            index = len(merged)
            merged.append([start, row, end - start, 1])
        else:
            merged[index][3] += 1
        reaching[span] = index
    return [CellRect(*rect) for rect in merged]


def _bool_grid(grid: object) -> np.ndarray:
    """``grid`` as a 2-D numpy bool array, or a clear error naming it."""
    try:
        cells = np.asarray(grid)
    except ValueError as error:  # ragged rows
        raise ValueError(f"grid must be a 2-D array of booleans: {error}") from None
    if cells.dtype != np.bool_:
        if cells.dtype.kind not in "iu" or not np.isin(cells, (0, 1)).all():
            raise TypeError(f"grid must be an array of booleans (or 0 and 1), got {cells.dtype}")
        cells = cells.astype(np.bool_)
    if cells.ndim != 2:
        raise ValueError(f"grid must be two-dimensional, got {cells.ndim} dimensions")
    return cells

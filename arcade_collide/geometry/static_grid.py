"""Broad phase against boxes that rarely move: a uniform grid built once, queried often.

:class:`StaticGrid` bins ``S`` boxes (a level's tiles and walls) into square cells about
as large as a typical box, in compressed rows: the boxes of each cell are one
contiguous run of an index array. A query box visits the cells it overlaps and tests
the boxes listed there; a pair found in several shared cells is reported once, in the
cell holding the lower-left corner of the two boxes' overlap. Boxes spanning many
cells are kept apart and tested against every query. Building costs ``O(S)``; a query
costs what lies under the query box, whatever the size of the level (Ericson,
*Real-Time Collision Detection*, 7.1; Box2D keeps its static bodies in a tree of their
own for the same reason).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.broad_phase import boxes_overlap
from arcade_collide.geometry.compiled import kernel, prefetch

Int64Array = NDArray[np.int64]

BIG_CELLS = 64
"""Boxes overlapping more cells than this are tested against every query instead."""

_NO_SHIFTS = np.empty((0, 2))


@kernel("int64(float64, int64)", inline=True)
def _index(v: float, n: int) -> int:
    """``floor(v)`` clamped to ``0 .. n - 1`` (NaN to 0)."""
    f = math.floor(v)
    if not f >= 0.0:
        return 0
    return n - 1 if f >= n - 1 else int(f)


@kernel("UniTuple(int64, 4)(float64[::1], float64[::1], float64, int64, int64)", inline=True)
def _cells(
    box: FloatArray, grid: FloatArray, inv: float, nx: int, ny: int
) -> tuple[int, int, int, int]:
    """The first and last cell column and row a box overlaps, clamped to the grid."""
    return (
        _index((box[0] - grid[0]) * inv, nx),
        _index((box[1] - grid[1]) * inv, ny),
        _index((box[2] - grid[0]) * inv, nx),
        _index((box[3] - grid[1]) * inv, ny),
    )


@kernel(
    "Tuple((int64[::1], int64[::1], float64[:, ::1], int64[::1]))"
    "(float64[:, ::1], float64[::1], int64, int64)"
)
def _build(
    boxes: FloatArray, grid: FloatArray, nx: int, ny: int
) -> tuple[Int64Array, Int64Array, FloatArray, Int64Array]:
    """``(starts, items, item_boxes, big)``: cell ``k``'s boxes are
    ``items[starts[k]:starts[k + 1]]`` (``k = row * nx + column``), ``item_boxes`` their
    boxes in the same order; ``big`` lists the boxes kept apart."""
    inv = 1.0 / grid[2]
    counts = np.zeros(nx * ny + 1, dtype=np.int64)
    nbig = 0
    for s in range(len(boxes)):
        x0, y0, x1, y1 = _cells(boxes[s], grid, inv, nx, ny)
        if (x1 - x0 + 1) * (y1 - y0 + 1) > BIG_CELLS:
            nbig += 1
            continue
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                counts[y * nx + x + 1] += 1
    for k in range(1, len(counts)):
        counts[k] += counts[k - 1]
    items = np.empty(counts[-1], dtype=np.int64)
    item_boxes = np.empty((counts[-1], 4))
    big = np.empty(nbig, dtype=np.int64)
    fill = counts[:-1].copy()
    nbig = 0
    for s in range(len(boxes)):
        x0, y0, x1, y1 = _cells(boxes[s], grid, inv, nx, ny)
        if (x1 - x0 + 1) * (y1 - y0 + 1) > BIG_CELLS:
            big[nbig] = s
            nbig += 1
            continue
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                k = fill[y * nx + x]
                items[k] = s
                item_boxes[k] = boxes[s]
                fill[y * nx + x] += 1
    return counts, items, item_boxes, big


_NEAR = 1e-9
"""Relative widening of a moving box's test on the axis across its motion, far above
the rounding of its few operations: a pair is never lost to rounding (a candidate too
many costs one exact test later)."""


@kernel("boolean(float64[::1], float64, float64, float64[::1])", inline=True)
def _meets_moving(end: FloatArray, tx: float, ty: float, other: FloatArray) -> bool:
    """Whether box ``end`` moved back along ``(tx, ty)`` meets box ``other`` on the axis
    across the motion, ``(-ty, tx)``: the third separating axis of the hexagon it sweeps
    and a box, beside x and y. Both ends of the motion project alike there."""
    nx = -ty
    ny = tx
    centre = nx * (end[0] + end[2]) + ny * (end[1] + end[3])
    extent = abs(nx) * (end[2] - end[0]) + abs(ny) * (end[3] - end[1])
    other_centre = nx * (other[0] + other[2]) + ny * (other[1] + other[3])
    other_extent = abs(nx) * (other[2] - other[0]) + abs(ny) * (other[3] - other[1])
    # Doubled centres and extents: |c1 - c2| <= e1 + e2 holds for both or neither.
    room = extent + other_extent
    slack = _NEAR * (abs(centre) + abs(other_centre) + room)
    return bool(abs(centre - other_centre) <= room + slack)


@kernel(
    "int64(float64[:, ::1], float64[:, ::1], boolean, float64[:, ::1], float64[::1], int64, int64,"
    " int64[::1], int64[::1], float64[:, ::1], int64[::1], int64[::1], int64[::1])"
)
def _query(
    queries: FloatArray,
    shifts: FloatArray,
    moving: bool,
    boxes: FloatArray,
    grid: FloatArray,
    nx: int,
    ny: int,
    starts: Int64Array,
    items: Int64Array,
    item_boxes: FloatArray,
    big: Int64Array,
    out_q: Int64Array,
    out_s: Int64Array,
) -> int:
    """Write the overlapping (query, box) pairs into ``out_q``/``out_s`` while they have
    room; return how many there are.

    A query is bound by its cache misses, so it runs in three passes: each query's
    cells; where each row of them starts and ends in ``items`` (a row's cells are
    consecutive, so one run of entries each), read for every query before any is
    scanned, so the processor waits on many of those reads at once rather than one
    after the other, and the first and last box of each run prefetched; then the runs,
    whose boxes ``item_boxes`` holds next to each other (``boxes`` only for those in
    ``big``).

    When ``moving``, query ``q`` is box ``queries[q]`` swept there from
    ``queries[q] - shifts[q]``: the cells under the motion's bounding box are visited
    (visiting only those along the motion saves no cache misses, as a row's cells lie
    side by side), and a box found there is also tested on the axis across the motion."""
    inv = 1.0 / grid[2]
    extent = np.array([grid[0], grid[1], grid[3], grid[4]])
    n = len(queries)
    swept = np.empty((n, 4))
    cells = np.empty((n, 4), dtype=np.int64)
    rows = 0
    for q in range(n):
        end = queries[q]
        box = swept[q]
        box[:] = end
        if moving:
            box[0] = min(end[0], end[0] - shifts[q, 0])
            box[1] = min(end[1], end[1] - shifts[q, 1])
            box[2] = max(end[2], end[2] - shifts[q, 0])
            box[3] = max(end[3], end[3] - shifts[q, 1])
        x0, y0, x1, y1 = _cells(box, grid, inv, nx, ny)
        if not boxes_overlap(box, extent):
            y0, y1 = 1, 0  # no row
        cells[q, 0] = x0
        cells[q, 1] = y0
        cells[q, 2] = x1
        cells[q, 3] = y1
        rows += y1 - y0 + 1
    first = np.empty(rows, dtype=np.int64)
    last = np.empty(rows, dtype=np.int64)
    r = 0
    for q in range(n):
        for y in range(cells[q, 1], cells[q, 3] + 1):
            first[r] = starts[y * nx + cells[q, 0]]
            last[r] = starts[y * nx + cells[q, 2] + 1]
            r += 1
    for r in range(rows):
        if first[r] < last[r]:
            prefetch(item_boxes, first[r])
            prefetch(item_boxes, last[r] - 1)
    tx = ty = 0.0
    m = 0
    room = len(out_q)
    r = 0
    for q in range(n):
        end = queries[q]
        box = swept[q]
        if moving:
            tx = shifts[q, 0]
            ty = shifts[q, 1]
        x0 = cells[q, 0]
        y0 = cells[q, 1]
        for y in range(y0, cells[q, 3] + 1):
            for k in range(first[r], last[r]):
                other = item_boxes[k]
                if not boxes_overlap(box, other):
                    continue
                # Report the pair only in the cell of its overlap's lower-left corner: the
                # entry of that column of this row.
                sx, sy, _, _ = _cells(other, grid, inv, nx, ny)
                column = y * nx + max(sx, x0)
                if max(sy, y0) != y or not starts[column] <= k < starts[column + 1]:
                    continue
                if moving and not _meets_moving(end, tx, ty, other):
                    continue
                if m < room:
                    out_q[m] = q
                    out_s[m] = items[k]
                m += 1
            r += 1
        for s in big:
            if boxes_overlap(box, boxes[s]) and not (
                moving and not _meets_moving(end, tx, ty, boxes[s])
            ):
                if m < room:
                    out_q[m] = q
                    out_s[m] = s
                m += 1
    return m


@kernel(
    "int64(float64[:, :], float64[::1], float64[:, ::1], float64[::1], float64[:, ::1],"
    " float64[::1], int64, int64, int64[::1], int64[::1], float64[:, ::1], int64[::1],"
    " int64[::1], int64[::1])"
)
def _circle_query(
    at: FloatArray,
    reach: FloatArray,
    centres: FloatArray,
    radii: FloatArray,
    boxes: FloatArray,
    grid: FloatArray,
    nx: int,
    ny: int,
    starts: Int64Array,
    items: Int64Array,
    item_boxes: FloatArray,
    big: Int64Array,
    out_q: Int64Array,
    out_s: Int64Array,
) -> int:
    """:func:`_query` for the boxes of circles ``at[q, 0:2]``, radii ``reach[q]``, keeping
    the pairs whose circles meet circle ``s`` (``centres[s]``, ``radii[s]``). Returns how
    many pairs were kept, or, when ``out_q`` had too little room for the box pairs, how
    many box pairs there are (more than its length)."""
    n = len(reach)
    queries = np.empty((n, 4))
    for q in range(n):
        queries[q, 0] = at[q, 0] - reach[q]
        queries[q, 1] = at[q, 1] - reach[q]
        queries[q, 2] = at[q, 0] + reach[q]
        queries[q, 3] = at[q, 1] + reach[q]
    m = _query(
        queries, np.empty((0, 2)), False, boxes, grid, nx, ny, starts, items, item_boxes, big,
        out_q, out_s,
    )  # fmt: skip
    if m > len(out_q):
        return m
    kept = 0
    for k in range(m):
        q = out_q[k]
        s = out_s[k]
        dx = centres[s, 0] - at[q, 0]
        dy = centres[s, 1] - at[q, 1]
        limit = radii[s] + reach[q]
        if dx * dx + dy * dy <= limit * limit:
            out_q[kept] = q
            out_s[kept] = s
            kept += 1
    return kept


class GridCells(NamedTuple):
    """A :class:`StaticGrid`'s layout: cell ``(column, row)`` spans
    ``[x0 + column * size, x0 + (column + 1) * size)`` by the same in y, its boxes are
    ``items[starts[k]:starts[k + 1]]`` (``k = row * nx + column``), and the boxes
    in ``big`` are in no cell (a box lies in every cell its closed extent meets)."""

    grid: FloatArray
    """``(x0, y0, size, max_x, max_y)``: the lower-left corner, the cell size and the
    upper-right corner of the boxes."""
    nx: int
    ny: int
    starts: Int64Array
    items: Int64Array
    big: Int64Array


class StaticGrid:
    """Fixed boxes binned for repeated overlap queries (see the module docstring).

    Args:
        boxes: ``(S, 4)`` C-contiguous float64 rows ``(min_x, min_y, max_x, max_y)``,
            finite, ``min <= max``. They are copied.

    >>> grid = StaticGrid(np.array([[0, 0, 2, 2], [2, 0, 4, 2], [9, 9, 10, 10.0]]))
    >>> q, s = grid.pairs(np.array([[1.5, 1, 3, 1.5], [5, 5, 6, 6], [4, 2, 5, 3.0]]))
    >>> list(zip(q.tolist(), s.tolist()))  # a hit on two boxes, a miss, a corner touch
    [(0, 0), (0, 1), (2, 1)]
    """

    def __init__(self, boxes: FloatArray) -> None:
        self.boxes = np.array(boxes, dtype=np.float64, order="C").reshape(-1, 4)
        n = len(self.boxes)
        if n:
            low = self.boxes[:, :2].min(axis=0)
            high = self.boxes[:, 2:].max(axis=0)
            sizes = self.boxes[:, 2:] - self.boxes[:, :2]
            cell = float(np.median(sizes.max(axis=1)))
        else:
            low = high = np.zeros(2)
            cell = 1.0
        with np.errstate(over="ignore"):
            span = float(max(high[0] - low[0], high[1] - low[1]))
        # About one box per cell, and at most about 4 cells per box however sparse the
        # level: at most about sqrt(4 S) cells along each side.
        cell = max(cell, span / math.sqrt(4.0 * n + 1.0))
        if not (cell > 0.0 and math.isfinite(span)):
            cell = math.inf if span > 0.0 else 1.0  # one cell
        self._nx = 1 if math.isinf(cell) else int((high[0] - low[0]) / cell) + 1
        self._ny = 1 if math.isinf(cell) else int((high[1] - low[1]) / cell) + 1
        self._grid = np.array([low[0], low[1], cell, high[0], high[1]])
        built = _build(self.boxes, self._grid, self._nx, self._ny)
        self._starts, self._items, self._item_boxes, self._big = built
        self._room = 64

    @property
    def cells(self) -> GridCells:
        """The grid's layout and binned boxes, for walks over its cells
        (:mod:`~arcade_collide.geometry.grid_ray`)."""
        return GridCells(self._grid, self._nx, self._ny, self._starts, self._items, self._big)

    def pairs(self, queries: FloatArray) -> tuple[Int64Array, Int64Array]:
        """Index pairs ``(q, s)``: query box ``queries[q]`` overlaps or touches box ``s``."""
        queries = np.ascontiguousarray(queries, dtype=np.float64).reshape(-1, 4)
        return self._collect(_query, queries, _NO_SHIFTS, False)

    def circle_pairs(
        self, at: FloatArray, reach: FloatArray, centres: FloatArray, radii: FloatArray
    ) -> tuple[Int64Array, Int64Array]:
        """Index pairs ``(q, s)``: the circle about ``at[q, 0:2]`` of radius ``reach[q]``
        overlaps or touches circle ``s``, about ``centres[s]`` of radius ``radii[s]``,
        for a grid of those circles' boxes (or of boxes holding them). One compiled
        pass: the query circles' boxes, the grid query, then the distance test.

        >>> centres, radii = np.array([[0.0, 0.0], [10.0, 0.0]]), np.array([1.0, 1.0])
        >>> grid = StaticGrid(np.column_stack((centres - 1.0, centres + 1.0)))
        >>> at = np.array([[0.5, 0.5], [12.0, 0.0], [5.0, 5.0], [1.8, 1.8]])
        >>> q, s = grid.circle_pairs(at, np.ones(4), centres, radii)
        >>> list(zip(q.tolist(), s.tolist()))  # a hit, a touch; a miss; boxes meet, circles not
        [(0, 0), (1, 1)]
        """
        reach = np.ascontiguousarray(reach, dtype=np.float64)
        centres = np.ascontiguousarray(centres, dtype=np.float64)
        radii = np.ascontiguousarray(radii, dtype=np.float64)
        return self._collect(_circle_query, at, reach, centres, radii)

    def moving_pairs(self, ends: FloatArray, shifts: FloatArray) -> tuple[Int64Array, Int64Array]:
        """Index pairs ``(q, s)``: box ``ends[q]``, moved to where it is from
        ``ends[q] - shifts[q]`` along a straight line, met box ``s`` on the way (the
        hexagon it swept overlaps or touches box ``s``; a pair the exact test would call
        apart by a relative 1e-9 may be among them).

        >>> grid = StaticGrid(np.array([[0, 10, 2, 12], [10, 10, 12, 12], [20, 0, 22, 2.0]]))
        >>> ends = np.array([[20, 20, 21, 21.0], [30, 30, 31, 31.0]])
        >>> q, s = grid.moving_pairs(ends, np.array([[20, 20.0], [10, 10.0]]))
        >>> list(zip(q.tolist(), s.tolist()))  # over box 1, beside boxes 0 and 2; a miss
        [(0, 1)]
        >>> q, s = grid.moving_pairs(np.array([[8, 10, 10, 12.0]]), np.array([[8, 0.0]]))
        >>> s.tolist()  # from box 0 to touching box 1
        [0, 1]
        """
        ends = np.ascontiguousarray(ends, dtype=np.float64).reshape(-1, 4)
        shifts = np.ascontiguousarray(shifts, dtype=np.float64).reshape(-1, 2)
        return self._collect(_query, ends, shifts, True)

    def _collect(self, query: Any, *leading: Any) -> tuple[Int64Array, Int64Array]:
        """The pairs ``query(*leading, <the grid's arrays>, out_q, out_s)`` writes, into
        output arrays of the room the last call needed (again, larger, while it
        needs more)."""
        binned = (self.boxes, self._grid, self._nx, self._ny, self._starts, self._items,
                  self._item_boxes, self._big)  # fmt: skip
        while True:
            out_q = np.empty(self._room, dtype=np.int64)
            out_s = np.empty(self._room, dtype=np.int64)
            m = query(*leading, *binned, out_q, out_s)
            if m <= self._room:
                return out_q[:m], out_s[:m]
            self._room = 2 * m

"""Broad phase: every pair of axis-aligned boxes that overlap, found with a grid of rows
swept in x.

:func:`overlapping_pairs` takes ``N`` boxes as an ``(N, 4)`` array of rows
``(min_x, min_y, max_x, max_y)`` and returns the index pairs ``i < j`` whose boxes
overlap. Boxes are closed sets, like every shape here: boxes that only touch
(``a.max_x == b.min_x``) do overlap. The result is exact: it is the same set of
pairs the all-pairs test reports (the tests check this against brute force).

How it works (a uniform grid, Ericson, *Real-Time Collision Detection*, 7.1, whose
cells are swept in x within each row, as in sweep-and-prune, 7.5):

* The plane is cut into rows of height ``h`` at least as tall as nearly every box, and
  each row into columns of width ``q`` (``h / q`` a power of two, ``q`` about as wide
  as a box or narrower). A box is stored once, under the row and column of its
  minimum corner; the boxes are sorted by (row, column), so each row is a run of
  boxes ordered by column.
* A box spans at most two rows, so two overlapping boxes sit in the same row or in
  neighbouring rows. Box ``a`` is paired with (1) the boxes after it in its own row
  whose column is at most the column of ``a.max_x``, and (2) the boxes in the row
  above whose column lies between ``col(a.min_x) - reach`` and ``col(a.max_x)``, where
  ``reach`` bounds the column span of every box. Both are contiguous ranges of the
  sorted order, read from a table of cumulative counts per cell. If ``a`` and ``b``
  overlap, ``b.min_x <= a.max_x`` and ``b.max_x >= a.min_x``; column indices are
  ``floor(x / q)``, a monotonic function (also in floating point, and after clipping
  far-away coordinates), so ``b`` lies in those ranges; each pair is visited from its
  lower row, or within a row from the box that sorts first, hence once.
* Boxes spanning more than two rows or more than ``reach`` columns ("big" boxes: a
  level's floor, a wall, a huge trigger zone) are sorted to the end. A grid box can
  meet a big box only if it starts between the row below the big box and the big
  box's last row, again a contiguous range of the sorted order; big boxes are tested
  against those ranges and against each other. The row height and ``reach`` are picked
  so that at most a few boxes are big.
* Every candidate is then checked with the exact closed overlap test.

:class:`GridBroadPhase` keeps its grid and last call's sort order (over all boxes,
big ones included) between calls, so the sort runs on nearly sorted keys.

Compared with the previous grid (square cells as large as a box, each box paired with
its own cell and four neighbour cells), the ranges offer 1.4 candidates per box
instead of 2.2 in the circle benchmark scene (0.49 overlapping pairs per box) and 2.1
instead of 3.6 in the mixed one (0.57 pairs per box), with fewer array passes.
Measured with the boxes of the benchmark scenes (20,000 circles of radius 5-10 px, or
10,000 mixed circles, rotated rectangles, triangles and hexagons of 10-20 px, spread
over a square of side ``sqrt(N) * 30`` px), the previous grid run alternately in the
same process on a shared 2-core machine, ms per :meth:`GridBroadPhase.pairs` call
at 20,000 circles / 10,000 mixed shapes:

* boxes of 80 recorded ticks, replayed (best of 6 replays, median over the calls):
  1.1 / 0.71 (previous grid: 1.9 / 1.2);
* the same boxes again and again (likewise): 1.0 / 0.63 (previous: 1.8 / 1.1);
* inside real ticks (median of 6 runs of 100 ticks): 1.6 / 1.0 (previous: 2.5 / 1.6).

Inside real ticks, where the boxes and work arrays are no longer in the processor
cache, the whole tick got about 1.0 ms (20,000 circles) and 0.7 ms (10,000 mixed)
faster.

A vectorised sweep-and-prune along x alone keeps every box whose x range overlaps as a
candidate, about ``sqrt(N)`` per box: 60-90 ms at 20,000 circles
(``benchmarks/bench_world.py --broad-phase``).

This module never imports esper or arcade.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry import compiled
from arcade_collide.geometry.arrays import BoolArray, FloatArray, IntArray
from arcade_collide.geometry.row_sweep import sweep_pairs
from arcade_collide.geometry.work_arrays import WorkArrays

_Index = NDArray[np.signedinteger[Any]]
"""Index arrays of either width (keys are int32 when the cell table is small)."""

MAX_BIG_BOXES = 8
"""How many boxes may be left out of the grid ("big" boxes, tested on their own) before
it is picked again; the row sweep allows twice :func:`_swept_allowance`, more in large
scenes."""

# Cell coordinates are clipped to this range so that they fit int32 with room for the
# differences taken below, and keys fit int64; clipping is monotonic, so the range
# argument above still holds (far-away boxes merely share cells: more candidates,
# never a wrong answer).
_CELL_LIMIT = float(2**29)
# Columns are made narrow enough for about this many cells per box: measured on the
# benchmark scenes, 6 and 8 gave the fastest calls (4 and 12 up to 10 % slower).
_CELLS_PER_BOX = 8.0
# Past this many cells per box the count table is replaced by binary searches.
_DENSE_CELLS_PER_BOX = 16
_MAX_ROW_SHIFT = 6


class _Grid(NamedTuple):
    """The grid geometry: rows ``2**shift`` columns tall, columns ``step`` wide."""

    step: float
    """Column width; the row height is ``step * 2**shift``."""
    shift: int
    """``row = floor(y / step) >> shift``."""
    reach: int
    """Largest column span ``col(max_x) - col(min_x)`` of a box kept in the grid."""


def overlapping_pairs(
    aabbs: FloatArray, cell_size: float | None = None
) -> tuple[IntArray, IntArray]:
    """Index pairs ``(i, j)``, ``i < j``, of the boxes that overlap or touch.

    Args:
        aabbs: ``(N, 4)`` float array of rows ``(min_x, min_y, max_x, max_y)``, finite,
            with ``min <= max``.
        cell_size: Grid row height and column width; by default picked from the box
            sizes and the area they cover. Any positive value gives the same pairs,
            only the speed changes.

    Returns:
        Two int arrays ``i`` and ``j`` of equal length, ``i < j`` row by row, each pair
        once, in an order that depends only on the input.

    Raises:
        ValueError: ``aabbs`` has the wrong shape, a NaN or infinite value, a box with
            ``min > max``, or ``cell_size`` is not a positive finite number.

    >>> boxes = np.array([[0, 0, 2, 2], [2, 0, 4, 2], [5, 5, 6, 6]], dtype=float)
    >>> i, j = overlapping_pairs(boxes)      # boxes 0 and 1 touch at x == 2
    >>> i.tolist(), j.tolist()
    ([0], [1])
    >>> i, j = overlapping_pairs(boxes[1:])  # a miss
    >>> i.tolist(), j.tolist()
    ([], [])
    """
    boxes = np.ascontiguousarray(aabbs, dtype=np.float64)
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(f"aabbs must have shape (N, 4), got {boxes.shape}")
    if not np.isfinite(boxes).all():
        raise ValueError("aabbs must be finite (found NaN or infinity)")
    if (boxes[:, 2:] < boxes[:, :2]).any():
        raise ValueError("aabbs must have min <= max in every row")
    if cell_size is not None and not (np.isfinite(cell_size) and cell_size > 0.0):
        raise ValueError(f"cell_size must be a positive finite number, got {cell_size!r}")
    if len(boxes) < 2:
        return _empty()
    i, j, _, _ = _overlapping_pairs(boxes, _choose_grid(boxes, cell_size))
    return i, j


class GridBroadPhase:
    """:func:`overlapping_pairs` with memory between calls, for a scene that moves a little
    each tick.

    It keeps the grid while it stays suitable and last call's sort order, so the sort
    by cell runs on nearly sorted keys (the order covers all boxes, big ones included,
    so it stays valid when boxes become big or stop being big). The pairs returned are
    exactly those of :func:`overlapping_pairs` (the same set; the order may differ),
    and the same sequence of calls gives the same results. Inputs are not validated
    here: the caller passes finite boxes with ``min <= max``.

    Where the compiled kernels are in use (:mod:`~arcade_collide.geometry.compiled`),
    the pairs come from the compiled row sweep
    (:func:`~arcade_collide.geometry.row_sweep.sweep_pairs`) instead of the numpy grid:
    the same set of pairs.

    Args:
        compiled_sweep: Use the row sweep (True) or the numpy grid (False); by default
            the sweep where the compiled kernels are enabled. Uncompiled, the sweep is
            plain Python: fine for tests, slow for games.

    (Fat boxes, which let a tick reuse the previous candidates until some box leaves
    its enlarged box, were measured too: median ticks got faster but every few ticks a
    rebuild on the enlarged boxes cost four times a plain tick at 20,000 shapes, a
    frame-time spike a game would see. A steady cost per tick was preferred.)

    >>> grid = GridBroadPhase()
    >>> i, j = grid.pairs(np.array([[0, 0, 2, 2], [1, 1, 3, 3.0]]))
    >>> i.tolist(), j.tolist()
    ([0], [1])
    """

    def __init__(self, compiled_sweep: bool | None = None) -> None:
        self._order: IntArray | None = None
        self._grid: _Grid | None = None
        self._rows: tuple[float, float] | None = None
        self._calls = 0
        self._count = 0
        self._scratch = WorkArrays()
        self.sweeps = compiled.ENABLED if compiled_sweep is None else compiled_sweep
        """Whether the row sweep is used rather than the numpy grid."""

    def pairs(self, aabbs: FloatArray) -> tuple[IntArray, IntArray]:
        """Overlapping pairs ``i < j`` of ``aabbs`` (see :func:`overlapping_pairs`)."""
        boxes = np.ascontiguousarray(aabbs, dtype=np.float64)
        if len(boxes) < 2:
            self._order = None
            return _empty()
        self._calls += 1
        if self.sweeps:
            return self._swept(boxes)
        # Re-pick the grid every so often (the scene may spread or shrink) and when the
        # count changes, but keep the old column width while it is close to the new
        # pick: another width changes every key, and the kept order would be useless.
        if self._grid is None or self._calls % 64 == 0 or len(boxes) != self._count:
            self._grid = _choose_grid(boxes, previous=self._grid)
            self._count = len(boxes)
        i, j, self._order, big = _overlapping_pairs(boxes, self._grid, self._order, self._scratch)
        if big > MAX_BIG_BOXES:
            self._grid = None
        return i, j


    def _swept(self, boxes: FloatArray) -> tuple[IntArray, IntArray]:
        limit = 2 * _swept_allowance(len(boxes))
        most = limit
        if self._rows is None or self._calls % 64 == 0 or len(boxes) != self._count:
            self._rows = _choose_rows(boxes)
            self._count = len(boxes)
            limit = -1  # just picked for these boxes
        found = sweep_pairs(boxes, *self._rows, self._order, self._scratch, limit)
        if found is None:
            # Boxes outgrew the rows at once (shapes turning together from a flat
            # angle, a whole scene rescaled): pick again before sweeping, rather than
            # test hundreds of big boxes against every row they span.
            self._rows = _choose_rows(boxes)
            found = sweep_pairs(boxes, *self._rows, self._order, self._scratch)
            assert found is not None
        i, j, self._order, big = found
        if big > most:
            self._rows = None
        return i, j


def overlapping_pairs_brute_force(aabbs: FloatArray) -> tuple[IntArray, IntArray]:
    """Reference all-pairs version of :func:`overlapping_pairs` (``O(N^2)`` memory), sorted.

    >>> i, j = overlapping_pairs_brute_force(np.array([[0, 0, 1, 1], [1, 1, 2, 2.0]]))
    >>> i.tolist(), j.tolist()
    ([0], [1])
    """
    b = np.asarray(aabbs, dtype=np.float64)
    hit = (
        (b[:, None, 0] <= b[None, :, 2])
        & (b[None, :, 0] <= b[:, None, 2])
        & (b[:, None, 1] <= b[None, :, 3])
        & (b[None, :, 1] <= b[:, None, 3])
    )
    i, j = np.nonzero(np.triu(hit, k=1))
    return i.astype(np.intp), j.astype(np.intp)


def _fresh(name: str, shape: tuple[int, ...], dtype: Any) -> NDArray[Any]:
    return np.empty(shape, dtype=dtype)


def _empty() -> tuple[IntArray, IntArray]:
    return np.empty(0, dtype=np.intp), np.empty(0, dtype=np.intp)


def _choose_grid(
    boxes: FloatArray, cell_size: float | None = None, previous: _Grid | None = None
) -> _Grid:
    """Row height, column width and reach for ``boxes`` (at least two rows)."""
    n = len(boxes)
    tall, wide = _typical_size(boxes)
    fresh = cell_size is None
    if cell_size is not None:
        step, shift = float(cell_size), 0
    else:
        span_x = float(boxes[:, 2].max()) - float(boxes[:, 0].min())
        span_y = float(boxes[:, 3].max()) - float(boxes[:, 1].min())
        # A scene on a line has no area: count it as a square strip of boxes.
        area = max(span_x * span_y, max(span_x, span_y) * max(span_x, span_y) / n)
        # Rows no lower than half the spacing of the boxes keep the count table small
        # in sparse scenes of tiny boxes.
        row = max(tall, 0.5 * (area / n) ** 0.5)
        if not row < math.inf:
            row = tall if tall < math.inf else 1e300  # spans beyond the float range
        if not row > 0.0:
            row = 1.0  # all boxes are the same point: any size works
        if previous is not None and 0.8 <= previous.step * 2**previous.shift / row <= 1.25:
            step, shift, fresh = previous.step, previous.shift, False
        else:
            # Halve the columns while the table stays below _CELLS_PER_BOX cells per box.
            goal = area / (row * _CELLS_PER_BOX * n)
            shift = 0
            while shift < _MAX_ROW_SHIFT and row / 2 ** (shift + 1) >= goal:
                shift += 1
            step = row / 2**shift
    # step and 1 / step must stay finite (any step gives the same pairs).
    step = min(max(step, 1e-300), 1e300)
    # floor(max_x / step) - floor(min_x / step) <= ceil(width / step) (the 1e-9 absorbs
    # rounding in the division; a box it misjudges is merely big).
    ratio = min(wide / step, _CELL_LIMIT)
    whole = math.floor(ratio)
    if fresh and whole >= 1 and 0.0 < ratio - whole < 0.05:
        # Widths just above a whole number of columns (square boxes, whose width equals
        # the row height) would need one more column of reach, which costs about a
        # tenth more candidates; slightly wider columns avoid it.
        step *= ratio / whole * (1.0 + 1e-9)
        ratio = wide / step
    reach = math.ceil(ratio - 1e-9)
    return _Grid(step, shift, reach)


def _typical_size(boxes: FloatArray, allow: int = MAX_BIG_BOXES // 2) -> tuple[float, float]:
    """Height and width that at most ``allow`` boxes exceed (``N >= 1``)."""
    k = max(len(boxes) - 1 - allow, 0)
    with np.errstate(over="ignore"):  # sizes beyond the float range count as infinite
        widths = boxes[:, 2] - boxes[:, 0]
        heights = boxes[:, 3] - boxes[:, 1]
    return float(np.partition(heights, k)[k]), float(np.partition(widths, k)[k])


def _swept_allowance(n: int) -> int:
    """How many of ``n`` boxes the row sweep's pick leaves big: ``MAX_BIG_BOXES / 2``, or
    one in 512 in larger scenes. Its big boxes cost one compiled scan of the rows they
    span each, so a few dozen walls cost less than rows as tall as a wall, which
    put a column of thousands of shapes in one row (90 ms a tick at 10,000 shapes
    beside five walls)."""
    return max(MAX_BIG_BOXES // 2, n // 512)


def _choose_rows(boxes: FloatArray) -> tuple[float, float]:
    """Row height and big-box width for :func:`~.row_sweep.sweep_pairs` (``N >= 2``).

    Both leave at most :func:`_swept_allowance` boxes big when picked, with a sixteenth of
    headroom for shapes that turn (a turning shape's box changes size) before the next
    pick.
    """
    tall, wide = _typical_size(boxes, _swept_allowance(len(boxes)))
    tall *= 1.0625
    wide *= 1.0625
    if not tall > 0.0:
        tall = 1.0  # (nearly) all boxes are flat: any height works
    # 1 / row must be finite and non-zero (any row height gives the same pairs).
    return min(max(tall, 1e-300), 1e300), wide


def _overlap(a: FloatArray, b: FloatArray) -> BoolArray:
    """Closed overlap test of box rows ``a[k]`` and ``b[k]``."""
    return (a[:, 0] <= b[:, 2]) & (b[:, 0] <= a[:, 2]) & (a[:, 1] <= b[:, 3]) & (b[:, 1] <= a[:, 3])


def _overlapping_pairs(
    boxes: FloatArray,
    grid: _Grid,
    order_hint: IntArray | None = None,
    scratch: WorkArrays | None = None,
) -> tuple[IntArray, IntArray, IntArray | None, int]:
    """Pairs, the sort order of all boxes by cell (big ones last), and the big-box count.

    ``boxes`` is C-contiguous float64 with at least two rows.
    """
    n = len(boxes)
    work = scratch.get if scratch is not None else _fresh
    # Cell coordinates of all four sides at once, then clipped (see _CELL_LIMIT).
    # Single columns are read as strided views of the flat array: numpy is several
    # times slower on (n, 2) blocks than on such long 1-D loops.
    cells = work("cells", (n, 4), np.float64)
    with np.errstate(over="ignore"):  # infinite cell coordinates are clipped below
        np.multiply(boxes, 1.0 / grid.step, out=cells)
    np.floor(cells, out=cells)
    flat = cells.ravel()
    lo_x, lo_y = float(flat[0::4].min()), float(flat[1::4].min())
    hi_x, hi_y = float(flat[2::4].max()), float(flat[3::4].max())
    if not (min(lo_x, lo_y) >= -_CELL_LIMIT and max(hi_x, hi_y) <= _CELL_LIMIT):
        np.clip(cells, -_CELL_LIMIT, _CELL_LIMIT, out=cells)
        lo_x, lo_y, hi_x, hi_y = (
            min(max(v, -_CELL_LIMIT), _CELL_LIMIT) for v in (lo_x, lo_y, hi_x, hi_y)
        )
    icells = work("icells", (n, 4), np.int32)
    np.copyto(icells, cells, casting="unsafe")
    iflat = icells.ravel()
    col = iflat[0::4]
    span = work("span", (n,), np.int32)  # columns spanned
    np.subtract(iflat[2::4], col, out=span)
    row = work("row", (n,), np.int32)
    np.right_shift(iflat[1::4], grid.shift, out=row)
    rows = work("rows", (n,), np.int32)  # rows spanned
    np.right_shift(iflat[3::4], grid.shift, out=rows)
    rows -= row
    reach = grid.reach
    big = work("big", (n,), np.bool_)
    np.greater(rows, 1, out=big)
    big |= span > reach
    nbig = int(np.count_nonzero(big))
    big_boxes = np.flatnonzero(big)
    if nbig == n:
        return (*_big_pairs(boxes, big_boxes, []), None, nbig)
    # Rows of the big boxes, before they are parked below.
    big_first = row.take(big_boxes).astype(np.int64)
    big_last = big_first + rows.take(big_boxes)

    row_lo, row_hi = int(lo_y) >> grid.shift, int(hi_y) >> grid.shift
    col_lo, col_hi = int(lo_x), int(hi_x)
    # Table rows: a spare row below and above the boxes' rows, then one row for the
    # big boxes, which no range reaches. Columns: room for ``reach`` on the left.
    width = col_hi - col_lo + reach + 2
    ncells = (row_hi - row_lo + 4) * width
    dense_limit = _DENSE_CELLS_PER_BOX * n + 4096
    if nbig:
        small = ~big
        if ncells > dense_limit:
            # The extent may come from the big boxes alone.
            col_lo, col_hi = int(col[small].min()), int(iflat[2::4][small].max())
            row_lo, row_hi = int(row[small].min()), int(row[small].max())
            width = col_hi - col_lo + reach + 2
            ncells = (row_hi - row_lo + 4) * width
        # Park the big boxes inside the range so the keys below cannot overflow.
        np.copyto(row, row_lo, where=big)
        np.copyto(col, col_lo, where=big)
    dense = ncells <= dense_limit and ncells < 2**31
    # int32 halves the size of the temporaries when the table is small; otherwise
    # exact int64 keys (in float64 a key above 2**53 would round onto another cell).
    itype = np.int32 if dense else np.int64
    key = work("key", (n,), itype)
    np.subtract(row, row_lo - 1, out=key, dtype=itype)
    key *= width
    key += col
    key += reach + 1 - col_lo
    if nbig:
        np.copyto(key, ncells - 1, where=big)

    if order_hint is not None and len(order_hint) == n:
        # (Any permutation of range(n) is a valid hint; a stale one only sorts slower.)
        # Boxes move little between ticks: last tick's order leaves the keys nearly
        # sorted, and the stable sort (timsort) runs in close to linear time on them.
        order: IntArray = order_hint[np.argsort(key[order_hint], kind="stable")]
    else:
        order = np.argsort(key, kind="stable")
    skey = work("skey", (n,), itype)
    np.take(key, order, out=skey)
    ns = n - nbig  # boxes in the grid: sorted positions 0 .. ns - 1
    own_key = skey[:ns]
    own_span = work("own_span", (ns,), np.int32)
    np.take(span, order[:ns], out=own_span)

    # Ranges of sorted positions: own row (p + 1, own_end), row above [up_lo, up_end).
    cell = work("cell", (ns,), itype)
    own_end = work("own_end", (ns,), np.intp)
    up_end = work("up_end", (ns,), np.intp)
    up_lo = work("up_lo", (ns,), np.intp)
    if dense:
        # ends[c] = number of boxes in cells <= c.
        # (np.add.at rather than np.bincount: the counts stay in a reused buffer.)
        ends = work("ends", (ncells,), np.intp)
        ends.fill(0)
        np.add.at(ends, skey, 1)
        np.cumsum(ends, out=ends)

        def count_upto(at: _Index, out: IntArray) -> None:
            np.take(ends, at, out=out)

    else:
        # Sparse scene (far-apart clusters): binary search instead of a table larger
        # than the scene.
        def count_upto(at: _Index, out: IntArray) -> None:
            out[:] = np.searchsorted(skey, at, side="right")

    np.add(own_key, own_span, out=cell)  # column of max_x, own row
    count_upto(cell, own_end)
    cell += width  # column of max_x, row above
    count_upto(cell, up_end)
    np.add(own_key, width - reach - 1, out=cell)  # before column min_x - reach, row above
    count_upto(cell, up_lo)
    own_lo = _positions(scratch, n)[1 : ns + 1]
    own_end -= own_lo
    up_end -= up_lo
    owner, partner = _expand((own_end, own_lo), (up_end, up_lo))

    # The exact test on whole box rows: two row gathers (np.take along axis 0) are
    # much cheaper than eight gathers of single coordinates.
    oi = order.take(owner)
    oj = order.take(partner)
    m = len(oi)
    a = work("a", (m, 4), np.float64)
    b = work("b", (m, 4), np.float64)
    np.take(boxes, oi, axis=0, out=a)
    np.take(boxes, oj, axis=0, out=b)
    af, bf = a.ravel(), b.ravel()
    keep = work("keep", (m,), np.bool_)
    also = work("also", (m,), np.bool_)
    np.less_equal(af[0::4], bf[2::4], out=keep)
    for lhs, rhs in ((bf[0::4], af[2::4]), (af[1::4], bf[3::4]), (bf[1::4], af[3::4])):
        np.less_equal(lhs, rhs, out=also)
        keep &= also
    hit = np.flatnonzero(keep)
    i = oi.take(hit)
    j = oj.take(hit)
    if nbig:
        # A grid box spans two rows at most, so it can meet a big box only if it starts
        # between the row below the big box and the big box's last row: a contiguous
        # range of the sorted order. Table rows are row - row_lo + 1, within 0 .. top.
        # (Table row 0 is empty, so a range starting there needs no special case.)
        top = row_hi - row_lo + 2
        bounds: list[int] = []
        for r0, r1 in zip(big_first.tolist(), big_last.tolist(), strict=True):
            first = min(max(r0 - row_lo, 0), top)
            last = min(max(r1 - row_lo + 1, 0), top)
            bounds += (max(first * width - 1, 0), (last + 1) * width - 1)
        counts = np.empty(2 * nbig, dtype=np.intp)
        count_upto(np.array(bounds, dtype=itype), counts)
        ranges = [order[lo:hi] for lo, hi in counts.reshape(nbig, 2).tolist()]
        bi, bj = _big_pairs(boxes, big_boxes, ranges)
        i = np.concatenate([i, bi])
        j = np.concatenate([j, bj])
    return np.minimum(i, j), np.maximum(i, j), order, nbig


def _positions(scratch: WorkArrays | None, n: int) -> IntArray:
    """``arange(n + 1)``, kept between calls when there are work arrays to keep it in."""
    if scratch is None:
        return np.arange(n + 1, dtype=np.intp)
    return scratch.arange(n + 1)


def _expand(*ranges: tuple[IntArray, IntArray]) -> tuple[IntArray, IntArray]:
    """Every ``(p, lo[p] + k)``, ``0 <= k < count[p]``, of the ranges ``(count, lo)``."""
    owners: list[IntArray] = []
    partners: list[IntArray] = []
    for count, lo in ranges:
        # Most ranges hold 0 or 1 box: single entries are taken directly and only
        # longer ranges are expanded.
        single = np.flatnonzero(count == 1)
        owners.append(single)
        partners.append(lo.take(single))
        multi = np.flatnonzero(count > 1)
        if len(multi):
            multi_count = count.take(multi)
            before = np.cumsum(multi_count) - multi_count
            owners.append(np.repeat(multi, multi_count))
            partners.append(
                np.arange(int(before[-1] + multi_count[-1]))
                + np.repeat(lo.take(multi) - before, multi_count)
            )
    return np.concatenate(owners), np.concatenate(partners)


def _big_pairs(
    boxes: FloatArray, big_boxes: IntArray, candidates: list[IntArray]
) -> tuple[IntArray, IntArray]:
    """Pairs with a big box: each big box against its grid ``candidates`` (none when the
    list is empty) and against the big boxes after it."""
    parts_i: list[IntArray] = []
    parts_j: list[IntArray] = []
    if candidates:
        parts_i.append(np.repeat(big_boxes, [len(c) for c in candidates]))
        parts_j.append(np.concatenate(candidates))
    for t, b in enumerate(big_boxes[:-1].tolist()):
        # One big box at a time: memory stays linear even if every box is big.
        others = big_boxes[t + 1 :]
        parts_i.append(np.full(len(others), b, dtype=np.intp))
        parts_j.append(others)
        if len(parts_i) > 1 and len(others) > 64:
            i, j = _keep_overlapping(boxes, parts_i, parts_j)
            parts_i, parts_j = [i], [j]
    return _keep_overlapping(boxes, parts_i, parts_j)


def _keep_overlapping(
    boxes: FloatArray, parts_i: list[IntArray], parts_j: list[IntArray]
) -> tuple[IntArray, IntArray]:
    i = np.concatenate(parts_i)
    j = np.concatenate(parts_j)
    hit = _overlap(boxes.take(i, axis=0), boxes.take(j, axis=0))
    return i[hit], j[hit]

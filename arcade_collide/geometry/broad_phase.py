"""Broad phase: every pair of axis-aligned boxes that overlap, found with a uniform grid.

:func:`overlapping_pairs` takes ``N`` boxes as an ``(N, 4)`` array of rows
``(min_x, min_y, max_x, max_y)`` and returns the index pairs ``i < j`` whose boxes
overlap. Boxes are closed sets, like every shape here: boxes that only touch
(``a.max_x == b.min_x``) do overlap. The result is exact: it is the same set of
pairs the all-pairs test reports (the tests check this against brute force).

Why a grid and not sweep-and-prune: in a uniformly filled 2D scene, a sweep along x
keeps every box whose x range overlaps as a candidate, about ``sqrt(N)`` of them per
box (about 100 at 20,000 boxes), while a grid whose cells are as large as a typical
box offers a handful. Measured on 20,000 circles of radius 5-10 px spread over a
square of side ``sqrt(N) * 30`` px (``benchmarks/bench_world.py --broad-phase``, a
shared 2-core machine): the grid takes about 2.3 ms per tick when it keeps its sort
order between ticks (:class:`GridBroadPhase`), 6 ms from scratch, and a vectorised
sweep-and-prune 86 ms; at 10,000: 1.1, 2.3 and 37 ms.

How the grid stays exact (Ericson, *Real-Time Collision Detection*, 7.1):

* The cell size ``s`` is at least the extent of nearly every box, so nearly every box
  spans at most two cells per axis. A box is stored once, in the cell of its minimum
  corner. If two such boxes overlap, the minimum-corner cells differ by at most one in
  each axis (``floor(x / s)`` is monotonic, so this holds in floating point too). Each
  box is paired with the boxes in its own cell that come after it and with the boxes of
  four of its eight neighbour cells (right, up-left, up, up-right), so every pair of
  neighbouring cells is visited from one side only and no pair is reported twice.
* Boxes spanning more than two cells in some axis ("big" boxes: a level's floor, a
  huge trigger zone) are kept out of the grid and tested against all boxes directly.
  The cell size is picked so that at most a few boxes are big.
* Every candidate is then checked with the exact closed overlap test.

This module never imports esper or arcade.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry.arrays import BoolArray, FloatArray, IntArray

_Index = NDArray[np.signedinteger[Any]]
"""Index arrays of either width (the grid works in int32 when it can)."""

MAX_BIG_BOXES = 8
"""How many boxes may be left out of the grid and tested against everything instead."""

_INT64 = np.int64
# Grid coordinates are clipped to this range so that ``floor(x / s)`` always fits an
# int64 key; clipping is monotonic, so the neighbour argument above still holds (far
# away boxes merely share cells, which costs candidates, never correctness).
_CELL_LIMIT = float(2**30)


def overlapping_pairs(
    aabbs: FloatArray, cell_size: float | None = None
) -> tuple[IntArray, IntArray]:
    """Index pairs ``(i, j)``, ``i < j``, of the boxes that overlap or touch.

    Args:
        aabbs: ``(N, 4)`` float array of rows ``(min_x, min_y, max_x, max_y)``, finite,
            with ``min <= max``.
        cell_size: Grid cell size; by default picked from the box sizes and the area
            they cover. Any positive value gives the same pairs, only the speed changes.

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
    boxes = np.asarray(aabbs, dtype=np.float64)
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(f"aabbs must have shape (N, 4), got {boxes.shape}")
    if not np.isfinite(boxes).all():
        raise ValueError("aabbs must be finite (found NaN or infinity)")
    if (boxes[:, 2:] < boxes[:, :2]).any():
        raise ValueError("aabbs must have min <= max in every row")
    if cell_size is not None and not (np.isfinite(cell_size) and cell_size > 0.0):
        raise ValueError(f"cell_size must be a positive finite number, got {cell_size!r}")
    i, j, _, _ = _overlapping_pairs(boxes, cell_size)
    return i, j


class GridBroadPhase:
    """:func:`overlapping_pairs` with memory between calls, for a scene that moves a little
    each tick.

    It keeps the cell size while it stays suitable and last call's sort order, so the
    cell sort runs on nearly sorted keys. The pairs returned are exactly those of
    :func:`overlapping_pairs` (the same set; the order may differ). Inputs are not
    validated here: the caller passes finite boxes with ``min <= max``.

    (Fat boxes, which let a tick reuse the previous candidates until some box leaves
    its enlarged box, were measured too: median ticks got faster but every few ticks a
    rebuild on the enlarged boxes cost four times a plain tick at 20,000 shapes, a
    frame-time spike a game would see. A steady cost per tick was preferred.)

    >>> grid = GridBroadPhase()
    >>> i, j = grid.pairs(np.array([[0, 0, 2, 2], [1, 1, 3, 3.0]]))
    >>> i.tolist(), j.tolist()
    ([0], [1])
    """

    def __init__(self) -> None:
        self._order: _Index | None = None
        self._cell_size: float | None = None
        self._calls = 0
        self._count = 0
        self._scratch = _Scratch()

    def pairs(self, aabbs: FloatArray) -> tuple[IntArray, IntArray]:
        """Overlapping pairs ``i < j`` of ``aabbs`` (see :func:`overlapping_pairs`)."""
        if len(aabbs) < 2:
            self._order = None
            return _empty()
        self._calls += 1
        # Keep the cell size between calls: a stable size keeps the cell keys, hence
        # the sort order, nearly unchanged. Re-pick it every so often (the scene may
        # spread or shrink), when the count changes, and when boxes outgrew it.
        if self._cell_size is None or self._calls % 64 == 0 or len(aabbs) != self._count:
            self._cell_size = _choose_cell_size(aabbs)
            self._count = len(aabbs)
        i, j, self._order, big = _overlapping_pairs(
            aabbs, self._cell_size, self._order, self._scratch
        )
        if big > MAX_BIG_BOXES:
            self._cell_size = None
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


class _Scratch:
    """Work arrays kept from call to call.

    A call allocates several megabytes of temporaries at 20,000 boxes. Freshly
    allocated, each page is faulted in again on every call once the C allocator has
    handed the memory back to the system: measured, about 1,000 page faults per call
    and a third of its time on a virtual machine. Reused buffers are faulted in once.
    """

    def __init__(self) -> None:
        self._arrays: dict[str, NDArray[Any]] = {}

    def get(self, name: str, shape: tuple[int, ...], dtype: Any) -> NDArray[Any]:
        """A C-contiguous ``shape`` view of the buffer ``name`` (contents undefined)."""
        size = int(np.prod(shape))
        buf = self._arrays.get(name)
        if buf is None or buf.dtype != dtype or buf.size < size:
            buf = np.empty(max(size, 1024) * 5 // 4, dtype=dtype)
            self._arrays[name] = buf
        return buf[:size].reshape(shape)


def _fresh(name: str, shape: tuple[int, ...], dtype: Any) -> NDArray[Any]:
    return np.empty(shape, dtype=dtype)


def _empty() -> tuple[IntArray, IntArray]:
    return np.empty(0, dtype=np.intp), np.empty(0, dtype=np.intp)


def _choose_cell_size(boxes: FloatArray) -> float:
    n = len(boxes)
    extent = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    # Leave at most MAX_BIG_BOXES boxes bigger than a cell.
    k = max(n - 1 - MAX_BIG_BOXES, 0)
    big_enough = float(np.partition(extent, k)[k])
    # Cells about as large as the area per box keep the cell table small in sparse
    # scenes; measured, a cell near 0.7 * sqrt(area / N) gives the fewest candidates
    # per unit of work for the benchmark scenes.
    lo = boxes[:, :2].min(axis=0)
    hi = boxes[:, 2:].max(axis=0)
    area = float((hi[0] - lo[0]) * (hi[1] - lo[1]))
    spacing = 0.7 * (area / n) ** 0.5
    size = float(max(big_enough, spacing))
    if not size > 0.0:
        # All boxes are the same point: any size works.
        size = 1.0
    return size


def _overlap(a: FloatArray, b: FloatArray) -> BoolArray:
    """Closed overlap test of box rows ``a[k]`` and ``b[k]``."""
    return (
        (a[:, 0] <= b[:, 2]) & (b[:, 0] <= a[:, 2]) & (a[:, 1] <= b[:, 3]) & (b[:, 1] <= a[:, 3])
    )


def _overlapping_pairs(
    boxes: FloatArray,
    cell_size: float | None,
    order_hint: _Index | None = None,
    scratch: _Scratch | None = None,
) -> tuple[IntArray, IntArray, _Index | None, int]:
    """Pairs, the cell sort order of the boxes kept in the grid, and the big-box count."""
    n = len(boxes)
    if n < 2:
        return (*_empty(), None, 0)
    size = _choose_cell_size(boxes) if cell_size is None else float(cell_size)
    work = scratch.get if scratch is not None else _fresh
    cells = work("cells", (n, 4), np.float64)
    np.multiply(boxes, 1.0 / size, out=cells)
    np.floor(cells, out=cells)
    if not (cells.min() >= -_CELL_LIMIT and cells.max() <= _CELL_LIMIT):
        np.clip(cells, -_CELL_LIMIT, _CELL_LIMIT, out=cells)
    big = (cells[:, 2] - cells[:, 0] > 1.0) | (cells[:, 3] - cells[:, 1] > 1.0)
    nbig = int(np.count_nonzero(big))

    parts_i: list[_Index] = []
    parts_j: list[_Index] = []
    order: _Index | None = None
    if nbig == 0:
        gi, gj, order = _grid_pairs(boxes, cells, order_hint, work)
        parts_i.append(gi)
        parts_j.append(gj)
    elif n - nbig > 1:
        small = np.flatnonzero(~big)
        gi, gj, order = _grid_pairs(boxes[small], cells[small], order_hint, work)
        parts_i.append(small[gi])
        parts_j.append(small[gj])
    for b in np.flatnonzero(big).tolist():
        hit = _overlap(boxes, boxes[b : b + 1])
        hit[b] = False
        # A big box meets another big box once: from the lower index.
        hit[: b + 1] &= ~big[: b + 1]
        others = np.flatnonzero(hit)
        parts_i.append(np.full(len(others), b, dtype=np.intp))
        parts_j.append(others)
    if not parts_i:
        return (*_empty(), order, nbig)
    i = np.concatenate(parts_i).astype(np.intp, copy=False)
    j = np.concatenate(parts_j).astype(np.intp, copy=False)
    return np.minimum(i, j), np.maximum(i, j), order, nbig


def _grid_pairs(
    boxes: FloatArray,
    cells: FloatArray,
    order_hint: _Index | None,
    work: Any = _fresh,
) -> tuple[_Index, _Index, _Index]:
    """Overlapping pairs among boxes that each span at most two cells per axis.

    ``cells`` holds ``floor(box / cell_size)`` per box. Returns ``i``, ``j`` (either
    order within a pair) and the permutation that sorted the boxes by cell.
    """
    n = len(boxes)
    # Shift so the smallest cell is (1, 0): the up-left neighbour (x - 1) stays >= 0.
    gx = cells[:, 0] - (cells[:, 0].min() - 1.0)
    gy = cells[:, 1] - cells[:, 1].min()
    width = int(gx.max()) + 2
    height = int(gy.max()) + 2
    ncells = width * height
    dense = ncells <= 4 * n + 4096
    # int32 halves the size of every temporary; the dense table is small enough for it.
    itype = np.int32 if dense and n < 2**30 else np.int64
    # Integer arithmetic: in float64 a key above 2**53 would round onto another cell.
    key = gy.astype(itype)
    key *= width
    key += gx.astype(itype)
    if order_hint is not None and len(order_hint) == n:
        # (Any permutation of range(n) is a valid hint; a stale one only sorts slower.)
        # Boxes move little between ticks: last tick's order leaves the keys nearly
        # sorted, and the stable sort (timsort) runs in close to linear time on them.
        hint = order_hint.astype(itype, copy=False)
        order = hint[np.argsort(key[hint], kind="stable")]
    else:
        order = np.argsort(key, kind="stable").astype(itype)
    skey = key[order]

    lo = work("lo", (5, n), itype)
    hi = work("hi", (5, n), itype)
    # Own cell: only the boxes after this one (sorted positions p + 1 .. end of cell).
    lo[0] = np.arange(1, n + 1, dtype=itype)
    # Neighbours right, up-left, up, up-right (the other four see this cell from there).
    offsets = (1, width - 1, width, width + 1)
    if dense:
        counts = np.bincount(skey, minlength=ncells).astype(itype)
        ends = np.cumsum(counts, dtype=itype)
        starts = ends - counts
        np.take(ends, skey, out=hi[0])
        cell = work("cell", (n,), itype)
        for row, offset in enumerate(offsets, start=1):
            np.add(skey, offset, out=cell)
            np.take(starts, cell, out=lo[row])
            np.take(ends, cell, out=hi[row])
    else:
        # Sparse scene (far-apart clusters): binary search instead of a dense table
        # larger than the scene.
        hi[0] = np.searchsorted(skey, skey, side="right")
        for row, offset in enumerate(offsets, start=1):
            cell = skey + offset
            lo[row] = np.searchsorted(skey, cell, side="left")
            hi[row] = np.searchsorted(skey, cell, side="right")
    hi -= lo
    count = hi.ravel()
    first = lo.ravel()
    # Cells hold about one box at the chosen size, so most ranges have 0 or 1 entries:
    # single entries are taken directly and only longer ranges are expanded.
    single = np.flatnonzero(count == 1).astype(itype)
    multi = np.flatnonzero(count > 1).astype(itype)
    multi_count = count[multi]
    starts_out = np.cumsum(multi_count, dtype=itype) - multi_count
    owner = np.concatenate([single, np.repeat(multi, multi_count)])
    owner %= n
    partner = np.concatenate(
        [
            first[single],
            np.arange(int(multi_count.sum()), dtype=itype)
            + np.repeat(first[multi] - starts_out, multi_count),
        ]
    )
    # The exact test on whole box rows: two row gathers (np.take along axis 0) are
    # much cheaper than eight gathers of single coordinates.
    sboxes = work("sboxes", (n, 4), np.float64)
    np.take(boxes, order, axis=0, out=sboxes)
    m = len(owner)
    a = work("a", (m, 4), np.float64)
    b = work("b", (m, 4), np.float64)
    np.take(sboxes, owner, axis=0, out=a)
    np.take(sboxes, partner, axis=0, out=b)
    keep = work("keep", (m,), np.bool_)
    np.less_equal(a[:, 0], b[:, 2], out=keep)
    keep &= b[:, 0] <= a[:, 2]
    keep &= a[:, 1] <= b[:, 3]
    keep &= b[:, 1] <= a[:, 3]
    return order[owner[keep]], order[partner[keep]], order

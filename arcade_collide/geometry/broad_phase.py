"""Broad phase: every pair of axis-aligned boxes that overlap, found by the compiled row sweep.

:func:`overlapping_pairs` takes ``N`` boxes as an ``(N, 4)`` array of rows
``(min_x, min_y, max_x, max_y)`` and returns the index pairs ``i < j`` whose boxes
overlap or touch (closed sets), exactly the pairs brute force finds. The pairs come
from :func:`~arcade_collide.geometry.row_sweep.sweep_pairs`; this module picks its rows
(tall enough that only a few boxes are "big"), again as the scene changes.
:class:`SweepBroadPhase` keeps the rows and last call's sort order between calls, so
each call sorts nearly sorted boxes.
"""

from __future__ import annotations

import numpy as np

from arcade_collide.geometry.arrays import FloatArray, IntArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.row_sweep import sweep_pairs
from arcade_collide.geometry.work_arrays import WorkArrays

MIN_BIG_BOXES = 4
"""How many boxes a pick of rows may leave big in a small scene (one in 512 in a large
one, see :func:`_allowance`)."""


def overlapping_pairs(aabbs: FloatArray) -> tuple[IntArray, IntArray]:
    """Index pairs ``(i, j)``, ``i < j``, of the boxes that overlap or touch.

    Args:
        aabbs: ``(N, 4)`` float array of rows ``(min_x, min_y, max_x, max_y)``, finite,
            with ``min <= max``.

    Returns:
        Two int arrays ``i`` and ``j`` of equal length, ``i < j`` row by row, each pair
        once, in an order that depends only on the input.

    Raises:
        ValueError: ``aabbs`` has the wrong shape, a NaN or infinite value, or a box with
            ``min > max``.

    >>> boxes = np.array([[0, 0, 2, 2], [2, 0, 4, 2], [5, 5, 6, 6]], dtype=float)
    >>> i, j = overlapping_pairs(boxes)      # boxes 0 and 1 touch at x == 2
    >>> i.tolist(), j.tolist()
    ([0], [1])
    >>> i, j = overlapping_pairs(boxes[1:])  # a miss
    >>> i.tolist(), j.tolist()
    ([], [])
    >>> i, j = overlapping_pairs(np.array([[0, 0, 3, 3], [1, 1, 2, 2.0]]))  # a hit
    >>> i.tolist(), j.tolist()
    ([0], [1])
    """
    boxes = np.ascontiguousarray(aabbs, dtype=np.float64)
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(f"aabbs must have shape (N, 4), got {boxes.shape}")
    if not np.isfinite(boxes).all():
        raise ValueError("aabbs must be finite (found NaN or infinity)")
    if (boxes[:, 2:] < boxes[:, :2]).any():
        raise ValueError("aabbs must have min <= max in every row")
    return SweepBroadPhase().pairs(boxes)


class SweepBroadPhase:
    """:func:`overlapping_pairs` with memory between calls, for a scene that moves a little
    each tick.

    It keeps its rows while they suit the boxes and last call's sort order, so the sort
    runs on nearly sorted boxes. The pairs returned are exactly those of
    :func:`overlapping_pairs` (the same set; the order may differ), and the same
    sequence of calls gives the same results. Inputs are not validated here: the caller
    passes finite boxes with ``min <= max``.

    >>> broad = SweepBroadPhase()
    >>> i, j = broad.pairs(np.array([[0, 0, 2, 2], [1, 1, 3, 3.0]]))
    >>> i.tolist(), j.tolist()
    ([0], [1])
    """

    def __init__(self) -> None:
        self._order: IntArray | None = None
        self._rows: tuple[float, float] | None = None
        self._calls = 0
        self._count = 0
        self._fresh = 0
        self._work = WorkArrays()

    def renumber(self, new_of_old: IntArray, count: int) -> None:
        """Follow a renumbering of the boxes between two calls: box ``k`` of the last
        call is box ``new_of_old[k]`` of the next (-1: gone), which has ``count`` boxes;
        the boxes no old box became are new. The next call then sorts from the old
        order, merging the new boxes in, instead of sorting afresh.

        >>> broad = SweepBroadPhase()
        >>> boxes = np.array([[4.0 * k, 0, 4 * k + 2, 2] for k in range(40)])
        >>> _ = broad.pairs(boxes)
        >>> broad.renumber(np.arange(40) - 1, 40)  # box 0 gone, the others shift down
        >>> moved = np.concatenate([boxes[1:], [[157.0, 0, 160, 2]]])  # one new box
        >>> i, j = broad.pairs(moved)
        >>> i.tolist(), j.tolist()
        ([38], [39])
        """
        order = self._order
        if order is None or len(order) != len(new_of_old):
            self._order = None
            return
        self._order, self._fresh = _renumbered_order(
            np.ascontiguousarray(new_of_old, dtype=np.int64), order, count
        )
        if 8 * abs(count - self._count) <= self._count:
            self._count = count  # about as many boxes: the rows still suit them

    def forget(self) -> None:
        """Sort afresh at the next call (its boxes will not be the last call's
        renumbered)."""
        self._order = None

    def reuse(self, rows: IntArray) -> None:
        """Follow boxes ``rows`` (int64) being replaced by new ones between two calls,
        every other box keeping its number: a cheaper :meth:`renumber` for that case.

        >>> broad = SweepBroadPhase()
        >>> boxes = np.array([[4.0 * k, 0, 4 * k + 2, 2] for k in range(40)])
        >>> _ = broad.pairs(boxes)
        >>> broad.reuse(np.array([0]))
        >>> boxes[0] = (157.0, 0, 160, 2)  # box 0 is a new box, touching box 39
        >>> i, j = broad.pairs(boxes)
        >>> i.tolist(), j.tolist()
        ([0], [39])
        """
        order = self._order
        if order is None or not len(rows):
            return
        # In place: the order is this object's own (the sweep's work array, or the
        # result of a renumbering), and the next sweep then reads it without a copy.
        count, fresh = _reused_order(
            order, len(order) - self._fresh, np.ascontiguousarray(rows, dtype=np.int64)
        )
        if count != len(order):  # rows not all among the boxes: sort afresh
            self._order = None
            return
        self._fresh = fresh

    def pairs(self, aabbs: FloatArray) -> tuple[IntArray, IntArray]:
        """Overlapping pairs ``i < j`` of ``aabbs`` (see :func:`overlapping_pairs`)."""
        boxes = np.ascontiguousarray(aabbs, dtype=np.float64)
        if len(boxes) <= FEW_BOXES:
            self._order = None
            return _all_pairs(boxes)
        self._calls += 1
        most = limit = 2 * _allowance(len(boxes))
        # Pick the rows again every so often (the scene may spread or shrink) and when
        # the count changes.
        if self._rows is None or self._calls % 64 == 0 or len(boxes) != self._count:
            self._rows = _choose_rows(boxes)
            self._count = len(boxes)
            limit = -1  # just picked for these boxes
        fresh, self._fresh = self._fresh, 0
        found = sweep_pairs(boxes, *self._rows, self._order, self._work, limit, fresh)
        if found is None:
            # Boxes outgrew the rows at once (shapes turning together from a flat
            # angle, a whole scene rescaled): pick again before sweeping, rather than
            # test hundreds of big boxes against every row they span.
            self._rows = _choose_rows(boxes)
            found = sweep_pairs(boxes, *self._rows, self._order, self._work, fresh=fresh)
            assert found is not None  # without a limit, sweep_pairs always answers
        i, j, self._order, big = found
        if big > most:
            self._rows = None
        return i, j


@kernel("Tuple((int64[::1], int64))(int64[::1], int64[::1], int64)")
def _renumbered_order(new_of_old: IntArray, order: IntArray, count: int) -> tuple[IntArray, int]:
    """``order`` mapped through ``new_of_old`` without the boxes gone (-1), then the
    ``count`` boxes' new ones (those no old box became), ascending; and how many are
    new."""
    out = np.empty(count, dtype=np.int64)
    seen = np.zeros(count, dtype=np.bool_)
    q = 0
    for k in order:
        new = new_of_old[k]
        if 0 <= new < count and not seen[new]:
            out[q] = new
            seen[new] = True
            q += 1
    kept = q
    for new in range(count):
        if not seen[new]:
            out[q] = new
            q += 1
    return out[:q], q - kept


@kernel("UniTuple(int64, 2)(int64[::1], int64, int64[::1])")
def _reused_order(order: IntArray, sorted_count: int, rows: IntArray) -> tuple[int, int]:
    """Move ``rows`` to the end of ``order`` (its first ``sorted_count`` entries sorted,
    the rest new), as new ones, in place: the others close up in their order. Returns
    how many entries ``order`` then holds (less than its length when it was not a
    permutation holding ``rows``: then it is no longer valid) and how many are new."""
    taken = np.zeros(len(order), dtype=np.bool_)
    for row in rows:
        if 0 <= row < len(order):
            taken[row] = True
    q = kept = 0
    for k in range(len(order)):
        if k == sorted_count:
            kept = q
        entry = order[k]
        if not (0 <= entry < len(order) and taken[entry]):
            order[q] = entry
            q += 1
    if sorted_count >= len(order):
        kept = q
    for row in rows:
        if 0 <= row < len(order) and taken[row]:
            taken[row] = False  # (each once)
            order[q] = row
            q += 1
    return q, q - kept


@kernel("boolean(float64[::1], float64[::1])", inline=True)
def boxes_overlap(a: FloatArray, b: FloatArray) -> bool:
    """Whether two closed boxes ``(min_x, min_y, max_x, max_y)`` overlap or touch."""
    return bool(a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3])


FEW_BOXES = 32
"""Up to this many boxes, every pair is tested: quicker than setting up a sweep."""


def _all_pairs(boxes: FloatArray) -> tuple[IntArray, IntArray]:
    """Every overlapping pair ``i < j`` of a few boxes, by testing them all."""
    n = len(boxes)
    # (Made here: arrays a compiled call hands back cost more than arrays it is given.)
    out = np.empty((2, n * (n - 1) // 2), dtype=np.int64)
    m = _test_all_pairs(boxes, out)
    return out[0, :m], out[1, :m]


@kernel("int64(float64[:, ::1], int64[:, ::1])")
def _test_all_pairs(boxes: FloatArray, out: IntArray) -> int:
    """Write every overlapping pair ``i < j`` of ``boxes`` as ``out[:, k]``; return how many."""
    n = len(boxes)
    m = 0
    for a in range(n):
        for b in range(a + 1, n):
            if boxes_overlap(boxes[a], boxes[b]):
                out[0, m] = a
                out[1, m] = b
                m += 1
    return m


def _typical_size(boxes: FloatArray, allow: int) -> tuple[float, float]:
    """Height and width that at most ``allow`` boxes exceed (``N >= 1``)."""
    k = max(len(boxes) - 1 - allow, 0)
    with np.errstate(over="ignore"):  # sizes beyond the float range count as infinite
        widths = boxes[:, 2] - boxes[:, 0]
        heights = boxes[:, 3] - boxes[:, 1]
    return float(np.partition(heights, k)[k]), float(np.partition(widths, k)[k])


def _allowance(n: int) -> int:
    """How many of ``n`` boxes a pick of rows leaves big: :data:`MIN_BIG_BOXES`, or one in
    512 in larger scenes. A big box costs one scan of the rows it spans, so a few dozen
    walls cost less than rows as tall as a wall, which would put a whole column of
    shapes beside the walls into one row."""
    return max(MIN_BIG_BOXES, n // 512)


def _choose_rows(boxes: FloatArray) -> tuple[float, float]:
    """Row height and big-box width for :func:`~.row_sweep.sweep_pairs` (``N >= 2``).

    Both leave at most :func:`_allowance` boxes big when picked, with a sixteenth of
    headroom for shapes that turn (a turning shape's box changes size) before the next
    pick.
    """
    tall, wide = _typical_size(boxes, _allowance(len(boxes)))
    tall *= 1.0625
    wide *= 1.0625
    if not tall > 0.0:
        tall = 1.0  # (nearly) all boxes are flat: any height works
    # 1 / row must be finite and non-zero (any row height gives the same pairs).
    return min(max(tall, 1e-300), 1e300), wide

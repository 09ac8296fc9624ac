"""Broad-phase kernel: overlapping pairs of boxes from rows of boxes, each swept in x.

:func:`sweep_pairs` finds every pair of closed boxes that overlap or touch, each once,
with loops compiled by numba (:mod:`.compiled`). The rows it sweeps are picked by
:class:`~arcade_collide.geometry.broad_phase.SweepBroadPhase`.

The method (a uniform grid of rows, Ericson, *Real-Time Collision Detection*, 7.1,
each row swept along x as in sweep-and-prune, 7.5):

* Rows are ``h`` tall; ``row(y) = floor(y / h)`` (computed as ``floor(y * (1 / h))``,
  clipped to +-2**60: monotonic in ``y``, which is all the argument below needs). A
  box belongs to the row of its ``min_y``. Boxes spanning more than two rows, or wider
  than ``wide``, are "big" and handled on their own; ``h`` and ``wide`` are picked so
  that only a few are.
* The boxes are sorted by (row, ``min_x``), big ones last. The previous call's order is
  the starting point of an insertion sort, which is close to linear when the boxes
  moved a little; past ``8 n`` moves it gives up and sorts afresh.
* Box ``a`` meets box ``b`` of its own row sorted after it exactly when
  ``b.min_x <= a.max_x`` and their y ranges overlap: a scan forward that stops at the
  first ``b.min_x > a.max_x``.
* Two overlapping small boxes sit in the same row or in neighbouring rows (if
  ``a.min_y <= b.min_y <= a.max_y`` then ``row(a) <= row(b) <= row(a.max_y) <=
  row(a) + 1``), and only a box that reaches into the next row can meet that row's
  boxes. Those are scanned from the first with ``min_x >= a.min_x - 2 W``, ``W`` the
  largest rounded width of a small box: any ``b`` with ``b.max_x >= a.min_x`` has
  ``b.min_x >= a.min_x - width(b)``, at least the exact ``a.min_x - 2 W``, and rounding
  that bound to a double is monotonic, so it cannot pass ``b.min_x``. The bound only
  grows along a row, so one pointer per row walks the row above once.
* A big box meets only small boxes whose row lies between the row below its own and
  its last row, a contiguous range of the sorted order (binary search), and the other
  big boxes (all tested).
* Every candidate gets the exact closed overlap test.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.work_arrays import WorkArrays

_ROW_LIMIT = 2.0**60
_BIG_KEY = 2**62
"""Row key of the big boxes: above every clipped row, so they sort last."""

Int64Array = NDArray[np.int64]
"""The kernels take exactly int64 index arrays (intp on the 64-bit platforms)."""


@kernel("boolean(int64[::1], int64[::1], float64[::1], int64)")
def _insertion_sort(order: Int64Array, key: Int64Array, x: FloatArray, limit: int) -> bool:
    """Sort ``order`` by (key, x) in place; False once more than ``limit`` moves."""
    moves = 0
    for p in range(1, len(order)):
        k = order[p]
        kk = key[k]
        kx = x[k]
        q = p - 1
        while q >= 0 and (key[order[q]] > kk or (key[order[q]] == kk and x[order[q]] > kx)):
            order[q + 1] = order[q]
            q -= 1
            moves += 1
        order[q + 1] = k
        if moves > limit:
            return False
    return True


@kernel(
    "float64(float64[:, ::1], float64, float64, int64[::1], int64[::1], int64[::1],"
    " int64[::1])",
    inline=True,
)
def _row_keys(
    boxes: FloatArray,
    inv_h: float,
    wide: float,
    r0: Int64Array,
    r1: Int64Array,
    key: Int64Array,
    info: Int64Array,
) -> float:
    """First and last row of each box, and its sort key: its first row, or ``_BIG_KEY``
    for a big box. Returns the largest width of a small box; ``info[1]`` receives the
    number of big boxes."""
    widest = 0.0
    nbig = 0
    for k in range(boxes.shape[0]):
        x0 = boxes[k, 0]
        x1 = boxes[k, 2]
        lo = np.floor(boxes[k, 1] * inv_h)
        hi = np.floor(boxes[k, 3] * inv_h)
        a = int(min(max(lo, -_ROW_LIMIT), _ROW_LIMIT))
        b = int(min(max(hi, -_ROW_LIMIT), _ROW_LIMIT))
        r0[k] = a
        r1[k] = b
        width = x1 - x0
        if b - a > 1 or width > wide:
            key[k] = _BIG_KEY
            nbig += 1
        else:
            key[k] = a
            if width > widest:
                widest = width
    info[1] = nbig
    return widest


@kernel(
    "void(float64[:, ::1], int64[::1], boolean, int64[::1], float64[::1], int64, int64[::1])",
    inline=True,
)
def _sort_boxes(
    boxes: FloatArray,
    key: Int64Array,
    hinted: bool,
    order: Int64Array,
    x_min: FloatArray,
    fresh: int,
    spare: Int64Array,
) -> None:
    """``order`` sorted by (key, ``min_x``): from the hint by insertion while that stays
    cheap, else afresh. The hint's last ``fresh`` entries are rows new since the hint
    was sorted: they are sorted apart and merged in. ``x_min`` and ``spare`` are work
    space."""
    n = boxes.shape[0]
    for k in range(n):
        x_min[k] = boxes[k, 0]
    old = n - fresh
    if hinted and 0 < fresh <= n // 4 and _insertion_sort(order[:old], key, x_min, 8 * n + 64):
        _insertion_sort(order[old:], key, x_min, fresh * fresh + 64)
        _merge_tail(order, old, key, x_min, spare)
        return
    if not (hinted and _insertion_sort(order, key, x_min, 8 * n + 64)):
        by_x = np.argsort(x_min[:n], kind="mergesort")
        by_row = np.argsort(key[by_x], kind="mergesort")
        for p in range(n):
            order[p] = by_x[by_row[p]]


@kernel("void(int64[::1], int64, int64[::1], float64[::1], int64[::1])", inline=True)
def _merge_tail(
    order: Int64Array, split: int, key: Int64Array, x: FloatArray, spare: Int64Array
) -> None:
    """Merge ``order[:split]`` and ``order[split:]``, each sorted by (key, x), in place
    (ties keep the first part first). The tail is set aside in ``spare`` and the merge
    runs from the end, so it stops where the tail's first entry goes: the entries
    before that stay where they are."""
    n = len(order)
    tail = n - split
    for t in range(tail):
        spare[t] = order[split + t]
    a = split - 1
    b = tail - 1
    w = n - 1
    while b >= 0:
        if a >= 0:
            ka, kb = order[a], spare[b]
            if key[ka] > key[kb] or (key[ka] == key[kb] and x[ka] > x[kb]):
                order[w] = ka
                a -= 1
            else:
                order[w] = kb
                b -= 1
        else:
            order[w] = spare[b]
            b -= 1
        w -= 1


@kernel(
    "int64(float64[::1], float64[::1], float64[::1], float64[::1], int64[::1], int64[::1],"
    " int64, float64, int64[::1], int64[::1], int64[::1])",
    inline=True,
)
def _small_pairs(
    sx0: FloatArray,
    sy0: FloatArray,
    sx1: FloatArray,
    sy1: FloatArray,
    srow: Int64Array,
    sr1: Int64Array,
    ns: int,
    two_w: float,
    order: Int64Array,
    out_i: Int64Array,
    out_j: Int64Array,
) -> int:
    """Pairs among the ``ns`` small boxes (sorted: ``s*`` hold their sides, first row and
    last row), each row swept in x against itself and the row above; returns the count."""
    cap = len(out_i)
    count = 0
    p = 0
    while p < ns:
        row = srow[p]
        end = p + 1
        while end < ns and srow[end] == row:
            end += 1
        up = end
        up_end = end
        if end < ns and srow[end] == row + 1:
            up_end = end + 1
            while up_end < ns and srow[up_end] == row + 1:
                up_end += 1
        for a in range(p, end):
            ax0 = sx0[a]
            ay0 = sy0[a]
            ax1 = sx1[a]
            ay1 = sy1[a]
            q = a + 1
            while q < end and sx0[q] <= ax1:
                if sy0[q] <= ay1 and ay0 <= sy1[q]:
                    if count < cap:
                        i = order[a]
                        j = order[q]
                        out_i[count] = min(i, j)
                        out_j[count] = max(i, j)
                    count += 1
                q += 1
            if up_end > end and sr1[a] > row:
                bound = ax0 - two_w
                while up < up_end and sx0[up] < bound:
                    up += 1
                q = up
                while q < up_end and sx0[q] <= ax1:
                    if ax0 <= sx1[q] and sy0[q] <= ay1 and ay0 <= sy1[q]:
                        if count < cap:
                            i = order[a]
                            j = order[q]
                            out_i[count] = min(i, j)
                            out_j[count] = max(i, j)
                        count += 1
                    q += 1
        p = end
    return count


@kernel(
    "int64(float64[:, ::1], float64[::1], float64[::1], float64[::1], float64[::1],"
    " int64[::1], int64[::1], int64[::1], int64[::1], int64, int64[::1], int64[::1], int64)",
    inline=True,
)
def _big_pairs(
    boxes: FloatArray,
    sx0: FloatArray,
    sy0: FloatArray,
    sx1: FloatArray,
    sy1: FloatArray,
    srow: Int64Array,
    r0: Int64Array,
    r1: Int64Array,
    order: Int64Array,
    ns: int,
    out_i: Int64Array,
    out_j: Int64Array,
    count: int,
) -> int:
    """Pairs of each big box (sorted after the ``ns`` small ones) with the small boxes of
    the rows it reaches and with the later big boxes; returns the count so far."""
    cap = len(out_i)
    n = boxes.shape[0]
    rows = srow[:ns]
    for g in range(ns, n):
        big = order[g]
        gx0 = boxes[big, 0]
        gy0 = boxes[big, 1]
        gx1 = boxes[big, 2]
        gy1 = boxes[big, 3]
        first = np.searchsorted(rows, r0[big] - 1, side="left")
        last = np.searchsorted(rows, r1[big], side="right")
        for q in range(first, last):
            if sx0[q] <= gx1 and gx0 <= sx1[q] and sy0[q] <= gy1 and gy0 <= sy1[q]:
                if count < cap:
                    j = order[q]
                    out_i[count] = min(big, j)
                    out_j[count] = max(big, j)
                count += 1
        for h in range(g + 1, n):
            other = order[h]
            if (
                boxes[other, 0] <= gx1
                and gx0 <= boxes[other, 2]
                and boxes[other, 1] <= gy1
                and gy0 <= boxes[other, 3]
            ):
                if count < cap:
                    out_i[count] = min(big, other)
                    out_j[count] = max(big, other)
                count += 1
    return count


@kernel(
    "void(float64[:, ::1], float64, float64, int64, boolean, int64, int64[::1],"
    " float64[:, ::1], int64[:, ::1], int64[::1], int64[::1], int64[::1])"
)
def _sweep(
    boxes: FloatArray,
    inv_h: float,
    wide: float,
    max_big: int,
    hinted: bool,
    fresh: int,
    order: Int64Array,
    fwork: FloatArray,
    iwork: Int64Array,
    out_i: Int64Array,
    out_j: Int64Array,
    info: Int64Array,
) -> None:
    """Pairs of overlapping ``boxes`` into ``out_i``/``out_j`` (original indices, i < j).

    ``order`` is last call's sort order when ``hinted`` (any permutation works; its last
    ``fresh`` entries are rows new since), and holds this call's order on return.
    ``info`` receives the pair count (which may exceed ``len(out_i)``: then only the
    first ``len(out_i)`` were written and the caller runs again with more room) and the
    number of big boxes. With more than ``max_big`` big boxes (if ``max_big >= 0``) it
    stops before sorting, with a count of -1 (and ``order`` unchanged): big boxes are
    tested against whole rows and each other, which a stale row height could make cost
    a hundred ordinary calls.
    """
    n = boxes.shape[0]
    r0 = iwork[0]
    r1 = iwork[1]
    key = iwork[2]
    widest = _row_keys(boxes, inv_h, wide, r0, r1, key, info)
    nbig = info[1]
    if 0 <= max_big < nbig:
        info[0] = -1
        return
    _sort_boxes(boxes, key, hinted, order, fwork[0], fresh, iwork[3])
    sx0 = fwork[0]
    sy0 = fwork[1]
    sx1 = fwork[2]
    sy1 = fwork[3]
    srow = iwork[3]
    sr1 = iwork[4]
    for p in range(n):
        k = order[p]
        sx0[p] = boxes[k, 0]
        sy0[p] = boxes[k, 1]
        sx1[p] = boxes[k, 2]
        sy1[p] = boxes[k, 3]
        srow[p] = key[k]
        sr1[p] = r1[k]
    ns = n - nbig
    count = _small_pairs(sx0, sy0, sx1, sy1, srow, sr1, ns, 2.0 * widest, order, out_i, out_j)
    info[0] = _big_pairs(
        boxes, sx0, sy0, sx1, sy1, srow, r0, r1, order, ns, out_i, out_j, count
    )
    info[1] = nbig


def sweep_pairs(
    boxes: FloatArray,
    row_height: float,
    wide: float,
    order: Int64Array | None,
    work: WorkArrays,
    max_big: int = -1,
    fresh: int = 0,
) -> tuple[Int64Array, Int64Array, Int64Array, int] | None:
    """Overlapping pairs ``i < j`` of ``boxes``, this call's sort order, and the number of
    big boxes; None when more than ``max_big`` boxes are big.

    Args:
        boxes: ``(N, 4)`` C-contiguous float64 rows ``(min_x, min_y, max_x, max_y)``,
            finite, ``min <= max``, ``N >= 2``.
        row_height: Row height ``h``, positive and finite (any value gives the same
            pairs; boxes taller than about ``h`` are big).
        wide: Boxes wider than this are big (any value gives the same pairs).
        order: Last call's order for the same boxes, or None; any permutation of
            ``range(N)`` is valid, a stale one only sorts slower.
        work: Work arrays kept between calls.
        max_big: Give up (return None, after one pass over the boxes) when more boxes
            than this are big, so the caller can pick rows that suit the boxes first;
            negative: no limit.
        fresh: How many of ``order``'s last entries are boxes added since it was
            sorted (they are sorted apart and merged in).

    Returns:
        ``(i, j, order, big)``: int64 pair arrays (in an order that depends only on the
        input), the new sort order to pass next time, and how many boxes were big. The
        order is held in ``work`` (passed back, it is used in place, not copied): it
        changes with the next call on the same work arrays. None when ``max_big`` was
        exceeded; ``order`` is then left as it was.

    >>> boxes = np.array([[0, 0, 2, 2], [2, 0, 4, 2], [5, 5, 6, 6]], dtype=float)
    >>> i, j, _, big = sweep_pairs(boxes, 2.0, 2.0, None, WorkArrays())  # touching at x == 2
    >>> i.tolist(), j.tolist(), big
    ([0], [1], 0)
    """
    n = len(boxes)
    hinted = order is not None and len(order) == n
    kept = work.get("order", (n,), np.int64)
    if hinted and not np.may_share_memory(order, kept):
        kept[:] = order
    fwork = work.get("fwork", (4 * n,), np.float64).reshape(4, n)
    iwork = work.get("iwork", (5 * n,), np.int64).reshape(5, n)
    info = work.get("info", (2,), np.int64)
    capacity = 2 * n + 64
    while True:
        out_i = work.get("out_i", (capacity,), np.int64)
        out_j = work.get("out_j", (capacity,), np.int64)
        # Coordinates near the float range overflow to infinity in the row number; the
        # loops clip them silently, and so must the same loops run uncompiled.
        with np.errstate(over="ignore", invalid="ignore"):
            _sweep(
                boxes, 1.0 / row_height, wide, max_big, hinted, fresh, kept, fwork, iwork,
                out_i, out_j, info,
            )  # fmt: skip
        count = int(info[0])
        if count < 0:
            return None
        if count <= capacity:
            break
        capacity = count
        hinted = True  # the order just computed is exact for these boxes
        fresh = 0
    return out_i[:count].copy(), out_j[:count].copy(), kept, int(info[1])

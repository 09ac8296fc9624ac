"""Broad phase for boxes of which a few move each tick: a hashed grid of enlarged boxes,
updated in place.

:class:`LooseGrid` keeps every item (a table row) in the cells of a *fat* box: its box
pushed out by a margin. An item that moves stays where it is until its box leaves its
fat box; only then is it taken out of its cells and put in again, so an update costs
what moved, whatever the size of the world (Box2D's dynamic tree does the same with its
enlarged AABBs and move buffer). A fat box made then reaches further the way the item
went, as Box2D's stretch along the displacement. Cells are hashed into a fixed table
of buckets, each a doubly linked list of entries, so the grid has no bounds. A query
visits the cells under a box and tests the current boxes of the items listed there; a
pair found in several shared cells is reported once, in the cell holding the lower-left
corner of the overlap of the two cell ranges.

Each item also keeps the list of its *partners*, made for every item when the grid is
built (in the cells' order, so that neighbours' rows are read close together): the items
whose fat box meets its own (Box2D keeps the same pairs of enlarged boxes). While an
item stays within its fat box, its query reads that list instead of the grid's cells:
one short row instead of a walk of linked entries. When an item is put in again, it is
taken out of its partners' lists and put in the lists of its new ones. A list that
would outgrow its row is given up until the item is put in again (its queries walk the
cells). Items spanning many cells are kept in a list of their own and tested against
every query (Ericson, *Real-Time Collision Detection*, 7.1.3 and 7.2).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.compiled import kernel, prefetch

Int64Array = NDArray[np.int64]

BIG_CELLS = 64
"""Items whose fat box spans more cells than this go in the big list."""

_LIMIT = 2.0**30
"""Cell coordinates are clipped to this magnitude (boxes far out share edge cells)."""


@kernel("int64(float64, float64)", inline=True)
def _cell(v: float, inv: float) -> int:
    """The cell coordinate of ``v``, clipped (NaN to 0)."""
    f = math.floor(v * inv)
    if not f > -_LIMIT:
        return 0 if f != f else int(-_LIMIT)
    return int(min(f, _LIMIT))


@kernel("int64(int64, int64, int64)", inline=True)
def _bucket(x: int, y: int, mask: int) -> int:
    """The bucket of cell ``(x, y)``: rows of cells hashed, cells of a row side by side,
    so that a box's cells along x share cache lines of the bucket heads."""
    return (y * 0x9E3779B1 + x) & mask


_STATE = (
    "float64[:, ::1], boolean[::1], int32[::1], int32[:, ::1], int32[:, ::1], int32[::1],"
    " int32[::1]"
)
"""Types of the grid's arrays, in the order :func:`_put` takes them: fat boxes, big
flags, bucket heads, entries, entry links, each item's first entry, free entries. Entry
numbers are int32: the grid is read at random, so it is kept small."""

STRETCH = 1.0
"""How far an item put in again has its fat box stretched the way it moved, as a
multiple of how far its box had moved from the old fat box's centre."""

STRETCH_LIMIT = 2.0
"""The most that stretch reaches along each axis, in margins (an item moved on steadily
settles there)."""

PARTNERS = 15
"""Partners an item's list holds (a row of 16 int32 with its count: 64 bytes)."""

_GIVEN_UP = -2
"""An item's partner count when its list outgrew its row (made again when it is put in
again)."""

_UNLIST, _LINK, _LEARN = 0, 1, 2
"""What :func:`_put` does with each partner an item's walk of the cells finds: take the
item out of the partner's list; put each in the other's list; put the partner in the
item's list only."""


@kernel("boolean(float64[:, ::1], int64, int64)", inline=True)
def _rows_overlap(boxes: FloatArray, a: int, b: int) -> bool:
    """Whether the closed boxes ``boxes[a]`` and ``boxes[b]`` overlap or touch (read as
    numbers: a row taken as an array would be counted as a reference)."""
    return bool(
        boxes[a, 0] <= boxes[b, 2]
        and boxes[b, 0] <= boxes[a, 2]
        and boxes[a, 1] <= boxes[b, 3]
        and boxes[b, 1] <= boxes[a, 3]
    )


@kernel("boolean(float64[:, ::1], float64[:, ::1], int64)", inline=True)
def _inside(boxes: FloatArray, fat: FloatArray, item: int) -> bool:
    """Whether ``boxes[item]`` lies within the fat box ``fat[item]`` (edges included)."""
    return bool(
        fat[item, 0] <= boxes[item, 0]
        and fat[item, 1] <= boxes[item, 1]
        and boxes[item, 2] <= fat[item, 2]
        and boxes[item, 3] <= fat[item, 3]
    )


@kernel("void(int64, int64, int32[:, ::1])", inline=True)
def _unlist(a: int, b: int, partners: NDArray[np.int32]) -> None:
    """Take ``b`` out of item ``a``'s partner list (when ``a`` has one)."""
    count = partners[a, 0]
    for k in range(1, count + 1):
        if partners[a, k] == b:
            partners[a, k] = partners[a, count]
            partners[a, 0] = count - 1
            return


@kernel("void(int64, int64, int32[:, ::1])", inline=True)
def _list(a: int, b: int, partners: NDArray[np.int32]) -> None:
    """Put ``b`` in item ``a``'s partner list (when ``a`` has one); a list that would
    outgrow its row is given up."""
    count = partners[a, 0]
    if count < 0:
        return
    if count + 1 >= partners.shape[1]:
        partners[a, 0] = _GIVEN_UP
        return
    partners[a, count + 1] = b
    partners[a, 0] = count + 1


@kernel(
    f"int64(int64[::1], boolean, float64[:, ::1], float64, float64, int32[:, ::1], {_STATE})"
)
def _put(
    items: Int64Array,
    everything: bool,
    boxes: FloatArray,
    margin: float,
    inv: float,
    partners: NDArray[np.int32],
    fat: FloatArray,
    big: BoolArray,
    head: NDArray[np.int32],
    entries: NDArray[np.int32],
    links: NDArray[np.int32],
    first: NDArray[np.int32],
    free: NDArray[np.int32],
) -> int:
    """Move each of ``items`` whose box left its fat box, and its partner lists; or,
    when ``everything``, put every item in, in the order ``items`` (on empty buckets),
    then make every item's partner list. Return how many big items changed (0 when
    ``everything``; a negative count: the entries ran out, rebuild).

    What a query reads of a cell entry ``e`` is packed in ``entries[e]``: its item, the
    next entry in its bucket, its cell's coordinates and whether that cell starts the
    item's range (bit 0 along x, bit 1 along y). ``links[e]`` holds what updates need:
    the previous entry in the bucket (``-2 - bucket`` for the first) and the item's
    next entry. ``free[0]`` counts the free entries listed in ``free[1:]``. Each step
    below is a closure over these arrays, not a kernel taking them: kernels handed
    them paid a reference count on each array at every call."""

    def insert(item: int, ahead_x: float, ahead_y: float) -> bool:
        """Put ``item`` in the cells of its box pushed out by ``margin``, and further by
        ``(ahead_x, ahead_y)`` on the sides that vector points to; False (nothing
        changed) when the entries ran out."""
        fat[item, 0] = boxes[item, 0] - margin + min(ahead_x, 0.0)
        fat[item, 1] = boxes[item, 1] - margin + min(ahead_y, 0.0)
        fat[item, 2] = boxes[item, 2] + margin + max(ahead_x, 0.0)
        fat[item, 3] = boxes[item, 3] + margin + max(ahead_y, 0.0)
        x0, y0 = _cell(fat[item, 0], inv), _cell(fat[item, 1], inv)
        x1, y1 = _cell(fat[item, 2], inv), _cell(fat[item, 3], inv)
        first[item] = -1
        cells = (x1 - x0 + 1) * (y1 - y0 + 1)
        big[item] = cells > BIG_CELLS
        if big[item]:
            return True
        if free[0] < cells:
            return False
        mask = len(head) - 1
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                e = free[free[0]]
                free[0] -= 1
                b = _bucket(x, y, mask)
                top = head[b]
                entries[e, 0] = item
                entries[e, 1] = top
                entries[e, 2] = x
                entries[e, 3] = y
                entries[e, 4] = (x == x0) + 2 * (y == y0)
                links[e, 0] = -2 - b
                links[e, 1] = first[item]
                if top >= 0:
                    links[top, 0] = e
                head[b] = e
                first[item] = e
        return True

    def remove(item: int) -> None:
        """Take ``item`` out of its cells."""
        e = first[item]
        while e >= 0:
            after, before = entries[e, 1], links[e, 0]
            if before >= 0:
                entries[before, 1] = after
            else:
                head[-2 - before] = after
            if after >= 0:
                links[after, 0] = before
            free[0] += 1
            free[free[0]] = e
            e = links[e, 1]
        first[item] = -1

    def visit(item: int, how: int) -> None:
        """For each other item in the cells whose fat box meets ``fat[item]`` (each
        once, as in :func:`_pairs`), do ``how`` (:data:`_UNLIST`, :data:`_LINK` or
        :data:`_LEARN`) with it."""
        x0, y0 = _cell(fat[item, 0], inv), _cell(fat[item, 1], inv)
        x1, y1 = _cell(fat[item, 2], inv), _cell(fat[item, 3], inv)
        mask = len(head) - 1
        wide = (x1 - x0 + 1) * (y1 - y0 + 1) > 4 * BIG_CELLS
        for y in range(y0, y0 + 1 if wide else y1 + 1):
            for x in range(x0, x0 + 1 if wide else x1 + 1):
                e = -1 if wide else head[_bucket(x, y, mask)]
                s = -1
                while True:
                    if wide:  # a box bigger than most of the grid: every item once
                        s += 1
                        if s == len(fat):
                            break
                        if big[s]:
                            continue
                    elif e < 0:
                        break
                    else:
                        s, flags = entries[e, 0], entries[e, 4]
                        here = entries[e, 2] == x and entries[e, 3] == y
                        e = entries[e, 1]
                        if not here or not (x == x0 or flags & 1) or not (y == y0 or flags & 2):
                            continue
                    if s == item or not _rows_overlap(fat, item, s):
                        continue
                    if how == _UNLIST:
                        _unlist(s, item, partners)
                    else:
                        _list(item, s, partners)
                        if how == _LINK:
                            _list(s, item, partners)

    if everything:
        for item in items:
            if not insert(item, 0.0, 0.0):
                return -1
        # Every list is made here, in the cells' order: a walk of the cells at an
        # item's first query instead would read cold memory in the middle of a tick.
        for item in items:
            if big[item]:
                partners[item, 0] = _GIVEN_UP
            else:
                partners[item, 0] = 0
                visit(item, _LEARN)
        return 0
    changed_big = 0
    # The moved items are spread over the grid (see _pairs): their boxes are
    # prefetched, then what a move out of its fat box reads of those that left it.
    for item in items:
        prefetch(boxes, item)
        prefetch(fat, item)
    for item in items:
        if not _inside(boxes, fat, item):
            prefetch(partners, item)
            prefetch(first, item)
            for k in range(1, partners[item, 0] + 1):
                prefetch(partners, partners[item, k])
    for item in items:
        if not big[item] and _inside(boxes, fat, item):
            continue
        was_big = big[item]
        if not was_big:  # (a big item is in no list)
            count = partners[item, 0]
            for k in range(1, count + 1):
                _unlist(partners[item, k], item, partners)
            if count < 0:  # no list of its own: the lists it is in are found again
                visit(item, _UNLIST)
        # The fat box made here is stretched on the sides the box lies towards from
        # the current fat box's centre (at most STRETCH_LIMIT margins), so that an item
        # that keeps moving one way stays inside it for longer.
        reach = STRETCH_LIMIT * margin  # (an item that jumped far gets no more)
        ahead_x = (
            STRETCH * 0.5 * ((boxes[item, 0] + boxes[item, 2]) - (fat[item, 0] + fat[item, 2]))
        )
        ahead_y = (
            STRETCH * 0.5 * ((boxes[item, 1] + boxes[item, 3]) - (fat[item, 1] + fat[item, 3]))
        )
        ahead_x = min(max(ahead_x, -reach), reach)
        ahead_y = min(max(ahead_y, -reach), reach)
        remove(item)
        partners[item, 0] = 0
        if not insert(item, ahead_x, ahead_y):
            return -1
        if big[item]:
            partners[item, 0] = _GIVEN_UP
        else:
            visit(item, _LINK)
        if was_big or big[item]:
            changed_big += 1
    return changed_big


@kernel(
    "int64(int64[::1], float64[:, ::1], float64, int64[::1], int32[::1], int32[:, ::1],"
    " boolean[::1], boolean[::1], float64[:, ::1], boolean[::1], int32[:, ::1], int64[::1],"
    " int64[::1])"
)
def _pairs(
    queries: Int64Array,
    boxes: FloatArray,
    inv: float,
    bigs: Int64Array,
    head: NDArray[np.int32],
    entries: NDArray[np.int32],
    moved: BoolArray,
    static: BoolArray,
    fat: FloatArray,
    big: BoolArray,
    partners: NDArray[np.int32],
    out_i: Int64Array,
    out_j: Int64Array,
) -> int:
    """Pairs ``(min, max)`` of a query item and an item whose boxes overlap, written
    while there is room; returns how many there are. A pair of two queried items that
    both moved is reported by the lower one's query only; two static items never pair.
    A query item with a partner list reads it; the others walk the cells."""

    # A closure over the arrays, not a kernel taking them: handed the arrays, the
    # helper paid a reference count on each at every call, more than the test itself.
    def offer(q: int, s: int, m: int) -> int:
        """``m`` plus one if the pair of query ``q`` and item ``s`` is this query's to
        report (written while there is room)."""
        if s == q or not _rows_overlap(boxes, q, s):
            return m
        if (moved[s] and s < q) or (static[q] and static[s]):
            return m
        if m < len(out_i):
            out_i[m], out_j[m] = min(q, s), max(q, s)
        return m + 1

    n = len(boxes)
    m = 0
    mask = len(head) - 1
    # The queries are spread over the grid, each a few cache misses away from the
    # last: their rows are prefetched, then their partners' boxes, so that many
    # misses are in flight at once before the loop below waits on them.
    for q in queries:
        prefetch(partners, q)
        prefetch(boxes, q)
    for q in queries:
        for k in range(1, partners[q, 0] + 1):
            prefetch(boxes, partners[q, k])
    for q in queries:
        if partners[q, 0] >= 0:
            for k in range(1, partners[q, 0] + 1):
                m = offer(q, partners[q, k], m)
            for s in bigs:
                m = offer(q, s, m)
            continue
        x0, y0 = _cell(boxes[q, 0], inv), _cell(boxes[q, 1], inv)
        x1, y1 = _cell(boxes[q, 2], inv), _cell(boxes[q, 3], inv)
        if (x1 - x0 + 1) * (y1 - y0 + 1) > 4 * BIG_CELLS:
            # A query bigger than most of the grid: test every item once.
            for s in range(n):
                m = offer(q, s, m)
            continue
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                e = head[_bucket(x, y, mask)]
                while e >= 0:
                    s, flags = entries[e, 0], entries[e, 4]
                    here = entries[e, 2] == x and entries[e, 3] == y
                    e = entries[e, 1]
                    # An entry of this cell (not only of its bucket), in the cell where
                    # the two ranges' overlap starts: the query's first column or the
                    # item's, and likewise for rows.
                    if not here or not (x == x0 or flags & 1) or not (y == y0 or flags & 2):
                        continue
                    m = offer(q, s, m)
        for s in bigs:
            m = offer(q, s, m)
    return m


class LooseGrid:
    """Items' boxes in hashed cells of enlarged boxes (see the module docstring).

    Args:
        boxes: ``(N, 4)`` C-contiguous float64 rows ``(min_x, min_y, max_x, max_y)``,
            finite, ``min <= max``: item ``k``'s box. Kept by reference: the caller
            writes moved items' boxes there, then calls :meth:`update`.

    >>> boxes = np.array([[0, 0, 2, 2], [5, 0, 7, 2], [20, 20, 22, 22.0]])
    >>> grid = LooseGrid(boxes)
    >>> boxes[1] = (2, 0, 4, 2)  # item 1 moves to touch item 0
    >>> grid.update(np.array([1]))
    >>> moved = np.array([False, True, False])
    >>> i, j = grid.pairs(np.array([1]), moved, np.zeros(3, dtype=bool))
    >>> list(zip(i.tolist(), j.tolist()))
    [(0, 1)]
    """

    def __init__(self, boxes: FloatArray) -> None:
        self.boxes = boxes
        n = len(boxes)
        if n:
            sizes = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
            size = float(np.median(sizes))
        else:
            size = 1.0
        if not (size > 0.0 and math.isfinite(size)):
            size = 1.0
        self.margin = 0.25 * size
        """How far a box may move out from where it was put before it is put again."""
        self._inv = 1.0 / (size + 2.0 * self.margin)
        self._fat = np.empty((n, 4))
        self._big = np.zeros(n, dtype=np.bool_)
        self._first = np.full(n, -1, dtype=np.int32)
        self._partners = np.empty((n, PARTNERS + 1), dtype=np.int32)
        """Row ``k``: item ``k``'s partner count (or :data:`_GIVEN_UP`), then
        its partners."""
        self._head = np.full(1 << max(4, int(2 * n).bit_length()), -1, dtype=np.int32)
        self._build(4 * n + 64)
        self._room = 64

    def _build(self, entries: int) -> None:
        """Put every item in, with room for ``entries`` cell entries (more if needed).

        Items go in row of cells by row, along x within a row, so that the entries of
        neighbouring cells lie close together in memory: a query's walk over a few cells
        then reads a few cache lines, not one per entry."""
        with np.errstate(invalid="ignore", over="ignore"):
            cells = np.floor((self.boxes[:, :2] - self.margin) * self._inv)
        order = np.lexsort((cells[:, 0], cells[:, 1])).astype(np.int64)
        while True:
            self._head[:] = -1
            self._entries = np.empty((entries, 5), dtype=np.int32)
            self._links = np.empty((entries, 2), dtype=np.int32)
            self._free = np.arange(-1, entries, dtype=np.int32)
            self._free[0] = entries
            grid = (order, True, self.boxes, self.margin, self._inv, self._partners)
            if _put(*grid, *self._state()) >= 0:
                break
            entries *= 2
        self._bigs = np.flatnonzero(self._big)

    def _state(self) -> tuple[Any, ...]:
        """The arrays :func:`_put` takes, in its order (see :data:`_STATE`)."""
        return (
            self._fat, self._big, self._head, self._entries, self._links, self._first,
            self._free,
        )  # fmt: skip

    def update(self, items: Int64Array) -> None:
        """Follow the boxes of ``items`` (int64), which the caller changed."""
        grid = (items, False, self.boxes, self.margin, self._inv, self._partners)
        changed = _put(*grid, *self._state())
        if changed < 0:
            self._build(2 * len(self._links))
        elif changed:
            self._bigs = np.flatnonzero(self._big)

    def pairs(
        self, queries: Int64Array, moved: BoolArray, static: BoolArray
    ) -> tuple[Int64Array, Int64Array]:
        """Pairs ``(i, j)``, ``i < j``, of a query item and an item whose boxes overlap
        or touch, each once: a pair of two items flagged ``moved`` is found from the
        lower one only when both are queried; two items flagged ``static`` never pair.
        Pass every moved item in ``queries``."""
        while True:
            out_i = np.empty(self._room, dtype=np.int64)
            out_j = np.empty(self._room, dtype=np.int64)
            m = _pairs(
                queries, self.boxes, self._inv, self._bigs, self._head, self._entries,
                moved, static, self._fat, self._big, self._partners, out_i, out_j,
            )  # fmt: skip
            if m <= self._room:
                return out_i[:m], out_j[:m]
            self._room = 2 * m

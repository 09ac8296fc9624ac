"""Stage 2, broad phase: reads the shape table's boxes, writes candidate pairs of table rows.

A candidate pair is two rows whose bounding boxes overlap or touch (each pair once,
``i < j``). The boxes are padded by the table's coordinate slack, so every pair the
exact tests could find touching is offered.

Only pairs with a row that moved are offered. When the table says which rows it placed
since the last tick, and they are the rows that moved the tick before, they are swept
against each other by the compiled row sweep
(:class:`~arcade_collide.geometry.broad_phase.SweepBroadPhase`, which keeps its rows and
sort order from tick to tick, also across a change of layout) and queried against a
:class:`~arcade_collide.geometry.static_grid.StaticGrid` of the other rows, built again
when the moving set changes. When different rows move from tick to tick (sprites the
game moves by hand here and there), a
:class:`~arcade_collide.geometry.loose_grid.LooseGrid` of every row follows them and
finds their pairs. Either way the pairs of rows that did not move carry over from the
last tick (:attr:`BroadPhase.moved`). When the table cannot say (most rows moved),
every non-static row is swept and queried against a grid of the static rows, built
again only when those change. Two static shapes are never paired.

When every row that moved is a swept shape that moved (bullets), the swept stage has
already paired each with every row its motion swept over
(:class:`~arcade_collide.ecs.swept.SweptCandidates`): those pairs whose boxes overlap
where the tick ends are the candidates, without a sweep or grid query of their own.

Whenever the rows that do not move are the static rows, their grid is the one the
world's queries and swept shapes use (:meth:`~.queries.QueryIndex.static_grid`): one
copy of a large level in memory, and the swept stage's query of it leaves the cells
this stage reads in the cache.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from arcade_collide.ecs.layout import kept_numbers
from arcade_collide.ecs.swept import SweptCandidates
from arcade_collide.ecs.table import ShapeTable
from arcade_collide.geometry.arrays import BoolArray, FloatArray, IntArray
from arcade_collide.geometry.broad_phase import SweepBroadPhase
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.loose_grid import LooseGrid
from arcade_collide.geometry.static_grid import StaticGrid

StaticRows = Callable[[], tuple[StaticGrid, IntArray]]
"""A grid of the table's static rows' boxes, and those rows ascending (grid box ``s``
is table row ``rows[s]``): :meth:`~.queries.QueryIndex.static_grid`."""


class BroadPhase:
    """The candidate pairs of one world's shape table, tick after tick."""

    def __init__(self) -> None:
        self._sweep = SweepBroadPhase()
        self._grid: tuple[tuple[int, int, bytes | None], StaticGrid, IntArray] | None = None
        self._seen = (-1, -1)
        self._loose: LooseGrid | None = None
        self._moving_set: bytes | None = None
        self._dynamic: IntArray = np.empty(0, dtype=np.int64)
        self._sweeps_dynamic = False
        """Whether the sweep last ran on every non-static row (numbered among those)."""
        self.moved: BoolArray | None = None
        """Per table row, whether it moved since the previous call (None: take every
        row as moved; then no pair carries over)."""

    def candidates(
        self,
        table: ShapeTable,
        static: StaticRows | None = None,
        met: SweptCandidates | None = None,
    ) -> tuple[IntArray, IntArray]:
        """Row pairs ``(i[k], j[k])``, ``i < j``, whose boxes in ``table`` overlap, at
        least one of which moved, and not both static. ``static`` gives the grid of
        ``table``'s static rows when it is shared (else this stage builds its own);
        ``met``, the swept stage's candidates of this tick (used while the table is as
        it was when they were found: no shape stopped or pushed since)."""
        moved_rows = None
        if self._seen[0] == table.layout:
            moved_rows = table.moved_since(self._seen[1])
        elif self._seen[0] == table.layout - 1:
            self._renumber(table)
        dynamic = self._dynamic = table.dynamic_rows
        self._seen = (table.layout, table.revision)
        if moved_rows is not None and np.array_equal(moved_rows, dynamic):
            moved_rows = None  # every non-static row moved: no pair carries over
        movers = dynamic if moved_rows is None else moved_rows
        if (
            met is not None
            and (met.layout, met.revision) == (table.layout, table.revision)
            and _all_swept(movers, met.rows, table.static)
        ):
            self.moved = None
            if moved_rows is not None:
                self.moved = np.zeros(len(table.entities), dtype=np.bool_)
                self.moved[moved_rows] = True
            # The loose grid would miss this tick's moves; the sweep's kept order is
            # only where its next sort starts.
            self._loose = self._moving_set = None
            self._sweeps_dynamic = False
            return _overlapping(table.aabbs, met.a, met.b, table.static)
        if moved_rows is not None:
            self.moved = np.zeros(len(table.entities), dtype=np.bool_)
            self.moved[moved_rows] = True
            moving_set = moved_rows.tobytes()
            stable, self._moving_set = moving_set == self._moving_set, moving_set
            loose = self._loose
            if loose is not None and loose.boxes is not table.aabbs:
                loose = self._loose = None
            if stable:
                # The same rows keep moving: sweep them, and query a grid of the others
                # (the loose grid is dropped rather than kept up to date at each tick).
                self._loose = None
                self._sweeps_dynamic = False
                key = (table.layout, table.static_revision, moving_set)
                return self._swept(table, moved_rows, key, static)
            # Rows moved here and there: the loose grid follows them and finds their pairs.
            if self._grid is not None and self._grid[0][2] is not None:
                self._grid = None  # a grid of still rows, some of which moved now
            if loose is None:
                loose = self._loose = LooseGrid(table.aabbs)
            else:
                loose.update(moved_rows)
            return loose.pairs(moved_rows, self.moved, table.static)
        self._loose = None  # not told which rows move from here on
        self._moving_set = None
        self.moved = None
        self._sweeps_dynamic = True
        if not table.has_static:
            return self._sweep.pairs(table.aabbs)
        still_key = (table.layout, table.static_revision, None)
        return self._swept(table, dynamic, still_key, static)

    def _swept(
        self,
        table: ShapeTable,
        moving: IntArray,
        key: tuple[int, int, bytes | None],
        static: StaticRows | None,
    ) -> tuple[IntArray, IntArray]:
        """The pairs of the ``moving`` rows: swept against each other, and queried
        against a grid of the others (the static rows, when ``key`` names no moving set),
        ``static``'s when they are the static rows, else one built again when ``key``
        changes."""
        if static is not None and (key[2] is None or np.array_equal(moving, table.dynamic_rows)):
            self._grid = None  # the shared grid holds the same rows
            grid, still = static()
        else:
            if self._grid is None or self._grid[0] != key:
                still = table.static_rows
                if key[2] is not None:
                    n = len(table.entities)
                    still = np.setdiff1d(np.arange(n), moving, assume_unique=True)
                self._grid = (key, StaticGrid(table.aabbs[still]), still)
            _, grid, still = self._grid
        boxes = table.aabbs[moving]
        i, j = self._sweep.pairs(boxes)
        q, s = grid.pairs(boxes)
        a = np.concatenate([moving[i], moving[q]])
        b = np.concatenate([moving[j], still[s]])
        if key[2] is not None and table.has_static:  # a static row moved by hand
            keep = ~(table.static[a] & table.static[b])
            a, b = a[keep], b[keep]
        return np.minimum(a, b), np.maximum(a, b)

    def _renumber(self, table: ShapeTable) -> None:
        """Carry the sweep's sort order over the table's last change of layout (only
        some rows came or went), so it is not sorted afresh."""
        renumbered, reused = table.renumbered, table.reused_rows
        if renumbered is None and reused is None:
            return  # built afresh
        kept = self._grid
        if kept is not None and kept[0][1:] == (table.static_revision, None):
            # A grid of the static rows stays valid while they are the same shapes.
            if renumbered is None:  # only the reused rows hold other entities
                same = not table.static[reused].any() and (
                    kept[2] is table.static_rows or np.array_equal(kept[2], table.static_rows)
                )
            else:
                same = np.array_equal(renumbered[kept[2]], table.static_rows)
            if same:
                key = (table.layout, table.static_revision, None)
                self._grid = (key, kept[1], table.static_rows)
        if not self._sweeps_dynamic:
            # The sweep last ran on other boxes than the non-static rows (the moving
            # ones, or none while the swept stage found the pairs): no order to carry.
            self._sweep.forget()
            return
        if reused is not None and self._dynamic is table.dynamic_rows:
            # Newcomers took over rows in place and the same rows are non-static: the
            # sweep's numbers stay, and the reused ones among its rows are new boxes.
            if table.has_static:  # the sweep numbers the non-static rows among those
                dynamic = self._dynamic
                at = np.searchsorted(dynamic, reused)
                hit = at < len(dynamic)
                hit[hit] = dynamic[at[hit]] == reused[hit]
                reused = at[hit]
            self._sweep.reuse(reused)
            return
        if renumbered is None:  # rows reused, and which rows are non-static changed
            assert reused is not None  # (else returned above)
            renumbered = kept_numbers(reused, len(table.entities))
        if table.has_static or len(self._dynamic) != len(renumbered):
            # The sweep holds the non-static rows only: number them among those.
            now = renumbered[self._dynamic]
            at = np.searchsorted(table.dynamic_rows, now)
            hit = (now >= 0) & (at < len(table.dynamic_rows))
            hit[hit] = table.dynamic_rows[at[hit]] == now[hit]
            renumbered = np.where(hit, at, -1)
        self._sweep.renumber(renumbered, len(table.dynamic_rows))

    def touched(self, rows_i: IntArray, rows_j: IntArray) -> IntArray | None:
        """Positions of last tick's touching pairs ``(rows_i[k], rows_j[k])`` that have a
        row that moved, ascending; the others still touch without a test (None after a
        change of layout, or when most rows moved: every pair is tested again)."""
        if self.moved is None:
            return None
        return _moved_pairs(self.moved, rows_i, rows_j)


@kernel("boolean(int64[::1], int64[::1], boolean[::1])")
def _all_swept(movers: IntArray, swept: IntArray, static: BoolArray) -> bool:
    """Whether every row of ``movers`` is among the ``swept`` rows, none of which is
    static (a static one would be paired twice, once from each side)."""
    among = np.zeros(len(static), dtype=np.bool_)
    for row in swept:
        if static[row]:
            return False
        among[row] = True
    missing = 0
    for row in movers:
        missing += not among[row]
    return missing == 0


@kernel(
    "UniTuple(int64[::1], 2)(float64[:, ::1], int64[::1], int64[::1], boolean[::1])"
)
def _overlapping(
    aabbs: FloatArray, a: IntArray, b: IntArray, static: BoolArray
) -> tuple[IntArray, IntArray]:
    """The pairs ``(a[k], b[k])`` whose boxes overlap or touch, not both static and not
    a row with itself, as ``(lower, higher)`` rows, in one pass."""
    low = np.empty(len(a), dtype=np.int64)
    high = np.empty(len(a), dtype=np.int64)
    count = 0
    for k in range(len(a)):
        i = a[k]
        j = b[k]
        if i == j or (static[i] and static[j]):
            continue
        if (
            aabbs[i, 0] <= aabbs[j, 2]
            and aabbs[j, 0] <= aabbs[i, 2]
            and aabbs[i, 1] <= aabbs[j, 3]
            and aabbs[j, 1] <= aabbs[i, 3]
        ):
            low[count] = min(i, j)
            high[count] = max(i, j)
            count += 1
    return low[:count], high[:count]


@kernel("int64[::1](boolean[::1], int64[::1], int64[::1])")
def _moved_pairs(moved: BoolArray, rows_i: IntArray, rows_j: IntArray) -> IntArray:
    """The positions ``k`` where ``rows_i[k]`` or ``rows_j[k]`` ``moved``, ascending, in
    one pass (several numpy passes over the pairs cost more than a small tick's whole
    stage)."""
    out = np.empty(len(rows_i), dtype=np.int64)
    count = 0
    for k in range(len(rows_i)):
        if moved[rows_i[k]] or moved[rows_j[k]]:
            out[count] = k
            count += 1
    return out[:count]

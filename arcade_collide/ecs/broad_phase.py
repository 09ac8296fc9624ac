"""Stage 2, broad phase: reads the shape table's boxes, writes candidate pairs of table rows.

A candidate pair is two rows whose bounding boxes overlap or touch (each pair once,
``i < j``), never two static rows. The boxes are padded by the table's coordinate
slack, so every pair the exact tests could find touching is offered.

The moving (non-static) rows are paired with each other by the compiled row sweep
(:class:`~arcade_collide.geometry.broad_phase.SweepBroadPhase`, which keeps its rows and
sort order from tick to tick), and with the static rows through a
:class:`~arcade_collide.geometry.static_grid.StaticGrid` of the static boxes, built
again only when the table says they were written. So a level's tiles cost nothing per
tick beyond what the moving shapes touch.
"""

from __future__ import annotations

import numpy as np

from arcade_collide.ecs.table import ShapeTable
from arcade_collide.geometry.arrays import IntArray
from arcade_collide.geometry.broad_phase import SweepBroadPhase
from arcade_collide.geometry.static_grid import StaticGrid


class BroadPhase:
    """The candidate pairs of one world's shape table, tick after tick."""

    def __init__(self) -> None:
        self._sweep = SweepBroadPhase()
        self._grid: tuple[tuple[int, int], StaticGrid] | None = None

    def candidates(self, table: ShapeTable) -> tuple[IntArray, IntArray]:
        """Row pairs ``(i[k], j[k])``, ``i < j``, whose boxes in ``table`` overlap, except
        pairs of two static rows."""
        if not table.has_static:
            return self._sweep.pairs(table.aabbs)
        key = (table.layout, table.static_revision)
        if self._grid is None or self._grid[0] != key:
            self._grid = (key, StaticGrid(table.aabbs[table.static_rows]))
        moving = table.dynamic_rows
        boxes = table.aabbs[moving]
        i, j = self._sweep.pairs(boxes)
        q, s = self._grid[1].pairs(boxes)
        a = np.concatenate([moving[i], moving[q]])
        b = np.concatenate([moving[j], table.static_rows[s]])
        return np.minimum(a, b), np.maximum(a, b)

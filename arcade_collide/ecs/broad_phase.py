"""Stage 2, broad phase: reads the shape table's boxes, writes candidate pairs of table rows.

A candidate pair is two rows whose bounding boxes overlap or touch (each pair once,
``i < j``, so the lower row is the lower shape kind: rows are grouped by kind). The
boxes are padded by the table's coordinate slack, so every pair the exact tests could
find touching is offered. The pairs come from the compiled row sweep
(:class:`~arcade_collide.geometry.broad_phase.SweepBroadPhase`), which keeps its rows
and sort order from tick to tick.
"""

from __future__ import annotations

from arcade_collide.ecs.table import ShapeTable
from arcade_collide.geometry.arrays import IntArray
from arcade_collide.geometry.broad_phase import SweepBroadPhase


class BroadPhase:
    """The candidate pairs of one world's shape table, tick after tick."""

    def __init__(self) -> None:
        self._sweep = SweepBroadPhase()

    def candidates(self, table: ShapeTable) -> tuple[IntArray, IntArray]:
        """Row pairs ``(i[k], j[k])``, ``i < j``, whose boxes in ``table`` overlap."""
        return self._sweep.pairs(table.aabbs)

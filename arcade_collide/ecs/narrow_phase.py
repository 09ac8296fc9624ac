"""Stage 3, narrow phase: reads candidate pairs and the table, writes touching pairs, contacts.

Both calls go to the compiled pair kernels (:mod:`arcade_collide.geometry.query.rows`:
layer filter, pose circles, then the exact test). Contacts are computed only for the
pairs asked about: new pairs, and all pairs on ``CollisionSystem.contacts``.
"""

from __future__ import annotations

import numpy as np

from arcade_collide.ecs.table import ShapeTable
from arcade_collide.geometry.arrays import BoolArray, FloatArray, IntArray
from arcade_collide.geometry.query.rows import WorldRows, contacts_at, touching_rows

__all__ = ["WorldRows", "pair_contacts", "touching_pairs"]


def touching_pairs(table: ShapeTable, i: IntArray, j: IntArray) -> tuple[IntArray, IntArray]:
    """The candidate table-row pairs ``(i[k], j[k])`` whose shapes touch and may collide."""
    if not len(i):
        return i, j
    rows, pair_filter, circles = table.kernel_view()
    hit = touching_rows(i, j, rows, pair_filter, circles)
    return i[hit], j[hit]


def pair_contacts(
    rows: WorldRows, i: IntArray, j: IntArray, flip: BoolArray, at: IntArray | None = None
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Normals, depths and points of the touching table-row pairs ``(i[k], j[k])``, or
    of those at the positions ``at`` only, in one compiled call.

    Each normal points from side ``i`` to side ``j``, reversed where ``flip`` is True
    (so that it points from the lower entity id to the higher); no normal or point
    holds a negative zero (it compares equal to 0.0 but prints oddly).
    """
    at = np.arange(len(i), dtype=np.int64) if at is None else np.ascontiguousarray(at)
    normal, depth, point = np.empty((len(at), 2)), np.empty(len(at)), np.empty((len(at), 2))
    contacts_at(rows, i, j, flip, at, normal, depth, point)
    return normal, depth, point

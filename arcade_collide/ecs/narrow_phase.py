"""Stage 3, narrow phase: reads candidate pairs and the table, writes touching pairs, contacts.

Both calls go to the compiled pair kernels (:mod:`arcade_collide.geometry.query.rows`:
layer filter, pose circles, then the exact test). Contacts are computed only for the
pairs asked about: new pairs, and all pairs on ``CollisionSystem.contacts``.
"""

from __future__ import annotations

from arcade_collide.ecs.table import ShapeTable
from arcade_collide.geometry.arrays import BoolArray, FloatArray, IntArray
from arcade_collide.geometry.query.rows import WorldRows, contact_rows, touching_rows

__all__ = ["WorldRows", "pair_contacts", "touching_pairs"]


def touching_pairs(table: ShapeTable, i: IntArray, j: IntArray) -> tuple[IntArray, IntArray]:
    """The candidate table-row pairs ``(i[k], j[k])`` whose shapes touch and may collide."""
    if not len(i):
        return i, j
    rows, pair_filter, circles = table.kernel_view()
    hit = touching_rows(i, j, rows, pair_filter, circles)
    return i[hit], j[hit]


def pair_contacts(
    rows: WorldRows, i: IntArray, j: IntArray, flip: BoolArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Normals, depths and points of the touching table-row pairs ``(i[k], j[k])``.

    Each normal points from side ``i`` to side ``j``, reversed where ``flip`` is True
    (so that it points from the lower entity id to the higher).
    """
    _, normal, depth, point = contact_rows(i, j, rows)
    normal[flip] *= -1.0
    # A -0.0 (from the flip, or kept by a reduction) compares equal to 0.0 but prints
    # oddly: make every zero positive.
    normal += 0.0
    point += 0.0
    return normal, depth, point

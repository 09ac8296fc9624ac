"""Point against point: they collide only when their coordinates are equal.

Two points have no extent, so the only contact is coincidence. The contact
then has ``depth`` 0 and, since no direction is preferred, the fixed fallback
normal ``(1.0, 0.0)``.

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Point
>>> cases = [((1.0, 2.0), (1.0, 2.0, 45.0)), ((1.0, 2.0), (1.0, 2.5)), ((0.0, 0.0), (-0.0, 0.0))]
>>> a = b = Point()  # equal, apart, equal
>>> for pa, pb in cases: print(intersects(a, pa, b, pb), contact(a, pa, b, pb))
True Contact(normal=(1.0, 0.0), depth=0.0, point=(1.0, 2.0))
False None
True Contact(normal=(1.0, 0.0), depth=0.0, point=(0.0, 0.0))
"""

from __future__ import annotations

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import CONTACT, INTERSECTS, WorldRows, put


@kernel(INTERSECTS, inline=True)
def intersects_point_point(rows: WorldRows, a: int, b: int) -> bool:
    """Whether two points coincide (exact equality of world coordinates)."""
    return bool(
        rows.point_xy[a, 0] == rows.point_xy[b, 0] and rows.point_xy[a, 1] == rows.point_xy[b, 1]
    )


@kernel(CONTACT, inline=True)
def contact_point_point(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """Contact of two points: only when they coincide."""
    px = rows.point_xy[a, 0]
    py = rows.point_xy[a, 1]
    if px != rows.point_xy[b, 0] or py != rows.point_xy[b, 1]:
        return False
    put(out, 1.0, 0.0, 0.0, px, py)
    return True

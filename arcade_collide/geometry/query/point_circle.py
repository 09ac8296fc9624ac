"""Point against circle.

The point is in the closed disc when its squared distance to the centre is at
most ``r*r``. The contact pushes the circle off the point along the line from
the point through the centre: ``normal = (center - p) / |center - p|`` and
``depth = r - |center - p|``, so moving the circle by ``normal * depth`` brings
its boundary onto the point. A point exactly at the centre has no such
direction and gets the fixed fallback normal ``(1.0, 0.0)`` with depth ``r``; a point
closer than about 1e-145 keeps its exact direction (see ``kernel_base.unit``).

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Circle, Point
>>> cases = [((1.0, 0.0), (0, 0)), ((6.0, 0.0), (0, 0)), ((3.0, 4.0), (0, 0))]
>>> a, b = Point(), Circle(5)  # hit, miss, touching
>>> for pa, pb in cases: print(intersects(a, pa, b, pb), contact(a, pa, b, pb))
True Contact(normal=(-1.0, 0.0), depth=4.0, point=(3.0, 0.0))
False None
True Contact(normal=(-0.6, -0.8), depth=0.0, point=(3.0, 4.0))
"""

from __future__ import annotations

import math

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import (
    CONTACT,
    INTERSECTS,
    WorldRows,
    first_max,
    put,
    unit,
)


@kernel(INTERSECTS, inline=True)
def intersects_point_circle(rows: WorldRows, a: int, b: int) -> bool:
    """Whether the point lies in the closed disc."""
    dx = rows.circle_center[b, 0] - rows.point_xy[a, 0]
    dy = rows.circle_center[b, 1] - rows.point_xy[a, 1]
    r = rows.circle_radius[b]
    return bool(dx * dx + dy * dy <= r * r)


@kernel(CONTACT, inline=True)
def contact_point_circle(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """Contact of a point inside a circle (see the module docstring for conventions)."""
    px = rows.point_xy[a, 0]
    py = rows.point_xy[a, 1]
    dx = rows.circle_center[b, 0] - px
    dy = rows.circle_center[b, 1] - py
    r = rows.circle_radius[b]
    dist_sq = dx * dx + dy * dy
    if dist_sq > r * r:
        return False
    dist = math.sqrt(dist_sq)
    depth = first_max(r - dist, 0.0)
    nx = 1.0
    ny = 0.0
    if dx != 0.0 or dy != 0.0:
        nx, ny = unit(dx, dy)
    half = depth * 0.5
    put(out, nx, ny, depth, px - nx * half, py - ny * half)
    return True

"""Circle against circle: centre distance against the sum of the radii.

The boolean compares squared distances (no square root). The contact is
symmetric bit for bit: swapping the circles negates ``b - a`` exactly and every
other operation commutes, so ``contact(a, b) == contact(b, a).flipped()``.
Coincident centres have no direction; the normal is then ``(1.0, 0.0)`` when
``r_a <= r_b`` and ``(-1.0, 0.0)`` otherwise, which keeps the symmetry for
circles of different radii (two identical circles at one place get
``(1.0, 0.0)`` both ways).

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Circle
>>> cases = [((0, 0), (1.5, 0)), ((0, 0), (0, 3)), ((0, 0), (0, 2))]  # hit, miss, touching
>>> a = b = Circle(1)
>>> for pa, pb in cases: print(intersects(a, pa, b, pb), contact(a, pa, b, pb))
True Contact(normal=(1.0, 0.0), depth=0.5, point=(0.75, 0.0))
False None
True Contact(normal=(0.0, 1.0), depth=0.0, point=(0.0, 1.0))
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
def intersects_circle_circle(rows: WorldRows, a: int, b: int) -> bool:
    """True when the circles touch or overlap: ``|c_b - c_a|^2 <= (r_a + r_b)^2``."""
    dx = rows.circle_center[b, 0] - rows.circle_center[a, 0]
    dy = rows.circle_center[b, 1] - rows.circle_center[a, 1]
    rs = rows.circle_radius[a] + rows.circle_radius[b]
    return bool(dx * dx + dy * dy <= rs * rs)


@kernel(CONTACT, inline=True)
def contact_circle_circle(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """Contact of two circles, or None when they are apart."""
    cx = rows.circle_center[a, 0]
    cy = rows.circle_center[a, 1]
    r = rows.circle_radius[a]
    bx = rows.circle_center[b, 0]
    by = rows.circle_center[b, 1]
    rb = rows.circle_radius[b]
    dx = bx - cx
    dy = by - cy
    d2 = dx * dx + dy * dy
    rs = r + rb
    if d2 > rs * rs:
        return False
    d = math.sqrt(d2)
    if dx != 0.0 or dy != 0.0:
        nx, ny = unit(dx, dy)
    else:
        nx = 1.0 if r <= rb else -1.0
        ny = 0.0
    put(
        out,
        nx,
        ny,
        first_max(rs - d, 0.0),
        (cx + nx * r + (bx - nx * rb)) * 0.5,
        (cy + ny * r + (by - ny * rb)) * 0.5,
    )
    return True

"""Point against triangle.

The boolean is the point-in-triangle default method
(:data:`~arcade_collide.geometry.point_in_triangle.DEFAULT_POINT_IN_TRIANGLE_METHOD`),
so touching counts and either winding works.

Contact: the nearest edge wins. Edges are numbered 0 = a->b, 1 = b->c,
2 = c->a in the order the triangle was given; equally near edges break to the
lowest number. The distance to edge ``i`` is ``|2 * area(P, start, end)| /
|edge|``; ``normal`` is minus that edge's outward normal and ``depth`` the
distance, so moving the triangle by ``normal * depth`` brings that edge onto
the point.

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Point, Triangle
>>> cases = [((1.0, 0.5), (0, 0)), ((1.0, 1.0), (0, 0, 180)), ((0.0, 2.0), (0, 0))]
>>> a, b = Point(), Triangle((0, 0), (4, 0), (0, 4))  # hit, miss, touching
>>> for pa, pb in cases: print(intersects(a, pa, b, pb), contact(a, pa, b, pb))
True Contact(normal=(0.0, 1.0), depth=0.5, point=(1.0, 0.25))
False None
True Contact(normal=(1.0, 0.0), depth=0.0, point=(0.0, 2.0))
"""

from __future__ import annotations

import math

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import CONTACT, INTERSECTS, WorldRows, put


@kernel("boolean(float64, float64, float64[:, ::1])", inline=True)
def _inside(px: float, py: float, v: FloatArray) -> bool:
    """:func:`~arcade_collide.geometry.point_in_triangle.point_in_triangle_line_equation`:
    no two edge values of opposite signs."""
    ax = v[0, 0]
    ay = v[0, 1]
    bx = v[1, 0]
    by = v[1, 1]
    cx = v[2, 0]
    cy = v[2, 1]
    d1 = (by - ay) * (px - ax) + (ax - bx) * (py - ay)
    d2 = (cy - by) * (px - bx) + (bx - cx) * (py - by)
    d3 = (ay - cy) * (px - cx) + (cx - ax) * (py - cy)
    return not ((d1 < 0.0 or d2 < 0.0 or d3 < 0.0) and (d1 > 0.0 or d2 > 0.0 or d3 > 0.0))


@kernel(INTERSECTS, inline=True)
def intersects_point_triangle(rows: WorldRows, a: int, b: int) -> bool:
    """Whether the point lies in the closed triangle."""
    return _inside(rows.point_xy[a, 0], rows.point_xy[a, 1], rows.triangle_vertices[b])


@kernel(CONTACT, inline=True)
def contact_point_triangle(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """Contact of a point inside a triangle: pushed out through the nearest edge."""
    px = rows.point_xy[a, 0]
    py = rows.point_xy[a, 1]
    v = rows.triangle_vertices[b]
    if not _inside(px, py, v):
        return False
    ax = v[0, 0]
    ay = v[0, 1]
    turn = (v[1, 0] - ax) * (v[2, 1] - ay) - (v[1, 1] - ay) * (v[2, 0] - ax)
    side = 1.0 if turn > 0.0 else -1.0
    best_depth = math.inf
    ox = 0.0
    oy = 0.0
    for e in range(3):
        f = e + 1 if e < 2 else 0
        sx = v[e, 0]
        sy = v[e, 1]
        tx = v[f, 0]
        ty = v[f, 1]
        ex = tx - sx
        ey = ty - sy
        length = math.sqrt(ex * ex + ey * ey)
        if length == 0.0:  # a side rounded to zero length far out is no edge
            continue
        depth = abs((sx - px) * (ty - py) - (tx - px) * (sy - py)) / length
        if depth < best_depth:
            best_depth = depth
            ox = ey / length * side
            oy = -ex / length * side
    half = best_depth * 0.5
    put(out, 0.0 - ox, 0.0 - oy, best_depth, px + ox * half, py + oy * half)
    return True

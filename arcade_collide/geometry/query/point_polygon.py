"""Point against convex polygon.

The polygon is stored counter-clockwise (y up), so its interior lies to the
left of every edge: the point is in the closed polygon when
``edge x (p - start) >= 0`` for every edge (zero means on the edge's line).

Contact: the nearest edge wins (for a point inside a convex polygon, the
nearest edge line is the nearest boundary). Edge ``i`` runs from vertex ``i``
to vertex ``i + 1``; equally near edges break to the lowest index.
``normal`` is minus that edge's outward normal ``(ey, -ex) / |e|`` and
``depth`` the distance, so moving the polygon by ``normal * depth`` brings that
edge onto the point.

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Point, Polygon
>>> cases = [((1.5, 1.0), (0, 0)), ((1.0, -1.0), (0, 0)), ((1.0, 0.0), (0, 0))]
>>> a, b = Point(), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])  # hit, miss, touching
>>> for pa, pb in cases: print(intersects(a, pa, b, pb), contact(a, pa, b, pb))
True Contact(normal=(-1.0, 0.0), depth=0.5, point=(1.75, 1.0))
False None
True Contact(normal=(0.0, 1.0), depth=0.0, point=(1.0, 0.0))
"""

from __future__ import annotations

import math

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import CONTACT, INTERSECTS, WorldRows, put


@kernel("boolean(float64, float64, float64[:, ::1], int64)", inline=True)
def _inside(px: float, py: float, v: FloatArray, n: int) -> bool:
    """Whether ``(px, py)`` is left of or on every edge of the first ``n`` vertices."""
    sx = v[n - 1, 0]
    sy = v[n - 1, 1]
    for k in range(n):
        tx = v[k, 0]
        ty = v[k, 1]
        if (tx - sx) * (py - sy) - (ty - sy) * (px - sx) < 0.0:
            return False
        sx = tx
        sy = ty
    return True


@kernel(INTERSECTS, inline=True)
def intersects_point_polygon(rows: WorldRows, a: int, b: int) -> bool:
    """Whether the point lies in the closed convex polygon."""
    return _inside(
        rows.point_xy[a, 0], rows.point_xy[a, 1], rows.polygon_vertices[b], rows.polygon_nverts[b]
    )


@kernel(CONTACT, inline=True)
def contact_point_polygon(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """Contact of a point inside a convex polygon: pushed out through the nearest edge."""
    px = rows.point_xy[a, 0]
    py = rows.point_xy[a, 1]
    v = rows.polygon_vertices[b]
    n = rows.polygon_nverts[b]
    if not _inside(px, py, v, n):
        return False
    best_depth = math.inf
    ox = 0.0
    oy = 0.0
    for e in range(n):
        f = e + 1 if e + 1 < n else 0
        sx = v[e, 0]
        sy = v[e, 1]
        tx = v[f, 0]
        ty = v[f, 1]
        cross = (tx - sx) * (py - sy) - (ty - sy) * (px - sx)
        ex = tx - sx
        ey = ty - sy
        length = math.sqrt(ex * ex + ey * ey)
        if length == 0.0:  # an edge rounded to zero length far out is no edge
            continue
        depth = cross / length
        if depth < best_depth:
            best_depth = depth
            ox = ey / length
            oy = -ex / length
    half = best_depth * 0.5
    put(out, 0.0 - ox, 0.0 - oy, best_depth, px + ox * half, py + oy * half)
    return True

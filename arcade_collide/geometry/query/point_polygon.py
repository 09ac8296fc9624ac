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

Batch rows pad short polygons by repeating their last vertex
(:class:`~arcade_collide.geometry.arrays.PolygonArrays`); the padded edges have
zero length, give a zero cross product (never "outside") and are left out of
the nearest-edge search, as zero-length edges are in the scalar form.
"""

from __future__ import annotations

import math

import numpy as np

from arcade_collide.geometry.arrays import (
    BatchContacts,
    BoolArray,
    FloatArray,
    PointArrays,
    PolygonArrays,
    take,
)
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.pose import Vec2, rotation, to_world
from arcade_collide.geometry.query._convex import columns, edge_vectors, scatter, touching_rows
from arcade_collide.geometry.shapes import Point, Polygon


def _world(b: Polygon, pose_b: tuple[float, float, float]) -> list[Vec2]:
    """World vertices under a validated pose (same arithmetic as ``arrays.pack``)."""
    x, y, angle = pose_b
    cos, sin = rotation(angle)
    # A rotation keeps the counter-clockwise order of the stored outline.
    return [to_world(v, x, y, cos, sin) for v in b.points]


def intersects_point_polygon(
    a: Point, pose_a: tuple[float, float, float], b: Polygon, pose_b: tuple[float, float, float]
) -> bool:
    """Whether the point lies in the closed convex polygon.

    Args:
        a: The point.
        pose_a: Validated ``(x, y, angle)`` of the point.
        b: The polygon.
        pose_b: Validated ``(x, y, angle)`` of the polygon.

    Returns:
        True when the point is inside the polygon or on its boundary.

    >>> square = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> intersects_point_polygon(Point(), (1.0, 1.0, 0.0), square, (0.0, 0.0, 0.0))
    True
    >>> intersects_point_polygon(Point(), (3.0, 1.0, 0.0), square, (0.0, 0.0, 0.0))
    False
    >>> intersects_point_polygon(Point(), (2.0, 2.0, 0.0), square, (0.0, 0.0, 0.0))
    True
    """
    px, py = pose_a[0], pose_a[1]
    verts = _world(b, pose_b)
    sx, sy = verts[-1]
    for tx, ty in verts:
        if (tx - sx) * (py - sy) - (ty - sy) * (px - sx) < 0.0:
            return False
        sx, sy = tx, ty
    return True


def contact_point_polygon(
    a: Point, pose_a: tuple[float, float, float], b: Polygon, pose_b: tuple[float, float, float]
) -> Contact | None:
    """Contact of a point inside a convex polygon: pushed out through the nearest edge.

    Args:
        a: The point.
        pose_a: Validated ``(x, y, angle)`` of the point.
        b: The polygon.
        pose_b: Validated ``(x, y, angle)`` of the polygon.

    Returns:
        The contact (see the module docstring), or None when the point is outside.

    >>> square = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> contact_point_polygon(Point(), (1.5, 1.0, 0.0), square, (0.0, 0.0, 0.0))
    Contact(normal=(-1.0, 0.0), depth=0.5, point=(1.75, 1.0))
    >>> contact_point_polygon(Point(), (1.0, -1.0, 0.0), square, (0.0, 0.0, 0.0)) is None
    True
    >>> contact_point_polygon(Point(), (1.0, 0.0, 0.0), square, (0.0, 0.0, 0.0))
    Contact(normal=(0.0, 1.0), depth=0.0, point=(1.0, 0.0))
    """
    px, py = pose_a[0], pose_a[1]
    verts = _world(b, pose_b)
    n = len(verts)
    crosses: list[float] = []
    for i in range(n):
        sx, sy = verts[i]
        tx, ty = verts[(i + 1) % n]
        cross = (tx - sx) * (py - sy) - (ty - sy) * (px - sx)
        if cross < 0.0:
            return None
        crosses.append(cross)
    best_depth = math.inf
    best = (0.0, 0.0)
    for i in range(n):
        sx, sy = verts[i]
        tx, ty = verts[(i + 1) % n]
        ex = tx - sx
        ey = ty - sy
        length = math.sqrt(ex * ex + ey * ey)
        if length == 0.0:
            continue
        depth = crosses[i] / length
        if depth < best_depth:
            best_depth = depth
            best = (ey / length, -ex / length)
    ox, oy = best
    half = best_depth * 0.5
    # 0.0 - x rather than -x: the normal never holds a -0.0 (clean output, same bits in batch).
    return Contact((0.0 - ox, 0.0 - oy), best_depth, (px + ox * half, py + oy * half))


def intersects_point_polygon_batch(a: PointArrays, b: PolygonArrays) -> BoolArray:
    """Vectorised :func:`intersects_point_polygon` over ``M`` rows.

    Args:
        a: ``M`` world points.
        b: ``M`` world polygons (padded rows allowed).

    Returns:
        ``(M,)`` mask, True where the point is in the closed polygon.

    >>> from arcade_collide.geometry.arrays import pack
    >>> square = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> pb = pack([square] * 3, [(0, 0)] * 3)
    >>> intersects_point_polygon_batch(PointArrays(np.array([[1.0, 1], [3, 1], [2, 2]])), pb)
    array([ True, False,  True])
    """
    return _inside(a.xy, b.vertices)


_BLOCK = 12_288
"""Elements per ``(K, rows)`` temporary (96 kB): heap-allocated and cache-resident."""


def _inside(xy: FloatArray, vertices: FloatArray) -> BoolArray:
    """Rows where the point is left of or on every edge, all K edges at once.

    Vertices go to ``(K, M)`` columns (see ``_convex.columns``) so the test over
    the edges is an elementwise pass per step rather than M tiny reductions.
    """
    x, y = columns(vertices)
    k, m = x.shape
    inside = np.empty(m, dtype=bool)
    step = max(1, _BLOCK // k)
    for start in range(0, m, step):
        c = slice(start, min(start + step, m))
        sx = x[:, c]
        sy = y[:, c]
        # (tx - sx) * (py - sy) - (ty - sy) * (px - sx), as in the scalar form.
        cross = edge_vectors(sx)
        cross *= xy[c, 1] - sy
        other = edge_vectors(sy)
        other *= xy[c, 0] - sx
        cross -= other
        np.logical_and.reduce(cross >= 0.0, axis=0, out=inside[c])
    return inside


def _edges(
    a: PointArrays, b: PolygonArrays
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Per-row, per-edge ``(cross, ex, ey, length)``, each ``(M, K)``."""
    start = b.vertices
    end = np.roll(start, -1, axis=1)  # edge i runs from vertex i to vertex i + 1 (mod K)
    sx, sy = start[..., 0], start[..., 1]
    ex = end[..., 0] - sx
    ey = end[..., 1] - sy
    qx = a.xy[:, 0:1]
    qy = a.xy[:, 1:2]
    crosses = ex * (qy - sy) - ey * (qx - sx)
    return crosses, ex, ey, np.sqrt(ex * ex + ey * ey)


def contact_point_polygon_batch(a: PointArrays, b: PolygonArrays) -> BatchContacts:
    """Vectorised :func:`contact_point_polygon`; rows without contact hold zeros.

    Args:
        a: ``M`` world points.
        b: ``M`` world polygons (padded rows allowed).

    Returns:
        The ``M`` contacts, equal to the scalar ones bit for bit.

    >>> from arcade_collide.geometry.arrays import pack
    >>> square = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> pb = pack([square] * 3, [(0, 0)] * 3)
    >>> out = contact_point_polygon_batch(PointArrays(np.array([[1.5, 1], [3, 1], [1, 0]])), pb)
    >>> out.hit.tolist(), out.depth.tolist(), out.normal[0].tolist()
    ([True, False, True], [0.5, 0.0, 0.0], [-1.0, 0.0])
    """
    hit = _inside(a.xy, b.vertices)
    # The nearest edge only for the touching rows (scattered into zeros).
    rows = touching_rows(hit)
    if rows is not None:
        a = take(a, rows)
        b = take(b, rows)
    crosses, ex, ey, length = _edges(a, b)
    real = length > 0.0
    safe = np.where(real, length, 1.0)
    depths = np.where(real, crosses / safe, np.inf)
    best = np.argmin(depths, axis=1)[:, None]  # first minimum: lowest edge wins ties
    depth = np.take_along_axis(depths, best, axis=1)[:, 0]
    ox = np.take_along_axis(ey / safe, best, axis=1)[:, 0]
    oy = np.take_along_axis(-ex / safe, best, axis=1)[:, 0]
    half = depth * 0.5
    px = a.xy[:, 0]
    py = a.xy[:, 1]
    return scatter(hit, rows, 0.0 - ox, 0.0 - oy, depth, px + ox * half, py + oy * half)

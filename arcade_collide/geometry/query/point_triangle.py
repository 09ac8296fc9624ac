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
"""

from __future__ import annotations

import math

import numpy as np

from arcade_collide.geometry.arrays import BatchContacts, BoolArray, PointArrays, TriangleArrays
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.point_in_triangle import (
    point_in_triangle_line_equation,
    points_in_triangles,
)
from arcade_collide.geometry.pose import Vec2, rotation, to_world
from arcade_collide.geometry.query._convex import scatter, touching_rows
from arcade_collide.geometry.shapes import Point, Triangle

# The default point-in-triangle method; the batch form, points_in_triangles, is its
# vectorised twin (tests pin both to DEFAULT_POINT_IN_TRIANGLE_METHOD).
_DEFAULT = point_in_triangle_line_equation


def _world(b: Triangle, pose_b: tuple[float, float, float]) -> tuple[Vec2, Vec2, Vec2]:
    """World vertices under a validated pose (same arithmetic as ``arrays.pack``)."""
    x, y, angle = pose_b
    cos, sin = rotation(angle)
    return (
        to_world(b.a, x, y, cos, sin),
        to_world(b.b, x, y, cos, sin),
        to_world(b.c, x, y, cos, sin),
    )


def intersects_point_triangle(
    a: Point, pose_a: tuple[float, float, float], b: Triangle, pose_b: tuple[float, float, float]
) -> bool:
    """Whether the point lies in the closed triangle.

    Args:
        a: The point.
        pose_a: Validated ``(x, y, angle)`` of the point.
        b: The triangle.
        pose_b: Validated ``(x, y, angle)`` of the triangle.

    Returns:
        True when the point is inside the triangle or on its boundary.

    >>> tri = Triangle((0, 0), (4, 0), (0, 4))
    >>> intersects_point_triangle(Point(), (1.0, 1.0, 0.0), tri, (0.0, 0.0, 0.0))
    True
    >>> intersects_point_triangle(Point(), (1.0, 1.0, 0.0), tri, (0.0, 0.0, 180.0))
    False
    >>> intersects_point_triangle(Point(), (12.0, 10.0, 0.0), tri, (10.0, 10.0, 0.0))
    True
    """
    va, vb, vc = _world(b, pose_b)
    return _DEFAULT((pose_a[0], pose_a[1]), va, vb, vc)


def contact_point_triangle(
    a: Point, pose_a: tuple[float, float, float], b: Triangle, pose_b: tuple[float, float, float]
) -> Contact | None:
    """Contact of a point inside a triangle: pushed out through the nearest edge.

    Args:
        a: The point.
        pose_a: Validated ``(x, y, angle)`` of the point.
        b: The triangle.
        pose_b: Validated ``(x, y, angle)`` of the triangle.

    Returns:
        The contact (see the module docstring), or None when the point is outside.

    >>> tri = Triangle((0, 0), (4, 0), (0, 4))
    >>> contact_point_triangle(Point(), (1.0, 0.5, 0.0), tri, (0.0, 0.0, 0.0))
    Contact(normal=(0.0, 1.0), depth=0.5, point=(1.0, 0.25))
    >>> contact_point_triangle(Point(), (3.0, 3.0, 0.0), tri, (0.0, 0.0, 0.0)) is None
    True
    >>> contact_point_triangle(Point(), (0.0, 2.0, 0.0), tri, (0.0, 0.0, 0.0))
    Contact(normal=(1.0, 0.0), depth=0.0, point=(0.0, 2.0))
    """
    p = (pose_a[0], pose_a[1])
    va, vb, vc = _world(b, pose_b)
    if not _DEFAULT(p, va, vb, vc):
        return None
    return _nearest_edge_contact(p, (va, vb, vc))


def _nearest_edge_contact(p: Vec2, verts: tuple[Vec2, Vec2, Vec2]) -> Contact:
    """Contact through the nearest edge for a point known to be inside."""
    px, py = p
    (ax, ay), (bx, by), (cx, cy) = verts
    # Outward normal of edge (ex, ey) is (ey, -ex)/len for a counter-clockwise
    # triangle and the opposite for a clockwise one.
    side = 1.0 if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) > 0.0 else -1.0
    best_depth = math.inf
    best = (0.0, 0.0)
    for (sx, sy), (tx, ty) in ((verts[0], verts[1]), (verts[1], verts[2]), (verts[2], verts[0])):
        ex = tx - sx
        ey = ty - sy
        length = math.sqrt(ex * ex + ey * ey)
        if length == 0.0:
            continue  # a side rounded to zero length far from the origin: no edge
        # Twice the area of (P, start, end) over the base length: P's distance to the edge line.
        depth = abs((sx - px) * (ty - py) - (tx - px) * (sy - py)) / length
        if depth < best_depth:
            best_depth = depth
            best = (ey / length * side, -ex / length * side)
    ox, oy = best
    half = best_depth * 0.5
    # 0.0 - x rather than -x: the normal never holds a -0.0 (clean output, same bits in batch).
    return Contact((0.0 - ox, 0.0 - oy), best_depth, (px + ox * half, py + oy * half))


def intersects_point_triangle_batch(a: PointArrays, b: TriangleArrays) -> BoolArray:
    """Vectorised :func:`intersects_point_triangle` over ``M`` rows.

    Args:
        a: ``M`` world points.
        b: ``M`` world triangles.

    Returns:
        ``(M,)`` mask, True where the point is in the closed triangle.

    >>> tb = TriangleArrays(np.array([[[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]]] * 3))
    >>> intersects_point_triangle_batch(PointArrays(np.array([[1.0, 1.0], [3, 3], [0, 4]])), tb)
    array([ True, False,  True])
    """
    return points_in_triangles(a.xy, b.vertices)


def contact_point_triangle_batch(a: PointArrays, b: TriangleArrays) -> BatchContacts:
    """Vectorised :func:`contact_point_triangle`; rows without contact hold zeros.

    Args:
        a: ``M`` world points.
        b: ``M`` world triangles.

    Returns:
        The ``M`` contacts, equal to the scalar ones bit for bit.

    >>> tb = TriangleArrays(np.array([[[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]]] * 3))
    >>> out = contact_point_triangle_batch(PointArrays(np.array([[1, 0.5], [3, 3], [0, 2]])), tb)
    >>> out.hit.tolist(), out.depth.tolist(), out.normal[2].tolist()
    ([True, False, True], [0.5, 0.0, 0.0], [1.0, 0.0])
    """
    hit = points_in_triangles(a.xy, b.vertices)
    # The nearest edge only for the touching rows (scattered into zeros).
    rows = touching_rows(hit)
    xy = a.xy if rows is None else a.xy[rows]
    px = xy[:, 0]
    py = xy[:, 1]
    v = b.vertices if rows is None else np.take(b.vertices, rows, axis=0)
    start = v
    end = np.roll(v, -1, axis=1)  # edge i runs from vertex i to vertex i + 1 (mod 3)
    ax, ay = v[:, 0, 0], v[:, 0, 1]
    side = np.where(
        (v[:, 1, 0] - ax) * (v[:, 2, 1] - ay) - (v[:, 1, 1] - ay) * (v[:, 2, 0] - ax) > 0.0,
        1.0,
        -1.0,
    )[:, None]
    sx, sy = start[..., 0], start[..., 1]
    tx, ty = end[..., 0], end[..., 1]
    ex = tx - sx
    ey = ty - sy
    length = np.sqrt(ex * ex + ey * ey)
    zero = length == 0.0  # sides rounded to zero length far from the origin: no edge
    np.putmask(length, zero, 1.0)
    qx = px[:, None]
    qy = py[:, None]
    depths = np.abs((sx - qx) * (ty - qy) - (tx - qx) * (sy - qy)) / length
    np.putmask(depths, zero, np.inf)
    best = np.argmin(depths, axis=1)[:, None]  # first minimum: lowest edge wins ties
    depth = np.take_along_axis(depths, best, axis=1)[:, 0]
    ox = np.take_along_axis(ey / length * side, best, axis=1)[:, 0]
    oy = np.take_along_axis(-ex / length * side, best, axis=1)[:, 0]
    half = depth * 0.5
    return scatter(hit, rows, 0.0 - ox, 0.0 - oy, depth, px + ox * half, py + oy * half)

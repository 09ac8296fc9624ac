"""A separating axis of two posed shapes that are apart: why they do not touch.

A debugging aid (``explain``), not a kernel: plain Python over the shapes' world
outlines. The axis is a unit vector pointing from A towards B, and the gap is how far
apart the shapes' projections on it are (``min(B . axis) - max(A . axis)``):

* two round shapes (points, circles): the line between the centres (the axis of a
  circle pair), the gap between the circles;
* a round shape and a convex outline: from the outline's closest point to the centre
  (the axis realising their distance);
* two convex outlines: the edge normal of either outline along which they are
  farthest apart (the separating-axis theorem: convex shapes that do not touch are
  separated along one of their edge normals; Ericson, *Real-Time Collision
  Detection*, 4.4.1).
"""

from __future__ import annotations

import math

from arcade_collide.geometry.pose import Vec2, parse_pose, rotation, to_world
from arcade_collide.geometry.shapes import AnyShape, Circle, Point

Separation = tuple[Vec2, float]
"""``(axis, gap)``: a unit axis from A towards B and the gap along it."""


def _world(shape: AnyShape, pose: object, name: str) -> tuple[list[Vec2], float]:
    """``(vertices, radius)``: a round shape's centre and radius, or a convex
    outline's world vertices and 0."""
    x, y, angle = parse_pose(pose, name)
    if isinstance(shape, (Point, Circle)):
        return [(x, y)], shape.radius if isinstance(shape, Circle) else 0.0
    cos, sin = rotation(angle)
    return [to_world(v, x, y, cos, sin) for v in shape.local_vertices()], 0.0


def _unit(dx: float, dy: float) -> Vec2:
    """``(dx, dy)`` scaled to length 1; ``(1, 0)`` for a zero offset."""
    length = math.hypot(dx, dy)
    return (dx / length, dy / length) if length > 0.0 else (1.0, 0.0)


def _gap(axis: Vec2, a: list[Vec2], ra: float, b: list[Vec2], rb: float) -> float:
    """``min(B . axis) - max(A . axis)`` of the two shapes (radii included)."""
    high_a = max(axis[0] * x + axis[1] * y for x, y in a) + ra
    low_b = min(axis[0] * x + axis[1] * y for x, y in b) - rb
    return low_b - high_a


def _closest_on_outline(outline: list[Vec2], p: Vec2) -> Vec2:
    """The point of the closed outline's boundary closest to ``p``."""
    best: tuple[float, Vec2] = (math.inf, outline[0])
    for k, (ax, ay) in enumerate(outline):
        bx, by = outline[(k + 1) % len(outline)]
        ex, ey = bx - ax, by - ay
        length2 = ex * ex + ey * ey
        t = 0.0 if length2 == 0.0 else ((p[0] - ax) * ex + (p[1] - ay) * ey) / length2
        t = min(1.0, max(0.0, t))
        q = (ax + t * ex, ay + t * ey)
        d = math.hypot(p[0] - q[0], p[1] - q[1])
        if d < best[0]:
            best = (d, q)
    return best[1]


def separating_axis(
    shape_a: AnyShape, pose_a: object, shape_b: AnyShape, pose_b: object
) -> Separation:
    """The separating axis of two posed shapes (see the module docstring).

    For shapes that touch or overlap the gap is ``<= 0`` (no axis separates them;
    the axis returned is then the one along which they come closest to parting).

    Args:
        shape_a: Any of the five shapes.
        pose_a: ``(x, y)`` or ``(x, y, angle)`` of A.
        shape_b: Any of the five shapes.
        pose_b: The pose of B.

    Returns:
        ``(axis, gap)``.

    >>> from arcade_collide.geometry.shapes import Rect
    >>> separating_axis(Circle(1), (0, 0), Circle(1), (0, 5))  # a miss: the centre line
    ((0.0, 1.0), 3.0)
    >>> separating_axis(Rect(2, 2), (0, 0), Rect(2, 2), (5, 1))  # a miss: an edge normal
    ((1.0, 0.0), 3.0)
    >>> separating_axis(Rect(2, 2), (0, 0), Circle(1), (2, 0))  # touching: gap 0
    ((1.0, 0.0), 0.0)
    >>> separating_axis(Circle(2), (0, 0), Point(), (1, 0))[1]  # a hit: gap below 0
    -1.0
    """
    a, ra = _world(shape_a, pose_a, "pose_a")
    b, rb = _world(shape_b, pose_b, "pose_b")
    round_a, round_b = len(a) == 1, len(b) == 1
    if round_a and round_b:
        axis = _unit(b[0][0] - a[0][0], b[0][1] - a[0][1])
    elif round_a or round_b:
        centre, outline = (a[0], b) if round_a else (b[0], a)
        q = _closest_on_outline(outline, centre)
        # From the outline's point to the centre: from A to B when B is the round one.
        axis = _unit(centre[0] - q[0], centre[1] - q[1])
        if round_a:
            axis = (-axis[0], -axis[1])
    else:
        best: tuple[float, Vec2] = (-math.inf, (1.0, 0.0))
        for outline in (a, b):
            for k, (px, py) in enumerate(outline):
                qx, qy = outline[(k + 1) % len(outline)]
                normal = _unit(qy - py, px - qx)
                for axis in (normal, (-normal[0], -normal[1])):
                    gap = _gap(axis, a, ra, b, rb)
                    if gap > best[0]:
                        best = (gap, axis)
        axis = best[1]
    return axis, _gap(axis, a, ra, b, rb)

"""Debug drawing: collision shapes, their bounds and contact normals.

Outlines are collected as line segments and drawn with one
:func:`arcade.draw_lines` call per colour, so a debug overlay of thousands of
shapes costs three draw calls.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import arcade
import numpy as np
from arcade.types import RGBOrA255
from numpy.typing import NDArray

from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.pose import Vec2, rotation, to_world
from arcade_collide.geometry.shapes import AnyShape, Circle, Point

CIRCLE_SEGMENTS = 24
"""Straight segments used to draw a circle outline."""

POINT_CROSS = 3.0
"""Half size, pixels, of the cross drawn for a point shape."""


def world_outline(shape: AnyShape, x: float, y: float, angle: float) -> list[Vec2]:
    """The closed outline of ``shape`` at pose ``(x, y, angle)``, as world vertices.

    Circles become a :data:`CIRCLE_SEGMENTS`-gon; a point becomes a small cross
    (four points: two segments).

    >>> from arcade_collide.geometry.shapes import Rect
    >>> world_outline(Rect(2, 2), 10, 0, 90)
    [(9.0, 1.0), (9.0, -1.0), (11.0, -1.0), (11.0, 1.0)]
    """
    if isinstance(shape, Point):
        d = POINT_CROSS
        return [(x - d, y), (x + d, y), (x, y - d), (x, y + d)]
    if isinstance(shape, Circle):
        r = shape.radius
        step = 2.0 * math.pi / CIRCLE_SEGMENTS
        return [
            (x + r * math.cos(i * step), y + r * math.sin(i * step))
            for i in range(CIRCLE_SEGMENTS)
        ]
    cos, sin = rotation(angle)
    return [to_world(v, x, y, cos, sin) for v in shape.local_vertices()]


def _loop_segments(points: list[Vec2], out: list[Vec2]) -> None:
    for i, point in enumerate(points):
        out.extend((points[i - 1], point))


def draw_world_debug(
    shapes: Sequence[AnyShape],
    xy: NDArray[np.float64],
    angle: NDArray[np.float64],
    contacts: Sequence[Contact],
    *,
    outline: RGBOrA255,
    bounds: RGBOrA255 | None,
    normals: RGBOrA255,
    normal_length: float,
) -> None:
    """Draw local-frame ``shapes`` at ``(N, 2)`` positions ``xy`` and ``(N,)`` clockwise
    ``angle`` degrees, their bounding boxes and the normals of ``contacts`` from their
    points; the keywords are those of :meth:`.CollisionWorld.draw_debug`."""
    outline_lines: list[Vec2] = []
    bound_lines: list[Vec2] = []
    for shape, (x, y), turn in zip(shapes, xy.tolist(), angle.tolist(), strict=True):
        points = world_outline(shape, x, y, turn)
        if isinstance(shape, Point):
            outline_lines.extend(points)
            continue
        _loop_segments(points, outline_lines)
        if bounds is not None:
            # The polygonal outline lies inside a circle; the bounds must not.
            if isinstance(shape, Circle):
                r = shape.radius
                points = [(x - r, y - r), (x + r, y + r)]
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            left, right, bottom, top = min(xs), max(xs), min(ys), max(ys)
            box = [(left, bottom), (right, bottom), (right, top), (left, top)]
            _loop_segments(box, bound_lines)
    normal_lines: list[Vec2] = []
    for contact in contacts:
        (px, py), (nx, ny) = contact.point, contact.normal
        normal_lines += [(px, py), (px + nx * normal_length, py + ny * normal_length)]
    if bound_lines and bounds is not None:
        arcade.draw_lines(bound_lines, bounds)
    if outline_lines:
        arcade.draw_lines(outline_lines, outline)
    if normal_lines:
        arcade.draw_lines(normal_lines, normals, 2.0)

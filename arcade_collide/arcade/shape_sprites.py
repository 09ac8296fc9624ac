"""Sprites that look exactly like a collision shape.

Handy for prototypes and the examples: the texture is the shape, filled, drawn
so that the shape's local origin is the texture's centre, and the texture's hit
box is the shape's own outline (so Arcade's collision helpers and
``hull=True`` agree with the shape).
"""

from __future__ import annotations

import math
from typing import Any

import arcade
from arcade.types import RGBA255
from PIL import Image, ImageDraw

from arcade_collide.geometry.pose import Vec2
from arcade_collide.geometry.shapes import SHAPE_TYPES, AnyShape, Circle, Point

_POINT_RADIUS = 2.0
MAX_TEXTURE_SIDE = 4096
"""Largest texture side :func:`shape_texture` makes, in pixels."""


def _outline(shape: AnyShape) -> list[Vec2]:
    if isinstance(shape, Point):
        return []
    if isinstance(shape, Circle):
        r = shape.radius
        return [
            (r * math.cos(i * math.pi / 8), r * math.sin(i * math.pi / 8)) for i in range(16)
        ]
    return list(shape.local_vertices())


def shape_texture(
    shape: AnyShape,
    color: RGBA255,
    *,
    outline: RGBA255 | None = None,
    name: str | None = None,
) -> arcade.Texture:
    """A texture of ``shape`` filled with ``color``, centred on the shape's origin.

    Args:
        shape: Any local-frame shape (a point is drawn as a small dot).
        color: Fill colour.
        outline: Optional outline colour (one pixel).
        name: Texture cache name; by default derived from the shape and colours,
            so equal shapes share one texture.

    Returns:
        The texture; its hit box is the shape's outline.

    Raises:
        TypeError: ``shape`` is not a shape.
        ValueError: the texture would be wider or taller than 4096 pixels.

    >>> from arcade_collide import Triangle
    >>> texture = shape_texture(Triangle((0, 0), (20, 0), (0, 10)), (255, 0, 0))
    >>> texture.width, texture.height, texture.hit_box_points
    (42, 22, [(0.0, 0.0), (20.0, 0.0), (0.0, 10.0)])
    """
    if not isinstance(shape, SHAPE_TYPES):
        raise TypeError(
            f"shape must be a Point, Circle, Rect, Triangle or Polygon, got {type(shape).__name__}"
        )
    points = _outline(shape)
    if isinstance(shape, Circle):
        extent_x = extent_y = shape.radius
    elif isinstance(shape, Point):
        extent_x = extent_y = _POINT_RADIUS
    else:
        extent_x = max(abs(x) for x, _ in points)
        extent_y = max(abs(y) for _, y in points)
    # Even sizes keep the origin on a pixel corner, exactly at the texture centre.
    width = 2 * math.ceil(extent_x) + 2
    height = 2 * math.ceil(extent_y) + 2
    if max(width, height) > MAX_TEXTURE_SIDE:
        raise ValueError(
            f"shape needs a {width}x{height} texture; at most {MAX_TEXTURE_SIDE} pixels a side"
        )
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    cx, cy = width / 2, height / 2
    fill = tuple(color)
    line = tuple(outline) if outline is not None else None
    if isinstance(shape, Circle | Point):
        r = shape.radius if isinstance(shape, Circle) else _POINT_RADIUS
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=line)
    else:
        # Texture rows grow downwards while local y grows upwards.
        pixels = [(cx + x, cy - y) for x, y in points]
        draw.polygon(pixels, fill=fill, outline=line)
    hit_box = points if points else [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
    key = name if name is not None else f"arcade_collide.shape:{shape!r}:{fill}:{line}"
    return arcade.Texture(image, hit_box_points=hit_box, hash=key)


def sprite_for_shape(
    shape: AnyShape,
    color: RGBA255,
    *,
    outline: RGBA255 | None = None,
    **sprite_options: Any,
) -> arcade.Sprite:
    """An :class:`arcade.Sprite` drawn as ``shape`` (see :func:`shape_texture`).

    Args:
        shape: The local-frame shape.
        color: Fill colour.
        outline: Optional outline colour.
        **sprite_options: Passed to :class:`arcade.Sprite` (``center_x``, ``angle``...).

    >>> from arcade_collide import Rect
    >>> from arcade_collide.arcade import shape_for_sprite
    >>> bar = sprite_for_shape(Rect(30, 10), (0, 0, 255), center_x=100, angle=90)
    >>> bar.position, bar.angle, shape_for_sprite(bar)
    ((100, 0.0), 90, Rect(width=30.0, height=10.0))
    """
    return arcade.Sprite(shape_texture(shape, color, outline=outline), **sprite_options)

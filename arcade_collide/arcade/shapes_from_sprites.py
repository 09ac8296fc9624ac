"""Collision shapes derived from Arcade sprites, in the sprite's local frame at its scale.

The sprite's position and angle are the pose, so a shape is rebuilt only when the
sprite's size or texture changes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import arcade

from arcade_collide.geometry.pose import Vec2
from arcade_collide.geometry.shapes import (
    DEGENERATE_TOLERANCE,
    AnyShape,
    Circle,
    Polygon,
    Rect,
)


def convex_hull(points: Iterable[Vec2]) -> list[Vec2]:
    """Return the convex hull of ``points``, counter-clockwise (y up).

    Andrew's monotone chain. Collinear and repeated points are dropped (a turn
    no larger than the degenerate tolerance counts as straight), so the result
    is a valid :class:`~arcade_collide.geometry.shapes.Polygon` outline whenever
    it has at least three points.

    Args:
        points: Any number of ``(x, y)`` pairs.

    Returns:
        The hull vertices, counter-clockwise, starting at the lowest-x point;
        fewer than three points when the input spans no area.

    >>> convex_hull([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2), (1, 0)])
    [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]
    >>> convex_hull([(0, 0), (1, 1), (2, 2)])
    [(0.0, 0.0), (2.0, 2.0)]
    """
    pts = sorted({(float(x), float(y)) for x, y in points})
    if len(pts) < 3:
        return pts
    span = max(pts[-1][0] - pts[0][0], max(p[1] for p in pts) - min(p[1] for p in pts))
    tolerance = DEGENERATE_TOLERANCE * span * span

    def turn(o: Vec2, a: Vec2, b: Vec2) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    def chain(ordered: Sequence[Vec2]) -> list[Vec2]:
        out: list[Vec2] = []
        for p in ordered:
            while len(out) >= 2 and turn(out[-2], out[-1], p) <= tolerance:
                out.pop()
            out.append(p)
        return out

    lower = chain(pts)
    upper = chain(pts[::-1])
    return lower[:-1] + upper[:-1]


def hull_polygon(sprite: arcade.Sprite) -> Polygon | None:
    """The convex hull of ``sprite``'s hit box at its scale, or None if it has no area.

    Args:
        sprite: Any sprite; its hit box points are in texture pixels about the centre.

    Returns:
        A local-frame polygon (the sprite's angle is applied by the pose, not here).
    """
    sx, sy = sprite.scale
    hull = convex_hull((x * sx, y * sy) for x, y in sprite.hit_box.points)
    if len(hull) < 3:
        return None
    try:
        return Polygon(tuple(hull))
    except ValueError:
        # Hulls of nearly collinear hit boxes can still fail the polygon's own
        # validation (its tolerance is relative to a different size measure).
        return None


def shape_for_sprite(sprite: arcade.Sprite, *, hull: bool = False) -> AnyShape:
    """The collision shape for ``sprite`` at its current scale and texture.

    A :class:`arcade.SpriteCircle` gets a Circle of diameter ``max(width, height)``;
    any other sprite a Rect of its width and height.

    Args:
        sprite: The sprite.
        hull: Use the convex hull of the hit box instead of the sprite's
            rectangle (circles included). Falls back to the rectangle when the
            hit box spans no area.

    Returns:
        A shape in the sprite's local frame (centred on ``sprite.position``).

    Raises:
        ValueError: the sprite has zero width or height.

    >>> shape_for_sprite(arcade.SpriteSolidColor(40, 20))
    Rect(width=40.0, height=20.0)
    >>> shape_for_sprite(arcade.SpriteCircle(8, (255, 0, 0)))
    Circle(radius=8.0)
    """
    width, height = abs(sprite.width), abs(sprite.height)
    if width == 0.0 or height == 0.0:
        raise ValueError(f"sprite has zero size ({width} x {height}); give an explicit shape")
    if hull:
        polygon = hull_polygon(sprite)
        if polygon is not None:
            return polygon
    elif isinstance(sprite, arcade.SpriteCircle):
        return Circle(max(width, height) * 0.5)
    return Rect(width, height)

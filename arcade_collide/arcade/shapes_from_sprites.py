"""Collision shapes derived from Arcade sprites, in the sprite's local frame at its scale.

By default a sprite collides as Arcade collides it: by the convex hull of its hit box
(a :class:`Rect` when that hull is an axis-aligned rectangle centred on the sprite).
The sprite's position and angle are the pose, so a shape is rebuilt only when the
sprite's size, scale or hit box changes.
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

    >>> hull_polygon(arcade.SpriteSolidColor(40, 20, angle=30))  # the angle is not in it
    Polygon(points=((-20.0, -10.0), (20.0, -10.0), (20.0, 10.0), (-20.0, 10.0)))
    """
    hull = _scaled_hull(sprite)
    return None if hull is None else _polygon(hull)


def _scaled_hull(sprite: arcade.Sprite) -> list[Vec2] | None:
    """The hull of ``sprite``'s hit box points at its scale; None if it spans no area."""
    sx, sy = sprite.scale
    hull = convex_hull((x * sx, y * sy) for x, y in sprite.hit_box.points)
    return hull if len(hull) >= 3 else None


def _polygon(hull: list[Vec2]) -> Polygon | None:
    try:
        return Polygon(tuple(hull))
    except ValueError:
        # Hulls of nearly collinear hit boxes can still fail the polygon's own
        # validation (its tolerance is relative to a different size measure).
        return None


def centred_rect(hull: Sequence[Vec2]) -> Rect | None:
    """The :class:`Rect` whose outline ``hull`` is, if it is an axis-aligned rectangle
    centred on the origin (a hull from :func:`convex_hull`: four corners, no repeats).

    >>> centred_rect([(-2.0, -1.0), (2.0, -1.0), (2.0, 1.0), (-2.0, 1.0)])
    Rect(width=4.0, height=2.0)
    >>> centred_rect([(-2.0, -1.0), (3.0, -1.0), (3.0, 1.0), (-2.0, 1.0)]) is None
    True
    >>> centred_rect([(0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0)]) is None
    True
    """
    if len(hull) != 4:
        return None
    xs = {x for x, _ in hull}
    ys = {y for _, y in hull}
    if len(xs) != 2 or len(ys) != 2:
        return None
    left, right = sorted(xs)
    bottom, top = sorted(ys)
    if left != -right or bottom != -top:
        return None
    return Rect(right - left, top - bottom)


def shape_for_sprite(sprite: arcade.Sprite, *, hull: bool = True) -> AnyShape:
    """The collision shape for ``sprite`` at its current scale, texture and hit box.

    With ``hull=True`` (the default) the shape is the one Arcade's own collision
    checks use: the convex hull of ``sprite.hit_box.points`` at the sprite's scale. A
    hull that is an axis-aligned rectangle centred on the sprite (the hit box of
    :class:`arcade.SpriteSolidColor`, of a fully opaque texture) is given as a
    :class:`Rect`, the cheapest kind. With ``hull=False`` the shape is the texture's
    rectangle, ``width`` by ``height`` (which includes transparent margins the hit
    box leaves out), or for a :class:`arcade.SpriteCircle` a Circle of diameter
    ``max(width, height)`` (Arcade collides those as octagons).

    Args:
        sprite: The sprite.
        hull: Follow the hit box (True) or the texture's size (False). A hit box
            spanning no area falls back to the texture's rectangle.

    Returns:
        A shape in the sprite's local frame (centred on ``sprite.position``).

    Raises:
        ValueError: the sprite has zero width or height.

    >>> shape_for_sprite(arcade.SpriteSolidColor(40, 20))
    Rect(width=40.0, height=20.0)
    >>> shape_for_sprite(arcade.SpriteCircle(8, (255, 0, 0))).points[:2]
    ((-8.0, -4.0), (-4.0, -8.0))
    >>> shape_for_sprite(arcade.SpriteCircle(8, (255, 0, 0)), hull=False)
    Circle(radius=8.0)
    """
    width, height = abs(sprite.width), abs(sprite.height)
    if width == 0.0 or height == 0.0:
        raise ValueError(f"sprite has zero size ({width} x {height}); give an explicit shape")
    if hull:
        outline = _scaled_hull(sprite)
        if outline is not None:
            rect = centred_rect(outline)
            shape = rect if rect is not None else _polygon(outline)
            if shape is not None:
                return shape
    elif isinstance(sprite, arcade.SpriteCircle):
        return Circle(max(width, height) * 0.5)
    return Rect(width, height)

"""draw_debug in a real (headless) window: outlines, bounds and normals land on the pixels."""

from __future__ import annotations

import arcade

from arcade_collide.arcade import CollisionWorld, pixel_at
from arcade_collide.geometry.shapes import Circle


def near(image: object, x: float, y: float, color: tuple[int, ...]) -> bool:
    """A pixel within one of (x, y) has ``color`` (lines rasterise to either side)."""
    return any(
        pixel_at(image, x + dx, y + dy) == color[:3]  # type: ignore[arg-type]
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
    )


OUTLINE, BOUNDS, NORMALS = (0, 255, 0, 255), (255, 255, 0, 255), (255, 0, 255, 255)


def test_outlines_bounds_and_normals_are_drawn() -> None:
    window = arcade.Window(200, 200, "draw_debug")
    world = CollisionWorld()
    try:
        box = arcade.SpriteSolidColor(40, 40, center_x=80, center_y=100, angle=45)
        ball = arcade.SpriteCircle(10, arcade.color.WHITE, center_x=120, center_y=100)
        world.add_sprite(box)
        world.add_sprite(ball, Circle(20))  # an explicit shape, larger than the sprite
        world.step(1 / 60)
        assert len(world.contacts()) == 1
        window.clear()
        world.draw_debug(outline=OUTLINE, bounds=BOUNDS, normals=NORMALS, normal_length=30)
        image = arcade.get_image()
        half_diagonal = 20 * 2**0.5
        assert near(image, 80, 100 + half_diagonal, OUTLINE)  # the box's top corner
        assert near(image, 80 - half_diagonal, 100 + half_diagonal, BOUNDS)  # its AABB's
        assert near(image, 120, 80, OUTLINE)  # the explicit circle's bottom, not the sprite's
        assert not near(image, 120, 90, OUTLINE)
        normal_pixels = sum(
            pixel_at(image, x, y) == NORMALS[:3] for x in range(60, 140) for y in range(95, 106)
        )
        assert normal_pixels >= 10
        assert pixel_at(image, 10, 10) == (0, 0, 0)
    finally:
        world.close()
        window.close()

"""The Arcade plugin: sprites as colliding entities.

Import it explicitly; ``import arcade_collide`` alone never imports Arcade, so
the geometry and ECS layers stay usable without a display or OpenGL.

This package is the only part of arcade_collide that touches sprites.
"""

from arcade_collide.arcade.headless import HeadlessRun, pixel_at, run_view
from arcade_collide.arcade.shapes_from_sprites import convex_hull, hull_polygon, shape_for_sprite

__all__ = [
    "HeadlessRun",
    "convex_hull",
    "hull_polygon",
    "pixel_at",
    "run_view",
    "shape_for_sprite",
]

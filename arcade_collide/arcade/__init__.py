"""The Arcade plugin: sprites as colliding entities.

Import it explicitly; ``import arcade_collide`` alone never imports Arcade, so
the geometry and ECS layers stay usable without a display or OpenGL.

    from arcade_collide.arcade import CollisionWorld

    world = CollisionWorld()
    world.add_sprite(ship, kind="ship")
    world.add_sprite(rock, velocity=(40, 0), angular=30, kind="rock")
    world.on_collision("ship", "rock", start=lambda ship, rock, contact: ...)
    # in Window/View.on_fixed_update(delta_time):
    world.step(delta_time)

This package is the only part of arcade_collide that touches sprites.
"""

from arcade_collide.arcade.handlers import EndHandler, StartHandler
from arcade_collide.arcade.headless import HeadlessRun, pixel_at, run_view
from arcade_collide.arcade.physics_engines import PhysicsEnginePlatformer, PhysicsEngineSimple
from arcade_collide.arcade.shape_sprites import shape_texture, sprite_for_shape
from arcade_collide.arcade.shapes_from_sprites import convex_hull, hull_polygon, shape_for_sprite
from arcade_collide.arcade.tile_layers import TileColliders
from arcade_collide.arcade.world import CollisionWorld

__all__ = [
    "CollisionWorld",
    "EndHandler",
    "HeadlessRun",
    "PhysicsEnginePlatformer",
    "PhysicsEngineSimple",
    "StartHandler",
    "TileColliders",
    "convex_hull",
    "hull_polygon",
    "pixel_at",
    "run_view",
    "shape_for_sprite",
    "shape_texture",
    "sprite_for_shape",
]

"""arcade_collide: exact, fast 2D collision detection for Arcade games, built on esper."""

from arcade_collide.ecs import (
    ALL_LAYERS,
    Body,
    CollisionEnded,
    CollisionStarted,
    CollisionSystem,
    HandlerDroppedWarning,
    Ladder,
    MovementSystem,
    Platformer,
    PlatformerSystem,
    Position,
    ResponseSystem,
    Shape,
    Solid,
    Static,
    Subscription,
    Support,
    Supports,
    Velocity,
)
from arcade_collide.geometry.arrays import pack
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.hits import BatchCastHits, BatchRayHits, CastHit, RayHit
from arcade_collide.geometry.point_in_triangle import (
    POINT_IN_TRIANGLE_METHODS,
    barycentric,
    point_in_triangle,
)
from arcade_collide.geometry.query.dispatch import (
    contact,
    contact_batch,
    intersects,
    intersects_batch,
)
from arcade_collide.geometry.query.ray_batches import ray_cast_batch, shape_cast_batch
from arcade_collide.geometry.query.ray_queries import ray_cast, shape_cast
from arcade_collide.geometry.shapes import Circle, Point, Polygon, Rect, ShapeKind, Triangle

__all__ = [
    "ALL_LAYERS",
    "POINT_IN_TRIANGLE_METHODS",
    "BatchCastHits",
    "BatchRayHits",
    "Body",
    "CastHit",
    "Circle",
    "CollisionEnded",
    "CollisionStarted",
    "CollisionSystem",
    "Contact",
    "HandlerDroppedWarning",
    "Ladder",
    "MovementSystem",
    "Platformer",
    "PlatformerSystem",
    "Point",
    "Polygon",
    "Position",
    "RayHit",
    "Rect",
    "ResponseSystem",
    "Shape",
    "ShapeKind",
    "Solid",
    "Static",
    "Subscription",
    "Support",
    "Supports",
    "Triangle",
    "Velocity",
    "barycentric",
    "contact",
    "contact_batch",
    "intersects",
    "intersects_batch",
    "pack",
    "point_in_triangle",
    "ray_cast",
    "ray_cast_batch",
    "shape_cast",
    "shape_cast_batch",
]

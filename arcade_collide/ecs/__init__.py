"""The ECS layer: esper components, MovementSystem, CollisionSystem and their events.

Nothing here imports arcade, and no geometry is done inline: the systems call
:mod:`arcade_collide.geometry`.
"""

from arcade_collide.ecs.collision import CollisionSystem
from arcade_collide.ecs.components import ALL_LAYERS, Position, Shape, Velocity
from arcade_collide.ecs.events import (
    ON_COLLISION_ENDED,
    ON_COLLISION_STARTED,
    CollisionEnded,
    CollisionStarted,
    Subscription,
)
from arcade_collide.ecs.movement import MovementSystem

__all__ = [
    "ALL_LAYERS",
    "ON_COLLISION_ENDED",
    "ON_COLLISION_STARTED",
    "CollisionEnded",
    "CollisionStarted",
    "CollisionSystem",
    "MovementSystem",
    "Position",
    "Shape",
    "Subscription",
    "Velocity",
]

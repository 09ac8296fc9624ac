"""The ECS layer: esper components, MovementSystem, CollisionSystem, ResponseSystem and
their events.

    import esper
    from arcade_collide import Circle, CollisionSystem, MovementSystem, Position, Shape, Velocity

    ent = esper.create_entity(Position(100, 50), Velocity(30, 0, angular=90), Shape(Circle(8)))
    esper.add_processor(MovementSystem())
    collisions = CollisionSystem()
    esper.add_processor(collisions)
    sub = collisions.subscribe(on_started=print, on_ended=print)  # held strongly
    esper.process(1 / 60)                                          # dt in seconds

Position and Velocity are handles on per-world numpy row pools
(:mod:`~arcade_collide.ecs.storage`); :mod:`~arcade_collide.ecs.collision` lists the
stages of a tick and states the event rules. Nothing here imports arcade.
"""

from arcade_collide.ecs.collision import CollisionSystem
from arcade_collide.ecs.components import ALL_LAYERS, Position, Shape, Static, Velocity
from arcade_collide.ecs.events import (
    ON_COLLISION_ENDED,
    ON_COLLISION_STARTED,
    CollisionEnded,
    CollisionStarted,
    HandlerDroppedWarning,
    Subscription,
)
from arcade_collide.ecs.movement import MovementSystem
from arcade_collide.ecs.platformer import Platformer, PlatformerSystem
from arcade_collide.ecs.response import ResponseSystem, Support, Supports
from arcade_collide.ecs.solids import Body, Ladder, Solid

__all__ = [
    "ALL_LAYERS",
    "ON_COLLISION_ENDED",
    "ON_COLLISION_STARTED",
    "Body",
    "CollisionEnded",
    "CollisionStarted",
    "CollisionSystem",
    "HandlerDroppedWarning",
    "Ladder",
    "MovementSystem",
    "Platformer",
    "PlatformerSystem",
    "Position",
    "ResponseSystem",
    "Shape",
    "Solid",
    "Static",
    "Subscription",
    "Support",
    "Supports",
    "Velocity",
]

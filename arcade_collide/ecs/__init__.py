"""The ECS layer: esper components, MovementSystem, CollisionSystem and their events.

    import esper
    from arcade_collide import Circle, CollisionSystem, MovementSystem, Position, Shape, Velocity

    ent = esper.create_entity(Position(100, 50), Velocity(30, 0, angular=90), Shape(Circle(8)))
    esper.add_processor(MovementSystem())
    collisions = CollisionSystem()
    esper.add_processor(collisions)
    sub = collisions.subscribe(on_started=print, on_ended=print)  # held strongly
    esper.process(1 / 60)                                          # dt in seconds

Data-oriented design: Position and Velocity objects are handles on rows of numpy row
pools, one pair of pools per esper world (:mod:`~arcade_collide.ecs.storage`,
:mod:`~arcade_collide.ecs.world_state`), so a tick moves every entity with a few
array operations. Per-entity Python work happens only when the world's structure
changes (esper hands back the same cached component list otherwise) or a Shape is
edited. One writer per piece of data: MovementSystem writes positions; only the
world-space shape table's refresh (:mod:`~arcade_collide.ecs.table`) writes world
shapes and boxes; CollisionSystem runs the stages after it (broad phase, narrow
phase, contact state, delivery: :mod:`~arcade_collide.ecs.collision` lists them and
states the event rules). Only :mod:`~arcade_collide.ecs.esper_internals` reads
esper's private state.

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
    HandlerDroppedWarning,
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
    "HandlerDroppedWarning",
    "MovementSystem",
    "Position",
    "Shape",
    "Subscription",
    "Velocity",
]

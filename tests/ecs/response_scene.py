"""Small scenes for the response tests: a world with movement, collisions and response."""

from __future__ import annotations

from typing import Any

import esper

from arcade_collide import (
    CollisionSystem,
    MovementSystem,
    Position,
    Rect,
    ResponseSystem,
    Shape,
    Static,
    Velocity,
)
from arcade_collide.ecs.solids import Body, Solid
from arcade_collide.geometry.shapes import AnyShape

DT = 1 / 60
TILE = 32.0


class Scene:
    """A world with a MovementSystem, a CollisionSystem and its ResponseSystem, and a
    log of the events."""

    def __init__(self, **response: Any) -> None:
        esper.add_processor(MovementSystem())
        self.collisions = CollisionSystem()
        esper.add_processor(self.collisions)
        self.response = ResponseSystem(self.collisions, **response)
        self.started: list[Any] = []
        self.ended: list[Any] = []
        self.sub = self.collisions.subscribe(
            on_started=self.started.append, on_ended=self.ended.append
        )

    def tile(self, x: float, y: float, w: float = TILE, h: float = TILE, **solid: Any) -> int:
        """A static solid rectangle centred at ``(x, y)``."""
        return esper.create_entity(Position(x, y), Shape(Rect(w, h)), Static(), Solid(**solid))

    def row(self, x0: float, y: float, count: int, **solid: Any) -> list[int]:
        """``count`` flush square tiles from centre ``x0`` rightwards."""
        return [self.tile(x0 + k * TILE, y, **solid) for k in range(count)]

    def column(self, x: float, y0: float, count: int) -> list[int]:
        """``count`` flush square tiles from centre ``y0`` upwards."""
        return [self.tile(x, y0 + k * TILE) for k in range(count)]

    def body(
        self,
        x: float,
        y: float,
        vx: float = 0.0,
        vy: float = 0.0,
        shape: AnyShape | None = None,
        swept: bool = False,
        **body: Any,
    ) -> int:
        geometry = Rect(20, 20) if shape is None else shape
        return esper.create_entity(
            Position(x, y), Velocity(vx, vy), Shape(geometry, swept=swept), Body(**body)
        )

    def step(self, ticks: int = 1, gravity: float = 0.0, bodies: tuple[int, ...] = ()) -> None:
        for _ in range(ticks):
            for entity in bodies:
                esper.component_for_entity(entity, Velocity).y -= gravity * DT
            esper.process(DT)


def pos(entity: int) -> tuple[float, float]:
    p = esper.component_for_entity(entity, Position)
    return p.x, p.y


def vel(entity: int) -> tuple[float, float]:
    v = esper.component_for_entity(entity, Velocity)
    return v.x, v.y

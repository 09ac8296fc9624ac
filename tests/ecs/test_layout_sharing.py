"""A change of layout that leaves a kind's rows alone hands that kind's placed arrays
(and the convex outlines) to the new layout uncopied: later placements, hand moves and
edits of those rows in the new layout must still give the right contacts and queries."""

from __future__ import annotations

import random

import esper
import numpy as np
from brute_force import touching_pairs

from arcade_collide.ecs import CollisionSystem, MovementSystem, Position, Shape, Static, Velocity
from arcade_collide.ecs.table import table_for_current_world
from arcade_collide.geometry.query.dispatch import intersects
from arcade_collide.geometry.shapes import Circle, Point, Rect


def _point_brute(x: float, y: float) -> list[int]:
    return sorted(
        e
        for e, (p, s) in esper.get_components(Position, Shape)
        if intersects(Point(), (x, y, 0.0), s.geometry, (p.x, p.y, p.angle))
    )


def test_rect_rows_shared_across_circle_churn_match_brute_force() -> None:
    world = "layout-sharing"
    esper.switch_world(world)
    try:
        esper.add_processor(MovementSystem())
        system = CollisionSystem()
        esper.add_processor(system)
        rng = random.Random(7)
        walls = [
            esper.create_entity(Position(12.0 * (k % 8), 12.0 * (k // 8)), Shape(Rect(10, 6)))
            for k in range(40)
        ]
        for wall in walls[::3]:
            esper.add_component(wall, Static())
        bullets = [
            esper.create_entity(
                Position(rng.uniform(0, 96), rng.uniform(0, 60)),
                Velocity(rng.uniform(-60, 60), rng.uniform(-60, 60)),
                Shape(Circle(3)),
            )
            for _ in range(12)
        ]
        esper.process(1 / 60)
        table = table_for_current_world()
        shared_seen = 0
        for tick in range(30):
            before = table.rows.rect_vertices, table._current.local
            # Only circles come and go: the rectangles' block keeps every row.
            for _ in range(2):
                esper.delete_entity(bullets.pop(rng.randrange(len(bullets))))
                bullets.append(
                    esper.create_entity(
                        Position(rng.uniform(0, 96), rng.uniform(0, 60)),
                        Velocity(rng.uniform(-60, 60), rng.uniform(-60, 60)),
                        Shape(Circle(3)),
                    )
                )
            esper.process(1 / 60)
            if table.rows.rect_vertices is before[0] and table._current.local is before[1]:
                shared_seen += 1
            assert system.touching() == touching_pairs()
            # Then a rectangle row of the new layout is written: moved by hand, or edited.
            wall = walls[rng.randrange(len(walls))]
            if tick % 3 == 0:
                shape = esper.component_for_entity(wall, Shape)
                shape.geometry = Rect(rng.uniform(4, 14), rng.uniform(4, 14))
            else:
                position = esper.component_for_entity(wall, Position)
                position.x += rng.uniform(-6, 6)
                position.y += rng.uniform(-6, 6)
                position.angle = rng.uniform(0, 1)
            esper.process(1 / 60)
            assert system.touching() == touching_pairs()
            for x, y in np.random.default_rng(tick).uniform(0, 96, (6, 2)).tolist():
                assert system.point_query((x, y)) == _point_brute(x, y)
        assert shared_seen > 0  # the sharing path was taken
    finally:
        esper.switch_world("default")
        esper.delete_world(world)

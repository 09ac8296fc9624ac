"""Static shapes: never tested against each other, correct when added, moved or deleted."""

from __future__ import annotations

import itertools

import esper
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.ecs import (
    CollisionEnded,
    CollisionStarted,
    CollisionSystem,
    MovementSystem,
    Position,
    Shape,
    Static,
    Velocity,
)
from arcade_collide.geometry.query.dispatch import intersects
from arcade_collide.geometry.shapes import Circle, Rect


def _system() -> CollisionSystem:
    esper.add_processor(MovementSystem())
    system = CollisionSystem()
    esper.add_processor(system)
    return system


def _expected(entities: list[int]) -> list[tuple[int, int]]:
    """Brute force: every touching pair except two static shapes."""
    out = []
    for a, b in itertools.combinations(sorted(entities), 2):
        if esper.has_component(a, Static) and esper.has_component(b, Static):
            continue
        pa, pb = esper.component_for_entity(a, Position), esper.component_for_entity(b, Position)
        sa, sb = esper.component_for_entity(a, Shape), esper.component_for_entity(b, Shape)
        if intersects(sa.geometry, (pa.x, pa.y, pa.angle), sb.geometry, (pb.x, pb.y, pb.angle)):
            out.append((a, b))
    return out


def test_touching_tiles_make_no_pairs_and_a_mover_meets_them() -> None:
    system = _system()
    tiles = [
        esper.create_entity(Position(32 * k, 0), Shape(Rect(32, 32)), Static()) for k in range(10)
    ]
    player = esper.create_entity(Position(40, 30), Velocity(0, 0), Shape(Circle(16)))
    esper.process(1 / 60)
    assert system.touching() == [(tiles[1], player)]


def test_marking_and_unmarking_static_ends_and_starts_pairs() -> None:
    system = _system()
    log: list[object] = []
    system.subscribe(on_started=log.append, on_ended=log.append)
    a = esper.create_entity(Position(0, 0), Shape(Rect(32, 32)))
    b = esper.create_entity(Position(32, 0), Shape(Rect(32, 32)))
    esper.process(1 / 60)
    assert [type(e) for e in log] == [CollisionStarted]
    esper.add_component(a, Static())
    esper.add_component(b, Static())
    esper.process(1 / 60)
    assert [type(e) for e in log[1:]] == [CollisionEnded] and system.touching() == []
    esper.remove_component(b, Static)
    esper.process(1 / 60)
    assert [type(e) for e in log[2:]] == [CollisionStarted] and system.touching() == [(a, b)]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 12), st.integers(0, 12), st.booleans(), st.booleans()),
        min_size=2,
        max_size=30,
    ),
    st.lists(st.tuples(st.integers(0, 29), st.integers(-3, 3), st.integers(-3, 3)), max_size=12),
)
def test_static_tiles_added_moved_and_deleted_match_brute_force(
    cells: list[tuple[int, int, bool, bool]], edits: list[tuple[int, int, int]]
) -> None:
    world = f"static-brute-{id(cells)}"
    esper.switch_world(world)
    try:
        system = _system()
        entities = []
        for x, y, static, moving in cells:
            parts: list[object] = [Position(10 * x, 10 * y), Shape(Rect(10, 10))]
            if static:
                parts.append(Static())
            if moving:
                parts.append(Velocity(float(np.sign(x - 6)) * 30, 0))
            entities.append(esper.create_entity(*parts))
        esper.process(1 / 60)
        assert system.touching() == _expected(entities)
        for k, dx, dy in edits:  # tiles moved by hand, some deleted
            if not entities:
                break
            e = entities[k % len(entities)]
            if not esper.entity_exists(e):
                continue
            if dx == 0 and dy == 0:
                esper.delete_entity(e)
                entities.remove(e)
            else:
                position = esper.component_for_entity(e, Position)
                position.x += 5 * dx
                position.y += 5 * dy
            for _ in range(2):  # the edit's tick, then one where only the movers move
                esper.process(1 / 60)
                assert system.touching() == _expected(entities)
    finally:
        esper.switch_world("default")
        esper.delete_world(world)


def test_static_rows_written_in_bulk_or_padded_wider_stay_exact() -> None:
    from arcade_collide.ecs.world_state import world_pools

    system = _system()
    tiles = [
        esper.create_entity(Position(10 * k, 0), Shape(Rect(10, 10)), Static()) for k in range(5)
    ]
    mover = esper.create_entity(Position(0, 20), Velocity(0, 0), Shape(Circle(4)))
    esper.process(1 / 60)
    assert system.touching() == []
    # A bulk write that does not say which rows: tile 2 lifted under the mover's reach.
    pools = world_pools()
    row = esper.component_for_entity(tiles[2], Position).pool_row
    pools.positions.data[row, 0:2] = (0.0, 12.0)
    pools.positions.touch()
    esper.process(1 / 60)
    assert system.touching() == [(tiles[2], mover)]
    # A shape far away widens every box's pad; the level's pairs stay the same.
    far = esper.create_entity(Position(3e9, 0), Shape(Circle(1)))
    esper.process(1 / 60)
    assert system.touching() == [(tiles[2], mover)]
    esper.delete_entity(far)
    esper.component_for_entity(mover, Position).x = 40.0
    esper.process(1 / 60)
    assert system.touching() == _expected([*tiles, mover])


def test_events_follow_the_pairs_while_idle_pairs_carry_over() -> None:
    system = _system()
    touching: set[tuple[int, int]] = set()
    system.subscribe(
        on_started=lambda e: touching.add((e.a, e.b)),
        on_ended=lambda e: touching.remove((e.a, e.b)),
    )
    rng = np.random.default_rng(7)
    entities = []
    for k in range(120):
        parts: list[object] = [Position(*rng.uniform(0, 200, 2)), Shape(Circle(8))]
        if k % 10 == 0:
            parts.append(Velocity(*rng.uniform(-90, 90, 2)))
        elif k % 10 == 1:
            parts.append(Static())
        entities.append(esper.create_entity(*parts))
    for _ in range(90):
        esper.process(1 / 30)
        assert sorted(touching) == system.touching() == _expected(entities)

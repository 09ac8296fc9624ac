"""Each esper world keeps its own pools, shape epoch and table; esper's private state is
read only on the esper version it was written for."""

from __future__ import annotations

from collections.abc import Iterator

import esper
import pytest

from arcade_collide.ecs import (
    CollisionEnded,
    CollisionSystem,
    MovementSystem,
    Position,
    Shape,
    Velocity,
    esper_internals,
)
from arcade_collide.ecs.table import table_for_current_world
from arcade_collide.ecs.world_state import world_pools
from arcade_collide.geometry.shapes import Circle, Rect


@pytest.fixture
def other(world: str) -> Iterator[str]:
    """A second world next to the test's own; the test's world is current again after."""
    name = world + "-other"
    yield name
    esper.switch_world(world)
    if name in esper.list_worlds():
        esper.delete_world(name)


def ticking_world(name: str) -> tuple[CollisionSystem, int]:
    """Switch to ``name`` and fill it with two touching circles and a system; one tick."""
    esper.switch_world(name)
    system = CollisionSystem()
    esper.add_processor(system)
    esper.add_processor(MovementSystem(), priority=1)
    entity = esper.create_entity(Position(0, 0), Shape(Circle(5)))
    esper.create_entity(Position(8, 0), Shape(Circle(5)))
    esper.process(1 / 60)
    return system, entity


def test_each_world_has_its_own_pools_and_table(world: str, other: str) -> None:
    mine = world_pools()
    table = table_for_current_world()
    p = Position(1, 2)
    esper.switch_world(other)
    assert world_pools() is not mine and table_for_current_world() is not table
    q = Position(3, 4)
    assert p._pool is mine.positions and q._pool is world_pools().positions
    esper.switch_world(world)
    assert world_pools() is mine and table_for_current_world() is table


def test_edits_in_one_world_make_no_work_in_another(world: str, other: str) -> None:
    system, entity = ticking_world(world)
    table = table_for_current_world()
    layout, revision = table.layout, table.revision
    shape = esper.component_for_entity(entity, Shape)

    _, other_entity = ticking_world(other)
    # A Shape created, a layer toggled and a position written over there...
    Shape(Rect(2, 2))
    other_shape = esper.component_for_entity(other_entity, Shape)
    other_shape.layer = 2
    esper.component_for_entity(other_entity, Position).x = 1.0
    esper.process(1 / 60)

    # ...leave this world's table as it was: no rebuild, not even a refresh.
    esper.switch_world(world)
    esper.process(1 / 60)
    assert (table.layout, table.revision) == (layout, revision)
    assert system.touching() == [(1, 2)]
    # While an edit here is picked up here.
    shape.layer = 2
    esper.process(1 / 60)
    assert table.layout == layout + 1


def test_a_position_made_while_another_world_was_current_is_read_from_its_pool(
    world: str, other: str
) -> None:
    esper.switch_world(other)
    made_elsewhere = Position(8, 0)
    moving_elsewhere = Position(100, 0)
    esper.switch_world(world)
    system = CollisionSystem()
    esper.add_processor(system)
    esper.add_processor(MovementSystem(), priority=1)
    esper.create_entity(Position(0, 0), Shape(Circle(5)))
    esper.create_entity(made_elsewhere, Shape(Circle(5)))
    esper.create_entity(moving_elsewhere, Velocity(-60 * 88, 0), Shape(Circle(5)))
    esper.process(1 / 60)
    assert moving_elsewhere.x == pytest.approx(12.0)
    assert system.touching() == [(1, 2), (2, 3)]
    made_elsewhere.x = 30.0  # written in the other world's pool, seen here
    esper.process(1 / 60)
    assert system.touching() == []


def test_a_position_shared_by_entities_moves_by_each_velocity() -> None:
    shared = Position(0, 0)
    esper.create_entity(shared, Velocity(60, 0))
    esper.create_entity(shared, Velocity(0, 120))
    esper.add_processor(MovementSystem())
    esper.process(1 / 60)
    assert (shared.x, shared.y) == (1.0, 2.0)


def test_another_esper_version_gets_the_public_fallbacks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(esper, "__version__", "3.10")
    previous = esper_internals.use_private_state(True)
    try:
        assert not esper_internals.private_state_in_use()
        assert esper_internals.entity_counter() is None
        doomed = esper.create_entity(Position(0, 0), Shape(Circle(1)))
        kept = esper.create_entity(Position(0, 0), Shape(Circle(1)))
        esper.delete_entity(doomed)
        assert set(esper_internals.pending_deletions([doomed, kept])) == {doomed}
        gone = esper_internals.pair_gone_check()
        assert gone(CollisionEnded(doomed, kept, False))
        assert not gone(CollisionEnded(kept, kept, False))
        assert set(esper_internals.holders(Shape)) == {doomed, kept}
    finally:
        monkeypatch.undo()
        esper_internals.use_private_state(previous)
    assert esper_internals.private_state_in_use()
    assert doomed in esper_internals.pending_deletions([])

"""Each esper world keeps its own pools, shape epoch and table; esper's private state is
read only on the esper version it was written for."""

from __future__ import annotations

from collections.abc import Iterator

import esper
import pytest

from arcade_collide.ecs import (
    CollisionEnded,
    CollisionStarted,
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
    # While an edit here is picked up here, in place.
    shape.layer = 2
    esper.process(1 / 60)
    assert (table.layout, table.revision) == (layout, revision + 1)
    assert 2 in table.layer.tolist()


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


def three_touching_pairs(world: str) -> CollisionSystem:
    """Six circles in ``world`` (current), touching in three pairs, and a system."""
    for x in (0, 100, 200):
        esper.create_entity(Position(x, 0), Shape(Circle(5)))
        esper.create_entity(Position(x + 8, 0), Shape(Circle(5)))
    system = CollisionSystem()
    esper.add_processor(system)
    return system


def count_switches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    switched: list[str] = []
    switch = esper.switch_world

    def counting(name: str) -> None:
        switched.append(name)
        switch(name)

    monkeypatch.setattr(esper, "switch_world", counting)
    return switched


def test_a_subscription_naming_a_world_runs_there_with_one_switch_each_way(
    world: str, other: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = three_touching_pairs(world)
    seen: list[tuple[int, str]] = []
    system.subscribe(on_started=lambda e: seen.append((e.a, esper.current_world)), world=other)
    esper.switch_world(other)
    esper.switch_world(world)
    switched = count_switches(monkeypatch)
    esper.process(1 / 60)
    assert seen == [(1, other), (3, other), (5, other)]
    assert switched == [other, world] and esper.current_world == world


def test_handlers_of_two_worlds_each_run_in_their_own(
    world: str, other: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    system = three_touching_pairs(world)
    seen: list[tuple[str, int, str]] = []
    system.subscribe(on_started=lambda e: seen.append(("own", e.a, esper.current_world)))
    system.subscribe(
        on_started=lambda e: seen.append(("other", e.a, esper.current_world)), world=other
    )
    esper.switch_world(other)
    esper.switch_world(world)
    switched = count_switches(monkeypatch)
    esper.process(1 / 60)
    assert seen == [
        (name, a, world if name == "own" else other) for a in (1, 3, 5) for name in ("own", "other")
    ]
    assert switched == [other, world] * 3 and esper.current_world == world


@pytest.mark.parametrize("private", [True, False])
def test_a_start_is_dropped_when_a_handler_in_another_world_deleted_its_entity(
    world: str, other: str, private: bool
) -> None:
    system = three_touching_pairs(world)
    seen: list[int] = []

    def delete_the_last_pair(event: CollisionStarted) -> None:
        seen.append(event.a)
        esper.switch_world(world)
        esper.delete_entity(6)
        esper.switch_world(other)

    system.subscribe(on_started=delete_the_last_pair, world=other)
    esper.switch_world(other)
    for _ in range(7):  # entities 1 to 7 exist there: only the system's world counts
        esper.create_entity()
    esper.switch_world(world)
    previous = esper_internals.use_private_state(private)
    try:
        esper.process(1 / 60)
    finally:
        esper_internals.use_private_state(previous)
    assert seen == [1, 3] and system.touching() == [(1, 2), (3, 4)]

"""A handler that restarts the level (``esper.clear_database()`` and rebuild) or deletes
the system's world: the rest of that tick's delivery is dropped with the old world, no
event names the new entities, and the next tick starts afresh (the "Restarts" rule of
:mod:`arcade_collide.ecs.collision`)."""

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
    esper_internals,
)
from arcade_collide.geometry.shapes import Circle

Event = CollisionStarted | CollisionEnded
PAIRS = 5


def circle(x: float, y: float = 0.0) -> int:
    return esper.create_entity(Position(x, y), Shape(Circle(5)))


def touching_level() -> list[int]:
    """``PAIRS`` touching pairs of circles, far apart from each other."""
    return [circle(100 * k + dx) for k in range(PAIRS) for dx in (0, 8)]


def apart_level() -> list[int]:
    """As many circles as :func:`touching_level`, none touching."""
    return [circle(100 * k) for k in range(2 * PAIRS)]


def log_of(system: CollisionSystem) -> list[tuple[str, int, int]]:
    log: list[tuple[str, int, int]] = []
    system.subscribe(
        on_started=lambda e: log.append(("Started", e.a, e.b)),
        on_ended=lambda e: log.append(("Ended", e.a, e.b)),
    )
    return log


@pytest.fixture
def private_state(request: pytest.FixtureRequest) -> Iterator[bool]:
    previous = esper_internals.use_private_state(request.param)
    try:
        yield request.param
    finally:
        esper_internals.use_private_state(previous)


def test_a_restart_in_a_started_handler_ends_the_delivery() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    esper.add_processor(MovementSystem(), priority=1)
    old = touching_level()
    restarted: list[int] = []

    def restart(event: CollisionStarted) -> None:
        if not restarted:
            esper.clear_database()
            restarted.extend(apart_level())

    system.subscribe(on_started=restart)
    log = log_of(system)  # subscribed after: it does not even get the first event
    esper.process(1 / 60)
    assert restarted == old  # the same ids name new entities
    assert log == []
    assert system.touching() == [] and system.contacts() == {}
    esper.process(1 / 60)
    assert log == []  # the old pairs were dropped with the old world; the new don't touch
    a, b = restarted[:2]
    esper.component_for_entity(b, Position).x = 9
    esper.process(1 / 60)
    assert log == [("Started", a, b)] and system.touching() == [(a, b)]
    esper.delete_entity(b)
    esper.process(1 / 60)
    assert log == [("Started", a, b), ("Ended", a, b)]


def test_the_restarting_handler_sees_one_start_and_no_end() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    touching_level()
    log = log_of(system)

    def restart(event: CollisionStarted) -> None:
        esper.clear_database()
        apart_level()

    system.subscribe(on_started=restart)
    esper.process(1 / 60)
    # The documented rule: the one delivered start is dropped with the old world.
    assert log == [("Started", 1, 2)]
    for _ in range(3):
        esper.process(1 / 60)
    assert log == [("Started", 1, 2)]


def test_a_restart_in_an_ended_handler_drops_the_rest_of_the_tick() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    ids = touching_level()
    esper.process(1 / 60)
    log = log_of(system)
    circle(-3)  # a new pair (0, this) starts this tick
    for entity in ids[1::2]:
        esper.component_for_entity(entity, Position).y = 50  # every old pair ends
    rebuilt: list[int] = []

    def restart(event: CollisionEnded) -> None:
        esper.clear_database()
        rebuilt.extend(touching_level())  # touching again, under the same ids

    system.subscribe(on_ended=restart)
    esper.process(1 / 60)
    assert log == [("Ended", 1, 2)]
    assert system.touching() == []
    esper.process(1 / 60)
    # Next tick: the new level's pairs start afresh.
    assert log[1:] == [("Started", a, b) for a, b in zip(rebuilt[::2], rebuilt[1::2], strict=True)]


def test_an_esper_handler_restarting_stops_the_subscriptions_too() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    touching_level()
    log = log_of(system)
    seen: list[CollisionStarted] = []

    def restart(event: CollisionStarted) -> None:
        seen.append(event)
        esper.clear_database()
        apart_level()

    esper.set_handler("on_collision_started", restart)  # esper's handlers come first
    try:
        esper.process(1 / 60)
    finally:
        esper.remove_handler("on_collision_started", restart)
    assert len(seen) == 1 and log == []


def test_clearing_between_ticks_empties_touching_at_once() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    touching_level()
    esper.process(1 / 60)
    assert len(system.touching()) == PAIRS
    esper.clear_database()
    touching_level()  # ids 1 to 10 again, touching as before
    assert system.touching() == [] and system.contacts() == {}


def test_an_interrupt_after_a_restart_keeps_nothing_of_the_old_world() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    ids = touching_level()
    esper.process(1 / 60)
    log = log_of(system)
    for entity in ids[1::2]:
        esper.component_for_entity(entity, Position).y = 50

    def restart_then_interrupt(event: CollisionEnded) -> None:
        esper.clear_database()
        apart_level()
        raise KeyboardInterrupt

    system.subscribe(on_ended=restart_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        esper.process(1 / 60)
    assert log == [("Ended", 1, 2)]
    esper.process(1 / 60)  # no ended event of the old world is carried over
    assert log == [("Ended", 1, 2)] and system.touching() == []


@pytest.mark.parametrize("private_state", [True, False], indirect=True)
@pytest.mark.parametrize("in_other_world", [False, True])
def test_a_handler_deleting_the_systems_world(
    world: str, private_state: bool, in_other_world: bool
) -> None:
    other = world + "-menu"
    system = CollisionSystem()
    esper.add_processor(system)
    touching_level()
    seen: list[CollisionStarted] = []

    def leave_and_delete(event: CollisionStarted) -> None:
        seen.append(event)
        if esper.current_world != other:
            esper.switch_world(other)
        esper.delete_world(world)

    esper.switch_world(other)  # (so that the world exists for the subscription)
    esper.switch_world(world)
    system.subscribe(on_started=leave_and_delete, world=other if in_other_world else None)
    try:
        esper.process(1 / 60)
        assert [(e.a, e.b) for e in seen] == [(1, 2)]
        # The deleted world is not created again by switching back to it.
        assert world not in esper.list_worlds() and esper.current_world == other
        assert system.touching() == [] and system.contacts() == {}
    finally:
        esper.switch_world(world)
        esper.delete_world(other)

"""Faults: raising handlers, processors removed and re-added, worlds switched and recreated.

The ECS's documented rules (``arcade_collide.ecs.collision``): a handler that raises
does not stop delivery; the remaining events of the tick are delivered, then the
first exception reaches the caller of ``esper.process()`` (later ones are attached
as notes); the state was stored before delivery, so the next tick is correct. A
system belongs to its world; switching away and back is safe; a deleted and
recreated (or cleared) world starts afresh without events.

Each test runs in its own esper world (``tests/ecs/conftest.py``).
"""

from __future__ import annotations

import random

import esper
import pytest
from test_event_conservation import Ledger, brute_force_pairs, mutate, spawn

from arcade_collide import Circle, Rect
from arcade_collide.ecs import (
    CollisionEnded,
    CollisionStarted,
    CollisionSystem,
    MovementSystem,
    Position,
    Shape,
)


class BoomError(Exception):
    """The fault the handlers inject."""


def row_of_pairs(n: int, x0: float = 0.0) -> list[int]:
    """``2n`` circles: entities 2k and 2k+1 touch, pairs far apart from each other."""
    entities = []
    for k in range(n):
        entities.append(esper.create_entity(Position(x0 + 100 * k, 0), Shape(Circle(5))))
        entities.append(esper.create_entity(Position(x0 + 100 * k + 8, 0), Shape(Rect(6, 6))))
    return entities


def pairs_of(entities: list[int]) -> list[tuple[int, int]]:
    return [(entities[i], entities[i + 1]) for i in range(0, len(entities), 2)]


def separate(entities: list[int]) -> None:
    for e in entities[1::2]:
        esper.component_for_entity(e, Position).y = 50.0


class Recorder:
    def __init__(self, system: CollisionSystem) -> None:
        self.started: list[tuple[int, int]] = []
        self.ended: list[tuple[int, int]] = []
        system.subscribe(on_started=self.on_started, on_ended=self.on_ended)

    def on_started(self, event: CollisionStarted) -> None:
        self.started.append((event.a, event.b))

    def on_ended(self, event: CollisionEnded) -> None:
        self.ended.append((event.a, event.b))


def test_raising_started_handler_loses_no_event_and_next_tick_is_correct() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    entities = row_of_pairs(4)
    calls: list[tuple[int, int]] = []

    def explode_on_second(event: CollisionStarted) -> None:
        calls.append((event.a, event.b))
        if len(calls) in (2, 3):
            raise BoomError(f"pair {event.a}-{event.b}")

    system.subscribe(on_started=explode_on_second)
    after = Recorder(system)  # subscribed after the raising handler
    expected = pairs_of(entities)
    with pytest.raises(BoomError, match=f"pair {expected[1][0]}-{expected[1][1]}") as info:
        esper.process(1 / 60)
    # Every event reached every handler, the raising one included.
    assert calls == expected
    assert after.started == expected
    notes = getattr(info.value, "__notes__", [])
    assert any(f"pair {expected[2][0]}-{expected[2][1]}" in note for note in notes)
    assert system.touching() == expected == sorted(brute_force_pairs())
    # The next tick is correct: no repeated starts, and separation ends every pair once.
    esper.process(1 / 60)
    assert after.started == expected
    separate(entities)
    esper.process(1 / 60)
    assert after.ended == expected
    assert system.touching() == [] == sorted(brute_force_pairs())


def test_raising_ended_handler_still_delivers_the_started_events_of_the_tick() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    old = row_of_pairs(3)
    esper.process(1 / 60)

    def explode(event: CollisionEnded) -> None:
        raise BoomError("ended")

    system.subscribe(on_ended=explode)
    recorder = Recorder(system)
    separate(old)
    new = row_of_pairs(2, x0=1000)
    with pytest.raises(BoomError, match="ended"):
        esper.process(1 / 60)
    assert recorder.ended == pairs_of(old)
    assert recorder.started == pairs_of(new)
    assert system.touching() == pairs_of(new) == sorted(brute_force_pairs())
    esper.process(1 / 60)
    assert recorder.ended == pairs_of(old)
    assert recorder.started == pairs_of(new)


def test_raising_esper_handler_is_reported_and_delivery_continues() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    entities = row_of_pairs(3)

    class Listener:
        def __init__(self) -> None:
            self.seen: list[tuple[int, int]] = []

        def on_started(self, event: CollisionStarted) -> None:
            self.seen.append((event.a, event.b))
            raise BoomError("esper handler")

    listener = Listener()  # kept alive here: esper only holds a weak reference
    esper.set_handler("on_collision_started", listener.on_started)
    recorder = Recorder(system)
    try:
        with pytest.raises(BoomError, match="esper handler"):
            esper.process(1 / 60)
    finally:
        esper.event_registry.pop("on_collision_started", None)
    assert listener.seen == recorder.started == pairs_of(entities)


def test_handler_raising_on_every_event_under_churn_keeps_events_conserved() -> None:
    """A handler that raises now and then, in random churn: the ledger still balances."""
    rng = random.Random(4)
    esper.add_processor(MovementSystem(), priority=1)
    system = CollisionSystem()
    esper.add_processor(system)
    ledger = Ledger(system)

    def flaky(event: CollisionStarted | CollisionEnded) -> None:
        if rng.random() < 0.3:
            if esper.entity_exists(event.a) and rng.random() < 0.3:
                mutate(rng, event.a, ledger)
            raise BoomError("flaky")

    system.subscribe(on_started=flaky, on_ended=flaky)
    for _ in range(20):
        spawn(rng)
    raised = 0
    for _ in range(300):
        for _, (position,) in list(esper.get_components(Position)):
            if not (0 <= position.x <= 80 and 0 <= position.y <= 80):
                position.x, position.y = rng.uniform(0, 80), rng.uniform(0, 80)
        try:
            ledger.tick(1 / 30)
        except BoomError:
            raised += 1
            # tick() stopped at the exception: check what it would have checked.
            assert set(system.touching()) == {
                p for p in ledger.open if esper.entity_exists(p[0]) and esper.entity_exists(p[1])
            }
    assert raised > 10
    assert ledger.started > 20


class Spy(BaseException):
    """Not an Exception: the kind of fault ``except Exception`` does not catch."""


def test_base_exception_in_a_handler_leaves_no_ghost_ended_events() -> None:
    """KeyboardInterrupt-like faults cut delivery short; the pairs whose started event was
    never delivered must not later produce an ended event (ghost)."""
    system = CollisionSystem()
    esper.add_processor(system)
    entities = row_of_pairs(3)
    recorder = Recorder(system)

    def interrupt(event: CollisionStarted) -> None:
        raise Spy

    sub = system.subscribe(on_started=interrupt)
    with pytest.raises(Spy):
        esper.process(1 / 60)
    sub.unsubscribe()
    delivered = list(recorder.started)
    esper.process(1 / 60)
    separate(entities)
    esper.process(1 / 60)
    started = set(recorder.started)
    assert all(pair in started for pair in recorder.ended), (recorder.started, recorder.ended)
    assert len(recorder.ended) == len(recorder.started), delivered


def test_processor_removed_and_added_back_has_no_stale_pairs() -> None:
    rng = random.Random(11)
    esper.add_processor(MovementSystem(), priority=1)
    system = CollisionSystem()
    esper.add_processor(system)
    ledger = Ledger(system)
    for _ in range(20):
        spawn(rng)
    for _ in range(30):
        ledger.tick(1 / 30)
    esper.remove_processor(CollisionSystem)
    # While it is away the world changes: moves, deletions, new entities, edits.
    for _ in range(20):
        for entity in rng.sample([e for e, _ in esper.get_component(Position)], 5):
            mutate(rng, entity, ledger)
        spawn(rng)
        esper.process(1 / 30)
    esper.add_processor(system)
    ledger.tick(1 / 30)  # checks touching == open == brute force
    assert set(system.touching()) == brute_force_pairs()
    for _ in range(30):
        ledger.tick(1 / 30)


def test_world_switched_away_and_back_keeps_its_own_pairs(world: str) -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    home = row_of_pairs(2)
    recorder = Recorder(system)
    esper.process(1 / 60)
    assert recorder.started == pairs_of(home)
    other = f"{world}-other"
    esper.switch_world(other)
    try:
        # The same entity ids, other shapes and pairs, its own system.
        other_system = CollisionSystem()
        esper.add_processor(other_system)
        away = [esper.create_entity(Position(0, 500), Shape(Circle(1))) for _ in range(5)]
        esper.process(1 / 60)
        assert set(away) & set(home)
        assert len(other_system.touching()) == 10
    finally:
        esper.switch_world(world)
        esper.delete_world(other)
    esper.process(1 / 60)
    assert recorder.started == pairs_of(home)
    assert recorder.ended == []
    assert system.touching() == pairs_of(home) == sorted(brute_force_pairs())
    separate(home)
    esper.process(1 / 60)
    assert recorder.ended == pairs_of(home)


def test_world_deleted_and_recreated_starts_afresh(world: str) -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    row_of_pairs(3)
    recorder = Recorder(system)
    esper.process(1 / 60)
    assert len(recorder.started) == 3
    esper.switch_world("default")
    esper.delete_world(world)
    esper.switch_world(world)
    esper.add_processor(system)
    fresh = row_of_pairs(1, x0=40)
    esper.process(1 / 60)
    # The old pairs are gone with their world: no ended events for them, and the new
    # pair (whose ids collide with an old one) starts once.
    assert recorder.ended == []
    assert recorder.started[3:] == pairs_of(fresh)
    assert system.touching() == pairs_of(fresh) == sorted(brute_force_pairs())

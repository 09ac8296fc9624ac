"""CollisionSystem: deletion, handlers that mutate or raise, filters, subscriptions,
worlds, edits between ticks and bad input."""

from __future__ import annotations

import gc

import esper
import pytest

from arcade_collide.ecs import (
    ON_COLLISION_ENDED,
    ON_COLLISION_STARTED,
    CollisionEnded,
    CollisionStarted,
    CollisionSystem,
    HandlerDroppedWarning,
    MovementSystem,
    Position,
    Shape,
    Velocity,
)
from arcade_collide.ecs.world_state import world_pools
from arcade_collide.geometry.shapes import Circle, Rect

Event = CollisionStarted | CollisionEnded


def circle(x: float, y: float, r: float = 5.0, **shape: object) -> int:
    return esper.create_entity(Position(x, y), Shape(Circle(r), **shape))  # type: ignore[arg-type]


def system_with_log(movement: bool = False) -> tuple[CollisionSystem, list[Event]]:
    if movement:
        esper.add_processor(MovementSystem())
    system = CollisionSystem()
    esper.add_processor(system)
    log: list[Event] = []
    system.subscribe(on_started=log.append, on_ended=log.append)
    return system, log


def names(log: list[Event]) -> list[tuple[str, int, int]]:
    out = [(type(e).__name__[9:], e.a, e.b) for e in log]
    log.clear()
    return out


def assert_no_dead_ids(system: CollisionSystem) -> None:
    for a, b in system.touching():
        assert esper.entity_exists(a) and esper.entity_exists(b)
    for a, b in system.contacts():
        assert esper.entity_exists(a) and esper.entity_exists(b)


@pytest.mark.parametrize("immediate", [False, True])
def test_deleting_an_entity_ends_its_contacts(immediate: bool) -> None:
    system, log = system_with_log()
    a, b, c = circle(0, 0), circle(8, 0), circle(16, 0)
    esper.process(1 / 60)
    assert names(log) == [("Started", a, b), ("Started", b, c)]
    esper.delete_entity(b, immediate=immediate)
    esper.process(1 / 60)
    assert names(log) == [("Ended", a, b), ("Ended", b, c)]
    assert system.touching() == []
    assert_no_dead_ids(system)


def test_entity_marked_dead_by_an_earlier_processor_takes_no_part() -> None:
    _a, b = circle(0, 0), circle(8, 0)

    class Killer(esper.Processor):
        def process(self, *args: object) -> None:
            if esper.entity_exists(b):
                esper.delete_entity(b)  # deferred: b is still in esper's tables

    esper.add_processor(Killer(), priority=10)
    system, log = system_with_log()
    esper.process(1 / 60)
    assert names(log) == []
    assert system.touching() == []


def test_removing_the_shape_ends_contacts_and_adding_it_back_starts_them() -> None:
    _system, log = system_with_log()
    a, b = circle(0, 0), circle(8, 0)
    esper.process(1 / 60)
    names(log)
    shape = esper.remove_component(b, Shape)
    esper.process(1 / 60)
    assert names(log) == [("Ended", a, b)]
    esper.add_component(b, shape)
    esper.process(1 / 60)
    assert names(log) == [("Started", a, b)]


def test_handlers_may_create_and_delete_entities() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    a, b, c = circle(0, 0), circle(8, 0), circle(100, 0)
    created: list[int] = []
    seen: list[Event] = []

    def on_started(event: CollisionStarted) -> None:
        seen.append(event)
        esper.delete_entity(event.a)
        created.append(circle(100, 5))  # touches c from the next tick on

    system.subscribe(on_started=on_started, on_ended=seen.append)
    esper.process(1 / 60)
    assert [(type(e).__name__, e.a, e.b) for e in seen] == [("CollisionStarted", a, b)]
    seen.clear()
    esper.process(1 / 60)
    assert [(type(e).__name__, e.a, e.b) for e in seen] == [
        ("CollisionEnded", a, b),
        ("CollisionStarted", c, created[0]),
    ]
    assert_no_dead_ids(system)


def test_started_events_naming_an_entity_deleted_during_delivery_are_dropped() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    a, b, _c = circle(0, 0), circle(8, 0), circle(16, 0)
    seen: list[Event] = []

    def on_started(event: CollisionStarted) -> None:
        seen.append(event)
        if event.a == a:
            esper.delete_entity(b)  # b also appears in the next event (b, c)

    system.subscribe(on_started=on_started, on_ended=seen.append)
    esper.process(1 / 60)
    assert [(e.a, e.b) for e in seen] == [(a, b)]
    assert system.touching() == []  # b is dead: queries leave its pairs out at once
    seen.clear()
    esper.process(1 / 60)
    # Every delivered start gets exactly one end; the dropped pair gets none.
    assert [(type(e).__name__, e.a, e.b) for e in seen] == [("CollisionEnded", a, b)]


def test_a_started_event_is_dropped_when_its_entity_was_replaced_during_delivery() -> None:
    # Deleting at once and creating another keeps the entity count, and a query
    # rebuilds esper's cache: the event naming the deleted entity is still dropped.
    system = CollisionSystem()
    esper.add_processor(system)
    a, b = circle(0, 0), circle(8, 0)
    c, d = circle(100, 0), circle(108, 0)
    seen: list[Event] = []

    def on_started(event: CollisionStarted) -> None:
        seen.append(event)
        if event.a == a:
            esper.delete_entity(c, immediate=True)
            esper.create_entity(Position(500, 500))
            esper.get_component(Position)

    system.subscribe(on_started=on_started, on_ended=seen.append)
    esper.process(1 / 60)
    assert [(e.a, e.b) for e in seen] == [(a, b)]
    assert esper.entity_exists(d)
    seen.clear()
    esper.process(1 / 60)
    assert seen == []


def test_a_raising_handler_still_lets_the_tick_finish() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    a, b, c = circle(0, 0), circle(8, 0), circle(16, 0)
    seen: list[tuple[int, int]] = []

    def on_started(event: CollisionStarted) -> None:
        seen.append((event.a, event.b))
        raise RuntimeError(f"boom {event.a}")

    system.subscribe(on_started=on_started)
    with pytest.raises(RuntimeError, match=f"boom {a}") as info:
        esper.process(1 / 60)
    assert seen == [(a, b), (b, c)]  # the second event was delivered too
    notes = getattr(info.value, "__notes__", [f"boom {b}"])
    assert any(f"boom {b}" in note for note in notes)
    assert system.touching() == [(a, b), (b, c)]
    seen.clear()
    esper.process(1 / 60)  # consistent: no repeated starts
    assert seen == []


def test_layer_and_mask_filter_pairs() -> None:
    _system, log = system_with_log()
    player = circle(0, 0, layer=0b01, mask=0b10)
    enemy = circle(8, 0, layer=0b10, mask=0b01)
    ghost = circle(4, 0, layer=0b100, mask=0b111)  # nobody collides with layer 3
    wall = circle(-4, 8, layer=0b10, mask=0b00)  # collides with nothing
    esper.process(1 / 60)
    assert names(log) == [("Started", player, enemy)]
    esper.component_for_entity(wall, Shape).mask = 0b01
    esper.component_for_entity(ghost, Shape).layer = 0b01
    esper.process(1 / 60)
    assert names(log) == [("Started", player, wall), ("Started", enemy, ghost)]
    assert esper.component_for_entity(player, Shape).layer & 0b10 == 0  # ghost stays out


def test_sensors_get_events_marked_as_sensor() -> None:
    system, log = system_with_log()
    zone = esper.create_entity(Position(0, 0), Shape(Rect(50, 50), sensor=True))
    body = circle(10, 10)
    other = circle(100, 100)
    far = circle(108, 100)
    esper.process(1 / 60)
    assert [(e.a, e.b, e.sensor) for e in log] == [(zone, body, True), (other, far, False)]
    assert set(system.contacts(sensors=False)) == {(other, far)}
    assert set(system.contacts()) == {(zone, body), (other, far)}
    log.clear()
    esper.delete_entity(zone)
    esper.process(1 / 60)
    assert log == [CollisionEnded(zone, body, True)]


def test_subscribe_and_unsubscribe() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    got: list[Event] = []
    sub = system.subscribe(on_started=lambda e: got.append(e))  # lambdas are fine here
    gc.collect()
    circle(0, 0)
    circle(8, 0)
    esper.process(1 / 60)
    assert len(got) == 1
    sub.unsubscribe()
    sub.unsubscribe()  # harmless
    assert not sub.active
    esper.component_for_entity(1, Position).x = 100
    esper.process(1 / 60)
    with system.subscribe(on_ended=got.append):
        esper.component_for_entity(1, Position).x = 0
        esper.process(1 / 60)
        esper.component_for_entity(1, Position).x = 100
        esper.process(1 / 60)
    assert [type(e).__name__ for e in got] == ["CollisionStarted", "CollisionEnded"]


def test_a_handler_removed_during_delivery_gets_no_more_events_that_tick() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    for x in (0, 8, 100, 108):
        circle(x, 0)
    got: list[tuple[str, int]] = []

    def by_esper(event: CollisionStarted) -> None:
        got.append(("esper", event.a))

    def remover(event: CollisionStarted) -> None:
        got.append(("remover", event.a))
        later.unsubscribe()
        esper.remove_handler(ON_COLLISION_STARTED, by_esper)

    esper.set_handler(ON_COLLISION_STARTED, by_esper)
    system.subscribe(on_started=remover)
    later = system.subscribe(on_started=lambda event: got.append(("later", event.a)))
    esper.process(1 / 60)
    # esper's handlers come first; the removal stops both removed handlers at once.
    assert got == [("esper", 1), ("remover", 1), ("remover", 3)]


def test_esper_handlers_are_weak_as_documented() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    got: list[Event] = []

    def keep(event: CollisionStarted) -> None:
        got.append(event)

    esper.set_handler(ON_COLLISION_STARTED, keep)
    with pytest.warns(HandlerDroppedWarning):  # dropped by esper, and said so
        esper.set_handler(ON_COLLISION_STARTED, lambda e: got.append(e))
    with pytest.warns(HandlerDroppedWarning):
        esper.set_handler(ON_COLLISION_ENDED, lambda e: got.append(e))
    gc.collect()
    circle(0, 0)
    circle(8, 0)
    esper.process(1 / 60)
    assert len(got) == 1  # only the named function, once: the lambda was dropped
    esper.remove_handler(ON_COLLISION_STARTED, keep)


def test_a_system_belongs_to_its_world(world: str) -> None:
    system, log = system_with_log()
    a, b = circle(0, 0), circle(8, 0)
    esper.process(1 / 60)
    esper.switch_world(world + "-other")
    try:
        # The other world has its own entities with the same ids, far apart.
        esper.create_entity(Position(0, 0), Shape(Circle(1)))
        esper.create_entity(Position(50, 0), Shape(Circle(1)))
        other = CollisionSystem()
        esper.add_processor(other)
        esper.process(1 / 60)
        assert other.touching() == []
        with pytest.raises(RuntimeError, match="belongs to esper world"):
            system.process()
    finally:
        esper.switch_world(world)
        esper.delete_world(world + "-other")
    # Back home: nothing stale, nothing new.
    esper.process(1 / 60)
    assert names(log) == [("Started", a, b)]
    assert system.touching() == [(a, b)]


def test_clear_database_starts_afresh_without_events() -> None:
    system, log = system_with_log()
    circle(0, 0)
    circle(8, 0)
    esper.process(1 / 60)
    names(log)
    esper.clear_database()
    a, b = circle(0, 0), circle(100, 0)  # ids 1 and 2 again, not touching
    esper.process(1 / 60)
    assert names(log) == []
    assert system.touching() == []
    esper.component_for_entity(b, Position).x = 9
    esper.process(1 / 60)
    assert names(log) == [("Started", a, b)]


def test_clear_database_also_forgets_ended_events_an_interrupt_deferred() -> None:
    ids, got = interrupted_after_the_first_end()
    esper.clear_database()
    for k in range(4):
        circle(1000 * k, 0)  # ids 1 to 4 again, none touching
    esper.process(1 / 60)
    assert [(e.a, e.b) for e in got] == [(ids[0], ids[1])]


def test_geometry_change_is_picked_up() -> None:
    system, log = system_with_log(movement=True)
    a, b = circle(0, 0), circle(20, 0)
    esper.process(1 / 60)
    assert names(log) == []
    esper.component_for_entity(a, Shape).geometry = Circle(15)
    esper.process(1 / 60)
    assert names(log) == [("Started", a, b)]
    esper.component_for_entity(b, Shape).geometry = Rect(12, 2)  # the kind changes too
    esper.process(1 / 60)
    assert names(log) == []  # still touching: x 14..26 against the circle up to 15
    assert system.contacts()[(a, b)].depth == pytest.approx(1.0)
    esper.component_for_entity(a, Shape).geometry = Circle(5)
    esper.process(1 / 60)
    assert names(log) == [("Ended", a, b)]


@pytest.mark.parametrize("movement", [False, True])
def test_position_edited_by_hand_is_picked_up(movement: bool) -> None:
    _system, log = system_with_log(movement=movement)
    a, b = circle(0, 0), circle(50, 0)
    esper.process(1 / 60)
    esper.component_for_entity(b, Position).x = 9
    esper.process(1 / 60)
    assert names(log) == [("Started", a, b)]
    esper.component_for_entity(a, Position).angle = 45  # no effect on circles
    esper.component_for_entity(a, Position).y = -30
    esper.process(1 / 60)
    assert names(log) == [("Ended", a, b)]


def test_non_finite_position_raises_naming_the_entity_and_keeps_contacts() -> None:
    system, log = system_with_log(movement=True)
    _a, _b = circle(0, 0), circle(8, 0)
    c = esper.create_entity(Position(300, 0), Velocity(0, 0), Shape(Circle(1)))
    esper.process(1 / 60)
    before = system.contacts()
    names(log)
    # Only a direct write to the shared table can smuggle a NaN in (setters refuse it).
    row = esper.component_for_entity(c, Position).pool_row
    pos_pool = world_pools().positions
    pos_pool.data[row, 0] = float("nan")
    pos_pool.touch()
    with pytest.raises(ValueError, match=f"entity {c}: Position .*finite"):
        esper.process(1 / 60)
    assert system.contacts() == before
    assert log == []
    pos_pool.data[row, 0] = 300.0
    pos_pool.touch()
    esper.process(1 / 60)
    assert log == [] and system.contacts() == before


def test_shape_without_position_is_an_error_naming_the_entity() -> None:
    system, _ = system_with_log()
    circle(0, 0)
    lost = esper.create_entity(Shape(Circle(3)))
    with pytest.raises(ValueError, match=f"entity {lost} has a Shape but no Position"):
        esper.process(1 / 60)
    esper.add_component(lost, Position(0, 0))
    esper.process(1 / 60)
    assert system.touching() == [(1, lost)]


def test_no_listener_means_no_event_objects_but_state_is_kept() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    a, b = circle(0, 0), circle(8, 0)
    esper.process(1 / 60)
    assert system.touching() == [(a, b)]
    got: list[Event] = []
    system.subscribe(on_ended=got.append)
    esper.component_for_entity(b, Position).x = 50
    esper.process(1 / 60)
    assert got == [CollisionEnded(a, b, False)]


class Interrupt(BaseException):
    """Like KeyboardInterrupt: not caught by ``except Exception``."""


def interrupted_after_the_first_end() -> tuple[list[int], list[Event]]:
    """Three touching neighbours move apart; the ended handler interrupts the tick
    after the first of the three ended events. Returns the ids and the events seen."""
    system = CollisionSystem()
    esper.add_processor(system)
    ids = [circle(10 * k, 0) for k in range(4)]
    esper.process(1 / 60)
    got: list[Event] = []

    def on_ended(event: CollisionEnded) -> None:
        got.append(event)
        if len(got) == 1:
            raise Interrupt

    system.subscribe(on_ended=on_ended)
    for k, entity in enumerate(ids):
        esper.component_for_entity(entity, Position).y = 100 * k  # everyone apart
    with pytest.raises(Interrupt):
        esper.process(1 / 60)
    return ids, got


def test_base_exception_defers_undelivered_ended_events_to_the_next_tick() -> None:
    ids, got = interrupted_after_the_first_end()
    assert [(e.a, e.b) for e in got] == [(ids[0], ids[1])]
    esper.process(1 / 60)
    assert [(e.a, e.b) for e in got] == [(ids[k], ids[k + 1]) for k in range(3)]
    esper.process(1 / 60)
    assert len(got) == 3

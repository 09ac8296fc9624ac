"""Swept shapes' events: the flag's life (edits, copies), the time of impact field,
relative motion, turning shapes, stopping, and delivery cut short.

The crossings themselves are checked against a sub-stepped reference in
``test_swept_reference.py``; here each rule of :mod:`arcade_collide.ecs.swept` and of
the delivery order gets a small scene whose answer is known by hand.
"""

from __future__ import annotations

import copy
import pickle
from typing import Any

import esper
import numpy as np
import pytest
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
from arcade_collide.ecs.swept_events import time_order
from arcade_collide.ecs.table import table_for_current_world
from arcade_collide.geometry.shapes import Circle, Rect

DT = 1 / 60


def _system(**options: Any) -> tuple[CollisionSystem, list[object]]:
    esper.add_processor(MovementSystem(), priority=2)
    system = CollisionSystem(**options)
    esper.add_processor(system, priority=1)
    log: list[object] = []
    system.subscribe(on_started=log.append, on_ended=log.append)
    return system, log


def _wall(x: float, width: float = 4.0, **options: Any) -> int:
    return esper.create_entity(Position(x, 0), Shape(Rect(width, 100), **options), Static())


def test_a_swept_bullet_reports_the_wall_it_jumped_over_with_its_time_of_impact() -> None:
    wall = _wall(100)
    bullet = esper.create_entity(Position(60, 0), Velocity(6000, 0), Shape(Circle(1), swept=True))
    _, log = _system()
    esper.process(DT)  # 60 -> 160: through the wall (98..102) between two ticks
    start, end = log
    assert start == CollisionStarted(wall, bullet, start.contact, False, start.toi)
    assert start.toi == pytest.approx((97 - 60) / 100)
    assert start.contact.depth == 0.0 and start.contact.normal == (-1.0, 0.0)
    assert start.contact.point == pytest.approx((98.0, 0.0))
    assert end == CollisionEnded(wall, bullet, False)


def test_a_swept_bullet_reports_a_shape_that_is_not_static_and_a_wall_in_time_order() -> None:
    crate = esper.create_entity(Position(130, 0), Shape(Rect(4, 100)))  # may move by hand
    wall = _wall(100)
    bullet = esper.create_entity(Position(60, 0), Velocity(6000, 0), Shape(Circle(1), swept=True))
    _, log = _system()
    esper.process(DT)  # 60 -> 160: through the wall (98..102), then the crate (128..132)
    assert [(type(e).__name__, e.a, e.b) for e in log] == [  # type: ignore[attr-defined]
        ("CollisionStarted", wall, bullet), ("CollisionStarted", crate, bullet),
        ("CollisionEnded", wall, bullet), ("CollisionEnded", crate, bullet),
    ]  # fmt: skip
    assert log[1].toi == pytest.approx((127 - 60) / 100)  # type: ignore[attr-defined]


def test_with_only_ended_handlers_the_crossed_pairs_end_in_time_order() -> None:
    crate = esper.create_entity(Position(130, 0), Shape(Rect(4, 100)))  # the lower id
    wall = _wall(100)
    bullet = esper.create_entity(Position(60, 0), Velocity(6000, 0), Shape(Circle(1), swept=True))
    esper.add_processor(MovementSystem(), priority=2)
    system = CollisionSystem()
    esper.add_processor(system, priority=1)
    ended: list[CollisionEnded] = []
    system.subscribe(on_ended=ended.append)
    esper.process(DT)  # through the wall, then the crate: no started event is built
    assert ended == [CollisionEnded(wall, bullet, False), CollisionEnded(crate, bullet, False)]


def test_without_the_flag_the_same_bullet_tunnels_and_contacts_keep_toi_none() -> None:
    _wall(100)
    _wall(200)
    esper.create_entity(Position(60, 0), Velocity(6000, 0), Shape(Circle(1)))
    _, log = _system()
    esper.process(DT)  # 160: past the first wall, short of the second
    assert log == []
    esper.process(DT)  # 260: past the second
    assert log == []
    esper.create_entity(Position(362, 0), Shape(Circle(5)))
    esper.process(DT)  # a touch at the end of the tick: no sweep, no time of impact
    (event,) = log
    assert isinstance(event, CollisionStarted) and event.toi is None


def test_an_edit_makes_a_shape_swept_from_its_next_tick_and_back() -> None:
    wall = _wall(100)
    shape = Shape(Circle(1))
    bullet = esper.create_entity(Position(0, 0), Velocity(6000, 0), shape)
    _, log = _system()
    esper.process(DT)  # 0 -> 100: inside the wall at the end, not swept
    assert [type(e) for e in log] == [CollisionStarted]
    assert log[0].toi is None
    log.clear()
    shape.swept = True
    esper.process(DT)  # 100 -> 200: touching at the start: no new start
    assert log == [CollisionEnded(wall, bullet, False)]
    assert list(table_for_current_world().swept_rows) == [
        list(table_for_current_world().entities).index(bullet)
    ]
    log.clear()
    shape.swept = False
    esper.process(DT)
    assert len(table_for_current_world().swept_rows) == 0


def test_the_flags_survive_copies_and_show_in_the_repr() -> None:
    shape = Shape(Circle(1), swept=True, stop_at_impact=True)
    assert repr(shape) == (
        "Shape(Circle(radius=1.0), layer=1, mask=4294967295, sensor=False, swept=True, "
        "stop_at_impact=True)"
    )
    for clone in (copy.copy(shape), copy.deepcopy(shape), pickle.loads(pickle.dumps(shape))):
        assert (clone.swept, clone.stop_at_impact) == (True, True)
    assert repr(Shape(Circle(1))).endswith("sensor=False)")


def test_two_swept_shapes_meet_by_their_relative_motion() -> None:
    # Head on, 200 px apart, closing at 200 px per tick: they pass through each other
    # halfway, which neither end pose shows.
    a = esper.create_entity(Position(0, 0), Velocity(6000, 0), Shape(Circle(2), swept=True))
    b = esper.create_entity(Position(200, 0), Velocity(-6000, 0), Shape(Circle(2), swept=True))
    _, log = _system()
    esper.process(DT)  # a: 0 -> 100, b: 200 -> 100... they end on top of each other
    esper.process(DT)  # a: 100 -> 200, b: 100 -> 0: apart again
    log.clear()
    c = esper.create_entity(Position(0, 50), Velocity(6000, 0), Shape(Circle(2), swept=True))
    d = esper.create_entity(
        Position(190, 50), Velocity(-6000, 0), Shape(Circle(2), swept=True)
    )
    esper.process(DT)  # first tick of c, d: from where they were made
    start, end = log
    assert (start.a, start.b) == (c, d) and (end.a, end.b) == (c, d)
    # They close 186 px of gap at 200 px per tick.
    assert start.toi == pytest.approx(186 / 200)
    assert start.contact.normal == (1.0, 0.0)
    assert {a, b}.isdisjoint({start.a, start.b})


def test_a_turning_outline_is_swept_as_its_bounding_circle() -> None:
    # A long bar turning half a turn about its centre in one tick: its start and end
    # poses are clear of the post, its sweep is not (it is taken as the circle it
    # turns in, which holds the post: the whole tick counts, toi 0).
    post = esper.create_entity(Position(0, 40), Shape(Circle(2)), Static())
    bar = esper.create_entity(
        Position(0, 0), Velocity(0, 0, angular=180 / DT), Shape(Rect(100, 4), swept=True)
    )
    _, log = _system()
    esper.process(DT)
    assert [type(e) for e in log] == [CollisionStarted, CollisionEnded]
    assert (log[0].a, log[0].b, log[0].toi) == (post, bar, 0.0)
    log.clear()
    esper.component_for_entity(bar, Velocity).angular = 0.0
    esper.process(DT)  # still: nothing
    assert log == []


def test_stop_at_impact_stops_at_the_first_wall_and_reports_the_sensor_before_it() -> None:
    trigger = _wall(50, 2, sensor=True)
    wall = _wall(100)
    far = _wall(130)
    stops: list[list[int]] = []
    bullet = esper.create_entity(
        Position(0, 0), Velocity(9000, 0), Shape(Circle(1), swept=True, stop_at_impact=True)
    )
    _, log = _system(on_stop=stops.append)
    esper.process(DT)  # 0 -> 150, stopped at 97
    stopped = esper.component_for_entity(bullet, Position).x
    assert stopped == pytest.approx(97.0) and stopped > 97.0
    assert stops == [[bullet]]
    assert [(type(e).__name__, e.a) for e in log] == [
        ("CollisionStarted", trigger), ("CollisionStarted", wall), ("CollisionEnded", trigger),
    ]
    assert far not in {e.b for e in log} | {e.a for e in log}
    log.clear()
    for _ in range(3):  # pushing into the wall: it stays, touching, with no new event
        esper.process(DT)
    assert log == [] and esper.component_for_entity(bullet, Position).x == stopped
    velocity = esper.component_for_entity(bullet, Velocity)
    velocity.x = -600
    esper.process(DT)  # moving away is never stopped
    assert esper.component_for_entity(bullet, Position).x == pytest.approx(stopped - 10)
    assert log == [CollisionEnded(wall, bullet, False)]


def test_a_sensor_never_stops_a_swept_shape() -> None:
    _wall(50, 2, sensor=True)
    bullet = esper.create_entity(
        Position(0, 0), Velocity(6000, 0), Shape(Circle(1), swept=True, stop_at_impact=True)
    )
    _system()
    esper.process(DT)
    assert esper.component_for_entity(bullet, Position).x == pytest.approx(100.0)


def test_on_stop_is_not_called_without_a_stop() -> None:
    _wall(500)
    calls: list[list[int]] = []
    esper.create_entity(
        Position(0, 0), Velocity(600, 0), Shape(Circle(1), swept=True, stop_at_impact=True)
    )
    _system(on_stop=calls.append)
    for _ in range(3):
        esper.process(DT)
    assert calls == []


class _Stop(BaseException):
    pass


def _two_triggers(on_started: Any) -> tuple[int, int, int, list[object]]:
    """Two sensor strips on a swept bullet's first tick; ``on_started(log, event)``
    handles the starts, the ends go to the log."""
    first = _wall(50, 2, sensor=True)
    second = _wall(80, 2, sensor=True)
    bullet = esper.create_entity(Position(0, 0), Velocity(6000, 0), Shape(Circle(1), swept=True))
    esper.add_processor(MovementSystem(), priority=2)
    system = CollisionSystem()
    esper.add_processor(system, priority=1)
    log: list[object] = []
    system.subscribe(on_started=lambda event: on_started(log, event), on_ended=log.append)
    return first, second, bullet, log


def test_an_interrupted_delivery_keeps_every_crossing_balanced() -> None:
    """A BaseException while the starts are delivered: the ends of the crossings whose
    start was handed out come first thing next tick; the others are never seen."""

    def started(log: list[object], event: CollisionStarted) -> None:
        log.append(event)
        if event.a == second:
            raise _Stop

    first, second, bullet, log = _two_triggers(started)
    with pytest.raises(_Stop):
        esper.process(DT)
    assert [(type(e).__name__, e.a) for e in log] == [
        ("CollisionStarted", first), ("CollisionStarted", second)
    ]
    log.clear()
    esper.process(DT)  # 100 -> 200: nothing new; the two ends that were owed
    assert log == [CollisionEnded(first, bullet, True), CollisionEnded(second, bullet, True)]


def test_a_handler_deleting_the_bullet_drops_its_later_crossings() -> None:
    def started(log: list[object], event: CollisionStarted) -> None:
        log.append(event)
        esper.delete_entity(max(event.a, event.b))

    first, _, _, log = _two_triggers(started)
    esper.process(DT)
    assert [(type(e).__name__, e.a) for e in log] == [
        ("CollisionStarted", first), ("CollisionEnded", first)
    ]
    log.clear()
    esper.process(DT)
    assert log == []


def test_a_world_without_swept_shapes_keeps_no_sweep_state() -> None:
    esper.create_entity(Position(0, 0), Velocity(6000, 0), Shape(Circle(1)))
    system, _ = _system()
    esper.process(DT)
    assert system._sweeps.hits is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, -0.0, 0.25, 0.5, 1.0]),
                          st.integers(-(2**62), 2**62), st.integers(-(2**62), 2**62)),
                max_size=80))
def test_the_time_order_is_the_lexical_order_of_time_then_pair(
    events: list[tuple[float, int, int]]
) -> None:
    toi = np.array([e[0] for e in events], dtype=np.float64)
    a = np.array([e[1] for e in events], dtype=np.int64)
    b = np.array([e[2] for e in events], dtype=np.int64)
    assert time_order(toi, a, b).tolist() == np.lexsort((b, a, toi)).tolist()

"""Entity ids of any size esper gives: pairs, events, touching() and contacts() name the
real ids, above ``2**31``, ``2**32`` and ``2**62`` alike (``2**63`` is refused by name:
``tests/test_errors.py``).

esper counts ids up from 1; the tests jump its counter with
:func:`~arcade_collide.ecs.esper_internals.start_entity_ids_at` before the system's
first tick (jumping it later is seen as a cleared world)."""

from __future__ import annotations

import itertools

import esper
import pytest

from arcade_collide import intersects
from arcade_collide.ecs import (
    CollisionEnded,
    CollisionStarted,
    CollisionSystem,
    MovementSystem,
    Position,
    Shape,
    Velocity,
)
from arcade_collide.ecs.esper_internals import start_entity_ids_at
from arcade_collide.geometry.shapes import Circle, Rect

Event = CollisionStarted | CollisionEnded


def brute_force_pairs() -> list[tuple[int, int]]:
    bodies = sorted(
        (e, (p.x, p.y, p.angle), s.geometry)
        for e, (p, s) in esper.get_components(Position, Shape)
        if esper.entity_exists(e)
    )
    return [
        (ea, eb)
        for (ea, pa, ga), (eb, pb, gb) in itertools.combinations(bodies, 2)
        if intersects(ga, pa, gb, pb)
    ]


def mixed_ids_world(firsts: tuple[int, ...]) -> tuple[CollisionSystem, list[Event], list[int]]:
    """Runs of ids from each of ``firsts``; the entities of all runs interleave along x,
    so pairs join small and large ids, and ids equal in their low 32 bits."""
    ids: list[int] = []
    for run, first in enumerate(firsts):
        start_entity_ids_at(first)
        for k in range(6):
            x = 7.0 * (k * len(firsts) + run)
            shape = Shape(Circle(4) if k % 2 else Rect(7, 7))
            ids.append(esper.create_entity(Position(x, 0), Velocity(0, 10 * (run - 1)), shape))
    esper.add_processor(MovementSystem(), priority=1)
    system = CollisionSystem()
    esper.add_processor(system)
    log: list[Event] = []
    system.subscribe(on_started=log.append, on_ended=log.append)
    return system, log, ids


@pytest.mark.parametrize(
    "firsts",
    [
        (2**31 - 3,),
        (1, 2**32 + 1, 2**31),
        (5, 2**62, 2**62 + 2**32 + 5),
        (2**63 - 40, 3, 2**40 + 3),
    ],
    ids=["around-2**31", "low-32-bits-equal", "above-2**62", "up-to-2**63"],
)
def test_large_ids_collide_and_are_named(firsts: tuple[int, ...]) -> None:
    system, log, ids = mixed_ids_world(firsts)
    assert max(ids) >= 2**31
    open_pairs: set[tuple[int, int]] = set()
    for tick in range(40):
        esper.process(1 / 10)
        for event in log:
            pair = (event.a, event.b)
            assert event.a < event.b and event.a in ids and event.b in ids
            if isinstance(event, CollisionStarted):
                assert pair not in open_pairs
                open_pairs.add(pair)
            else:
                open_pairs.remove(pair)
        log.clear()
        touching = system.touching()
        assert touching == brute_force_pairs() == sorted(open_pairs)
        assert list(system.contacts()) == touching
        if tick == 0:
            assert len(touching) >= len(ids) // 2
        if tick == 20:
            for entity in ids[::3]:
                esper.delete_entity(entity)
    for entity in ids:
        if esper.entity_exists(entity):
            esper.delete_entity(entity)
    esper.process(1 / 10)
    ended = {(e.a, e.b) for e in log if isinstance(e, CollisionEnded)}
    assert ended == open_pairs


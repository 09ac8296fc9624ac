"""The broad phase's three paths (the same rows moving, rows moved here and there, most
rows moved) and the switches between them find what a brute-force check finds.
Each test runs in its own esper world (``tests/ecs/conftest.py``).
"""

from __future__ import annotations

import random

import esper
import pytest
from brute_force import touching_pairs

from arcade_collide import Circle, Rect
from arcade_collide.ecs import (
    CollisionSystem,
    MovementSystem,
    Position,
    Shape,
    Static,
    Velocity,
    broad_phase,
)


@pytest.mark.parametrize("seed", range(8))
def test_switching_between_paths_misses_no_pair(seed: int) -> None:
    rng = random.Random(seed)
    esper.add_processor(MovementSystem(), priority=1)
    system = CollisionSystem()
    esper.add_processor(system)
    ball = esper.create_entity(Position(50, 50), Velocity(40, 25), Shape(Circle(5)))
    by_hand = [
        esper.create_entity(Position(rng.uniform(0, 100), rng.uniform(0, 100)), Shape(Rect(20, 6)))
        for _ in range(4)
    ]
    for k in range(30):
        esper.create_entity(Position(k * 10 % 100, k // 10 * 30 + 5), Shape(Rect(8, 8)), Static())
    for _ in range(8):
        esper.create_entity(Position(rng.uniform(0, 100), rng.uniform(0, 100)), Shape(Circle(4)))
    for tick in range(240):
        # Stretches of the same movers (the ball alone, or with one paddle), then others.
        if rng.random() < 0.3:
            for entity in rng.sample(by_hand, rng.randrange(1, 3)):
                position = esper.component_for_entity(entity, Position)
                position.x = rng.uniform(0, 100)
                position.y = rng.uniform(0, 100)
        position = esper.component_for_entity(ball, Position)
        if not (0 <= position.x <= 100 and 0 <= position.y <= 100):
            position.x, position.y = rng.uniform(20, 80), rng.uniform(20, 80)
        if tick % 50 == 0:  # most rows moved: the third path
            for entity, (moved, _) in esper.get_components(Position, Shape):
                if not esper.has_component(entity, Static):
                    moved.x += 0.5
        esper.process(1 / 60)
        assert system.touching() == touching_pairs(), tick


@pytest.mark.parametrize("seed", range(4))
def test_pairs_start_and_end_through_hand_moves_only(seed: int) -> None:
    # No Velocity anywhere: a random few shapes are nudged by hand each tick (mostly
    # within their enlarged boxes, now and then far), and every start and end is the
    # change of the touching pairs.
    rng = random.Random(seed)
    system = CollisionSystem()
    esper.add_processor(system)
    log: list[tuple[str, int, int]] = []
    system.subscribe(
        on_started=lambda e: log.append(("started", e.a, e.b)),
        on_ended=lambda e: log.append(("ended", e.a, e.b)),
    )
    shapes = [
        esper.create_entity(
            Position(rng.uniform(0, 120), rng.uniform(0, 120)),
            Shape(Circle(rng.uniform(3, 6)) if k % 3 else Rect(8, 5)),
        )
        for k in range(70)
    ]
    esper.process(1 / 60)
    before = set(touching_pairs())
    log.clear()
    for tick in range(120):
        for entity in rng.sample(shapes, rng.randrange(1, 8)):
            position = esper.component_for_entity(entity, Position)
            reach = 40.0 if rng.random() < 0.1 else 0.8
            position.x += rng.uniform(-reach, reach)
            position.y += rng.uniform(-reach, reach)
        esper.process(1 / 60)
        now = set(touching_pairs())
        assert set(system.touching()) == now, tick
        started = {(a, b) for kind, a, b in log if kind == "started"}
        ended = {(a, b) for kind, a, b in log if kind == "ended"}
        assert (started, ended) == (now - before, before - now), tick
        assert len(log) == len(started) + len(ended)
        before = now
        log.clear()


@pytest.mark.parametrize("seed", range(6))
def test_swept_movers_hand_their_pairs_to_the_broad_phase_without_missing_one(seed: int) -> None:
    # Swept bullets alone moving (their pairs come from the swept stage), now and then
    # replaced, stopped at a wall, or joined by a mover that is not swept or by a hand
    # move: the touching pairs are brute force's at every tick, whichever path ran.
    rng = random.Random(seed)
    esper.add_processor(MovementSystem(), priority=1)
    system = CollisionSystem()
    esper.add_processor(system)

    def bullet() -> int:
        stops = rng.random() < 0.02
        shape = Shape(Circle(rng.choice([0.5, 2.0])), swept=True, stop_at_impact=stops)
        speed = (rng.uniform(-300, 300), rng.uniform(-300, 300))
        return esper.create_entity(
            Position(rng.uniform(0, 100), rng.uniform(0, 100)), Velocity(*speed), shape
        )

    bullets = [bullet() for _ in range(12)]
    for k in range(30):
        esper.create_entity(Position(k * 10 % 100, k // 10 * 30 + 5), Shape(Rect(8, 2)), Static())
    still = [
        esper.create_entity(Position(rng.uniform(0, 100), rng.uniform(0, 100)), Shape(Circle(4)))
        for _ in range(6)
    ]
    walker = esper.create_entity(Position(50, 50), Shape(Rect(6, 6)))
    for tick in range(200):
        for k, entity in enumerate(bullets):
            position = esper.component_for_entity(entity, Position)
            stops = esper.component_for_entity(entity, Shape).stop_at_impact
            if not (0 <= position.x <= 100 and 0 <= position.y <= 100) or (
                rng.random() < (0.2 if stops else 0.01)
            ):
                esper.delete_entity(entity, immediate=rng.random() < 0.5)
                bullets[k] = bullet()
        if rng.random() < 0.1:  # a mover that is not swept: the usual paths
            position = esper.component_for_entity(walker, Position)
            position.x, position.y = rng.uniform(0, 100), rng.uniform(0, 100)
        if rng.random() < 0.05:
            position = esper.component_for_entity(rng.choice(still), Position)
            position.x += rng.uniform(-3, 3)
        esper.process(1 / 60)
        assert system.touching() == touching_pairs(), tick


@pytest.mark.parametrize("seed", range(4))
def test_movers_replaced_on_some_ticks_are_swept_against_the_static_grid(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every non-static shape moves by velocity; on most ticks some are replaced (a
    # change of layout), on the others none. A tick after a replacement knows which
    # rows moved, and they are all the non-static rows: the broad phase sweeps them
    # against the static grid instead of making a loose grid of every row.
    rng = random.Random(seed)
    made = []
    monkeypatch.setattr(broad_phase, "LooseGrid", lambda boxes: made.append(len(boxes)))
    esper.add_processor(MovementSystem(), priority=1)
    system = CollisionSystem()
    esper.add_processor(system)

    def mover() -> int:
        speed = (rng.uniform(-200, 200), rng.uniform(-200, 200))
        at = Position(rng.uniform(0, 100), rng.uniform(0, 100))
        return esper.create_entity(at, Velocity(*speed), Shape(Circle(rng.uniform(1, 4))))

    movers = [mover() for _ in range(15)]
    for k in range(40):
        esper.create_entity(Position(k * 10 % 100, k // 10 * 25 + 5), Shape(Rect(8, 3)), Static())
    for tick in range(150):
        if rng.random() < 0.6:
            for k in rng.sample(range(len(movers)), rng.randrange(1, 4)):
                esper.delete_entity(movers[k], immediate=rng.random() < 0.5)
                movers[k] = mover()
        for entity in movers:
            position = esper.component_for_entity(entity, Position)
            if not (0 <= position.x <= 100 and 0 <= position.y <= 100):
                position.x, position.y = rng.uniform(20, 80), rng.uniform(20, 80)
        esper.process(1 / 60)
        assert system.touching() == touching_pairs(), tick
    assert made == []

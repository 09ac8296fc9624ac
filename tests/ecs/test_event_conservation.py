"""Event conservation under churn: no lost, duplicate or ghost collision events.

Seeded random scenarios create, move, teleport, resize (replace the Shape's
geometry), strip and re-add shapes, change layer/mask filters and delete entities
between ticks, and also from inside the event handlers. A churn scenario creates and
deletes 20 entities between every two ticks, with handlers deleting more, its ids small
or above ``2**62``. After every tick:

* the system's pairs (``touching()`` and ``contacts()``) equal a brute-force
  reference recomputed from scratch with the scalar
  :func:`arcade_collide.intersects` and the layer/mask rule, evaluated on the world
  as it was when the system looked at it (before any handler changed it);
* every pair that starts gets exactly one ``CollisionStarted``, and later exactly
  one ``CollisionEnded`` (on separation, deletion, shape removal or filter change):
  the set of open pairs (started, not yet ended) is exactly the system's pairs;
* no ``CollisionStarted`` names an entity that is dead when it is delivered.

The ECS's documented exception (``arcade_collide.ecs.collision``): a started event
whose entity a handler deleted earlier in the same delivery is dropped and the pair
forgotten; the test checks that only such pairs are missing from the reference.

Each test runs in its own esper world (``tests/ecs/conftest.py``).
"""

from __future__ import annotations

import itertools
import math
import random

import esper
import numpy as np
import pytest

from arcade_collide import Circle, Point, Polygon, Rect, Triangle, intersects
from arcade_collide.ecs import (
    ALL_LAYERS,
    CollisionEnded,
    CollisionStarted,
    CollisionSystem,
    MovementSystem,
    Position,
    Shape,
    Velocity,
)
from arcade_collide.ecs.esper_internals import start_entity_ids_at, use_private_state
from arcade_collide.geometry.shapes import AnyShape

ARENA = 80.0
FAST_SEEDS = range(10)
FAST_TICKS = 1000
SLOW_SEEDS = range(100, 120)
SLOW_TICKS = 5000
LAYERS = (1, 2, 4)
MASKS = (ALL_LAYERS, ALL_LAYERS, 1 | 2, 4, 2 | 4, 0)


def random_geometry(rng: random.Random) -> AnyShape:
    kind = rng.randrange(5)
    if kind == 0:
        return Point()
    if kind == 1:
        return Circle(rng.uniform(2, 12))
    if kind == 2:
        return Rect(rng.uniform(2, 20), rng.uniform(2, 20))
    if kind == 3:
        while True:
            a, b, c = ((rng.uniform(-10, 10), rng.uniform(-10, 10)) for _ in range(3))
            if abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) > 5:
                return Triangle(a, b, c)
    n = rng.randrange(3, 8)
    r = rng.uniform(3, 12)
    phase = rng.uniform(0, 2 * math.pi)
    return Polygon(
        [(r * math.cos(phase + 2 * math.pi * k / n), r * math.sin(phase + 2 * math.pi * k / n))
         for k in range(n)]
    )


def random_shape(rng: random.Random) -> Shape:
    return Shape(
        random_geometry(rng),
        layer=rng.choice(LAYERS),
        mask=rng.choice(MASKS),
        sensor=rng.random() < 0.1,
    )


def random_position(rng: random.Random, arena: float = ARENA) -> Position:
    return Position(rng.uniform(0, arena), rng.uniform(0, arena), rng.uniform(-180, 180))


def brute_force_pairs() -> set[tuple[int, int]]:
    """All touching pairs of the live world, from scratch with the scalar query."""
    bodies = sorted(
        (e, (p.x, p.y, p.angle), s)
        for e, (p, s) in esper.get_components(Position, Shape)
        if esper.entity_exists(e)
    )
    if len(bodies) < 2:
        return set()
    xy = np.array([pose[:2] for _, pose, _ in bodies])
    reach = np.array([s.geometry.bounding_radius for _, _, s in bodies])
    found = set()
    for i, j in itertools.combinations(range(len(bodies)), 2):
        # A shape lies inside the disc of its bounding radius around its pose: farther
        # apart than the two radii (with a margin for rounding) they cannot touch.
        if math.dist(xy[i], xy[j]) > (reach[i] + reach[j]) * (1 + 1e-9) + 1e-9:
            continue
        (ea, pa, sa), (eb, pb, sb) = bodies[i], bodies[j]
        if sa.layer & sb.mask and sb.layer & sa.mask and intersects(
            sa.geometry, pa, sb.geometry, pb
        ):
            found.add((ea, eb))
    return found


class Ledger:
    """Records events and checks them against the reference, tick by tick."""

    def __init__(self, collisions: CollisionSystem) -> None:
        self.collisions = collisions
        self.open: set[tuple[int, int]] = set()
        self.reference: set[tuple[int, int]] | None = None
        self.started_now: set[tuple[int, int]] = set()
        self.deleted_in_handlers: set[int] = set()
        self.started = 0
        self.ended = 0
        self.ticks = 0
        collisions.subscribe(on_started=self.on_started, on_ended=self.on_ended)

    def _snapshot(self) -> None:
        # The first event of a tick comes before any handler changed the world.
        if self.reference is None:
            self.reference = brute_force_pairs()

    def on_started(self, event: CollisionStarted) -> None:
        self._snapshot()
        pair = (event.a, event.b)
        assert event.a < event.b
        assert pair not in self.open, f"duplicate CollisionStarted for {pair}"
        for entity in pair:
            assert esper.entity_exists(entity), f"CollisionStarted names dead entity {entity}"
        self.open.add(pair)
        self.started_now.add(pair)
        self.started += 1

    def on_ended(self, event: CollisionEnded) -> None:
        self._snapshot()
        pair = (event.a, event.b)
        assert pair in self.open, f"CollisionEnded for {pair}, which never started (ghost)"
        self.open.remove(pair)
        self.ended += 1

    def tick(self, dt: float) -> None:
        self.reference = None
        self.started_now = set()
        self.deleted_in_handlers = set()
        before = set(self.collisions.touching())
        esper.process(dt)
        reference = self.reference if self.reference is not None else brute_force_pairs()
        touching = set(self.collisions.touching())

        def alive(pair: tuple[int, int]) -> bool:
            return esper.entity_exists(pair[0]) and esper.entity_exists(pair[1])

        # The system reports the live pairs; pairs of an entity a handler deleted after
        # the tick stay open until the next tick ends them.
        assert touching == {p for p in self.open if alive(p)}, (
            f"open pairs {sorted(self.open ^ touching)} differ from the system's pairs"
        )
        for pair in self.open - touching:
            assert set(pair) & self.deleted_in_handlers, pair
        self.ticks += 1
        if self.ticks % 10 == 0:  # contacts() computes every contact: sample it
            assert set(self.collisions.contacts()) == touching
        assert touching == {p for p in reference if alive(p)}, (
            sorted(touching ^ {p for p in reference if alive(p)})
        )
        # New pairs whose started event was dropped name an entity a handler deleted.
        for pair in reference - before - self.started_now:
            assert set(pair) & self.deleted_in_handlers, pair


class Chaos:
    """Mutations made from inside event handlers."""

    def __init__(self, rng: random.Random, ledger: Ledger, rate: float) -> None:
        self.rng = rng
        self.ledger = ledger
        self.rate = rate

    def on_event(self, event: CollisionStarted | CollisionEnded) -> None:
        if self.rng.random() >= self.rate:
            return
        entity = self.rng.choice((event.a, event.b))
        if esper.entity_exists(entity):
            mutate(self.rng, entity, self.ledger)
        else:
            spawn(self.rng)


def spawn(rng: random.Random, arena: float = ARENA) -> int:
    components: list[object] = [random_position(rng, arena), random_shape(rng)]
    if rng.random() < 0.8:
        speed = (rng.uniform(-60, 60), rng.uniform(-60, 60), rng.uniform(-90, 90))
        components.append(Velocity(*speed))
    return esper.create_entity(*components)


def mutate(rng: random.Random, entity: int, ledger: Ledger) -> None:
    """One random change to a live entity."""
    op = rng.randrange(9)
    if op == 0:
        # esper either marks the entity dead (removed at the next process) or, with
        # immediate=True, removes it at once: both must end its contacts exactly once.
        esper.delete_entity(entity, immediate=rng.random() < 0.3)
        ledger.deleted_in_handlers.add(entity)
    elif op == 1:
        position = esper.component_for_entity(entity, Position)
        position.x, position.y = rng.uniform(0, ARENA), rng.uniform(0, ARENA)
    elif op == 2 and esper.has_component(entity, Shape):
        esper.component_for_entity(entity, Shape).geometry = random_geometry(rng)
    elif op == 3 and esper.has_component(entity, Shape):
        esper.component_for_entity(entity, Shape).layer = rng.choice(LAYERS)
    elif op == 4 and esper.has_component(entity, Shape):
        esper.component_for_entity(entity, Shape).mask = rng.choice(MASKS)
    elif op == 5 and esper.has_component(entity, Shape):
        esper.remove_component(entity, Shape)
    elif op == 6 and not esper.has_component(entity, Shape):
        esper.add_component(entity, random_shape(rng))
    elif op == 7:
        esper.component_for_entity(entity, Position).angle = rng.uniform(-180, 180)
    elif op == 8 and esper.has_component(entity, Shape):
        # Replace the whole component object (a new Shape, same entity).
        esper.add_component(entity, random_shape(rng))


def live_entities() -> list[int]:
    return [e for e, _ in esper.get_component(Position) if esper.entity_exists(e)]


def run_scenario(seed: int, ticks: int, handler_rate: float) -> Ledger:
    rng = random.Random(seed)
    esper.add_processor(MovementSystem(), priority=1)
    collisions = CollisionSystem()
    esper.add_processor(collisions)
    ledger = Ledger(collisions)
    chaos = Chaos(rng, ledger, handler_rate)
    collisions.subscribe(on_started=chaos.on_event, on_ended=chaos.on_event)
    target = rng.randrange(10, 31)
    for _ in range(target):
        spawn(rng)
    for _ in range(ticks):
        live = live_entities()
        # Keep the population near its target, with churn.
        if len(live) < target or rng.random() < 0.2:
            spawn(rng)
        if live and (len(live) > target or rng.random() < 0.2):
            victim = rng.choice(live)
            esper.delete_entity(victim)
            live.remove(victim)
        for entity in rng.sample(live, min(len(live), rng.randrange(0, 4))):
            mutate(rng, entity, ledger)
        bounce(ARENA)
        ledger.tick(1 / 30)
    return close_books(ledger)


def bounce(arena: float) -> None:
    """Turn entities back at the arena walls so they keep meeting."""
    for _, (position, velocity) in esper.get_components(Position, Velocity):
        if not 0 <= position.x <= arena:
            velocity.x = math.copysign(velocity.x, arena / 2 - position.x)
        if not 0 <= position.y <= arena:
            velocity.y = math.copysign(velocity.y, arena / 2 - position.y)


def close_books(ledger: Ledger) -> Ledger:
    """Delete everything: every open pair ends exactly once."""
    for entity in live_entities():
        esper.delete_entity(entity)
    ledger.tick(1 / 30)
    assert ledger.open == set()
    assert ledger.ended == ledger.started
    return ledger


CHURN = 20
"""Entities created, and entities deleted, between each two ticks of the churn scenario."""
CHURN_POPULATION = 100
CHURN_ARENA = 150.0


class Reaper:
    """Deletes one entity of an event from inside the handler, now and then; spawns
    one when the entity is already gone."""

    def __init__(self, rng: random.Random, ledger: Ledger, rate: float) -> None:
        self.rng = rng
        self.ledger = ledger
        self.rate = rate
        self.deleted = 0

    def on_event(self, event: CollisionStarted | CollisionEnded) -> None:
        if self.rng.random() >= self.rate:
            return
        entity = self.rng.choice((event.a, event.b))
        if esper.entity_exists(entity):
            esper.delete_entity(entity, immediate=self.rng.random() < 0.3)
            self.ledger.deleted_in_handlers.add(entity)
            self.deleted += 1
        else:
            spawn(self.rng, CHURN_ARENA)


def run_churn(seed: int, ticks: int, first_id: int) -> tuple[Ledger, Reaper]:
    """``CHURN`` entities created and ``CHURN`` deleted every tick (besides those the
    handlers delete and spawn), ids counting up from ``first_id``."""
    rng = random.Random(seed)
    start_entity_ids_at(first_id)
    esper.add_processor(MovementSystem(), priority=1)
    collisions = CollisionSystem()
    esper.add_processor(collisions)
    ledger = Ledger(collisions)
    reaper = Reaper(rng, ledger, rate=0.1)
    collisions.subscribe(on_started=reaper.on_event, on_ended=reaper.on_event)
    for _ in range(CHURN_POPULATION):
        spawn(rng, CHURN_ARENA)
    for _ in range(ticks):
        live = live_entities()
        for victim in rng.sample(live, min(CHURN, len(live))):
            esper.delete_entity(victim, immediate=rng.random() < 0.3)
        for _ in range(CHURN + max(0, CHURN_POPULATION - len(live))):
            spawn(rng, CHURN_ARENA)
        bounce(CHURN_ARENA)
        ledger.tick(1 / 30)
    return close_books(ledger), reaper


@pytest.mark.parametrize("private", [True, False], ids=["esper-private", "public-fallback"])
@pytest.mark.parametrize("seed", FAST_SEEDS)
def test_events_are_conserved(seed: int, private: bool) -> None:
    previous = use_private_state(private)
    try:
        ledger = run_scenario(seed, FAST_TICKS, handler_rate=0.15)
    finally:
        use_private_state(previous)
    # The scenario must exercise the rules: many pairs start and end.
    assert ledger.started > 100


@pytest.mark.slow
@pytest.mark.parametrize("seed", SLOW_SEEDS)
def test_events_are_conserved_long(seed: int) -> None:
    ledger = run_scenario(seed, SLOW_TICKS, handler_rate=0.3)
    assert ledger.started > 500


@pytest.mark.parametrize(
    ("seed", "first_id"), [(0, 1), (1, 2**62)], ids=["small-ids", "ids-above-2**62"]
)
def test_events_are_conserved_under_churn(seed: int, first_id: int) -> None:
    ledger, reaper = run_churn(seed, 300, first_id)
    # The scenario must exercise the rules: many pairs start and end, and handlers
    # delete entities in the middle of deliveries.
    assert ledger.started > 1000 and reaper.deleted > 100

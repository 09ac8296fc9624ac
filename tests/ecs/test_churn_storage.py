"""Component rows are released under churn: storage never outgrows the live entities.

A short version of ``benchmarks/soak.py``: ~2,000 ticks in which entities are created
and deleted every tick. After every tick the Position and Velocity pools
(:mod:`arcade_collide.ecs.storage`) hold no more rows than there are live components,
the pools' capacity stops growing once the population is reached, and deleting
everything gives every row back.

The pools are shared by all esper worlds, so counts are taken relative to what was in
use before the test (other tests' components may still be alive).
Each test runs in its own esper world (``tests/ecs/conftest.py``).
"""

from __future__ import annotations

import gc
import random
import weakref

import esper

from arcade_collide import Circle, Point, Rect, Triangle
from arcade_collide.ecs import CollisionSystem, MovementSystem, Position, Shape, Velocity
from arcade_collide.ecs.world_state import world_pools
from arcade_collide.geometry.shapes import AnyShape

TICKS = 2000
POPULATION = 60
CHURN = 6


def _geometry(rng: random.Random) -> AnyShape:
    return rng.choice(
        [Point(), Circle(rng.uniform(2, 8)), Rect(6, 4), Triangle((0, 0), (6, 0), (0, 6))]
    )


def test_pool_rows_follow_the_live_entities() -> None:
    gc.collect()
    pos_pool, vel_pool = world_pools()
    base_positions, base_velocities = pos_pool.live, vel_pool.live
    rng = random.Random(3)
    esper.add_processor(MovementSystem(), priority=1)
    collisions = CollisionSystem()
    esper.add_processor(collisions)
    events = []
    collisions.subscribe(on_started=events.append, on_ended=events.append)
    live: list[int] = []

    def spawn() -> None:
        components: list[object] = [
            Position(rng.uniform(0, 100), rng.uniform(0, 100)),
            Shape(_geometry(rng)),
        ]
        if rng.random() < 0.7:
            components.append(Velocity(rng.uniform(-30, 30), rng.uniform(-30, 30)))
        live.append(esper.create_entity(*components))

    for _ in range(POPULATION):
        spawn()
    capacity = None
    for tick in range(TICKS):
        for _ in range(CHURN):
            esper.delete_entity(live.pop(rng.randrange(len(live))))
            spawn()
        if tick % 50 == 0:
            # Strip and re-add components too: rows of replaced components are released.
            entity = rng.choice(live)
            if esper.has_component(entity, Velocity):
                esper.remove_component(entity, Velocity)
            esper.add_component(entity, Position(1.0, 2.0))
        esper.process(1 / 60)
        positions = len(esper.get_component(Position))
        velocities = len(esper.get_component(Velocity))
        assert positions == len(live) == POPULATION
        # CPython frees a component as soon as its entity is dropped; no gc needed.
        assert pos_pool.live - base_positions <= positions, tick
        assert vel_pool.live - base_velocities <= velocities, tick
        if tick == 100:
            capacity = (len(pos_pool.data), len(vel_pool.data))
    assert capacity == (len(pos_pool.data), len(vel_pool.data))
    assert len(events) > 500  # the churn does collide
    for entity in live:
        esper.delete_entity(entity)
    esper.process(1 / 60)
    live.clear()
    events.clear()
    gc.collect()
    # Other tests' leftovers may have been freed meanwhile, hence <= rather than ==.
    assert pos_pool.live <= base_positions
    assert vel_pool.live <= base_velocities


def test_a_level_created_after_another_was_deleted_gets_consecutive_rows() -> None:
    # Rows come back in garbage-collection order; the pool hands out the lowest free
    # row first, so a new batch of entities again gets consecutive rows (slices).
    from arcade_collide.ecs.storage import RowPool

    pool = RowPool(3, capacity=8)
    first = [pool.allocate() for _ in range(100)]
    random.Random(5).shuffle(first)
    for row in first:
        pool.release(row)
    again = [pool.allocate() for _ in range(100)]
    assert again == list(range(100))

    before = esper.current_world
    esper.switch_world("rows-level-1")
    for k in range(300):
        esper.create_entity(Position(k, 0), Velocity(1, 0), Shape(Circle(1)))
    esper.switch_world(before)
    esper.delete_world("rows-level-1")
    gc.collect()
    esper.switch_world("rows-level-2")
    try:
        rows = [esper.create_entity(Position(k, 0), Velocity(1, 0), Shape(Circle(1)))
                for k in range(300)]
        positions = [esper.component_for_entity(e, Position).pool_row for e in rows]
        assert positions == list(range(positions[0], positions[0] + 300))
    finally:
        esper.switch_world(before)
        esper.delete_world("rows-level-2")


def test_a_deleted_world_frees_its_components_while_another_keeps_ticking() -> None:
    main = esper.current_world
    esper.add_processor(CollisionSystem())
    esper.process(1 / 60)
    gc.collect()
    base = world_pools().positions.live
    level_pools = []
    for name in ("free-level-1", "free-level-2"):
        esper.switch_world(name)
        for k in range(200):
            esper.create_entity(Position(k, 0), Shape(Circle(1)))
        esper.add_processor(CollisionSystem())
        esper.process(1 / 60)
        level_pools.append(weakref.ref(world_pools().positions))
    esper.switch_world(main)
    for name in ("free-level-1", "free-level-2"):
        esper.delete_world(name)
    esper.process(1 / 60)  # only the main world ticks from now on
    gc.collect()
    # The levels' components, tables and pools are gone; the main world's are untouched.
    assert [ref() for ref in level_pools] == [None, None]
    assert world_pools().positions.live <= base

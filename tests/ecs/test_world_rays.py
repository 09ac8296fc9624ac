"""Rays and shape casts over a world (CollisionSystem.ray_cast, ray_cast_all,
ray_cast_batch, shape_cast) agree with the geometry layer's scalar calls tried on every
entity, now: static and moving shapes, hand moves and new entities since the tick.
Each test runs in its own esper world (``tests/ecs/conftest.py``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import esper
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide import Circle, Point, Polygon, Rect, Triangle, ray_cast, shape_cast
from arcade_collide.ecs import CollisionSystem, MovementSystem, Position, Shape, Static, Velocity
from arcade_collide.geometry.shapes import AnyShape


def _geometry(rng: random.Random) -> AnyShape:
    return rng.choice(
        [
            Point(),
            Circle(rng.uniform(2, 8)),
            Rect(rng.uniform(2, 12), rng.uniform(2, 12)),
            Triangle((0, 0), (8, 0), (0, 6)),
            Polygon([(0, 0), (6, 0), (8, 4), (3, 7), (-2, 4)]),
        ]
    )


_worlds = iter(range(10**9))


@pytest.fixture(autouse=True)
def _drop_ray_worlds(world: str) -> Iterator[None]:
    """Back to the test's world after it, and the worlds its examples made deleted."""
    yield
    esper.switch_world(world)
    for name in esper.list_worlds():
        if name.startswith("rays-"):
            esper.delete_world(name)


def _world(seed: int, n: int) -> tuple[CollisionSystem, random.Random]:
    """A fresh esper world (hypothesis runs many examples per test) of ``n`` shapes."""
    name = f"rays-{next(_worlds)}"
    if esper.current_world.startswith("rays-"):
        previous = esper.current_world
        esper.switch_world("default")
        esper.delete_world(previous)
    esper.switch_world(name)
    rng = random.Random(seed)
    esper.add_processor(MovementSystem(), priority=1)
    system = CollisionSystem()
    esper.add_processor(system)
    for _ in range(n):
        parts: list[object] = [
            Position(rng.uniform(0, 100), rng.uniform(0, 100), rng.choice([0, 30, 90])),
            Shape(_geometry(rng), layer=rng.choice([1, 2, 3])),
        ]
        if rng.random() < 0.5:
            parts.append(Static())
        else:
            parts.append(Velocity(rng.uniform(-40, 40), rng.uniform(-40, 40)))
        esper.create_entity(*parts)
    esper.process(1 / 60)
    # Changes since the tick count: a hand move and a new entity.
    first = min(entity for entity, _ in esper.get_component(Position))
    esper.component_for_entity(first, Position).x += 3.0
    esper.create_entity(Position(50, 50), Shape(Circle(4)))
    return system, rng


def _shapes() -> list[tuple[int, AnyShape, tuple[float, float, float], int]]:
    return [
        (entity, shape.geometry, (position.x, position.y, position.angle), shape.layer)
        for entity, (position, shape) in sorted(esper.get_components(Position, Shape))
    ]


def _kind(entity: int) -> int:
    return int(esper.component_for_entity(entity, Shape).geometry.kind)


def _brute_rays(
    origin: tuple[float, float], direction: tuple[float, float], reach: float, mask: int
) -> list[tuple[int, float]]:
    found = []
    for entity, geometry, pose, layer in _shapes():
        if layer & mask:
            hit = ray_cast(geometry, pose, origin, direction, reach)
            if hit is not None:
                found.append((entity, hit.distance))
    # Equally near hits: by shape kind, then entity id.
    return sorted(found, key=lambda pair: (pair[1], _kind(pair[0]), pair[0]))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_rays_agree_with_each_shape_tried(seed: int) -> None:
    system, rng = _world(seed, 40)
    for _ in range(12):
        origin = (rng.uniform(-20, 120), rng.uniform(-20, 120))
        angle = rng.uniform(0, 2 * math.pi)
        direction = (math.cos(angle), math.sin(angle))
        reach = rng.choice([math.inf, rng.uniform(0, 80)])
        mask = rng.choice([0xFFFF_FFFF, 1, 2])
        expected = _brute_rays(origin, direction, reach, mask)
        found = system.ray_cast_all(origin, direction, reach, mask)
        assert [(e, h.distance) for e, h in found] == expected
        first = system.ray_cast(origin, direction, reach, mask)
        if expected:
            assert first is not None and (first[0], first[1].distance) == expected[0]
        else:
            assert first is None
        odd = system.ray_cast(origin, direction, reach, mask, where=lambda e: e % 2 == 1)
        odd_expected = [pair for pair in expected if pair[0] % 2 == 1]
        assert (None if odd is None else (odd[0], odd[1].distance)) == (
            odd_expected[0] if odd_expected else None
        )


def test_batch_rays_agree_with_single_rays() -> None:
    system, rng = _world(7, 60)
    origins = np.array([(rng.uniform(-20, 120), rng.uniform(-20, 120)) for _ in range(50)])
    angles = np.array([rng.uniform(0, 2 * math.pi) for _ in range(50)])
    directions = np.column_stack([np.cos(angles), np.sin(angles)])
    entities, hits = system.ray_cast_batch(origins, directions, 90.0)
    for k in range(50):
        one = system.ray_cast(tuple(origins[k]), tuple(directions[k]), 90.0)
        if one is None:
            assert entities[k] == -1 and not hits.hit[k]
        else:
            assert hits.hit[k] and hits.distance[k] == pytest.approx(one[1].distance, abs=1e-9)
            # Equally near static and moving hits may name either; the distance agrees.
            assert entities[k] == one[0] or hits.distance[k] == one[1].distance


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_shape_casts_agree_with_each_shape_tried(seed: int) -> None:
    system, rng = _world(seed, 30)
    for _ in range(6):
        moving = _geometry(rng)
        pose = (rng.uniform(-10, 110), rng.uniform(-10, 110), rng.choice([0.0, 45.0]))
        translation = (rng.uniform(-60, 60), rng.uniform(-60, 60))
        expected = []
        for entity, geometry, other, _ in _shapes():
            hit = shape_cast(moving, pose, translation, geometry, other)
            if hit is not None:
                expected.append((hit.fraction, entity))
        found = system.shape_cast(moving, pose, translation)
        if not expected:
            assert found is None
        else:
            fraction, _ = min(expected)
            assert found is not None and found[1].fraction == fraction
            assert (fraction, found[0]) in expected


def test_bad_rays_are_refused_with_the_argument_named() -> None:
    system = CollisionSystem()
    with pytest.raises(ValueError, match="direction"):
        system.ray_cast((0, 0), (0, 0))
    with pytest.raises(ValueError, match="max_distance"):
        system.ray_cast((0, 0), (1, 0), -1.0)
    with pytest.raises(ValueError, match="origin"):
        system.ray_cast((math.nan, 0), (1, 0))
    with pytest.raises(TypeError, match="where"):
        system.ray_cast((0, 0), (1, 0), where=3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="translation"):
        system.shape_cast(Circle(1), (0, 0), (math.inf, 0))

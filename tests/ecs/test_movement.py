"""MovementSystem: integration, angle, the world-space refresh, overflow."""

from __future__ import annotations

import esper
import numpy as np
import pytest

from arcade_collide.ecs import MovementSystem, Position, Shape, Velocity
from arcade_collide.ecs.esper_internals import components_of, use_private_state
from arcade_collide.ecs.table import table_for_current_world
from arcade_collide.geometry.shapes import Circle, Rect, ShapeKind


def test_integrates_position_and_angle() -> None:
    p = Position(100, 50, angle=10)
    e = esper.create_entity(p, Velocity(30, -60, angular=90))
    still = Position(1, 2, angle=3)
    esper.create_entity(still)
    esper.add_processor(MovementSystem())
    for _ in range(60):
        esper.process(1 / 60)
    assert p.x == pytest.approx(130.0)
    assert p.y == pytest.approx(-10.0)
    assert p.angle == pytest.approx(100.0)
    assert (still.x, still.y, still.angle) == (1.0, 2.0, 3.0)
    assert esper.component_for_entity(e, Position) is p


def test_velocity_edited_by_hand_is_used_next_tick() -> None:
    p, v = Position(0, 0), Velocity(10, 0)
    esper.create_entity(p, v)
    esper.add_processor(MovementSystem())
    esper.process(1.0)
    v.x, v.y = 0, 5
    esper.process(1.0)
    assert (p.x, p.y) == (10.0, 5.0)


def test_entities_added_and_removed_between_ticks() -> None:
    esper.add_processor(MovementSystem())
    positions = [Position(k, 0) for k in range(5)]
    ids = [esper.create_entity(p, Velocity(1, 0)) for p in positions]
    esper.process(1.0)
    esper.delete_entity(ids[1])
    esper.remove_component(ids[2], Velocity)
    late = Position(0, 0)
    esper.create_entity(late, Velocity(0, 2))
    esper.process(1.0)
    assert [p.x for p in positions] == [2.0, 2.0, 3.0, 5.0, 6.0]
    assert late.y == 2.0


def test_refreshes_world_space_shapes_and_boxes() -> None:
    p = Position(0, 0)
    esper.create_entity(p, Velocity(60, 0, angular=90 * 60), Shape(Rect(4, 2)))
    esper.create_entity(Position(10, 10), Shape(Circle(3)))
    esper.add_processor(MovementSystem())
    esper.process(1 / 60)
    table = table_for_current_world()
    # After 1/60 s: x = 1 and the angle is 90 (clockwise): the 4-wide side is vertical.
    np.testing.assert_allclose(table.rows.rect_center, [[1.0, 0.0]])
    np.testing.assert_allclose(table.rows.rect_axis, [[0.0, -1.0]], atol=1e-15)
    rows = {kind: k for k, kind in enumerate(table.kinds.tolist())}
    # Boxes are padded by the coordinate slack: 1e-12 of the largest coordinate, 13,
    # rounded up to a power of two.
    assert table.slack == 2.0**-36 and 2.0**-37 < 13e-12 <= 2.0**-36
    pad = np.array([-1.0, -1.0, 1.0, 1.0]) * table.slack
    np.testing.assert_allclose(
        table.aabbs[rows[ShapeKind.RECT]] - pad, [0.0, -2.0, 2.0, 2.0], atol=1e-15
    )
    np.testing.assert_allclose(table.aabbs[rows[ShapeKind.CIRCLE]] - pad, [7.0, 7.0, 13.0, 13.0])


def test_overflow_raises_naming_the_entity_and_moves_nothing() -> None:
    ok = Position(0, 0)
    esper.create_entity(ok, Velocity(1, 0))
    p = Position(1e308, 0)
    e = esper.create_entity(p, Velocity(1.7e308, 0))
    esper.add_processor(MovementSystem())
    with pytest.raises(ValueError, match=f"entity {e}: Position would not be finite"):
        esper.process(1.0)
    assert (ok.x, p.x) == (0.0, 1e308)


def test_dt_is_validated() -> None:
    esper.add_processor(MovementSystem())
    with pytest.raises(ValueError, match="dt must be finite"):
        esper.process(float("nan"))
    with pytest.raises(TypeError, match="dt"):
        esper.process("fast")


def test_a_position_on_two_moving_entities_moves_by_both_velocities() -> None:
    shared = Position(0, 0)
    esper.create_entity(shared, Velocity(1, 0))
    esper.create_entity(Position(5, 5), Velocity(0, 0, angular=10))
    esper.create_entity(shared, Velocity(0, 1, angular=30))
    esper.add_processor(MovementSystem())
    esper.process(1.0)
    assert (shared.x, shared.y, shared.angle) == (1.0, 1.0, 30.0)


@pytest.mark.parametrize("seed", range(3))
def test_random_structural_changes_move_exactly_the_entities_with_a_velocity(
    seed: int,
) -> None:
    # The moving rows are merged with the changed entities (not rebuilt): after each
    # tick every entity with a Position and a Velocity moved by its velocity, no other.
    rng = np.random.default_rng(seed)
    esper.add_processor(MovementSystem())
    live: dict[int, Position] = {}
    for _ in range(30):
        position = Position(*rng.uniform(0, 100, 2))
        live[esper.create_entity(position, Velocity(1, 2))] = position
    esper.process(1.0)
    for _ in range(20):
        for _ in range(int(rng.integers(1, 5))):
            entity = int(rng.choice(list(live)))
            what = int(rng.integers(4))
            if what == 0:
                position = Position(*rng.uniform(0, 100, 2))
                live[esper.create_entity(position, Velocity(1, 2))] = position
            elif what == 1 and len(live) > 5:
                esper.delete_entity(entity, immediate=bool(rng.integers(2)))
                del live[entity]
            elif what == 2 and esper.has_component(entity, Velocity):
                esper.remove_component(entity, Velocity)
            else:
                esper.add_component(entity, Velocity(1, 2))
        before = {e: (p.x, p.y) for e, p in live.items()}
        esper.process(1.0)
        for entity, position in live.items():
            step = 1.0 if esper.has_component(entity, Velocity) else 0.0
            x, y = before[entity]
            assert (position.x, position.y) == (x + step, y + 2 * step), entity


@pytest.mark.parametrize("private", [True, False])
@pytest.mark.parametrize("seed", range(3))
def test_batches_of_leavers_and_newcomers_keep_every_entity_moving_once(
    seed: int, private: bool
) -> None:
    # More leave than come, then more come than leave (past the slots' room), Positions
    # replaced and shared: each tick every entity with both components moved once.
    previous = use_private_state(private)
    try:
        _batches(seed)
    finally:
        use_private_state(previous)


def _batches(seed: int) -> None:
    rng = np.random.default_rng(seed)
    esper.add_processor(MovementSystem())
    live: dict[int, Position] = {}

    def add(count: int) -> None:
        for _ in range(count):
            position = Position(*rng.uniform(0, 100, 2))
            live[esper.create_entity(position, Velocity(1, 2))] = position

    add(40)
    esper.process(1.0)
    for batch in ([30, 5], [5, 60], [20, 20], [0, 3], [50, 0]):
        leaving = rng.choice(list(live), min(batch[0], len(live) - 1), replace=False)
        for entity in leaving.tolist():
            esper.delete_entity(entity)
            del live[entity]
        add(batch[1])
        entity = int(rng.choice(list(live)))
        live[entity] = Position(-5, -5)
        esper.add_component(entity, live[entity])
        if batch == [0, 3]:  # one Position on two moving entities: the general case
            other = next(e for e in live if e != entity)
            live[other] = live[entity]
            esper.add_component(other, live[entity])
        before = {e: (p.x, p.y) for e, p in live.items()}
        esper.process(1.0)
        for e, position in live.items():
            x, y = before[e]
            times = sum(p is position for p in live.values())
            assert (position.x, position.y) == (x + times, y + 2 * times), e
        if batch == [0, 3]:
            live[other] = Position(1, 1)
            esper.add_component(other, live[other])


def test_overflow_after_changes_names_the_lowest_entity() -> None:
    esper.add_processor(MovementSystem())
    first = [esper.create_entity(Position(k, 0), Velocity(1, 0)) for k in range(6)]
    esper.process(1.0)
    for entity in first[:3]:
        esper.delete_entity(entity)
    later = [esper.create_entity(Position(k, 0), Velocity(1, 0)) for k in range(3)]
    esper.process(1.0)  # the newcomers took the leavers' slots, ahead of first[3:]
    for entity in (later[0], first[4]):
        esper.component_for_entity(entity, Position).x = 1e308
        esper.component_for_entity(entity, Velocity).x = 1.7e308
    with pytest.raises(ValueError, match=f"entity {first[4]}: Position would not be finite"):
        esper.process(1.0)


@pytest.mark.parametrize("private", [True, False])
def test_components_of_reads_an_entity_like_esper(private: bool) -> None:
    previous = use_private_state(private)
    try:
        position, velocity = Position(1, 2), Velocity(3, 4)
        entity = esper.create_entity(position, velocity)
        assert dict(components_of(entity)) == {Position: position, Velocity: velocity}
        esper.delete_entity(entity)  # marked dead: its components stay until removed
        assert components_of(entity).get(Position) is position
        esper.clear_dead_entities()
        assert dict(components_of(entity)) == {}
    finally:
        use_private_state(previous)

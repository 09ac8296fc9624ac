"""The shape table and MovementSystem follow structural changes by reading only the
entities that changed (:class:`~arcade_collide.ecs.esper_internals.ComponentWatch`,
:meth:`~arcade_collide.ecs.layout.Layout.merged`): after any sequence of changes their
rows equal those built from scratch, and the tick's pairs equal a brute-force check.
Each test runs in its own esper world (``tests/ecs/conftest.py``).
"""

from __future__ import annotations

import random

import esper
import numpy as np
import pytest
from brute_force import touching_pairs

from arcade_collide import Circle, Point, Polygon, Rect, Triangle
from arcade_collide.ecs import (
    CollisionSystem,
    MovementSystem,
    Position,
    Shape,
    Static,
    Velocity,
)
from arcade_collide.ecs.esper_internals import use_private_state
from arcade_collide.ecs.table import ShapeTable, table_for_current_world
from arcade_collide.geometry.shapes import AnyShape, ShapeKind

_COLUMNS = ("entities", "kinds", "layer", "mask", "sensor", "static", "inner", "outer")


def _geometry(rng: random.Random) -> AnyShape:
    return rng.choice(
        [
            Point(),
            Circle(rng.uniform(2, 8)),
            Rect(rng.uniform(2, 9), 4),
            Triangle((0, 0), (6, 0), (0, 6)),
            Polygon([(0, 0), (5, 0), (7, 3), (2, 6), (-1, 3)][: rng.randint(3, 5)]),
        ]
    )


def _spawn(rng: random.Random) -> int:
    components: list[object] = [Position(rng.uniform(0, 60), rng.uniform(0, 60))]
    if rng.random() < 0.9:
        components.append(Shape(_geometry(rng), layer=rng.choice([1, 2, 3])))
    if rng.random() < 0.6:
        components.append(Velocity(rng.uniform(-30, 30), rng.uniform(-30, 30), 20))
    elif rng.random() < 0.4:
        components.append(Static())
    return esper.create_entity(*components)


def _change(rng: random.Random, live: list[int]) -> None:
    """One structural change a game makes: spawn, delete (now or at the next tick), add
    or take away a Shape, Static, Velocity, or a new Position."""
    entity = rng.choice(live)
    what = rng.randrange(8)
    if what <= 1:
        live.append(_spawn(rng))
    elif what == 2 and len(live) > 3:
        live.remove(entity)
        esper.delete_entity(entity, immediate=rng.random() < 0.3)
    elif what == 3:
        esper.add_component(entity, Shape(_geometry(rng)))
    elif what == 4 and esper.has_component(entity, Shape):
        esper.remove_component(entity, Shape)
    elif what == 5:
        if esper.has_component(entity, Static):
            esper.remove_component(entity, Static)
        elif not esper.has_component(entity, Velocity):
            esper.add_component(entity, Static())
    elif what == 6:
        esper.add_component(entity, Position(rng.uniform(0, 60), rng.uniform(0, 60)))
    elif esper.has_component(entity, Velocity):
        esper.remove_component(entity, Velocity)
    else:
        esper.add_component(entity, Velocity(rng.uniform(-30, 30), 0))


def _check_against_scratch(table: ShapeTable) -> None:
    """The table holds the rows a build from scratch holds, each kind's rows together;
    a row reused by a newcomer may put a kind's rows out of entity order, so the rows
    are compared entity by entity."""
    scratch = ShapeTable()
    scratch.refresh()
    assert (np.diff(table.kinds) >= 0).all()
    ours, theirs = np.argsort(table.entities), np.argsort(scratch.entities)
    for name in _COLUMNS:
        assert np.array_equal(getattr(table, name)[ours], getattr(scratch, name)[theirs]), name
    assert np.array_equal(table.aabbs[ours], scratch.aabbs[theirs])
    assert np.array_equal(table._current.pool_rows[ours], scratch._current.pool_rows[theirs])
    found = table._current.find_rows(np.sort(table.entities))
    assert np.array_equal(found, ours)
    rank, bound = table.entity_rank()  # each row's number: in id order, below the bound
    assert np.array_equal(np.argsort(rank), ours) and int(rank.max(initial=-1)) < bound
    first, scratch_first = (int(np.searchsorted(t.kinds, ShapeKind.RECT)) for t in (table, scratch))
    convex = [(int(row), int(other)) for row, other in zip(ours, theirs, strict=True)]
    for row, other in convex:
        if row < first:
            continue
        c, d = row - first, other - scratch_first
        n = int(scratch._current.nlocal[d])
        assert int(table._current.nlocal[c]) == n
        assert np.array_equal(table._current.local[c, :n], scratch._current.local[d, :n])


@pytest.mark.parametrize("seed", range(6))
def test_rows_follow_structural_changes_as_a_rebuild_would(seed: int) -> None:
    merged = _churn(seed)
    assert merged >= 20  # most changes were merged, not rebuilt


def _churn(seed: int) -> int:
    """60 ticks of random structural changes, checked after each; returns how many
    ticks changed the layout by merging."""
    rng = random.Random(seed)
    merged = 0
    esper.add_processor(MovementSystem(), priority=1)
    system = CollisionSystem()
    esper.add_processor(system)
    live = [_spawn(rng) for _ in range(40)]
    esper.process(1 / 60)
    layout = table_for_current_world().layout
    for tick in range(60):
        for _ in range(rng.randrange(4)):
            _change(rng, live)
        esper.process(1 / 60)
        table = table_for_current_world()
        _check_against_scratch(table)
        assert system.touching() == touching_pairs(), tick
        merged += table.layout != layout and table.renumbered is not None
        layout = table.layout
    return merged


def test_a_shape_edited_in_the_tick_of_a_change_is_placed_as_edited() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    a = esper.create_entity(Position(0, 0), Shape(Rect(10, 10)))
    b = esper.create_entity(Position(30, 0), Shape(Rect(10, 10)))
    esper.process(1 / 60)
    esper.component_for_entity(a, Shape).geometry = Rect(60, 10)  # now reaches b
    c = esper.create_entity(Position(100, 100), Shape(Circle(1)))
    esper.process(1 / 60)
    assert system.touching() == [(a, b)]
    _check_against_scratch(table_for_current_world())
    esper.delete_entity(c)
    esper.process(1 / 60)
    assert system.touching() == [(a, b)]


def test_the_public_fallbacks_rebuild_and_agree() -> None:
    previous = use_private_state(False)
    try:
        assert _churn(99) == 0  # every change rebuilt from esper's lists
    finally:
        use_private_state(previous)


def test_a_shape_without_a_position_is_refused_until_fixed() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    esper.create_entity(Position(0, 0), Shape(Circle(1)))
    esper.process(1 / 60)
    lost = esper.create_entity(Shape(Circle(2)))
    for _ in range(2):  # the change is kept: the next tick refuses it again
        with pytest.raises(ValueError, match=f"entity {lost} has a Shape but no Position"):
            esper.process(1 / 60)
    esper.add_component(lost, Position(0.5, 0))
    esper.process(1 / 60)
    assert len(system.touching()) == 1


def test_moving_rows_follow_structural_changes() -> None:
    rng = random.Random(5)
    movement = MovementSystem()
    esper.add_processor(movement)
    live = [_spawn(rng) for _ in range(30)]
    esper.process(1 / 60)
    for _ in range(80):
        _change(rng, live)
        before = {e: (p.x, p.y) for e, (p, _) in esper.get_components(Position, Velocity)}
        speeds = {e: (v.x, v.y) for e, (_, v) in esper.get_components(Position, Velocity)}
        esper.process(0.5)
        for entity, (x, y) in before.items():
            if esper.entity_exists(entity):
                position = esper.component_for_entity(entity, Position)
                vx, vy = speeds[entity]
                assert (position.x, position.y) == (x + vx * 0.5, y + vy * 0.5)


@pytest.mark.parametrize("seed", range(20))
def test_kept_runs_move_each_kept_row_where_a_row_by_row_merge_puts_it(seed: int) -> None:
    from arcade_collide.ecs.layout import _kept_runs

    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 30))
    drop = np.sort(rng.choice(n, int(rng.integers(0, n + 1)), replace=False)).astype(np.int64)
    at = np.sort(rng.integers(0, n + 1, int(rng.integers(0, 6)))).astype(np.int64)
    # Row by row: each new row goes before old row ``at`` (after it, at the end).
    order: list[int] = []
    for row in range(n + 1):
        order += [-1] * int((at == row).sum())
        if row < n and row not in drop:
            order.append(row)
    expected = {row: k for k, row in enumerate(order) if row >= 0}
    moved = {
        int(s) + k: int(t) + k for s, t, c in _kept_runs(n, drop, at).tolist() for k in range(c)
    }
    assert moved == expected


@pytest.mark.parametrize("seed", range(20))
def test_the_row_list_kernels_agree_with_numpy(seed: int) -> None:
    from arcade_collide.ecs.layout import sorted_unique, table_rows_of

    rng = np.random.default_rng(seed)
    rows = rng.integers(-3, 40, int(rng.integers(0, 60))).astype(np.int64)
    assert sorted_unique(rows).tolist() == np.unique(rows).tolist()
    row_in_pool = rng.integers(-1, 25, 30).astype(np.int64)
    pool_rows = rng.integers(0, 45, int(rng.integers(0, 60))).astype(np.int64)
    known = pool_rows[pool_rows < len(row_in_pool)]  # the others came after the layout
    mapped = row_in_pool[known]
    assert table_rows_of(pool_rows, row_in_pool).tolist() == np.unique(mapped[mapped >= 0]).tolist()


def test_shapes_moved_by_setters_and_by_a_system_in_one_tick_are_all_placed() -> None:
    # The pool's log then holds single rows and a bulk write together.
    collision = CollisionSystem()
    esper.add_processor(MovementSystem())
    esper.add_processor(collision)
    still = [esper.create_entity(Position(40.0 * k, 0), Shape(Circle(5))) for k in range(6)]
    mover = esper.create_entity(Position(0, 100), Velocity(0, -60), Shape(Circle(5)))
    esper.process(1 / 60)
    esper.component_for_entity(still[2], Position).x = 5.0  # onto still[0] (at x = 0)
    esper.component_for_entity(still[4], Position).y = 95.0
    esper.process(1.0)  # the mover comes down to y = 40
    table = table_for_current_world()
    for entity in [*still, mover]:
        position = esper.component_for_entity(entity, Position)
        row = int(np.flatnonzero(table.entities == entity)[0])
        assert table.origin_x[row] == position.x and table.origin_y[row] == position.y
    assert collision.touching() == touching_pairs() == [(still[0], still[2])]

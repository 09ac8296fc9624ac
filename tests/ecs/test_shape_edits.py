"""Shape edits rewrite their rows in place: same pairs as brute force, no rebuild."""

from __future__ import annotations

import itertools

import esper
import numpy as np
import pytest

from arcade_collide.ecs import CollisionSystem, MovementSystem, Position, Shape, Static, Velocity
from arcade_collide.ecs.table import table_for_current_world
from arcade_collide.geometry.query.dispatch import intersects
from arcade_collide.geometry.shapes import AnyShape, Circle, Point, Polygon, Rect, Triangle


def _touching(entities: list[int]) -> list[tuple[int, int]]:
    out = []
    for a, b in itertools.combinations(sorted(entities), 2):
        sa, sb = esper.component_for_entity(a, Shape), esper.component_for_entity(b, Shape)
        if esper.has_component(a, Static) and esper.has_component(b, Static):
            continue
        if not (sa.layer & sb.mask and sb.layer & sa.mask):
            continue
        pa, pb = esper.component_for_entity(a, Position), esper.component_for_entity(b, Position)
        if intersects(sa.geometry, (pa.x, pa.y, pa.angle), sb.geometry, (pb.x, pb.y, pb.angle)):
            out.append((a, b))
    return out


EDITS: list[tuple[str, object]] = [
    ("geometry", Circle(9)),
    ("geometry", Rect(30, 4)),
    ("geometry", Triangle((0, 0), (20, 0), (0, 20))),
    ("geometry", Polygon([(0, 0), (12, 0), (14, 8), (6, 14), (-2, 8)])),
    ("geometry", Point()),
    ("layer", 2),
    ("mask", 1),
    ("sensor", True),
]


@pytest.mark.parametrize(("field", "value"), EDITS, ids=[f"{f}-{v!r}" for f, v in EDITS])
def test_an_edit_gives_the_pairs_brute_force_gives(field: str, value: object) -> None:
    esper.add_processor(MovementSystem())
    system = CollisionSystem()
    esper.add_processor(system)
    rng = np.random.default_rng(4)
    shapes: list[AnyShape] = [Circle(6), Rect(10, 8), Triangle((0, 0), (9, 0), (0, 9))]
    shapes.append(Polygon([(0, 0), (8, 0), (8, 8), (0, 8)]))
    entities = []
    for k in range(40):
        parts: list[object] = [Position(*rng.uniform(0, 120, 2), angle=float(rng.uniform(0, 360)))]
        parts.append(Shape(shapes[k % 4]))
        if k % 3 == 0:
            parts.append(Velocity(*rng.uniform(-30, 30, 2)))
        if k % 5 == 0:
            parts.append(Static())
        entities.append(esper.create_entity(*parts))
    esper.process(1 / 60)
    layout = table_for_current_world().layout
    for e in entities[::4]:
        setattr(esper.component_for_entity(e, Shape), field, value)
        esper.process(1 / 60)
        assert system.touching() == _touching(entities)
        esper.process(1 / 60)
        assert system.touching() == _touching(entities)
    # The edited entities are the circles (every fourth): only a change of kind re-lays.
    same_kind = field != "geometry" or isinstance(value, Circle)
    assert (table_for_current_world().layout == layout) == same_kind


def test_a_same_kind_edit_keeps_the_layout() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    a = esper.create_entity(Position(0, 0), Shape(Rect(10, 10)))
    b = esper.create_entity(Position(20, 0), Shape(Rect(10, 10)))
    esper.process(1 / 60)
    layout = table_for_current_world().layout
    assert system.touching() == []
    esper.component_for_entity(a, Shape).geometry = Rect(30, 10)  # now reaches b
    esper.process(1 / 60)
    assert system.touching() == [(a, b)]
    esper.component_for_entity(b, Shape).mask = 0
    esper.process(1 / 60)
    assert system.touching() == [] and table_for_current_world().layout == layout


def test_a_shape_on_several_entities_or_passed_on_is_edited_in_every_row() -> None:
    """One Shape object on two entities, handed from one entity to another, or replaced
    in the tick its entity was created: each edit reaches every row that holds it."""
    esper.add_processor(MovementSystem())
    system = CollisionSystem()
    esper.add_processor(system)
    shared = Shape(Circle(2))
    a = esper.create_entity(Position(0, 0), shared)
    b = esper.create_entity(Position(30, 0), shared)
    c = esper.create_entity(Position(15, 12), Shape(Circle(2)))
    entities = [a, b, c]
    esper.process(1 / 60)
    assert system.touching() == []
    shared.geometry = Circle(18)  # both rows now reach c
    esper.process(1 / 60)
    assert system.touching() == _touching(entities) == [(a, b), (a, c), (b, c)]
    # a leaves; the Shape stays on b only.
    esper.delete_entity(a)
    entities.remove(a)
    esper.process(1 / 60)
    shared.geometry = Circle(3)
    esper.process(1 / 60)
    assert system.touching() == _touching(entities) == []
    # Passed on: b's Shape goes to a new entity d, then grows.
    esper.remove_component(b, Shape)
    d = esper.create_entity(Position(15, 0), shared)
    entities = [c, d]
    esper.process(1 / 60)
    shared.geometry = Circle(12)
    esper.process(1 / 60)
    assert system.touching() == _touching(entities) == [(c, d)]
    # A newcomer created and given another Shape in the same tick, then edited.
    e = esper.create_entity(Position(60, 0), Shape(Circle(1)))
    later = Shape(Circle(1))
    esper.add_component(e, later)
    esper.process(1 / 60)
    later.geometry = Circle(40)
    esper.process(1 / 60)
    entities.append(e)
    assert system.touching() == _touching(entities)
    assert (d, e) in system.touching()


def test_an_edit_of_a_shape_held_in_two_worlds_reaches_both(world: str) -> None:
    shared = Shape(Circle(2))
    worlds = ["edits-one", "edits-two"]
    found = {}
    for name in worlds:
        esper.switch_world(name)
        system = CollisionSystem()
        esper.add_processor(system)
        a = esper.create_entity(Position(0, 0), shared)
        b = esper.create_entity(Position(10, 0), Shape(Circle(2)))
        esper.process(1 / 60)
        assert system.touching() == []
        found[name] = (system, a, b)
    shared.geometry = Circle(9)
    try:
        for name in worlds:
            esper.switch_world(name)
            system, a, b = found[name]
            esper.process(1 / 60)
            assert system.touching() == [(a, b)]
    finally:
        esper.switch_world(world)
        for name in worlds:
            esper.delete_world(name)


def test_an_edit_of_a_shape_its_entity_no_longer_holds_changes_nothing() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    old = Shape(Circle(2))
    a = esper.create_entity(Position(0, 0), old)
    b = esper.create_entity(Position(10, 0), Shape(Circle(2)))
    esper.process(1 / 60)
    new = Shape(Circle(3))
    esper.add_component(a, new)  # replaces ``old`` on a
    esper.process(1 / 60)
    old.geometry = Circle(20)  # a Shape no entity holds
    esper.process(1 / 60)
    assert system.touching() == [] == _touching([a, b])
    new.geometry = Circle(8)
    esper.process(1 / 60)
    assert system.touching() == [(a, b)] == _touching([a, b])


def test_one_shape_object_on_many_entities_lets_spawns_reuse_rows() -> None:
    """A world whose entities share one Shape object (a tile or bullet shape made once)
    still takes structural changes row by row, not by a rebuild."""
    esper.add_processor(MovementSystem())
    system = CollisionSystem()
    esper.add_processor(system)
    rng = np.random.default_rng(9)
    bullet = Shape(Circle(4))
    entities = [
        esper.create_entity(Position(*rng.uniform(0, 200, 2)), bullet) for _ in range(60)
    ]
    esper.process(1 / 60)
    table = table_for_current_world()
    for _ in range(5):
        for gone in entities[:3]:
            esper.delete_entity(gone)
        entities = entities[3:]
        entities += [
            esper.create_entity(Position(*rng.uniform(0, 200, 2)), bullet) for _ in range(3)
        ]
        esper.process(1 / 60)
        assert table.reused_rows is not None and len(table.reused_rows) == 3
        assert system.touching() == _touching(entities)
    bullet.geometry = Circle(9)  # held by every entity: the table is built again
    esper.process(1 / 60)
    assert system.touching() == _touching(entities)

"""World queries, explain() and contacts() at the current poses, against brute force."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator
from contextlib import contextmanager

import esper
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.ecs import (
    ALL_LAYERS,
    CollisionEnded,
    CollisionStarted,
    CollisionSystem,
    MovementSystem,
    Position,
    Shape,
    Static,
    Velocity,
)
from arcade_collide.geometry.query.dispatch import intersects
from arcade_collide.geometry.shapes import AnyShape, Circle, Point, Polygon, Rect, Triangle

LAYERS = (1, 2, 4, 3)
_worlds = itertools.count()


@contextmanager
def fresh_world() -> Iterator[None]:
    """A world of its own for one hypothesis example."""
    previous = esper.current_world
    name = f"test-queries-{next(_worlds)}"
    esper.switch_world(name)
    try:
        yield
    finally:
        esper.switch_world(previous)
        esper.delete_world(name)


def random_geometry(rng: random.Random) -> AnyShape:
    kind = rng.randrange(5)
    if kind == 0:
        return Point()
    if kind == 1:
        return Circle(rng.choice((1, 2, 3, 4.5)))
    if kind == 2:
        return Rect(rng.choice((2, 4, 6)), rng.choice((2, 4, 5)))
    if kind == 3:
        return Triangle((0, 0), (rng.choice((3, 4)), 0), (0, rng.choice((2, 5))))
    n = rng.randrange(3, 7)
    r = rng.choice((2, 3, 5))
    return Polygon(
        [(r * math.cos(2 * math.pi * k / n), r * math.sin(2 * math.pi * k / n)) for k in range(n)]
    )


def random_pose(rng: random.Random) -> tuple[float, float, float]:
    # Integer coordinates and right angles give exactly touching shapes often.
    return (rng.randrange(-12, 13), rng.randrange(-12, 13), rng.choice((0, 90, 30, -45)))


def spawn(rng: random.Random) -> int:
    components: list[object] = [
        Position(*random_pose(rng)),
        Shape(random_geometry(rng), layer=rng.choice(LAYERS)),
    ]
    if rng.random() < 0.4:
        components.append(Static())
    elif rng.random() < 0.5:
        components.append(Velocity(rng.choice((-60, 0, 60)), 0))
    return int(esper.create_entity(*components))


def alive_shapes() -> list[tuple[int, AnyShape, tuple[float, float, float], int]]:
    return sorted(
        (e, s.geometry, (p.x, p.y, p.angle), s.layer)
        for e, (p, s) in esper.get_components(Position, Shape)
        if esper.entity_exists(e)
    )


def brute(shape: AnyShape, pose: object, mask: int = ALL_LAYERS) -> list[int]:
    """Every live entity whose shape touches ``shape`` at ``pose``, pairwise."""
    return [
        e for e, g, p, layer in alive_shapes() if layer & mask and intersects(shape, pose, g, p)
    ]


def box_polygon(left: float, bottom: float, right: float, top: float) -> Polygon:
    return Polygon([(left, bottom), (right, bottom), (right, top), (left, top)])


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_queries_equal_brute_force_after_hand_moves_creations_and_deletions(
    rng: random.Random,
) -> None:
    with fresh_world():
        esper.add_processor(MovementSystem())
        system = CollisionSystem()
        esper.add_processor(system)
        entities = [spawn(rng) for _ in range(rng.randrange(1, 25))]
        esper.process(1 / 60)
        for _ in range(rng.randrange(0, 6)):  # changes since the tick, none ticked
            op = rng.randrange(4)
            live = [e for e in entities if esper.entity_exists(e)]
            if op == 0 or not live:
                entities.append(spawn(rng))
            elif op == 1:
                esper.delete_entity(rng.choice(live), immediate=rng.random() < 0.5)
            else:
                position = esper.component_for_entity(rng.choice(live), Position)
                position.x, position.y, position.angle = random_pose(rng)
        for _ in range(6):
            mask = rng.choice((ALL_LAYERS, 1, 2, 6))
            x, y = rng.randrange(-14, 15), rng.randrange(-14, 15)
            assert system.point_query((x, y), mask=mask) == brute(Point(), (x, y), mask)
            w, h = rng.randrange(1, 9), rng.randrange(1, 9)
            assert system.aabb_query(x, y, x + w, y + h, mask=mask) == brute(
                box_polygon(x, y, x + w, y + h), (0, 0), mask
            )
            shape, pose = random_geometry(rng), random_pose(rng)
            assert system.shape_query(shape, pose, mask=mask) == brute(shape, pose, mask)


def test_level_of_static_tiles_and_movers() -> None:
    esper.add_processor(MovementSystem())
    system = CollisionSystem()
    esper.add_processor(system)
    tiles = {
        (i, j): esper.create_entity(Position(32 * i, 32 * j), Shape(Rect(32, 32)), Static())
        for i in range(40)
        for j in range(5)
    }
    movers = [
        esper.create_entity(Position(40 + 50 * k, 200), Velocity(30, -10), Shape(Circle(10)))
        for k in range(10)
    ]
    esper.process(1 / 60)
    assert system.point_query((48, 48)) == sorted(
        tiles[i, j]
        for i in (1, 2)
        for j in (1, 2)  # a shared corner of four tiles
    )
    assert system.point_query((48, 48), where=lambda e: e != tiles[1, 1]) == sorted(
        tiles[i, j] for i in (1, 2) for j in (1, 2) if (i, j) != (1, 1)
    )
    assert system.aabb_query(100, 150, 600, 250) == sorted(
        brute(box_polygon(100, 150, 600, 250), (0, 0))
    )
    # A mover dropped by hand onto the tiles is found there before any tick.
    esper.component_for_entity(movers[3], Position).y = 70
    found = system.point_query((190, 70))
    assert movers[3] in found and found == brute(Point(), (190, 70))
    # A tile moved by hand moves its static row: the index follows.
    esper.component_for_entity(tiles[0, 0], Position).x = 2000
    assert system.point_query((2000, 0)) == [tiles[0, 0]]
    assert tiles[0, 0] not in system.point_query((0, 0))


def test_queries_see_the_current_world_only_and_refuse_another() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    a = esper.create_entity(Position(0, 0), Shape(Circle(5)))
    esper.process(1 / 60)
    assert system.point_query((0, 0)) == [a]
    own = esper.current_world
    esper.switch_world("test-queries-elsewhere")
    try:
        with pytest.raises(RuntimeError, match="belongs to esper world"):
            system.point_query((0, 0))
    finally:
        esper.switch_world(own)
        esper.delete_world("test-queries-elsewhere")


def test_sensors_static_and_zero_size_boxes() -> None:
    sensor = esper.create_entity(Position(0, 0), Shape(Circle(5), sensor=True))
    tile = esper.create_entity(Position(20, 0), Shape(Rect(10, 10)), Static())
    system = CollisionSystem()
    assert system.point_query((0, 0)) == [sensor]
    assert system.aabb_query(15, -20, 15, 20) == [tile]  # a vertical segment on its edge
    assert system.aabb_query(5, 0, 15, 0) == [sensor, tile]  # a horizontal segment
    assert system.aabb_query(25, 5, 25, 5) == [tile]  # a point-sized box on its corner
    assert system.aabb_query(25.001, 5, 30, 5) == []


def test_where_and_mask_filters() -> None:
    a = esper.create_entity(Position(0, 0), Shape(Circle(5), layer=0b01))
    b = esper.create_entity(Position(1, 0), Shape(Circle(5), layer=0b10))
    c = esper.create_entity(Position(2, 0), Shape(Circle(5), layer=0b11))
    system = CollisionSystem()
    assert system.point_query((1, 0)) == [a, b, c]
    assert system.point_query((1, 0), mask=0b01) == [a, c]
    assert system.point_query((1, 0), mask=0b10, where=lambda e: e != c) == [b]
    with pytest.raises(TypeError, match="where must be a callable"):
        system.point_query((1, 0), where=3)  # type: ignore[arg-type]


def run_script(query_between: bool, seed: int) -> list[object]:
    """A level with movers, and hand moves between ticks; with ``query_between``, queries
    run after each hand move (refreshing the table outside ``process``)."""
    rng = random.Random(seed)
    places = random.Random(seed + 1)  # the queries' own: the script is the same either way
    esper.add_processor(MovementSystem())
    system = CollisionSystem()
    esper.add_processor(system)
    log: list[object] = []
    system.subscribe(on_started=log.append, on_ended=log.append)
    tiles = [
        esper.create_entity(Position(10 * i, 0), Shape(Rect(10, 10)), Static()) for i in range(30)
    ]
    props = [esper.create_entity(Position(20 * i, 30), Shape(Circle(4))) for i in range(6)]
    movers = [
        esper.create_entity(Position(rng.randrange(300), rng.randrange(-20, 20)),
                            Velocity(rng.choice((-120, 120)), rng.choice((-60, 60))),
                            Shape(Circle(rng.choice((3, 6)))))
        for _ in range(8)
    ]  # fmt: skip
    for tick in range(40):
        for _ in range(rng.randrange(3)):
            # Still shapes moved by hand: only the refreshes' logs say they moved.
            moved = rng.choice(movers + props + props + tiles[:3])
            position = esper.component_for_entity(moved, Position)
            position.x, position.y = rng.randrange(300), rng.randrange(-20, 20)
            if query_between:
                system.point_query((places.randrange(300), 0))
        if query_between and tick % 7 == 3:
            system.contacts()
        esper.process(1 / 60)
        pairs = system.touching()
        log.append(("pairs", pairs))
        assert pairs == brute_pairs(), tick
    return [
        (type(e).__name__, e.a, e.b) if isinstance(e, (CollisionStarted, CollisionEnded)) else e
        for e in log
    ]


def brute_pairs() -> list[tuple[int, int]]:
    shapes = alive_shapes()
    return [
        (ea, eb)
        for (ea, ga, pa, _), (eb, gb, pb, _) in itertools.combinations(shapes, 2)
        if not (esper.has_component(ea, Static) and esper.has_component(eb, Static))
        and intersects(ga, pa, gb, pb)
    ]


@pytest.mark.parametrize("seed", range(3))
def test_a_refresh_between_ticks_keeps_the_next_ticks_moved_rows_right(seed: int) -> None:
    # The broad phase pairs only the rows placed since the last tick (carrying the
    # pairs of still rows): rows a query placed between ticks must count as moved.
    plain = run_script(False, seed)
    with fresh_world():
        queried = run_script(True, seed)
    assert queried == plain


# -- explain --------------------------------------------------------------------------


def test_explain_layer_filtered_touching_pair() -> None:
    a = esper.create_entity(Position(0, 0), Shape(Circle(5), layer=1, mask=1))
    b = esper.create_entity(Position(8, 0), Shape(Circle(5), layer=2, mask=ALL_LAYERS, sensor=True))
    why = CollisionSystem().explain(a, b)
    assert (why.a, why.b, why.layer_a, why.mask_a, why.layer_b, why.mask_b) == (
        a,
        b,
        1,
        1,
        2,
        ALL_LAYERS,
    )
    assert not why.filter_passes and why.touching and not why.collides
    assert why.sensor_b and not why.sensor_a and why.boxes_overlap
    assert why.contact is not None and why.contact.normal == (1.0, 0.0)
    assert why.contact.depth == pytest.approx(2.0)
    assert why.separating_axis is None and why.gap is None


def test_explain_boxes_apart() -> None:
    a = esper.create_entity(Position(0, 0), Shape(Rect(4, 4)))
    b = esper.create_entity(Position(0, 30), Shape(Rect(4, 4)))
    why = CollisionSystem().explain(b, a)
    assert why.filter_passes and not why.boxes_overlap and not why.touching
    assert why.separating_axis == (0.0, -1.0) and why.gap == pytest.approx(26.0)
    assert why.box_a[1] > why.box_b[3]


def projections(
    shape: AnyShape, pose: tuple[float, float, float], axis: tuple[float, float]
) -> tuple[float, float]:
    """Lowest and highest projection of a posed shape on ``axis`` (exact)."""
    from arcade_collide.geometry.pose import rotation, to_world

    x, y, angle = pose
    if isinstance(shape, Point):
        d = axis[0] * x + axis[1] * y
        return d, d
    if isinstance(shape, Circle):
        d = axis[0] * x + axis[1] * y
        return d - shape.radius, d + shape.radius
    cos, sin = rotation(angle)
    values = [
        axis[0] * wx + axis[1] * wy
        for wx, wy in (to_world(v, x, y, cos, sin) for v in shape.local_vertices())
    ]
    return min(values), max(values)


@pytest.mark.parametrize(
    ("shape_a", "pose_a", "shape_b", "pose_b"),
    [
        (Circle(5), (0, 0, 0), Circle(5), (8, 8, 0)),  # boxes overlap at a corner
        (Rect(10, 2), (0, 0, 45), Rect(10, 2), (4, 4, 45)),  # parallel thin bars
        (Triangle((0, 0), (10, 0), (0, 10)), (0, 0, 0), Circle(2), (7, 7, 0)),
        (Circle(3), (0, 0, 0), Polygon([(0, 0), (6, 0), (0, 6)]), (6, 6, 180)),
        (Point(), (6, 6, 0), Triangle((0, 0), (10, 0), (0, 10)), (0, 0, 0)),
    ],
)
def test_explain_boxes_overlap_but_shapes_apart_gives_a_separating_axis(
    shape_a: AnyShape,
    pose_a: tuple[float, float, float],
    shape_b: AnyShape,
    pose_b: tuple[float, float, float],
) -> None:
    a = esper.create_entity(Position(*pose_a), Shape(shape_a))
    b = esper.create_entity(Position(*pose_b), Shape(shape_b))
    why = CollisionSystem().explain(a, b)
    assert why.boxes_overlap and not why.touching and why.contact is None
    assert why.separating_axis is not None and why.gap is not None
    assert math.hypot(*why.separating_axis) == pytest.approx(1.0)
    # Checked numerically: along the axis, all of A lies below all of B.
    _, high_a = projections(shape_a, pose_a, why.separating_axis)
    low_b, _ = projections(shape_b, pose_b, why.separating_axis)
    assert low_b - high_a == pytest.approx(why.gap) and why.gap > 0


def test_explain_touching_static_pair_and_errors() -> None:
    a = esper.create_entity(Position(0, 0), Shape(Rect(10, 10)), Static())
    b = esper.create_entity(Position(10, 0), Shape(Rect(10, 10)), Static())
    c = esper.create_entity(Position(10, 0))
    system = CollisionSystem()
    why = system.explain(a, b)
    assert why.touching and why.both_static and not why.collides
    assert why.contact is not None and why.contact.depth == 0.0 and why.contact.normal == (1.0, 0.0)
    assert why.naming("left", "right").a == "left" and why.naming("l", "r").touching
    with pytest.raises(ValueError, match=f"entity {c} is not collidable"):
        system.explain(a, c)
    with pytest.raises(ValueError, match="entity 999 is not collidable"):
        system.explain(999, a)
    with pytest.raises(ValueError, match="two different entities"):
        system.explain(a, a)
    with pytest.raises(TypeError, match="b must be an entity id"):
        system.explain(a, "b")  # type: ignore[arg-type]
    esper.delete_entity(b)
    with pytest.raises(ValueError, match=f"entity {b} is not collidable"):
        system.explain(a, b)


# -- contacts() at the current poses ------------------------------------------------------


def test_contacts_follow_a_body_pushed_deeper_since_the_tick() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    player = esper.create_entity(Position(0, 20), Shape(Rect(10, 10)))
    wall = esper.create_entity(Position(0, 0), Shape(Rect(100, 32)), Static())
    other = esper.create_entity(Position(200, 0), Shape(Circle(5)))
    partner = esper.create_entity(Position(206, 0), Shape(Circle(5)))
    esper.process(1 / 60)
    assert system.contacts()[(player, wall)].depth == pytest.approx(1.0)
    esper.component_for_entity(player, Position).y -= 10  # pushed 10 px deeper
    contacts = system.contacts()
    assert list(contacts) == [(player, wall), (other, partner)]
    assert contacts[(player, wall)].depth == pytest.approx(11.0)
    assert contacts[(player, wall)].normal == (0.0, -1.0)
    assert contacts[(other, partner)].depth == pytest.approx(4.0)
    # Moved apart since the tick: the pair stays until the next tick ends it, with
    # the contact it had at the tick.
    esper.component_for_entity(partner, Position).x = 400
    assert system.contacts()[(other, partner)].depth == pytest.approx(4.0)
    esper.delete_entity(other)
    assert list(system.contacts()) == [(player, wall)]
    log: list[object] = []
    system.subscribe(on_ended=log.append)
    esper.process(1 / 60)
    assert [(e.a, e.b) for e in log] == [(other, partner)]
    assert system.contacts()[(player, wall)].depth == pytest.approx(11.0)


def test_contacts_keep_the_ticks_contacts_when_a_query_placed_rows_first() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    a = esper.create_entity(Position(0, 0), Shape(Circle(5)))
    b = esper.create_entity(Position(8, 0), Shape(Circle(5)))
    esper.process(1 / 60)
    esper.component_for_entity(b, Position).x = 50  # apart now
    assert system.point_query((50, 0)) == [b]  # places b's row before contacts() ran
    assert system.contacts()[(a, b)].depth == pytest.approx(2.0)


def test_contacts_with_a_new_layout_since_the_tick() -> None:
    system = CollisionSystem()
    esper.add_processor(system)
    a = esper.create_entity(Position(0, 0), Shape(Circle(5)))
    b = esper.create_entity(Position(6, 0), Shape(Rect(4, 4)))
    esper.process(1 / 60)
    assert system.contacts()[(a, b)].depth == pytest.approx(1.0)
    esper.create_entity(Position(-3, 0), Shape(Point()))  # rows are laid out afresh
    esper.component_for_entity(a, Position).x = 2
    contact = system.contacts()[(a, b)]
    assert contact.depth == pytest.approx(3.0) and contact.normal == (1.0, 0.0)


@settings(max_examples=80, deadline=None)
@given(st.randoms(use_true_random=False))
def test_explain_agrees_with_intersects_and_its_axis_separates(rng: random.Random) -> None:
    with fresh_world():
        poses = [random_pose(rng), random_pose(rng)]
        shapes = [random_geometry(rng), random_geometry(rng)]
        a, b = (
            esper.create_entity(Position(*p), Shape(s)) for p, s in zip(poses, shapes, strict=True)
        )
        why = CollisionSystem().explain(a, b)
        assert why.touching == intersects(shapes[0], poses[0], shapes[1], poses[1])
        assert (why.contact is None) == (not why.touching)
        if not why.touching:
            assert why.separating_axis is not None and why.gap is not None
            _, high_a = projections(shapes[0], poses[0], why.separating_axis)
            low_b, _ = projections(shapes[1], poses[1], why.separating_axis)
            assert low_b - high_a == pytest.approx(why.gap, abs=1e-9)
            assert why.gap > -1e-9

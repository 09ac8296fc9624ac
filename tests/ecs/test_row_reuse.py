"""Rows reused (:mod:`arcade_collide.ecs.row_reuse`): an entity created takes the table
row of one deleted in the same structural change, when the kinds balance; no other row
moves, the leaver's pairs end, the newcomer's start, and nothing of the leaver carries
over to the newcomer. Unbalanced changes merge the rows instead; either way the table
holds what a build from scratch holds and the pairs equal brute force.

Each test runs in its own esper world (``tests/ecs/conftest.py``).
"""

from __future__ import annotations

import random

import esper
import numpy as np
import pytest
from brute_force import touching_pairs
from test_event_conservation import (
    Ledger,
    bounce,
    close_books,
    live_entities,
    random_position,
    random_shape,
)
from test_layout import _check_against_scratch

from arcade_collide import Circle, Polygon, Rect
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
from arcade_collide.ecs.layout import renumbering
from arcade_collide.ecs.table import ShapeTable, table_for_current_world
from arcade_collide.geometry.broad_phase import SweepBroadPhase
from arcade_collide.geometry.shapes import ShapeKind

DT = 1 / 60


class Recorder:
    """The events of each tick, as ``("started" | "ended", a, b)``."""

    def __init__(self, system: CollisionSystem) -> None:
        self.events: list[tuple[str, int, int]] = []
        system.subscribe(on_started=self.started, on_ended=self.ended)

    def started(self, event: CollisionStarted) -> None:
        self.events.append(("started", event.a, event.b))

    def ended(self, event: CollisionEnded) -> None:
        self.events.append(("ended", event.a, event.b))

    def take(self) -> list[tuple[str, int, int]]:
        events, self.events = self.events, []
        return sorted(events)


def _systems() -> CollisionSystem:
    esper.add_processor(MovementSystem(), priority=1)
    system = CollisionSystem()
    esper.add_processor(system)
    return system


def _reused_rows(table: ShapeTable) -> int:
    """How many rows the last change of layout gave to newcomers without moving any
    other row (0 when rows moved, or the layout was built afresh)."""
    renumbered = renumbering(table.renumbered, table.reused_rows, len(table.entities))
    if renumbered is None or len(renumbered) != len(table.entities):
        return 0
    kept = renumbered >= 0
    if not np.array_equal(renumbered[kept], np.flatnonzero(kept)):
        return 0
    return int((~kept).sum())


def test_a_newcomer_takes_the_row_of_a_leaver_of_its_kind() -> None:
    _systems()
    ids = [esper.create_entity(Position(40.0 * k, 0), Shape(Circle(5))) for k in range(10)]
    ids.append(esper.create_entity(Position(0, 500), Shape(Rect(4, 4))))
    esper.process(DT)
    table = table_for_current_world()
    before = table.entities.copy()
    row = int(np.flatnonzero(before == ids[3])[0])
    esper.delete_entity(ids[3])
    newcomer = esper.create_entity(Position(1000, 0), Shape(Circle(5)))
    esper.process(DT)
    assert table.entities[row] == newcomer
    others = np.flatnonzero(before != ids[3])
    assert np.array_equal(table.entities[others], before[others])  # no other row moved
    assert _reused_rows(table) == 1
    _check_against_scratch(table)
    # Another kind cannot take the row: the rows are merged (they move).
    esper.delete_entity(ids[4])
    esper.create_entity(Position(2000, 0), Shape(Rect(3, 3)))
    esper.process(DT)
    assert _reused_rows(table) == 0
    _check_against_scratch(table)


def test_a_reused_rows_old_pairs_end_and_the_newcomer_pairs_afresh() -> None:
    system = _systems()
    recorder = Recorder(system)
    a = esper.create_entity(Position(0, 0), Shape(Circle(5)))
    b = esper.create_entity(Position(8, 0), Shape(Circle(5)))
    c = esper.create_entity(Position(100, 0), Shape(Circle(5)))
    esper.process(DT)
    assert recorder.take() == [("started", a, b)]
    table = table_for_current_world()
    row_of_a = int(np.flatnonzero(table.entities == a)[0])
    # The newcomer takes a's row: it touches c, and not b (a's partner, still there).
    esper.delete_entity(a)
    newcomer = esper.create_entity(Position(108, 0), Shape(Circle(5)))
    esper.process(DT)
    assert table.entities[row_of_a] == newcomer
    assert recorder.take() == [("ended", a, b), ("started", c, newcomer)]
    assert system.touching() == [(c, newcomer)] == touching_pairs()
    # A newcomer in the row of a shape that touched nobody, where its leaver stood.
    esper.delete_entity(b)
    again = esper.create_entity(Position(8, 0), Shape(Circle(5)))
    esper.process(DT)
    assert recorder.take() == []
    esper.process(DT)
    assert recorder.take() == [] and system.touching() == [(c, newcomer)]
    rows = table._current.find_rows(np.array([again, newcomer]))
    assert table.entities[rows].tolist() == [again, newcomer]


def test_a_reused_row_brings_its_layers_into_a_world_where_every_pair_passed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only the reused rows are read for the layer filter: a newcomer on a layer its
    neighbour does not see is kept apart, and one that sees everything pairs again.
    Enough rows (a line of 60 circles, each touching the next) that the sweep carries
    its order."""
    reuses: list[list[int]] = []
    reuse = SweepBroadPhase.reuse

    def counted(self: SweepBroadPhase, rows: np.ndarray) -> None:
        reuses.append(rows.tolist())
        reuse(self, rows)

    monkeypatch.setattr(SweepBroadPhase, "reuse", counted)
    system = _systems()
    recorder = Recorder(system)
    ids = [esper.create_entity(Position(8.0 * k, 0), Shape(Circle(5))) for k in range(60)]
    esper.process(DT)
    assert len(recorder.take()) == 59
    table = table_for_current_world()
    assert table.kernel_view()[1] is None  # every pair passes
    esper.delete_entity(ids[30])
    hidden = esper.create_entity(Position(8.0 * 40 + 4, 0), Shape(Circle(5), layer=2, mask=2))
    esper.process(DT)
    assert _reused_rows(table) == 1
    assert recorder.take() == [("ended", ids[29], ids[30]), ("ended", ids[30], ids[31])]
    assert system.touching() == touching_pairs()
    esper.delete_entity(hidden)
    seen = esper.create_entity(Position(8.0 * 50 + 4, 0), Shape(Circle(5)))
    esper.process(DT)
    assert _reused_rows(table) == 1
    assert recorder.take() == [("started", ids[50], seen), ("started", ids[51], seen)]
    assert system.touching() == touching_pairs()
    _check_against_scratch(table)
    assert len(reuses) == 2  # the sweep kept its order both times


def test_delete_now_create_next_tick_and_many_deleted_few_created() -> None:
    system = _systems()
    rng = random.Random(3)
    live = [
        esper.create_entity(Position(rng.uniform(0, 200), rng.uniform(0, 200)), Shape(Circle(6)))
        for _ in range(60)
    ]
    esper.process(DT)
    table = table_for_current_world()
    # Deleted in one tick, created in the next: the rows merge twice.
    for victim in live[:5]:
        esper.delete_entity(victim)
    esper.process(DT)
    assert len(table.entities) == 55
    for _ in range(5):
        esper.create_entity(Position(rng.uniform(0, 200), rng.uniform(0, 200)), Shape(Circle(6)))
    esper.process(DT)
    _check_against_scratch(table)
    assert system.touching() == touching_pairs()
    # Many deleted and few created in one change: the newcomers' rows come and the
    # rest close up.
    for victim in live[5:40]:
        esper.delete_entity(victim)
    for _ in range(3):
        esper.create_entity(Position(rng.uniform(0, 200), rng.uniform(0, 200)), Shape(Circle(6)))
    esper.process(DT)
    assert len(table.entities) == 28 and _reused_rows(table) == 0
    _check_against_scratch(table)
    assert system.touching() == touching_pairs()


def _same_kind(rng: random.Random, kind: ShapeKind) -> Shape:
    shape = random_shape(rng)
    while shape.geometry.kind != kind:
        shape = random_shape(rng)
    return shape


@pytest.mark.parametrize("seed", range(3))
def test_balanced_churn_reuses_rows_and_conserves_events(seed: int) -> None:
    """Each tick deletes some entities and creates as many of the same kinds (now and
    then of another kind, static, or a wider polygon); handlers delete and create
    too. Events are conserved, the pairs equal brute force, the table equals a build
    from scratch."""
    rng = random.Random(seed)
    system = _systems()
    ledger = Ledger(system)
    reaper = _Reaper(rng, ledger)
    system.subscribe(on_started=reaper.on_event)
    for _ in range(80):
        esper.create_entity(random_position(rng, 120), random_shape(rng), _velocity(rng))
    ledger.tick(DT)
    reused = 0
    for _ in range(150):
        live = live_entities()
        for victim in rng.sample(live, min(len(live), rng.randrange(1, 8))):
            kind = esper.component_for_entity(victim, Shape).geometry.kind
            esper.delete_entity(victim, immediate=rng.random() < 0.2)
            if rng.random() < 0.1:
                kind = ShapeKind(rng.randrange(len(ShapeKind)))
            shape = _same_kind(rng, kind)
            components: list[object] = [random_position(rng, 120), shape]
            if rng.random() < 0.1:
                # Static shapes on a layer they do not see: the ledger's reference
                # knows no Static rule.
                static = Shape(shape.geometry, layer=8, mask=ALL_LAYERS ^ 8)
                components[1:] = [static, Static()]
            else:
                components.append(_velocity(rng))
            esper.create_entity(*components)
        bounce(120)
        ledger.tick(DT)
        table = table_for_current_world()
        reused += _reused_rows(table) > 0
        table.refresh()  # the handlers' changes too, as a query would see them
        _check_against_scratch(table)
    assert reused >= 30 and ledger.started > 100
    close_books(ledger)


def test_a_wider_polygon_does_not_fit_a_narrower_polygons_row() -> None:
    _systems()
    square = [(0, 0), (4, 0), (4, 4), (0, 4)]
    hexagon = [(0, 0), (4, 0), (6, 2), (4, 4), (0, 4), (-2, 2)]
    ids = [esper.create_entity(Position(20.0 * k, 0), Shape(Polygon(square))) for k in range(4)]
    esper.process(DT)
    table = table_for_current_world()
    esper.delete_entity(ids[0])
    esper.create_entity(Position(3, 0), Shape(Polygon(hexagon)))
    esper.process(DT)
    assert _reused_rows(table) == 0  # merged: the table widens
    _check_against_scratch(table)
    assert table.rows.polygon_vertices.shape[1] >= 6


class _Reaper:
    """Deletes an entity of a started pair now and then, and creates one in its stead."""

    def __init__(self, rng: random.Random, ledger: Ledger) -> None:
        self.rng = rng
        self.ledger = ledger

    def on_event(self, event: CollisionStarted) -> None:
        if self.rng.random() < 0.05 and esper.entity_exists(event.a):
            kind = esper.component_for_entity(event.a, Shape).geometry.kind
            esper.delete_entity(event.a)
            self.ledger.deleted_in_handlers.add(event.a)
            esper.create_entity(random_position(self.rng, 120), _same_kind(self.rng, kind))


def _velocity(rng: random.Random) -> Velocity:
    return Velocity(rng.uniform(-60, 60), rng.uniform(-60, 60), rng.uniform(-90, 90))


def test_a_newcomer_in_a_reused_row_is_placed_from_its_own_position_row() -> None:
    """Whether the pool gives a newcomer's Position its leaver's freed row or one at its
    end, the newcomer takes the leaver's table row and is placed from its own Position."""
    _systems()
    ids = [esper.create_entity(Position(40.0 * k, 0), Shape(Circle(5))) for k in range(10)]
    esper.process(DT)
    ids.append(esper.create_entity(Position(400, 0), Shape(Circle(5))))
    esper.process(DT)  # merged: the table now holds no esper list (nor its Positions)
    table = table_for_current_world()

    def takes_over(leaver: int, position: Position, axis: int, to: float) -> None:
        """The newcomer with ``position`` takes ``leaver``'s table row, and after a move
        along ``axis`` its box is placed from that Position."""
        row = int(np.flatnonzero(table.entities == leaver)[0])
        newcomer = esper.create_entity(position, Shape(Circle(5)))
        esper.process(DT)
        assert table.entities[row] == newcomer and _reused_rows(table) == 1
        setattr(position, "xy"[axis], to)
        esper.process(DT)
        assert table.aabbs[row, axis] == pytest.approx(to - 5.0, abs=1e-6)
        _check_against_scratch(table)

    leaver_row = int(table._current.pool_rows[table.entities == ids[3]][0])
    esper.delete_entity(ids[3], immediate=True)
    position = Position(1000, 0)
    assert position.pool_row == leaver_row  # the pool gives back the freed row
    takes_over(ids[3], position, 0, 1100.0)
    # The next newcomer's Position row comes from the end of the pool.
    esper.delete_entity(ids[5])
    elsewhere = Position(3000, 0)
    assert elsewhere.pool_row == len(ids)  # rows 0-10 are in use (the leaver's too, till the tick)
    takes_over(ids[5], elsewhere, 1, 50.0)


def test_a_newcomer_reading_a_kept_entitys_position_merges_instead() -> None:
    system = _systems()
    ids = [esper.create_entity(Position(20.0 * k, 0), Shape(Circle(5))) for k in range(6)]
    esper.process(DT)
    table = table_for_current_world()
    # Its Position's row would be read by two table rows, one of them kept.
    shared = esper.component_for_entity(ids[2], Position)
    esper.delete_entity(ids[1])
    esper.create_entity(shared, Shape(Circle(3)))
    esper.process(DT)
    assert _reused_rows(table) == 0
    _check_against_scratch(table)
    assert system.touching() == touching_pairs()


def test_a_static_newcomer_in_a_moving_leavers_row_regroups_the_rows() -> None:
    _systems()
    ids = [esper.create_entity(Position(20.0 * k, 0), Shape(Circle(5))) for k in range(6)]
    esper.process(DT)
    table = table_for_current_world()
    row = int(np.flatnonzero(table.entities == ids[3])[0])
    esper.delete_entity(ids[3])
    wall = esper.create_entity(Position(60, 0), Shape(Circle(5)), Static())
    esper.process(DT)
    assert _reused_rows(table) == 1 and table.entities[row] == wall
    assert table.static_rows.tolist() == [row]
    assert row not in table.dynamic_rows.tolist()
    _check_against_scratch(table)

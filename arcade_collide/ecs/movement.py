"""MovementSystem: integrate velocities, then place every shape in the world."""

from __future__ import annotations

import math
from collections.abc import Set as AbstractSet
from operator import itemgetter
from typing import Any

import esper
import numpy as np
from numpy.typing import NDArray

from arcade_collide.ecs.components import Position, Velocity
from arcade_collide.ecs.esper_internals import ComponentWatch, components_of
from arcade_collide.ecs.storage import PooledRows, RowPool
from arcade_collide.ecs.table import table_for_current_world
from arcade_collide.geometry.arrays import FloatArray, IntArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.pose import check_number

_UNUSED = PooledRows([])
"""The general case's rows while the compiled call integrates (no rows)."""


class MovementSystem(esper.Processor):
    """Moves every entity with a Position and a Velocity, once per tick.

    ``position += velocity * dt`` and ``angle += angular * dt`` for all of them at
    once, then the world's shape table is refreshed. ``dt`` is the first argument of
    ``esper.process`` in seconds. A Position object given to several entities moves by
    each of their velocities.

    If the step would make a position NaN or infinite (an overflow), or an entity has
    a Shape but no Position, nothing is moved and ``ValueError`` names the entity.

    >>> esper.switch_world("movement-doctest")
    >>> ship = esper.create_entity(Position(0, 0), Velocity(60, -30, angular=90))
    >>> esper.add_processor(MovementSystem())
    >>> esper.process(0.5)  # half a second
    >>> moved = esper.component_for_entity(ship, Position)
    >>> moved.x, moved.y, moved.angle
    (30.0, -15.0, 45.0)
    >>> esper.switch_world("default"); esper.delete_world("movement-doctest")
    """

    def __init__(self) -> None:
        self._source: object = None
        self._positions = _UNUSED
        """Each distinct moving Position object once (read only while :attr:`_direct`
        is None)."""
        self._velocities = _UNUSED
        """The Velocity of each moving entity, in entity order (likewise)."""
        self._which: IntArray | None = None
        """Per moving entity, its Position in :attr:`_positions`, when some Position
        object belongs to several moving entities (else None: one each, in order)."""
        self._entities: IntArray = np.empty(0, dtype=np.int64)
        """The moving entity in each slot: ascending once indexed, in any order after
        structural changes (each keeps its slot; newcomers take the leavers')."""
        self._direct: tuple[RowPool, IntArray, RowPool, IntArray] | None = None
        """The pools and rows to integrate in one compiled call, when every moving
        entity has its own Position and all rows are in one pool each (else None)."""
        self._slots: _Slots | None = None
        """Where each moving entity and Position row is, for updates in place; made by
        the first structural change after :meth:`_index` (None: not made yet)."""
        self._watch = ComponentWatch(Position, Velocity)

    def process(self, dt: float, *args: Any, **kwargs: Any) -> None:
        """Advance by ``dt`` seconds.

        Raises:
            TypeError: ``dt`` is not a number.
            ValueError: ``dt`` is not finite, or the step overflows a position.
        """
        step = dt if type(dt) is float and dt - dt == 0.0 else check_number(dt, "dt")
        table = table_for_current_world()
        # Structural errors (a Shape without a Position) raise before anything moves.
        table.prepare()
        table.note_sweep_starts()
        changed = self._watch.take()
        if changed is None:
            source = esper.get_components(Position, Velocity)
            if source is not self._source:
                self._index(source)
                self._source = source
        elif changed:
            # esper's old list would keep deleted entities' components alive.
            self._source = None
            if not self._update(changed):
                self._index(esper.get_components(Position, Velocity))
        if len(self._entities):
            direct = self._direct
            if direct is not None:
                positions, pos_rows, velocities, vel_rows = direct
                bad = _integrate(positions.data, pos_rows, velocities.data, vel_rows, step)
                if bad >= 0:
                    bad = self._first_overflow(step)
                    pose = positions.data[pos_rows[bad]].tolist()
                    speed = velocities.data[vel_rows[bad]].tolist()
                    moved = [a + b * step for a, b in zip(pose, speed, strict=True)]
                    self._overflow(bad, moved, step)
                positions.touch(pos_rows)
            else:
                self._integrate(step)
        table.refresh()

    def _integrate(self, step: float) -> None:
        """The general case: Positions shared by several entities, or rows in several
        pools (components made while other worlds were current)."""
        which = self._which
        # Overflow is reported below as a ValueError naming the entity, not as a warning.
        with np.errstate(over="ignore", invalid="ignore"):
            shift = self._velocities.read() * step
            if which is not None:
                # One Position object on several entities moves by each of their
                # velocities, as a loop over the entities would move it.
                total = np.zeros((self._positions.size, 3))
                np.add.at(total, which, shift)
                shift = total
            moved = self._positions.read() + shift
        if not np.isfinite(moved).all():
            bad = int(np.flatnonzero(~np.isfinite(moved).all(axis=1))[0])
            row = bad if which is None else int(np.flatnonzero(which == bad)[0])
            self._overflow(row, moved[bad].tolist(), step)
        self._positions.write(moved)

    def _first_overflow(self, step: float) -> int:
        """The slot of the lowest entity whose step would overflow (slots are not in
        entity order after structural changes)."""
        assert self._direct is not None
        positions, pos_rows, velocities, vel_rows = self._direct
        with np.errstate(over="ignore", invalid="ignore"):
            moved = positions.data[pos_rows] + velocities.data[vel_rows] * step
        bad = np.flatnonzero(~np.isfinite(moved).all(axis=1))
        return int(bad[np.argmin(self._entities[bad])])

    def _overflow(self, row: int, moved: list[float], step: float) -> None:
        """Raise for moving entity ``row``, whose Position would become ``moved``."""
        raise ValueError(
            f"entity {int(self._entities[row])}: Position would not be finite "
            f"({moved}) after moving by dt={step!r}"
        )

    def _index(self, source: list[tuple[int, tuple[Position, Velocity]]]) -> None:
        # Only when the world's structure changed: esper hands back the same cached
        # list object otherwise.
        items = sorted(source, key=itemgetter(0))
        n = len(items)
        self._entities = np.fromiter(map(itemgetter(0), items), dtype=np.int64, count=n)
        self._velocities = PooledRows([c[1] for _, c in items])
        positions = [c[0] for _, c in items]
        self._which = None
        if len(set(map(id, positions))) < n:
            # A Position object on several entities: each distinct one once.
            first: dict[int, int] = {}
            which = [first.setdefault(id(p), len(first)) for p in positions]
            positions = list({id(p): p for p in positions}.values())
            self._which = np.array(which, dtype=np.intp)
        self._positions = PooledRows(positions)
        self._direct = None
        self._slots = None
        pos_pools, vel_pools = self._positions.pools, self._velocities.pools
        if self._which is None and len(pos_pools) == 1 and len(vel_pools) == 1:
            self._direct = (
                pos_pools[0],
                self._positions.rows,
                vel_pools[0],
                self._velocities.rows,
            )

    def _update(self, changed: AbstractSet[int]) -> bool:
        """Take the ``changed`` entities out and put their current rows in, reading
        only those entities: a newcomer takes the slot of a leaver, a leaver's slot
        left over takes the last slot's entity. False when the result would need the
        general case (then :meth:`_index` rebuilds everything)."""
        direct = self._direct
        if direct is None:
            return False
        positions, _, velocities, _ = direct
        fresh = []
        for entity in sorted(changed):
            found = components_of(entity)
            position, velocity = found.get(Position), found.get(Velocity)
            if position is not None and velocity is not None:
                if position._pool is not positions or velocity._pool is not velocities:
                    return False
                fresh.append((entity, position._row, velocity._row))
        slots = self._slots
        if slots is None:
            slots = self._slots = _Slots(self._entities, direct[1], direct[3])
        if not slots.update(changed, fresh, len(positions.data)):
            return False  # a Position on several moving entities
        self._entities, pos_rows, vel_rows = slots.live()
        # The compiled call reads the rows: no PooledRows (each a pass over the rows).
        self._positions = self._velocities = _UNUSED
        self._direct = (positions, pos_rows, velocities, vel_rows)
        return True


class _Slots:
    """The moving entities' slots, and their Position and Velocity rows, kept in arrays
    with room to grow, so that a structural change costs what changed.

    Args:
        entities: The moving entity of each slot (unique).
        pos_rows: Its Position row (unique: one moving entity per Position).
        vel_rows: Its Velocity row.
    """

    def __init__(self, entities: IntArray, pos_rows: IntArray, vel_rows: IntArray) -> None:
        self.size = len(entities)
        room = max(16, 2 * self.size)
        self.columns: NDArray[np.int64] = np.zeros((3, room), dtype=np.int64)
        """Rows: entity, Position row, Velocity row; slots ``0 .. size - 1`` in use."""
        self.columns[:, : self.size] = entities, pos_rows, vel_rows
        self.slot: dict[int, int] = dict(zip(entities.tolist(), range(self.size), strict=True))
        """The slot of each moving entity."""
        self.holder: IntArray = np.full(int(pos_rows.max(initial=-1)) + 1, -1, dtype=np.int64)
        """The slot moving each Position row (-1: none)."""
        self.holder[pos_rows] = np.arange(self.size)

    def live(self) -> tuple[IntArray, IntArray, IntArray]:
        """The slots in use: entities, Position rows, Velocity rows (views)."""
        entities, pos_rows, vel_rows = self.columns[:, : self.size]
        return entities, pos_rows, vel_rows

    def update(
        self, changed: AbstractSet[int], fresh: list[tuple[int, int, int]], rows: int
    ) -> bool:
        """Free the slots of the ``changed`` entities, then give each of ``fresh``
        (entity, Position row, Velocity row; ascending) a slot: the freed ones first,
        in order, then new ones at the end; freed slots left over take the entities of
        the last slots. ``rows`` is the Position pool's size. False (this object then
        no longer valid) when two moving entities would share a Position row."""
        slot, holder, columns = self.slot, self.holder, self.columns
        freed = sorted(slot.pop(entity) for entity in changed if entity in slot)
        if freed:
            holder[columns[1, freed]] = -1
        if rows > len(holder):
            grown = np.full(max(rows, 2 * len(holder)), -1, dtype=np.int64)
            grown[: len(holder)] = holder
            holder = self.holder = grown
        end = self.size + max(0, len(fresh) - len(freed))
        if end > columns.shape[1]:
            grown = np.zeros((3, 2 * end), dtype=np.int64)
            grown[:, : self.size] = columns[:, : self.size]
            columns = self.columns = grown
        targets = freed[: len(fresh)] + list(range(self.size, end))
        for (entity, pos_row, vel_row), at in zip(fresh, targets, strict=True):
            if holder[pos_row] >= 0:
                return False
            holder[pos_row] = at
            slot[entity] = at
            columns[:, at] = entity, pos_row, vel_row
        holes = freed[len(fresh) :]
        if holes:
            self._fill(holes)
        self.size = end if not holes else self.size - len(holes)
        return True

    def _fill(self, holes: list[int]) -> None:
        """Move the entities of the last slots into the free slots ``holes`` (ascending)
        below them, so that the slots in use stay ``0 .. size - len(holes) - 1``."""
        kept = self.size - len(holes)
        empty = set(holes)
        movers = [k for k in range(kept, self.size) if k not in empty]
        columns = self.columns
        for source, target in zip(movers, [h for h in holes if h < kept], strict=True):
            columns[:, target] = columns[:, source]
            self.slot[int(columns[0, target])] = target
            self.holder[columns[1, target]] = target


@kernel("int64(float64[:, ::1], int64[::1], float64[:, ::1], int64[::1], float64)")
def _integrate(
    positions: FloatArray,
    pos_rows: IntArray,
    velocities: FloatArray,
    vel_rows: IntArray,
    step: float,
) -> int:
    """``positions[pos_rows[k]] += velocities[vel_rows[k]] * step`` for every ``k``, unless
    a result would not be finite: then nothing is written and that ``k`` is returned
    (else -1)."""
    for k in range(len(pos_rows)):
        p, v = pos_rows[k], vel_rows[k]
        for c in range(3):
            if not math.isfinite(positions[p, c] + velocities[v, c] * step):
                return k
    for k in range(len(pos_rows)):
        p, v = pos_rows[k], vel_rows[k]
        for c in range(3):
            positions[p, c] += velocities[v, c] * step
    return -1

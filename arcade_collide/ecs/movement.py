"""MovementSystem: integrate velocities, then place every shape in the world."""

from __future__ import annotations

import math
from collections.abc import Set as AbstractSet
from operator import itemgetter
from typing import Any

import esper
import numpy as np

from arcade_collide.ecs.components import Position, Velocity
from arcade_collide.ecs.esper_internals import ComponentWatch
from arcade_collide.ecs.storage import PooledRows, RowPool
from arcade_collide.ecs.table import table_for_current_world
from arcade_collide.geometry.arrays import FloatArray, IntArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.pose import check_number


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
        self._positions = PooledRows([])
        """Each distinct moving Position object once."""
        self._velocities = PooledRows([])
        """The Velocity of each moving entity, in entity order."""
        self._which: IntArray | None = None
        """Per moving entity, its Position in :attr:`_positions`, when some Position
        object belongs to several moving entities (else None: one each, in order)."""
        self._entities: IntArray = np.empty(0, dtype=np.int64)
        self._direct: tuple[RowPool, IntArray, RowPool, IntArray] | None = None
        """The pools and rows to integrate in one compiled call, when every moving
        entity has its own Position and all rows are in one pool each (else None)."""
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
        pos_pools, vel_pools = self._positions.pools, self._velocities.pools
        if self._which is None and len(pos_pools) == 1 and len(vel_pools) == 1:
            self._direct = (
                pos_pools[0],
                self._positions.rows,
                vel_pools[0],
                self._velocities.rows,
            )

    def _update(self, changed: AbstractSet[int]) -> bool:
        """Take the ``changed`` entities' rows out and put their current ones in,
        reading only those entities; False when the result would need the general case
        (then :meth:`_index` rebuilds everything)."""
        direct = self._direct
        if direct is None:
            return False
        positions, pos_rows, velocities, vel_rows = direct
        ids = sorted(changed)
        fresh = []
        for entity in ids:
            found = esper.try_components(entity, Position, Velocity)
            if found is not None:
                if found[0]._pool is not positions or found[1]._pool is not velocities:
                    return False
                fresh.append((entity, found[0]._row, found[1]._row))
        new_ids, new_pos, new_vel = np.array(fresh, dtype=np.int64).reshape(-1, 3).T
        merged = _merged_rows(
            self._entities, pos_rows, vel_rows, np.array(ids, dtype=np.int64),
            np.ascontiguousarray(new_ids), np.ascontiguousarray(new_pos),
            np.ascontiguousarray(new_vel), len(positions.data),
        )  # fmt: skip
        if merged is None:
            return False  # a Position on several moving entities
        self._entities, merged_pos, merged_vel = merged
        self._positions = PooledRows.in_pool(positions, merged_pos)
        self._velocities = PooledRows.in_pool(velocities, merged_vel)
        self._direct = (positions, merged_pos, velocities, merged_vel)
        return True


_ROWS = "int64[::1]"


@kernel(
    f"Optional(UniTuple({_ROWS}, 3))({_ROWS}, {_ROWS}, {_ROWS}, {_ROWS}, {_ROWS}, {_ROWS},"
    f" {_ROWS}, int64)"
)
def _merged_rows(
    entities: IntArray,
    pos_rows: IntArray,
    vel_rows: IntArray,
    gone: IntArray,
    new_ids: IntArray,
    new_pos: IntArray,
    new_vel: IntArray,
    pool_size: int,
) -> tuple[IntArray, IntArray, IntArray] | None:
    """The moving entities (ascending) and their Position and Velocity rows without the
    entities ``gone`` (ascending) and with ``new_ids`` (ascending, among ``gone``)
    merged in, in one pass; None when two of them would share a Position row."""
    n, m = len(entities), len(new_ids)
    out_e = np.empty(n + m, dtype=np.int64)
    out_p = np.empty(n + m, dtype=np.int64)
    out_v = np.empty(n + m, dtype=np.int64)
    taken = np.zeros(pool_size, dtype=np.bool_)
    a = d = g = q = 0
    while a < n or g < m:
        while a < n and d < len(gone) and gone[d] < entities[a]:
            d += 1
        if a < n and d < len(gone) and gone[d] == entities[a]:
            a += 1  # left, or comes back among the new ones
            continue
        if g < m and (a == n or new_ids[g] < entities[a]):
            e, p, v = new_ids[g], new_pos[g], new_vel[g]
            g += 1
        else:
            e, p, v = entities[a], pos_rows[a], vel_rows[a]
            a += 1
        if taken[p]:
            return None
        taken[p] = True
        out_e[q], out_p[q], out_v[q] = e, p, v
        q += 1
    return out_e[:q], out_p[:q], out_v[:q]


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

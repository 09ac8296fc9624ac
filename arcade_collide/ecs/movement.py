"""MovementSystem: integrate velocities, then place every shape in the world."""

from __future__ import annotations

from typing import Any

import esper
import numpy as np

from arcade_collide.ecs.components import Position, Velocity
from arcade_collide.ecs.storage import PooledRows
from arcade_collide.ecs.table import table_for_current_world
from arcade_collide.geometry.arrays import IntArray
from arcade_collide.geometry.pose import check_number


class MovementSystem(esper.Processor):
    """Moves every entity with a Position and a Velocity, once per tick.

    ``position += velocity * dt`` and ``angle += angular * dt`` for all of them at
    once, then the world's shape table is refreshed. ``dt`` is the first argument of
    ``esper.process`` in seconds. A Position object given to several entities moves by
    each of their velocities.

    If the step would make a position NaN or infinite (an overflow), or an entity has
    a Shape but no Position, nothing is moved and ``ValueError`` names the entity.
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

    def process(self, dt: float, *args: Any, **kwargs: Any) -> None:
        """Advance by ``dt`` seconds.

        Raises:
            TypeError: ``dt`` is not a number.
            ValueError: ``dt`` is not finite, or the step overflows a position.
        """
        step = check_number(dt, "dt")
        table = table_for_current_world()
        # Structural errors (a Shape without a Position) raise before anything moves.
        table.prepare()
        source = esper.get_components(Position, Velocity)
        if source is not self._source:
            self._index(source)
            self._source = source
        if len(self._entities):
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
                raise ValueError(
                    f"entity {int(self._entities[row])}: Position would not be finite "
                    f"({moved[bad].tolist()}) after moving by dt={step!r}"
                )
            self._positions.write(moved)
        table.refresh()

    def _index(self, source: list[tuple[int, tuple[Position, Velocity]]]) -> None:
        # Only when the world's structure changed: esper hands back the same cached
        # list object otherwise.
        items = sorted(source, key=lambda item: item[0])
        self._entities = np.fromiter((e for e, _ in items), dtype=np.int64, count=len(items))
        self._velocities = PooledRows([c[1] for _, c in items])
        first: dict[int, int] = {}
        positions: list[Position] = []
        which = []
        for _, (position, _velocity) in items:
            k = first.setdefault(id(position), len(positions))
            if k == len(positions):
                positions.append(position)
            which.append(k)
        self._positions = PooledRows(positions)
        self._which = None if len(positions) == len(items) else np.array(which, dtype=np.intp)

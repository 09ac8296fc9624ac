"""MovementSystem: integrate velocities, then place every shape in the world."""

from __future__ import annotations

from typing import Any

import esper
import numpy as np

from arcade_collide.ecs.components import Position, Velocity
from arcade_collide.ecs.storage import POSITIONS, VELOCITIES
from arcade_collide.ecs.table import table_for_current_world
from arcade_collide.geometry.arrays import IntArray
from arcade_collide.geometry.pose import check_number


class MovementSystem(esper.Processor):
    """Moves every entity with a Position and a Velocity, once per tick.

    ``position += velocity * dt`` and ``angle += angular * dt`` for all of them at
    once, then the world-space shapes and bounding boxes of the world are refreshed
    (the only writer of that table besides CollisionSystem's own refresh, which is a
    no-op after this one). ``dt`` is the first argument of ``esper.process`` in
    seconds. A Position object given to several entities moves by each of their
    velocities.

    If the step would make a position NaN or infinite (an overflow), or an entity has
    a Shape but no Position, nothing is moved and ``ValueError`` names the entity.
    """

    def __init__(self) -> None:
        self._source: object = None
        self._positions: IntArray | slice = slice(0, 0)
        self._velocities: IntArray | slice = slice(0, 0)
        self._entities: IntArray = np.empty(0, dtype=np.int64)
        self._shared = False
        """Whether some Position object belongs to several moving entities."""

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
            p = POSITIONS.data
            # Overflow is reported below as a ValueError naming the entity, not as a warning.
            with np.errstate(over="ignore", invalid="ignore"):
                shift = VELOCITIES.data[self._velocities] * step
                if self._shared:
                    # One Position object on several entities moves by each of their
                    # velocities, as a loop over the entities would move it.
                    total = np.zeros_like(p)
                    assert not isinstance(self._positions, slice)  # repeated rows
                    np.add.at(total, self._positions, shift)
                    shift = total[self._positions]
                moved = p[self._positions] + shift
            if not np.isfinite(moved).all():
                row = int(np.flatnonzero(~np.isfinite(moved).all(axis=1))[0])
                raise ValueError(
                    f"entity {int(self._entities[row])}: Position would not be finite "
                    f"({moved[row].tolist()}) after moving by dt={step!r}"
                )
            p[self._positions] = moved
            POSITIONS.touch()
        table.refresh()

    def _index(self, source: list[tuple[int, tuple[Position, Velocity]]]) -> None:
        # Only when the world's structure changed: esper hands back the same cached
        # list object otherwise.
        items = sorted(source, key=lambda item: item[0])
        n = len(items)
        self._entities = np.fromiter((e for e, _ in items), dtype=np.int64, count=n)
        rows = np.fromiter((c[0]._row for _, c in items), dtype=np.intp, count=n)
        self._positions = _as_slice(rows)
        self._shared = len(np.unique(rows)) < n
        self._velocities = _as_slice(
            np.fromiter((c[1]._row for _, c in items), dtype=np.intp, count=n)
        )


def _as_slice(rows: IntArray) -> IntArray | slice:
    """A slice when the rows are consecutive (entities created together), else the rows.

    Slices read and write the tables without gathering.
    """
    if len(rows) and int(rows[-1]) - int(rows[0]) == len(rows) - 1 and (
        np.diff(rows) == 1
    ).all():
        return slice(int(rows[0]), int(rows[-1]) + 1)
    return rows

"""Who takes part in the kinematic response: the bodies and the solids of one world's
shape table, row by row, read from esper only when their components change."""

from __future__ import annotations

from collections.abc import Set as AbstractSet

import esper
import numpy as np

from arcade_collide.ecs.components import Position, Shape, Static, Velocity
from arcade_collide.ecs.esper_internals import ComponentWatch
from arcade_collide.ecs.queries import QueryIndex
from arcade_collide.ecs.solids import Body, Solid
from arcade_collide.ecs.storage import PooledRows
from arcade_collide.ecs.table import ShapeTable
from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.query.kernel_base import Int64Array

_NONE = np.empty(0, dtype=np.int64)

NOT_BLOCKING, SOLID, ONE_WAY, BODY = 0, 1, 2, 3
"""The codes of :attr:`Roster.code`."""


class Roster:
    """The bodies and solids of one world (see module docstring).

    After :meth:`update`, for the current table:

    * :attr:`rows` (table rows of the bodies, ascending by entity), :attr:`entities`,
      :attr:`restitution`, :attr:`friction`, :attr:`blocked_by`;
    * :attr:`positions` and :attr:`velocities` (the bodies' components as pooled rows;
      :attr:`velocity_row` is each body's row of :attr:`velocities`, -1 without one);
    * :attr:`code` per table row (:data:`SOLID`, :data:`ONE_WAY`, :data:`BODY` or
      :data:`NOT_BLOCKING`), :attr:`body_of` per table row (its body index, -1 for a
      shape that is not a body), and :attr:`mover` per table row: its index in
      :attr:`mover_velocities` (-1 for a shape without a Velocity).
    """

    def __init__(self) -> None:
        self._watch = ComponentWatch(Body, Solid, Velocity, Position)
        self._solid_ids: Int64Array = _NONE
        self._solid_one_way = np.empty(0, dtype=np.bool_)
        self._solid_set: frozenset[int] = frozenset()
        self._body_items: list[tuple[int, Body, Position, Velocity | None]] = []
        self._movers: list[tuple[int, Velocity]] = []
        self._key: tuple[object, ...] | None = None
        self.rows: Int64Array = _NONE
        self.entities: Int64Array = _NONE
        self.restitution: FloatArray = np.empty(0)
        self.friction: FloatArray = np.empty(0)
        self.blocked_by: Int64Array = _NONE
        self.positions = PooledRows([])
        self.velocities = PooledRows([])
        self.velocity_row: Int64Array = _NONE
        self.code = np.empty(0, dtype=np.int8)
        self.body_of: Int64Array = _NONE
        self.mover: Int64Array = _NONE
        self.mover_velocities = PooledRows([])

    def update(self, table: ShapeTable, index: QueryIndex) -> None:
        """Follow the world's components and ``table``'s rows (``index`` follows
        ``table``).

        Raises:
            ValueError: an entity has a Body but no Shape, is both a Body and a Solid,
                or is a Static Body (the message names it).
        """
        changed = self._watch.take()
        stale = changed is None or bool(changed)
        if stale:
            self._read(changed)
        key = (table, table.layout, len(self._body_items), len(self._solid_ids))
        if stale or key != self._key:
            self._place(table, index)
            self._key = key

    def _read(self, changed: AbstractSet[int] | None) -> None:
        solids_changed = changed is None or any(
            entity in self._solid_set
            or (esper.entity_exists(entity) and esper.has_component(entity, Solid))
            for entity in changed
        )
        if solids_changed:
            found = sorted((entity, solid.one_way) for entity, solid in esper.get_component(Solid))
            self._solid_ids = np.array([e for e, _ in found], dtype=np.int64)
            self._solid_one_way = np.array([w for _, w in found], dtype=np.bool_)
            self._solid_set = frozenset(self._solid_ids.tolist())
        items = []
        for entity, body in sorted(esper.get_component(Body), key=lambda item: item[0]):
            found_shape = esper.try_components(entity, Position, Shape)
            if found_shape is None:
                raise ValueError(
                    f"entity {entity} has a Body but no Shape and Position: a body needs both"
                )
            if entity in self._solid_set:
                raise ValueError(
                    f"entity {entity} is both a Body and a Solid: bodies already block "
                    "each other, remove one"
                )
            if esper.has_component(entity, Static):
                raise ValueError(f"entity {entity} is a Static Body: a body moves, remove Static")
            velocity = esper.try_component(entity, Velocity)
            items.append((entity, body, found_shape[0], velocity))
        self._body_items = items
        self._movers = sorted(
            [(entity, velocity) for entity, (_, velocity) in esper.get_components(Solid, Velocity)]
            + [(entity, v) for entity, _, _, v in items if v is not None],
            key=lambda item: item[0],
        )

    def _place(self, table: ShapeTable, index: QueryIndex) -> None:
        items = self._body_items
        entities = np.array([item[0] for item in items], dtype=np.int64)
        rows = index.rows_of(table, entities)
        kept = rows >= 0
        items = [item for item, keep in zip(items, kept.tolist(), strict=True) if keep]
        self.rows, self.entities = rows[kept], entities[kept]
        self.restitution = np.array([item[1].restitution for item in items], dtype=np.float64)
        self.friction = np.array([item[1].friction for item in items], dtype=np.float64)
        self.blocked_by = np.array([item[1].blocked_by for item in items], dtype=np.int64)
        self.positions = PooledRows([item[2] for item in items])
        has_velocity = np.array([item[3] is not None for item in items], dtype=np.bool_)
        self.velocity_row = np.where(has_velocity, np.cumsum(has_velocity) - 1, -1).astype(
            np.int64
        )
        self.velocities = PooledRows([item[3] for item in items if item[3] is not None])
        code = np.zeros(len(table.entities), dtype=np.int8)
        solid_rows = index.rows_of(table, self._solid_ids)
        found = solid_rows >= 0
        code[solid_rows[found]] = np.where(self._solid_one_way[found], ONE_WAY, SOLID)
        code[self.rows] = BODY
        self.code = code
        body_of = np.full(len(table.entities), -1, dtype=np.int64)
        body_of[self.rows] = np.arange(len(self.rows))
        self.body_of = body_of
        mover = np.full(len(table.entities), -1, dtype=np.int64)
        mover_ids = np.array([entity for entity, _ in self._movers], dtype=np.int64)
        mover_rows = index.rows_of(table, mover_ids)
        found = mover_rows >= 0
        mover[mover_rows[found]] = np.arange(int(found.sum()))
        self.mover = mover
        self.mover_velocities = PooledRows(
            [v for (_, v), keep in zip(self._movers, found.tolist(), strict=True) if keep]
        )

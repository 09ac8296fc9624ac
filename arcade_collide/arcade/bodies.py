"""A world's registered sprites, row for row: their bodies, pose mirror, derived shapes
and Position table rows, swap-removed together so every per-row array stays dense."""

from __future__ import annotations

from collections.abc import Hashable, Iterable

import arcade
import numpy as np
from numpy.typing import NDArray

from arcade_collide.arcade.derived_shapes import DerivedShapes
from arcade_collide.arcade.handlers import Body
from arcade_collide.arcade.pose_mirror import PoseMirror
from arcade_collide.arcade.row_buffers import appended, swap_removed
from arcade_collide.ecs.world_state import ShapeEpoch, world_pools

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]


class Bodies:
    """The registered sprites of one world. The containers keep their identity for the
    world's life (the router and the membership rules hold them)."""

    def __init__(self) -> None:
        self.list: list[Body] = []
        """The bodies, one per row."""
        self.row_of: dict[arcade.Sprite, int] = {}
        self.by_entity: dict[int, Body] = {}
        self.table_rows: IntArray = np.zeros(0, dtype=np.intp)
        """Each row's ``pool_row`` in the Position table; the bodies keep the Positions
        alive, so the rows stay theirs."""
        self.mirror = PoseMirror()
        """The sprites, row for row, with the poses last seen or written."""
        self.derived = DerivedShapes()
        self.revision = 0
        """Counts the rows added and taken out (what row-keyed caches check)."""
        self.shape_edits = ShapeEpoch()
        """Counts the edits of the bodies' Shape components, wherever made (each Shape
        tells it: :meth:`~arcade_collide.ecs.Shape._watch_edits`), placed by a tick or
        not: what answers given from the shapes as they were check."""
        self.shape_edits.edited = None  # (counted, not listed)
        self._kind_revisions: dict[Hashable, int] = {}
        """Per kind, :attr:`revision` when a sprite of that kind last joined or left."""
        self.joins = 0
        """:attr:`revision` when sprites last joined."""
        self._kind_joins: dict[Hashable, int] = {}
        """Per kind, :attr:`revision` when a sprite of that kind last joined."""

    def extend(self, bodies: list[Body], table_rows: list[int], derived: list[bool]) -> None:
        """Add ``bodies`` as the last rows, in one pass over the row arrays
        (``derived[k]``: body ``k``'s shape follows its sprite)."""
        self.revision += 1
        self.joins = self.revision
        for body in bodies:
            self._kind_revisions[body.kind] = self._kind_joins[body.kind] = self.revision
            self.row_of[body.sprite] = len(self.list)
            self.list.append(body)
            self.by_entity[body.entity] = body
        self.mirror.add([body.sprite for body in bodies])
        self.table_rows = appended(self.table_rows, table_rows)
        self.derived.add(bodies, derived)

    def pop(self, sprite: arcade.Sprite) -> Body | None:
        """Take out ``sprite``'s row (the last row takes its place); None if not held."""
        row = self.row_of.pop(sprite, None)
        if row is None:
            return None
        self.revision += 1
        body, moved = self.list[row], self.list[-1]
        self._kind_revisions[body.kind] = self.revision
        self.list[row] = moved
        self.list.pop()
        if moved is not body:
            self.row_of[moved.sprite] = row
        self.table_rows = swap_removed(self.table_rows, row)
        self.mirror.remove(row)
        self.derived.remove(row, body)
        del self.by_entity[body.entity]
        return body

    def kind_revision(self, kind: Hashable) -> int:
        """:attr:`revision` when a sprite of ``kind`` last joined or left (0: none yet)."""
        return self._kind_revisions.get(kind, 0)

    def kind_joins(self, kind: Hashable) -> int:
        """:attr:`revision` when a sprite of ``kind`` last joined (0: none yet)."""
        return self._kind_joins.get(kind, 0)

    def row(self, sprite: arcade.Sprite) -> int:
        """The row of a registered sprite.

        Raises:
            KeyError: the sprite is not held.
        """
        row = self.row_of.get(sprite)
        if row is None:
            raise KeyError("sprite is not in this CollisionWorld")
        return row

    def rows(self, sprites: Iterable[arcade.Sprite]) -> list[int]:
        """The rows of registered sprites, in order.

        Raises:
            KeyError: a sprite is not held.
        """
        try:
            return list(map(self.row_of.__getitem__, sprites))
        except KeyError:
            raise KeyError("sprite is not in this CollisionWorld") from None

    def pinned(self, sprite: arcade.Sprite) -> bool | None:
        """Whether ``sprite`` was added with ``add_sprite`` (True), through a sprite
        list only (False), or is not held (None)."""
        row = self.row_of.get(sprite)
        return None if row is None else self.list[row].pinned

    def clear(self) -> list[Body]:
        """Take out every row at once; return the bodies."""
        bodies = list(self.list)
        self.revision += 1
        self._kind_revisions = dict.fromkeys(self._kind_revisions, self.revision)
        self.list.clear()
        self.row_of.clear()
        self.by_entity.clear()
        self.table_rows = self.table_rows[:0]
        self.mirror, self.derived = PoseMirror(), DerivedShapes()
        return bodies


def store_poses(table_rows: IntArray, xy: FloatArray, angle: FloatArray) -> None:
    """Put poses into the Position table rows ``table_rows`` of the current esper world,
    in one scatter rather than a component setter call per sprite."""
    pool = world_pools().positions
    pool.data[table_rows, 0:2] = xy
    pool.data[table_rows, 2] = angle
    pool.touch(table_rows)

"""Stage 1, shape table: reads Position and Shape components, writes world shapes and boxes.

One :class:`ShapeTable` per esper world holds each collidable entity's world-space
shape (as the pair kernels read them) and bounding box, rows grouped by
:class:`~arcade_collide.geometry.shapes.ShapeKind` (a row freed by a deletion goes to
an entity of its kind created in the same change); one compiled pass
(:func:`~arcade_collide.geometry.query.placement.place_table`) places them all. Only
:meth:`ShapeTable.refresh` writes it, and does nothing when nothing changed, so
MovementSystem and CollisionSystem both call it. Per-entity Python work happens only
when the world's structure or a shape changed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection
from collections.abc import Set as AbstractSet

import esper
import numpy as np

from arcade_collide.ecs.columns import Item, columns
from arcade_collide.ecs.components import Position, Shape, Static
from arcade_collide.ecs.entity_index import ranks, rerank
from arcade_collide.ecs.esper_internals import (
    ComponentWatch,
    components_of,
    holders,
    pending_deletions,
)
from arcade_collide.ecs.layout import Layout, pair_filter, sorted_unique
from arcade_collide.ecs.row_reuse import reused
from arcade_collide.ecs.world_state import ShapeEpoch, forget_deleted_worlds, world_state
from arcade_collide.geometry.arrays import FloatArray, IntArray
from arcade_collide.geometry.bounding_circles import (
    COORDINATE_MARGIN,
    coordinate_slack,
)
from arcade_collide.geometry.query.kernel_base import Int64Array
from arcade_collide.geometry.query.placement import place_table
from arcade_collide.geometry.query.rows import PairFilter, PoseCircles, WorldRows

_NONE = np.empty(0, dtype=np.int64)
_NOTHING: frozenset[int] = frozenset()

TABLE_QUERY = (Position, Shape)
"""The component query the table's layout comes from (``esper.get_components``)."""


class ShapeTable:
    """World-space shapes and bounding boxes of one esper world (see module docstring).

    Args:
        epoch: The world's shape epoch, which edits of the shapes placed here bump.
    """

    def __init__(self, epoch: ShapeEpoch | None = None) -> None:
        self._shape_epoch = epoch or ShapeEpoch()
        self._adopt(Layout.build([], (), (), (), self._shape_epoch))
        self._watch = ComponentWatch(Position, Shape, Static)
        self._held: AbstractSet[int] | None = _NOTHING
        self.slack = 0.0
        """:func:`~arcade_collide.geometry.bounding_circles.coordinate_slack` of the
        farthest any shape has reached: the pad of :attr:`aabbs` and the pose circles'
        slack. It only grows, so the boxes of shapes that did not move keep a valid pad."""
        self.revision = 0
        """Bumped by every refresh that changed anything."""
        self.layout = 0
        """Bumped whenever rows were reassigned (entities added, removed, regrouped)."""
        self.static_revision = 0
        """Bumped whenever the static rows' boxes were written."""
        self.renumbered: Int64Array | None = None
        self.reused_rows: Int64Array | None = None
        self._source: object = None
        self._epoch = -1
        self._dead: Collection[int] = frozenset()
        self._stamp: tuple[object, ...] = ("never refreshed",)
        self._prepared: Layout | None = None
        """A layout made by :meth:`prepare`, adopted by the next refresh."""
        self._rank: tuple[int, IntArray, int, Int64Array | None] | None = None
        """The layout :meth:`entity_rank` was made for, its result, and the entity
        index room it read (None: none)."""
        self._placed: deque[tuple[int, Int64Array | None]] = deque(maxlen=8)
        """The rows each of the last refreshes placed (None: every row)."""
        self._sweep_starts: tuple[int, Int64Array, FloatArray] | None = None

    def entity_rank(self) -> tuple[IntArray, int]:
        """``(N,)`` number of each row's entity in entity order, and a bound every
        number is below: ordering pairs by these numbers orders them by entity id.
        Made once per layout; when newcomers took rows of an index kept in place
        (:mod:`~.entity_index`), only those rows' numbers are found again."""
        kept = self._rank
        if kept is None or kept[0] != self.layout:
            entities = self.entities
            index = self._current.by_entity
            if index is not None:  # rows were reused: the layout keeps them in id order
                reused = self.reused_rows
                if (
                    kept is not None
                    and kept[0] == self.layout - 1
                    and reused is not None
                    and kept[3] is index.ids_room
                ):
                    rank = kept[1]
                    rerank(rank, index.ids, reused, entities[reused])
                else:
                    rank = ranks(index.order, len(entities))
                kept = (self.layout, rank, index.entries, index.ids_room)
            elif (entities[1:] > entities[:-1]).all():  # one kind, or kinds in id order
                kept = (self.layout, np.arange(len(entities)), len(entities), None)
            else:
                order = np.argsort(entities, kind="stable")
                kept = (self.layout, ranks(order, len(entities)), len(entities), None)
            self._rank = kept
        return kept[1], kept[2]

    def kernel_view(self) -> tuple[WorldRows, PairFilter | None, PoseCircles | None]:
        """The table as :func:`~arcade_collide.geometry.query.rows.touching_rows`
        reads it: the shapes, the layer filter (None when every pair passes it) and the
        pose circles (None without convex shapes)."""
        circles = None
        if self.has_convex:
            circles = PoseCircles(self.origin_x, self.origin_y, self.inner, self.outer, self.slack)
        return self.rows, self._filter, circles

    def poses(self) -> tuple[FloatArray, Int64Array]:
        """The pose table (rows ``(x, y, angle)``) and each table row's row in it."""
        return self._current.poses()

    def note_sweep_starts(self) -> None:
        """Keep the swept shapes' poses as they are before this tick moves anything
        (:mod:`~arcade_collide.ecs.swept` starts new swept shapes there). The first call
        since the last refresh counts; cheap without swept shapes."""
        held = self._sweep_starts
        if held is not None and held[0] == self.revision:
            return
        layout = self._prepared or self._current
        rows = layout.swept_rows if layout is not self._current else self.swept_rows
        if not len(rows):
            self._sweep_starts = None
            return
        data, pose_rows = layout.poses()
        self._sweep_starts = (self.revision, layout.entities[rows], data[pose_rows[rows]])

    def take_sweep_starts(self) -> tuple[Int64Array, FloatArray] | None:
        """The entities and poses :meth:`note_sweep_starts` kept (then forgotten)."""
        held, self._sweep_starts = self._sweep_starts, None
        return None if held is None else (held[1], held[2])

    def prepare(self) -> None:
        """Bring the row layout up to date with the world's structure, without placing.

        MovementSystem calls this before it moves anything, so a structural error (a
        Shape without a Position) raises before any position changed. The layout made
        here is adopted by the following :meth:`refresh`.

        Raises:
            ValueError: an entity has a Shape but no Position (named in the message).
        """
        layout = self._next_layout()
        if layout is not None:
            self._prepared = layout

    def refresh(self) -> None:
        """Bring the table up to date with the current esper world.

        Shapes are placed in place: the arrays of :attr:`rows`, :attr:`aabbs` and the
        pose origins keep their identity until the layout changes.

        Raises:
            ValueError: an entity has a Shape but no Position, or a non-finite
                position (the message names the entity). The table is left as it was.
        """
        layout = self._next_layout() or self._prepared
        epoch = self._shape_epoch.value
        edited = None
        if epoch != self._epoch:
            # Shapes were edited: their rows are rewritten where they are, if they can be.
            edited = (layout or self._current).edit(self._shape_epoch.edited, self._shape_epoch)
            if edited is None:
                layout = self._rebuilt()
        elif layout is None and self._positions.unchanged_since(self._stamp):
            return
        rebuilt = layout is not None
        if layout is None:
            layout = self._current
        poses, pose_rows = layout.poses()
        # Only the rows whose Position was written are placed again, and the rows a
        # change of layout brought in (all when the layout was built afresh, or when
        # the writes did not say which rows).
        unplaced = layout.unplaced if rebuilt else _NONE
        written = None if unplaced is None else layout.written_rows()
        if written is not None:
            extra = [rows for rows in (unplaced, edited) if rows is not None and len(rows)]
            if extra:
                written = sorted_unique(np.concatenate([written, *extra]))
        static_moved = written is None or (
            len(layout.static_rows) > 0 and bool(layout.static[written].any())
        )
        which = layout.all_rows if written is None else written
        bad, reach = self._place(layout, poses, pose_rows, which)
        if bad >= 0:
            x, y, angle = poses[pose_rows[bad]].tolist()
            self._prepared = layout if rebuilt else None
            raise ValueError(
                f"entity {int(layout.entities[bad])}: Position is not finite "
                f"(x={x!r}, y={y!r}, angle={angle!r})"
            )
        if COORDINATE_MARGIN * reach > self.slack:
            # Shapes reach farther than before: every box gets the wider pad (rounded
            # up to a power of two, so this is rare).
            self.slack = coordinate_slack(reach)
            static_moved = True
            which = layout.all_rows
            self._place(layout, poses, pose_rows, which)
        self._prepared = None
        if layout.pool is not None:
            layout.pool.clear_log()
        self._shape_epoch.edited = []
        self._epoch = epoch
        if rebuilt:
            self.renumbered = layout.renumbered
            """Per row of the previous layout, its row in this one (-1: gone); None
            when not known (the layout was built afresh) or when :attr:`reused_rows`
            says the whole change (see :func:`~.layout.renumbering`)."""
            self.reused_rows = layout.reused_rows
            """The rows newcomers took over in place, when that is the whole change
            from the previous layout (every other row kept its number); else None."""
            # (Edited rows may have new layers: then the layer filter is made afresh.)
            plain_reuse = layout.reused_rows if edited is None or not len(edited) else None
            self._adopt(
                layout._replace(renumbered=None, unplaced=_NONE, reused_rows=None), plain_reuse
            )
            self.layout += 1
        elif edited is not None and len(edited):
            self._filter = pair_filter(layout)
            self.swept_rows = np.flatnonzero(layout.sweep)
        self._stamp = self._positions.stamp()
        self.revision += 1
        self._placed.append((self.revision, None if which is layout.all_rows else which))
        if static_moved:
            self.static_revision += 1

    def current(self) -> bool:
        """Whether :meth:`refresh` would find nothing to place: no entity added, removed
        or given another shape, and no Position written since it last ran."""
        if self._prepared is not None:
            return False
        changed = self._take()
        self._held = changed  # for the next refresh
        if changed is None:
            source = esper.get_components(*TABLE_QUERY)
            dead = pending_deletions(entity for entity, _ in source)
            if source is not self._source or ((dead or self._dead) and dead != self._dead):
                return False
        elif changed:
            return False
        return self._shape_epoch.value == self._epoch and self._positions.unchanged_since(
            self._stamp
        )

    def _take(self) -> AbstractSet[int] | None:
        """The entities changed since the last look (None: not known), with those a
        :meth:`current` call held back."""
        changed = self._watch.take()
        held, self._held = self._held, _NOTHING
        if held is None or changed is None:
            return None
        return held | changed if held else changed

    def moved_since(self, revision: int) -> Int64Array | None:
        """The rows placed (written) after :attr:`revision` ``revision`` of this layout,
        ascending; None when that is not known or most rows moved (take every row as
        moved)."""
        if revision == self.revision:
            return np.empty(0, dtype=np.int64)
        if self._placed[-1][1] is None:  # the last refresh placed every row
            return None
        placed = [rows for at, rows in self._placed if at > revision]
        if len(placed) != self.revision - revision or any(rows is None for rows in placed):
            return None
        if 2 * sum(map(len, placed)) > len(self.entities):  # type: ignore[arg-type]
            return None  # most rows moved: take them all
        if len(placed) == 1:
            return placed[0]  # (each refresh's rows are ascending already)
        return sorted_unique(np.concatenate(placed))  # type: ignore[arg-type]

    def _place(
        self, layout: Layout, poses: FloatArray, pose_rows: Int64Array, which: Int64Array
    ) -> tuple[int, float]:
        return place_table(
            layout.rows, poses, pose_rows, which, layout.size_x, layout.size_y,
            layout.local, layout.nlocal, layout.aabbs, layout.origin_x, layout.origin_y,
            self.slack,
        )  # fmt: skip

    def _next_layout(self) -> Layout | None:
        """The layout after the world's structural changes since the last look (the
        prepared layout, else the current one, updated), or None when nothing changed.
        Only the entities that changed are read, when the watch knows them."""
        base = self._prepared or self._current
        changed = self._take()
        if changed is None:
            return self._rebuilt(only_if_changed=True)
        if not changed:
            return None
        try:
            merged = self._merged(base, changed)
        except ValueError:
            self._watch.keep(changed)
            raise
        return merged if merged is not None else self._rebuilt()

    def _merged(self, base: Layout, changed: AbstractSet[int]) -> Layout | None:
        ids = np.fromiter(changed, dtype=np.int64, count=len(changed)) if changed else None
        items: list[Item] = []
        statics = set()
        for entity in sorted(changed):
            if not esper.entity_exists(entity):
                continue
            found = components_of(entity)
            position, shape = found.get(Position), found.get(Shape)
            if position is None or shape is None:
                if shape is not None:
                    raise ValueError(
                        f"entity {entity} has a Shape but no Position: add a Position "
                        "or remove the Shape"
                    )
                continue
            items.append((entity, (position, shape)))
            if Static in found:
                statics.add(entity)
        drop = base.rows_of(ids) if ids is not None else np.empty(0, np.int64)

        def held(owner: int, shape_id: int) -> bool:
            """Whether ``owner`` keeps its row, holding that Shape, after the change."""
            row = int(base.find_rows(np.array([owner], dtype=np.int64))[0])
            return row >= 0 and int(base.shape_ids[row]) == shape_id and row not in drop

        fresh = columns(items, statics, self._shape_epoch, held)
        merged = reused(base, drop, fresh) or base.merged(drop, fresh)
        if merged is not None:
            self._source = None  # esper's list no longer tells whether anything changed
        return merged

    def _rebuilt(self, only_if_changed: bool = False) -> Layout | None:
        """The layout built from scratch from esper's lists (None, with
        ``only_if_changed``, when they are the ones the current layout came from)."""
        source = esper.get_components(*TABLE_QUERY)
        dead = pending_deletions(entity for entity, _ in source)
        if (
            only_if_changed
            and source is self._source
            and (not (dead or self._dead) or dead == self._dead)
        ):
            return None
        layout = Layout.build(source, holders(Shape), dead, holders(Static), self._shape_epoch)
        self._source = source
        self._dead = frozenset(dead)
        return layout

    def _adopt(self, layout: Layout, reused_rows: Int64Array | None = None) -> None:
        """Take ``layout`` as the table's; ``reused_rows``: its
        :attr:`~arcade_collide.ecs.layout.Layout.reused_rows` before adoption."""
        self._current = layout
        self._positions = layout.positions
        self.entities = layout.entities
        """``(N,)`` entity id of each table row."""
        self.kinds = layout.kinds
        """``(N,)`` :class:`ShapeKind` of each row (non-decreasing)."""
        self.layer = layout.layer
        self.mask = layout.mask
        self.sensor = layout.sensor
        self.static = layout.static
        """``(N,)`` True where the entity has :class:`~arcade_collide.ecs.components.Static`."""
        self.static_rows = layout.static_rows
        """The static rows, ascending."""
        self.sweep = layout.sweep
        """``(N,)`` 0, or 1 where the Shape is swept, 2 where it also stops at impact."""
        self.swept_rows = layout.swept_rows
        """The swept rows, ascending."""
        self.dynamic_rows = layout.dynamic_rows
        """The other rows, ascending."""
        self.has_static = bool(len(layout.static_rows))
        self.inner = layout.inner
        """``(N,)`` inner radius of each row's shape about its pose origin
        (:func:`~arcade_collide.geometry.bounding_circles.pose_circles`)."""
        self.outer = layout.outer
        """``(N,)`` outer (bounding) radius, likewise."""
        self.rows = layout.rows
        """The world-space shapes, as the pair kernels read them."""
        self.aabbs = layout.aabbs
        """``(N, 4)`` rows ``(min_x, min_y, max_x, max_y)``, each side pushed out by
        :attr:`slack`: the exact tests round their products, so two shapes they find
        touching may have exact boxes a rounding step apart (tiles laid edge to edge at
        ``x = i * 0.3``), and the broad phase must still offer that pair."""
        self.origin_x = layout.origin_x
        """``(N,)`` pose origin x of each row."""
        self.origin_y = layout.origin_y
        self.has_convex = bool(len(layout.nlocal))
        """True when some row is a rectangle, triangle or polygon."""
        if reused_rows is not None and self._filter is None:
            # Every row passed the layer filter before: only the reused ones may not now.
            self._filter = pair_filter(layout, reused_rows)
        else:
            self._filter = pair_filter(layout)


def table_for_current_world() -> ShapeTable:
    """The :class:`ShapeTable` of the current esper world, created on first use.

    A world deleted and created again under the same name gets a fresh table.
    """
    forget_deleted_worlds()
    state = world_state()
    table: ShapeTable | None = state.table
    if table is None:
        table = ShapeTable(state.shape_epoch)
        state.table = table
    return table

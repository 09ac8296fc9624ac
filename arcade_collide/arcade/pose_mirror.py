"""The pose mirror: a world's sprites' poses as arrays; the game's moves found, the
world's moves written back, touching only what changed (private fields and class
switches: :mod:`.arcade_internals`).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from itertools import compress
from operator import ne, or_
from typing import Any, NamedTuple

import arcade
import numpy as np
from numpy.typing import NDArray

from arcade_collide.arcade import arcade_internals as internals
from arcade_collide.arcade.arcade_internals import Record, Stamps, TouchLog
from arcade_collide.arcade.following_boxes import FollowingHitBox, can_follow, follow
from arcade_collide.arcade.list_slots import ListSlots, SlotTable
from arcade_collide.arcade.row_buffers import LISTED_ROWS, appended, refilled, swap_removed
from arcade_collide.geometry.pose_changes import pose_changes

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

_NO_ROWS: IntArray = np.zeros(0, dtype=np.intp)
_POSITION_TYPES = frozenset({tuple})

SMALL_WORLD = 64
"""A mirror of at most this many rows (none of them read every time) may find the
game's moves without the touch log: each read compares every sprite's
:func:`~.arcade_internals.stamps` with those of the last read, so the game's setters
pay nothing extra and a read is a few calls (see :class:`PoseMirror`)."""

STAMP_CHECKS = 512
"""A small mirror compares stamps while its rows times the checks per read (the read
and the :meth:`PoseMirror.untouched` calls since the last one) stay within this: a
game that asks many questions between moves is answered more cheaply by the log."""


def _record(ref: weakref.ref[Record] | None) -> Record | None:
    return None if ref is None else ref()  # None without private fields, or once freed


def _differ(
    xy: FloatArray, angle: FloatArray, old_xy: FloatArray, old_angle: FloatArray
) -> NDArray[np.bool_]:
    """Per row, whether its position or angle differs from the old one (column by
    column: a reduction over axis 1 costs several times more)."""
    differ: NDArray[np.bool_] = (xy[:, 0] != old_xy[:, 0]) | (xy[:, 1] != old_xy[:, 1])
    differ |= angle != old_angle
    return differ


def _changed(a: list[Any], old_a: list[Any], b: list[Any], old_b: list[Any]) -> list[int]:
    """The indices where ``a`` or ``b`` differs from its old list (``!=``: identity,
    then value), ascending.

    >>> _changed([1, 2, 3], [1, 0, 3], ["x", "y", "z"], ["x", "y", "w"])
    [1, 2]
    """
    return list(compress(range(len(a)), map(or_, map(ne, a, old_a), map(ne, b, old_b))))


def _tuples(xy: FloatArray) -> list[tuple[float, float]]:
    """``(N, 2)`` positions as the Python tuples of floats Arcade stores."""
    return list(zip(xy[:, 0].tolist(), xy[:, 1].tolist(), strict=True))


class HandMoves(NamedTuple):
    """What :meth:`PoseMirror.hand_moves` found; give it back to :meth:`PoseMirror.accept`."""

    rows: IntArray
    """Rows whose position or angle value differs from the mirror's."""
    xy: FloatArray
    """``(len(rows), 2)`` their positions now."""
    angle: FloatArray
    """``(len(rows),)`` their clockwise angles now."""
    read: IntArray | None
    """The rows whose poses were read (sorted); None when every row was."""
    loose: NDArray[np.bool_] | None
    """Per row read, whether its position is not a tuple; None when all were tuples."""
    reported: list[Any]
    """The membership records that reported a touch, read here (see :class:`PoseMirror`)."""
    stamps: Stamps | None = None
    """Every row's stamp (:func:`~.arcade_internals.stamps`), for a small mirror's read
    (then :attr:`read` holds the rows whose size changed; no log used); else None."""


class PoseMirror:
    """The poses one world last saw on (or wrote to) each of its sprites, row by row.

    **Finding the game's moves.** Every Arcade setter that changes a sprite iterates
    its ``sprite_lists``, which the mirror makes a record that logs the first such
    iteration (:func:`~.arcade_internals.watch_memberships`). :meth:`hand_moves` reads
    the logged sprites and :meth:`accept` re-arms them. Read every tick regardless:

    * sprites whose class overrides the pose setters (see
      :func:`~.arcade_internals.has_fast_pose`), and positions that are not tuples (a
      list could be changed in place);
    * every sprite, in the tick after a game gave some sprite a new ``sprite_lists``,
      and while the game moves more than a quarter of them by hand.

    Moves made by writing Arcade's private fields (``sprite._position = ...``) are not
    seen while the log is in use, except those of sprites a batch question reads
    straight from them (:meth:`~.kind_circles.KindCircles.touching_logged`). A mirror
    of at most :data:`SMALL_WORLD` rows, none read every time, uses no log: each read
    takes every sprite's stamp (its position, angle, width and height objects) and
    compares it with the last read's, which sees every change of those values,
    private fields included, as long as the game asks few questions between moves
    (:data:`STAMP_CHECKS`).

    **Writing back.** :meth:`write` touches only the sprites that moved, and the
    sprite lists' buffers only in their rows (kept while no sprite joins or leaves a
    list). The pose is stored on the sprite only, so it logs nothing: its hit box
    follows the sprite (:func:`~.following_boxes.follow`; :meth:`_mend_boxes`), and
    a box of the game's own class is written every tick. Boxes are made to follow at
    the first write (a world that is only queried keeps Arcade's own boxes, which
    cost the game less to move and read). Without private fields
    (:func:`~.arcade_internals.use_private_fields`) every sprite is read every tick and
    written through its setters.
    """

    def __init__(self) -> None:
        self.sprites: list[arcade.Sprite] = []
        """The sprites, one per row."""
        self.xy: FloatArray = np.zeros((0, 2))
        """``(N, 2)`` positions as last seen or written."""
        self.angle: FloatArray = np.zeros(0)
        """``(N,)`` clockwise angles as last seen or written."""
        self._slow_rows: NDArray[np.bool_] = np.zeros(0, dtype=np.bool_)
        """Rows written through the setters (see :func:`~.arcade_internals.has_fast_pose`)."""
        self._always: NDArray[np.bool_] = np.zeros(0, dtype=np.bool_)
        """Rows read every tick: slow sprites and positions that are not tuples."""
        self._always_rows: IntArray = _NO_ROWS
        """The rows of :attr:`_always`, ascending."""
        self._watching = internals.PRIVATE
        """Whether the sprites' records report setter calls (private fields in use)."""
        self._watchers: list[weakref.ref[Record] | None] = []
        """Each row's ``sprite_lists`` record, weakly held (see :meth:`_record_dropped`)."""
        self._boxes: list[weakref.ref[FollowingHitBox] | None] = []
        """Each row's hit box as made to follow its sprite, weakly held (see
        :meth:`_box_dropped`); None for a slow sprite, or a box that cannot follow."""
        self._box_rows: dict[int, int] = {}
        """Row of each weak reference in :attr:`_boxes`, by ``id``."""
        # One bound method for every weak reference: one made per reference would be
        # one more object per sprite for the garbage collector to walk.
        self._on_record_freed = self._record_dropped
        self._on_box_freed = self._box_dropped
        self._dropped_boxes: list[int] = []
        """``id`` of the references whose box was freed (the game replaced it)."""
        self._written_boxes: NDArray[np.bool_] = np.zeros(0, dtype=np.bool_)
        """Rows of fast sprites whose hit box cannot follow: written with the sprite."""
        self._check_phase = 0
        self._following = False
        """Whether the hit boxes follow their sprites (from the first :meth:`write` on)."""
        self._row_of_watcher: dict[int, int] = {}
        self._log = TouchLog()
        """Records that reported a touch since they were last read (by ``id``)."""
        self._armed = self._watching
        """Whether the log is in use (else every pose is read each tick)."""
        self._records_dropped = False
        """Whether some row's record was freed (replaced by the game) since the last rewatch."""
        self._quiet_reads = False
        """Whether a query found nothing touched since the log's touches were last taken
        in: reads between moves, which the log answers at no cost, so it stays in use."""
        self._lists = SlotTable()
        """The rows and slots of the lists holding the sprites (see :meth:`_sprite_lists`)."""
        self._stamps: Stamps | None = None
        """Each row's stamp when a small mirror last read or wrote it; None when it is
        not small, or the next read compares with the poses instead."""
        self._checks = 0
        """:meth:`untouched` calls (and :meth:`stamps_for` checks) since the last read."""
        self._checks_per_read = 0
        """:attr:`_checks` at the last read."""
        self.reads = 0
        """How many reads of the sprites (:meth:`accept`) were made."""
        self.version = 0
        """A count that grows at each read of the sprites (:meth:`accept`) and sprite
        added: while it stays the same, what answers the world gave still stand as far
        as the sprites it read are concerned (edits of their Shapes are counted apart:
        :attr:`~.bodies.Bodies.shape_edits`)."""

    def _small(self) -> bool:
        """Whether reads compare stamps (see :data:`SMALL_WORLD`)."""
        n, checks = len(self.sprites), self._checks_per_read
        return n <= SMALL_WORLD and n * (1 + checks) <= STAMP_CHECKS and not len(self._always_rows)

    def add(self, sprites: Sequence[arcade.Sprite]) -> None:
        """Append ``sprites`` as the last rows, at their current poses (one pass over
        the arrays, however many: adding a level's tiles one by one would copy them
        once per tile; a few rows are written from lists, without arrays made first)."""
        m, first = len(sprites), len(self.sprites)
        self.version += 1  # the log may go out of use: see changes
        positions, angles = internals.pose_objects(sprites)
        few = m <= LISTED_ROWS
        xy, angle = (positions, angles) if few else internals.as_arrays(positions, angles)
        slow = [not internals.has_fast_pose(sprite) for sprite in sprites]
        # Read every time: slow sprites, positions not tuples (lists: few sprites per call).
        always = [s or type(p) not in _POSITION_TYPES for s, p in zip(slow, positions, strict=True)]
        self.sprites.extend(sprites)
        self._slow_rows = appended(self._slow_rows, slow)
        self._boxes.extend([None] * m)
        self._written_boxes = appended(self._written_boxes, [False] * m)
        for row in range(first, first + m) if self._following else ():
            self._follow_row(row)
        self._lists.grow(m)
        self.xy = appended(self.xy, xy)
        self.angle = appended(self.angle, angle)
        self._always = appended(self._always, always)
        if any(always):
            self._always_rows = np.concatenate([self._always_rows, first + np.flatnonzero(always)])
        if small := self._small():
            self._armed = False  # a small mirror uses no log (one that grows reads all once)
        for sprite in sprites:
            if self._watching:
                watcher = internals.watch_memberships(sprite, self._log)
                self._row_of_watcher[id(watcher)] = len(self._watchers)
                self._watchers.append(weakref.ref(watcher, self._on_record_freed))
                self._log.regrouped.add(id(watcher))  # its slots are looked up
                if self._armed:
                    internals.arm([watcher])
            else:
                self._watchers.append(None)
        if small and self._stamps is not None:
            for kept, new in zip(self._stamps, internals.stamps(sprites), strict=True):
                kept.extend(new)
        else:
            self._stamps = None

    def remove(self, row: int) -> None:
        """Drop ``row``; the last row takes its place (swap-remove)."""
        gone, gone_box = _record(self._watchers[row]), self._boxes[row]
        if gone is not None:
            internals.unwatch(gone, self._log)
            del self._row_of_watcher[id(gone)]
        if gone_box is not None:
            del self._box_rows[id(gone_box)]
        moved, moved_box = _record(self._watchers[-1]), self._boxes[-1]
        if row != len(self.sprites) - 1:
            if moved is not None:
                self._row_of_watcher[id(moved)] = row
                self._log.regrouped.add(id(moved))  # its slots are looked up at its row
            if moved_box is not None:
                self._box_rows[id(moved_box)] = row
        self.sprites[row], self._boxes[row] = self.sprites[-1], moved_box
        self._watchers[row] = self._watchers[-1]
        del self.sprites[-1], self._boxes[-1], self._watchers[-1]
        self._slow_rows, self._written_boxes, self._always, self.xy, self.angle = (
            swap_removed(array, row)
            for array in (self._slow_rows, self._written_boxes, self._always, self.xy, self.angle)
        )
        if len(self._always_rows):
            self._always_rows = np.flatnonzero(self._always)
        self._lists.remove(row)
        for kept in self._stamps or ():
            kept[row] = kept[-1]
            del kept[-1]

    def untouched(self) -> bool:
        """Whether :meth:`hand_moves` would surely find nothing: the log is in use and
        empty, and no row is read every time; for a small mirror, no stamp changed."""
        self._checks += 1
        if self._small():
            stamps = self._stamps
            return (
                stamps is not None
                and not self._records_dropped
                and internals.same_stamps(self.sprites, stamps)
            )
        return (
            self._armed
            and not self._log
            and not self._records_dropped
            and not len(self._always_rows)
        )

    def changes(self) -> int:
        """A count that grows whenever the log takes a touch or :attr:`version` grows:
        while it stays the same, a log in use stays in use and has only lost records
        (sprites removed)."""
        return self._log.touches + self.version

    def log_touches(self) -> int | None:
        """While the log is in use (every sprite whose record the log does not hold is
        as last read, and reports its next change there): :meth:`changes`; else None.
        Counts as a check (:meth:`untouched`)."""
        self._checks += 1
        if self._small() or not self._armed or self._records_dropped or len(self._always_rows):
            return None
        return self._log.touches + self.version

    def log_still(self, changes: int) -> bool:
        """Whether the log, in use when :meth:`log_touches` gave ``changes``, still
        answers for every sprite: :meth:`changes` is the same, and no sprite's record
        was replaced."""
        return self._log.touches + self.version == changes and not self._records_dropped

    def logged_any(self) -> bool:
        """Whether the log holds a touch not read yet."""
        return bool(self._log)

    def logged_rows(self) -> list[int]:
        """The rows whose sprites reported a touch since they were last read (in no set
        order)."""
        row_of = self._row_of_watcher
        return [row_of[key] for key in self._log if key in row_of]

    def stamps_for(self, read: bool) -> Stamps | None:
        """A small mirror's stamps of its last read or write (else None), to answer from
        the sprites: a ``read`` of them counts checks afresh, else it is one more check."""
        per_read, checks = (self._checks, 0) if read else (self._checks_per_read, self._checks + 1)
        self._checks += not read
        n = len(self.sprites)
        if n > SMALL_WORLD or n * (1 + max(per_read, checks)) > STAMP_CHECKS or len(
            self._always_rows
        ) or self._records_dropped:
            return None  # the world reads the sprites (a read counts the checks afresh)
        self._checks_per_read, self._checks = per_read, checks
        return self._stamps

    def note_quiet_read(self) -> None:
        """Record that a read found the mirror :meth:`untouched` (see :meth:`accept`)."""
        self._quiet_reads = True

    def hand_moves(self) -> HandMoves:
        """The sprites whose pose differs from the mirror's (moved by the game).

        Changes nothing: call :meth:`accept` to take the moves in.
        """
        small = self._small_moves() if self._small() else None
        if small is not None:
            return small
        sprites = self.sprites
        reported = list(self._log.values())
        read: IntArray | None = None
        logged = []
        if self._armed:
            row_of = self._row_of_watcher.get
            for watcher in reported:
                row = row_of(id(watcher))
                if row is None:
                    continue
                # A record the log keeps alive, though the game replaced it.
                if sprites[row].sprite_lists is not watcher:
                    self._records_dropped = True
                    break
                logged.append(row)
        # A sprite given a new sprite_lists record reports no touches: read them all.
        if self._armed and not self._records_dropped:
            read = self._always_rows
            if logged:
                # Each record is logged once, so the logged rows are distinct.
                logged.sort()
                read = np.union1d(read, logged) if read.size else np.array(logged, dtype=np.intp)
            elif read.size == 0:
                return HandMoves(_NO_ROWS, self.xy[:0], self.angle[:0], read, None, reported)
            # The rows read are the logged ones unless some rows are read every time.
            sprites = [sprites[i] for i in (logged if len(read) == len(logged) else read.tolist())]
        positions, angles = internals.pose_objects(sprites)
        xy, angle = internals.as_arrays(positions, angles)
        loose = None
        if not _POSITION_TYPES.issuperset(map(type, positions)):
            loose = np.fromiter(
                (type(p) not in _POSITION_TYPES for p in positions), np.bool_, count=len(sprites)
            )
        if read is None:
            changed = _differ(xy, angle, self.xy, self.angle)
        else:  # take(): quicker than fancy indexing for a few rows
            changed = _differ(xy, angle, self.xy.take(read, axis=0), self.angle.take(read))
        rows = np.flatnonzero(changed) if read is None else read[changed]
        return HandMoves(rows, xy[changed], angle[changed], read, loose, reported)

    def _small_moves(self) -> HandMoves | None:
        """:meth:`hand_moves` for a small mirror: the rows whose stamp changed since the
        last read; None when a moved position is not a tuple (the full read decides)."""
        now = positions, angles, widths, heights = internals.stamps(self.sprites)
        seen = self._stamps
        if seen is None:  # compare with the poses; every size is taken as changed
            n = len(positions)
            seen = (_tuples(self.xy), self.angle.tolist(), [None] * n, [None] * n)
        if now == seen:
            return HandMoves(_NO_ROWS, self.xy[:0], self.angle[:0], _NO_ROWS, None, [], now)
        moved = _changed(positions, seen[0], angles, seen[1])
        resized = []
        if widths != seen[2] or heights != seen[3]:
            resized = _changed(widths, seen[2], heights, seen[3])
        if len(moved) < len(positions):
            positions = [positions[row] for row in moved]
            angles = [angles[row] for row in moved]
        if not _POSITION_TYPES.issuperset(map(type, positions)):
            return None
        xy, angle = internals.as_arrays(positions, angles)
        read = np.array(resized, dtype=np.intp)
        return HandMoves(np.array(moved, dtype=np.intp), xy, angle, read, None, [], now)

    def accept(self, moves: HandMoves) -> None:
        """Take in the moves :meth:`hand_moves` found (after the caller checked them).

        Call it right after :meth:`hand_moves`: a sprite touched in between is taken as read.
        """
        self.version += 1
        self.reads += 1
        if moves.stamps is not None:
            self._accept_small(moves)
            return
        self._stamps = None
        self._checks_per_read, self._checks = self._checks, 0  # counted afresh
        nothing = moves.read is not None and not (moves.read.size or moves.reported)
        if nothing and not self._records_dropped:
            return  # nothing was touched, nothing read
        self.xy[moves.rows] = moves.xy
        self.angle[moves.rows] = moves.angle
        read = slice(None) if moves.read is None else moves.read
        always = self._slow_rows[read]
        if moves.loose is not None:
            always = always | moves.loose
        # With no row read every time before and none now, the flags stay all False.
        if len(self._always_rows) or np.count_nonzero(always):
            self._always[read] = always
            self._always_rows = self._always.nonzero()[0]
        if self._records_dropped:
            self._rewatch()
        if self._following and moves.read is not None and moves.read.size:
            self._mend_boxes(moves.read.tolist())
        log = self._log
        n = len(self.sprites)
        if moves.read is None:
            # Every pose was read: the log starts afresh, if hand moves are few.
            log.clear()
            self._armed = 4 * len(moves.rows) <= n
            if self._armed:
                internals.arm(map(_record, self._watchers))
        else:
            if len(log) == len(moves.reported):
                log.clear()  # nothing was logged since hand_moves: the log holds just those
            else:
                for watcher in moves.reported:
                    log.pop(id(watcher), None)
            # Many touches cost more through the log than a read of every pose, unless
            # quiet reads come between the moves (a query per sprite, say).
            if 4 * len(moves.reported) <= n or self._quiet_reads:
                internals.arm(moves.reported)
            else:
                self._armed = False
            self._quiet_reads = False

    def _accept_small(self, moves: HandMoves) -> None:
        """:meth:`accept` for a small mirror's read: the log is left unarmed (records
        armed before stay so until they next report, which costs once), or armed when
        the mirror is no longer small."""
        if moves.rows.size:
            self.xy[moves.rows] = moves.xy
            self.angle[moves.rows] = moves.angle
        if self._records_dropped:
            self._rewatch()
        resized = _NO_ROWS if moves.read is None else moves.read
        if self._following and (moves.rows.size or resized.size):
            self._mend_boxes(moves.rows.tolist() + resized.tolist())
        self._log.clear()
        self._quiet_reads = False
        self._checks_per_read, self._checks = self._checks, 0  # counted afresh
        if self._small():
            self._stamps = moves.stamps
            self._armed = False
            return
        # Many questions between moves, or rows: from now on the log answers them.
        self._stamps = None
        self._armed = self._watching
        if self._armed:
            internals.arm(map(_record, self._watchers))

    def _record_dropped(self, ref: weakref.ref[Record]) -> None:
        """Weak-reference callback: a row's record was freed, so the game replaced it."""
        self._records_dropped = True

    def _rewatch(self) -> None:
        """Give a watched record to every sprite that no longer holds its own."""
        for row, sprite in enumerate(self.sprites):
            old = _record(self._watchers[row])
            if old is not None and sprite.sprite_lists is old:
                continue
            if old is not None:
                internals.unwatch(old, self._log)
            watcher = internals.watch_memberships(sprite, self._log)
            if self._armed:
                internals.arm([watcher])
            self._watchers[row] = weakref.ref(watcher, self._on_record_freed)
        # Ids of freed records may be reused: map the live ones afresh.
        self._row_of_watcher = {
            id(watcher): row
            for row, watcher in enumerate(map(_record, self._watchers))
            if watcher is not None
        }
        self._records_dropped = False
        self._lists.invalidate()

    def write(self, xy: FloatArray, angle: FloatArray) -> IntArray:
        """Give each sprite whose pose differs from the mirror's its pose from ``xy``/``angle``.

        Args:
            xy: ``(N, 2)`` positions by row; the mirror keeps a copy.
            angle: ``(N,)`` clockwise angles by row; the mirror keeps a copy.

        Returns:
            The rows whose class's setters stored another pose than the one given
            (clamping, snapping): ``xy`` and ``angle`` now hold what those sprites hold.
        """
        if not self._following:
            self._following = True
            for row in range(len(self.sprites)):
                self._follow_row(row)
        n = len(angle)
        moved = np.empty(n, dtype=np.bool_)
        turned = np.empty(n, dtype=np.bool_)
        n_moved, n_turned, n_changed, n_slow, n_boxes = pose_changes(
            xy, self.xy, angle, self.angle, self._slow_rows, self._written_boxes, moved, turned
        )
        kept = _NO_ROWS
        if n_slow:
            slow = np.flatnonzero(self._slow_rows)
            rows = slow[(moved | turned)[slow]]
            for row in rows.tolist():
                # The class's own setters, which may store another pose (clamping).
                self.sprites[row].position = (float(xy[row, 0]), float(xy[row, 1]))
                self.sprites[row].angle = float(angle[row])
            kept = self._setters_changed(rows, xy, angle)
            moved[slow] = False
            turned[slow] = False
            n_moved, n_turned = int(np.count_nonzero(moved)), int(np.count_nonzero(turned))
            n_changed = int(np.count_nonzero(moved | turned))
        if n_moved or n_turned:
            changed = moved | turned
            self._write_sprites(
                changed, n_changed == n, xy if n_moved else None, angle if n_turned else None,
                bool(n_boxes),
            )  # fmt: skip
            for entry in self._sprite_lists():
                internals.store_in_sprite_list(
                    entry, self.sprites, xy, angle, moved, turned, n_moved == n, n_turned > 0
                )
            internals.report_shared(self._log, self._row_of_watcher, changed)
        self.xy = refilled(self.xy, xy)
        self.angle = refilled(self.angle, angle)
        if self._stamps is not None:
            # A small mirror has no slow rows: the sprites hold the poses just given.
            self._stamps = internals.stamps(self.sprites)
        return kept

    def _setters_changed(self, rows: IntArray, xy: FloatArray, angle: FloatArray) -> IntArray:
        """Of ``rows``, just written through their class's setters, those whose sprite
        now holds another (finite) pose than ``xy``/``angle`` say; their rows there are
        set to it. A non-finite result is left for the next step's check to name."""
        xy_now, angle_now = internals.read_poses([self.sprites[row] for row in rows.tolist()])
        differ = _differ(xy_now, angle_now, xy[rows], angle[rows])
        differ &= np.isfinite(xy_now).all(axis=1) & np.isfinite(angle_now)
        changed: IntArray = rows[differ]
        xy[changed] = xy_now[differ]
        angle[changed] = angle_now[differ]
        return changed

    def _write_sprites(
        self,
        changed: NDArray[np.bool_],
        every: bool,
        xy: FloatArray | None,
        angle: FloatArray | None,
        boxes: bool,
    ) -> None:
        """Store the new positions (``xy`` given) and angles (``angle`` given) of the
        ``changed`` rows (``every`` row, when said) on their sprites; following hit
        boxes need nothing, the others (when ``boxes``: some changed) get the same
        values."""
        phase = self._check_phase
        self._check_phase = (phase + 1) % 32
        self._mend_boxes(range(phase, len(self.sprites), 32))
        picked: slice | IntArray = slice(None)
        sprites = self.sprites
        if not every:
            picked = np.flatnonzero(changed)
            sprites = [sprites[i] for i in picked.tolist()]
        internals.store_sprite_poses(
            sprites,
            None if xy is None else _tuples(xy[picked]),
            None if angle is None else angle[picked].tolist(),
        )
        for row in np.flatnonzero(self._written_boxes & changed).tolist() if boxes else ():
            internals.store_box_pose(
                self.sprites[row],
                None if xy is None else (float(xy[row, 0]), float(xy[row, 1])),
                None if angle is None else float(angle[row]),
            )

    def _follow_row(self, row: int) -> None:
        """Make the hit box ``row``'s sprite holds now follow it, if it can."""
        old = self._boxes[row]
        if old is not None:
            self._box_rows.pop(id(old), None)
        fast = not self._slow_rows[row]
        box = follow(self.sprites[row]) if fast else None
        if box is None:
            self._boxes[row] = None
            self._written_boxes[row] = fast
            return
        ref = weakref.ref(box, self._on_box_freed)
        self._boxes[row] = ref
        self._box_rows[id(ref)] = row
        self._written_boxes[row] = False

    def _box_dropped(self, ref: weakref.ref[FollowingHitBox]) -> None:
        """Weak-reference callback: a row's hit box was freed, so the game replaced it."""
        self._dropped_boxes.append(id(ref))

    def _mend_boxes(self, rows: Iterable[int]) -> None:
        """Follow the new hit box of every sprite that no longer holds the one it had.

        Checked: ``rows`` and the rows whose box was freed (:meth:`_box_dropped`: how a
        replaced box usually shows). The callers pass the rows the game touched (its
        setters report them) and, at each write-back, every 32nd row in turn, so even a
        box replaced while the game kept the old one alive is found within 32 steps.
        """
        suspects = set(rows)
        if self._dropped_boxes:
            # Swapped out first: a callback may fire (garbage collection) at any time.
            dropped, self._dropped_boxes = self._dropped_boxes, []
            row_of = self._box_rows.get
            suspects.update(r for r in map(row_of, dropped) if r is not None)
        sprites, boxes, written = self.sprites, self._boxes, self._written_boxes
        for row in suspects:
            ref = boxes[row]
            current = internals.hit_box_of(sprites[row])
            if ref is not None:
                if current is not ref():
                    self._follow_row(row)
            elif written[row] and can_follow(current):
                self._follow_row(row)  # a box that could not follow, replaced by one that can

    def _sprite_lists(self) -> list[ListSlots]:
        """The rows and slots of each sprite list holding the fast sprites: the rows whose
        sprite joined or left a list (their records noted it in the log's ``regrouped``)
        or that were added or now hold another sprite are looked up again."""
        if not self._watching:
            return []  # no fast rows: every sprite is written through its setters
        if self._records_dropped:
            self._rewatch()
        regrouped = self._log.regrouped
        if not regrouped:
            return self._lists.entries(self.sprites, self._slow_rows, [])
        row_of = self._row_of_watcher.get
        changed = [row for row in map(row_of, regrouped) if row is not None]
        regrouped.clear()
        return self._lists.entries(self.sprites, self._slow_rows, changed)

"""Reading sprite poses into arrays and writing them back, in bulk.

The per-sprite setters ``sprite.position = ...`` and ``sprite.angle = ...`` are
the honest way to move a sprite, but each call also updates the hit box, every
sprite list's GPU buffer and every spatial hash the sprite is in: about 0.6 us
for the position and 0.5 us for the angle per sprite, ~6 ms for 5,000 sprites,
most of a 60 Hz tick budget.

:func:`write_poses` does the same work in bulk for sprites whose class keeps
Arcade's own ``position`` and ``angle`` properties: it stores the new values on
the sprite and its hit box in one loop, then updates each sprite list's
position/angle buffer with one numpy assignment per list, and moves the sprite
in the spatial hash of every list that has one. Sprites whose class overrides
those properties still go through the public setters, so nothing the game
relies on is skipped. ``tests/arcade/test_sprite_sync.py`` checks the fast
path leaves sprites, hit boxes, sprite-list buffers and spatial hashes exactly
as the setters do.

:class:`PoseMirror` is the per-tick form used by
:class:`~arcade_collide.arcade.CollisionWorld`: it remembers what it last saw
on (or wrote to) each sprite and is told which sprites Arcade's setters touched
since, so that finding the sprites the game moved reads only those, and only
the poses that changed are written back, to the sprites alone (their hit boxes
follow them: :mod:`.following_hit_box`).

This relies on Arcade 3.3's private sprite fields (``_position``, ``_angle``,
``_hit_box``, ``sprite_lists``), hit-box fields (``_position``, ``_angle``,
``_adjusted_cache_dirty``, through :mod:`.following_hit_box`) and sprite-list
internals (``_sprite_pos_angle_data``, ``sprite_slot``), which is why the dependency
is pinned to ``arcade~=3.3``.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from operator import attrgetter
from typing import Any, NamedTuple, SupportsIndex

import arcade
import numpy as np
from arcade.hitbox import RotatableHitBox
from numpy.typing import NDArray

from arcade_collide.arcade.following_hit_box import FollowingHitBox, follow

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

_POSITION = attrgetter("_position")
_ANGLE = attrgetter("_angle")
_SIZE = attrgetter("_width", "_height")
_WIDTH = attrgetter("_width")
_HEIGHT = attrgetter("_height")
_TEXTURE = attrgetter("_texture")
_SPRITE_LISTS = attrgetter("sprite_lists")

_NO_ROWS: IntArray = np.zeros(0, dtype=np.intp)
_POSITION_TYPES = frozenset({tuple})

_fast_classes: dict[type, bool] = {}


def has_fast_pose(sprite: arcade.Sprite) -> bool:
    """True when ``sprite``'s class uses Arcade's own ``position``/``angle`` properties.

    Only such sprites may have their pose written in bulk; a subclass that
    overrides either property (to react to moves, say) keeps its setter calls.

    >>> has_fast_pose(arcade.SpriteSolidColor(4, 4))
    True
    >>> class Noisy(arcade.Sprite):
    ...     @property
    ...     def angle(self) -> float:
    ...         return self._angle
    ...     @angle.setter
    ...     def angle(self, value: float) -> None:
    ...         self._angle = value
    >>> has_fast_pose(Noisy())
    False
    """
    cls = type(sprite)
    known = _fast_classes.get(cls)
    if known is None:
        known = (
            isinstance(sprite, arcade.Sprite)
            and cls.position is arcade.BasicSprite.position
            and cls.angle is arcade.Sprite.angle
            and cls.__setattr__ is object.__setattr__
        )
        _fast_classes[cls] = known
    return known


def read_poses(sprites: Sequence[arcade.Sprite]) -> tuple[FloatArray, FloatArray]:
    """The sprites' positions ``(N, 2)`` and clockwise angles ``(N,)`` as float64.

    >>> xy, angle = read_poses([arcade.Sprite(center_x=1, center_y=2, angle=30)])
    >>> xy.tolist(), angle.tolist()
    ([[1.0, 2.0]], [30.0])
    """
    n = len(sprites)
    xy = np.fromiter(chain.from_iterable(map(_POSITION, sprites)), np.float64, count=2 * n)
    angle = np.fromiter(map(_ANGLE, sprites), np.float64, count=n)
    return xy.reshape(n, 2), angle


def read_sizes(sprites: Sequence[arcade.Sprite]) -> tuple[FloatArray, NDArray[np.int64]]:
    """The sprites' ``(width, height)`` ``(N, 2)`` and texture identities ``(N,)``.

    Together these change exactly when a sprite's scale or texture changes,
    which is when its collision shape must be rebuilt.
    """
    n = len(sprites)
    size = np.fromiter(chain.from_iterable(map(_SIZE, sprites)), np.float64, count=2 * n)
    textures = np.fromiter(map(id, map(_TEXTURE, sprites)), np.int64, count=n)
    return size.reshape(n, 2), textures


def size_marks(sprites: Sequence[arcade.Sprite]) -> tuple[list[Any], list[Any], list[Any]]:
    """The objects behind the sprites' widths, heights and textures, for a cheap change test.

    Arcade replaces these objects (never changes them in place) when a sprite is
    scaled or given a new texture, so two results compare equal (``==`` on lists
    tests identity first, and textures compare by identity) exactly when no
    sprite's size or texture changed in between; only then can :func:`read_sizes`
    be skipped.

    >>> sprite = arcade.SpriteSolidColor(4, 4)
    >>> before = size_marks([sprite])
    >>> size_marks([sprite]) == before
    True
    >>> sprite.scale = 2.0
    >>> size_marks([sprite]) == before
    False
    """
    return (
        list(map(_WIDTH, sprites)),
        list(map(_HEIGHT, sprites)),
        list(map(_TEXTURE, sprites)),
    )


def write_poses(
    sprites: Sequence[arcade.Sprite],
    xy: FloatArray,
    angle: FloatArray,
    fast: Sequence[bool] | None = None,
) -> None:
    """Move ``sprites[i]`` to ``xy[i]`` at clockwise ``angle[i]`` degrees.

    The result is the same as ``sprite.position = xy[i]; sprite.angle = angle[i]``
    for every sprite (see the module docstring for how it is faster).

    Args:
        sprites: The sprites to move.
        xy: ``(N, 2)`` new positions.
        angle: ``(N,)`` new angles, clockwise degrees.
        fast: Per sprite, whether :func:`has_fast_pose` holds (computed here
            when not given).

    Raises:
        ValueError: the array lengths do not match ``len(sprites)``.
    """
    n = len(sprites)
    if xy.shape != (n, 2) or angle.shape != (n,):
        raise ValueError(f"xy must be ({n}, 2) and angle ({n},), got {xy.shape} and {angle.shape}")
    if n == 0:
        return
    if fast is None:
        fast = [has_fast_pose(s) for s in sprites]
    if not all(fast):
        rows = [i for i, ok in enumerate(fast) if ok]
        for i, ok in enumerate(fast):
            if not ok:
                _use_setters(sprites[i], xy[i], float(angle[i]))
        sprites = [sprites[i] for i in rows]
        xy = xy[rows]
        angle = angle[rows]
    _store_poses(sprites, _tuples(xy), angle.tolist())
    lists: dict[arcade.SpriteList[Any], None] = dict.fromkeys(
        chain.from_iterable(map(_SPRITE_LISTS, sprites))
    )
    everyone = np.ones(len(sprites), dtype=np.bool_)
    for sprite_list in lists:
        rows_in, slots = _rows_in(sprite_list, sprites, everyone)
        _store_in_sprite_list(sprite_list, sprites, rows_in, slots, xy, angle, everyone, everyone)


def _use_setters(sprite: arcade.Sprite, xy: FloatArray, angle: float) -> None:
    """Move a sprite whose class overrides the pose properties, through its setters."""
    sprite.position = (float(xy[0]), float(xy[1]))
    sprite.angle = angle


def _tuples(xy: FloatArray) -> list[tuple[float, float]]:
    """``(N, 2)`` positions as the Python tuples of floats Arcade stores."""
    return list(zip(xy[:, 0].tolist(), xy[:, 1].tolist(), strict=True))


# _store_poses does what the two setters do to the sprite and its hit box (the sprite
# lists are done afterwards, in bulk). The mirror's loops further down are separate
# loops for positions, angles and both, not one loop with flags, because at 5,000
# sprites every attribute access counts.


def _store_poses(sprites: Sequence[arcade.Sprite], positions: list[Any], angles: list[Any]) -> None:
    for sprite, position, turn in zip(sprites, positions, angles, strict=True):
        sprite._position = position
        sprite._angle = turn
        box: RotatableHitBox = sprite._hit_box
        box._position = position
        box._angle = turn
        box._adjusted_cache_dirty = True


# The mirror's loops store the pose on the sprite only: its hit box follows the sprite
# (:mod:`.following_hit_box`).


def _store_sprite_poses(
    sprites: Sequence[arcade.Sprite], positions: list[Any], angles: list[Any]
) -> None:
    for sprite, position, turn in zip(sprites, positions, angles, strict=True):
        sprite._position = position
        sprite._angle = turn


def _store_sprite_positions(sprites: Sequence[arcade.Sprite], positions: list[Any]) -> None:
    for sprite, position in zip(sprites, positions, strict=True):
        sprite._position = position


def _store_sprite_angles(sprites: Sequence[arcade.Sprite], angles: list[Any]) -> None:
    for sprite, turn in zip(sprites, angles, strict=True):
        sprite._angle = turn


def _rows_in(
    sprite_list: arcade.SpriteList[Any],
    sprites: Sequence[arcade.Sprite],
    eligible: NDArray[np.bool_],
) -> tuple[IntArray, IntArray]:
    """Rows of ``sprites`` held by ``sprite_list`` (among ``eligible`` ones), and their slots.

    A sprite can name a list that no longer holds it (after ``clear(deep=False)``):
    it has no slot there and is left out.
    """
    slot_of = sprite_list.sprite_slot.get
    slots = np.fromiter(map(slot_of, sprites, repeat(-1)), np.intp, count=len(sprites))
    rows = np.flatnonzero((slots >= 0) & eligible)
    return rows, slots[rows]


def _span(indices: IntArray) -> slice | IntArray:
    """``indices`` as a slice when they are consecutive and ascending, else as they are.

    >>> _span(np.array([3, 4, 5]))
    slice(3, 6, None)
    >>> _span(np.array([3, 5])).tolist()
    [3, 5]
    """
    n = len(indices)
    if n and int(indices[-1]) - int(indices[0]) == n - 1 and bool((np.diff(indices) == 1).all()):
        return slice(int(indices[0]), int(indices[0]) + n)
    return indices


def _store_in_sprite_list(
    sprite_list: arcade.SpriteList[Any],
    sprites: Sequence[arcade.Sprite],
    rows: IntArray,
    slots: IntArray,
    xy: FloatArray,
    angle: FloatArray,
    moved: NDArray[np.bool_],
    turned: NDArray[np.bool_],
) -> None:
    """Update ``sprite_list``'s buffer (and spatial hash) for its ``rows`` that moved or turned.

    ``xy``, ``angle``, ``moved`` and ``turned`` are indexed by row of ``sprites``;
    ``slots[k]`` is the list's slot of ``sprites[rows[k]]``.
    """
    # Usually a list holds the world's sprites in the world's order, in consecutive
    # slots: then slices stand for rows and slots, and numpy copies blocks.
    row_span, slot_span = _span(rows), _span(slots)
    moves = moved[row_span]
    turns = turned[row_span]
    if not (moves.any() or turns.any()):
        return
    # A numpy view of the list's array('f') buffer: 4 floats per slot, x y depth angle.
    # It is dropped before returning, so the list can still grow its buffer later.
    data = np.frombuffer(sprite_list._sprite_pos_angle_data, dtype=np.float32).reshape(-1, 4)
    if moves.all():
        data[slot_span, 0:2] = xy[row_span]
    else:
        data[slots[moves], 0:2] = xy[rows[moves]]
    if turns.all():
        data[slot_span, 3] = angle[row_span]
    elif turns.any():
        data[slots[turns], 3] = angle[rows[turns]]
    del data
    sprite_list._sprite_pos_angle_changed = True
    spatial_hash = sprite_list.spatial_hash
    if spatial_hash is not None:
        # The setters move a sprite in every hash it is in: here each list's own hash,
        # once per list. A turn moves it too (its hit box bounds change).
        for row in rows[moves | turns].tolist():
            spatial_hash.move(sprites[row])


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


_membership_changes = [0]
"""How many times a :class:`_Memberships` list was changed (any sprite, any world)."""


class _Memberships(list[Any]):
    """A sprite's ``sprite_lists`` that counts its changes in ``_membership_changes``.

    Arcade changes ``sprite.sprite_lists`` (``append``/``remove``) exactly when the
    sprite joins or leaves a sprite list, which is also the only way its slot in a
    list can change (besides ``SpriteList.clear(deep=False)``, which replaces the
    list's ``sprite_slot`` dict). Counting those changes lets :class:`PoseMirror`
    keep every list's rows and slots between ticks at no per-sprite cost. The other
    mutators are counted too, though Arcade never calls them (``+=`` is not: a
    sprite's lists changed that way would no longer match the lists' own records).

    While its class is :class:`_Armed`, the record also reports the next iteration
    over it to the touch logs in :attr:`logs` (see :class:`PoseMirror`).
    """

    __slots__ = ("__weakref__", "logs")

    logs: list[dict[int, _Memberships]]
    """The touch logs of the :class:`PoseMirror` objects holding this sprite."""

    def append(self, item: Any, /) -> None:
        _membership_changes[0] += 1
        super().append(item)

    def extend(self, items: Iterable[Any], /) -> None:
        _membership_changes[0] += 1
        super().extend(items)

    def insert(self, index: SupportsIndex, item: Any, /) -> None:
        _membership_changes[0] += 1
        super().insert(index, item)

    def remove(self, item: Any, /) -> None:
        _membership_changes[0] += 1
        super().remove(item)

    def pop(self, index: SupportsIndex = -1, /) -> Any:
        _membership_changes[0] += 1
        return super().pop(index)

    def clear(self) -> None:
        _membership_changes[0] += 1
        super().clear()

    def __setitem__(self, index: Any, value: Any) -> None:
        _membership_changes[0] += 1
        super().__setitem__(index, value)

    def __delitem__(self, index: Any) -> None:
        _membership_changes[0] += 1
        super().__delitem__(index)


class _Armed(_Memberships):
    """A :class:`_Memberships` waiting for its sprite's next pose, size or list change.

    Every Arcade setter that changes a sprite (``position``, ``angle``, ``center_x``,
    ``scale``, ``texture``, ...) iterates ``sprite.sprite_lists`` to update the sprite
    lists, so the first such iteration notes the record in each touch log and turns it
    back into a plain :class:`_Memberships`: later iterations cost what a list's do,
    until a :class:`PoseMirror` re-arms it after reading the sprite.
    """

    __slots__ = ()

    def __iter__(self) -> Iterator[Any]:
        self.__class__ = _Memberships  # type: ignore[assignment]
        for log in self.logs:
            log[id(self)] = self
        return list.__iter__(self)


_WATCHED = (_Memberships, _Armed)


def _watch_memberships(sprite: arcade.Sprite) -> _Memberships:
    """``sprite.sprite_lists``, made a :class:`_Memberships` (same lists, same order)."""
    memberships = sprite.sprite_lists
    if isinstance(memberships, _Memberships) and type(memberships) in _WATCHED:
        return memberships
    watched = _Memberships(memberships)
    watched.logs = []
    sprite.sprite_lists = watched
    return watched


_SHARED: dict[int, weakref.ref[_Memberships]] = {}
"""Records of the sprites held by more than one :class:`PoseMirror` (several worlds),
by id (lists are unhashable); a freed record's entry is dropped when next read."""


def _join(memberships: _Memberships, log: dict[int, _Memberships]) -> None:
    if not any(known is log for known in memberships.logs):
        memberships.logs.append(log)
    if len(memberships.logs) > 1:
        _SHARED[id(memberships)] = weakref.ref(memberships)


def _leave(memberships: _Memberships, log: dict[int, _Memberships]) -> None:
    memberships.logs[:] = [known for known in memberships.logs if known is not log]
    if len(memberships.logs) < 2:
        _SHARED.pop(id(memberships), None)


@dataclass
class _ListRows:
    """The rows one sprite list holds, with their slots."""

    sprite_list: arcade.SpriteList[Any]
    slot_dict: dict[Any, int]
    """The list's ``sprite_slot`` dict when the rows were found (replaced by a shallow clear)."""
    rows: IntArray
    slots: IntArray


class PoseMirror:
    """The poses one world last saw on (or wrote to) each of its sprites, row by row.

    **Finding the game's moves cheaply.** Every Arcade setter that changes a sprite
    iterates its ``sprite_lists`` (to update the lists' buffers), and the mirror makes
    each sprite's ``sprite_lists`` a list subclass that notices that (:class:`_Armed`):
    the first iteration after the mirror last read the sprite notes the sprite in the
    mirror's touch log and disarms itself, so later setter calls in the same tick cost
    nothing extra. :meth:`hand_moves` then reads only the logged sprites, compares
    their poses with :attr:`xy` and :attr:`angle` by value, and :meth:`accept`
    re-arms them. A world that moves its sprites itself thus pays nothing per sprite
    to find the game's moves.

    Read every tick, whatever the log says:

    * sprites whose class overrides the pose setters (see :func:`has_fast_pose`):
      their setters need not iterate ``sprite_lists``;
    * sprites whose position is not a tuple (a list could be changed in place);
    * every sprite, in the tick after a game gave some sprite a new ``sprite_lists``.
      The mirror holds the records by weak reference only, so replacing one frees it
      and its callback tells the mirror (no per-tick check). A game that replaces the
      record and keeps the old one alive elsewhere is not noticed.

    When the game moved more than a quarter of the sprites by hand, re-arming them one
    by one would cost more than reading everything: the mirror then reads every pose
    the next tick (C-level passes) and arms every record again once hand moves are
    few. Moves made by writing Arcade's private fields (``sprite._position = ...``)
    bypass the setters and are not seen while the log is in use.

    **Writing back only what changed.** :meth:`write` compares the new poses with
    the mirror's: sprites that did not move are not touched, the angle of one that
    did not turn is kept, and the sprite lists' buffers get only the changed rows.
    The pose is stored on the sprite only: its hit box was made to read the sprite's
    pose (:func:`~.following_hit_box.follow`, in place, when the sprite was added). A
    hit box the game gives the sprite later is made to follow in turn. It is found when
    the old box is freed (the mirror holds boxes by weak reference), when the game's
    setters report the sprite, or, if the game keeps the old box alive, by the check of
    every 32nd sprite each step, within 32 steps. A box of the game's own class is
    written every tick.
    The write-back stores fields directly and iterates no ``sprite_lists``, so it
    logs nothing (sprites whose class overrides the setters are written through them,
    and read every tick anyway).

    **Sprite lists.** Which rows each sprite list holds, and at which slots, is
    kept between ticks, and known valid while no sprite joined or left a list (the
    records count their changes: :class:`_Memberships`), every sprite still holds
    its record and no cached list was shallow-cleared; otherwise it is rebuilt.
    Adding or removing a sprite drops it.
    """

    def __init__(self) -> None:
        self.sprites: list[arcade.Sprite] = []
        """The sprites, one per row."""
        self.xy: FloatArray = np.zeros((0, 2))
        """``(N, 2)`` positions as last seen or written."""
        self.angle: FloatArray = np.zeros(0)
        """``(N,)`` clockwise angles as last seen or written."""
        self._slow_rows: NDArray[np.bool_] = np.zeros(0, dtype=np.bool_)
        """Rows whose class overrides the pose setters (see :func:`has_fast_pose`)."""
        self._slow: IntArray = _NO_ROWS
        """The indices of :attr:`_slow_rows`."""
        self._always: NDArray[np.bool_] = np.zeros(0, dtype=np.bool_)
        """Rows read every tick: slow sprites and positions that are not tuples."""
        self._watchers: list[weakref.ref[_Memberships]] = []
        """Each row's ``sprite_lists`` record, weakly held (see :meth:`_record_dropped`)."""
        self._boxes: list[weakref.ref[FollowingHitBox] | None] = []
        """Each row's hit box as made to follow its sprite, weakly held (see
        :meth:`_box_dropped`); None for a slow sprite, or a box that cannot follow."""
        self._box_rows: dict[int, int] = {}
        """Row of each weak reference in :attr:`_boxes`, by ``id``."""
        self._dropped_boxes: list[int] = []
        """``id`` of the references whose box was freed (the game replaced it)."""
        self._written_boxes: NDArray[np.bool_] = np.zeros(0, dtype=np.bool_)
        """Rows of fast sprites whose hit box cannot follow: written with the sprite."""
        self._check_phase = 0
        self._row_of_watcher: dict[int, int] = {}
        self._log: dict[int, _Memberships] = {}
        """Records that reported a touch since they were last read (by ``id``)."""
        self._armed = True
        """Whether the log is in use (else every pose is read each tick)."""
        self._records_dropped = False
        """Whether some row's record was freed (replaced by the game) since the last rewatch."""
        self._lists: list[_ListRows] | None = None
        self._changes_seen = -1

    def __len__(self) -> int:
        return len(self.sprites)

    def add(self, sprite: arcade.Sprite) -> None:
        """Append ``sprite`` as the last row, at its current pose."""
        xy, angle = read_poses([sprite])
        fast = has_fast_pose(sprite)
        self.sprites.append(sprite)
        self._slow_rows = np.append(self._slow_rows, not fast)
        self._boxes.append(None)
        self._written_boxes = np.append(self._written_boxes, False)
        self._follow_row(len(self.sprites) - 1)
        watcher = _watch_memberships(sprite)
        _join(watcher, self._log)
        self._row_of_watcher[id(watcher)] = len(self._watchers)
        self._watchers.append(weakref.ref(watcher, self._record_dropped))
        if self._armed:
            watcher.__class__ = _Armed
        self.xy = np.concatenate([self.xy, xy])
        self.angle = np.concatenate([self.angle, angle])
        loose = type(sprite._position) not in _POSITION_TYPES
        self._always = np.append(self._always, loose or not fast)
        self._changed_rows()

    def remove(self, row: int) -> None:
        """Drop ``row``; the last row takes its place (swap-remove)."""
        last = len(self.sprites) - 1
        gone = self._watchers[row]()
        if gone is not None:
            _leave(gone, self._log)
            self._log.pop(id(gone), None)
            del self._row_of_watcher[id(gone)]
        if row != last:
            moved = self._watchers[last]()
            if moved is not None:
                self._row_of_watcher[id(moved)] = row
        self.sprites[row] = self.sprites[last]
        gone_box, moved_box = self._boxes[row], self._boxes[last]
        if gone_box is not None:
            del self._box_rows[id(gone_box)]
        if moved_box is not None and row != last:
            self._box_rows[id(moved_box)] = row
        self._slow_rows[row] = self._slow_rows[last]
        self._slow_rows = self._slow_rows[:last]
        self._boxes[row] = moved_box
        self._written_boxes[row] = self._written_boxes[last]
        self._written_boxes = self._written_boxes[:last]
        self._watchers[row] = self._watchers[last]
        del self.sprites[last], self._boxes[last], self._watchers[last]
        self.xy[row] = self.xy[last]
        self.angle[row] = self.angle[last]
        self._always[row] = self._always[last]
        self.xy = self.xy[:last]
        self.angle = self.angle[:last]
        self._always = self._always[:last]
        self._changed_rows()

    def _changed_rows(self) -> None:
        self._slow = np.flatnonzero(self._slow_rows)
        self._lists = None

    def hand_moves(self) -> HandMoves:
        """The sprites whose pose differs from the mirror's (moved by the game).

        Changes nothing: call :meth:`accept` to take the moves in.
        """
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
            read = np.flatnonzero(self._always)
            if logged:
                read = np.union1d(read, np.array(logged, dtype=np.intp))
            if read.size == 0:
                return HandMoves(_NO_ROWS, self.xy[:0], self.angle[:0], read, None, reported)
            sprites = [sprites[i] for i in read.tolist()]
        n = len(sprites)
        positions = list(map(_POSITION, sprites))
        angles = list(map(_ANGLE, sprites))
        xy = np.fromiter(chain.from_iterable(positions), np.float64, count=2 * n).reshape(n, 2)
        angle = np.fromiter(angles, np.float64, count=n)
        loose = None
        if not _POSITION_TYPES.issuperset(map(type, positions)):
            loose = np.fromiter(
                (type(p) not in _POSITION_TYPES for p in positions), np.bool_, count=n
            )
        if read is None:
            changed = (xy != self.xy).any(axis=1) | (angle != self.angle)
            rows = np.flatnonzero(changed)
        else:
            changed = (xy != self.xy[read]).any(axis=1) | (angle != self.angle[read])
            rows = read[changed]
        return HandMoves(rows, xy[changed], angle[changed], read, loose, reported)

    def accept(self, moves: HandMoves) -> None:
        """Take in the moves :meth:`hand_moves` found (after the caller checked them).

        Call it right after :meth:`hand_moves`: a sprite touched in between is taken as read.
        """
        self.xy[moves.rows] = moves.xy
        self.angle[moves.rows] = moves.angle
        read = slice(None) if moves.read is None else moves.read
        always = self._slow_rows[read]
        if moves.loose is not None:
            always = always | moves.loose
        self._always[read] = always
        if self._records_dropped:
            self._rewatch()
        if moves.read is not None and moves.read.size:
            self._mend_boxes(moves.read.tolist())
        log = self._log
        n = len(self.sprites)
        if moves.read is None:
            # Every pose was read: the log starts afresh, if hand moves are few.
            log.clear()
            self._armed = 4 * len(moves.rows) <= n
            if self._armed:
                self._arm(ref() for ref in self._watchers)
        else:
            for watcher in moves.reported:
                log.pop(id(watcher), None)
            if 4 * len(moves.reported) <= n:
                self._arm(moves.reported)
            else:
                self._armed = False

    def _arm(self, watchers: Iterable[_Memberships | None]) -> None:
        for watcher in watchers:
            if watcher is not None:
                watcher.__class__ = _Armed

    def _record_dropped(self, ref: weakref.ref[_Memberships]) -> None:
        """Weak-reference callback: a row's record was freed, so the game replaced it."""
        self._records_dropped = True

    def _rewatch(self) -> None:
        """Give a watched record to every sprite that no longer holds its own."""
        log = self._log
        row_of = self._row_of_watcher
        for row, sprite in enumerate(self.sprites):
            old = self._watchers[row]()
            if old is not None and sprite.sprite_lists is old:
                continue
            if old is not None:
                _leave(old, log)
                log.pop(id(old), None)
            watcher = _watch_memberships(sprite)
            _join(watcher, log)
            if self._armed:
                watcher.__class__ = _Armed
            row_of[id(watcher)] = row
            self._watchers[row] = weakref.ref(watcher, self._record_dropped)
        # Ids of freed records may be reused: map the live ones afresh.
        self._row_of_watcher = {
            id(watcher): row
            for row, watcher in enumerate(ref() for ref in self._watchers)
            if watcher is not None
        }
        self._records_dropped = False
        self._lists = None

    def write(self, xy: FloatArray, angle: FloatArray) -> IntArray:
        """Give each sprite whose pose differs from the mirror's its pose from ``xy``/``angle``.

        Args:
            xy: ``(N, 2)`` positions by row; the mirror keeps this array.
            angle: ``(N,)`` clockwise angles by row; the mirror keeps this array.

        Returns:
            The rows whose class's setters stored another pose than the one given
            (clamping, snapping): ``xy`` and ``angle`` now hold what those sprites hold.
        """
        moved = (xy != self.xy).any(axis=1)
        turned = angle != self.angle
        kept = _NO_ROWS
        if self._slow.size:
            slow = self._slow
            rows = slow[(moved | turned)[slow]]
            for row in rows.tolist():
                _use_setters(self.sprites[row], xy[row], float(angle[row]))
            if rows.size:
                kept = self._setters_changed(rows, xy, angle)
            moved[slow] = False
            turned[slow] = False
        any_moved, any_turned = bool(moved.any()), bool(turned.any())
        if any_moved and any_turned:
            self._write_sprites(moved | turned, xy, angle)
        elif any_moved:
            self._write_sprites(moved, xy, None)
        elif any_turned:
            self._write_sprites(turned, None, angle)
        if any_moved or any_turned:
            self._write_lists(xy, angle, moved, turned)
            if _SHARED:
                self._report_shared(moved | turned)
        self.xy = xy
        self.angle = angle
        return kept

    def _setters_changed(self, rows: IntArray, xy: FloatArray, angle: FloatArray) -> IntArray:
        """Of ``rows``, just written through their class's setters, those whose sprite
        now holds another (finite) pose than ``xy``/``angle`` say; their rows there are
        set to it. A non-finite result is left for the next step's check to name."""
        xy_now, angle_now = read_poses([self.sprites[row] for row in rows.tolist()])
        differ = (xy_now != xy[rows]).any(axis=1) | (angle_now != angle[rows])
        differ &= np.isfinite(xy_now).all(axis=1) & np.isfinite(angle_now)
        changed: IntArray = rows[differ]
        xy[changed] = xy_now[differ]
        angle[changed] = angle_now[differ]
        return changed

    def _report_shared(self, stored: NDArray[np.bool_]) -> None:
        """Log the ``stored`` rows' sprites that other mirrors hold too in their logs:
        the stores skip Arcade's setters, so the other worlds would not see the moves."""
        own = self._log
        row_of = self._row_of_watcher.get
        for key, ref in list(_SHARED.items()):
            watcher = ref()
            if watcher is None:
                del _SHARED[key]
                continue
            row = row_of(key)
            if row is not None and stored[row]:
                for log in watcher.logs:
                    if log is not own:
                        log[id(watcher)] = watcher

    def _write_sprites(
        self, changed: NDArray[np.bool_], xy: FloatArray | None, angle: FloatArray | None
    ) -> None:
        """Store the new positions (``xy`` given) and angles (``angle`` given) of the
        ``changed`` rows on their sprites; following hit boxes need nothing, the others
        get the same values."""
        phase = self._check_phase
        self._check_phase = (phase + 1) % 32
        self._mend_boxes(range(phase, len(self.sprites), 32))
        if changed.all():
            sprites = self.sprites
            picked_xy, picked_angle = xy, angle
        else:
            picked = np.flatnonzero(changed)
            sprites = [self.sprites[i] for i in picked.tolist()]
            picked_xy = None if xy is None else xy[picked]
            picked_angle = None if angle is None else angle[picked]
        positions = None if picked_xy is None else _tuples(picked_xy)
        angles = None if picked_angle is None else picked_angle.tolist()
        if positions is not None and angles is not None:
            _store_sprite_poses(sprites, positions, angles)
        elif positions is not None:
            _store_sprite_positions(sprites, positions)
        else:
            assert angles is not None
            _store_sprite_angles(sprites, angles)
        for row in np.flatnonzero(self._written_boxes & changed).tolist():
            box: Any = self.sprites[row]._hit_box
            if xy is not None:
                box._position = (float(xy[row, 0]), float(xy[row, 1]))
            if angle is not None:
                box._angle = float(angle[row])
            box._adjusted_cache_dirty = True

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
        ref = weakref.ref(box, self._box_dropped)
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
            current = sprites[row]._hit_box
            if ref is not None:
                if current is not ref():
                    self._follow_row(row)
            elif written[row] and type(current) is RotatableHitBox:
                self._follow_row(row)  # a box that could not follow, replaced by one that can

    def _write_lists(
        self,
        xy: FloatArray,
        angle: FloatArray,
        moved: NDArray[np.bool_],
        turned: NDArray[np.bool_],
    ) -> None:
        lists = self._lists
        if lists is None or not self._lists_hold(lists):
            lists = self._index_lists()
        for entry in lists:
            _store_in_sprite_list(
                entry.sprite_list, self.sprites, entry.rows, entry.slots, xy, angle, moved, turned
            )

    def _lists_hold(self, lists: list[_ListRows]) -> bool:
        """Whether the cached rows and slots of every sprite list are still right."""
        if _membership_changes[0] != self._changes_seen or self._records_dropped:
            return False
        return all(entry.sprite_list.sprite_slot is entry.slot_dict for entry in lists)

    def _index_lists(self) -> list[_ListRows]:
        if self._records_dropped:
            self._rewatch()
        sprites = self.sprites
        self._changes_seen = _membership_changes[0]
        fast = ~self._slow_rows
        # list.copy reads the records without iterating them (which would report touches).
        lists = dict.fromkeys(chain.from_iterable(map(list.copy, map(_SPRITE_LISTS, sprites))))
        entries = []
        for sprite_list in lists:
            rows, slots = _rows_in(sprite_list, sprites, fast)
            entries.append(_ListRows(sprite_list, sprite_list.sprite_slot, rows, slots))
        self._lists = entries
        return entries

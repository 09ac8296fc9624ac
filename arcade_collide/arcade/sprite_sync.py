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
on (or wrote to) each sprite, so that finding the sprites the game moved, and
writing back only the poses that changed, cost little more than one C-level
pass over the sprites.

This relies on Arcade 3.3's private sprite fields (``_position``, ``_angle``,
``_hit_box``, ``sprite_lists``) and sprite-list internals
(``_sprite_pos_angle_data``, ``sprite_slot``), which is why the dependency is
pinned to ``arcade~=3.3``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import chain, repeat
from operator import attrgetter, is_
from typing import Any, NamedTuple, SupportsIndex

import arcade
import numpy as np
from arcade.hitbox import RotatableHitBox
from numpy.typing import NDArray

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
_UNSEEN = object()
"""Stands for "read this sprite's pose as numbers next tick" in :class:`PoseMirror`."""

_POSITION_TYPES = frozenset({tuple})

_fast_classes: dict[type, bool] = {}


def _immutable(objects: list[Any], types: frozenset[type]) -> list[Any]:
    """``objects``, with :data:`_UNSEEN` for any not of ``types``.

    Identity tells a pose unchanged only for immutable objects: a game could store a
    list as a sprite's position (Arcade keeps what it is given) and change it in place.
    Such sprites are read as numbers every tick. (Angles are numbers, immutable.)
    """
    if types.issuperset(map(type, objects)):
        return objects
    return [o if type(o) in types else _UNSEEN for o in objects]


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


# The three store loops below do what the two setters do to the sprite and its hit
# box (the sprite lists are done afterwards, in bulk). They are separate loops, not
# one loop with flags, because at 5,000 sprites every attribute access counts.


def _store_poses(sprites: Sequence[arcade.Sprite], positions: list[Any], angles: list[Any]) -> None:
    for sprite, position, turn in zip(sprites, positions, angles, strict=True):
        sprite._position = position
        sprite._angle = turn
        box: RotatableHitBox = sprite._hit_box
        box._position = position
        box._angle = turn
        box._adjusted_cache_dirty = True


def _store_positions(sprites: Sequence[arcade.Sprite], positions: list[Any]) -> None:
    for sprite, position in zip(sprites, positions, strict=True):
        sprite._position = position
        box: RotatableHitBox = sprite._hit_box
        box._position = position
        box._adjusted_cache_dirty = True


def _store_angles(sprites: Sequence[arcade.Sprite], angles: list[Any]) -> None:
    for sprite, turn in zip(sprites, angles, strict=True):
        sprite._angle = turn
        box: RotatableHitBox = sprite._hit_box
        box._angle = turn
        box._adjusted_cache_dirty = True


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
    positions: list[Any] | None
    """Every sprite's position object this tick; None when no object was replaced."""
    angles: list[Any] | None
    """Every sprite's angle object this tick; None when no object was replaced."""


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
    """

    __slots__ = ()

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


def _watch_memberships(sprite: arcade.Sprite) -> _Memberships:
    """``sprite.sprite_lists``, made a :class:`_Memberships` (same lists, same order)."""
    memberships = sprite.sprite_lists
    if type(memberships) is not _Memberships:
        memberships = _Memberships(memberships)
        sprite.sprite_lists = memberships
    return memberships


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

    **Finding the game's moves cheaply.** Arcade's setters never change a pose in
    place: they *replace* ``sprite._position`` (a tuple) and ``sprite._angle`` (a
    float). The mirror keeps the very objects it last saw or wrote, so two C-level
    passes (``list(map(attrgetter(...), sprites))``) and list comparisons, which
    test identity before value, tell whether any sprite was moved; only then are
    poses read as numbers (and compared by value with :attr:`xy` and :attr:`angle`,
    so an object replaced by an equal value is no move). A position that is not a
    tuple (a list could be changed in place) is read as numbers every tick. A
    sprite whose class overrides the setters (see :func:`has_fast_pose`) may store
    something other than what it was given, so after each write it is read as
    numbers once more.

    The objects the game replaced stay referenced until the next :meth:`accept`, so
    a game that moves every sprite itself has them freed inside the world's step.

    **Writing back only what changed.** :meth:`write` compares the new poses with
    the mirror's: sprites that did not move are not touched, the angle of one that
    did not turn is kept, and the sprite lists' buffers get only the changed rows.

    **Sprite lists.** Which rows each sprite list holds, and at which slots, is
    kept between ticks. Each sprite's ``sprite_lists`` is made a list subclass that
    counts its changes (:class:`_Memberships`; same contents, still a ``list``), so
    the cache is known valid while no sprite joined or left a list, every sprite
    still held its counting list when :meth:`hand_moves` read it (a game could
    assign a new one) and no cached list was shallow-cleared; otherwise it is
    rebuilt. Adding or removing a sprite drops it.
    """

    def __init__(self) -> None:
        self.sprites: list[arcade.Sprite] = []
        """The sprites, one per row."""
        self.xy: FloatArray = np.zeros((0, 2))
        """``(N, 2)`` positions as last seen or written."""
        self.angle: FloatArray = np.zeros(0)
        """``(N,)`` clockwise angles as last seen or written."""
        self._fast: list[bool] = []
        self._slow: IntArray = _NO_ROWS
        self._positions: list[Any] = []
        self._angles: list[Any] = []
        self._watchers: list[_Memberships] = []
        self._records_kept: bool | None = None
        """Whether every sprite still holds its counting ``sprite_lists`` (None: not
        checked since the last write-back)."""
        self._wrote = False
        """Whether the last :meth:`write` wrote anything to the sprites."""
        self._lists: list[_ListRows] | None = None
        self._changes_seen = -1

    def __len__(self) -> int:
        return len(self.sprites)

    def add(self, sprite: arcade.Sprite) -> None:
        """Append ``sprite`` as the last row, at its current pose."""
        xy, angle = read_poses([sprite])
        self.sprites.append(sprite)
        self._fast.append(has_fast_pose(sprite))
        self._positions.extend(_immutable([sprite._position], _POSITION_TYPES))
        self._angles.append(sprite._angle)
        self._watchers.append(_watch_memberships(sprite))
        self.xy = np.concatenate([self.xy, xy])
        self.angle = np.concatenate([self.angle, angle])
        self._changed_rows()

    def remove(self, row: int) -> None:
        """Drop ``row``; the last row takes its place (swap-remove)."""
        last = len(self.sprites) - 1
        self.sprites[row] = self.sprites[last]
        self._fast[row] = self._fast[last]
        self._positions[row] = self._positions[last]
        self._angles[row] = self._angles[last]
        self._watchers[row] = self._watchers[last]
        del self.sprites[last], self._fast[last], self._positions[last], self._angles[last]
        del self._watchers[last]
        self.xy[row] = self.xy[last]
        self.angle[row] = self.angle[last]
        self.xy = self.xy[:last]
        self.angle = self.angle[:last]
        self._changed_rows()

    def _changed_rows(self) -> None:
        self._slow = np.flatnonzero(~np.fromiter(self._fast, np.bool_, count=len(self._fast)))
        self._lists = None

    def hand_moves(self) -> HandMoves:
        """The sprites whose pose differs from the mirror's (moved by the game).

        Changes nothing: call :meth:`accept` to take the moves in.
        """
        sprites = self.sprites
        positions = list(map(_POSITION, sprites))
        angles = list(map(_ANGLE, sprites))
        # Checked here, where each sprite's memory was just read anyway, rather than at
        # the write-back (after the ECS tick it is often out of the CPU caches again);
        # only when the last tick wrote, so this one probably will too.
        self._records_kept = self._records_held() if self._wrote else None
        if positions == self._positions and angles == self._angles:
            return HandMoves(_NO_ROWS, self.xy[:0], self.angle[:0], None, None)
        n = len(sprites)
        xy = np.fromiter(chain.from_iterable(positions), np.float64, count=2 * n).reshape(n, 2)
        angle = np.fromiter(angles, np.float64, count=n)
        rows = np.flatnonzero((xy != self.xy).any(axis=1) | (angle != self.angle))
        return HandMoves(rows, xy[rows], angle[rows], positions, angles)

    def accept(self, moves: HandMoves) -> None:
        """Take in the moves :meth:`hand_moves` found (after the caller checked them)."""
        if moves.positions is None or moves.angles is None:
            return
        # This tick's objects, every row: unmoved rows hold the same objects as before
        # (or equal ones), so the lists replace the old ones whole.
        self._positions = _immutable(moves.positions, _POSITION_TYPES)
        self._angles = moves.angles
        self.xy[moves.rows] = moves.xy
        self.angle[moves.rows] = moves.angle

    def write(self, xy: FloatArray, angle: FloatArray) -> None:
        """Give each sprite whose pose differs from the mirror's its pose from ``xy``/``angle``.

        Args:
            xy: ``(N, 2)`` positions by row; the mirror keeps this array.
            angle: ``(N,)`` clockwise angles by row; the mirror keeps this array.
        """
        moved = (xy != self.xy).any(axis=1)
        turned = angle != self.angle
        if self._slow.size:
            slow = self._slow
            for row in slow[(moved | turned)[slow]].tolist():
                _use_setters(self.sprites[row], xy[row], float(angle[row]))
                self._positions[row] = self._angles[row] = _UNSEEN
            moved[slow] = False
            turned[slow] = False
        any_moved, any_turned = bool(moved.any()), bool(turned.any())
        if any_moved and any_turned:
            self._write_both(moved | turned, xy, angle)
        elif any_moved:
            self._write_positions(moved, xy)
        elif any_turned:
            self._write_angles(turned, angle)
        if any_moved or any_turned:
            self._write_lists(xy, angle, moved, turned)
        self._wrote = any_moved or any_turned
        self._records_kept = None
        self.xy = xy
        self.angle = angle

    def _write_both(self, changed: NDArray[np.bool_], xy: FloatArray, angle: FloatArray) -> None:
        if changed.all():
            positions, angles = _tuples(xy), angle.tolist()
            _store_poses(self.sprites, positions, angles)
            self._positions, self._angles = positions, angles
            return
        rows = np.flatnonzero(changed)
        positions, angles = _tuples(xy[rows]), angle[rows].tolist()
        sprites = self.sprites
        _store_poses([sprites[i] for i in rows.tolist()], positions, angles)
        position_refs, angle_refs = self._positions, self._angles
        for i, position, turn in zip(rows.tolist(), positions, angles, strict=True):
            position_refs[i] = position
            angle_refs[i] = turn

    def _write_positions(self, moved: NDArray[np.bool_], xy: FloatArray) -> None:
        if moved.all():
            positions = _tuples(xy)
            _store_positions(self.sprites, positions)
            self._positions = positions
            return
        rows = np.flatnonzero(moved)
        positions = _tuples(xy[rows])
        sprites = self.sprites
        _store_positions([sprites[i] for i in rows.tolist()], positions)
        refs = self._positions
        for i, position in zip(rows.tolist(), positions, strict=True):
            refs[i] = position

    def _write_angles(self, turned: NDArray[np.bool_], angle: FloatArray) -> None:
        if turned.all():
            angles = angle.tolist()
            _store_angles(self.sprites, angles)
            self._angles = angles
            return
        rows = np.flatnonzero(turned)
        angles = angle[rows].tolist()
        sprites = self.sprites
        _store_angles([sprites[i] for i in rows.tolist()], angles)
        refs = self._angles
        for i, turn in zip(rows.tolist(), angles, strict=True):
            refs[i] = turn

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
        if _membership_changes[0] != self._changes_seen:
            return False
        for entry in lists:
            if entry.sprite_list.sprite_slot is not entry.slot_dict:
                return False
        kept = self._records_kept
        return self._records_held() if kept is None else kept

    def _records_held(self) -> bool:
        """Whether every sprite still holds the counting ``sprite_lists`` it was given."""
        return all(map(is_, map(_SPRITE_LISTS, self.sprites), self._watchers))

    def _index_lists(self) -> list[_ListRows]:
        sprites = self.sprites
        self._watchers = list(map(_watch_memberships, sprites))
        self._records_kept = True
        self._changes_seen = _membership_changes[0]
        fast = np.fromiter(self._fast, np.bool_, count=len(self._fast))
        lists = dict.fromkeys(chain.from_iterable(self._watchers))
        entries = []
        for sprite_list in lists:
            rows, slots = _rows_in(sprite_list, sprites, fast)
            entries.append(_ListRows(sprite_list, sprite_list.sprite_slot, rows, slots))
        self._lists = entries
        return entries

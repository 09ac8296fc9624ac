"""The one module that touches Arcade's private fields or changes classes at run time.

Arcade's setters update the hit box, every sprite list's buffer and spatial hash one
sprite at a time; with the fields below the pose mirror (:mod:`.pose_mirror`) does that
work in bulk:

* sprites: ``_position``, ``_angle``, ``_width``, ``_height``, ``_texture``,
  ``_hit_box``; ``sprite_lists`` is replaced by a list subclass that counts its changes
  and reports the next setter call (:class:`Record`, :class:`_Armed`);
* hit boxes: a sprite's ``RotatableHitBox`` becomes a :class:`FollowingHitBox` (a class
  switch) that reads the sprite's pose, or gets ``_position``, ``_angle`` and
  ``_adjusted_cache_dirty`` written;
* sprite lists: ``_sprite_pos_angle_data``, ``_sprite_pos_angle_changed``,
  ``sprite_slot`` and ``spatial_hash.move``.

These were written for, and are tested with, Arcade 3.3. At import the module checks
``arcade.version.VERSION``: for any other version it uses Arcade's public getters and
setters only (:func:`use_private_fields`), which is slower and never wrong.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, repeat
from operator import attrgetter
from typing import Any, NamedTuple, cast

import arcade
import numpy as np
from arcade.hitbox import RotatableHitBox
from numpy.typing import NDArray

from arcade_collide.ecs.storage import as_slice

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

TESTED_VERSIONS = "3.3."
"""The Arcade releases whose private fields this module knows (a version prefix)."""


def version_tested(version: str) -> bool:
    """Whether Arcade ``version`` is one this module's private-field paths were tested with.

    >>> version_tested("3.3.3"), version_tested("3.4.0"), version_tested("3.30.1")
    (True, False, False)
    """
    return version.startswith(TESTED_VERSIONS) and version[len(TESTED_VERSIONS):][:1].isdigit()


PRIVATE = False
"""Whether the private-field paths are in use (see :func:`use_private_fields`)."""

# The getters of the fields below: set by use_private_fields.
_POSITION: attrgetter[Any]
_ANGLE: attrgetter[Any]
_SIZE: attrgetter[Any]
_TEXTURE: attrgetter[Any]
_MARKS: attrgetter[Any]
hit_box_of: attrgetter[Any]
"""``hit_box_of(sprite)``: the hit box ``sprite`` holds now."""
_fast_classes: dict[type, bool] = {}


def use_private_fields(enabled: bool) -> None:
    """Read sprites through their private fields and allow bulk writes (``enabled``), or
    use Arcade's public getters and setters only.

    Chosen at import from Arcade's version; tests call it to run the public paths. Call
    it before any CollisionWorld is created: a world keeps the choice it was made with.
    """
    global PRIVATE, _POSITION, _ANGLE, _SIZE, _TEXTURE, _MARKS, hit_box_of
    PRIVATE = enabled
    prefix = "_" if enabled else ""
    _POSITION, _ANGLE, _TEXTURE, hit_box_of = (
        attrgetter(prefix + name) for name in ("position", "angle", "texture", "hit_box")
    )
    _SIZE = attrgetter(prefix + "width", prefix + "height")
    _MARKS = attrgetter(prefix + "width", prefix + "height", prefix + "texture")
    _fast_classes.clear()


use_private_fields(version_tested(arcade.version.VERSION))


# --- reading sprites ------------------------------------------------------------------


def has_fast_pose(sprite: arcade.Sprite) -> bool:
    """True when ``sprite``'s pose may be stored in its fields directly: private fields
    are in use and its class keeps Arcade's own ``position``/``angle`` properties.

    A subclass that overrides either property (to react to moves, say) keeps its setter
    calls.

    >>> has_fast_pose(arcade.SpriteSolidColor(4, 4)) == PRIVATE
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
            PRIVATE
            and isinstance(sprite, arcade.Sprite)
            and cls.position is arcade.BasicSprite.position
            and cls.angle is arcade.Sprite.angle
            and cls.__setattr__ is object.__setattr__
        )
        _fast_classes[cls] = known
    return known


def pose_objects(sprites: Sequence[arcade.Sprite]) -> tuple[list[Any], list[Any]]:
    """The objects the sprites hold as their positions and angles."""
    return list(map(_POSITION, sprites)), list(map(_ANGLE, sprites))


def as_arrays(pairs: Sequence[Any], values: Sequence[Any]) -> tuple[FloatArray, FloatArray]:
    """``(x, y)`` pairs as an ``(N, 2)`` float64 array, and numbers as an ``(N,)`` one."""
    n = len(pairs)
    xy = np.fromiter(chain.from_iterable(pairs), np.float64, count=2 * n)
    return xy.reshape(n, 2), np.fromiter(values, np.float64, count=n)


def read_poses(sprites: Sequence[arcade.Sprite]) -> tuple[FloatArray, FloatArray]:
    """The sprites' positions ``(N, 2)`` and clockwise angles ``(N,)`` as float64.

    >>> xy, angle = read_poses([arcade.Sprite(center_x=1, center_y=2, angle=30)])
    >>> xy.tolist(), angle.tolist()
    ([[1.0, 2.0]], [30.0])
    """
    return as_arrays(*pose_objects(sprites))


def read_sizes(sprites: Sequence[arcade.Sprite]) -> tuple[FloatArray, NDArray[np.int64]]:
    """The sprites' ``(width, height)`` ``(N, 2)`` and texture identities ``(N,)``.

    Together these change exactly when a sprite's scale or texture changes,
    which is when its collision shape must be rebuilt.

    >>> size, texture = read_sizes([arcade.SpriteSolidColor(4, 6)])
    >>> size.tolist()
    [[4.0, 6.0]]
    """
    n = len(sprites)
    size = np.fromiter(chain.from_iterable(map(_SIZE, sprites)), np.float64, count=2 * n)
    textures = np.fromiter(map(id, map(_TEXTURE, sprites)), np.int64, count=n)
    return size.reshape(n, 2), textures


def size_marks(sprites: Sequence[arcade.Sprite]) -> list[tuple[Any, Any, Any]]:
    """The objects behind the sprites' widths, heights and textures, for a cheap change test.

    Arcade replaces these objects (never changes them in place) when a sprite is
    scaled or given a new texture, so two results compare equal (``==`` on lists and
    tuples tests identity first, then value) only when no sprite's size or texture changed
    in between; only then can :func:`read_sizes` be skipped.

    >>> sprite = arcade.SpriteSolidColor(4, 4)
    >>> before = size_marks([sprite])
    >>> size_marks([sprite]) == before
    True
    >>> sprite.scale = 2.0
    >>> size_marks([sprite]) == before
    False
    """
    return list(map(_MARKS, sprites))


# --- writing sprites ------------------------------------------------------------------


def store_sprite_poses(
    sprites: Sequence[arcade.Sprite], positions: list[Any] | None, angles: list[Any] | None
) -> None:
    """Store positions and angles (None: keep them) on sprites with :func:`has_fast_pose`
    only; their hit boxes follow them."""
    # A loop per case, not one loop with flags: at 5,000 sprites every access counts.
    if angles is None:
        for sprite, position in zip(sprites, positions or (), strict=True):
            sprite._position = position
    elif positions is None:
        for sprite, turn in zip(sprites, angles, strict=True):
            sprite._angle = turn
    else:
        for sprite, position, turn in zip(sprites, positions, angles, strict=True):
            sprite._position = position
            sprite._angle = turn


def store_box_pose(sprite: arcade.Sprite, position: Any, angle: Any) -> None:
    """Give the hit box of ``sprite`` (one that cannot follow it) the new pose; ``None``
    keeps a value."""
    box: Any = sprite._hit_box
    if position is not None:
        box._position = position
    if angle is not None:
        box._angle = angle
    box._adjusted_cache_dirty = True


class ListSlots(NamedTuple):
    """The rows of a pose mirror's sprites that one sprite list holds, and their slots."""

    sprite_list: arcade.SpriteList[Any]
    slot_dict: dict[Any, int]
    """The list's ``sprite_slot`` dict when the rows were found (replaced by a shallow clear)."""
    rows: IntArray
    slots: IntArray
    """``slots[k]`` is the list's slot of the sprite of row ``rows[k]``."""
    row_span: IntArray | slice
    """:attr:`rows`, or the slice standing for them when they are consecutive."""
    slot_span: IntArray | slice
    """:attr:`slots`, or the slice standing for them when they are consecutive."""

    def current(self) -> bool:
        """Whether the list still has the slot dict the rows were found with."""
        return self.sprite_list.sprite_slot is self.slot_dict


def slots_in(
    sprite_list: arcade.SpriteList[Any],
    sprites: Sequence[arcade.Sprite],
    eligible: NDArray[np.bool_],
) -> ListSlots:
    """The rows of ``sprites`` held by ``sprite_list`` (among ``eligible`` ones), and their slots.

    A sprite can name a list that no longer holds it (after ``clear(deep=False)``):
    it has no slot there and is left out.
    """
    slot_of = sprite_list.sprite_slot.get
    slots = np.fromiter(map(slot_of, sprites, repeat(-1)), np.intp, count=len(sprites))
    rows = np.flatnonzero((slots >= 0) & eligible)
    slots = slots[rows]
    return ListSlots(
        sprite_list, sprite_list.sprite_slot, rows, slots, as_slice(rows), as_slice(slots)
    )


def store_in_sprite_list(
    entry: ListSlots,
    sprites: Sequence[arcade.Sprite],
    xy: FloatArray,
    angle: FloatArray,
    moved: NDArray[np.bool_],
    turned: NDArray[np.bool_],
) -> None:
    """Update a sprite list's buffer (and spatial hash) for its rows that moved or turned.

    ``xy``, ``angle``, ``moved`` and ``turned`` are indexed by row of ``sprites``.
    """
    sprite_list, _, rows, slots, row_span, slot_span = entry
    # Usually a list holds the world's sprites in the world's order, in consecutive
    # slots: then slices stand for rows and slots, and numpy copies blocks.
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


# --- sprite_lists records: joins, leaves and setter calls ------------------------------

_membership_changes = [0]
"""How many times a :class:`Record` list was changed (any sprite, any world)."""


def membership_changes() -> int:
    """How many times any sprite joined or left a sprite list (of the watched sprites)."""
    return _membership_changes[0]


class Record(list[Any]):
    """A watched ``sprite_lists``: it counts its changes in ``_membership_changes``
    (see :func:`watch_memberships`).

    Arcade changes ``sprite.sprite_lists`` exactly when the sprite joins or leaves a
    sprite list, the only way its slot in a list can change besides
    ``SpriteList.clear(deep=False)``; so a pose mirror keeps every list's rows and
    slots while the count stands. While its class is :class:`_Armed`, the record also
    reports the next iteration over it to the touch logs in :attr:`logs`.
    """

    __slots__ = ("__weakref__", "logs")

    logs: list[dict[int, Record]]
    """The touch logs of the pose mirrors holding this sprite."""


def _counted(name: str) -> Any:
    """The ``list`` method ``name``, counting a change in ``_membership_changes`` first."""
    method = getattr(list, name)

    def counted(self: list[Any], *args: Any) -> Any:
        _membership_changes[0] += 1
        return method(self, *args)

    counted.__name__ = name
    return counted


for _name in ("append", "extend", "insert", "remove", "pop", "clear", "__setitem__", "__delitem__"):
    setattr(Record, _name, _counted(_name))


class _Armed(Record):
    """A :class:`Record` waiting for its sprite's next pose, size or list change.

    Every Arcade setter that changes a sprite iterates ``sprite.sprite_lists``; the
    first such iteration notes the record in each touch log and turns it back into a
    plain :class:`Record` until a pose mirror re-arms it.
    """

    __slots__ = ()

    def __iter__(self) -> Iterator[Any]:
        self.__class__ = Record  # type: ignore[assignment]
        for log in self.logs:
            log[id(self)] = self
        return list.__iter__(self)


_SHARED: dict[int, weakref.ref[Record]] = {}
"""Records of the sprites held by more than one pose mirror (several worlds), by id
(lists are unhashable); a freed record's entry is dropped when next read."""


def watch_memberships(sprite: arcade.Sprite, log: dict[int, Record]) -> Record:
    """Make ``sprite.sprite_lists`` a watched record (same lists, same order) reporting
    to ``log``, and return it."""
    memberships = sprite.sprite_lists
    if isinstance(memberships, Record) and type(memberships) in (Record, _Armed):
        watched = memberships
    else:
        watched = Record(memberships)
        watched.logs = []
        sprite.sprite_lists = watched
    if not any(known is log for known in watched.logs):
        watched.logs.append(log)
    if len(watched.logs) > 1:
        _SHARED[id(watched)] = weakref.ref(watched)
    return watched


def unwatch(record: Record, log: dict[int, Record]) -> None:
    """Stop ``record`` reporting to ``log``."""
    record.logs[:] = [known for known in record.logs if known is not log]
    if len(record.logs) < 2:
        _SHARED.pop(id(record), None)
    log.pop(id(record), None)


def arm(records: Iterable[Record | None]) -> None:
    """Make each record report the next setter call on its sprite."""
    for record in records:
        if record is not None:
            record.__class__ = _Armed


def report_shared(
    own: dict[int, Record], row_of: dict[int, int], stored: NDArray[np.bool_]
) -> None:
    """Log the ``stored`` rows' sprites that other mirrors hold too in their logs: the
    bulk stores skip Arcade's setters, so the other worlds would not see the moves.

    ``row_of`` maps the ids of the records of the mirror with log ``own`` to its rows.
    """
    if not _SHARED:
        return
    for key, ref in list(_SHARED.items()):
        record = ref()
        if record is None:
            del _SHARED[key]
            continue
        row = row_of.get(key)
        if row is not None and stored[row]:
            for log in record.logs:
                if log is not own:
                    log[id(record)] = record


def lists_of(sprites: Sequence[arcade.Sprite]) -> list[arcade.SpriteList[Any]]:
    """The sprite lists holding any of ``sprites``, each once, in first-seen order."""
    # list.copy reads the records without iterating them (which would report touches).
    return list(dict.fromkeys(chain.from_iterable(map(list.copy, map(_sprite_lists, sprites)))))


_sprite_lists = attrgetter("sprite_lists")


# --- hit boxes that follow their sprites ---------------------------------------------


def _from_sprite(name: str) -> Any:
    """A property reading the sprite's field ``name``; what is stored goes to ``_last<name>``,
    the value used once the sprite is gone (Arcade's setters store it there too)."""
    last = "_last" + name

    def get(box: RotatableHitBox) -> Any:
        fields = box.__dict__
        sprite = fields["_follow"]()
        return getattr(sprite, name) if sprite is not None else fields[last]

    def put(box: RotatableHitBox, value: Any) -> None:
        box.__dict__[last] = value

    return property(get, put)


class FollowingHitBox(RotatableHitBox):
    """A :class:`~arcade.hitbox.RotatableHitBox` whose pose is its sprite's.

    Arcade keeps a sprite's pose on the sprite and on its hit box. A following box
    reads the sprite's pose on demand and recomputes its adjusted points when the
    sprite's pose objects are not those they were computed from, so Arcade sees what
    the setters would have left; it stays correct when the sprite leaves the world.
    No ``__slots__``: an existing box changes class in place. The instance dict holds
    ``_follow`` (a weak reference to the sprite), ``_last_position``/``_last_angle``
    (used once the sprite is gone), ``_dirty``, ``_seen_position`` and ``_seen_angle``.

    >>> sprite = arcade.SpriteSolidColor(2, 2, center_x=10, center_y=0)
    >>> box = follow(sprite)
    >>> box is sprite.hit_box, type(box).__name__
    (True, 'FollowingHitBox')
    >>> sprite._position = (20.0, 0.0)  # a bulk write: nothing stored on the box
    >>> sorted(box.get_adjusted_points())
    [(19.0, -1.0), (19.0, 1.0), (21.0, -1.0), (21.0, 1.0)]
    """

    _position = _from_sprite("_position")
    _angle = _from_sprite("_angle")

    @property
    def _adjusted_cache_dirty(self) -> bool:
        fields = self.__dict__
        if fields["_dirty"]:
            return True
        sprite = fields["_follow"]()
        return sprite is not None and (
            sprite._position is not fields["_seen_position"]
            or sprite._angle is not fields["_seen_angle"]
        )

    @_adjusted_cache_dirty.setter
    def _adjusted_cache_dirty(self, value: bool) -> None:
        fields = self.__dict__
        fields["_dirty"] = value
        if not value:
            # The points were just computed from the sprite's current pose objects.
            sprite = fields["_follow"]()
            if sprite is not None:
                fields["_seen_position"] = sprite._position
                fields["_seen_angle"] = sprite._angle


def follow(sprite: arcade.Sprite) -> FollowingHitBox | None:
    """Make ``sprite``'s hit box a :class:`FollowingHitBox` (in place); None if it cannot.

    Only a box of exactly ``RotatableHitBox`` is switched (a game's own subclass keeps
    its behaviour), and a box already following another sprite is left alone.
    """
    box: Any = sprite._hit_box
    if type(box) is FollowingHitBox:
        following: FollowingHitBox | None = box if box.__dict__["_follow"]() is sprite else None
        return following
    if type(box) is not RotatableHitBox:
        return None
    fields = box.__dict__
    # The properties answer for these from now on.
    fields.pop("_adjusted_cache_dirty", None)
    fields["_last_position"] = fields.pop("_position", sprite._position)
    fields["_last_angle"] = fields.pop("_angle", sprite._angle)
    fields["_follow"] = weakref.ref(sprite)
    fields["_dirty"] = True
    fields["_seen_position"] = fields["_seen_angle"] = None
    box.__class__ = FollowingHitBox
    return cast(FollowingHitBox, box)


def can_follow(box: Any) -> bool:
    """Whether ``box`` is of the one class :func:`follow` switches."""
    return type(box) is RotatableHitBox

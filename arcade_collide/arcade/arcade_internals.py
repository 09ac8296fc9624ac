"""The one module that touches Arcade's private fields or changes classes at run time.

Arcade's setters update the hit box, every sprite list's buffer and spatial hash one
sprite at a time; with the fields below the pose mirror (:mod:`.pose_mirror`) does that
work in bulk:

* sprites: ``_position``, ``_angle``, ``_width``, ``_height``, ``_hit_box``;
  ``sprite_lists`` is replaced by a list subclass that counts its changes, tells
  listeners the lists joined and reports the next setter call (:class:`Record`,
  :class:`_Armed`);
* hit boxes: a sprite's ``RotatableHitBox`` becomes a
  :class:`~.following_boxes.FollowingHitBox` (a class switch) that reads the sprite's
  pose (:mod:`.following_boxes`, the one other module using private names), or gets
  ``_position``, ``_angle`` and ``_adjusted_cache_dirty`` written;
* sprite lists: ``_sprite_pos_angle_data``, ``_sprite_pos_angle_changed``,
  ``sprite_slot`` and ``spatial_hash.move``; the methods of Arcade's ``SpriteList``
  that change its members are wrapped, once, to tell the listeners of a list a world
  watches who joined and left (:func:`watch_list`).

These were written for, and are tested with, Arcade 3.3. At import the module checks
``arcade.version.VERSION``: for any other version it uses Arcade's public getters and
setters only (:func:`use_private_fields`), which is slower and never wrong. Membership
watching (records and watched lists) relies on public behaviour only (a sprite list's
methods, ``sprite.sprite_lists``) and is on for every version.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING, Any

import arcade
import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from arcade_collide.arcade.lifetime import MembershipListener
    from arcade_collide.arcade.list_slots import ListSlots

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
_WIDTH: attrgetter[Any]
_HEIGHT: attrgetter[Any]
_STAMP: attrgetter[Any]
hit_box_of: attrgetter[Any]
"""``hit_box_of(sprite)``: the hit box ``sprite`` holds now."""
_fast_classes: dict[type, bool] = {}


def use_private_fields(enabled: bool) -> None:
    """Read sprites through their private fields and allow bulk writes (``enabled``), or
    use Arcade's public getters and setters only.

    Chosen at import from Arcade's version; tests call it to run the public paths. Call
    it before any CollisionWorld is created: a world keeps the choice it was made with.
    """
    global PRIVATE, _POSITION, _ANGLE, _SIZE, _WIDTH, _HEIGHT, _STAMP, hit_box_of
    PRIVATE = enabled
    prefix = "_" if enabled else ""
    _POSITION, _ANGLE, hit_box_of = (
        attrgetter(prefix + name) for name in ("position", "angle", "hit_box")
    )
    _SIZE = attrgetter(prefix + "width", prefix + "height")
    _WIDTH, _HEIGHT = attrgetter(prefix + "width"), attrgetter(prefix + "height")
    _STAMP = attrgetter(*(prefix + name for name in ("position", "angle", "width", "height")))
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


def size_of(sprite: arcade.Sprite) -> tuple[Any, Any]:
    """The sprite's ``(width, height)`` as it holds them.

    >>> size_of(arcade.SpriteSolidColor(4, 6))
    (4.0, 6.0)
    """
    size: tuple[Any, Any] = _SIZE(sprite)
    return size


def read_sizes(sprites: Sequence[arcade.Sprite]) -> FloatArray:
    """The sprites' ``(width, height)`` as an ``(N, 2)`` array: a derived shape is
    rebuilt when they change.

    >>> read_sizes([arcade.SpriteSolidColor(4, 6)]).tolist()
    [[4.0, 6.0]]
    """
    n = len(sprites)
    size = np.fromiter(chain.from_iterable(map(_SIZE, sprites)), np.float64, count=2 * n)
    return size.reshape(n, 2)


Stamps = tuple[list[Any], list[Any], list[Any], list[Any]]
"""The position, angle, width and height objects of some sprites (:func:`stamps`)."""


def stamps(sprites: Sequence[arcade.Sprite]) -> Stamps:
    """The sprites' position, angle, width and height objects, a list of each.

    Two results compare equal (``==`` on lists and tuples: identity, then value)
    exactly when no sprite's pose or size value changed in between.

    >>> sprite = arcade.SpriteSolidColor(4, 4)
    >>> before = stamps([sprite])
    >>> stamps([sprite]) == before
    True
    >>> sprite.angle = 10.0
    >>> [now == then for now, then in zip(stamps([sprite]), before)]
    [True, False, True, True]
    """
    return (
        list(map(_POSITION, sprites)),
        list(map(_ANGLE, sprites)),
        list(map(_WIDTH, sprites)),
        list(map(_HEIGHT, sprites)),
    )


def stamp_of(sprite: arcade.Sprite) -> tuple[Any, Any, Any, Any]:
    """One sprite's position, angle, width and height objects (its row of :func:`stamps`).

    >>> sprite = arcade.SpriteSolidColor(4, 4)
    >>> before = stamp_of(sprite)
    >>> sprite.center_x = 1.0
    >>> stamp_of(sprite) == before
    False
    """
    stamp: tuple[Any, Any, Any, Any] = _STAMP(sprite)
    return stamp


def stamp_reader() -> Callable[[arcade.Sprite], tuple[Any, Any, Any, Any]]:
    """:func:`stamp_of` as one C-level getter, for a caller that reads many stamps
    (fields chosen now: see :func:`use_private_fields`).

    >>> sprite = arcade.SpriteSolidColor(4, 4)
    >>> stamp_reader()(sprite) == stamp_of(sprite)
    True
    """
    return _STAMP


def stamps_of(sprites: Iterable[arcade.Sprite]) -> list[tuple[Any, Any, Any, Any]]:
    """:func:`stamp_of` of each sprite.

    >>> sprite = arcade.SpriteSolidColor(4, 6, center_x=1.0)
    >>> stamps_of([sprite]) == [((1.0, 0.0), 0.0, 4.0, 6.0)]
    True
    """
    return list(map(_STAMP, sprites))


def same_stamps(sprites: Sequence[arcade.Sprite], old: Stamps) -> bool:
    """Whether ``stamps(sprites) == old``, reading one field of every sprite at a time
    (a moved sprite usually shows in the first).

    >>> sprite = arcade.SpriteSolidColor(4, 4)
    >>> before = stamps([sprite])
    >>> same_stamps([sprite], before)
    True
    >>> sprite.width = 5.0
    >>> same_stamps([sprite], before)
    False
    """
    return (
        list(map(_POSITION, sprites)) == old[0]
        and list(map(_ANGLE, sprites)) == old[1]
        and list(map(_WIDTH, sprites)) == old[2]
        and list(map(_HEIGHT, sprites)) == old[3]
    )


def size_marks(sprites: Sequence[arcade.Sprite]) -> list[tuple[Any, Any]]:
    """The sprites' widths and heights, for a cheap change test.

    Two results compare equal (``==`` on lists and tuples tests identity first, then
    value) only when no sprite's size changed in between; only then can
    :func:`read_sizes` be skipped.

    >>> sprite = arcade.SpriteSolidColor(4, 4)
    >>> before = size_marks([sprite])
    >>> size_marks([sprite]) == before
    True
    >>> sprite.scale = 2.0
    >>> size_marks([sprite]) == before
    False
    """
    return list(map(_SIZE, sprites))


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


def store_in_sprite_list(
    entry: ListSlots, sprites: Sequence[arcade.Sprite], xy: FloatArray, angle: FloatArray,
    moved: NDArray[np.bool_], turned: NDArray[np.bool_], every_moved: bool, any_turned: bool,
) -> None:  # fmt: skip
    """Update a sprite list's buffer (and spatial hash) for its rows that moved or turned.

    ``xy``, ``angle``, ``moved``, ``turned`` are indexed by row of ``sprites``;
    ``every_moved``, ``any_turned`` sum up ``moved``, ``turned``."""
    sprite_list, rows, slots, row_span = entry.sprite_list, entry.rows, entry.slots, entry.row_span
    # Usually a list holds the world's sprites in the world's order, mostly in
    # consecutive slots: numpy copies that block and gathers the few rows left.
    moves = moved[row_span]
    turns = turned[row_span]
    if not (every_moved or moves.any() or (any_turned and turns.any())):
        return
    # A numpy view of the list's array('f') buffer: 4 floats per slot, x y depth angle.
    # It is dropped before returning, so the list can still grow its buffer later.
    data = np.frombuffer(sprite_list._sprite_pos_angle_data, dtype=np.float32).reshape(-1, 4)
    rest = len(entry.rest_rows)
    if every_moved or moves.all():
        data[entry.block_slots, 0:2] = xy[entry.block_rows]
        if rest:
            data[entry.rest_slots, 0:2] = xy[entry.rest_rows]
    else:
        data[slots[moves], 0:2] = xy[rows[moves]]
    if any_turned and turns.all():
        data[entry.block_slots, 3] = angle[entry.block_rows]
        if rest:
            data[entry.rest_slots, 3] = angle[entry.rest_rows]
    elif any_turned and turns.any():
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


class TouchLog(dict[int, "Record"]):
    """A pose mirror's log: the records that reported a touch by ``id`` (``regrouped``: the
    ids of those that changed; ``touches``: how many reports it ever took, so that a
    report that refills a place another entry left shows). Records hold their logs
    weakly: a sprite outliving a world keeps no log alive."""

    __slots__ = ("__weakref__", "regrouped", "touches")

    def __init__(self) -> None:
        super().__init__()
        self.regrouped: set[int] = set()
        self.touches = 0


class Record(list[Any]):
    """A watched ``sprite_lists``: it counts its changes in ``_membership_changes``
    (see :func:`watch_memberships`) and tells its :attr:`listeners` the lists joined.

    Arcade changes ``sprite.sprite_lists`` exactly when the sprite joins or leaves a
    sprite list, the only way its slot in a list can change besides
    ``SpriteList.clear(deep=False)``; so each change also notes the record in the
    ``regrouped`` of the touch logs in :attr:`logs`, whose pose mirrors look up that
    sprite's slots again (:mod:`.list_slots`). While its class is :class:`_Armed`, the
    record also reports the next iteration over it to those logs.
    """

    __slots__ = ("__weakref__", "listeners", "logs")

    logs: list[weakref.ref[TouchLog]]
    """The touch logs of the pose mirrors holding this sprite."""
    listeners: list[MembershipListener]
    """The worlds' listeners told of the lists this sprite joins."""

    def append(self, sprite_list: Any) -> None:
        _note_change(self)
        list.append(self, sprite_list)
        for listener in self.listeners:
            listener.joined_list(sprite_list)


def _note_change(record: Record) -> None:
    """Count a change of ``record`` and note it in its logs' ``regrouped``."""
    _membership_changes[0] += 1
    for log in [ref() for ref in record.logs]:
        if log is not None:
            log.regrouped.add(id(record))


def _counted(name: str) -> Any:
    """The ``list`` method ``name``, noting a change (:func:`_note_change`) first."""
    method = getattr(list, name)

    def counted(self: Record, *args: Any) -> Any:
        _note_change(self)
        return method(self, *args)

    counted.__name__ = name
    return counted


for _name in ("extend", "insert", "remove", "pop", "clear", "__setitem__", "__delitem__"):
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
        for ref in self.logs:
            log = ref()
            if log is not None:
                log[id(self)] = self
                log.touches += 1
        return list.__iter__(self)


_SHARED: dict[int, weakref.ref[Record]] = {}
"""Records of the sprites held by more than one pose mirror (several worlds), by id
(lists are unhashable); a freed record's entry is dropped when next read."""


def _record_of(sprite: arcade.Sprite) -> Record:
    """``sprite.sprite_lists`` as a :class:`Record` (same lists, same order)."""
    memberships = sprite.sprite_lists
    if isinstance(memberships, Record) and type(memberships) in (Record, _Armed):
        return memberships
    record = Record(memberships)
    record.logs = []
    record.listeners = []
    sprite.sprite_lists = record
    return record


def watch_memberships(sprite: arcade.Sprite, log: TouchLog) -> Record:
    """Make ``sprite.sprite_lists`` a watched record reporting to ``log``, and return it."""
    logs = (watched := _record_of(sprite)).logs
    logs[:] = [ref for ref in logs if ref() is not None]
    if not any(ref() is log for ref in logs):
        logs.append(weakref.ref(log))
    if len(logs) > 1:
        _SHARED[id(watched)] = weakref.ref(watched)
    return watched


def unwatch(record: Record, log: TouchLog) -> None:
    """Stop ``record`` reporting to ``log``."""
    record.logs[:] = [ref for ref in record.logs if ref() not in (log, None)]
    if len(record.logs) < 2:
        _SHARED.pop(id(record), None)
    log.pop(id(record), None)
    log.regrouped.discard(id(record))


def arm(records: Iterable[Record | None]) -> None:
    """Make each record report the next setter call on its sprite."""
    for record in records:
        if record is not None:
            record.__class__ = _Armed


def report_shared(own: TouchLog, row_of: dict[int, int], stored: NDArray[np.bool_]) -> None:
    """Log the ``stored`` rows' sprites that other mirrors hold too in their logs: the
    bulk stores skip Arcade's setters, so the other worlds would not see the moves.

    ``row_of`` maps the ids of the records of the mirror with log ``own`` to its rows.
    """
    if not _SHARED:
        return
    for key, shared in list(_SHARED.items()):
        record = shared()
        if record is None:
            del _SHARED[key]
            continue
        row = row_of.get(key)
        if row is not None and stored[row]:
            for ref in record.logs:
                if (log := ref()) is not None and log is not own:
                    log[id(record)] = record
                    log.touches += 1


# --- sprite lists that tell their listeners who joined and left -----------------------


def listen(sprite: arcade.Sprite, listener: MembershipListener) -> list[Any]:
    """Tell ``listener`` of every list ``sprite`` joins from now on; return the lists
    it is in now. Listeners that :func:`~.lifetime.RemovalHook.gone` are dropped."""
    record = _record_of(sprite)
    listeners = record.listeners
    listeners[:] = [known for known in listeners if not getattr(known, "gone", False)]
    if not any(known is listener for known in listeners):
        listeners.append(listener)
    return list.copy(record)


def unlisten(sprite: arcade.Sprite, listener: MembershipListener) -> None:
    """Undo :func:`listen`."""
    listeners = getattr(sprite.sprite_lists, "listeners", [])
    listeners[:] = [known for known in listeners if known is not listener]


_LIST_LISTENERS: dict[int, tuple[weakref.ref[Any], list[MembershipListener]]] = {}
"""The listeners of each watched sprite list, by ``id``, with a weak reference to the
list (which tells it from a later list at the same address, and drops the entry once
the list is freed). Kept here rather than on the list: a new instance attribute, like a
class switch, turns the list's attribute storage into a dictionary, and every Arcade
setter call of every sprite in the list then looks its attributes up the slow way."""


def _listeners_of(sprite_list: Any) -> list[MembershipListener]:
    """The listeners ``sprite_list`` tells of its changes (none: an empty list)."""
    entry = _LIST_LISTENERS.get(id(sprite_list))
    if entry is None or entry[0]() is not sprite_list:
        return []
    return entry[1]


def _tell(sprite_list: Any, left: list[Any], joined: list[Any]) -> None:
    """Tell ``sprite_list``'s listeners who left (if not back in it) and joined; every
    listener hears it before the first exception one raised is re-raised."""
    listeners = _listeners_of(sprite_list)
    if not listeners:
        return
    left = [sprite for sprite in left if sprite not in sprite_list]
    errors = []
    for listener in list(listeners):
        try:
            listener.list_changed(sprite_list, left, joined)
        except Exception as error:
            errors.append(error)
    if errors:
        raise errors[0]


def _watching(cls: Any) -> None:
    """Make each of ``cls``'s methods that changes a sprite list's members (Arcade's
    ``SpriteList``) tell the list's listeners, once Arcade's method is done (so an
    exception leaves the list consistent). Done once; a list that no world watches
    then pays one dictionary lookup per change."""
    if cls.__dict__.get("_arcade_collide_tells"):
        return
    append, insert, setitem = cls.append, cls.insert, cls.__setitem__
    remove, pop, clear = cls.remove, cls.pop, cls.clear

    # Each tells only a list that has an entry (a list no world watches pays the lookup).
    def watched_append(self: Any, sprite: Any) -> None:
        append(self, sprite)
        if id(self) in _LIST_LISTENERS:
            _tell(self, [], [sprite])

    def watched_insert(self: Any, index: int, sprite: Any) -> None:
        insert(self, index, sprite)
        if id(self) in _LIST_LISTENERS:
            _tell(self, [], [sprite])

    def watched_setitem(self: Any, index: int, sprite: Any) -> None:
        replaced = self.sprite_list[index]
        setitem(self, index, sprite)
        if id(self) in _LIST_LISTENERS:
            _tell(self, [replaced], [sprite])

    def watched_remove(self: Any, sprite: Any) -> None:
        remove(self, sprite)
        if id(self) in _LIST_LISTENERS:
            _tell(self, [sprite], [])

    def watched_pop(self: Any, index: int = -1) -> Any:
        sprite = pop(self, index)
        if id(self) in _LIST_LISTENERS:
            _tell(self, [sprite], [])
        return sprite

    def watched_clear(self: Any, *, capacity: int | None = None, deep: bool = True) -> None:
        if id(self) not in _LIST_LISTENERS:
            clear(self, capacity=capacity, deep=deep)
            return
        held = list(self.sprite_list)
        clear(self, capacity=capacity, deep=deep)
        _tell(self, held, [])

    methods: list[tuple[str, Any, Any]] = [
        ("append", watched_append, append),
        ("insert", watched_insert, insert),
        ("__setitem__", watched_setitem, setitem),
        ("remove", watched_remove, remove),
        ("pop", watched_pop, pop),
        ("clear", watched_clear, clear),
    ]
    for name, method, original in methods:
        setattr(cls, name, functools.update_wrapper(method, original))
    cls._arcade_collide_tells = True


def _forget(key: int, ref: weakref.ref[Any]) -> None:
    """Drop the entry of a freed sprite list (at ``key``, ``ref`` its weak reference)."""
    entry = _LIST_LISTENERS.get(key)
    if entry is not None and entry[0] is ref:
        del _LIST_LISTENERS[key]


def watch_list(sprite_list: arcade.SpriteList[Any], listener: MembershipListener) -> None:
    """Make ``sprite_list`` tell ``listener`` of the sprites that join and leave it, once
    each of Arcade's methods that changes it is done (until :func:`unwatch_list`).

    The list keeps its class and attributes (see :data:`_LIST_LISTENERS`): Arcade's
    ``SpriteList`` methods that change members tell the listeners of the list they
    change (:func:`_watching`), so a game's subclass is heard when its own methods
    call them, as its ``super()`` calls do.
    """
    _watching(arcade.SpriteList)
    key = id(sprite_list)
    entry = _LIST_LISTENERS.get(key)
    if entry is None or entry[0]() is not sprite_list:
        entry = (weakref.ref(sprite_list, lambda ref: _forget(key, ref)), [])
        _LIST_LISTENERS[key] = entry
    listeners = entry[1]
    listeners[:] = [known for known in listeners if not getattr(known, "gone", False)]
    if not any(known is listener for known in listeners):
        listeners.append(listener)


def unwatch_list(sprite_list: arcade.SpriteList[Any], listener: MembershipListener) -> None:
    """Stop ``sprite_list`` telling ``listener``."""
    listeners = _listeners_of(sprite_list)
    listeners[:] = [known for known in listeners if known is not listener]
    if not listeners:
        _LIST_LISTENERS.pop(id(sprite_list), None)

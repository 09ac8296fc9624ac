"""The one module that reads esper's private state; elsewhere only public esper API is used.

esper 3.9 keeps the current world's state in module globals that ``switch_world`` swaps.
Reading five of them saves per-tick work; each use has a public fallback that costs
more but gives the same answers (except :func:`entity_counter`, see there). One
function, :func:`start_entity_ids_at`, writes one of them, for tests. The private
reads are used only when the installed esper is the version this module was written
for (:data:`WRITTEN_FOR`); any other version gets the fallbacks. Tests switch the
fallbacks on with :func:`use_private_state`.

Private names read (esper 3.9):

* ``_entity_count``: the id counter, replaced by ``clear_database`` (and written by
  :func:`start_entity_ids_at`);
* ``_dead_entities``: entities ``delete_entity`` marked dead but has not removed yet;
* ``_components``: per component type, the set of entities holding one;
* ``_entities``: each entity's components (:func:`pair_gone_check`, :func:`components_of`);
* ``_components`` is also written: :class:`ComponentWatch` puts a set that logs its
  changes (:class:`LoggedSet`) in place of the sets of the types it watches;
* ``_context_map``: the saved state of the worlds not current, by name; in each
  saved tuple, item 0 is the id counter and item 9 the ``process_times`` dict
  (:func:`world_ended`);
* ``_cache_dirty`` and ``_clear_cache_now``: :class:`ComponentWatch` empties esper's
  query cache once a change made it stale, as esper's next query would (the public
  fallback leaves it to that query).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from collections.abc import Set as AbstractSet
from functools import partial
from itertools import count
from types import MappingProxyType
from typing import Any, NamedTuple

import esper

WRITTEN_FOR = "3.9"
"""The esper release (major.minor) whose private state this module reads."""


def _written_for() -> bool:
    return str(getattr(esper, "__version__", "")).split(".")[:2] == WRITTEN_FOR.split(".")


_private = _written_for()


def use_private_state(enabled: bool) -> bool:
    """Read esper's private state (True) or use the public fallbacks (False).

    Reading private state is only possible on esper :data:`WRITTEN_FOR`; asking for it
    on another version keeps the fallbacks. Returns the previous setting.
    """
    global _private
    previous = _private
    _private = enabled and _written_for()
    return previous


def private_state_in_use() -> bool:
    """Whether esper's private state is read (False: the public fallbacks)."""
    return _private


def world_token() -> object:
    """An object that stays the same for as long as the current esper world exists.

    This is the world's public ``esper.process_times`` dict, made once per world and
    kept through ``clear_database``; holding it keeps nothing else of the world alive
    (its ``event_registry`` would keep handler references alive past interpreter exit).
    """
    return esper.process_times


def entity_counter() -> object | None:
    """esper's id counter of the current world, which ``clear_database`` replaces.

    None with the public fallbacks: esper has no public sign of ``clear_database``, so
    there a cleared world is seen as one whose entities were all deleted.
    """
    return getattr(esper, "_entity_count") if _private else None  # noqa: B009


class WorldMark(NamedTuple):
    """One life of an esper world: from its creation (or last ``clear_database``) to
    its deletion (or next ``clear_database``)."""

    name: str
    """The world's name."""
    token: object
    """Its :func:`world_token`, new when the world is deleted and created again."""
    counter: object | None
    """Its :func:`entity_counter`, new when the world is cleared (None: not known)."""


def world_mark() -> WorldMark:
    """The :class:`WorldMark` of the current esper world as it is now.

    >>> mark = world_mark()
    >>> world_ended(mark)
    False
    """
    return WorldMark(esper.current_world, world_token(), entity_counter())


_SAVED_COUNTER = 0
_SAVED_TOKEN = 9
"""Positions of the id counter and ``process_times`` in a world's saved state tuple."""


def world_ended(mark: WorldMark) -> bool:
    """Whether the life of a world that ``mark`` was taken in has ended: the world was
    deleted (and perhaps created again) or cleared, answering the same whichever world
    is current.

    With the public fallbacks a cleared world cannot be told apart (see
    :func:`entity_counter`), and checking a world that is not current switches to it
    and back.
    """
    if esper.current_world == mark.name:
        return esper.process_times is not mark.token or _cleared(mark, entity_counter())
    if _private:
        saved_worlds: dict[str, tuple[Any, ...]] = getattr(esper, "_context_map")  # noqa: B009
        saved = saved_worlds.get(mark.name)
        return (
            saved is None
            or saved[_SAVED_TOKEN] is not mark.token
            or _cleared(mark, saved[_SAVED_COUNTER])
        )
    if mark.name not in esper.list_worlds():
        return True
    current = esper.current_world
    esper.switch_world(mark.name)
    try:
        return esper.process_times is not mark.token
    finally:
        esper.switch_world(current)


def _cleared(mark: WorldMark, counter: object | None) -> bool:
    # A counter not known (the public fallbacks, then or now) tells nothing.
    return counter is not mark.counter and counter is not None and mark.counter is not None


class WorldWatch(NamedTuple):
    """A cheap test that a world's life may have ended, and the exact one.

    While ``namespace.get(key) is value`` the world is alive (current, or left as it
    was); otherwise ``ended()`` answers. Event delivery runs the first test after every
    handler call, inline, so it costs a dictionary read rather than a function call.
    """

    namespace: dict[str, Any]
    key: str
    value: object
    ended: Callable[[], bool]


def world_watch(mark: WorldMark) -> WorldWatch:
    """The :class:`WorldWatch` of the life of a world that ``mark`` was taken in.

    The watched value is one of esper's module globals, which ``switch_world`` swaps:
    the id counter (which ``clear_database`` also replaces) or, with the public
    fallbacks, ``process_times``.

    >>> namespace, key, value, ended = world_watch(world_mark())
    >>> namespace.get(key) is value, ended()
    (True, False)
    """
    ended = partial(world_ended, mark)
    if _private and mark.counter is not None:
        return WorldWatch(vars(esper), "_entity_count", mark.counter, ended)
    return WorldWatch(vars(esper), "process_times", mark.token, ended)


def watch_away(watch: WorldWatch, name: str) -> WorldWatch:
    """``watch``, of world ``name``, for use while another world is current.

    With the private state the watched value is the saved state esper keeps for world
    ``name`` while it is not current (a new tuple whenever the world is switched to and
    left again, cleared or deleted), so the cheap test stays a dictionary read.
    """
    if not _private:
        return watch
    saved_worlds: dict[str, Any] = getattr(esper, "_context_map")  # noqa: B009
    return WorldWatch(saved_worlds, name, saved_worlds.get(name), watch.ended)


def start_entity_ids_at(first: int) -> None:
    """Make the current world's next entity ids count up from ``first``.

    esper has no public way to do this; tests use it to reach large ids without
    creating billions of entities. Like ``clear_database``, it replaces the world's id
    counter, so a CollisionSystem that already ran in the world starts afresh.

    Raises:
        RuntimeError: the installed esper is not :data:`WRITTEN_FOR`.

    >>> esper.switch_world("ids-doctest")
    >>> start_entity_ids_at(2**62)
    >>> esper.create_entity()
    4611686018427387904
    >>> esper.switch_world("default"); esper.delete_world("ids-doctest")
    """
    if not _written_for():
        raise RuntimeError(f"start_entity_ids_at needs esper {WRITTEN_FOR}")
    setattr(esper, "_entity_count", count(start=first))  # noqa: B010


def pending_deletions(candidates: Iterable[int]) -> Collection[int]:
    """Entities marked dead (``esper.delete_entity``) that esper has not removed yet.

    With the private state this is esper's own set (it changes as entities die, and may
    hold entities beyond ``candidates``); the fallback asks ``esper.entity_exists``
    about each of ``candidates`` (entities the world knows) and returns a new set.

    >>> sorted(pending_deletions([]))
    []
    """
    if _private:
        dead: set[int] = getattr(esper, "_dead_entities")  # noqa: B009
        return dead
    exists = esper.entity_exists
    return frozenset(e for e in candidates if not exists(e))


def components_of(entity: int) -> Mapping[type[Any], Any]:
    """The components of ``entity`` by type (an entity marked dead keeps them until
    esper removes it); empty when the world has no such entity.

    With the private state this is esper's own dict of the entity, not to be changed;
    the fallback builds one from ``esper.components_for_entity``.

    >>> entity = esper.create_entity(3.5)
    >>> dict(components_of(entity)), dict(components_of(entity + 1))
    ({<class 'float'>: 3.5}, {})
    """
    if _private:
        found: Mapping[type[Any], Any] = getattr(esper, "_entities").get(entity, _NO_COMPONENTS)  # noqa: B009
        return found
    try:
        held: tuple[Any, ...] = esper.components_for_entity(entity)
    except KeyError:
        return _NO_COMPONENTS
    return {type(c): c for c in held}


_NO_COMPONENTS: Mapping[type[Any], Any] = MappingProxyType({})


def holders(component_type: type[Any]) -> Collection[int]:
    """The entities (dead ones still pending included) holding a ``component_type``."""
    if _private:
        sets: dict[type[Any], set[int]] = getattr(esper, "_components")  # noqa: B009
        return sets.get(component_type, frozenset())
    return frozenset(entity for entity, _ in esper.get_component(component_type))


class PairGone:
    """A check, for objects with entity ids ``a`` and ``b``, that either no longer exists
    in the esper world it was made in (see :func:`pair_gone_check`)."""

    __slots__ = ("dead", "entities", "world")

    def __init__(
        self, world: str, entities: Collection[int] | None, dead: Collection[int]
    ) -> None:
        self.world = world
        self.entities = entities
        """The world's live entities (esper's own dict, edited in place), or None when
        the check goes through esper's public functions."""
        self.dead = dead
        """The world's entities deleted but not yet cleared away (esper's own set)."""

    def __call__(self, pair: Any) -> bool:
        entities, dead = self.entities, self.dead
        if entities is None:
            return _gone_in_world(self.world, pair)
        a, b = pair.a, pair.b
        return a not in entities or b not in entities or a in dead or b in dead


def pair_gone_check() -> PairGone:
    """A :class:`PairGone` check of the current esper world, answering the same whichever
    world is current when it runs.

    With the private state it holds the world's ``_entities`` and ``_dead_entities``,
    which esper 3.9 edits in place for the world's whole life (a delivery loop may test
    them itself); the fallback switches to the world it was made in around
    ``esper.entity_exists``.

    >>> from typing import NamedTuple
    >>> class Pair(NamedTuple):
    ...     a: int
    ...     b: int
    >>> gone = pair_gone_check()
    >>> entity = esper.create_entity()
    >>> gone(Pair(entity, entity)), gone(Pair(entity, entity + 1))
    (False, True)
    """
    world = esper.current_world
    if not _private:
        return PairGone(world, None, _NOTHING)
    entities: dict[int, Any] = getattr(esper, "_entities")  # noqa: B009
    dead: set[int] = getattr(esper, "_dead_entities")  # noqa: B009
    return PairGone(world, entities, dead)


def _gone_in_world(world: str, pair: Any) -> bool:
    current = esper.current_world
    esper.switch_world(world)
    try:
        return not (esper.entity_exists(pair.a) and esper.entity_exists(pair.b))
    finally:
        esper.switch_world(current)


_NOTHING: frozenset[int] = frozenset()


class LoggedSet(set[int]):
    """One of esper's per-type entity sets that also tells its watchers (sets of entity
    ids, one per :class:`ComponentWatch`) which entities it gained or lost. esper 3.9
    changes these sets only by ``add`` and ``discard``."""

    __slots__ = ("watchers",)

    def __init__(self, entities: Iterable[int], watchers: list[set[int]]) -> None:
        super().__init__(entities)
        self.watchers = watchers

    # esper calls these once per component of every entity created or deleted: they
    # call the set's methods directly (``super()`` would make an object each time).

    def add(self, entity: int, /) -> None:
        _set_add(self, entity)
        for changed in self.watchers:
            changed.add(entity)

    def discard(self, entity: Any, /) -> None:
        _set_discard(self, entity)
        for changed in self.watchers:
            changed.add(entity)

    def remove(self, entity: Any, /) -> None:
        _set_remove(self, entity)
        for changed in self.watchers:
            changed.add(entity)


_set_add = set.add
_set_discard = set.discard
_set_remove = set.remove


class ComponentWatch:
    """The entities of the current esper world that gained, lost or replaced a component
    of the watched types, or were marked dead, since the last :meth:`take`.

    It replaces esper's sets of those types by :class:`LoggedSet` copies. esper drops a
    type's set when it empties and makes a plain one when the type comes back; the
    watch swaps that one too, taking its members as changed. A set dropped while not
    empty (``clear_database``), another world, or the public fallbacks make
    :meth:`take` answer None: not known, look at every entity.

    A :meth:`take` that found changes also empties esper's query cache when a change
    made it stale: esper clears it only at the next query, which a world kept up to
    date from the watch may never make, and until then the cached lists keep the
    components of deleted entities (and their pool rows) alive.

    Args:
        types: The component types to watch.

    >>> class Tag: ...
    >>> watch = ComponentWatch(Tag)
    >>> watch.take() is None  # the first look installs the watch
    True
    >>> entity = esper.create_entity(Tag())
    >>> watch.take() == {entity}, len(watch.take())
    (True, 0)
    >>> esper.delete_entity(entity, immediate=True)
    >>> watch.take() == {entity}
    True
    """

    def __init__(self, *types: type[Any]) -> None:
        self._types = types
        self._changed: set[int] = set()
        self._sets: dict[type[Any], LoggedSet] = {}
        self._world: tuple[object, object] | None = None
        self._dead: frozenset[int] = frozenset()
        self._namespace = vars(esper)
        self._seen: tuple[object, object, tuple[tuple[type[Any], object], ...]] = (
            None, None, ()
        )

    def take(self) -> AbstractSet[int] | None:
        """The entities changed since the last call (and forget them), or None: not
        known, so every entity may have changed."""
        if not _private:
            return None
        namespace = self._namespace
        sets: dict[type[Any], set[int]] = namespace["_components"]
        if (
            not self._changed
            and sets is self._seen[0]
            and namespace["_entity_count"] is self._seen[1]
            and not namespace["_dead_entities"]
            and not self._dead
        ):
            # Nothing logged, and each watched type still has the set seen last time.
            get = sets.get
            for t, seen in self._seen[2]:
                if get(t) is not seen:
                    break
            else:
                return _NOTHING
        changed = self._take(sets)
        if namespace["_cache_dirty"]:
            namespace["_clear_cache_now"]()
        seen = tuple((t, sets.get(t)) for t in self._types)
        self._seen = (sets, namespace["_entity_count"], seen)
        return changed

    def _take(self, sets: dict[type[Any], set[int]]) -> set[int] | None:
        world = (sets, getattr(esper, "_entity_count"))  # noqa: B009
        known = world == self._world and all(
            sets.get(t) is mine or not mine for t, mine in self._sets.items()
        )
        if not known:
            self._world = world
        for t in self._types:
            found = sets.get(t)
            if found is not None and found is not self._sets.get(t):
                self._adopt(sets, t, found)
        dead: set[int] = getattr(esper, "_dead_entities")  # noqa: B009
        if dead or self._dead:
            self._changed.update(dead.symmetric_difference(self._dead))
            self._dead = frozenset(dead)
        if not known:
            self._changed.clear()
            return None
        changed = set(self._changed)
        self._changed.clear()
        return changed

    def keep(self, changed: AbstractSet[int]) -> None:
        """Give back entities :meth:`take` returned, to be taken again."""
        self._changed.update(changed)

    def _adopt(self, sets: dict[type[Any], set[int]], t: type[Any], found: set[int]) -> None:
        if isinstance(found, LoggedSet):  # another watch installed it
            if not any(w is self._changed for w in found.watchers):
                found.watchers.append(self._changed)
                self._changed.update(found)
            self._sets[t] = found
            return
        # A set esper made: its members came since the type's last set emptied.
        old = self._sets.get(t)
        watchers = old.watchers if old is not None else [self._changed]
        if not any(w is self._changed for w in watchers):
            watchers.append(self._changed)
        logged = LoggedSet(found, watchers)
        sets[t] = logged
        self._sets[t] = logged
        for changed in watchers:
            changed.update(found)

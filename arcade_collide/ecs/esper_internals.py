"""The one module that reads esper's private state; elsewhere only public esper API is used.

esper 3.9 keeps the current world's state in module globals that ``switch_world`` swaps.
Reading four of them saves per-tick work; each use has a public fallback that costs
more but gives the same answers (except :func:`entity_counter`, see there). The private
reads are used only when the installed esper is the version this module was written
for (:data:`WRITTEN_FOR`); any other version gets the fallbacks. Tests switch the
fallbacks on with :func:`use_private_state`.

Private names read (esper 3.9):

* ``_entity_count``: the id counter, replaced by ``clear_database``;
* ``_dead_entities``: entities ``delete_entity`` marked dead but has not removed yet;
* ``_components``: per component type, the set of entities holding one;
* ``_entities``: each entity's components (:func:`pair_gone_check`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from functools import partial
from typing import Any

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


def holders(component_type: type[Any]) -> Collection[int]:
    """The entities (dead ones still pending included) holding a ``component_type``."""
    if _private:
        sets: dict[type[Any], set[int]] = getattr(esper, "_components")  # noqa: B009
        return sets.get(component_type, frozenset())
    return frozenset(entity for entity, _ in esper.get_component(component_type))


def pair_gone_check() -> Callable[[Any], bool]:
    """A check, for objects with entity ids ``a`` and ``b``, that either no longer exists
    in the current esper world, answering the same whichever world is current when it runs.

    With the private state it holds the world's ``_entities`` and ``_dead_entities``,
    which esper 3.9 edits in place for the world's whole life; the fallback switches to
    the world it was made in around ``esper.entity_exists``.

    >>> from typing import NamedTuple
    >>> class Pair(NamedTuple):
    ...     a: int
    ...     b: int
    >>> gone = pair_gone_check()
    >>> entity = esper.create_entity()
    >>> gone(Pair(entity, entity)), gone(Pair(entity, entity + 1))
    (False, True)
    """
    if not _private:
        return partial(_gone_in_world, esper.current_world)
    entities: dict[int, Any] = getattr(esper, "_entities")  # noqa: B009
    dead: set[int] = getattr(esper, "_dead_entities")  # noqa: B009

    def gone(pair: Any) -> bool:
        a, b = pair.a, pair.b
        return a not in entities or b not in entities or a in dead or b in dead

    return gone


def _gone_in_world(world: str, pair: Any) -> bool:
    current = esper.current_world
    esper.switch_world(world)
    try:
        return not (esper.entity_exists(pair.a) and esper.entity_exists(pair.b))
    finally:
        esper.switch_world(current)

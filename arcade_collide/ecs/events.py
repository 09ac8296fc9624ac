"""Collision events, the strongly held :class:`Subscription`, and the warning when esper
drops a weakly held handler (the rules: :mod:`arcade_collide.ecs.collision`).
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Iterable
from itertools import repeat
from types import TracebackType
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import esper

from arcade_collide.ecs.delivery import HandlerChanges
from arcade_collide.ecs.world_state import world_state
from arcade_collide.geometry.contact import Contact

if TYPE_CHECKING:
    from arcade_collide.ecs.collision import CollisionSystem

ON_COLLISION_STARTED = "on_collision_started"
"""esper event name for :class:`CollisionStarted` (``esper.set_handler(name, func)``)."""
ON_COLLISION_ENDED = "on_collision_ended"
"""esper event name for :class:`CollisionEnded`."""


class CollisionStarted(NamedTuple):
    """Two entities touch this tick and did not the tick before.

    >>> e = CollisionStarted(1, 2, Contact((1.0, 0.0), 0.5, (3.0, 4.0)), False)
    >>> e.a, e.b, e.contact.depth, e.toi
    (1, 2, 0.5, None)
    """

    a: int
    """The lower entity id."""
    b: int
    """The higher entity id."""
    contact: Contact
    """How they meet; the normal points from ``a`` towards ``b``."""
    sensor: bool
    """True when either shape is a sensor."""
    toi: float | None = None
    """When a swept shape (``Shape(swept=True)``) met the other during the tick: the
    fraction of the tick at their first touch, ``0 <= toi <= 1``, and :attr:`contact`
    is the contact at that moment (depth 0 unless they overlapped when the motion
    began, at ``toi`` 0). None for a contact found where the shapes
    are at the end of the tick, with no sweep involved (:mod:`~arcade_collide.ecs.swept`)."""


class CollisionEnded(NamedTuple):
    """Two entities touched last tick and no longer do (or one lost its shape or died).

    >>> CollisionEnded(1, 2, False)
    CollisionEnded(a=1, b=2, sensor=False)
    """

    a: int
    """The lower entity id."""
    b: int
    """The higher entity id."""
    sensor: bool
    """True when either shape was a sensor."""


_T = TypeVar("_T", bound=tuple[Any, ...])


def built(cls: type[_T], fields: Iterable[tuple[Any, ...]]) -> list[_T]:
    """One ``cls`` (a NamedTuple class) per tuple of ``fields``, in order.

    Events and contacts are built by the hundred in a tick, so this is lean:
    ``tuple.__new__`` is mapped over the field tuples, with no Python-level call per
    object and no count of the fields (each tuple of ``fields`` must hold exactly
    ``cls``'s fields, in order).

    >>> built(CollisionEnded, zip([1, 4], [2, 9], [False, True]))
    [CollisionEnded(a=1, b=2, sensor=False), CollisionEnded(a=4, b=9, sensor=True)]
    """
    return list(map(tuple.__new__, repeat(cls), fields))


class HandlerDroppedWarning(UserWarning):
    """esper dropped a collision handler nothing else referenced (see :func:`watch_handlers`).

    >>> import warnings
    >>> from arcade_collide import CollisionSystem
    >>> esper.switch_world("dropped-doctest")
    >>> collisions = CollisionSystem()  # watches the world's collision handlers
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     esper.set_handler(ON_COLLISION_ENDED, lambda event: None)  # nothing holds it
    >>> caught[0].category is HandlerDroppedWarning
    True
    >>> esper.switch_world("default"); esper.delete_world("dropped-doctest")
    """


class _WatchedHandlers(set[Any]):
    """esper's set of weak handler references for one event name, warning on silent drops.

    A removed reference that is dead was dropped by garbage collection, not by
    ``esper.remove_handler``: warn. Every removal bumps the world's handler changes.
    """

    def __init__(self, name: str, changes: HandlerChanges, refs: Any = ()) -> None:
        super().__init__(refs)
        self.name = name
        self.changes = changes

    def remove(self, ref: Any) -> None:
        super().remove(ref)
        self.changes.bump()
        # At interpreter exit every module-level handler dies: that is no mistake of the game's.
        if ref() is None and not sys.is_finalizing():
            warnings.warn(
                f"esper dropped a handler for {self.name!r}: esper keeps handlers by weak "
                "reference, so a lambda, a nested function or a method of a deleted object "
                "passed to esper.set_handler is never called. Keep a reference to it, or use "
                "CollisionSystem.subscribe(), which holds callbacks strongly.",
                HandlerDroppedWarning,
                stacklevel=3,
            )


def watch_handlers() -> None:
    """Make esper's handler sets for the collision events in the current world warn on drops.

    Existing handlers are kept. Cheap when already in place, so the
    :class:`CollisionSystem` calls it at construction and every tick (esper deletes
    an event's set when it empties and makes a plain one on the next ``set_handler``).

    >>> import warnings
    >>> watch_handlers()
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     esper.set_handler(ON_COLLISION_STARTED, lambda event: None)
    >>> caught[0].category.__name__
    'HandlerDroppedWarning'
    """
    registry = esper.event_registry
    for name in (ON_COLLISION_STARTED, ON_COLLISION_ENDED):
        refs = registry.get(name)
        if type(refs) is not _WatchedHandlers:
            changes = world_state().handler_changes
            registry[name] = _WatchedHandlers(name, changes, refs or ())


StartedHandler = Callable[[CollisionStarted], object]
EndedHandler = Callable[[CollisionEnded], object]


class Subscription:
    """Strongly held event callbacks of one :class:`CollisionSystem`, active until
    :meth:`unsubscribe` or the end of the ``with`` block it opened.

    >>> from arcade_collide import Circle, CollisionSystem, Position, Shape
    >>> esper.switch_world("subscription-doctest")
    >>> collisions = CollisionSystem()
    >>> esper.add_processor(collisions)
    >>> a = esper.create_entity(Position(0, 0), Shape(Circle(5)))
    >>> b = esper.create_entity(Position(8, 0), Shape(Circle(5)))
    >>> log = []
    >>> sub = collisions.subscribe(on_started=lambda event: log.append((event.a, event.b)))
    >>> esper.process(1 / 60)
    >>> log, sub.active
    ([(1, 2)], True)
    >>> sub.unsubscribe()
    >>> sub.active
    False
    >>> esper.switch_world("default"); esper.delete_world("subscription-doctest")
    """

    def __init__(
        self,
        system: CollisionSystem,
        on_started: StartedHandler | None,
        on_ended: EndedHandler | None,
        world: str | None = None,
    ) -> None:
        self.on_started = on_started
        """Called with each :class:`CollisionStarted`, or None."""
        self.on_ended = on_ended
        """Called with each :class:`CollisionEnded`, or None."""
        self.world = world
        """The esper world the callbacks run in; None: the system's own. May change
        between ticks."""
        self._system: CollisionSystem | None = system

    @property
    def active(self) -> bool:
        """True until unsubscribed."""
        return self._system is not None

    def unsubscribe(self) -> None:
        """Stop receiving events. Calling it again does nothing."""
        if self._system is not None:
            self._system._unsubscribe(self)
            self._system = None

    def __enter__(self) -> Subscription:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.unsubscribe()

"""Collision events, and a strongly held way to subscribe to them.

:class:`CollisionStarted` and :class:`CollisionEnded` are immutable values naming the
two entities of a pair with ``a < b``. They are dispatched under the esper event
names :data:`ON_COLLISION_STARTED` and :data:`ON_COLLISION_ENDED`, and to the
:class:`Subscription` objects of the system.

Why subscriptions: ``esper.set_handler`` keeps only a WEAK reference to the handler,
so a lambda or a nested function is silently dropped as soon as the code that
registered it returns, and ``esper.remove_handler`` cannot remove a bound method
(it compares a new weak reference to the bound method, which never matches). A
:class:`Subscription` holds its callbacks strongly until
:meth:`Subscription.unsubscribe` (or the end of a ``with`` block).
"""

from __future__ import annotations

from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, NamedTuple

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
    >>> e.a, e.b, e.contact.depth
    (1, 2, 0.5)
    """

    a: int
    """The lower entity id."""
    b: int
    """The higher entity id."""
    contact: Contact
    """How they meet; the normal points from ``a`` towards ``b``."""
    sensor: bool
    """True when either shape is a sensor."""


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


StartedHandler = Callable[[CollisionStarted], object]
EndedHandler = Callable[[CollisionEnded], object]


class Subscription:
    """Strongly held event callbacks of one :class:`CollisionSystem`.

    Created by :meth:`CollisionSystem.subscribe`; stays active until
    :meth:`unsubscribe` is called or the ``with`` block it opened ends.
    """

    def __init__(
        self,
        system: CollisionSystem,
        on_started: StartedHandler | None,
        on_ended: EndedHandler | None,
    ) -> None:
        self.on_started = on_started
        """Called with each :class:`CollisionStarted`, or None."""
        self.on_ended = on_ended
        """Called with each :class:`CollisionEnded`, or None."""
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

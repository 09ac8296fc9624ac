"""Stage 5, event delivery: reads a tick's events and their handlers, calls the handlers.

The delivery rules, written once for every caller (the
:class:`~arcade_collide.ecs.collision.CollisionSystem`, and the Arcade bridge for its
sprite callbacks):

* Each event goes to every handler of the list, in list order, before the next event.
* A handler that raises an ``Exception`` does not stop delivery: the exception is kept,
  the remaining calls are made, and :meth:`Delivery.raise_first` then re-raises the
  first one, with the later ones attached as notes (Python 3.11+).
* A ``BaseException`` (``KeyboardInterrupt``, ``SystemExit``) stops delivery at once and
  propagates; :attr:`Delivery.handed` says how many events of the run had their
  delivery begun, so the caller can keep its books for the rest.
* A handler removed during delivery gets none of the remaining events: once the
  handlers may have changed (the caller's :class:`HandlerChanges` count moved), each
  handler is called only while its ``registered()`` says so. A handler added during
  delivery is not in the list and gets the events of the next delivery.
* An event ``dropped(event)`` rejects (a start naming an entity a handler deleted) goes
  to no handler and is recorded in :attr:`Delivery.dropped`.
* Once the events' world has ended (a handler cleared or deleted it, as the
  caller's :class:`~arcade_collide.ecs.esper_internals.WorldWatch` tells), delivery
  stops at once, after the handler call that ended it: no handler gets an event of
  that world again, not even the rest of the current event's handlers, and
  :attr:`Delivery.world_ended` is set.
* A handler runs in the esper world it names (:attr:`Handler.world`; None: the world
  current when the run began). When every handler of a run names one world, the run
  switches to it once and back once; handlers of different worlds each get their own
  switch. Switching back is skipped when a handler deleted the world to go back to
  (switching would create it again, empty). ``dropped`` and the watch must answer the
  same whichever world is current.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import partial
from operator import length_hint
from typing import Any, NamedTuple

import esper

from arcade_collide.ecs.esper_internals import PairGone, WorldWatch, watch_away


class HandlerChanges:
    """A count the owner of a set of handlers bumps whenever one is removed (or added)."""

    __slots__ = ("count",)

    def __init__(self) -> None:
        self.count = 0

    def bump(self) -> None:
        """Record a change."""
        self.count += 1


class Handler(NamedTuple):
    """A handler and how to tell whether it is still registered."""

    call: Callable[[Any], object]
    """Called with each event."""
    registered: Callable[[], bool]
    """True while the handler should still get events."""
    world: str | None = None
    """The esper world the handler runs in; None: the world current when delivery began."""


class Delivery:
    """One tick's delivery of events to handlers, by the rules of the module docstring.

    Args:
        what: What the handlers are, for the notes on the re-raised exception.

    >>> log = []
    >>> def fails(event: int) -> None:
    ...     raise ValueError(event)
    >>> delivery = Delivery()
    >>> always = lambda: True
    >>> handlers = [Handler(fails, always), Handler(log.append, always)]
    >>> delivery.run([1, 2], handlers, HandlerChanges())
    >>> log, len(delivery.errors)
    ([1, 2], 2)
    >>> delivery.raise_first()
    Traceback (most recent call last):
    ...
    ValueError: 1
    another collision handler also raised: ValueError(2)
    """

    def __init__(self, what: str = "collision handler") -> None:
        self.what = what
        self.errors: list[Exception] = []
        """The exceptions handlers raised, in order."""
        self.handed = 0
        """Events of the last :meth:`run` whose delivery began (dropped ones included)."""
        self.dropped: list[Any] = []
        """Events ``dropped`` rejected, over all runs."""
        self.world_ended = False
        """True once a run stopped because ``ended()`` said the world had ended."""

    def run(
        self,
        events: Sequence[Any],
        handlers: Sequence[Handler],
        changes: HandlerChanges,
        dropped: Callable[[Any], bool] | None = None,
        watch: WorldWatch | None = None,
    ) -> None:
        """Hand each of ``events`` to each of ``handlers``.

        Args:
            events: The events, in delivery order.
            handlers: The handlers, in call order, as they were when delivery began.
            changes: Bumped whenever a handler is removed; while it stays as it was
                when the run began, ``registered`` is not asked.
            dropped: Called before each event's delivery; True skips the event.
            watch: Tested after each handler call; once its world has ended,
                delivery stops for good.
        """
        if self.world_ended:
            return
        here = esper.current_world
        worlds = {handler.world or here for handler in handlers}
        if worlds == {here} or not worlds:
            self._run(events, handlers, changes, dropped, watch)
        elif len(worlds) == 1:
            esper.switch_world(worlds.pop())
            try:
                away = None if watch is None else watch_away(watch, here)
                self._run(events, handlers, changes, dropped, away)
            finally:
                _return_to(here)
        else:
            handlers = [
                Handler(partial(_call_in_world, world, call), registered)
                if world is not None and world != here
                else Handler(call, registered)
                for call, registered, world in handlers
            ]
            self._run(events, handlers, changes, dropped, watch)

    def _run(
        self,
        events: Sequence[Any],
        handlers: Sequence[Handler],
        changes: HandlerChanges,
        dropped: Callable[[Any], bool] | None,
        watch: WorldWatch | None,
    ) -> None:
        if len(handlers) == 1:
            self._run_one(events, handlers[0], changes, dropped, watch)
            return
        errors = self.errors
        namespace, key, value, ended = watch or _NO_WATCH
        alive = namespace.get
        start = changes.count
        calls = [(call, registered) for call, registered, _ in handlers]
        pending = iter(events)
        try:
            for event in pending:
                if dropped is not None and dropped(event):
                    self.dropped.append(event)
                    continue
                for call, registered in calls:
                    if changes.count != start and not registered():
                        continue
                    try:
                        call(event)
                    except Exception as error:  # re-raised by raise_first
                        errors.append(error)
                    if alive(key) is not value and ended():
                        self.world_ended = True
                        return
        finally:
            self.handed = _handed(events, pending)

    def _run_one(
        self,
        events: Sequence[Any],
        handler: Handler,
        changes: HandlerChanges,
        dropped: Callable[[Any], bool] | None,
        watch: WorldWatch | None,
    ) -> None:
        """:meth:`_run` for one handler, without the loop over handlers: a tick's
        thousand events often go to one handler, and that loop cost a third of the
        delivery's own time. A :class:`~.esper_internals.PairGone` check reading esper's
        sets is made here, without a call per event."""
        errors = self.errors
        namespace, key, value, ended = watch or _NO_WATCH
        alive = namespace.get
        start = changes.count
        call, registered, _ = handler
        entities = dead = None
        if type(dropped) is PairGone and dropped.entities is not None:
            entities, dead = dropped.entities, dropped.dead
        pending = iter(events)
        try:
            for event in pending:
                if entities is not None:
                    if (
                        event.a not in entities
                        or event.b not in entities
                        or (dead and (event.a in dead or event.b in dead))
                    ):
                        self.dropped.append(event)
                        continue
                elif dropped is not None and dropped(event):
                    self.dropped.append(event)
                    continue
                if changes.count != start and not registered():
                    continue
                try:
                    call(event)
                except Exception as error:  # re-raised by raise_first
                    errors.append(error)
                if alive(key) is not value and ended():
                    self.world_ended = True
                    return
        finally:
            self.handed = _handed(events, pending)

    def call(self, func: Callable[..., object], *args: Any) -> None:
        """Call ``func(*args)``, keeping an ``Exception`` for :meth:`raise_first`."""
        try:
            func(*args)
        except Exception as error:  # re-raised by raise_first
            self.errors.append(error)

    def raise_first(self) -> None:
        """Re-raise the first kept exception (the later ones as its notes), and forget them."""
        errors, self.errors = self.errors, []
        if errors:
            first = errors[0]
            for later in errors[1:]:
                note = getattr(first, "add_note", None)
                if note is not None:
                    note(f"another {self.what} also raised: {later!r}")
            raise first


def _handed(events: Sequence[Any], pending: Iterator[Any]) -> int:
    """How many of ``events`` the iterator ``pending`` over them has given: counted once
    a run stops, not per event."""
    return len(events) - length_hint(pending)


_NO_WATCH = WorldWatch({"": None}, "", None, lambda: False)
"""A watch whose world never ends."""


def _call_in_world(world: str, call: Callable[[Any], object], event: Any) -> None:
    """``call(event)`` with ``world`` the current esper world, the current one restored."""
    previous = esper.current_world
    esper.switch_world(world)
    try:
        call(event)
    finally:
        _return_to(previous)


def _return_to(world: str) -> None:
    """Switch back to ``world``, unless a handler deleted it meanwhile."""
    if world in esper.list_worlds():
        esper.switch_world(world)

"""The CollisionSystem's stage 5: a tick's events handed to its handlers, by the event
rules of :mod:`~arcade_collide.ecs.collision` and the delivery rules of
:mod:`~arcade_collide.ecs.delivery`.

A tick delivers three runs, in order: the ended events, the started events, then the
ended events of the pairs a swept shape crossed during the tick (met and left again,
:mod:`~arcade_collide.ecs.swept`), each after its own start.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import esper

from arcade_collide.ecs.contact_state import TouchingPairs
from arcade_collide.ecs.delivery import Delivery, Handler, HandlerChanges
from arcade_collide.ecs.esper_internals import WorldMark, pair_gone_check, world_watch
from arcade_collide.ecs.events import (
    ON_COLLISION_ENDED,
    ON_COLLISION_STARTED,
    CollisionEnded,
    CollisionStarted,
    Subscription,
)


class TickDelivery:
    """The CollisionSystem's handlers and the delivery of each tick's events to them."""

    _subscriptions: list[Subscription]
    _changes: HandlerChanges
    _pending_ended: list[CollisionEnded]
    _state: TouchingPairs

    def _listening(self, name: str) -> bool:
        if esper.event_registry.get(name):
            return True
        attr = "on_started" if name == ON_COLLISION_STARTED else "on_ended"
        return any(getattr(s, attr) is not None for s in self._subscriptions)

    def _handlers(self, name: str) -> list[Handler]:
        """The handlers of ``name`` now: esper's, then the subscriptions."""
        registry = esper.event_registry
        handlers: list[Handler] = []
        for ref in list(registry.get(name, ())):
            func = ref()
            if func is not None:
                handlers.append(Handler(func, partial(_in_registry, registry, name, ref)))
        attr = "on_started" if name == ON_COLLISION_STARTED else "on_ended"
        for sub in self._subscriptions:
            callback = getattr(sub, attr)
            if callback is not None:
                handlers.append(Handler(callback, partial(_active, sub), sub.world))
        return handlers

    def _deliver(
        self,
        mark: WorldMark,
        ended: list[CollisionEnded],
        started: list[CollisionStarted],
        crossed: list[CollisionEnded],
    ) -> None:
        """Deliver ``ended``, ``started``, then ``crossed``: the ends of the crossed
        pairs, in their starts' order, less those whose start was dropped."""
        if self._pending_ended:
            # Ended events a BaseException cut off last time come first.
            ended = self._pending_ended + ended
            self._pending_ended = []
        if not ended and not started and not crossed:
            return
        delivery = Delivery()
        forget: list[CollisionStarted] = []
        phase = 0
        watch = world_watch(mark)
        after: list[CollisionEnded] = []
        try:
            if ended:
                handlers = self._handlers(ON_COLLISION_ENDED)
                delivery.run(ended, handlers, self._changes, None, watch)
            phase = 1
            if started:
                handlers = self._handlers(ON_COLLISION_STARTED)
                delivery.run(started, handlers, self._changes, pair_gone_check(), watch)
            phase = 2
            after = _crossed_ends(crossed, [], delivery.dropped)
            if after:
                handlers = self._handlers(ON_COLLISION_ENDED)
                delivery.run(after, handlers, self._changes, None, watch)
        except BaseException:
            # Keep the books balanced: no ended event may follow a start nobody saw.
            if phase == 0:
                self._pending_ended = ended[delivery.handed :]
                forget = started
            elif phase == 1:
                forget = started[delivery.handed :]
                cut = started[delivery.handed :]
                self._pending_ended = _crossed_ends(crossed, cut, delivery.dropped)
            else:
                self._pending_ended = after[delivery.handed :]
            raise
        finally:
            if delivery.world_ended or watch.ended():
                # A handler cleared or deleted the world: its pairs went with it.
                self._state = TouchingPairs()
                self._pending_ended = []
            elif delivery.dropped or forget:
                self._state.forget([(e.a, e.b) for e in delivery.dropped + forget])
        delivery.raise_first()


def _crossed_ends(
    crossed: list[CollisionEnded], cut: list[CollisionStarted], dropped: list[Any]
) -> list[CollisionEnded]:
    """``crossed`` less the pairs whose start was ``dropped`` or not delivered (``cut``)."""
    if not (crossed and (cut or dropped)):
        return crossed
    gone = {(e.a, e.b) for e in dropped} | {(e.a, e.b) for e in cut}
    return [e for e in crossed if (e.a, e.b) not in gone]


def _in_registry(registry: dict[str, Any], name: str, ref: object) -> bool:
    return ref in registry.get(name, ())


def _active(sub: Subscription) -> bool:
    return sub.active

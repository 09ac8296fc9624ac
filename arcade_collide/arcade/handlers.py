"""Sprite callbacks, pair and layer handlers, and the routing of collision events to them.

A :class:`Router` is subscribed to its world's
:class:`~arcade_collide.ecs.CollisionSystem`, so the event rules of
:mod:`arcade_collide.ecs.collision` apply. The router adds the bridge's own rules:

* A start reaches, in this order, the first sprite's callback, the second sprite's,
  the pair handlers (kinds, in both orders), then the layer handlers; an end reaches
  the two sprites, the layer handlers, then the pair handlers. Each of them runs even
  if an earlier one raised; the event then raises the first exception to the ECS.
* A sprite removed during delivery gets no further events; both sprites of each pair
  it was touching get their end events (and the pair and layer handlers theirs) after
  the current event has reached both sprites and the handlers.
* Callbacks run in the esper world that was current when
  :meth:`~arcade_collide.arcade.CollisionWorld.step` was called, not in the
  collision world (the router's :attr:`~arcade_collide.ecs.events.Subscription.world`).
"""

from __future__ import annotations

import weakref
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from itertools import chain
from typing import Any

import arcade
import numpy as np
from numpy.typing import NDArray

from arcade_collide.ecs import CollisionEnded, CollisionStarted, CollisionSystem, Subscription
from arcade_collide.ecs.delivery import Delivery
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.shapes import AnyShape

StartHandler = Callable[[arcade.Sprite, arcade.Sprite, Contact], Any]
"""``fn(sprite_a, sprite_b, contact)``; ``contact.normal`` points from a to b."""
EndHandler = Callable[[arcade.Sprite, arcade.Sprite], Any]
"""``fn(sprite_a, sprite_b)``."""
_Match = tuple[Any, "Body", "Body"]
"""A pair or layer handler, with the body to pass first and the one to pass second."""


@dataclass(slots=True)
class Body:
    """What a world remembers about one registered sprite (slotted: event delivery reads
    a few fields of two bodies per event)."""

    sprite: arcade.Sprite
    entity: int
    position: Any
    """The sprite's ``Position`` component (kept alive with the body)."""
    kind: Hashable
    geometry: AnyShape
    hull: bool
    shape_options: dict[str, Any]
    on_start: Callable[[arcade.Sprite, Contact], Any] | None
    """The sprite's ``on_collision_start``, looked up once when it was added."""
    on_end: Callable[[arcade.Sprite], Any] | None
    shape: Any
    """The sprite's ``Shape`` component (edited in place when the shape changes)."""
    layer: int
    """The layer bits of the sprite's Shape (for layer handlers)."""
    pinned: bool = True
    """Added by ``add_sprite`` (not only by a registered sprite list): see
    :mod:`.sprite_lists` for when each kind of sprite leaves the world."""
    hull_points: Any = None
    """For a derived ``hull=True`` shape, the hit-box points it was built from (a new
    hit box reports nothing: :mod:`.derived_shapes` compares these each step)."""


def sprite_method(sprite: arcade.Sprite, name: str) -> Any:
    """The sprite's bound ``name`` method, or None when it has none (or it is not callable)."""
    method = getattr(sprite, name, None)
    return method if callable(method) else None


class Router:
    """The handlers of one world and the routing of its collision events to sprites.

    Args:
        bodies: The world's bodies by entity; the router reads it, the world edits it.
    """

    def __init__(self, bodies: dict[int, Body]) -> None:
        self.bodies = bodies
        self.active: dict[tuple[int, int], Contact] = {}
        """The pairs whose start was delivered and whose end was not, with that contact."""
        self._partners: dict[int, dict[int, None]] = {}
        """The other entity of each :attr:`active` pair, by entity, in the order the
        pairs started (the order of :attr:`active`), so that one entity's pairs cost
        what they are."""
        self._pairs: dict[tuple[Hashable, Hashable], tuple[list[Any], list[Any]]] = {}
        """The start and end handlers of each pair of kinds."""
        self.layers: list[tuple[int, int, StartHandler | None, EndHandler | None]] = []
        """The layer handlers: ``(layer_a, layer_b, start, end)`` in registration order."""
        self._removal_ends: deque[tuple[Body, Body]] = deque()
        """Pairs ended by a removal during delivery, due after the current event."""
        self._delivering = False
        self._delivery = Delivery("collision callback")
        """Keeps the exceptions the callbacks of the event being delivered raised."""
        self._weak_route: Callable[[CollisionStarted | CollisionEnded], None] | None = None
        """The subscription's callback between steps (see :meth:`subscribe_weakly`)."""

    def subscribe_weakly(self, system: CollisionSystem) -> Subscription:
        """Subscribe :meth:`route` to ``system``'s events through a weak reference: esper
        keeps the subscription in a process-wide registry, and the sprites and handlers
        the router holds often hold their world, which must stay collectable."""
        ref = weakref.ref(self)

        def on_event(event: CollisionStarted | CollisionEnded) -> None:
            router = ref()
            if router is not None:
                router.route(event)

        self._weak_route = on_event
        return system.subscribe(on_started=on_event, on_ended=on_event)

    def hold(self, subscription: Subscription, world: str) -> None:
        """For one step: ``subscription`` calls :meth:`route` itself (no weak reference to
        follow per event; the stepping world is alive anyway), in esper world ``world``."""
        subscription.on_started = subscription.on_ended = self.route
        subscription.world = world

    def release(self, subscription: Subscription) -> None:
        """Undo :meth:`hold` once the step is over."""
        subscription.on_started = subscription.on_ended = self._weak_route
        subscription.world = None

    def add_pair(
        self, kind_a: Hashable, kind_b: Hashable, start: StartHandler | None, end: EndHandler | None
    ) -> None:
        """Register handlers for pairs of sprites of ``kind_a`` and ``kind_b``."""
        starts, ends = self._pairs.setdefault((kind_a, kind_b), ([], []))
        if start is not None:
            starts.append(start)
        if end is not None:
            ends.append(end)

    def route(self, event: CollisionStarted | CollisionEnded | None) -> None:
        """Deliver an event to both sprites and the matching handlers, then any ends of
        removals their callbacks made; then raise the first exception of the callbacks.

        ``None`` delivers only the pending removal ends (a removal outside a delivery).
        One function for every event: it runs a few hundred times a tick.
        """
        active = self.active
        contact = None
        if type(event) is CollisionStarted:
            a, b, contact, _, _ = event
            found_a = self.bodies.get(a)
            found_b = self.bodies.get(b)
            # A sprite that a callback of this delivery removed (a bullet that hit
            # something) gets no further events.
            if found_a is None or found_b is None or (a, b) in active:
                return
            active[a, b] = contact
            self._partners.setdefault(a, {})[b] = None
            self._partners.setdefault(b, {})[a] = None
            body_a, body_b = found_a, found_b
            if not (body_a.on_start or body_b.on_start or self._pairs or self.layers):
                return
        elif event is not None:
            # A pair ended by a removal already had its end events.
            if active.pop((event.a, event.b), None) is None:
                return
            self._unlink(event.a, event.b)
            body_a, body_b = self.bodies[event.a], self.bodies[event.b]
            if not (body_a.on_end or body_b.on_end or self._pairs or self.layers):
                return
        self._delivering = True
        try:
            if contact is not None:
                self._start_pair(body_a, body_b, contact)
            elif event is not None:
                self._end_pair(body_a, body_b)
            while self._removal_ends:
                ended_a, ended_b = self._removal_ends.popleft()
                self._end_pair(ended_a, ended_b)
        except BaseException:
            # KeyboardInterrupt, SystemExit: the event's kept exceptions go with it.
            self._delivery.errors.clear()
            raise
        finally:
            self._delivering = False
        if self._delivery.errors:
            self._delivery.raise_first()

    def partners(self, entity: int) -> list[int]:
        """The entities ``entity`` is touching (its :attr:`active` pairs), in start order."""
        return list(self._partners.get(entity, ()))

    def end_removed(self, entity: int, body: Body) -> None:
        """End every pair of ``entity`` (being removed, with ``body``).

        Outside a delivery the end events are delivered at once, and the first
        exception a callback raised is re-raised; inside one they come after the
        current event.
        """
        self._queue_ends(entity, body)
        if not self._delivering:
            self.route(None)

    def end_all(self, removed: list[Body]) -> None:
        """End every active pair, with the events removing the bodies ``removed`` in this
        order one by one would give (none when no callback or handler would hear them),
        delivered once all pairs are gone; the first exception is re-raised.

        ``removed`` holds every body of :attr:`bodies` (the world is closing), so it
        holds both bodies of each active pair.
        """
        bodies, active = self.bodies, self.active
        if active and (
            self._pairs or self.layers or any(b.on_end is not None for b in bodies.values())
        ):
            first, second = removal_order(
                np.fromiter(chain.from_iterable(active), np.int64, 2 * len(active)).reshape(-1, 2),
                np.fromiter((body.entity for body in removed), np.int64, len(removed)),
            )
            self._removal_ends.extend(
                zip([removed[k] for k in first], [removed[k] for k in second], strict=True)
            )
        active.clear()
        self._partners.clear()
        if not self._delivering:
            self.route(None)

    def _queue_ends(self, entity: int, body: Body) -> None:
        """Take ``entity``'s pairs out of :attr:`active` and queue their end events."""
        for other in self._partners.pop(entity, {}):
            pair = (entity, other) if (entity, other) in self.active else (other, entity)
            del self.active[pair]
            del self._partners[other][entity]
            a = self.bodies.get(pair[0], body)
            b = self.bodies.get(pair[1], body)
            self._removal_ends.append((a, b))

    def _unlink(self, a: int, b: int) -> None:
        """Drop the pair ``(a, b)`` from :attr:`_partners`."""
        del self._partners[a][b]
        del self._partners[b][a]

    def _end_pair(self, body_a: Body, body_b: Body) -> None:
        run = self._delivery.call
        if body_a.on_end is not None:
            run(body_a.on_end, body_b.sprite)
        if body_b.on_end is not None:
            run(body_b.on_end, body_a.sprite)
        if self.layers or self._pairs:
            for end, first, second in chain(
                self._layer_matches(body_a, body_b, start=False),
                self._pair_matches(body_a, body_b, start=False),
            ):
                run(end, first.sprite, second.sprite)

    def _start_pair(self, body_a: Body, body_b: Body, contact: Contact) -> None:
        # The sprites' own callbacks are called inline (most events reach only them),
        # keeping exceptions as Delivery.call does.
        callback = body_a.on_start
        if callback is not None:
            try:
                callback(body_b.sprite, contact)
            except Exception as error:  # re-raised by route
                self._delivery.errors.append(error)
        callback = body_b.on_start
        if callback is not None:
            try:
                callback(body_a.sprite, contact.flipped())
            except Exception as error:  # re-raised by route
                self._delivery.errors.append(error)
        if self._pairs or self.layers:
            run = self._delivery.call
            for start, first, second in chain(
                self._pair_matches(body_a, body_b, start=True),
                self._layer_matches(body_a, body_b, start=True),
            ):
                run(start, first.sprite, second.sprite,
                    contact if first is body_a else contact.flipped())

    def _pair_matches(self, body_a: Body, body_b: Body, start: bool) -> Iterator[_Match]:
        """The start (or end) pair handlers of the two bodies' kinds, in both orders."""
        which = 0 if start else 1
        for first, second in ((body_a, body_b), (body_b, body_a)):
            handlers = self._pairs.get((first.kind, second.kind))
            if handlers is not None:
                yield from ((handler, first, second) for handler in list(handlers[which]))
            if body_a.kind == body_b.kind:
                return

    def _layer_matches(self, body_a: Body, body_b: Body, start: bool) -> Iterator[_Match]:
        """The start (or end) layer handlers matching the two bodies, first body first."""
        for layer_a, layer_b, on_start, on_end in list(self.layers):
            handler = on_start if start else on_end
            if handler is None:
                continue
            if body_a.layer & layer_a and body_b.layer & layer_b:
                yield handler, body_a, body_b
            elif body_b.layer & layer_a and body_a.layer & layer_b:
                yield handler, body_b, body_a


def removal_order(
    pairs: NDArray[np.int64], removed: NDArray[np.int64]
) -> tuple[list[int], list[int]]:
    """The order in which removing the entities ``removed`` one by one ends ``pairs``.

    Removing an entity ends its pairs whose other entity is still there, in the order
    the pairs started; so a pair ends with the first of its two entities removed, and the
    pairs ending together keep their order in ``pairs`` (start order).

    Args:
        pairs: ``(n, 2)`` entity ids, in the order the pairs started; every id is in
            ``removed``.
        removed: The entity ids in removal order, each once.

    Returns:
        The positions in ``removed`` of each pair's first and second entity, pairs in the
        order they end.

    >>> removal_order(np.array([[7, 5], [5, 9], [9, 7]]), np.array([9, 5, 7]))
    ([1, 0, 2], [0, 2, 1])
    """
    by_id = np.argsort(removed, kind="stable")
    at = by_id[np.searchsorted(removed, pairs, sorter=by_id)]
    ends = np.argsort(at.min(axis=1), kind="stable")
    return at[ends, 0].tolist(), at[ends, 1].tolist()

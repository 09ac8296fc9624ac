"""CollisionSystem: the tick's five stages in order, and the rules of its events.

Each tick (``esper.process``) the system runs, one module per stage:

1. shape table (:mod:`~arcade_collide.ecs.table`): refreshes the world's world-space
   shapes and boxes from the Position and Shape components (a no-op when a
   MovementSystem already did so this tick and nothing changed since; without a
   MovementSystem this is where positions edited by hand are picked up); then the
   swept shapes' motions over the tick are tested (:mod:`~arcade_collide.ecs.swept`;
   nothing to do without swept shapes);
2. broad phase (:mod:`~arcade_collide.ecs.broad_phase`): the pairs of table rows whose
   boxes overlap;
3. narrow phase (:mod:`~arcade_collide.ecs.narrow_phase`): of those, the pairs that
   pass the layer filter and touch;
4. contact state (:mod:`~arcade_collide.ecs.contact_state`): those pairs as sorted
   entity-pair keys, compared with last tick's: the pairs that started and ended, and
   their events (contacts computed for the started pairs only);
5. event delivery (:mod:`~arcade_collide.ecs.tick_delivery`): once the new state is
   stored, the events go to the handlers by the rules below.

Event rules:

* Order: all :class:`CollisionEnded` of the tick first (sorted by ``(a, b)``), then
  all :class:`CollisionStarted` in time order: by ``toi`` (a start without one counts
  as 1.0, the end of the tick), then by ``(a, b)``. Last come the ends of the pairs
  a swept shape crossed during the tick (met, then left before its end), in their
  starts' order. Separations come first so a game counting contacts never sees a
  count above the true one, and a crossed pair's end follows its start. The same
  inputs give the same event sequence, run after run.
* Handlers: esper handlers (``esper.set_handler("on_collision_started", f)``), then
  subscriptions in the order they were made (esper keeps its handlers in a set, so
  among several esper handlers the order is esper's; subscriptions are ordered).
  esper keeps only weak references to handlers: a lambda given to
  ``esper.set_handler`` is dropped at once (with a
  :class:`~arcade_collide.ecs.events.HandlerDroppedWarning`), and
  ``esper.remove_handler`` cannot remove a bound method. Use
  :meth:`CollisionSystem.subscribe`, which holds callbacks strongly and returns a
  handle with ``unsubscribe()`` (also a context manager). No event object is built
  for an event name nobody listens to.
* Worlds of handlers: handlers run in the system's own esper world, except a
  subscription's callbacks when it names another (``subscribe(world=name)``).
* Deleted entities: an entity deleted (even if esper has only marked it dead) or
  stripped of its Shape takes no part in the next tick, and each of its contacts ends
  with a :class:`CollisionEnded`: that is the one event that may name an entity that
  no longer exists, so that every delivered :class:`CollisionStarted` is matched by
  exactly one :class:`CollisionEnded`. A :class:`CollisionStarted` never names a dead
  entity: if a handler deletes an entity, the remaining started events of that tick
  naming it are dropped and the pair is forgotten (no ended event follows it), and
  :meth:`contacts` leaves it out.
* Handlers may create and delete entities; new entities collide from the next tick.
  Removed and added handlers, and handlers that raise, follow the rules of
  :mod:`~arcade_collide.ecs.delivery`; the state is stored before delivery, so the
  next tick proceeds normally. After a ``BaseException`` the ended events not yet
  delivered come first thing next tick, and pairs whose started event was not
  delivered are forgotten (they start again if they still touch).

Worlds: a CollisionSystem belongs to the esper world it first runs in; processing it
while another world is current raises ``RuntimeError`` (add one system per world).
Switching worlds and back is safe: the system's state belongs to its world.

* Restarts: when its world is cleared with ``esper.clear_database()``, or deleted (and
  perhaps created again), the world's contacts are dropped with it: no
  :class:`CollisionEnded` follows for them, since their ids may already name new
  entities. This holds between ticks and inside a handler alike. A handler that
  restarts the level (clears, then rebuilds) ends that tick's delivery: no handler is
  called again with an event of that tick, not even the rest of the handlers of the
  event being delivered, so no event names the new entities. From then on
  :meth:`touching` and :meth:`contacts` are empty, and the next tick starts afresh (the
  new entities' contacts then start with :class:`CollisionStarted`). A game that keeps
  its own contact books clears them when it clears the world.
* On an esper release other than 3.9 (see :mod:`~arcade_collide.ecs.esper_internals`)
  a cleared world cannot be told apart from one whose entities were all deleted: its
  contacts end with :class:`CollisionEnded` at the next tick, and a restart inside a
  handler is seen as deletions (the remaining started events naming ids that exist
  again are delivered). Deleting a world is seen on every release.
* Entity ids: any id esper gives (pairs are keyed on both full ids); an id of
  ``2**63`` or more (unreachable by counting) raises ``ValueError`` naming the entity.

Errors: an entity with a Shape but no Position, or a non-finite position, raises
``ValueError`` naming the entity before any state is changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import esper
import numpy as np

from arcade_collide.ecs.broad_phase import BroadPhase
from arcade_collide.ecs.components import ALL_LAYERS
from arcade_collide.ecs.contact_state import (
    TouchingPairs,
    contacts_of,
    ended_events,
    keyed_pairs,
    pairs_of,
    started_events,
    with_carried,
)
from arcade_collide.ecs.delivery import HandlerChanges
from arcade_collide.ecs.esper_internals import (
    WorldMark,
    world_ended,
    world_mark,
)
from arcade_collide.ecs.events import (
    ON_COLLISION_ENDED,
    ON_COLLISION_STARTED,
    CollisionEnded,
    CollisionStarted,
    EndedHandler,
    StartedHandler,
    Subscription,
    watch_handlers,
)
from arcade_collide.ecs.narrow_phase import pair_contacts, touching_pairs
from arcade_collide.ecs.queries import (
    Explanation,
    Geometry,
    Pose4,
    QueryIndex,
    Where,
    box_geometry,
    check_mask,
    check_where,
    contacts_from,
    current_contacts,
    explain,
    point_geometry,
    query,
    shape_geometry,
)
from arcade_collide.ecs.swept import Sweeps
from arcade_collide.ecs.swept_events import swept_events
from arcade_collide.ecs.table import ShapeTable, table_for_current_world
from arcade_collide.ecs.tick_delivery import TickDelivery
from arcade_collide.ecs.world_rays import WorldRays
from arcade_collide.ecs.world_state import world_state
from arcade_collide.geometry.arrays import BoolArray
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.shapes import AnyShape


class CollisionSystem(WorldRays, TickDelivery, esper.Processor):
    """Finds touching shapes and reports when contacts start and end; answers queries,
    rays and casts (:class:`~arcade_collide.ecs.world_rays.WorldRays`) between ticks.

    Args:
        on_stop: Called once per tick, before the tick's events are delivered, with the
            entities that stopped at impact (``Shape(stop_at_impact=True)``), whose
            Positions the tick moved back (the Arcade bridge moves their sprites there).

    Raises:
        TypeError: ``on_stop`` is not callable.

    >>> import esper
    >>> from arcade_collide.ecs.components import Position, Shape
    >>> from arcade_collide.geometry.shapes import Circle
    >>> esper.switch_world("collision-doctest")
    >>> a = esper.create_entity(Position(0, 0), Shape(Circle(5)))
    >>> b = esper.create_entity(Position(10, 0), Shape(Circle(5)))  # touching
    >>> c = esper.create_entity(Position(30, 0), Shape(Circle(5)))  # a miss
    >>> collisions = CollisionSystem()
    >>> esper.add_processor(collisions)
    >>> log = []
    >>> sub = collisions.subscribe(on_started=log.append)
    >>> esper.process(1 / 60)
    >>> log[0].a, log[0].b, log[0].contact
    (1, 2, Contact(normal=(1.0, 0.0), depth=0.0, point=(5.0, 0.0)))
    >>> list(collisions.contacts())
    [(1, 2)]
    >>> esper.switch_world("default"); esper.delete_world("collision-doctest")
    """

    def __init__(self, on_stop: Callable[[list[int]], object] | None = None) -> None:
        if on_stop is not None and not callable(on_stop):
            raise TypeError(f"on_stop must be callable or None, got {type(on_stop).__name__}")
        self._world: WorldMark | None = None
        self._sweeps = Sweeps()
        self._on_stop = on_stop
        self._response: Callable[[ShapeTable, QueryIndex], None] | None = None
        """The :class:`~arcade_collide.ecs.response.ResponseSystem` stage, if one was made."""
        self._broad = BroadPhase()
        self._state = TouchingPairs()
        self._subscriptions: list[Subscription] = []
        self._pending_ended: list[CollisionEnded] = []
        self._changes = HandlerChanges()
        """Bumped when a subscription ends: its world's, once the system has run."""
        self._index = QueryIndex()
        self._tick: tuple[ShapeTable, int, int] | None = None
        """The table the last tick's pairs were found in, its layout and revision then."""
        self._kept: tuple[Any, tuple[Any, Any, Any]] | None = None
        """The tick's pair keys and their contacts' normals, depths and points, kept
        before a query placed rows over the ones they were found on."""
        self._now: tuple[tuple[Any, ...], dict[tuple[int, int], Contact]] | None = None
        """:meth:`contacts` at the current poses, and the pair keys and table state it
        was computed for."""
        watch_handlers()

    # -- public API ---------------------------------------------------------

    def subscribe(
        self,
        *,
        on_started: StartedHandler | None = None,
        on_ended: EndedHandler | None = None,
        world: str | None = None,
    ) -> Subscription:
        """Call ``on_started`` / ``on_ended`` with this system's events until unsubscribed.

        The callbacks are held strongly (unlike ``esper.set_handler``), so lambdas work.

        Args:
            on_started: Called with each :class:`CollisionStarted`.
            on_ended: Called with each :class:`CollisionEnded`.
            world: The esper world the callbacks run in (None: the system's own).

        Returns:
            The subscription; ``unsubscribe()`` or a ``with`` block ends it.

        >>> system = CollisionSystem()
        >>> with system.subscribe(on_started=lambda event: None) as sub:
        ...     sub.active
        True
        >>> sub.active
        False
        """
        sub = Subscription(self, on_started, on_ended, world)
        self._subscriptions.append(sub)
        return sub

    def _unsubscribe(self, sub: Subscription) -> None:
        self._subscriptions = [s for s in self._subscriptions if s is not sub]
        self._changes.bump()

    def contacts(self, sensors: bool = True) -> dict[tuple[int, int], Contact]:
        """The pairs ``(a, b)``, ``a < b``, touching after the last tick, with their
        contacts at the current poses.

        A shape moved (by hand, or by a handler) since the tick gets the contact of
        where it is now, so a body pushed deeper reports its new depth. A pair moved
        apart since the tick (its :class:`CollisionEnded` comes on the next tick) keeps
        the contact it had at the tick, as does every pair when the world cannot be
        read now (its esper world is not the current one, or a position is not
        finite: the next tick raises). Pairs with an entity deleted since the tick (by
        a handler, say) are left out; their :class:`CollisionEnded` still comes on the
        next tick.

        Args:
            sensors: Include pairs where either shape is a sensor.

        Returns:
            A new dict sorted by pair; each contact's normal points from ``a`` to ``b``.
        """
        state = self._state
        if self._world_ended():
            return {}
        contacts = self._at_current_poses(self._tick_contacts())
        keep = self._alive()
        if not sensors:
            keep &= ~state.sensor
        if keep.all():
            return dict(contacts)
        return {
            pair: contact
            for (pair, contact), kept in zip(contacts.items(), keep.tolist(), strict=True)
            if kept
        }

    def _tick_contacts(self) -> dict[tuple[int, int], Contact]:
        """The contacts of the pairs at the last tick's poses, computed once (from the
        numbers :meth:`query_table` kept, if it placed rows since)."""
        state = self._state
        if state.contacts is None:
            kept = self._kept
            if kept is not None and kept[0] is state.keys:
                contacts = contacts_from(state.keys, *kept[1])
            else:
                contacts = contacts_of(state, np.arange(len(state)))
            for event in state.reported:
                pair = (event.a, event.b)
                if pair in contacts:  # (a pair dropped during delivery is gone)
                    contacts[pair] = event.contact
            state.contacts = contacts
        return state.contacts

    def _at_current_poses(
        self, contacts: dict[tuple[int, int], Contact]
    ) -> dict[tuple[int, int], Contact]:
        """``contacts`` (by pair, in key order) with the pairs that still touch at the
        current poses given their contacts there (a new dict when any moved)."""
        if not len(contacts) or not self._own_world_current():
            return contacts
        table = self._table_now()
        if table is None or self._tick == (table, table.layout, table.revision):
            return contacts
        key = (self._state.keys, table, table.layout, table.revision)
        if self._now is None or any(x is not y for x, y in zip(key, self._now[0], strict=True)):
            now = current_contacts(table, self._index, self._state.keys, contacts)
            self._now = (key, now)
        return self._now[1]

    def _own_world_current(self) -> bool:
        return self._world is not None and self._world.name == esper.current_world

    def _table_now(self) -> ShapeTable | None:
        """The current world's table brought up to date (None when a position is not
        finite or a Shape lacks a Position: the next tick raises)."""
        try:
            return self.query_table()[0]
        except ValueError:
            return None

    # -- queries ------------------------------------------------------------

    def query_table(self) -> tuple[ShapeTable, QueryIndex]:
        """The current esper world's shape table brought up to date (placing only what
        changed since it last looked), and this system's query index following it.

        What the queries read; rays and casts over the world read the same
        (:meth:`QueryIndex.rows_in_box` gathers candidate rows by box).

        Raises:
            RuntimeError: the system belongs to another esper world than the current one.
            ValueError: an entity has a Shape but no Position, or a non-finite position.
        """
        own = self._world
        if own is not None and own.name != esper.current_world:
            raise RuntimeError(
                f"this CollisionSystem belongs to esper world {own.name!r}, but "
                f"{esper.current_world!r} is current: query it in its own world"
            )
        table = table_for_current_world()
        if not table.current():
            state = self._state
            kept = self._kept
            if (
                len(state)
                and state.contacts is None
                and state.rows is table.rows
                and (kept is None or kept[0] is not state.keys)
            ):
                # Placing overwrites the rows the tick's contacts come from: keep them.
                state_rows = (state.rows, state.rows_i, state.rows_j, state.flip)
                self._kept = (state.keys, pair_contacts(*state_rows))
            table.refresh()
        self._index.update(table)
        return table, self._index

    def point_query(
        self, point: object, mask: int = ALL_LAYERS, where: Where | None = None
    ) -> list[int]:
        """The entities whose shapes contain ``point`` (boundary included), now.

        Answered from the current components, without a tick: positions edited and
        entities created or deleted since the last tick count. The queries' rules are
        those of :mod:`~arcade_collide.ecs.queries` (sensors and static shapes
        included).

        Args:
            point: ``(x, y)``.
            mask: Only shapes whose ``layer`` shares a bit with it.
            where: Called with each entity id found; keeps those it returns true for.

        Returns:
            The entity ids, ascending.

        Raises:
            TypeError: ``point`` is not a pair of numbers, ``mask`` not an int, or
                ``where`` not callable.
            ValueError: a coordinate is not finite or ``mask`` is outside 32 bits; or
                as :meth:`query_table` raises.
            RuntimeError: as :meth:`query_table` raises.

        >>> import esper
        >>> from arcade_collide.ecs.components import Position, Shape
        >>> from arcade_collide.geometry.shapes import Circle, Rect
        >>> esper.switch_world("query-doctest")
        >>> a = esper.create_entity(Position(0, 0), Shape(Circle(5)))
        >>> b = esper.create_entity(Position(8, 0), Shape(Rect(4, 4)))
        >>> system = CollisionSystem()
        >>> system.point_query((1, 1)), system.point_query((5, 0)), system.point_query((20, 0))
        ([1], [1], [])
        >>> system.aabb_query(4, -1, 6, 1)  # overlaps both
        [1, 2]
        >>> system.shape_query(Circle(1), (11, 0), where=lambda entity: entity != 1)
        [2]
        >>> esper.switch_world("default"); esper.delete_world("query-doctest")
        """
        geometry, pose = point_geometry(point)
        return self._query(geometry, pose, mask, where)

    def aabb_query(
        self,
        left: float,
        bottom: float,
        right: float,
        top: float,
        mask: int = ALL_LAYERS,
        where: Where | None = None,
    ) -> list[int]:
        """The entities whose shapes overlap or touch the axis-aligned box, now.

        As :meth:`point_query`, for the closed box from ``(left, bottom)`` to
        ``(right, top)`` (a side may have zero length).

        Raises:
            TypeError: a side is not a real number; or as :meth:`point_query`.
            ValueError: a side is not finite, ``left > right`` or ``bottom > top``;
                or as :meth:`point_query`.
        """
        geometry, pose = box_geometry(left, bottom, right, top)
        return self._query(geometry, pose, mask, where)

    def shape_query(
        self, shape: AnyShape, pose: object, mask: int = ALL_LAYERS, where: Where | None = None
    ) -> list[int]:
        """The entities whose shapes overlap or touch ``shape`` placed at ``pose``, now.

        As :meth:`point_query`, for any of the five shapes at ``(x, y)`` or
        ``(x, y, angle)``.

        Raises:
            TypeError: ``shape`` is not one of the five shapes, or ``pose`` not a
                sequence of numbers; or as :meth:`point_query`.
            ValueError: ``pose`` has the wrong length or a non-finite value; or as
                :meth:`point_query`.
        """
        geometry, posed = shape_geometry(shape, pose)
        return self._query(geometry, posed, mask, where)

    def _query(self, geometry: Geometry, pose: Pose4, mask: object, where: object) -> list[int]:
        checked_mask, checked_where = check_mask(mask), check_where(where)
        table, index = self.query_table()
        return query(table, index, geometry, pose, checked_mask, checked_where)

    def explain(self, a: int, b: int) -> Explanation[int]:
        """Why entities ``a`` and ``b`` do or do not collide, at their current poses.

        Returns:
            The layer/mask verdict, sensor and static flags, the boxes and whether they
            overlap, and the exact test's verdict: the contact when they touch, a
            separating axis when apart (:class:`~arcade_collide.ecs.queries.Explanation`).

        Raises:
            TypeError: ``a`` or ``b`` is not an int.
            ValueError: ``a == b``, or an entity is unknown, deleted or has no Position
                and Shape; or as :meth:`query_table` raises.
            RuntimeError: as :meth:`query_table` raises.

        >>> import esper
        >>> from arcade_collide.ecs.components import Position, Shape
        >>> from arcade_collide.geometry.shapes import Circle
        >>> esper.switch_world("explain-doctest")
        >>> a = esper.create_entity(Position(0, 0), Shape(Circle(5)))
        >>> b = esper.create_entity(Position(12, 0), Shape(Circle(5), layer=2, mask=2))
        >>> why = CollisionSystem().explain(a, b)
        >>> why.filter_passes, why.touching, why.separating_axis, why.gap
        (False, False, (1.0, 0.0), 2.0)
        >>> esper.switch_world("default"); esper.delete_world("explain-doctest")
        """
        table, index = self.query_table()
        return explain(table, index, a, b)

    def touching(self) -> list[tuple[int, int]]:
        """The pairs ``(a, b)`` touching after the last tick, sorted (no contacts computed).

        Like :meth:`contacts`, without pairs whose entity was deleted since the tick.
        """
        if self._world_ended():
            return []
        return list(zip(*pairs_of(self._state, self._alive()), strict=True))

    def _world_ended(self) -> bool:
        """Whether this system's world was deleted or cleared since its last tick."""
        return self._world is not None and world_ended(self._world)

    def _alive(self) -> BoolArray:
        """Which pairs have both entities still alive (checked in this system's world)."""
        count = len(self._state)
        keep = np.ones(count, dtype=np.bool_)
        own = self._world is not None and self._world.name == esper.current_world
        if not count or not own:
            return keep
        a, b = pairs_of(self._state, slice(None))
        exists = esper.entity_exists
        return np.fromiter(
            (exists(x) and exists(y) for x, y in zip(a, b, strict=True)),
            dtype=np.bool_,
            count=count,
        )

    # -- the tick -----------------------------------------------------------

    def process(self, *args: Any, **kwargs: Any) -> None:
        """Run one tick (``dt`` and other arguments of ``esper.process`` are ignored).

        Raises:
            RuntimeError: the system runs in a different world than its own.
            ValueError: an entity has a Shape but no Position, or a non-finite position.
            Exception: the first exception a handler raised, after delivering all events.
        """
        mark = self._check_world()
        watch_handlers()
        table = table_for_current_world()
        table.refresh()
        stopped = self._sweeps.sweep(table, self._index, self._state.keys)
        if stopped:
            table.refresh()
        if self._response is not None:
            self._response(table, self._index)
        self._tick = (table, table.layout, table.revision)
        self._index.update(table)
        i, j = self._broad.candidates(table, self._index.static_grid, self._sweeps.met)
        i, j = touching_pairs(table, i, j)
        old = self._state
        # Pairs of rows that did not move still touch: they are not keyed again.
        touched = self._broad.touched(old.rows_i, old.rows_j)
        rank, bound = table.entity_rank()
        rows = (i, j, table.entities, rank, table.sensor)
        if touched is not None and len(touched) < len(old):
            keyed = with_carried(old, touched, keyed_pairs(*rows, old.keys[touched], bound))
        else:
            keyed = keyed_pairs(*rows, old.keys, bound)
        new = TouchingPairs(keyed, table.kernel_view()[0])
        ended: list[CollisionEnded] = []
        if len(keyed.ended) and self._listening(ON_COLLISION_ENDED):
            ended = ended_events(old, keyed.ended)
        started: list[CollisionStarted] = []
        crossed: list[CollisionEnded] = []
        if self._sweeps.hits is not None and self._sweeps.hits.fresh.any():
            events = swept_events(
                self._sweeps.hits, table, new, keyed.started,
                self._listening(ON_COLLISION_STARTED), self._listening(ON_COLLISION_ENDED),
            )  # fmt: skip
            started, new.reported, crossed = events.started, events.plain, events.crossed
        elif len(keyed.started) and self._listening(ON_COLLISION_STARTED):
            started = new.reported = started_events(new, keyed.started)
        self._state = new
        if stopped and self._on_stop is not None:
            self._on_stop(stopped)
        self._deliver(mark, ended, started, crossed)

    def _check_world(self) -> WorldMark:
        """The mark of this system's world, checked to be current (see :meth:`process`)."""
        own = self._world
        if own is None:
            own = self._world = world_mark()
            self._changes = world_state().handler_changes
            return own
        name = esper.current_world
        if name != own.name:
            raise RuntimeError(
                f"this CollisionSystem belongs to esper world {own.name!r} but ran in "
                f"{name!r}: add one CollisionSystem per world"
            )
        if world_ended(own):
            # The world was deleted and recreated, or cleared: its entities are gone and
            # ids restart, so old pairs mean nothing. Start afresh, silently.
            own = self._world = world_mark()
            self._changes = world_state().handler_changes
            self._state = TouchingPairs()
            self._broad = BroadPhase()
            self._index = QueryIndex()
            self._sweeps = Sweeps()
            self._pending_ended = []
        return own

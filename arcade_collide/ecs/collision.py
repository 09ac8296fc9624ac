"""CollisionSystem: broad phase, layer filter, narrow phase, then events.

Each tick (``esper.process``) the system

1. refreshes the world's :class:`~arcade_collide.ecs.table.ShapeTable` (a no-op when
   a MovementSystem already did so this tick and nothing changed since; without a
   MovementSystem this is where positions edited by hand are picked up);
2. finds the pairs whose bounding boxes overlap with a uniform grid of rows
   (:mod:`arcade_collide.geometry.broad_phase`);
3. drops pairs the layer/mask filter rejects (``a.layer & b.mask`` and
   ``b.layer & a.mask`` must both be non-zero);
4. when the world holds convex shapes, decides the pairs whose pose-centred inner
   discs overlap (touching) or outer circles are apart (not touching) with
   :mod:`arcade_collide.geometry.bounding_circles`, whose verdicts keep a safety
   margin so they always agree with the exact tests;
5. runs the exact tests on the remaining pairs through
   :func:`~arcade_collide.geometry.query.dispatch.intersects_batch`, one batch per
   shape-type pair; contacts come from
   :func:`~arcade_collide.geometry.query.dispatch.contact_batch`, computed only for
   new pairs (for :class:`CollisionStarted`) and, on demand, for :meth:`contacts`;
6. compares the touching pairs with last tick's and, once everything above is done
   and stored, delivers the events.

Where the compiled kernels are enabled (numba installed, see
:mod:`arcade_collide.geometry.compiled`), steps 3 to 5 run as one compiled pass over
the candidate pairs (:func:`~arcade_collide.geometry.query.compiled_pairs.touching_rows`),
the touching pairs are put in key order and compared with last tick's in one pass
(:func:`~arcade_collide.ecs.pair_keys.keyed_pairs`) instead of sorts, and contacts
come from
:func:`~arcade_collide.geometry.query.compiled_contacts.contact_rows`. Both paths
give the same events: the kernels are tested against the dispatch table pair type by
pair type, and one pinned event-log hash covers both paths.

Event rules:

* Order: all :class:`CollisionEnded` of the tick first, then all
  :class:`CollisionStarted`, each sorted by ``(a, b)``. Separations come first so a
  game counting contacts never sees a count above the true one. The same inputs give
  the same event sequence, run after run.
* Handlers: esper handlers (``esper.set_handler("on_collision_started", f)``), then
  subscriptions in the order they were made (esper keeps its handlers in a set, so
  among several esper handlers the order is esper's; subscriptions are ordered).
  esper keeps only weak references to handlers: a lambda given to
  ``esper.set_handler`` is dropped at once and never called (the system makes esper
  warn with a :class:`~arcade_collide.ecs.events.HandlerDroppedWarning` when that
  happens), and
  ``esper.remove_handler`` cannot remove a bound method. Use
  :meth:`CollisionSystem.subscribe`, which holds callbacks strongly and returns a
  handle with ``unsubscribe()`` (also a context manager). No event object is built
  for an event name nobody listens to.
* Deleted entities: an entity deleted (even if esper has only marked it dead) or
  stripped of its Shape takes no part in the next tick, and each of its contacts ends
  with a :class:`CollisionEnded`: that is the one event that may name an entity that
  no longer exists, so that every delivered :class:`CollisionStarted` is matched by
  exactly one :class:`CollisionEnded`. A :class:`CollisionStarted` never names a dead
  entity: if a handler deletes an entity, the remaining started events of that tick
  naming it are dropped and the pair is forgotten (no ended event follows it), and
  :meth:`contacts` leaves it out.
* Handlers may create and delete entities; new entities collide from the next tick.
  A handler removed by another during delivery (``unsubscribe()``,
  ``esper.remove_handler``) gets none of the tick's remaining events; one added
  during delivery gets events from the next tick.
* A handler that raises an ``Exception`` does not stop delivery: the remaining events
  of the tick are still delivered, then the first exception is re-raised (later ones of
  the same tick are attached to it as notes on Python 3.11+). The system state was
  stored before delivery, so the next tick proceeds normally. A ``BaseException``
  (``KeyboardInterrupt``, ``SystemExit``) stops delivery at once: the ended events not
  yet delivered are delivered first thing next tick, and pairs whose started event was
  not delivered are forgotten (they start again next tick if they still touch), so
  every delivered start still gets exactly one end.

Worlds: a CollisionSystem belongs to the esper world it first runs in; processing it
while another world is current raises ``RuntimeError`` (add one system per world).
Switching worlds and back is safe: the system's state belongs to its world. If its
world is deleted and recreated, or cleared with ``esper.clear_database()``, the system
starts afresh without events (those entities are gone and their ids may be reused).

Errors: an entity with a Shape but no Position, or a non-finite position, raises
``ValueError`` naming the entity before any state is changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

import esper
import numpy as np

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
from arcade_collide.ecs.pair_keys import PAIR_SHIFT, KeyedPairs, keyed_pairs
from arcade_collide.ecs.table import (
    KINDS,
    TABLE_QUERY,
    ShapeTable,
    pending_deletions,
    structure_probe,
    table_for_current_world,
    world_identity,
)
from arcade_collide.geometry import compiled
from arcade_collide.geometry.arrays import (
    BoolArray,
    FloatArray,
    IntArray,
    ShapeArrays,
    take,
)
from arcade_collide.geometry.broad_phase import GridBroadPhase
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.query.dispatch import contact_batch, intersects_batch
from arcade_collide.geometry.query.rows import (
    WorldRows,
    contact_rows,
    touching_rows,
    world_rows,
)
from arcade_collide.geometry.shapes import ShapeKind

_PAIR_LOW = (1 << PAIR_SHIFT) - 1
_NONE: frozenset[object] = frozenset()


class _Shapes:
    """One tick's world-space shapes as the narrow phase reads them (table rows)."""

    def __init__(self, table: ShapeTable | None = None, rows: WorldRows | None = None) -> None:
        self.kinds: Any = np.empty(0, dtype=np.int8) if table is None else table.kinds
        """Shape kind per table row."""
        self.world: dict[ShapeKind, ShapeArrays] = {} if table is None else table.world
        self.starts: dict[ShapeKind, int] = (
            {} if table is None else {block.kind: block.start for block in table.blocks}
        )
        self._rows = rows

    def rows(self) -> WorldRows:
        """These shapes as the compiled kernels read them (the table's view when it was
        given, else built on first use)."""
        if self._rows is None:
            self._rows = world_rows(self.kinds, self.world, self.starts)
        return self._rows


class _Snapshot:
    """What one tick left behind: the touching pairs and the shapes they were found on."""

    def __init__(self) -> None:
        self.keys: IntArray = np.empty(0, dtype=np.int64)
        """Sorted pair keys ``a << 32 | b``."""
        self.rows_i: IntArray = np.empty(0, dtype=np.intp)
        """Table row of the lower-kind side of each pair."""
        self.rows_j: IntArray = np.empty(0, dtype=np.intp)
        self.flip: BoolArray = np.empty(0, dtype=np.bool_)
        """True where entity ``a`` is on side ``j`` (its normal must be reversed)."""
        self.sensor: BoolArray = np.empty(0, dtype=np.bool_)
        self.shapes = _Shapes()
        """The shapes the pairs were found on (table rows index them)."""
        self.contacts: dict[tuple[int, int], Contact] | None = None
        self.reported: list[CollisionStarted] = []
        """This tick's CollisionStarted events: contacts() hands out their very contact
        objects rather than equal copies."""

    def select(self, keep: BoolArray) -> None:
        self.keys = self.keys[keep]
        self.rows_i = self.rows_i[keep]
        self.rows_j = self.rows_j[keep]
        self.flip = self.flip[keep]
        self.sensor = self.sensor[keep]
        self.contacts = None


class CollisionSystem(esper.Processor):
    """Finds touching shapes and reports when contacts start and end.

    See the module docstring for the pipeline and the exact event rules.

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

    def __init__(self) -> None:
        self._world: tuple[str, object, object] | None = None
        self._grid = GridBroadPhase()
        self._state = _Snapshot()
        self._subscriptions: list[Subscription] = []
        self._pending_ended: list[CollisionEnded] = []
        watch_handlers()

    # -- public API ---------------------------------------------------------

    def subscribe(
        self,
        *,
        on_started: StartedHandler | None = None,
        on_ended: EndedHandler | None = None,
    ) -> Subscription:
        """Call ``on_started`` / ``on_ended`` with this system's events until unsubscribed.

        The callbacks are held strongly (unlike ``esper.set_handler``), so lambdas work.
        Keyword-only, so that one callback meant for both kinds of event is not taken
        silently for ``on_started`` alone.

        >>> system = CollisionSystem()
        >>> with system.subscribe(on_started=lambda event: None) as sub:
        ...     sub.active
        True
        >>> sub.active
        False
        """
        sub = Subscription(self, on_started, on_ended)
        self._subscriptions.append(sub)
        return sub

    def _unsubscribe(self, sub: Subscription) -> None:
        self._subscriptions = [s for s in self._subscriptions if s is not sub]

    def contacts(self, sensors: bool = True) -> dict[tuple[int, int], Contact]:
        """The pairs ``(a, b)``, ``a < b``, touching after the last tick, with their contacts.

        Pairs with an entity deleted since the tick (by a handler, say) are left out;
        their :class:`CollisionEnded` still comes on the next tick.

        Args:
            sensors: Include pairs where either shape is a sensor.

        Returns:
            A new dict sorted by pair; each contact's normal points from ``a`` to ``b``.
        """
        state = self._state
        if state.contacts is None:
            contacts = _contacts_of(state, np.arange(len(state.keys)))
            for event in state.reported:
                pair = (event.a, event.b)
                if pair in contacts:  # (a pair dropped during delivery is gone)
                    contacts[pair] = event.contact
            state.contacts = contacts
        keep = self._alive(state.keys)
        if not sensors:
            keep &= ~state.sensor
        if keep.all():
            return dict(state.contacts)
        return {
            pair: contact
            for (pair, contact), kept in zip(state.contacts.items(), keep.tolist(), strict=True)
            if kept
        }

    def touching(self) -> list[tuple[int, int]]:
        """The pairs ``(a, b)`` touching after the last tick, sorted (no contacts computed).

        Like :meth:`contacts`, without pairs whose entity was deleted since the tick.
        """
        keys = self._state.keys
        keys = keys[self._alive(keys)]
        return list(zip(*_pairs(keys), strict=True))

    def _alive(self, keys: IntArray) -> BoolArray:
        """Which pairs have both entities still alive (checked in this system's world)."""
        keep = np.ones(len(keys), dtype=np.bool_)
        own = self._world is not None and self._world[0] == esper.current_world
        if not len(keys) or not own:
            return keep
        a, b = _pairs(keys)
        exists = esper.entity_exists
        return np.fromiter(
            (exists(x) and exists(y) for x, y in zip(a, b, strict=True)),
            dtype=np.bool_,
            count=len(keys),
        )

    # -- the tick -----------------------------------------------------------

    def process(self, *args: Any, **kwargs: Any) -> None:
        """Run one tick (``dt`` and other arguments of ``esper.process`` are ignored).

        Raises:
            RuntimeError: the system runs in a different world than its own.
            ValueError: an entity has a Shape but no Position, or a non-finite position.
            Exception: the first exception a handler raised, after delivering all events.
        """
        self._check_world()
        watch_handlers()
        table = table_for_current_world()
        table.refresh()
        old = self._state
        new, started, ended = self._touching(table, old.keys)

        want_started = self._listening(ON_COLLISION_STARTED)
        want_ended = self._listening(ON_COLLISION_ENDED)
        ended_events = _ended_events(old, ended) if want_ended and len(ended) else []
        started_events = _started_events(new, started) if want_started and len(started) else []
        new.reported = started_events
        self._state = new
        self._deliver(ended_events, started_events)

    def _check_world(self) -> None:
        name = esper.current_world
        identity = world_identity()
        counter = getattr(esper, "_entity_count")  # noqa: B009 - private to esper 3.9
        if self._world is None:
            self._world = (name, identity, counter)
            return
        own_name, own_identity, own_counter = self._world
        if name != own_name:
            raise RuntimeError(
                f"this CollisionSystem belongs to esper world {own_name!r} but ran in "
                f"{name!r}: add one CollisionSystem per world"
            )
        if identity is not own_identity or counter is not own_counter:
            # The world was deleted and recreated, or cleared: its entities are gone and
            # ids restart, so old pairs mean nothing. Start afresh, silently.
            self._world = (name, identity, counter)
            self._state = _Snapshot()
            self._grid = GridBroadPhase()
            self._pending_ended = []

    def _touching(
        self, table: ShapeTable, old_keys: IntArray
    ) -> tuple[_Snapshot, IntArray, IntArray]:
        """The touching pairs of the current table, sorted by key, and the positions of
        the started pairs in it and of the ended ones in ``old_keys`` (see :func:`_diff`)."""
        i, j = self._grid.pairs(table.aabbs)
        if compiled.ENABLED:
            # One compiled pass: filter, pose circles and exact tests (same answers);
            # then one for the keys, in key order, and the diff with last tick's.
            rows, pair_filter, circles = table.kernel_view()
            hit = touching_rows(i, j, rows, pair_filter, circles)
            keyed = keyed_pairs(
                i[hit], j[hit], table.entities, table.entity_rank(), table.sensor, old_keys
            )
            return _snapshot(keyed, _Shapes(table, rows)), keyed.started, keyed.ended
        shapes = _Shapes(table)
        if not table.filters_everything_in and len(i):
            layer, mask = table.layer, table.mask
            ok = ((layer[i] & mask[j]) != 0) & ((layer[j] & mask[i]) != 0)
            i, j = i[ok], j[ok]
        if table.has_convex and len(i):
            # Most pairs of compact shapes are decided by their pose-centred circles;
            # only the rest go through the exact kernels.
            touching, apart = classify(
                table.origin_x[j] - table.origin_x[i],
                table.origin_y[j] - table.origin_y[i],
                table.inner[i] + table.inner[j],
                table.outer[i] + table.outer[j],
                table.slack,
            )
            undecided = np.flatnonzero(~(touching | apart))
            hit = touching
            ti, tj = i[undecided], j[undecided]
            for sel, a, b in _batches(shapes, ti, tj):
                hit[undecided[sel]] = intersects_batch(a, b)
        else:
            hit = np.zeros(len(i), dtype=np.bool_)
            for sel, a, b in _batches(shapes, i, j):
                hit[sel] = intersects_batch(a, b)
        keyed = _sorted_pairs(table, i[hit], j[hit], old_keys)
        return _snapshot(keyed, shapes), keyed.started, keyed.ended

    def _listening(self, name: str) -> bool:
        if esper.event_registry.get(name):
            return True
        attr = "on_started" if name == ON_COLLISION_STARTED else "on_ended"
        return any(getattr(s, attr) is not None for s in self._subscriptions)

    def _handlers(self, name: str) -> list[tuple[Any, object]]:
        """The handlers of ``name`` now, each with what keeps it registered: its weak
        reference in esper's registry, or its :class:`Subscription`."""
        handlers: list[tuple[Any, object]] = []
        for ref in list(esper.event_registry.get(name, ())):
            func = ref()
            if func is not None:
                handlers.append((func, ref))
        attr = "on_started" if name == ON_COLLISION_STARTED else "on_ended"
        handlers.extend(
            (getattr(s, attr), s) for s in self._subscriptions if getattr(s, attr) is not None
        )
        return handlers

    def _deliver(
        self, ended: list[CollisionEnded], started: list[CollisionStarted]
    ) -> None:
        if self._pending_ended:
            # Ended events a BaseException cut off last time come first.
            ended = self._pending_ended + ended
            self._pending_ended = []
        errors: list[BaseException] = []
        dropped: list[int] = []
        # Index of the next event not yet handed to any handler (an event whose
        # delivery began counts as delivered).
        next_ended = 0
        next_started = 0
        registry = esper.event_registry
        subscriptions = self._subscriptions  # replaced, not edited, by (un)subscribe

        def hand_over(event: object, name: str, handlers: list[tuple[Any, object]],
                      kept: frozenset[object]) -> None:
            for handler, token in handlers:
                # A handler removed by an earlier one (unsubscribe, esper.remove_handler)
                # gets none of the rest of the tick's events. Checked only once the
                # handlers changed at all: the check costs more than the call.
                if (
                    self._subscriptions is not subscriptions
                    or registry.get(name, _NONE) != kept
                ) and not (
                    token.active
                    if isinstance(token, Subscription)
                    else token in registry.get(name, ())
                ):
                    continue
                try:
                    handler(event)
                except Exception as error:  # re-raised after delivery
                    errors.append(error)

        try:
            if ended:
                handlers = self._handlers(ON_COLLISION_ENDED)
                kept = frozenset(registry.get(ON_COLLISION_ENDED, ()))
                for ended_event in ended:
                    next_ended += 1
                    hand_over(ended_event, ON_COLLISION_ENDED, handlers, kept)
            if started:
                handlers = self._handlers(ON_COLLISION_STARTED)
                kept = frozenset(registry.get(ON_COLLISION_STARTED, ()))
                entities: dict[int, object] = world_identity()  # type: ignore[assignment]
                dead = pending_deletions()
                queries, answer = structure_probe()
                for event in started:
                    next_started += 1
                    # Checking existence costs a little, so only once a handler may
                    # have deleted an entity: a pending deletion, or an entity created
                    # or deleted at once (esper marks its query cache dirty, and empties
                    # it at the next query, which may fill it again with a new answer).
                    if (
                        dead
                        or answer is None
                        or getattr(esper, "_cache_dirty")  # noqa: B009
                        or queries.get(TABLE_QUERY) is not answer
                    ) and not (
                        event.a in entities
                        and event.b in entities
                        and event.a not in dead
                        and event.b not in dead
                    ):
                        dropped.append((event.a << PAIR_SHIFT) | event.b)
                        continue
                    hand_over(event, ON_COLLISION_STARTED, handlers, kept)
        except BaseException:
            # KeyboardInterrupt, SystemExit...: stop at once, but keep the books
            # balanced. Undelivered ended events wait for the next tick; pairs whose
            # started event was never delivered are forgotten, so no ended event can
            # follow a start nobody saw (the pair starts again if it still touches).
            self._pending_ended = ended[next_ended:]
            dropped.extend((e.a << PAIR_SHIFT) | e.b for e in started[next_started:])
            raise
        finally:
            if dropped:
                state = self._state
                state.select(~np.isin(state.keys, np.array(dropped, dtype=np.int64)))
        if errors:
            first = errors[0]
            for later in errors[1:]:
                note = getattr(first, "add_note", None)
                if note is not None:
                    note(f"another collision handler also raised: {later!r}")
            raise first


_CONVEX = (ShapeKind.RECT, ShapeKind.TRIANGLE, ShapeKind.POLYGON)

def _batches(
    shapes: _Shapes, i: IntArray, j: IntArray
) -> Iterator[tuple[IntArray | slice, ShapeArrays, ShapeArrays]]:
    """Split pairs of table rows into kernel batches: ``(selection, side A, side B)``.

    Rows are sorted by kind, so ``i < j`` means ``kind[i] <= kind[j]``. Each type pair
    goes through its own kernel, however small its batch: the kernels of two type pairs
    round differently (a rectangle tested as a polygon may miss a touching circle that
    the rectangle kernel finds), and the compiled path takes the same kernels.
    """
    if not len(i):
        return
    world, starts = shapes.world, shapes.starts
    if len(world) == 1:
        ((kind, arrays),) = world.items()
        start = starts[kind]
        yield slice(None), _take(arrays, i - start), _take(arrays, j - start)
        return
    code = shapes.kinds[i].astype(np.intp) * KINDS + shapes.kinds[j]
    order = np.argsort(code, kind="stable")
    counts = np.bincount(code, minlength=KINDS * KINDS)
    bounds = np.concatenate(([0], np.cumsum(counts)))
    for c in np.flatnonzero(counts).tolist():
        sel = order[bounds[c] : bounds[c + 1]]
        ka, kb = ShapeKind(c // KINDS), ShapeKind(c % KINDS)
        yield (
            sel,
            _take(world[ka], i[sel] - starts[ka]),
            _take(world[kb], j[sel] - starts[kb]),
        )


def _take(arrays: ShapeArrays, rows: IntArray) -> ShapeArrays:
    return take(arrays, rows)  # type: ignore[type-var]


def _sorted_pairs(table: ShapeTable, i: IntArray, j: IntArray, old_keys: IntArray) -> KeyedPairs:
    """The numpy path's :func:`~arcade_collide.ecs.pair_keys.keyed_pairs`: the touching
    table-row pairs ``(i, j)`` sorted by key, diffed with ``old_keys``."""
    ea = table.entities[i]
    eb = table.entities[j]
    keys = (np.minimum(ea, eb) << PAIR_SHIFT) | np.maximum(ea, eb)
    # Keys are unique, so any sort gives this order; numpy's stable sort (timsort on
    # int64) measured twice as fast as its default quicksort here.
    order = np.argsort(keys, kind="stable")
    rows_i, rows_j, sorted_keys = i[order], j[order], keys[order]
    started, ended = _diff(old_keys, sorted_keys)
    return KeyedPairs(
        sorted_keys, rows_i, rows_j, (ea > eb)[order],
        table.sensor[rows_i] | table.sensor[rows_j], started, ended,
    )


def _snapshot(keyed: KeyedPairs, shapes: _Shapes) -> _Snapshot:
    """A tick's snapshot of its touching pairs (either path's) and their shapes."""
    snap = _Snapshot()
    snap.keys = keyed.keys
    snap.rows_i = keyed.rows_i
    snap.rows_j = keyed.rows_j
    snap.flip = keyed.flip
    snap.sensor = keyed.sensor
    snap.shapes = shapes
    return snap


def _diff(old: IntArray, new: IntArray) -> tuple[IntArray, IntArray]:
    """Positions in ``new`` of keys absent from ``old``, and in ``old`` absent from ``new``.

    Both arrays are sorted and hold unique keys. A stable sort of the two sorted runs
    is one linear merge; a key in both then sits next to its twin. Measured three
    times faster than a binary search of each array in the other at 8,000 keys.
    """
    both = np.concatenate([old, new])
    order = np.argsort(both, kind="stable")
    merged = both[order]
    twin = merged[1:] == merged[:-1]
    shared = np.zeros(len(both), dtype=np.bool_)
    shared[:-1] |= twin
    shared[1:] |= twin
    in_both = np.empty_like(shared)
    in_both[order] = shared
    n_old = len(old)
    return np.flatnonzero(~in_both[n_old:]), np.flatnonzero(~in_both[:n_old])


def _contact_arrays(
    state: _Snapshot, idx: IntArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Normals (from a to b), depths and points of the pairs ``idx`` of a snapshot."""
    i = state.rows_i[idx]
    j = state.rows_j[idx]
    if compiled.ENABLED:
        _, normal, depth, point = contact_rows(i, j, state.shapes.rows())
    else:
        normal = np.zeros((len(idx), 2))
        depth = np.zeros(len(idx))
        point = np.zeros((len(idx), 2))
        for sel, a, b in _batches(state.shapes, i, j):
            result = contact_batch(a, b)
            normal[sel] = result.normal
            depth[sel] = result.depth
            point[sel] = result.point
    flip = state.flip[idx]
    normal[flip] *= -1.0
    # A -0.0 (from the flip, or kept by a reduction) would print oddly and compares
    # equal anyway; making zeros positive also makes both paths give the same bits.
    normal += 0.0
    point += 0.0
    return normal, depth, point


def _pairs(keys: IntArray) -> tuple[list[int], list[int]]:
    return (keys >> PAIR_SHIFT).tolist(), (keys & _PAIR_LOW).tolist()


def _contact_list(state: _Snapshot, idx: IntArray) -> list[Contact]:
    normal, depth, point = _contact_arrays(state, idx)
    # tuple.__new__ through map/zip builds the NamedTuples without a Python-level call
    # per contact: event building is per-event work, so it has to be lean.
    return list(
        map(
            _new_contact,
            zip(
                zip(normal[:, 0].tolist(), normal[:, 1].tolist(), strict=True),
                depth.tolist(),
                zip(point[:, 0].tolist(), point[:, 1].tolist(), strict=True),
                strict=True,
            ),
        )
    )


_new_contact = partial(tuple.__new__, Contact)
_new_started = partial(tuple.__new__, CollisionStarted)
_new_ended = partial(tuple.__new__, CollisionEnded)


def _contacts_of(state: _Snapshot, idx: IntArray) -> dict[tuple[int, int], Contact]:
    a, b = _pairs(state.keys[idx])
    return dict(zip(zip(a, b, strict=True), _contact_list(state, idx), strict=True))


def _started_events(state: _Snapshot, idx: IntArray) -> list[CollisionStarted]:
    a, b = _pairs(state.keys[idx])
    contacts = _contact_list(state, idx)
    return list(
        map(_new_started, zip(a, b, contacts, state.sensor[idx].tolist(), strict=True))
    )


def _ended_events(state: _Snapshot, idx: IntArray) -> list[CollisionEnded]:
    a, b = _pairs(state.keys[idx])
    return list(map(_new_ended, zip(a, b, state.sensor[idx].tolist(), strict=True)))

"""ResponseSystem: bodies blocked by solids and by each other, a stage of the
CollisionSystem's tick.

The rules:

* Who: an entity with a :class:`~arcade_collide.ecs.solids.Body` (and a Position and
  Shape) is moved; a shape with a :class:`~arcade_collide.ecs.solids.Solid` blocks it
  when ``body.blocked_by & shape.layer`` is not zero; another Body blocks it likewise.
  Sensors neither block nor are blocked.
* When: inside :meth:`CollisionSystem.process
  <arcade_collide.ecs.collision.CollisionSystem.process>`, after the shape table and
  the swept stage, before the broad phase. So the tick's contacts, its events and
  the handlers, and every query after the tick, see the resolved poses.
* Push out: a body overlapping what blocks it is pushed along the contact normal by
  the depth, its deepest contact first, then measured again (up to ``iterations``
  times): the tile a body rests on is deeper than the corner of the next flush tile,
  so a body sliding over a row of tiles never catches on their inner edges. It ends
  touching, overlapping by the table's coordinate slack (about ``1e-12`` of the
  coordinates), so a resting body touches at every tick: its contact neither ends nor
  sinks. Two bodies overlapping each other move half the depth each.
* One-way solids (``Solid(one_way=True)``) block a body only if its lowest point was at
  or above the solid's top when the tick began (where the last tick left it), and push
  it up, onto the top.
* Fast movers: a swept body (``Shape(swept=True)``) stops where its motion first met
  a solid that blocks it (as ``stop_at_impact`` does), then is resolved like any body.
* Velocity: for each blocking contact, the part of the body's velocity (relative to the
  other shape's Velocity) into the surface is removed, or reflected by the body's
  ``restitution`` when faster than ``bounce_speed``; ``friction`` slows its motion along
  the surface (see :func:`~arcade_collide.ecs.response_kernels.resolve_velocities`).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from arcade_collide.ecs.collision import CollisionSystem
from arcade_collide.ecs.queries import QueryIndex
from arcade_collide.ecs.response_kernels import (
    boxes_meeting,
    candidate_pairs,
    pairs_to_measure,
    push_deepest,
    reach_boxes,
    resolve_velocities,
    take_contacts,
)
from arcade_collide.ecs.response_roster import SOLID, Roster
from arcade_collide.ecs.storage import PooledRows
from arcade_collide.ecs.swept import Sweeps, SweptHits
from arcade_collide.ecs.table import ShapeTable
from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.query.kernel_base import Int64Array
from arcade_collide.geometry.query.rows import contact_rows

_NONE = np.empty(0, dtype=np.int64)
_TINY = 2.0**-40
"""The least margin a push leaves (a world whose coordinates are all near 0)."""


class Support(NamedTuple):
    """What a body stands on: its blocking contact whose normal points most upward
    (:meth:`ResponseSystem.support`; its example shows one found).

    >>> floor = Support(entity=1, normal=(0.0, 1.0), velocity=(0.0, 0.0))
    >>> floor.normal[1] > 0  # a floor, under the body
    True
    """

    entity: int
    """The solid (or body) supporting it."""
    normal: tuple[float, float]
    """The unit contact normal from the support towards the body (``y > 0``: a floor)."""
    velocity: tuple[float, float]
    """The support's Velocity ``(x, y)`` in px/s (``(0, 0)`` without one)."""


class Supports(NamedTuple):
    """:class:`Support` of many bodies as arrays, in the order asked
    (:meth:`ResponseSystem.supports`).

    >>> import esper
    >>> from arcade_collide import Body, Position, Rect, Shape, Solid, Static
    >>> esper.switch_world("supports-doctest")
    >>> collisions = CollisionSystem()
    >>> response = ResponseSystem(collisions)
    >>> esper.add_processor(collisions)
    >>> ground = esper.create_entity(Position(0, 0), Shape(Rect(200, 10)), Static(), Solid())
    >>> crate = esper.create_entity(Position(-50, 10), Shape(Rect(10, 10)), Body())
    >>> bird = esper.create_entity(Position(50, 80), Shape(Rect(10, 10)), Body())
    >>> esper.process(1 / 60)
    >>> found = response.supports([crate, bird])  # the bird stands on nothing
    >>> found.entity.tolist(), found.normal.tolist()
    ([1, -1], [[0.0, 1.0], [0.0, 0.0]])
    >>> esper.switch_world("default"); esper.delete_world("supports-doctest")
    """

    entity: Int64Array
    """``(K,)`` the supporting entity, -1 where a body touches nothing that blocks it."""
    normal: FloatArray
    """``(K, 2)`` the normals (zeros where none)."""
    velocity: FloatArray
    """``(K, 2)`` the supports' velocities (zeros where none)."""


_REACH = 1.0
"""How much farther than its own motion a body's candidate box reaches (px)."""

_PROBE = 2.0**-10
"""How far past a contact point, along its normal,
:func:`~arcade_collide.ecs.response_kernels.inner_edges` looks for another solid (px):
far beyond the push margin, far below a tile.

A touching pair whose probe point lies in the box of another solid near the same body
touches on an inner edge, as where two flush tiles meet: its normal would stop a body
sliding over the seam (a ghost collision), so it does not block; the neighbouring
solid's own contact holds the body instead."""


class ResponseSystem:
    """Moves each :class:`~arcade_collide.ecs.solids.Body` out of what blocks it and
    resolves its velocity, inside ``collisions``' tick (see module docstring).

    It is a stage of the CollisionSystem, not a processor of its own: make it once,
    after the CollisionSystem, and keep it to ask :meth:`support`.

    Args:
        collisions: The CollisionSystem whose tick runs this response.
        bounce_speed: Approach speeds (px/s) up to this do not bounce, whatever the
            restitution (a body resting under gravity would hop every tick).
        iterations: Push-outs per body and tick at most (each resolves one contact).
        on_moved: Called once per tick, before the tick's events are delivered, with
            the bodies the response moved (the Arcade bridge moves their sprites there).

    Raises:
        TypeError: ``collisions`` is not a CollisionSystem, a number is not one, or
            ``on_moved`` is not callable.
        ValueError: ``bounce_speed`` is negative or not finite, ``iterations`` below 1,
            or ``collisions`` has a ResponseSystem already.

    >>> import esper
    >>> from arcade_collide import CollisionSystem, Position, Rect, Shape, Static, Velocity
    >>> from arcade_collide.ecs.solids import Body, Solid
    >>> esper.switch_world("response-doctest")
    >>> floor = esper.create_entity(Position(0, 0), Shape(Rect(100, 10)), Static(), Solid())
    >>> box = esper.create_entity(Position(0, 9), Velocity(0, -60), Shape(Rect(10, 10)), Body())
    >>> collisions = CollisionSystem()
    >>> esper.add_processor(collisions)
    >>> response = ResponseSystem(collisions)
    >>> esper.process(1 / 60)
    >>> round(esper.component_for_entity(box, Position).y, 6)  # resting on the floor
    10.0
    >>> response.support(box)
    Support(entity=1, normal=(0.0, 1.0), velocity=(0.0, 0.0))
    >>> esper.switch_world("default"); esper.delete_world("response-doctest")
    """

    def __init__(
        self,
        collisions: CollisionSystem,
        *,
        bounce_speed: float = 50.0,
        iterations: int = 8,
        on_moved: Callable[[list[int]], object] | None = None,
    ) -> None:
        if not isinstance(collisions, CollisionSystem):
            raise TypeError(
                f"collisions must be a CollisionSystem, got {type(collisions).__name__}"
            )
        if collisions._response is not None:
            raise ValueError("this CollisionSystem already has a ResponseSystem")
        if isinstance(bounce_speed, bool) or not isinstance(bounce_speed, numbers.Real):
            raise TypeError(f"bounce_speed must be a number, got {type(bounce_speed).__name__}")
        if not 0.0 <= float(bounce_speed) < float("inf"):
            raise ValueError(f"bounce_speed must be finite and at least 0, got {bounce_speed!r}")
        if isinstance(iterations, bool) or not isinstance(iterations, numbers.Integral):
            raise TypeError(f"iterations must be an int, got {type(iterations).__name__}")
        if iterations < 1:
            raise ValueError(f"iterations must be at least 1, got {iterations!r}")
        if on_moved is not None and not callable(on_moved):
            raise TypeError(f"on_moved must be callable or None, got {type(on_moved).__name__}")
        self._on_moved: Callable[[list[int]], object] | None = on_moved
        self.bounce_speed: float = float(bounce_speed)
        self.iterations: int = int(iterations)
        self._roster: Roster = Roster()
        self._table: ShapeTable | None = None
        self._last_ids: Int64Array = _NONE
        self._last_poses: FloatArray = np.empty((0, 3))
        self._supports: Supports = Supports(_NONE, np.empty((0, 2)), np.empty((0, 2)))
        self._collisions: CollisionSystem = collisions
        collisions._response = self.respond

    # -- supports -----------------------------------------------------------

    def support(self, entity: int) -> Support | None:
        """What body ``entity`` stood on after the last tick (None: nothing blocking it
        touches it, or it is not a body).

        Raises:
            TypeError: ``entity`` is not an int.
        """
        if isinstance(entity, bool) or not isinstance(entity, numbers.Integral):
            raise TypeError(f"entity must be an int, got {type(entity).__name__}")
        found = self.supports([int(entity)])
        if found.entity[0] < 0:
            return None
        nx, ny = found.normal[0].tolist()
        vx, vy = found.velocity[0].tolist()
        return Support(int(found.entity[0]), (nx, ny), (vx, vy))

    def supports(self, entities: object) -> Supports:
        """:meth:`support` of many bodies at once, as arrays in the order given.

        Raises:
            TypeError: ``entities`` is not a sequence of ints.
        """
        wanted = np.asarray(entities)
        if wanted.ndim != 1 or (len(wanted) and wanted.dtype.kind not in "iu"):
            raise TypeError("entities must be a 1-D sequence of entity ids (ints)")
        wanted = wanted.astype(np.int64)
        ids = self._last_ids
        held = self._supports
        if len(wanted) == len(ids) and np.array_equal(wanted, ids):
            # Every body, in its order (a PlatformerSystem controlling them all).
            return Supports(held.entity.copy(), held.normal.copy(), held.velocity.copy())
        at = np.minimum(np.searchsorted(ids, wanted), max(len(ids) - 1, 0))
        found = (ids[at] == wanted) if len(ids) else np.zeros(len(wanted), dtype=np.bool_)
        entity = np.full(len(wanted), -1, dtype=np.int64)
        normal = np.zeros((len(wanted), 2))
        velocity = np.zeros((len(wanted), 2))
        if len(ids):
            entity[found] = held.entity[at[found]]
            known = entity >= 0
            normal[known] = held.normal[at[known]]
            velocity[known] = held.velocity[at[known]]
        return Supports(entity, normal, velocity)

    # -- the stage ----------------------------------------------------------

    def respond(self, table: ShapeTable, index: QueryIndex) -> None:
        """Resolve the bodies of ``table`` (refreshed); the CollisionSystem calls it
        each tick after the swept stage. Positions it moves are placed again."""
        if table is not self._table:
            self._table = table
            self._roster = Roster()
            self._last_ids, self._last_poses = _NONE, np.empty((0, 3))
        roster = self._roster
        index.update(table)
        roster.update(table, index)
        count = len(roster.rows)
        if not count:
            self._last_ids = _NONE
            self._supports = Supports(_NONE, np.empty((0, 2)), np.empty((0, 2)))
            return
        before = roster.positions.read().copy()
        poses = before.copy()
        start = self._start(roster.entities, before)
        margin = max(table.slack, _TINY)
        sweeps = self._collisions._sweeps
        if sweeps.hits is not None and _stop_swept(table, roster, sweeps, poses, start):
            roster.positions.write(poses)
            table.refresh()
        pairs = _candidates(table, index, roster, poses, start)
        contacts = _Contacts.none(len(pairs.body))
        measure = _Measure(table, roster, pairs, poses, start, margin)
        measure(contacts, np.ones(count, dtype=np.bool_))
        for _ in range(self.iterations):
            moving = push_deepest(
                pairs.body, contacts.hit, contacts.blocking, contacts.depth,
                pairs.share, contacts.normal, margin, poses,
            )  # fmt: skip
            if not moving.any():
                break
            _write_moved(roster.positions, poses, moving)
            table.refresh()
            measure(contacts, moving)
        self._velocities(table, pairs, contacts)
        swept = table.sweep[roster.rows] > 0
        if swept.any():
            sweeps.moved(roster.entities[swept], poses[swept])
        self._last_ids = roster.entities
        self._last_poses = poses
        if self._on_moved is not None:
            moved = (poses != before).any(axis=1)
            if moved.any():
                self._on_moved(roster.entities[moved].tolist())

    def _start(self, entities: Int64Array, now: FloatArray) -> FloatArray:
        """Each body's pose where the last tick left it (``now`` for a new body)."""
        last = self._last_ids
        if last is entities:
            return self._last_poses
        start: FloatArray = now.copy()
        if len(last):
            at = np.minimum(np.searchsorted(last, entities), len(last) - 1)
            known = last[at] == entities
            start[known] = self._last_poses[at[known]]
        return start

    def _velocities(self, table: ShapeTable, pairs: _Pairs, contacts: _Contacts) -> None:
        """Resolve the bodies' velocities against their blocking contacts, and keep
        each body's support."""
        roster = self._roster
        count = len(roster.rows)
        speeds = np.ascontiguousarray(roster.velocities.read(), dtype=np.float64).copy()
        movers = np.ascontiguousarray(roster.mover_velocities.read(), dtype=np.float64)
        support = np.empty(count, dtype=np.int64)
        normal, velocity = np.empty((count, 2)), np.empty((count, 2))
        resolve_velocities(
            pairs.body, pairs.other, contacts.normal, pairs.share, contacts.hit,
            contacts.blocking, roster.mover, movers, roster.velocity_row, speeds,
            roster.restitution, roster.friction, self.bounce_speed, table.entities, support,
            normal, velocity,
        )  # fmt: skip
        if len(speeds):
            roster.velocities.write(speeds)
        self._supports = Supports(support, normal, velocity)


class _Pairs(NamedTuple):
    """The candidate pairs (body index, other table row), grouped by body."""

    body: Int64Array
    """Ascending: the pairs of one body are adjacent."""
    other: Int64Array
    other_body: Int64Array
    """The other shape's body index (-1: a solid, not a body)."""
    share: FloatArray
    """The body's share of the push: 0.5 where the other body is pushed too, else 1."""
    body_row: Int64Array
    """The body's table row."""


class _Contacts(NamedTuple):
    """The pairs' contacts now, pair by pair."""

    hit: BoolArray
    normal: FloatArray
    """``(M, 2)`` from the other shape towards the body."""
    depth: FloatArray
    point: FloatArray
    blocking: BoolArray

    @classmethod
    def none(cls, count: int) -> _Contacts:
        """``count`` pairs, none measured yet."""
        no = np.zeros(count, dtype=np.bool_)
        return cls(no, np.zeros((count, 2)), np.zeros(count), np.zeros((count, 2)), no.copy())


def _candidates(
    table: ShapeTable, index: QueryIndex, roster: Roster, poses: FloatArray, start: FloatArray
) -> _Pairs:
    """The pairs (body, table row) whose boxes are near enough to touch during the
    push-outs: each body's box grown by how far it moved since the last tick (what it
    can have sunk into anything) and :data:`_REACH`, at most half its larger side."""
    rows = roster.rows
    boxes = reach_boxes(table.aabbs, rows, poses, start, _REACH)
    grid, static_rows = index.static_grid()
    static_q, static_s = grid.pairs(boxes)
    others = table.dynamic_rows
    moving_q, moving_s = _NONE, _NONE
    if len(others):
        moving_q, moving_s = boxes_meeting(boxes, table.aabbs[others])
    body, other, other_body, share = candidate_pairs(
        static_q, static_s, static_rows, moving_q, moving_s, others, rows, roster.body_of,
        roster.code, roster.blocked_by, table.layer, table.sensor,
    )  # fmt: skip
    return _Pairs(body, other, other_body, share, rows[body])


class _Measure:
    """Measures the pairs' contacts at the table's current poses (see :meth:`__call__`)."""

    def __init__(
        self,
        table: ShapeTable,
        roster: Roster,
        pairs: _Pairs,
        poses: FloatArray,
        start: FloatArray,
        margin: float,
    ) -> None:
        self.table, self.roster, self.pairs = table, roster, pairs
        self.poses, self.start, self.margin = poses, start, margin

    def __call__(self, contacts: _Contacts, moved: BoolArray) -> None:
        """Measure into ``contacts`` the pairs of the bodies ``moved``, or against one,
        and whether each blocks (only a pair's two poses decide its contact and flags:
        the other pairs stand; :func:`~arcade_collide.ecs.response_kernels.take_contacts`)."""
        table, roster, pairs = self.table, self.roster, self.pairs
        which = pairs_to_measure(
            moved, pairs.body, pairs.other_body, pairs.body_row, pairs.other, table.aabbs,
            contacts.hit,
        )  # fmt: skip
        every = len(which) == len(pairs.body)
        i = pairs.body_row if every else pairs.body_row[which]
        j = pairs.other if every else pairs.other[which]
        take_contacts(
            which, *contact_rows(i, j, table.rows), pairs.body, pairs.other, pairs.other_body,
            roster.rows, roster.code, table.aabbs, self.poses, self.start, table.slack,
            self.margin, _PROBE, contacts.hit, contacts.normal, contacts.depth, contacts.point,
            contacts.blocking,
        )  # fmt: skip


def _write_moved(positions: PooledRows, poses: FloatArray, moving: BoolArray) -> None:
    """Write the poses of the bodies ``moving`` (the others are unchanged): the table
    then places only those rows again."""
    if len(positions.pools) != 1:
        positions.write(poses)
        return
    pool, rows = positions.pools[0], positions.rows[moving]
    pool.data[rows] = poses[moving]
    pool.touch(rows)


def _stop_swept(
    table: ShapeTable, roster: Roster, sweeps: Sweeps, poses: FloatArray, start: FloatArray
) -> bool:
    """Move each swept body whose motion this tick met a solid blocking it back to its
    first such touch (a hair past it, so the two touch), as ``stop_at_impact`` does, and
    drop its later hits; ``poses`` are changed in place. Whether any body stopped."""
    hits = sweeps.hits
    assert hits is not None  # checked by the caller
    body = roster.body_of[hits.rows_a]
    other = hits.rows_b
    found = hits.found
    blocks = (body >= 0) & (roster.code[other] == SOLID)
    blocks &= ~(table.sensor[hits.rows_a] | table.sensor[other])
    blocks[blocks] &= (roster.blocked_by[body[blocks]] & table.layer[other[blocks]]) != 0
    t = poses[:, :2] - start[:, :2]
    # Only a motion into the solid stops; one touching it at the start of the tick
    # (time 0) is left to the push-out, which holds it touching if it presses on.
    blocks &= found[:, 0] > 0.0
    blocks[blocks] &= (t[body[blocks]] * found[blocks, 3:5]).sum(axis=1) < 0.0
    if not blocks.any():
        return False
    stop = np.full(len(roster.rows), np.inf)
    np.minimum.at(stop, body[blocks], found[blocks, 0])
    length = np.hypot(t[:, 0], t[:, 1])
    with np.errstate(divide="ignore", invalid="ignore"):
        past = np.where(length > 0.0, max(table.slack, _TINY) / length, 0.0)
    fraction = np.minimum(stop + np.where(stop > 0.0, past, 0.0), 1.0)
    stopping = np.isfinite(stop) & (fraction < 1.0)
    if not stopping.any():
        return False
    poses[stopping, :2] = start[stopping, :2] + fraction[stopping, None] * t[stopping]
    later = (body >= 0) & (found[:, 0] > stop[np.maximum(body, 0)])
    if later.any():
        keep = ~later
        sweeps.hits = SweptHits(
            hits.rows_a[keep], hits.rows_b[keep], hits.fresh[keep], hits.found[keep]
        )
    return True

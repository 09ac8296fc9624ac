"""Swept detection: the stage that tests each swept shape's motion over the tick
(``Shape(swept=True)``), between the shape table and the broad phase.

The rules:

* Motion: a swept shape moves from its pose at the last tick to its pose now, along a
  straight line. On its first tick (a new entity) it moves from where it was before
  the tick moved anything: before the MovementSystem integrated it, or before the
  Arcade bridge read the game's moves of its sprite (the table keeps those poses,
  :meth:`~arcade_collide.ecs.table.ShapeTable.note_sweep_starts`); without either,
  or for a shape just made swept, it has no motion that tick. Moving it by hand counts
  like any motion: a teleported swept shape is swept across the gap (make it not
  swept for that tick to teleport it).
* Rotation: a shape whose angle changed during the tick is cast as the circle about
  its pose origin that holds it at every angle. That is conservative: it never misses
  a touch the turning outline made, and it may report one the outline narrowly
  missed. Points and circles are exact however they turn.
* What it meets: every shape whose box its swept box overlaps, static shapes included,
  with the layer filter and the rule that two static shapes never collide. Shapes
  that are not swept are taken where they are at the end of the tick (their own
  motion is not swept); against another swept shape the relative motion of the two
  counts.
* Stopping: a swept shape that also has ``stop_at_impact`` stops at its first impact
  with a shape that is not a sensor (when neither of the two is a sensor, and they
  were approaching: a shape touching another can always move away). Its Position is
  moved back to the pose at that fraction of the tick, a hair past it (the table's
  coordinate slack) so that the two touch at the end of the tick whatever the
  rounding; one already touching at the start of the tick stays where it was.
  Shapes it would have met later are not met; the sensors it met on the way are
  still reported.
* Events (:mod:`~arcade_collide.ecs.collision`): a swept pair that did not touch at
  the last tick and touched during this one gets a ``CollisionStarted`` whose
  ``toi`` is the fraction of the tick at the first touch and whose contact is the
  one at that moment (the normal from ``a`` towards ``b``; depth 0, unless the two
  already overlapped at the start of the motion, ``toi`` 0, where it is that
  overlap's). When it no
  longer touches at the end of the tick, its ``CollisionEnded`` follows in the same
  tick's delivery, after every start of the tick.
"""

from __future__ import annotations

from typing import NamedTuple

import esper
import numpy as np

from arcade_collide.ecs.components import Position
from arcade_collide.ecs.queries import QueryIndex
from arcade_collide.ecs.swept_pairs import (
    STOP,
    joined_candidates,
    kept_hits,
    kept_places,
    motions,
    moved_motions,
    same_swept_poses,
    swept_pass,
    swept_poses,
)
from arcade_collide.ecs.table import ShapeTable
from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.broad_phase import SweepBroadPhase
from arcade_collide.geometry.query.kernel_base import Int64Array
from arcade_collide.geometry.query.sweeps import swept_rows
from arcade_collide.geometry.static_grid import StaticGrid

_NO_ROWS = np.empty(0, dtype=np.int64)


class SweptHits(NamedTuple):
    """The swept pairs that touched during a tick, as table rows of that tick's table."""

    rows_a: Int64Array
    """The swept (moving) side of each pair."""
    rows_b: Int64Array
    """The other side."""
    fresh: BoolArray
    """Whether each pair did not touch at the last tick (it may get events)."""
    found: FloatArray
    """``(M, 6)`` rows ``(fraction, px, py, nx, ny, depth)``: the first touch, its
    point, the normal from B towards A and the depth (0, but for a pair overlapping at
    the start)."""


class SweptCandidates(NamedTuple):
    """A tick's swept candidates, table rows of that tick's table: each moving swept
    row paired once with every row whose box its motion swept over."""

    layout: int
    """The table's layout and revision they were found in: they hold for the table
    while it has not changed since."""
    revision: int
    rows: Int64Array
    """The moving swept rows."""
    a: Int64Array
    """The swept side of each pair."""
    b: Int64Array
    """The other side."""


class Sweeps:
    """The swept shapes of one world's table: their poses at the last tick, and this
    tick's hits."""

    def __init__(self) -> None:
        self._entities: Int64Array = _NO_ROWS
        """The swept entities at the last tick, ascending."""
        self._poses: FloatArray = np.empty((0, 3))
        """Their poses ``(x, y, angle)`` then."""
        self._order: Int64Array = _NO_ROWS
        """The order that sorted the table's swept rows by entity at the last tick."""
        self.hits: SweptHits | None = None
        """This tick's hits (None when no swept shape moved)."""
        self.met: SweptCandidates | None = None
        """This tick's candidates (None when no swept shape moved)."""
        self._sweep = SweepBroadPhase()
        """Pairs the swept boxes (it keeps their order from tick to tick)."""
        self._numbered: Int64Array = _NO_ROWS
        """The entities of the moving swept rows, ascending, that number the boxes of
        :attr:`_sweep`: box ``k`` is ``_numbered[k]``'s."""

    def sweep(self, table: ShapeTable, index: QueryIndex, old_keys: Int64Array) -> list[int]:
        """Find the swept shapes' hits of this tick (:attr:`hits`) in ``table``,
        refreshed; stop those that stop at impact (their Positions are written: refresh
        the table again). ``old_keys`` are the pairs touching at the last tick (their
        start contacts are not needed). Returns the entities stopped."""
        self.hits = self.met = None
        rows = table.swept_rows
        if not len(rows):
            if len(self._entities):
                self._entities, self._poses, self._order = _NO_ROWS, np.empty((0, 3)), _NO_ROWS
            return []
        data, pose_rows = table.poses()
        n = len(rows)
        rows_now, now = np.empty(n, dtype=np.int64), np.empty((n, 3))
        args = (self._order, table.entities, self._entities, data, pose_rows, rows_now, now)
        if same_swept_poses(rows, *args):
            # The same swept entities as at the last tick (in the same order here).
            rows, entities, before = rows_now, self._entities, self._poses
            known = np.ones(n, dtype=np.bool_)
            table.take_sweep_starts()
        else:
            # Swept shapes first seen this tick start at the poses kept before it moved them.
            starts = table.take_sweep_starts() or (_NO_ROWS, np.empty((0, 3)))
            order, entities, rows, now, before, known = swept_poses(
                rows, table.entities[rows], self._entities, self._poses, data, pose_rows,
                *starts, self._order,
            )  # fmt: skip
            self._order = order
        moving, moved = np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.int64)
        start, end = np.empty((n, 3)), np.empty((n, 3))
        count = moved_motions(rows, before, now, known, moving, moved, start, end)
        stopped: list[int] = []
        if count:
            stopped = self._hits(
                table, index, old_keys, moved[:count], start[:count], end[:count], now, moving
            )
        self._entities, self._poses = entities, now
        return stopped

    def moved(self, entities: Int64Array, poses: FloatArray) -> None:
        """Take ``poses`` as where swept ``entities`` end this tick (a later stage moved
        them): the next tick sweeps them from there."""
        at = np.minimum(np.searchsorted(self._entities, entities), len(self._entities) - 1)
        if len(self._entities):
            found = self._entities[at] == entities
            self._poses[at[found]] = poses[found]

    def _hits(
        self,
        table: ShapeTable,
        index: QueryIndex,
        old_keys: Int64Array,
        rows: Int64Array,
        start: FloatArray,
        end: FloatArray,
        now: FloatArray,
        moving: BoolArray,
    ) -> list[int]:
        """Cast the moving swept ``rows`` from ``start`` to ``end``, where the table holds
        them; stop those that stop (``now``, the poses of every swept row at ``moving``,
        is updated for them)."""
        t, turn, radius, ends, boxes = motions(
            start, end, rows, table.kinds, table.outer, table.slack, table.aabbs,
            table.origin_x, table.origin_y,
        )  # fmt: skip
        self._follow(table.entities[rows])
        candidates = _candidates(table, index, self._sweep, rows, ends, t, boxes)
        a, b, b_moving = candidates
        n = len(a)
        out_a, out_b, out_m, row_a = (np.empty(n, dtype=np.int64) for _ in range(4))
        d, pair = np.empty((n, 2)), np.empty((n, 6))
        exact, fresh = np.empty(n, dtype=np.bool_), np.empty(n, dtype=np.bool_)
        count = swept_pass(
            rows, t, radius, a, b, b_moving, table.origin_x, table.origin_y, table.entities,
            table.static, table.layer, table.mask, table.sweep, np.ascontiguousarray(old_keys),
            out_a, out_b, out_m, row_a, d, pair, exact, fresh,
        )  # fmt: skip
        d, pair = d[:count], pair[:count]
        hit = np.empty(count, dtype=np.bool_)
        found = np.empty((count, 6))
        swept_rows(
            table.rows, row_a[:count], out_b[:count], d, pair[:, 0].copy(), pair[:, 1].copy(),
            np.ascontiguousarray(pair[:, 2:]), exact[:count], hit, found,
        )  # fmt: skip
        kept = kept_hits(hit, out_a, out_b, out_m, fresh, d, found)
        a, b, b_moving = out_a[:kept], out_b[:kept], out_m[:kept]
        fresh, d, found = fresh[:kept], d[:kept], found[:kept]
        stop = _first_stops(table, rows, a, b, b_moving, d, found)
        if stop is not None:
            keep = found[:, 0] <= stop[a]
            keep[b_moving >= 0] &= found[b_moving >= 0, 0] <= stop[b_moving[b_moving >= 0]]
            a, b, found, fresh = a[keep], b[keep], found[keep], fresh[keep]
        self.hits = SweptHits(rows[a], b, fresh, found)
        self.met = SweptCandidates(
            table.layout, table.revision, rows, rows[candidates[0]], candidates[1]
        )
        if stop is None:
            return []
        return _stop(table, rows, start, end, t, turn, stop, now, moving)

    def _follow(self, entities: Int64Array) -> None:
        """Number the swept boxes by ``entities`` (this tick's moving swept entities,
        ascending): when bullets come and go, the kept ones keep their place in the
        sweep's order and the new ones are merged in, rather than every box sorted
        afresh."""
        old, self._numbered = self._numbered, entities
        if len(old) == len(entities) and np.array_equal(old, entities):
            return
        self._sweep.renumber(kept_places(old, entities), len(entities))


def _candidates(
    table: ShapeTable, index: QueryIndex, sweep: SweepBroadPhase, rows: Int64Array,
    ends: FloatArray, t: FloatArray, boxes: FloatArray,
) -> tuple[Int64Array, Int64Array, Int64Array]:  # fmt: skip
    """The pairs the moving swept ``rows`` may have met: ``(a, b, b_moving)`` with
    ``rows[a]`` the swept row, ``b`` the other table row, and ``b_moving`` its index
    in ``rows`` when it is one of them (else -1). Each pair once; the layer filter and
    the rule that two static rows never collide are left to :func:`swept_pass`.

    The rows that stay put are those whose boxes the swept rows' ``ends`` (moved back
    along ``t``) sweep over; two swept rows, those whose motions' bounding ``boxes``
    overlap."""
    index.update(table)
    grid, static_rows = index.static_grid()
    q, s = grid.moving_pairs(ends, t)
    others = q_other = s_other = i = j = _NO_ROWS
    if len(table.dynamic_rows) > len(rows) - np.count_nonzero(table.static[rows]):
        others = np.setdiff1d(table.dynamic_rows, rows, assume_unique=True)
    if len(others):
        q_other, s_other = StaticGrid(table.aabbs[others]).moving_pairs(ends, t)
    layers = np.bitwise_or.reduce(table.layer[rows])
    masks = np.bitwise_or.reduce(table.mask[rows])
    if len(rows) > 1 and layers & masks:  # else no two swept rows may collide
        i, j = sweep.pairs(boxes)
    n = len(q) + len(q_other) + len(i)
    a, b, b_moving = (np.empty(n, dtype=np.int64) for _ in range(3))
    joined_candidates(q, s, static_rows, q_other, s_other, others, i, j, rows, a, b, b_moving)
    return a, b, b_moving


def _first_stops(
    table: ShapeTable,
    rows: Int64Array,
    a: Int64Array,
    b: Int64Array,
    b_moving: Int64Array,
    d: FloatArray,
    found: FloatArray,
) -> FloatArray | None:
    """Per moving swept row, the fraction of its first blocking impact (inf: none);
    None when no row stops."""
    if not (table.sweep[rows] == STOP).any():
        return None  # (every side that may stop is one of ``rows``)
    row_a = rows[a]
    stops_a = table.sweep[row_a] == STOP
    stops_b = np.zeros(len(b), dtype=np.bool_)
    both = b_moving >= 0
    stops_b[both] = table.sweep[b[both]] == STOP
    if not (stops_a.any() or stops_b.any()):
        return None
    approaching = (found[:, 0] > 0.0) | ((d * found[:, 3:5]).sum(axis=1) < 0.0)
    blocking = approaching & ~(table.sensor[row_a] | table.sensor[b])
    stop = np.full(len(rows), np.inf)
    np.minimum.at(stop, a[blocking & stops_a], found[blocking & stops_a, 0])
    np.minimum.at(stop, b_moving[blocking & stops_b], found[blocking & stops_b, 0])
    return stop if np.isfinite(stop).any() else None


def _stop(
    table: ShapeTable,
    rows: Int64Array,
    start: FloatArray,
    end: FloatArray,
    t: FloatArray,
    turn: FloatArray,
    stop: FloatArray,
    now: FloatArray,
    moving: BoolArray,
) -> list[int]:
    """Move the rows that stop to their stopping poses (writing their Positions and
    ``now``); return their entities."""
    length = np.hypot(t[:, 0], t[:, 1])
    with np.errstate(divide="ignore", invalid="ignore"):
        past = np.where(length > 0.0, max(table.slack, 1e-12) / length, 0.0)
    past[stop == 0.0] = 0.0  # touching at the start: it stays where it touches
    fraction = np.minimum(stop + past, 1.0)
    stopping = np.isfinite(stop) & (fraction < 1.0)
    if not stopping.any():
        return []
    fraction = fraction[stopping]
    poses = start[stopping].copy()
    poses[:, :2] += fraction[:, None] * t[stopping]
    poses[:, 2] += fraction * turn[stopping]
    entities: list[int] = table.entities[rows[stopping]].tolist()
    for entity, (x, y, angle) in zip(entities, poses.tolist(), strict=True):
        position = esper.component_for_entity(entity, Position)
        position.x, position.y, position.angle = x, y, angle
    end[stopping] = poses
    now[np.flatnonzero(moving)[stopping]] = poses
    return entities

"""A tick's started events when swept shapes met something during it, and the ended
events of the pairs they crossed, built in bulk from the hits' arrays (the rules:
:mod:`~arcade_collide.ecs.swept` and :mod:`~arcade_collide.ecs.collision`).

The started events of a tick are of three sorts: pairs touching at the end of the tick
with no sweep involved (``toi`` None, counted as 1.0 in the order), pairs touching at
the end that a swept shape met during the tick (its time of impact and contact then),
and pairs a swept shape met and left again (crossed). They are ordered by time
(``toi``, then ``(a, b)``) in one sort over arrays; each event object is built once.
"""

from __future__ import annotations

import numpy as np

from arcade_collide.ecs.contact_state import TouchingPairs, contact_objects
from arcade_collide.ecs.events import CollisionEnded, CollisionStarted, built
from arcade_collide.ecs.narrow_phase import pair_contacts
from arcade_collide.ecs.swept import SweptHits
from arcade_collide.ecs.swept_pairs import find_pair, find_pairs
from arcade_collide.ecs.table import ShapeTable
from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import Int64Array, types

_I1 = types.int64[::1]
_F1 = types.float64[::1]
_F2 = types.float64[:, ::1]
_B1 = types.boolean[::1]

class TickEvents:
    """A tick's started events in delivery order, and the ends of its crossed pairs."""

    __slots__ = ("crossed", "plain", "started")

    def __init__(
        self,
        started: list[CollisionStarted],
        plain: list[CollisionStarted],
        crossed: list[CollisionEnded],
    ) -> None:
        self.started = started
        """Every started event, in time order."""
        self.plain = plain
        """Those of them with no time of impact (their contacts are the tick's)."""
        self.crossed = crossed
        """The ended events of the crossed pairs, in their starts' order."""


def swept_events(
    hits: SweptHits,
    table: ShapeTable,
    new: TouchingPairs,
    started: Int64Array,
    want_started: bool,
    want_ended: bool,
) -> TickEvents:
    """The started events of the tick and the ends of the crossed pairs.

    Args:
        hits: The tick's swept hits, rows of ``table``.
        table: The tick's table.
        new: The pairs touching at the end of the tick.
        started: Positions in ``new`` of the pairs that started this tick (ascending).
        want_started: Whether anyone listens to started events (else none is built).
        want_ended: Whether anyone listens to ended events.
    """
    keys = np.ascontiguousarray(new.keys)
    if not want_started:
        if not want_ended:
            return TickEvents([], [], [])
        fresh = hits.fresh
        rows_a, rows_b = hits.rows_a[fresh], hits.rows_b[fresh]
        ea, eb = table.entities[rows_a], table.entities[rows_b]
        lo, hi = np.minimum(ea, eb), np.maximum(ea, eb)
        crossed = find_pairs(keys, lo, hi) < 0
        found = hits.found[fresh]
        return TickEvents([], [], _crossed_only(table, rows_a, rows_b, lo, hi, found, crossed))
    # A started pair that a swept shape touched first during the tick takes that hit.
    a, b, toi, normal, depth, point, sensor, plain, n, crossings = _unordered(
        hits.fresh, hits.rows_a, hits.rows_b, hits.found, table.entities, table.sensor,
        keys, np.ascontiguousarray(started), np.ascontiguousarray(new.sensor),
    )  # fmt: skip
    if len(plain) and new.rows is not None:
        normal[n:], depth[n:], point[n:] = pair_contacts(
            new.rows, new.rows_i, new.rows_j, new.flip, plain
        )
    a, b, toi, normal, depth, point, sensor, plain_at, crossed_at = _ordered(
        a, b, toi, normal, depth, point, sensor, n, crossings
    )
    contacts = contact_objects(normal, depth, point)
    tois: list[float | None] = toi.tolist()
    plain_list: list[int] = plain_at.tolist()
    for p in plain_list:
        tois[p] = None
    a_list, b_list, sensor_list = a.tolist(), b.tolist(), sensor.tolist()
    events = built(CollisionStarted, zip(a_list, b_list, contacts, sensor_list, tois, strict=True))
    ends = []
    if want_ended and crossings:
        pairs = (a[crossed_at].tolist(), b[crossed_at].tolist(), sensor[crossed_at].tolist())
        ends = built(CollisionEnded, zip(*pairs, strict=True))
    return TickEvents(events, [events[p] for p in plain_list], ends)


@kernel(
    types.Tuple((_I1, _I1, _F1, _F2, _F1, _F2, _B1, _I1, types.int64, types.int64))(
        _B1, _I1, _I1, _F2, _I1, _B1, types.int64[:, ::1], _I1, _B1
    )
)  # fmt: skip
def _unordered(
    fresh: BoolArray,
    rows_a: Int64Array,
    rows_b: Int64Array,
    found: FloatArray,
    entities: Int64Array,
    sensor: BoolArray,
    keys: Int64Array,
    started: Int64Array,
    new_sensor: BoolArray,
) -> tuple[
    Int64Array, Int64Array, FloatArray, FloatArray, FloatArray, FloatArray, BoolArray,
    Int64Array, int, int,
]:  # fmt: skip
    """The started events of a tick as columns, not yet in order: first the pairs a
    swept shape met (``fresh`` hits) that touch at the end of the tick, in the order
    of ``started``, then those it crossed, in the hits' order, then the plain starts.

    Args:
        fresh: Per hit, whether it may give an event.
        rows_a: Per hit, the swept row (table rows).
        rows_b: Per hit, the other row.
        found: Per hit, ``(fraction, px, py, nx, ny, depth)``, the normal from B to A.
        entities: The table's entity ids.
        sensor: The table's sensor flags.
        keys: The pairs touching at the end of the tick, sorted.
        started: Positions in ``keys`` of those that started this tick, ascending.
        new_sensor: Per pair of ``keys``, its sensor flag.

    Returns:
        ``(a, b, toi, normal, depth, point, sensor, plain, n, crossings)``: the lower
        and higher entity, the time of impact (1.0 for a plain start), the contact
        (normal from ``a`` to ``b``; the plain starts' left at 0 for the caller to
        fill), the sensor flag; the positions in ``keys`` of the plain starts; how many
        entries come from hits, and how many of those were crossed.
    """
    hits = np.flatnonzero(fresh)
    m = len(hits)
    lo = np.empty(m, dtype=np.int64)
    hi = np.empty(m, dtype=np.int64)
    crossed = np.zeros(m, dtype=np.bool_)
    hit_of = np.full(len(keys), -1, dtype=np.int64)
    crossings = 0
    for h in range(m):
        ea = entities[rows_a[hits[h]]]
        eb = entities[rows_b[hits[h]]]
        lo[h] = min(ea, eb)
        hi[h] = max(ea, eb)
        at = find_pair(keys, lo[h], hi[h])
        if at >= 0:
            hit_of[at] = h
        else:
            crossed[h] = True
            crossings += 1
    touching = 0
    for k in started:
        touching += hit_of[k] >= 0
    n = touching + crossings
    count = n + len(started) - touching
    entry = np.empty(n, dtype=np.int64)
    plain = np.empty(len(started) - touching, dtype=np.int64)
    q = p = 0
    for k in started:
        if hit_of[k] >= 0:
            entry[q] = hit_of[k]
            q += 1
        else:
            plain[p] = k
            p += 1
    for h in range(m):
        if crossed[h]:
            entry[q] = h
            q += 1
    a = np.empty(count, dtype=np.int64)
    b = np.empty(count, dtype=np.int64)
    toi = np.ones(count)
    normal = np.zeros((count, 2))
    depth = np.zeros(count)
    point = np.zeros((count, 2))
    flags = np.empty(count, dtype=np.bool_)
    for e in range(n):
        h = entry[e]
        row = hits[h]
        a[e] = lo[h]
        b[e] = hi[h]
        toi[e] = found[row, 0]
        # The hits' normals are from B towards A; the events' from a (the lower id) towards b.
        sign = -1.0 if entities[rows_a[row]] == lo[h] else 1.0
        normal[e, 0] = found[row, 3] * sign + 0.0
        normal[e, 1] = found[row, 4] * sign + 0.0
        depth[e] = found[row, 5]
        point[e, 0] = found[row, 1]
        point[e, 1] = found[row, 2]
        flags[e] = sensor[rows_a[row]] or sensor[rows_b[row]]
    for e in range(n, count):
        k = plain[e - n]
        a[e] = keys[k, 0]
        b[e] = keys[k, 1]
        flags[e] = new_sensor[k]
    return a, b, toi, normal, depth, point, flags, plain, n, crossings


@kernel(types.int64[::1](_F1, _I1, _I1))
def time_order(toi: FloatArray, a: Int64Array, b: Int64Array) -> Int64Array:
    """The order of the events by ``toi``, then ``a``, then ``b`` (``np.lexsort((b, a,
    toi))``): a stable sort by time, then each run of equal times sorted by pair. Most
    runs are of one event; the plain starts make one run, at 1.0.

    >>> toi = np.array([1.0, 0.5, 1.0, 0.0, 0.5])
    >>> a = np.array([3, 9, 2, 4, 1])
    >>> time_order(toi, a, np.array([5, 10, 8, 6, 2])).tolist()
    [3, 4, 1, 2, 0]
    """
    order = np.argsort(toi, kind="mergesort")
    n = len(order)
    start = 0
    while start < n:
        stop = start + 1
        while stop < n and toi[order[stop]] == toi[order[start]]:
            stop += 1
        if stop - start > 1:
            run = order[start:stop].copy()
            run = run[np.argsort(b[run], kind="mergesort")]
            order[start:stop] = run[np.argsort(a[run], kind="mergesort")]
        start = stop
    return order


@kernel(
    types.Tuple((_I1, _I1, _F1, _F2, _F1, _F2, _B1, _I1, _I1))(
        _I1, _I1, _F1, _F2, _F1, _F2, _B1, types.int64, types.int64
    )
)  # fmt: skip
def _ordered(
    a: Int64Array,
    b: Int64Array,
    toi: FloatArray,
    normal: FloatArray,
    depth: FloatArray,
    point: FloatArray,
    sensor: BoolArray,
    n: int,
    crossings: int,
) -> tuple[
    Int64Array, Int64Array, FloatArray, FloatArray, FloatArray, FloatArray, BoolArray,
    Int64Array, Int64Array,
]:  # fmt: skip
    """The columns of :func:`_unordered` put in time order (:func:`time_order`; zeros
    made positive), with where the plain starts (entries ``n`` on) and the crossed
    pairs (the ``crossings`` entries before ``n``) landed, each ascending."""
    order = time_order(toi, a, b)
    count = len(order)
    rank = np.empty(count, dtype=np.int64)
    out_a = np.empty(count, dtype=np.int64)
    out_b = np.empty(count, dtype=np.int64)
    out_toi = np.empty(count)
    out_normal = np.empty((count, 2))
    out_depth = np.empty(count)
    out_point = np.empty((count, 2))
    out_sensor = np.empty(count, dtype=np.bool_)
    for k in range(count):
        e = order[k]
        rank[e] = k
        out_a[k] = a[e]
        out_b[k] = b[e]
        out_toi[k] = toi[e]
        out_normal[k, 0] = normal[e, 0] + 0.0
        out_normal[k, 1] = normal[e, 1] + 0.0
        out_depth[k] = depth[e]
        out_point[k, 0] = point[e, 0]
        out_point[k, 1] = point[e, 1]
        out_sensor[k] = sensor[e]
    plain_at = np.sort(rank[n:])
    crossed_at = np.sort(rank[n - crossings : n])
    return (
        out_a, out_b, out_toi, out_normal, out_depth, out_point, out_sensor, plain_at,
        crossed_at,
    )  # fmt: skip


def _crossed_only(
    table: ShapeTable,
    rows_a: Int64Array,
    rows_b: Int64Array,
    lo: Int64Array,
    hi: Int64Array,
    found: FloatArray,
    crossed: BoolArray,
) -> list[CollisionEnded]:
    """The ended events of the ``crossed`` hits, in time order (``found[:, 0]``, then
    ``(lo, hi)``), when no started event is built."""
    lo, hi = lo[crossed], hi[crossed]
    sensor = table.sensor[rows_a[crossed]] | table.sensor[rows_b[crossed]]
    order = time_order(np.ascontiguousarray(found[crossed, 0]), lo, hi)
    pairs = (lo[order].tolist(), hi[order].tolist(), sensor[order].tolist())
    return built(CollisionEnded, zip(*pairs, strict=True))

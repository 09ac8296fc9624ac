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

from functools import partial

import numpy as np

from arcade_collide.ecs.contact_state import TouchingPairs, contact_objects
from arcade_collide.ecs.events import CollisionEnded, CollisionStarted
from arcade_collide.ecs.narrow_phase import pair_contacts
from arcade_collide.ecs.swept import SweptHits
from arcade_collide.ecs.swept_pairs import find_pairs
from arcade_collide.ecs.table import ShapeTable
from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.query.kernel_base import Int64Array

_new_started = partial(tuple.__new__, CollisionStarted)
_new_ended = partial(tuple.__new__, CollisionEnded)


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
    fresh = hits.fresh
    rows_a, rows_b = hits.rows_a[fresh], hits.rows_b[fresh]
    ea, eb = table.entities[rows_a], table.entities[rows_b]
    lo, hi = np.minimum(ea, eb), np.maximum(ea, eb)
    found = hits.found[fresh]
    at = find_pairs(np.ascontiguousarray(new.keys), lo, hi)
    crossed = at < 0
    if not want_started:
        ends = _crossed_only(table, rows_a, rows_b, lo, hi, found, crossed) if want_ended else []
        return TickEvents([], [], ends)
    # A started pair that a swept shape touched first during the tick takes that hit.
    still = np.flatnonzero(~crossed)
    hit_of = np.full(len(new.keys), -1, dtype=np.int64)
    hit_of[at[still]] = still
    swept_of = hit_of[started]
    plain = started[swept_of < 0]
    swept = np.concatenate([swept_of[swept_of >= 0], np.flatnonzero(crossed)])
    n, crossings = len(swept), int(crossed.sum())
    a = np.concatenate([lo[swept], new.keys[plain, 0]])
    b = np.concatenate([hi[swept], new.keys[plain, 1]])
    hit = found[swept]
    toi = np.concatenate([hit[:, 0], np.ones(len(plain))])
    order = np.lexsort((b, a, toi))
    normal, depth, point = np.zeros((len(a), 2)), np.zeros(len(a)), np.zeros((len(a), 2))
    # The hits' normals are from B towards A; the events' from a (the lower id) towards b.
    sign = np.where(ea[swept] == lo[swept], -1.0, 1.0)
    np.multiply(hit[:, 3:5], sign[:, None], out=normal[:n])
    depth[:n], point[:n] = hit[:, 5], hit[:, 1:3]
    if len(plain) and new.rows is not None:
        normal[n:], depth[n:], point[n:] = pair_contacts(
            new.rows, new.rows_i[plain], new.rows_j[plain], new.flip[plain]
        )
    normal += 0.0
    sensor = np.concatenate(
        [table.sensor[rows_a[swept]] | table.sensor[rows_b[swept]], new.sensor[plain]]
    )
    contacts = contact_objects(normal[order], depth[order], point[order])
    a, b, sensor = a[order], b[order], sensor[order]
    # Where each event lands in the order: the plain ones have no time of impact.
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    plain_at: list[int] = np.sort(rank[n:]).tolist()
    tois: list[float | None] = toi[order].tolist()
    for p in plain_at:
        tois[p] = None
    events = list(
        map(_new_started, zip(a.tolist(), b.tolist(), contacts, sensor.tolist(), tois, strict=True))
    )
    ends = []
    if want_ended and crossings:
        at = np.sort(rank[n - crossings : n])
        pairs = (a[at].tolist(), b[at].tolist(), sensor[at].tolist())
        ends = list(map(_new_ended, zip(*pairs, strict=True)))
    return TickEvents(events, [events[p] for p in plain_at], ends)


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
    order = np.lexsort((hi, lo, found[crossed, 0]))
    pairs = (lo[order].tolist(), hi[order].tolist(), sensor[order].tolist())
    return list(map(_new_ended, zip(*pairs, strict=True)))

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
from itertools import compress

import numpy as np

from arcade_collide.ecs.contact_state import TouchingPairs, contact_objects
from arcade_collide.ecs.events import CollisionEnded, CollisionStarted
from arcade_collide.ecs.narrow_phase import pair_contacts
from arcade_collide.ecs.swept import SweptHits
from arcade_collide.ecs.swept_pairs import find_pairs
from arcade_collide.ecs.table import ShapeTable
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
    fresh = np.flatnonzero(hits.fresh)
    rows_a, rows_b = hits.rows_a[fresh], hits.rows_b[fresh]
    ea, eb = table.entities[rows_a], table.entities[rows_b]
    lo, hi = np.minimum(ea, eb), np.maximum(ea, eb)
    found = hits.found[fresh]
    # Time order among the hits: by fraction, then by pair.
    order = np.lexsort((hi, lo, found[:, 0]))
    lo, hi, ea, found = lo[order], hi[order], ea[order], found[order]
    sensor = (table.sensor[rows_a] | table.sensor[rows_b])[order]
    at = find_pairs(np.ascontiguousarray(new.keys), lo, hi)
    still = at >= 0
    crossed = np.flatnonzero(~still)
    ends: list[CollisionEnded] = []
    if want_ended and len(crossed):
        pairs = (lo[crossed].tolist(), hi[crossed].tolist(), sensor[crossed].tolist())
        ends = list(map(_new_ended, zip(*pairs, strict=True)))
    if not want_started:
        return TickEvents([], [], ends)
    # A started pair that a swept shape touched first during the tick takes that hit.
    hit_of = np.full(len(new.keys), -1, dtype=np.int64)
    hit_of[at[still]] = np.flatnonzero(still)
    swept_of = hit_of[started]
    plain = started[swept_of < 0]
    swept = np.concatenate([swept_of[swept_of >= 0], crossed])
    # The normal from B towards A; the events' from a (the lower id) towards b.
    sign = np.where(ea[swept] == lo[swept], -1.0, 1.0)
    normal = [found[swept, 3:5] * sign[:, None] + 0.0]
    depth, point = [found[swept, 5]], [found[swept, 1:3]]
    if len(plain) and new.rows is not None:
        n, d, p = pair_contacts(new.rows, new.rows_i[plain], new.rows_j[plain], new.flip[plain])
        normal.append(n)
        depth.append(d)
        point.append(p)
    a = np.concatenate([lo[swept], new.keys[plain, 0]])
    b = np.concatenate([hi[swept], new.keys[plain, 1]])
    toi = np.concatenate([found[swept, 0], np.ones(len(plain))])
    is_plain = np.arange(len(a)) >= len(swept)
    sensed = np.concatenate([sensor[swept], new.sensor[plain]])
    order = np.lexsort((b, a, toi))
    contacts = contact_objects(
        np.concatenate(normal)[order], np.concatenate(depth)[order], np.concatenate(point)[order]
    )
    is_plain = is_plain[order]
    tois = toi[order].astype(object)
    tois[is_plain] = None
    fields = (a[order].tolist(), b[order].tolist(), contacts, sensed[order].tolist())
    events = list(map(_new_started, zip(*fields, tois.tolist(), strict=True)))
    return TickEvents(events, list(compress(events, is_plain.tolist())), ends)

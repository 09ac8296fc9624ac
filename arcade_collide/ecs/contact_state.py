"""Stage 4, contact state: reads touching row pairs, writes sorted pair keys, starts, ends.

A pair of entities ``a < b`` is keyed by its two ids, a row ``(a, b)`` of an int64
array of two columns, so that any esper id fits. Each tick's keys are kept sorted by ``(a, b)``
(:class:`TouchingPairs`); :func:`keyed_pairs` sorts the touching rows by key in linear
time and merges them with last tick's keys: new keys started, missing ones ended.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from arcade_collide.ecs.events import CollisionEnded, CollisionStarted, built
from arcade_collide.ecs.narrow_phase import WorldRows, pair_contacts
from arcade_collide.geometry.compiled import kernel, prefetch
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.radix_sort import radix_order

Int64Array = NDArray[np.int64]
FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


class KeyedPairs(NamedTuple):
    """Touching pairs sorted by key, and the keys that came and went since last tick."""

    keys: Int64Array
    """``(P, 2)`` rows ``(a, b)``, entity ids ``a < b``, unique and sorted."""
    rows_i: Int64Array
    """Table row of each pair's ``i`` side (as given, not swapped)."""
    rows_j: Int64Array
    flip: BoolArray
    """True where entity ``a`` (the lower id) is on the ``j`` side."""
    sensor: BoolArray
    """True where either side is a sensor."""
    started: Int64Array
    """Positions in :attr:`keys` of keys absent from the old keys (ascending)."""
    ended: Int64Array
    """Positions in the old keys of keys absent from :attr:`keys` (ascending)."""

    @property
    def a(self) -> Int64Array:
        """Lower entity id of each pair (a view of :attr:`keys`)."""
        return self.keys[:, 0]

    @property
    def b(self) -> Int64Array:
        """Higher entity id of each pair (a view of :attr:`keys`)."""
        return self.keys[:, 1]


@kernel("void(int64[::1], int64[::1], int64[::1], int64[::1], int64[::1])")
def _pair_order(
    i: Int64Array, j: Int64Array, rank: Int64Array, counts: Int64Array, order: Int64Array
) -> None:
    """The order sorting pairs by ``(min(rank[i], rank[j]), max(rank[i], rank[j]))`` into
    ``order`` (``counts`` is work space, one more than the ranks): linear time for rows
    with few partners each. Ties keep their input order."""
    m = len(i)
    counts[:] = 0
    for p in range(m):
        counts[min(rank[i[p]], rank[j[p]]) + 1] += 1
    for r in range(1, len(counts)):
        counts[r] += counts[r - 1]
    # Counting sort by the lower rank (stable), then an insertion pass by the higher
    # rank, which only moves pairs within their (small) groups.
    for p in range(m):
        low = min(rank[i[p]], rank[j[p]])
        order[counts[low]] = p
        counts[low] += 1
    for p in range(1, m):
        q = order[p]
        low = min(rank[i[q]], rank[j[q]])
        high = max(rank[i[q]], rank[j[q]])
        k = p - 1
        while k >= 0:
            s = order[k]
            s_low = min(rank[i[s]], rank[j[s]])
            if s_low < low or (s_low == low and max(rank[i[s]], rank[j[s]]) <= high):
                break
            order[k + 1] = s
            k -= 1
        order[k + 1] = q


_INDEX = "int64[::1]"
_KEYS = "int64[:, ::1]"


@kernel(
    f"UniTuple(int64, 2)({_INDEX}, {_INDEX}, {_INDEX}, {_INDEX}, int64, boolean[::1],"
    f" {_KEYS}, {_KEYS}, int64[:, ::1], boolean[:, ::1], {_INDEX})"
)
def _keyed(
    i: Int64Array,
    j: Int64Array,
    entities: Int64Array,
    rank: Int64Array,
    n: int,
    sensor: BoolArray,
    old: Int64Array,
    keys: Int64Array,
    columns: Int64Array,
    flags: BoolArray,
    ended: Int64Array,
) -> tuple[int, int]:
    """The fields of :func:`keyed_pairs`' result, written into the arrays the caller
    made (a compiled call's returned arrays cost more to hand back than to make first):
    ``keys``; ``columns`` rows: rows_i, rows_j, started; ``flags`` rows: flip, sensor;
    ``ended``. Every rank is below ``n``. Returns how many pairs started and how many
    ended."""
    m = len(i)
    if 8 * m < n:
        # Few pairs in a large table (moving shapes over a level): sort the pairs, not
        # the table's ranks.
        by_rank = np.empty(m, dtype=np.int64)
        for p in range(m):
            a, b = rank[i[p]], rank[j[p]]
            by_rank[p] = min(a, b) * n + max(a, b)
            # (the rows lie anywhere in the table: the loop below reads these in
            # another order, so they are fetched while this one waits on the ranks)
            prefetch(entities, i[p])
            prefetch(entities, j[p])
            prefetch(sensor, i[p])
            prefetch(sensor, j[p])
        order = radix_order(by_rank)
    else:
        order = np.empty(m, dtype=np.int64)
        _pair_order(i, j, rank, np.empty(n + 1, dtype=np.int64), order)
    rows_i, rows_j, started = columns[0], columns[1], columns[2]
    flip, sensed = flags[0], flags[1]
    for p in range(m):
        q = order[p]
        ri = i[q]
        rj = j[q]
        ea = entities[ri]
        eb = entities[rj]
        keys[p, 0] = min(ea, eb)
        keys[p, 1] = max(ea, eb)
        rows_i[p] = ri
        rows_j[p] = rj
        flip[p] = ea > eb
        sensed[p] = sensor[ri] or sensor[rj]
    # Both runs are sorted by (a, b) and unique: one merge finds the keys only one of
    # them has.
    k = 0
    o = 0
    n_started = 0
    n_ended = 0
    n_old = len(old)
    while k < m and o < n_old:
        a_new, b_new, a_old, b_old = keys[k, 0], keys[k, 1], old[o, 0], old[o, 1]
        if a_new < a_old or (a_new == a_old and b_new < b_old):
            started[n_started] = k
            n_started += 1
            k += 1
        elif a_new > a_old or b_new > b_old:
            ended[n_ended] = o
            n_ended += 1
            o += 1
        else:
            k += 1
            o += 1
    while k < m:
        started[n_started] = k
        n_started += 1
        k += 1
    while o < n_old:
        ended[n_ended] = o
        n_ended += 1
        o += 1
    return n_started, n_ended


_NO_INDEX = np.empty(0, dtype=np.int64)
_NO_FLAGS = np.empty(0, dtype=np.bool_)
_NO_PAIRS = KeyedPairs(
    np.empty((0, 2), dtype=np.int64), _NO_INDEX, _NO_INDEX, _NO_FLAGS, _NO_FLAGS, _NO_INDEX,
    _NO_INDEX,
)
"""The :func:`keyed_pairs` of no pairs against no old keys, shared: its arrays hold
nothing to write (left writeable, as the kernels' signatures require)."""


def keyed_pairs(
    i: Int64Array,
    j: Int64Array,
    entities: Int64Array,
    rank: Int64Array,
    sensor: BoolArray,
    old_keys: Int64Array,
    rank_bound: int | None = None,
) -> KeyedPairs:
    """Touching table-row pairs ``(i[k], j[k])`` as sorted keys, diffed with the old keys.

    Every array is C-contiguous, int64 (``sensor``: bool), as the tick's arrays are.

    Args:
        i: One side of each touching pair (table rows).
        j: The other side.
        entities: Entity id of each table row (unique, any int64).
        rank: Each row's number in entity order (0 and up; a lower id, a lower number).
        sensor: Whether each row's shape is a sensor.
        old_keys: Last tick's keys, ``(P, 2)`` rows ``(a, b)`` sorted and unique.
        rank_bound: A bound every number of ``rank`` is below (default: its length).

    >>> entities = np.array([7, 3, 2**62])
    >>> rank = np.array([1, 0, 2])
    >>> sensor = np.array([False, False, True])
    >>> old = np.array([[3, 7], [7, 2**62]])
    >>> out = keyed_pairs(np.array([0, 2]), np.array([1, 0]), entities, rank, sensor, old)
    >>> out.keys.tolist()
    [[3, 7], [7, 4611686018427387904]]
    >>> out.flip.tolist(), out.sensor.tolist(), out.started.tolist(), out.ended.tolist()
    ([True, True], [False, True], [], [])
    >>> out = keyed_pairs(np.array([1]), np.array([2]), entities, rank, sensor, old)
    >>> out.started.tolist(), out.ended.tolist()
    ([0], [0, 1])
    """
    m = len(i)
    if not m and not len(old_keys):
        return _NO_PAIRS  # nothing touches, before or now (a quiet tick of a small game)
    keys = np.empty((m, 2), dtype=np.int64)
    columns = np.empty((3, m), dtype=np.int64)
    flags = np.empty((2, m), dtype=np.bool_)
    ended = np.empty(len(old_keys), dtype=np.int64)
    bound = len(rank) if rank_bound is None else rank_bound
    started, gone = _keyed(
        i, j, entities, rank, bound, sensor, old_keys, keys, columns, flags, ended
    )
    return KeyedPairs(
        keys, columns[0], columns[1], flags[0], flags[1], columns[2, :started], ended[:gone]
    )


_FIELDS = f"{_KEYS}, {_INDEX}, {_INDEX}, boolean[::1], boolean[::1]"


@kernel(f"Tuple(({_FIELDS}, {_INDEX}))({_FIELDS}, {_INDEX}, {_FIELDS})")
def _spliced(
    keys: Int64Array, rows_i: Int64Array, rows_j: Int64Array, flip: BoolArray,
    sensor: BoolArray, touched: Int64Array, new_keys: Int64Array, new_i: Int64Array,
    new_j: Int64Array, new_flip: BoolArray, new_sensor: BoolArray,
) -> tuple[Int64Array, Int64Array, Int64Array, BoolArray, BoolArray, Int64Array]:  # fmt: skip
    """The union, in key order, of the old pairs not at the positions ``touched``
    (ascending) and the new ones (both sorted, disjoint), and where each new pair went
    in it. The old pairs are copied in runs, between the touched positions and the new
    pairs' places; each place is searched from the last one onwards (doubling steps,
    then halving), so the reads stay close to the copy's."""
    n_old = len(keys)
    m = len(new_keys)
    size = n_old - len(touched) + m
    out_keys = np.empty((size, 2), dtype=np.int64)
    out_i = np.empty(size, dtype=np.int64)
    out_j = np.empty(size, dtype=np.int64)
    out_flip = np.empty(size, dtype=np.bool_)
    out_sensor = np.empty(size, dtype=np.bool_)
    at_new = np.empty(m, dtype=np.int64)

    def copy(lo: int, hi: int, q: int) -> int:
        """Copy the old pairs ``lo:hi`` to the union from position ``q``; return the
        position after them. (Unsigned indices: numba checks a signed index for
        wrapping around, which keeps the loops from being vectorised.)"""
        count, a, b = np.uint64(hi - lo), np.uint64(lo), np.uint64(q)
        for k in range(count):
            out_keys[b + k, 0] = keys[a + k, 0]
            out_keys[b + k, 1] = keys[a + k, 1]
        for k in range(count):
            out_i[b + k] = rows_i[a + k]
        for k in range(count):
            out_j[b + k] = rows_j[a + k]
        for k in range(count):
            out_flip[b + k] = flip[a + k]
            out_sensor[b + k] = sensor[a + k]
        return q + hi - lo

    q = 0
    p = 0
    t = 0
    # Round g copies the kept pairs that sort before pair g of new_keys, then puts that
    # pair in; round m copies the kept pairs that remain.
    for g in range(m + 1):
        stop = n_old
        if g < m:
            # The first old position from p on whose key is above new pair g's.
            a, b = new_keys[g, 0], new_keys[g, 1]
            low = top = p
            step = 1
            while top < n_old and (keys[top, 0] < a or (keys[top, 0] == a and keys[top, 1] < b)):
                low = top + 1
                top = low + step
                step *= 2
            top = min(top, n_old)
            while low < top:
                mid = (low + top) >> 1
                if keys[mid, 0] < a or (keys[mid, 0] == a and keys[mid, 1] < b):
                    low = mid + 1
                else:
                    top = mid
            stop = low
        while t < len(touched) and touched[t] < stop:
            q = copy(p, touched[t], q)
            p = touched[t] + 1
            t += 1
        q = copy(p, stop, q)
        p = stop
        if g < m:
            out_keys[q, 0], out_keys[q, 1] = new_keys[g, 0], new_keys[g, 1]
            out_i[q], out_j[q] = new_i[g], new_j[g]
            out_flip[q], out_sensor[q] = new_flip[g], new_sensor[g]
            at_new[g] = q
            q += 1
    return out_keys, out_i, out_j, out_flip, out_sensor, at_new


@kernel(
    f"boolean({_INDEX}, {_INDEX}, boolean[::1], boolean[::1], {_INDEX}, {_INDEX}, {_INDEX},"
    " boolean[::1], boolean[::1])"
)
def _found_again(
    rows_i: Int64Array, rows_j: Int64Array, flip: BoolArray, sensor: BoolArray,
    touched: Int64Array, new_i: Int64Array, new_j: Int64Array, new_flip: BoolArray,
    new_sensor: BoolArray,
) -> bool:  # fmt: skip
    """Whether the pairs found (``new_*``, as many as ``touched``) have the fields of the
    old pairs at the positions ``touched``, in order."""
    if len(new_i) != len(touched):
        return False
    for k in range(len(touched)):
        p = touched[k]
        if (
            rows_i[p] != new_i[k]
            or rows_j[p] != new_j[k]
            or flip[p] != new_flip[k]
            or sensor[p] != new_sensor[k]
        ):
            return False
    return True


def with_carried(old: TouchingPairs, touched: Int64Array, keyed: KeyedPairs) -> KeyedPairs:
    """``keyed`` (pairs found this tick, diffed with ``old``'s pairs at the positions
    ``touched``, ascending) with the other old pairs carried over, still sorted;
    ``started`` becomes positions in the union and ``ended`` positions in all of
    ``old``.

    >>> old = TouchingPairs(keyed_pairs(
    ...     np.array([0, 1, 2]), np.array([1, 2, 3]), np.array([10, 11, 12, 13]),
    ...     np.arange(4), np.zeros(4, dtype=bool), np.empty((0, 2), dtype=np.int64)))
    >>> touched = np.array([1])  # the pair (11, 12): its rows moved
    >>> found = keyed_pairs(np.array([1]), np.array([3]), np.array([10, 11, 12, 13]),
    ...     np.arange(4), np.zeros(4, dtype=bool), old.keys[touched])
    >>> out = with_carried(old, touched, found)
    >>> out.keys.tolist(), out.started.tolist(), out.ended.tolist()
    ([[10, 11], [11, 13], [12, 13]], [1], [1])
    >>> same = keyed_pairs(np.array([1]), np.array([2]), np.array([10, 11, 12, 13]),
    ...     np.arange(4), np.zeros(4, dtype=bool), old.keys[touched])
    >>> with_carried(old, touched, same).keys is old.keys  # nothing started or ended
    True
    """
    held = (old.keys, old.rows_i, old.rows_j, old.flip, old.sensor)
    same = not (len(keyed.started) or len(keyed.ended))
    if same and _found_again(*held[1:], touched, *keyed[1:5]):
        # The pairs tested again equal the held ones at ``touched`` field for field (a
        # pair's rows are fixed within a layout, and pairs are carried only within
        # one): the union is ``held`` itself.
        return KeyedPairs(*held, keyed.started, keyed.ended)
    keys, rows_i, rows_j, flip, sensor, at_new = _spliced(*held, touched, *keyed[:5])
    return KeyedPairs(
        keys, rows_i, rows_j, flip, sensor, at_new[keyed.started], touched[keyed.ended]
    )


class TouchingPairs:
    """The pairs touching after one tick, sorted by key, and the shapes they were found on."""

    def __init__(self, keyed: KeyedPairs | None = None, rows: WorldRows | None = None) -> None:
        empty = np.empty(0, dtype=np.int64)
        self.keys: Int64Array = np.empty((0, 2), np.int64) if keyed is None else keyed.keys
        """``(P, 2)`` rows ``(a, b)``, entity ids ``a < b``, sorted."""
        self.rows_i: Int64Array = empty if keyed is None else keyed.rows_i
        """Table row of the lower-kind side of each pair."""
        self.rows_j: Int64Array = empty if keyed is None else keyed.rows_j
        self.flip: BoolArray = np.empty(0, np.bool_) if keyed is None else keyed.flip
        """True where entity ``a`` is on side ``j`` (its normal must be reversed)."""
        self.sensor: BoolArray = np.empty(0, np.bool_) if keyed is None else keyed.sensor
        self.rows = rows
        """The shapes the pairs were found on, as the kernels read them (table rows
        index them); None when there are no pairs."""
        self.contacts: dict[tuple[int, int], Contact] | None = None
        """Every pair's contact, once asked for."""
        self.reported: list[CollisionStarted] = []
        """This tick's CollisionStarted events: contacts() hands out their very contact
        objects rather than equal copies."""

    def __len__(self) -> int:
        return len(self.keys)

    def forget(self, pairs: Iterable[tuple[int, int]]) -> None:
        """Drop the pairs ``(a, b)`` of ``pairs`` (a start nobody saw, or naming a deleted
        entity); pairs not held are ignored."""
        keep = np.ones(len(self.keys), dtype=np.bool_)
        first = np.ascontiguousarray(self.keys[:, 0])
        second = self.keys[:, 1]
        # Binary searches per forgotten pair: the first column finds the run of pairs
        # sharing ``a``, the second finds ``b`` in that run.
        for a, b in pairs:
            start = int(np.searchsorted(first, a, side="left"))
            stop = int(np.searchsorted(first, a, side="right"))
            at = start + int(np.searchsorted(second[start:stop], b))
            if at < stop and second[at] == b:
                keep[at] = False
        if keep.all():
            return
        self.keys = self.keys[keep]
        self.rows_i = self.rows_i[keep]
        self.rows_j = self.rows_j[keep]
        self.flip = self.flip[keep]
        self.sensor = self.sensor[keep]
        self.contacts = None


def pairs_of(state: TouchingPairs, idx: NDArray[Any] | slice) -> tuple[list[int], list[int]]:
    """The entity pairs ``(a, b)`` of the pairs ``idx`` of ``state`` as two lists."""
    keys = state.keys[idx]
    return keys[:, 0].tolist(), keys[:, 1].tolist()


def _contact_list(state: TouchingPairs, idx: Int64Array) -> list[Contact]:
    if not len(idx) or state.rows is None:
        return []
    return contact_objects(
        *pair_contacts(state.rows, state.rows_i, state.rows_j, state.flip, idx)
    )


def contact_objects(normal: FloatArray, depth: FloatArray, point: FloatArray) -> list[Contact]:
    """Contacts with these normals ``(N, 2)``, depths and points ``(N, 2)``."""
    return built(
        Contact,
        zip(
            zip(normal[:, 0].tolist(), normal[:, 1].tolist(), strict=True),
            depth.tolist(),
            zip(point[:, 0].tolist(), point[:, 1].tolist(), strict=True),
            strict=True,
        ),
    )


def contacts_of(state: TouchingPairs, idx: Int64Array) -> dict[tuple[int, int], Contact]:
    """The contacts of the pairs ``idx`` of ``state``, by pair."""
    a, b = pairs_of(state, idx)
    return dict(zip(zip(a, b, strict=True), _contact_list(state, idx), strict=True))


def started_events(state: TouchingPairs, idx: Int64Array) -> list[CollisionStarted]:
    """The CollisionStarted events of the pairs ``idx`` of ``state``, in key order."""
    a, b = pairs_of(state, idx)
    contacts = _contact_list(state, idx)
    sensor = state.sensor[idx].tolist()
    return built(CollisionStarted, zip(a, b, contacts, sensor, [None] * len(a), strict=True))


def ended_events(state: TouchingPairs, idx: Int64Array) -> list[CollisionEnded]:
    """The CollisionEnded events of the pairs ``idx`` of ``state``, in key order."""
    a, b = pairs_of(state, idx)
    return built(CollisionEnded, zip(a, b, state.sensor[idx].tolist(), strict=True))

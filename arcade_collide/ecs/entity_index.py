"""Where each entity is in a shape table whose rows are not in entity order.

A :class:`~arcade_collide.ecs.layout.Layout` whose rows were reused
(:mod:`~arcade_collide.ecs.row_reuse`) keeps an :class:`EntityIndex`: its rows sorted
by entity id and those ids. A search in it finds an entity's row, and it orders the
rows by id (the pair keys' ranks).

Entities come and go tick after tick (bullets fired, bullets expiring), and esper gives
each new entity a higher id than any before. So the index changes in place: an entity
that left keeps its entry, marked gone (row -1), and the newcomers are appended in the
spare room past the entries. Every other entry keeps its place, so the cost follows
what changed, and each row's rank (its entry's place) stays valid but for the rows
newcomers took. When the room runs out, or a newcomer's id is not above every id
held, the index is copied without its gone entries, with room again for as many
entries as it holds.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import Int64Array


class EntityIndex(NamedTuple):
    """A :attr:`~arcade_collide.ecs.layout.Layout.by_entity`: its first :attr:`entries`
    entries are table rows (-1: the entity left) and their entity ids, ascending."""

    order_room: Int64Array
    """The rows of the entries, and room for more past :attr:`entries`."""
    ids_room: Int64Array
    """The ids of the entries (ascending), and room for more past :attr:`entries`."""
    entries: int

    @property
    def order(self) -> Int64Array:
        """Each entry's row (-1: the entity left)."""
        return self.order_room[: self.entries]

    @property
    def ids(self) -> Int64Array:
        """Each entry's entity id, ascending."""
        return self.ids_room[: self.entries]


def entity_index(entities: Int64Array) -> EntityIndex:
    """The index of rows holding ``entities`` (unique).

    >>> index = entity_index(np.array([7, 2, 5]))
    >>> index.order.tolist(), index.ids.tolist()
    ([1, 2, 0], [2, 5, 7])
    """
    order = np.argsort(entities, kind="stable")
    return _with_room(order, entities[order])


def _with_room(order: Int64Array, ids: Int64Array) -> EntityIndex:
    """An index of these entries, with room for as many more."""
    n = len(ids)
    order_room = np.empty(2 * n + 8, dtype=np.int64)
    ids_room = np.empty(2 * n + 8, dtype=np.int64)
    order_room[:n] = order
    ids_room[:n] = ids
    return EntityIndex(order_room, ids_room, n)


def reindexed(
    index: EntityIndex, leaving: Int64Array, rows: Int64Array, entities: Int64Array
) -> EntityIndex:
    """``index`` without the entities ``leaving`` (ascending, all in it) and with
    ``entities`` (ascending, none in it but among ``leaving``) at ``rows``: changed in
    place when the room allows and every newcomer's id is above those held, else
    copied (then ``index`` is left as it was).

    >>> index = entity_index(np.array([5, 3, 8]))
    >>> later = reindexed(index, np.array([5]), np.array([0]), np.array([9]))
    >>> later.order.tolist(), later.ids.tolist()  # in place: 5's entry marked gone
    ([1, -1, 2, 0], [3, 5, 8, 9])
    >>> again = reindexed(later, np.array([3]), np.array([1]), np.array([4]))
    >>> again.order.tolist(), again.ids.tolist()  # 4 is below 9: copied, gone ones dropped
    ([1, 2, 0], [4, 8, 9])
    """
    count = _in_place(index.order_room, index.ids_room, index.entries, leaving, rows, entities)
    if count >= 0:
        return index._replace(entries=count)
    return EntityIndex(*_copied(index.order, index.ids, leaving, rows, entities))


@kernel("int64(int64[::1], int64[::1], int64, int64[::1], int64[::1], int64[::1])")
def _in_place(
    order: Int64Array,
    ids: Int64Array,
    count: int,
    leaving: Int64Array,
    rows: Int64Array,
    entities: Int64Array,
) -> int:
    """:func:`reindexed` in place: the leavers' entries marked gone, the newcomers
    appended. Returns the new count, or -1 (nothing written) when there is no room, a
    newcomer's id is not above every id held, or a leaver is not held."""
    m = len(entities)
    if count + m > len(ids) or (m and count and entities[0] <= ids[count - 1]):
        return -1
    held = ids[:count]
    for entity in leaving:
        at = np.searchsorted(held, entity)
        if at == count or held[at] != entity or order[at] < 0:
            return -1
    for entity in leaving:
        order[np.searchsorted(held, entity)] = -1
    for k in range(m):
        order[count + k] = rows[k]
        ids[count + k] = entities[k]
    return count + m


@kernel(
    "Tuple((int64[::1], int64[::1], int64))"
    "(int64[::1], int64[::1], int64[::1], int64[::1], int64[::1])"
)
def _copied(
    order: Int64Array, ids: Int64Array, leaving: Int64Array, rows: Int64Array, entities: Int64Array
) -> tuple[Int64Array, Int64Array, int]:
    """:func:`reindexed` as a copy without gone entries, into new arrays with room for
    as many more entries; returns them and the count. A binary search finds each
    change, and the entries between changes are copied but those marked gone, so the
    cost is a pass over the index plus what changed."""
    n = len(ids)
    room = 2 * (n + len(entities)) + 8
    out_order = np.empty(room, dtype=np.int64)
    out_ids = np.empty(room, dtype=np.int64)
    k = q = d = g = 0
    while True:
        # The next change: a leaver's place in ``ids``, or where a newcomer goes.
        at_leaver = np.searchsorted(ids, leaving[d]) if d < len(leaving) else n
        at_newcomer = np.searchsorted(ids, entities[g]) if g < len(entities) else n
        stop = min(at_leaver, at_newcomer)
        for s in range(k, stop):
            if order[s] >= 0:
                out_order[q] = order[s]
                out_ids[q] = ids[s]
                q += 1
        k = stop
        if d == len(leaving) and g == len(entities):
            return out_order, out_ids, q
        if g < len(entities) and at_newcomer <= at_leaver:
            # (At the same place, the newcomer's id is below the leaver's.)
            out_order[q], out_ids[q] = rows[g], entities[g]
            q += 1
            g += 1
        else:
            k += 1
            d += 1


@kernel("int64[::1](int64[::1], int64)")
def ranks(order: Int64Array, rows: int) -> Int64Array:
    """For each of ``rows`` table rows, the place of its entry in the index whose
    entries hold the rows ``order`` (-1: gone): numbers in entity order, each below
    ``len(order)``.

    >>> ranks(np.array([2, -1, 0, 1]), 3).tolist()
    [2, 3, 0]
    """
    rank = np.empty(rows, dtype=np.int64)
    for k in range(len(order)):
        if order[k] >= 0:
            rank[order[k]] = k
    return rank


@kernel("void(int64[::1], int64[::1], int64[::1], int64[::1])")
def rerank(rank: Int64Array, ids: Int64Array, rows: Int64Array, entities: Int64Array) -> None:
    """Give ``rank`` (see :func:`ranks`) the entries of ``rows``, now holding
    ``entities``, in the index whose entries' ids are ``ids``: a binary search each.

    >>> rank = np.array([0, 1, 2])
    >>> rerank(rank, np.array([3, 5, 8, 9]), np.array([1]), np.array([9]))
    >>> rank.tolist()
    [0, 3, 2]
    """
    for k in range(len(rows)):
        rank[rows[k]] = np.searchsorted(ids, entities[k])


@kernel("int64[::1](int64[::1], int64[::1], int64[::1])")
def rows_found(order: Int64Array, ids: Int64Array, entities: Int64Array) -> Int64Array:
    """The rows of those of ``entities`` (distinct, any order) the index (``order``,
    ``ids``) holds, ascending: a binary search each, in one compiled call.

    >>> rows_found(np.array([2, -1, 1]), np.array([3, 5, 8]), np.array([8, 5, 3])).tolist()
    [1, 2]
    """
    out = np.empty(len(entities), dtype=np.int64)
    count = 0
    for entity in entities:
        at = np.searchsorted(ids, entity)
        if at < len(ids) and ids[at] == entity and order[at] >= 0:
            out[count] = order[at]
            count += 1
    rows: Int64Array = np.sort(out[:count])
    return rows

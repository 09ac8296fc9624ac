"""The entity index of a layout whose rows were reused: kept by :func:`reindexed` as
entities leave and come (in place or copied), numbered by :func:`ranks` and
:func:`rerank` and searched by :func:`rows_found`; each against plain sorting or a
lookup by hand."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.ecs.entity_index import (
    EntityIndex,
    entity_index,
    ranks,
    reindexed,
    rerank,
    rows_found,
)


def _held(index: EntityIndex) -> tuple[list[int], list[int]]:
    """The index's rows and ids, without the entries of entities that left."""
    live = index.order >= 0
    return index.order[live].tolist(), index.ids[live].tolist()


@settings(max_examples=200, deadline=None)
@given(
    ids=st.sets(st.integers(1, 10_000), min_size=1, max_size=60),
    changes=st.integers(1, 6),
    above=st.booleans(),
    data=st.data(),
)
def test_reindexed_equals_the_index_built_afresh(
    ids: set[int], changes: int, above: bool, data: st.DataObject
) -> None:
    """Several changes in a row, newcomers with ids above all others (kept in place
    while there is room) or anywhere (copied): the index, the rows it finds and the
    numbers it gives the rows match an index built afresh of the table."""
    entities = np.array(sorted(ids), dtype=np.int64)
    rows = np.array(data.draw(st.permutations(range(len(entities)))), dtype=np.int64)
    table = np.empty_like(entities)
    table[rows] = entities  # row ``rows[k]`` holds entity ``entities[k]``
    index = entity_index(table)
    rank = ranks(index.order, len(table))
    top = int(table.max())
    for _ in range(changes):
        leaving_rows = sorted(data.draw(st.sets(st.sampled_from(range(len(table))), max_size=10)))
        kept = set(table.tolist()) - set(table[leaving_rows].tolist())
        if above:
            newcomers = list(range(top + 1, top + 1 + len(leaving_rows)))
            top += len(leaving_rows)
        else:  # any id not kept (a leaver's too)
            newcomers = data.draw(
                st.lists(
                    st.integers(1, 20_000).filter(lambda e, kept=kept: e not in kept),
                    min_size=len(leaving_rows),
                    max_size=len(leaving_rows),
                    unique=True,
                )
            )
            top = max([top, *newcomers])
        leaving = np.sort(table[leaving_rows])
        taken = np.array(leaving_rows, dtype=np.int64)
        new_ids = np.array(newcomers, dtype=np.int64)
        by_id = np.argsort(new_ids)
        room = index.ids_room
        index = reindexed(index, leaving, taken[by_id], new_ids[by_id])
        table[taken] = new_ids
        if index.ids_room is room:  # in place: only the newcomers' rows are numbered again
            rerank(rank, index.ids, taken, table[taken])
        else:
            rank = ranks(index.order, len(table))
        want = entity_index(table)
        assert _held(index) == (want.order.tolist(), want.ids.tolist())
        assert np.argsort(rank).tolist() == np.argsort(table).tolist()
        assert int(rank.max()) < index.entries
        assert rows_found(index.order, index.ids, table).tolist() == list(range(len(table)))
        assert not len(rows_found(index.order, index.ids, leaving[~np.isin(leaving, table)]))


def test_newcomers_above_every_id_are_appended_in_place() -> None:
    index = entity_index(np.array([20, 40, 10, 30]))
    room = index.ids_room
    later = reindexed(index, np.array([20, 40]), np.array([0, 1]), np.array([50, 60]))
    assert later.ids_room is room
    assert later.ids.tolist() == [10, 20, 30, 40, 50, 60]
    assert later.order.tolist() == [2, -1, 3, -1, 0, 1]


def test_newcomers_before_after_and_between_the_kept_ids() -> None:
    index = EntityIndex(np.array([3, 0, 2, 1]), np.array([10, 20, 30, 40]), 4)  # no room
    out = reindexed(index, np.array([20, 40]), np.array([0, 1]), np.array([5, 50]))
    assert out.ids.tolist() == [5, 10, 30, 50]
    assert out.order.tolist() == [0, 3, 2, 1]


def test_the_room_runs_out_and_the_index_is_copied_without_gone_entries() -> None:
    index = entity_index(np.arange(1, 3))  # room for 2 * 2 + 8 entries
    table = np.arange(1, 3)
    for step in range(20):
        row = step % 2
        newcomer = int(table.max()) + 1
        index = reindexed(index, np.array([table[row]]), np.array([row]), np.array([newcomer]))
        table[row] = newcomer
        assert _held(index) == (np.argsort(table).tolist(), np.sort(table).tolist())
        assert index.entries <= len(index.ids_room)
    assert index.entries < 12  # copied at least once: the gone entries were dropped


@settings(max_examples=200, deadline=None)
@given(
    ids=st.sets(st.integers(1, 10_000), max_size=60),
    asked=st.sets(st.integers(0, 10_001), max_size=30),
    data=st.data(),
)
def test_rows_found_equals_a_lookup_by_hand(
    ids: set[int], asked: set[int], data: st.DataObject
) -> None:
    entities = np.array(sorted(ids), dtype=np.int64)
    table = np.array(data.draw(st.permutations(entities.tolist())), dtype=np.int64)
    index = entity_index(table)
    # Ask for some held ids too, all in any order.
    asked |= data.draw(st.sets(st.sampled_from(sorted(ids) or [0]), max_size=10))
    query = data.draw(st.permutations(sorted(asked)))
    where = {int(e): row for row, e in enumerate(table.tolist())}
    want = sorted(where[e] for e in asked if e in where)
    got = rows_found(index.order, index.ids, np.array(query, dtype=np.int64))
    assert got.tolist() == want

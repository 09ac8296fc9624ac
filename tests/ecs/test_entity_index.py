"""The entity index of a layout whose rows were reused: kept by :func:`reindexed` as
entities leave and come, inverted by :func:`ranks` and searched by :func:`rows_found`;
each against plain sorting or a lookup by hand."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.ecs.entity_index import entity_index, ranks, reindexed, rows_found


@settings(max_examples=200, deadline=None)
@given(
    ids=st.sets(st.integers(1, 10_000), min_size=1, max_size=60),
    data=st.data(),
)
def test_reindexed_equals_the_index_built_afresh(ids: set[int], data: st.DataObject) -> None:
    entities = np.array(sorted(ids), dtype=np.int64)
    rows = np.array(data.draw(st.permutations(range(len(entities)))), dtype=np.int64)
    table = np.empty_like(entities)
    table[rows] = entities  # row ``rows[k]`` holds entity ``entities[k]``
    order, index_ids = entity_index(table)
    leaving_rows = sorted(data.draw(st.sets(st.sampled_from(rows.tolist()), max_size=10)))
    kept = ids - set(table[leaving_rows].tolist())
    newcomers = data.draw(
        st.lists(
            st.integers(1, 20_000).filter(lambda e: e not in kept),  # (a leaver's id too)
            min_size=len(leaving_rows),
            max_size=len(leaving_rows),
            unique=True,
        )
    )
    leaving = np.sort(table[leaving_rows])
    taken = np.array(leaving_rows, dtype=np.int64)
    new_ids = np.array(newcomers, dtype=np.int64)
    by_id = np.argsort(new_ids)
    got_order, got_ids = reindexed(order, index_ids, leaving, taken[by_id], new_ids[by_id])
    table[taken] = new_ids
    want_order, want_ids = entity_index(table)
    assert got_ids.tolist() == want_ids.tolist()
    assert got_order.tolist() == want_order.tolist()
    assert ranks(got_order).tolist() == np.argsort(np.argsort(table)).tolist()


def test_newcomers_before_after_and_between_the_kept_ids() -> None:
    order, ids = np.array([3, 0, 2, 1]), np.array([10, 20, 30, 40])
    out_order, out_ids = reindexed(
        order, ids, np.array([20, 40]), np.array([0, 1]), np.array([5, 50])
    )
    assert out_ids.tolist() == [5, 10, 30, 50]
    assert out_order.tolist() == [0, 3, 2, 1]


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
    order, index_ids = entity_index(table)
    # Ask for some held ids too, all in any order.
    asked |= data.draw(st.sets(st.sampled_from(sorted(ids) or [0]), max_size=10))
    query = data.draw(st.permutations(sorted(asked)))
    where = {int(e): row for row, e in enumerate(table.tolist())}
    want = sorted(where[e] for e in asked if e in where)
    got = rows_found(order, index_ids, np.array(query, dtype=np.int64))
    assert got.tolist() == want

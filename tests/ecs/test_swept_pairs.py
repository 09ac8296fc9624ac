"""The swept stage's sorting and pose helpers against numpy's or plain Python's answers."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.ecs.swept_pairs import _entity_order, kept_places, swept_poses

ids_st = st.lists(st.integers(-(2**62), 2**62), max_size=60, unique=True)


@settings(max_examples=200, deadline=None)
@given(ids_st, st.randoms(use_true_random=False), st.integers(0, 3))
def test_the_entity_order_sorts_whatever_order_it_starts_from(
    ids: list[int], rng: random.Random, swaps: int
) -> None:
    entities = np.array(ids, dtype=np.int64)
    order = np.argsort(entities)
    hint = order.copy()
    for _ in range(swaps):  # a few entities replaced: the last order, a little off
        if len(hint) > 1:
            a, b = rng.sample(range(len(hint)), 2)
            hint[a], hint[b] = hint[b], hint[a]
    assert _entity_order(entities, hint).tolist() == order.tolist()
    # Far off (reversed): past 33 entities, the insertion sort runs out of budget and
    # sorts afresh.
    reversed_hint = order[::-1].copy()
    assert _entity_order(entities, reversed_hint).tolist() == order.tolist()
    assert _entity_order(entities, np.arange(len(ids) + 1)).tolist() == order.tolist()


@settings(max_examples=200, deadline=None)
@given(ids_st, ids_st)
def test_kept_places_find_each_old_entity_in_the_new_ones(old: list[int], new: list[int]) -> None:
    a, b = np.array(sorted(old), dtype=np.int64), np.array(sorted(new), dtype=np.int64)
    where = kept_places(a, b).tolist()
    assert where == [sorted(new).index(x) if x in new else -1 for x in sorted(old)]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_swept_poses_start_each_entity_where_it_was_else_where_it_was_kept(
    data: st.DataObject,
) -> None:
    # The swept entities now, some of them swept at the last tick (old poses), some kept
    # before this tick moved them (start poses, any order), some neither.
    ids = data.draw(st.lists(st.integers(-(2**40), 2**40), max_size=40, unique=True))
    n = len(ids)
    old_ids = sorted(data.draw(st.lists(st.sampled_from(ids), unique=True)) if ids else [])
    start_ids = data.draw(st.permutations(ids))[: data.draw(st.integers(0, n))]
    rows = np.arange(n, dtype=np.int64)
    entities = np.array(ids, dtype=np.int64)
    data_rows = np.array(data.draw(st.permutations(range(n))), dtype=np.int64)
    poses = np.arange(3 * n, dtype=np.float64).reshape(n, 3)
    old_poses = 1000.0 + np.arange(3 * len(old_ids), dtype=np.float64).reshape(-1, 3)
    start_poses = 2000.0 + np.arange(3 * len(start_ids), dtype=np.float64).reshape(-1, 3)
    hint = np.array(data.draw(st.permutations(range(n))), dtype=np.int64)
    order, by_id, sorted_rows, now, before, known = swept_poses(
        rows, entities, np.array(old_ids, dtype=np.int64), old_poses, poses, data_rows,
        np.array(start_ids, dtype=np.int64), start_poses, hint,
    )  # fmt: skip
    assert by_id.tolist() == sorted(ids) and entities[order].tolist() == sorted(ids)
    for k, entity in enumerate(by_id.tolist()):
        row = ids.index(entity)
        assert sorted_rows[k] == row and now[k].tolist() == poses[data_rows[row]].tolist()
        if entity in old_ids:
            expected, found = old_poses[old_ids.index(entity)], True
        elif entity in start_ids:
            expected, found = start_poses[start_ids.index(entity)], True
        else:
            expected, found = now[k], False
        assert before[k].tolist() == expected.tolist() and known[k] == found

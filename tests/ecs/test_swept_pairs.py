"""The swept stage's sorting helpers against numpy's own answers."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.ecs.swept_pairs import _entity_order, kept_places

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

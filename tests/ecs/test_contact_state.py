"""keyed_pairs against plain sorts and set differences."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.ecs.contact_state import PAIR_SHIFT, keyed_pairs


@st.composite
def tables_and_pairs(draw: st.DrawFn) -> tuple[np.ndarray, ...]:
    """Unique entity ids per row, sensors, touching row pairs and last tick's keys."""
    ids = draw(st.lists(st.integers(0, 2**31 - 1), min_size=2, max_size=30, unique=True))
    n = len(ids)
    entities = np.array(ids, dtype=np.int64)
    sensor = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=np.bool_)
    row_pairs = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda p: p[0] != p[1]),
            max_size=60,
            unique_by=lambda p: (min(p), max(p)),
        )
    )
    i = np.array([p[0] for p in row_pairs], dtype=np.int64)
    j = np.array([p[1] for p in row_pairs], dtype=np.int64)
    # Old keys: some of this tick's pairs and some pairs of other ids.
    stale = draw(st.sets(st.tuples(st.integers(0, 50), st.integers(51, 2**31 - 1)), max_size=10))
    kept = draw(st.lists(st.booleans(), min_size=len(i), max_size=len(i)))
    old = {(min(ids[a], ids[b]) << PAIR_SHIFT) | max(ids[a], ids[b])
           for a, b, keep in zip(i.tolist(), j.tolist(), kept, strict=True) if keep}
    old |= {(a << PAIR_SHIFT) | b for a, b in stale}
    return entities, sensor, i, j, np.array(sorted(old), dtype=np.int64)


@settings(max_examples=300, deadline=None)
@given(tables_and_pairs())
def test_keyed_pairs_match_the_sort_and_the_diff(case: tuple[np.ndarray, ...]) -> None:
    entities, sensor, i, j, old = case
    rank = np.empty(len(entities), dtype=np.int64)
    rank[np.argsort(entities, kind="stable")] = np.arange(len(entities))
    out = keyed_pairs(i, j, entities, rank, sensor, old)

    ea, eb = entities[i], entities[j]
    keys = (np.minimum(ea, eb) << PAIR_SHIFT) | np.maximum(ea, eb)
    order = np.argsort(keys, kind="stable")
    assert out.keys.tolist() == keys[order].tolist()
    assert out.rows_i.tolist() == i[order].tolist() and out.rows_j.tolist() == j[order].tolist()
    assert out.flip.tolist() == (ea > eb)[order].tolist()
    assert out.sensor.tolist() == (sensor[i] | sensor[j])[order].tolist()
    new = keys[order].tolist()
    old_list = old.tolist()
    assert out.started.tolist() == [k for k, key in enumerate(new) if key not in set(old_list)]
    assert out.ended.tolist() == [k for k, key in enumerate(old_list) if key not in set(new)]


def test_no_pairs_end_every_old_key() -> None:
    none = np.empty(0, dtype=np.int64)
    out = keyed_pairs(none, none, np.array([4, 9]), np.array([0, 1]), np.zeros(2, bool),
                      np.array([4 << PAIR_SHIFT | 9]))
    assert out.keys.size == 0 and out.started.size == 0 and out.ended.tolist() == [0]

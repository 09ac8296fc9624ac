"""keyed_pairs and TouchingPairs.forget against plain sorts and set differences."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.ecs.contact_state import KeyedPairs, TouchingPairs, keyed_pairs, with_carried

MAX_ID = 2**63 - 1
"""The largest entity id a table holds (int64)."""

ids_st = st.one_of(
    st.integers(0, 60),  # small ids share a low side often
    st.integers(2**31 - 3, 2**31 + 3),  # around the old 32-bit key's limit
    st.integers(2**62 - 3, 2**62 + 3),
    st.integers(MAX_ID - 3, MAX_ID),
    st.integers(0, MAX_ID),
)


@st.composite
def tables_and_pairs(draw: st.DrawFn) -> tuple[np.ndarray, ...]:
    """Unique entity ids per row, sensors, touching row pairs and last tick's keys."""
    ids = draw(st.lists(ids_st, min_size=2, max_size=30, unique=True))
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
    # Old keys: some of this tick's pairs and some pairs of other ids, some sharing a
    # low or high side with this tick's.
    others = st.one_of(ids_st, st.sampled_from(ids))
    stale = draw(st.sets(st.tuples(others, others).filter(lambda p: p[0] != p[1]), max_size=10))
    kept = draw(st.lists(st.booleans(), min_size=len(i), max_size=len(i)))
    old = {(min(ids[a], ids[b]), max(ids[a], ids[b]))
           for a, b, keep in zip(i.tolist(), j.tolist(), kept, strict=True) if keep}
    old |= {(min(p), max(p)) for p in stale}
    ordered = sorted(old)
    old_a = np.array([a for a, _ in ordered], dtype=np.int64)
    old_b = np.array([b for _, b in ordered], dtype=np.int64)
    return entities, sensor, i, j, old_a, old_b


@settings(max_examples=300, deadline=None)
@given(tables_and_pairs())
def test_keyed_pairs_match_the_sort_and_the_diff(case: tuple[np.ndarray, ...]) -> None:
    check_against_sort(*case)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 20))
def test_few_pairs_in_a_large_table_match_the_sort(seed: int, pairs: int) -> None:
    rng = np.random.default_rng(seed)
    n = 500  # more than 8 rows per pair: the pairs are sorted, not the table's ranks
    entities = rng.choice(2**62, size=n, replace=False).astype(np.int64) + rng.integers(0, 2)
    i = rng.choice(n, size=pairs, replace=False)
    j = (i + rng.integers(1, n, size=pairs)) % n
    keys = {(min(a, b), max(a, b)) for a, b in zip(i.tolist(), j.tolist(), strict=True)}
    if len(keys) < pairs:
        return  # the same pair twice
    old = sorted({(int(min(entities[a], entities[b])), int(max(entities[a], entities[b])))
                  for a, b in list(keys)[::2]} | {(3, 2**62 + 1)})
    old_a = np.array([a for a, _ in old], dtype=np.int64)
    old_b = np.array([b for _, b in old], dtype=np.int64)
    check_against_sort(entities, rng.random(n) < 0.2, i, j, old_a, old_b)


def check_against_sort(
    entities: np.ndarray, sensor: np.ndarray, i: np.ndarray, j: np.ndarray,
    old_a: np.ndarray, old_b: np.ndarray,
) -> None:
    """keyed_pairs gives what a plain sort of the pairs and set differences give."""
    rank = np.empty(len(entities), dtype=np.int64)
    rank[np.argsort(entities, kind="stable")] = np.arange(len(entities))
    out = keyed_pairs(i, j, entities, rank, sensor, np.stack([old_a, old_b], axis=1))

    ea, eb = entities[i].tolist(), entities[j].tolist()
    keys = [(min(x, y), max(x, y)) for x, y in zip(ea, eb, strict=True)]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    new = [keys[k] for k in order]
    assert list(zip(out.a.tolist(), out.b.tolist(), strict=True)) == new
    assert out.rows_i.tolist() == i[order].tolist() and out.rows_j.tolist() == j[order].tolist()
    assert out.flip.tolist() == [ea[k] > eb[k] for k in order]
    assert out.sensor.tolist() == (sensor[i] | sensor[j])[order].tolist()
    old = list(zip(old_a.tolist(), old_b.tolist(), strict=True))
    assert out.started.tolist() == [k for k, key in enumerate(new) if key not in set(old)]
    assert out.ended.tolist() == [k for k, key in enumerate(old) if key not in set(new)]


def test_no_pairs_end_every_old_key() -> None:
    none = np.empty(0, dtype=np.int64)
    out = keyed_pairs(none, none, np.array([4, 9]), np.array([0, 1]), np.zeros(2, bool),
                      np.array([[4, 9]]))
    assert out.a.size == 0 and out.started.size == 0 and out.ended.tolist() == [0]


def test_pairs_differing_only_above_32_bits_stay_apart() -> None:
    # With a 32-bit field per id these pairs would share keys.
    low, high = 5, 5 + 2**32
    entities = np.array([low, high, 7, 7 + 2**32], dtype=np.int64)
    rank = np.array([0, 2, 1, 3])
    out = keyed_pairs(np.array([0, 1]), np.array([2, 3]), entities, rank, np.zeros(4, bool),
                      np.array([[5, 7]]))
    assert list(zip(out.a.tolist(), out.b.tolist(), strict=True)) == [(5, 7), (high, 7 + 2**32)]
    assert out.started.tolist() == [1] and out.ended.tolist() == []


@settings(max_examples=200, deadline=None)
@given(tables_and_pairs(), st.data())
def test_forget_drops_exactly_the_pairs_named(case: tuple[np.ndarray, ...],
                                              data: st.DataObject) -> None:
    entities, sensor, i, j, _, _ = case
    rank = np.empty(len(entities), dtype=np.int64)
    rank[np.argsort(entities, kind="stable")] = np.arange(len(entities))
    none = np.empty((0, 2), dtype=np.int64)
    state = TouchingPairs(keyed_pairs(i, j, entities, rank, sensor, none))
    held = [(a, b) for a, b in state.keys.tolist()]
    gone = data.draw(st.lists(st.sampled_from(held), unique=True) if held else st.just([]))
    absent = data.draw(st.lists(st.tuples(ids_st, ids_st), max_size=5))
    rows = dict(zip(held, zip(state.rows_i.tolist(), state.rows_j.tolist(), strict=True),
                    strict=True))
    state.forget(gone + absent)
    kept = [pair for pair in held if pair not in set(gone + absent)]
    assert [(a, b) for a, b in state.keys.tolist()] == kept
    assert len(state) == len(kept) == len(state.sensor) == len(state.flip)
    assert list(zip(state.rows_i.tolist(), state.rows_j.tolist(), strict=True)) == [
        rows[pair] for pair in kept
    ]


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_carried_pairs_and_new_ones_match_the_sort_and_the_diff(data: st.DataObject) -> None:
    # Last tick's pairs on rows of a table; some rows moved: the pairs with a moved row
    # are tested again (this tick's pairs all have one), the others carry over.
    ids = data.draw(st.lists(ids_st, min_size=2, max_size=30, unique=True))
    n = len(ids)
    entities = np.array(ids, dtype=np.int64)
    rank = np.empty(n, dtype=np.int64)
    rank[np.argsort(entities, kind="stable")] = np.arange(n)
    sensor = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    pair_st = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(
        lambda p: p[0] != p[1]
    )
    unique = {"unique_by": lambda p: (min(p), max(p))}
    before = data.draw(st.lists(pair_st, max_size=60, **unique))
    none = np.empty((0, 2), dtype=np.int64)
    old = TouchingPairs(keyed_pairs(*_sides(before), entities, rank, sensor, none))
    moved = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    now = data.draw(st.lists(pair_st.filter(lambda p: moved[p[0]] or moved[p[1]]),
                             max_size=40, **unique))
    touched = np.flatnonzero(moved[old.rows_i] | moved[old.rows_j])
    found = keyed_pairs(*_sides(now), entities, rank, sensor, old.keys[touched])
    out = with_carried(old, touched, found)

    def fields(state: TouchingPairs | KeyedPairs, at: int) -> tuple[object, ...]:
        return (int(state.rows_i[at]), int(state.rows_j[at]), bool(state.flip[at]),
                bool(state.sensor[at]))

    union = {tuple(key): fields(old, k) for k, key in enumerate(old.keys.tolist())
             if k not in set(touched.tolist())}
    union |= {tuple(key): fields(found, k) for k, key in enumerate(found.keys.tolist())}
    order = sorted(union)
    assert [tuple(key) for key in out.keys.tolist()] == order
    assert [fields(out, k) for k in range(len(order))] == [union[key] for key in order]
    held = [tuple(key) for key in old.keys.tolist()]
    assert out.started.tolist() == [k for k, key in enumerate(order) if key not in set(held)]
    assert out.ended.tolist() == [k for k, key in enumerate(held) if key not in union]


def _sides(pairs: list[tuple[int, int]]) -> tuple[np.ndarray, np.ndarray]:
    return (np.array([p[0] for p in pairs], dtype=np.int64),
            np.array([p[1] for p in pairs], dtype=np.int64))


def test_pairs_found_again_unchanged_keep_the_old_arrays() -> None:
    entities = np.array([10, 11, 12, 13], dtype=np.int64)
    rank = np.arange(4, dtype=np.int64)
    sensor = np.zeros(4, dtype=bool)
    none = np.empty((0, 2), dtype=np.int64)
    old = TouchingPairs(keyed_pairs(*_sides([(0, 1), (1, 2), (2, 3)]), entities, rank,
                                    sensor, none))
    touched = np.array([1, 2])  # rows 2 and 3 moved; (1, 2) and (2, 3) still touch
    again = keyed_pairs(*_sides([(1, 2), (2, 3)]), entities, rank, sensor, old.keys[touched])
    out = with_carried(old, touched, again)
    assert out.keys is old.keys and out.rows_i is old.rows_i
    assert out.started.tolist() == out.ended.tolist() == []
    # The same keys found on other rows, or now a sensor: the union is made afresh.
    flipped = keyed_pairs(*_sides([(2, 1), (2, 3)]), entities, rank, sensor, old.keys[touched])
    out = with_carried(old, touched, flipped)
    assert out.keys is not old.keys
    assert out.rows_i.tolist() == [0, 2, 2] and out.rows_j.tolist() == [1, 1, 3]
    sensing = np.array([False, False, False, True])
    now_sensor = keyed_pairs(*_sides([(1, 2), (2, 3)]), entities, rank, sensing,
                             old.keys[touched])
    out = with_carried(old, touched, now_sensor)
    assert out.sensor.tolist() == [False, False, True]


def test_no_pairs_now_or_before_give_empty_fields_of_the_right_types() -> None:
    none = np.empty(0, dtype=np.int64)
    out = keyed_pairs(none, none, np.array([4, 5]), np.arange(2), np.zeros(2, dtype=bool),
                      np.empty((0, 2), dtype=np.int64))
    assert out.keys.shape == (0, 2) and out.keys.dtype == np.int64
    assert [len(field) for field in out[1:]] == [0] * 6
    assert out.flip.dtype == out.sensor.dtype == np.bool_
    # A later tick's pairs diff against that empty state as against any other.
    later = keyed_pairs(np.array([0]), np.array([1]), np.array([4, 5]), np.arange(2),
                        np.zeros(2, dtype=bool), TouchingPairs(out).keys)
    assert later.keys.tolist() == [[4, 5]] and later.started.tolist() == [0]

"""The radix sort of the kernels' row lists against numpy's stable sort."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.ecs.layout import sorted_unique
from arcade_collide.geometry.radix_sort import radix_order

keys_st = st.lists(
    st.one_of(
        st.integers(0, 300),  # many equal keys, one byte or two
        st.integers(0, 2**16),
        st.integers(2**40, 2**40 + 5),  # six bytes, equal in all but the lowest
        st.integers(0, 2**63 - 1),  # all eight bytes
    ),
    max_size=400,
)


@settings(max_examples=150, deadline=None)
@given(keys_st)
def test_the_order_is_numpys_stable_argsort(keys: list[int]) -> None:
    array = np.array(keys, dtype=np.int64)
    assert radix_order(array).tolist() == np.argsort(array, kind="stable").tolist()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-(2**63), 2**63 - 1), max_size=200), keys_st)
def test_sorted_unique_is_numpys_unique(signed: list[int], rows: list[int]) -> None:
    for values in (signed, rows):
        array = np.array(values, dtype=np.int64)
        assert sorted_unique(array).tolist() == np.unique(array).tolist()


def test_the_keys_are_left_as_they_were() -> None:
    keys = np.array([9, 3, 300, 3], dtype=np.int64)
    radix_order(keys)
    assert keys.tolist() == [9, 3, 300, 3]

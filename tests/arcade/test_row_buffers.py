"""The row buffers the bridge grows in place (arcade_collide.arcade.row_buffers)."""

from __future__ import annotations

import numpy as np
import pytest

from arcade_collide.arcade import row_buffers
from arcade_collide.arcade.row_buffers import appended


def test_grown_rows_share_one_buffer_until_it_is_full() -> None:
    grown = appended(np.zeros(0, dtype=np.int64), np.arange(3))
    base = grown.base
    assert base is not None
    capacity = len(base)
    assert capacity > 3
    for k in range(3, capacity):
        grown = appended(grown, np.array([k]))
        assert grown.base is base
    assert grown.tolist() == list(range(capacity))
    grown = appended(grown, np.array([capacity]))  # the first buffer is full
    assert grown.base is not base
    assert grown.tolist() == list(range(capacity + 1))


def test_a_buffer_freed_after_the_module_globals_are_cleared_is_forgotten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # At interpreter exit a module's globals are set to None before the last buffers
    # are freed: the weak reference's callback must not look the dict up by name.
    buffers = row_buffers._BUFFERS
    grown = appended(np.zeros(0), np.ones(2))
    key = id(grown.base)
    ref = buffers[key]
    monkeypatch.setattr(row_buffers, "_BUFFERS", None)
    callback = ref.__callback__
    assert callback is not None
    callback(ref)
    assert key not in buffers

"""The examples' tests share one fixture: a window per test module."""

from __future__ import annotations

from collections.abc import Iterator

import arcade
import pytest
from example_loader import example_window


@pytest.fixture(scope="module")
def window() -> Iterator[arcade.Window]:
    """An 800 x 600 window for the module's tests (:func:`example_loader.example_window`)."""
    yield from example_window()

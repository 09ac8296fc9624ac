"""esper keeps its worlds in module globals: every ECS test runs in a fresh, uniquely
named world that is deleted afterwards, so tests never see each other's entities."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import esper
import pytest

_names = itertools.count()


@pytest.fixture(autouse=True)
def world() -> Iterator[str]:
    """Switch to a fresh world for the test; go back and delete it afterwards."""
    previous = esper.current_world
    name = f"test-ecs-{next(_names)}"
    esper.switch_world(name)
    try:
        yield name
    finally:
        esper.switch_world(previous)
        if name in esper.list_worlds():
            esper.delete_world(name)

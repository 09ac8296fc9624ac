"""esper keeps its worlds in module globals: every ECS test runs in a fresh, uniquely
named world that is deleted afterwards, so tests never see each other's entities."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import esper
import pytest

from arcade_collide.geometry import compiled

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


@pytest.fixture(params=["numpy", "compiled"])
def kernel_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test on the numpy path and on the compiled kernels' path.

    The compiled path is numba's machine code where numba is installed, and the same
    loops as plain Python otherwise; either way it must give the same events. Systems
    read the switch when they are made and when they tick, so the test builds its
    systems after this fixture.
    """
    monkeypatch.setattr(compiled, "ENABLED", request.param == "compiled")
    return str(request.param)

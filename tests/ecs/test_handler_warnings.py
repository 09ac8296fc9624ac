"""esper drops weakly held handlers; the CollisionSystem makes that drop warn."""

from __future__ import annotations

import subprocess
import sys
import warnings

import esper
import pytest

from arcade_collide import Circle
from arcade_collide.ecs import (
    CollisionStarted,
    CollisionSystem,
    HandlerDroppedWarning,
    MovementSystem,
    Position,
    Shape,
)


def _touching_pair() -> CollisionSystem:
    collisions = CollisionSystem()
    esper.add_processor(MovementSystem(), priority=1)
    esper.add_processor(collisions)
    esper.create_entity(Position(0, 0), Shape(Circle(5)))
    esper.create_entity(Position(4, 0), Shape(Circle(5)))
    return collisions


def test_a_lambda_handler_warns_at_the_line_that_registered_it() -> None:
    _touching_pair()
    with pytest.warns(HandlerDroppedWarning, match="on_collision_ended") as caught:
        esper.set_handler("on_collision_ended", lambda event: None)
    assert caught[0].filename == __file__


def test_the_warning_returns_after_esper_discards_the_empty_set() -> None:
    _touching_pair()
    with pytest.warns(HandlerDroppedWarning):
        esper.set_handler("on_collision_started", lambda event: None)
    esper.process(1 / 60)
    with pytest.warns(HandlerDroppedWarning):
        esper.set_handler("on_collision_started", lambda event: None)


def test_kept_handlers_and_remove_handler_stay_silent() -> None:
    _touching_pair()
    seen: list[CollisionStarted] = []

    def handler(event: CollisionStarted) -> None:
        seen.append(event)

    with warnings.catch_warnings():
        warnings.simplefilter("error", HandlerDroppedWarning)
        esper.set_handler("on_collision_started", handler)
        esper.process(1 / 60)
        esper.remove_handler("on_collision_started", handler)
        esper.process(1 / 60)
    assert [(e.a, e.b) for e in seen] == [(1, 2)]


def test_handlers_registered_before_the_system_are_kept() -> None:
    seen: list[CollisionStarted] = []

    def handler(event: CollisionStarted) -> None:
        seen.append(event)

    esper.set_handler("on_collision_started", handler)
    _touching_pair()
    esper.process(1 / 60)
    assert len(seen) == 1
    esper.remove_handler("on_collision_started", handler)


def test_a_handler_of_a_deleted_object_warns() -> None:
    class Game:
        def on_started(self, event: CollisionStarted) -> None:
            raise AssertionError("a dropped handler was called")

    _touching_pair()
    game = Game()
    esper.set_handler("on_collision_started", game.on_started)
    with pytest.warns(HandlerDroppedWarning):
        del game
    esper.process(1 / 60)


def test_no_warning_when_the_interpreter_exits() -> None:
    # At exit every module-level handler dies; that is no mistake of the game's.
    script = (
        "import esper\n"
        "from arcade_collide.ecs import CollisionSystem\n"
        "esper.add_processor(CollisionSystem())\n"
        "def on_started(event): pass\n"
        "esper.set_handler('on_collision_started', on_started)\n"
        "esper.process(1 / 60)\n"
    )
    done = subprocess.run(
        [sys.executable, "-W", "always", "-c", script], capture_output=True, text=True, check=True
    )
    assert "HandlerDroppedWarning" not in done.stderr

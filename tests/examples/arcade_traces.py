"""Drive one of Arcade's own example games and its arcade_collide port side by side.

Both views are built with the same random seed and fed the same scripted input, then
stepped tick by tick headless (``on_update`` only, as Arcade's loop calls it; nothing
is drawn). After each tick a :class:`Tick` records every sprite's pose in each sprite
list the game keeps, its score and lives: equal traces mean the port plays the same
game. Sounds are muted (``arcade.play_sound`` and ``Sound.play`` do nothing) but the
calls stay, so the games draw the same random numbers.

Also imported by ``benchmarks/bench_examples.py``, which times ``on_update``.
"""

from __future__ import annotations

import importlib
import os
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
from example_loader import load_example

Input = tuple[Any, ...]
"""One input event: ``("press", key)``, ``("release", key)``, ``("motion", x, y)``
or ``("click", x, y)``."""

Script = Callable[[int], list[Input]]
"""The input events given before tick ``n``."""

Pose = tuple[float, float, float]


@dataclass(frozen=True)
class Tick:
    """What one game looked like after one tick."""

    sprites: dict[str, tuple[Pose, ...]]
    """Per sprite list (by the view's attribute name): ``(x, y, angle)`` of each sprite."""
    score: int
    lives: int | None
    """None for a game without lives."""


@dataclass(frozen=True)
class ExampleGame:
    """How to build and play one example, original and port."""

    name: str
    """The module name in ``arcade.examples`` and in ``examples/``."""
    lists: tuple[str, ...]
    """The view's sprite-list attributes to record."""
    start: str
    """The view's method that starts a game (``setup``, ``start_new_game``)."""
    script: Script

    def original(self) -> ModuleType:
        return importlib.import_module(f"arcade.examples.{self.name}")

    def port(self) -> ModuleType:
        return load_example(self.name)


@contextmanager
def muted() -> Iterator[None]:
    """Make Arcade's sound calls do nothing (headless machines may have no audio)."""
    play_sound, sound_play = arcade.play_sound, arcade.Sound.play
    arcade.play_sound = lambda *args, **kwargs: None  # type: ignore[assignment]
    arcade.Sound.play = lambda *args, **kwargs: None  # type: ignore[assignment,method-assign]
    try:
        yield
    finally:
        arcade.play_sound = play_sound  # type: ignore[assignment]
        arcade.Sound.play = sound_play  # type: ignore[method-assign]


def start(game: ExampleGame, module: ModuleType, window: arcade.Window, seed: int) -> Any:
    """Build ``module``'s view in ``window`` and start a game, after seeding ``random``."""
    random.seed(seed)
    view = module.GameView()
    getattr(view, game.start)()
    window.show_view(view)
    return view


def give(view: Any, events: list[Input]) -> None:
    """Hand ``events`` to ``view`` as Arcade's event loop would."""
    for event in events:
        what, *args = event
        if what == "press":
            view.on_key_press(args[0], 0)
        elif what == "release":
            view.on_key_release(args[0], 0)
        elif what == "motion":
            view.on_mouse_motion(args[0], args[1], 0, 0)
        elif what == "click":
            view.on_mouse_press(args[0], args[1], arcade.MOUSE_BUTTON_LEFT, 0)
        else:
            raise ValueError(f"unknown input event {event!r}")


def snapshot(game: ExampleGame, view: Any) -> Tick:
    """The poses, score and lives of ``view`` now."""
    sprites = {
        name: tuple((s.center_x, s.center_y, s.angle) for s in getattr(view, name))
        for name in game.lists
    }
    return Tick(sprites, int(view.score), getattr(view, "lives", None))


def play(
    game: ExampleGame,
    module: ModuleType,
    window: arcade.Window,
    ticks: int,
    seed: int,
    record: bool = True,
) -> tuple[list[Tick], list[float]]:
    """Play ``ticks`` ticks of ``module``'s game: its trace (empty unless ``record``)
    and the wall time of each ``on_update``, in seconds."""
    trace: list[Tick] = []
    took: list[float] = []
    delta_time = 1.0 / 60.0
    with muted():
        view = start(game, module, window, seed)
        for tick in range(ticks):
            give(view, game.script(tick))
            began = time.perf_counter()
            view.on_update(delta_time)
            took.append(time.perf_counter() - began)
            if record:
                trace.append(snapshot(game, view))
    world = getattr(view, "world", None)
    if world is not None:
        world.close()
    return trace, took


def first_difference(a: list[Tick], b: list[Tick]) -> str | None:
    """Where two traces first differ, in words (None when they are equal)."""
    for tick, (x, y) in enumerate(zip(a, b, strict=True)):
        if x == y:
            continue
        if (x.score, x.lives) != (y.score, y.lives):
            return f"tick {tick}: score, lives {x.score, x.lives} != {y.score, y.lives}"
        for name in x.sprites:
            if x.sprites[name] != y.sprites[name]:
                return f"tick {tick}: {name} {x.sprites[name]} != {y.sprites[name]}"
    return None


def asteroid_script(tick: int) -> list[Input]:
    """Turn right in bursts, thrust now and then, fire every 7 ticks."""
    key = arcade.key
    events: list[Input] = []
    if tick % 7 == 0:
        events.append(("press", key.SPACE))
    phase = tick % 120
    if phase == 0:
        events.append(("press", key.RIGHT))
    elif phase == 25:
        events.append(("release", key.RIGHT))
    elif phase == 60:
        events.append(("press", key.UP))
    elif phase == 75:
        events.append(("release", key.UP))
    elif phase == 90:
        events.append(("press", key.LEFT))
    elif phase == 100:
        events.append(("release", key.LEFT))
    return events


def bullets_script(tick: int) -> list[Input]:
    """Sweep the mouse back and forth across the window, clicking every 5 ticks.

    The mouse is off whole pixels by an odd fraction: a bullet exactly touching a coin
    (both on a grid of 0.2 px) can count as a hit in one engine and not the other
    (``test_sprite_bullets.py`` shows such a case), and this script meets none.
    """
    sweep = tick % 400
    x = 20.37 + (sweep if sweep < 200 else 400 - sweep) * 6.13
    events: list[Input] = [("motion", x, 70)]
    if tick % 5 == 0:
        events.append(("click", x, 70))
    return events


GAMES = {
    "asteroid_smasher": ExampleGame(
        "asteroid_smasher",
        ("player_sprite_list", "asteroid_list", "bullet_list", "ship_life_list"),
        "start_new_game",
        asteroid_script,
    ),
    "sprite_bullets": ExampleGame(
        "sprite_bullets", ("player_list", "coin_list", "bullet_list"), "setup", bullets_script
    ),
}
"""The ported examples, by name; add an entry to trace and time another one."""


def same_game(game: ExampleGame, window: arcade.Window, ticks: int, seed: int) -> list[Tick]:
    """Play the original and the port; fail naming the first difference, else return
    the trace (the same for both)."""
    original, _ = play(game, game.original(), window, ticks, seed)
    port, _ = play(game, game.port(), window, ticks, seed)
    difference = first_difference(original, port)
    if difference is not None:
        raise AssertionError(f"{game.name}: the port's trace differs at {difference}")
    return original

"""Arcade's physics engines against the drop-ins, update time per tick, same run.

Three scenes, each run with Arcade's engine and with the drop-in
(``arcade_collide.arcade.PhysicsEngineSimple`` / ``PhysicsEnginePlatformer``), the
same scripted keys driving both; only ``physics_engine.update()`` is timed:

* ``sprite_move_walls``: Arcade's example (the player walks into and along crates);
* ``platform_ladders``: Arcade's platform tutorial part 15 (walking, jumping,
  ladders, moving platforms on its Tiled map);
* a large level: ``--tiles`` static 32 px tiles in a spatially hashed wall list (a
  ground row with staircases of blocks on it, the rest stacked below the ground), a
  player walking and jumping across it.

The drop-in runs the ports in ``examples/`` (Arcade's code, the engine's import
changed). The engines take turns (``rounds.alternate``, ``--repeat``
runs each, each keeping its run with the lowest median). Target: the drop-in's median
update at most Arcade's in each scene. Each target line says "met" or "not met"; the
exit status is 0 unless the benchmark crashes.

    .venv/bin/python benchmarks/bench_engines.py [--quick] [--clock cpu] [--tiles N]
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rounds import Targets, alternate, number, timed, use_clock

import arcade_collide.arcade as plugin

TILE = 32.0
K = arcade.key
MOVE_WALLS = "arcade.examples.sprite_move_walls"
LADDERS = "arcade.examples.platform_tutorial.15_ladders_moving_platforms"
PORTS = {MOVE_WALLS: "sprite_move_walls", LADDERS: "platform_ladders"}
"""Each example's port in ``examples/``: Arcade's code with the drop-in engine."""
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
Run = Callable[[int, int], list[float]]


def press(game: Any, tick: int, period: int) -> None:
    """The scripted keys of tick ``tick``: right and left in turn, UP now and then."""
    phase = tick % period
    if phase == 0:
        game.on_key_press(K.RIGHT, 0)
    elif phase == period // 2:
        game.on_key_press(K.LEFT, 0)
    if phase % 40 == 10:
        game.on_key_press(K.UP, 0)
    elif phase % 40 == 30:
        game.on_key_release(K.UP, 0)


def example(name: str, swap: bool) -> Any:
    """Arcade's example module ``name``, or its port in ``examples/`` when ``swap``."""
    if not swap:
        return importlib.import_module(name)
    port = PORTS[name]
    spec = importlib.util.spec_from_file_location(port, EXAMPLES / f"{port}.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load examples/{port}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def example_ways(name: str, period: int) -> dict[str, Run]:
    """Per engine, a timed run of the example ``name`` driven by the scripted keys."""

    def run(swap: bool, warmup: int, ticks: int) -> list[float]:
        game = example(name, swap).GameView()
        try:
            game.setup()
            return timed(game.physics_engine.update, warmup, ticks, driver(game, period))
        finally:
            if isinstance(game, arcade.Window):
                game.close()

    return {"arcade": lambda w, t: run(False, w, t), "arcade_collide": lambda w, t: run(True, w, t)}


def driver(game: Any, period: int) -> Callable[[], None]:
    """The untimed part of a tick: the scripted keys."""
    tick = [0]

    def before() -> None:
        press(game, tick[0], period)
        tick[0] += 1

    return before


def level(tiles: int) -> arcade.SpriteList[Any]:
    """``tiles`` wall tiles: a ground row with staircases of 1-3 blocks, the rest below."""
    walls: arcade.SpriteList[Any] = arcade.SpriteList(use_spatial_hash=True)
    width = max(64, int(tiles**0.5) * 4)
    for index in range(tiles):
        row, column = divmod(index, width)
        step = column % 16 - 7
        y = TILE * step if row == 0 and 1 <= step <= 3 else -TILE * row
        walls.append(arcade.SpriteSolidColor(int(TILE), int(TILE), center_x=column * TILE,
                                             center_y=y))  # fmt: skip
    return walls


class Walker:
    """A player on the large level, jumping when it can."""

    def __init__(self, engine_type: Any, walls: arcade.SpriteList[Any]) -> None:
        self.player_sprite = arcade.SpriteSolidColor(24, 48, center_x=64, center_y=80)
        self.physics_engine = engine_type(self.player_sprite, walls=walls, gravity_constant=1)

    def on_key_press(self, key: int, modifiers: int) -> None:
        if key == K.UP and self.physics_engine.can_jump():
            self.player_sprite.change_y = 20
        elif key in (K.LEFT, K.RIGHT):
            self.player_sprite.change_x = 5 if key == K.RIGHT else -5

    def on_key_release(self, key: int, modifiers: int) -> None:
        """Keys keep their effect (the walker turns at each press)."""


def level_ways(walls: arcade.SpriteList[Any], period: int) -> dict[str, Run]:
    def run(engine_type: Any, warmup: int, ticks: int) -> list[float]:
        game = Walker(engine_type, walls)
        return timed(game.physics_engine.update, warmup, ticks, driver(game, period))

    return {
        "arcade": lambda w, t: run(arcade.PhysicsEnginePlatformer, w, t),
        "arcade_collide": lambda w, t: run(plugin.PhysicsEnginePlatformer, w, t),
    }


def measure(label: str, ways: dict[str, Run], plan: tuple[int, int, int],
            targets: Targets) -> dict[str, float]:  # fmt: skip
    """µs per update (median) of each engine, alternating; one table row, one target."""
    warmup, ticks, repeat = plan
    best = alternate({name: lambda run=run: run(warmup, ticks) for name, run in ways.items()},
                     repeat)  # fmt: skip
    us = {name: statistics.median(values) * 1e3 for name, values in best.items()}
    ratio = us["arcade"] / us["arcade_collide"]
    print(f"| {label} | {number(us['arcade'])} | {number(us['arcade_collide'])} | "
          f"{ratio:.2f}x |", flush=True)  # fmt: skip
    targets.at_most(f"{label}: drop-in / Arcade update",
                    us["arcade_collide"] / us["arcade"], 1.0, "x")  # fmt: skip
    return us


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few ticks, a small level")
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall")
    parser.add_argument("--tiles", type=int, default=None, help="tiles of the large level")
    parser.add_argument("--repeat", type=int, default=None, help="alternating runs each")
    args = parser.parse_args(argv)
    print(use_clock(args.clock))
    tiles = args.tiles or (2_000 if args.quick else 100_000)
    warmup, ticks, repeat = (10, 60, 1) if args.quick else (30, 600, 3)
    plan = (warmup, ticks, args.repeat or repeat)
    print(f"\nµs per update, median of {ticks} ticks, best of {plan[2]} alternating runs")
    print("\n| scene | Arcade | drop-in | Arcade / drop-in |\n|---|---|---|---|")
    targets = Targets()
    window = arcade.Window(800, 600, "bench_engines", visible=False)
    try:
        measure("sprite_move_walls", example_ways(MOVE_WALLS, 120), plan, targets)
        measure(f"level of {tiles:,} tiles", level_ways(level(tiles), 400), plan, targets)
    finally:
        window.close()
    measure("platform_ladders", example_ways(LADDERS, 160), plan, targets)
    print(targets.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())

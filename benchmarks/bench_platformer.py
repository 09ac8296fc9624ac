"""The platformer benchmark: 200 controlled bodies on a level of 100,000 tiles.

The level: rows of 32 px tiles, 20 floors 256 px apart (the floor above is the ceiling
a jump can bump into). 200 bodies (24 x 40 px) start standing on the floors, spread
along them, and follow one scripted input: each walks right or left at 300 px/s,
turning every two seconds, and presses jump every 50 ticks (gravity 3,600 px/s²,
jumps at 1,200 px/s: the Arcade platform tutorial's values at 60 ticks a second).

* ``arcade_collide``: every body an entity with a Position, Velocity, ``Shape(Rect)``,
  ``Body`` and ``Platformer``; the tiles ``Static`` and ``Solid``. Timed:
  ``esper.process(dt)``: PlatformerSystem, MovementSystem, CollisionSystem with its
  ResponseSystem stage. Setting the input is the game's work, untimed.
* Arcade: the same tiles as one ``SpriteList(use_spatial_hash=True)``, each body a
  sprite with its own ``arcade.PhysicsEnginePlatformer(player, walls=tiles)``.
  Timed: for every body, ``can_jump()`` and ``jump()`` on its press ticks, then
  ``update()``. Setting ``change_x`` is the game's work, untimed.

The ways take turns (:func:`rounds.alternate`); each keeps its run with the lowest
median. Targets at 100,000 tiles: at most 2 ms per tick, at least 20x faster than
Arcade's engines.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import esper
import numpy as np
from rounds import CLOCKS, Targets, alternate, ms, timed, use_clock

from arcade_collide import (
    Body,
    CollisionSystem,
    MovementSystem,
    Platformer,
    PlatformerSystem,
    Position,
    Rect,
    ResponseSystem,
    Shape,
    Solid,
    Static,
    Velocity,
)
from arcade_collide.arcade.lifetime import delete_own_world, in_world

DT = 1 / 60
TILE = 32.0
FLOORS = 20
FLOOR_STEP = 8 * TILE
BODY = (24.0, 40.0)
GRAVITY, RUN, JUMP = 3600.0, 300.0, 1200.0
TURN_TICKS, JUMP_TICKS = 120, 50


@dataclass(frozen=True)
class Config:
    tiles: int
    bodies: int
    warmup: int
    ticks: int
    repeat: int


def tile_centres(tiles: int) -> np.ndarray:
    """``(tiles, 2)`` centres: ``FLOORS`` rows (fewer for a small level) of equal length."""
    rows = min(FLOORS, max(1, tiles // 50))
    cols = tiles // rows
    c, r = np.meshgrid(np.arange(cols), np.arange(rows))
    centres = np.column_stack(((c.ravel() + 0.5) * TILE, r.ravel() * FLOOR_STEP + TILE / 2))
    return centres[:tiles]


def spawn(tiles: np.ndarray, bodies: int) -> np.ndarray:
    """``(bodies, 2)`` centres, standing on the floors, spread along them away from
    their ends (a body walks at most 600 px from where it started)."""
    rows = np.unique(tiles[:, 1])
    width = tiles[:, 0].max() + TILE / 2
    k = np.arange(bodies)
    x = 700.0 + (k // len(rows)) * (width - 1400.0) / max(1, bodies // len(rows))
    y = rows[k % len(rows)] + TILE / 2 + BODY[1] / 2
    return np.column_stack((x, y))


def script(tick: int, bodies: int) -> tuple[np.ndarray, np.ndarray]:
    """Each body's move (-1 or 1) and whether it presses jump at ``tick``."""
    k = np.arange(bodies)
    move = np.where((tick + 37 * k) // TURN_TICKS % 2 == 0, 1.0, -1.0)
    return move, (tick + 13 * k) % JUMP_TICKS == 0


class EcsScene:
    """The level in an esper world of its own, run by the plugin's systems."""

    def __init__(self, tiles: np.ndarray, bodies: np.ndarray, name: str = "bench-platformer"):
        self.name = name
        self.tick = 0
        delete_own_world(name)
        with in_world(name):
            for x, y in tiles.tolist():
                esper.create_entity(Position(x, y), Shape(Rect(TILE, TILE)), Static(), Solid())
            self.controls = []
            self.bodies = []
            for x, y in bodies.tolist():
                control = Platformer(gravity=GRAVITY, run_speed=RUN, jump_speed=JUMP)
                self.controls.append(control)
                shape = Shape(Rect(*BODY))
                self.bodies.append(
                    esper.create_entity(Position(x, y), Velocity(0, 0), shape, Body(), control)
                )
            collisions = CollisionSystem()
            self.response = ResponseSystem(collisions)
            esper.add_processor(PlatformerSystem(self.response, collisions), priority=2)
            esper.add_processor(MovementSystem(), priority=1)
            esper.add_processor(collisions, priority=0)

    def steer(self) -> None:
        move, jump = script(self.tick, len(self.controls))
        for control, m, j in zip(self.controls, move.tolist(), jump.tolist(), strict=True):
            control.move = m
            if j:
                control.jump = True
        self.tick += 1

    def step(self) -> None:
        with in_world(self.name):
            esper.process(DT)

    def positions(self) -> np.ndarray:
        with in_world(self.name):
            found = [esper.component_for_entity(e, Position) for e in self.bodies]
            return np.array([(p.x, p.y) for p in found])

    def on_ground(self) -> int:
        return sum(control.on_ground for control in self.controls)

    def close(self) -> None:
        delete_own_world(self.name)


class ArcadeScene:
    """The level as a sprite list, each body driven by its own Arcade engine."""

    def __init__(self, tiles: np.ndarray, bodies: np.ndarray) -> None:
        self.tick = 0
        self.walls: arcade.SpriteList[arcade.SpriteSolidColor] = arcade.SpriteList(
            use_spatial_hash=True
        )
        for x, y in tiles.tolist():
            self.walls.append(arcade.SpriteSolidColor(int(TILE), int(TILE), x, y))
        self.players = [
            arcade.SpriteSolidColor(int(BODY[0]), int(BODY[1]), x, y)
            for x, y in bodies.tolist()
        ]
        self.engines = [
            arcade.PhysicsEnginePlatformer(p, walls=self.walls, gravity_constant=GRAVITY * DT * DT)
            for p in self.players
        ]
        self.jumps: list[bool] = [False] * len(self.players)

    def steer(self) -> None:
        move, jump = script(self.tick, len(self.players))
        for player, m in zip(self.players, move.tolist(), strict=True):
            player.change_x = m * RUN * DT
        self.jumps = jump.tolist()
        self.tick += 1

    def step(self) -> None:
        for engine, jump in zip(self.engines, self.jumps, strict=True):
            if jump and engine.can_jump():
                engine.jump(JUMP * DT)
            engine.update()

    def positions(self) -> np.ndarray:
        return np.array([p.position for p in self.players])


def run_way(scene: EcsScene | ArcadeScene, config: Config) -> Callable[[], list[float]]:
    return lambda: timed(scene.step, config.warmup, config.ticks, before=scene.steer)


def measure(config: Config, targets: Targets) -> dict[str, list[float]]:
    tiles = tile_centres(config.tiles)
    starts = spawn(tiles, config.bodies)
    ours, peer = EcsScene(tiles, starts), ArcadeScene(tiles, starts)
    try:
        runs = alternate(
            {"arcade_collide": run_way(ours, config), "arcade engines": run_way(peer, config)},
            config.repeat,
        )
        print(f"\n{config.tiles:,} tiles, {config.bodies} bodies: ms per tick (median / worst)")
        print("| way | ms per tick |\n|---|---:|")
        for name, values in runs.items():
            print(f"| {name} | {ms(values)} |")
        floors = np.unique(tiles[:, 1]) + TILE / 2 + BODY[1] / 2
        height = ours.positions()[:, 1]
        standing = np.isclose(height[:, None], floors[None, :], atol=1e-6).any(axis=1)
        grounded = ours.on_ground()
        print(f"bodies on the ground after the runs: {grounded}, resting on a floor top: "
              f"{int(standing.sum())}")  # fmt: skip
        mine, theirs = statistics.median(runs["arcade_collide"]), statistics.median(
            runs["arcade engines"]
        )
        targets.at_most("platformer tick", mine, 2.0, "ms")
        targets.at_least("faster than Arcade's engines", theirs / mine, 20.0, "x")
        return runs
    finally:
        ours.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small level, few ticks")
    parser.add_argument("--tiles", type=int, default=100_000)
    parser.add_argument("--bodies", type=int, default=200)
    parser.add_argument("--ticks", type=int, default=120, help="timed ticks per run")
    parser.add_argument("--repeat", type=int, default=3, help="alternating runs per way")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="time ticks by elapsed time (default) or by this process's CPU time")
    args = parser.parse_args(argv)
    print(use_clock(args.clock))
    if args.quick:
        config = Config(2_000, 20, 5, 20, 1)
    else:
        config = Config(args.tiles, args.bodies, 30, args.ticks, args.repeat)
    targets = Targets()
    measure(config, targets)
    print(f"\nTargets (issue 17, platformer):\n{targets.summary()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

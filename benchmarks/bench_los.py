"""Line of sight in a level: ``CollisionWorld.has_line_of_sight`` against
``arcade.has_line_of_sight`` and pymunk's ``segment_query_first``, in the same run.

The level: about 100,000 static 32 px square tiles (``--tiles``) on a square grid,
laid out as blocks of 4 x 4 tiles with 2-tile corridors between them, a random 30% of
the blocks left out (open squares). 200 guards (``--guards``) stand on random free
spots within 800 px of the player, who stands on a free spot near the middle. One
"tick" asks whether each guard sees the player: 200 calls.

* ours: the tiles are sprites of a ``SpriteList`` added to a
  :class:`~arcade_collide.arcade.CollisionWorld` with ``static=True``;
  ``world.has_line_of_sight(guard, player, tiles)``, exact.
* arcade: ``arcade.has_line_of_sight(guard, player, tiles)`` on the same sprites with
  ``use_spatial_hash=True``: it tests a point every ``check_resolution`` (2) px along the
  segment with ``get_sprites_at_point``, so a segment that cuts a corner between two
  points, or crosses a wall in the last 2 px, is seen through.
* pymunk: the same tiles as static ``Poly`` boxes of one space;
  ``space.segment_query_first(guard, player, 0, filter) is None``.

The exact answer comes from shapely (an ``STRtree`` of the tiles' squares; a segment
that touches a tile counts as blocked). Each way's answers are counted against it:
Arcade's misses are the point of the comparison, and ours must have none.

ms per tick (200 guards): median of ``ticks`` timed ticks after warm-up ones; the ways
take turns, ``--repeat`` runs each, each keeping its best median (``rounds.alternate``),
for several player spots (``--spots``), the guards placed afresh around each.

Targets (issue 15): ours at least 20x faster than ``arcade.has_line_of_sight``, and
exact (no answer differing from shapely's). The exit status is 1 when a target is not
met (0 always with ``--quick``, a smoke run on a small level).

    python benchmarks/bench_los.py [--quick] [--tiles N] [--guards N] [--spots N]
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

os.environ.setdefault("ARCADE_HEADLESS", "1")
# Measure the arcade_collide of this checkout, whichever one the environment installed.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import arcade
import numpy as np
import pymunk
import shapely
from rounds import Targets, alternate, number, timed

from arcade_collide.arcade import CollisionWorld

TILE = 32
BLOCK, PERIOD = 4, 6
"""A block is ``BLOCK`` x ``BLOCK`` tiles; blocks repeat every ``PERIOD`` tiles."""
KEEP = 0.7
"""Share of the blocks that are built."""
SIGHT = 800.0
"""Guards stand at most this far from the player (px)."""
TARGET_RATIO = 20.0

Point = tuple[float, float]


@dataclass
class Level:
    """The tiles' centres, the free cells, and the guards and player of each spot."""

    centres: list[Point]
    free: np.ndarray
    """``(k, 2)`` centres of the cells without a tile."""
    side: int
    """Cells per row and column."""

    def around(self, rng: random.Random, guards: int) -> tuple[Point, list[Point]]:
        """A player on a free cell near the middle and ``guards`` guards around them.

        Both stand anywhere on a free cell (not only its centre), so that sight lines
        meet the tiles' corners at every angle.
        """
        middle = self.side * TILE / 2
        near = self.free[np.hypot(*(self.free - middle).T) < 4 * SIGHT]
        cx, cy = near[rng.randrange(len(near))]
        player = (cx + rng.uniform(-14, 14), cy + rng.uniform(-14, 14))
        close = self.free[np.hypot(*(self.free - player).T) <= SIGHT]
        spots = []
        for _ in range(guards):
            gx, gy = close[rng.randrange(len(close))]
            spots.append((float(gx) + rng.uniform(-14, 14), float(gy) + rng.uniform(-14, 14)))
        return player, spots


def build_level(tiles: int, seed: int = 1) -> Level:
    """About ``tiles`` tiles: blocks of ``BLOCK`` x ``BLOCK``, ``KEEP`` of them built."""
    rng = random.Random(seed)
    per_cell = BLOCK * BLOCK / (PERIOD * PERIOD) * KEEP
    blocks = max(2, round(math.sqrt(tiles / per_cell) / PERIOD))
    side = blocks * PERIOD
    wall = np.zeros((side, side), dtype=bool)
    for bx in range(blocks):
        for by in range(blocks):
            if rng.random() < KEEP:
                x0, y0 = bx * PERIOD + 1, by * PERIOD + 1
                wall[x0:x0 + BLOCK, y0:y0 + BLOCK] = True
    xs, ys = np.nonzero(wall)
    centres = [(float(x) * TILE, float(y) * TILE) for x, y in zip(xs, ys, strict=True)]
    fx, fy = np.nonzero(~wall)
    free = np.column_stack((fx, fy)).astype(float) * TILE
    return Level(centres, free, side)


def tile_sprites(level: Level) -> arcade.SpriteList[arcade.SpriteSolidColor]:
    """The tiles as sprites in a spatially hashed list (Arcade's advice for walls)."""
    walls: arcade.SpriteList[arcade.SpriteSolidColor] = arcade.SpriteList(
        use_spatial_hash=True
    )
    for x, y in level.centres:
        walls.append(arcade.SpriteSolidColor(TILE, TILE, center_x=x, center_y=y))
    return walls


def tile_space(level: Level) -> pymunk.Space:
    """The tiles as static boxes of one pymunk space."""
    space = pymunk.Space()
    half = TILE / 2
    for x, y in level.centres:
        corners = [(x - half, y - half), (x + half, y - half),
                   (x + half, y + half), (x - half, y + half)]
        space.add(pymunk.Poly(space.static_body, corners, radius=0.0))
    return space


def exact_answers(tree: shapely.STRtree, player: Point, guards: list[Point]) -> list[bool]:
    """Whether each guard sees the player: no tile meets the closed segment."""
    lines = shapely.linestrings([[guard, player] for guard in guards])
    hit = tree.query(lines, predicate="intersects")
    blocked = np.zeros(len(guards), dtype=bool)
    blocked[hit[0]] = True
    return [not b for b in blocked.tolist()]


Ask = Callable[[Point, list[Point]], list[bool]]


def ways(world: CollisionWorld, walls: arcade.SpriteList[arcade.SpriteSolidColor],
         space: pymunk.Space) -> dict[str, Ask]:
    """Per way, ``ask(player, guards)``: whether each guard sees the player."""
    every = pymunk.ShapeFilter()

    def ours(player: Point, guards: list[Point]) -> list[bool]:
        sight = world.has_line_of_sight
        return [sight(guard, player, walls) for guard in guards]

    def arcade_way(player: Point, guards: list[Point]) -> list[bool]:
        return [arcade.has_line_of_sight(guard, player, walls) for guard in guards]

    def pymunk_way(player: Point, guards: list[Point]) -> list[bool]:
        first = space.segment_query_first
        return [first(guard, player, 0.0, every) is None for guard in guards]

    return {"ours": ours, "arcade": arcade_way, "pymunk": pymunk_way}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small level, few ticks")
    parser.add_argument("--tiles", type=int, default=None, help="about this many tiles")
    parser.add_argument("--guards", type=int, default=200)
    parser.add_argument("--spots", type=int, default=None, help="player spots (default 5)")
    parser.add_argument("--repeat", type=int, default=3, help="alternating runs per way")
    args = parser.parse_args()
    tiles = args.tiles or (10_000 if args.quick else 100_000)
    spots = args.spots or (2 if args.quick else 5)
    warmup, ticks = (1, 3) if args.quick else (1, 5)

    started = time.perf_counter()
    level = build_level(tiles)
    walls = tile_sprites(level)
    space = tile_space(level)
    tree = shapely.STRtree(shapely.box(*np.subtract(level.centres, TILE / 2).T,
                                       *np.add(level.centres, TILE / 2).T))
    world = CollisionWorld()
    world.add_sprite_list(walls, static=True)
    asks = ways(world, walls, space)
    print(f"level: {len(level.centres):,} static {TILE:g} px tiles, {level.side} x "
          f"{level.side} cells; {args.guards} guards within {SIGHT:g} px of the player, "
          f"{spots} player spots; built in {time.perf_counter() - started:.1f} s", flush=True)

    rng = random.Random(2)
    best: dict[str, list[float]] = {name: [] for name in asks}
    wrong = {name: [0, 0] for name in asks}  # [sees through a wall, blocked in the open]
    queries = visible = 0
    for _ in range(spots):
        player, guards = level.around(rng, args.guards)
        truth = exact_answers(tree, player, guards)
        queries += len(truth)
        visible += sum(truth)
        for name, ask in asks.items():
            for said, true in zip(ask(player, guards), truth, strict=True):
                if said != true:
                    wrong[name][0 if said else 1] += 1
        rounds = alternate(
            {name: partial(timed, partial(ask, player, guards), warmup, ticks)
             for name, ask in asks.items()},
            args.repeat,
        )
        for name, values in rounds.items():
            best[name].append(statistics.median(values))
    world.close()

    print(f"{queries:,} sight lines, {visible:,} clear; ms per tick ({args.guards} calls), "
          f"median of {ticks} ticks, best of {args.repeat} alternating runs, per spot:")
    for name, values in best.items():
        mean = sum(values) / len(values)
        print(f"  {name:7} {' '.join(f'{v:8.3f}' for v in values)}   "
              f"mean {mean:8.3f} ms = {mean / args.guards * 1e3:7.1f} "
              f"µs per call; answers differing from the exact one: {sum(wrong[name])} "
              f"({wrong[name][0]} seen through a tile, {wrong[name][1]} blocked in the open)")
    ratio = sum(best["arcade"]) / sum(best["ours"])
    print(f"arcade / ours: {ratio:.1f}x; pymunk / ours: "
          f"{sum(best['pymunk']) / sum(best['ours']):.2f}x")
    targets = Targets()
    targets.at_least("has_line_of_sight, ours against arcade", ratio, TARGET_RATIO, "x")
    targets.check("has_line_of_sight, ours exact",
                  f"{number(sum(wrong['ours']))} answers differ from shapely's", "0",
                  sum(wrong["ours"]) == 0)
    print(f"\nTargets (issue 15):\n{targets.summary()}")
    return 0 if args.quick or targets.all_met else 1


if __name__ == "__main__":
    sys.exit(main())

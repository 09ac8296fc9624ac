"""Tile-layer benchmark: shapes before and after merging, and the time add_tile_layer takes.

Run: ``.venv/bin/python benchmarks/bench_tiles.py`` (``--quick`` for a small generated
level, ``--repeat N`` for the timed runs per map, 3 by default; ``--clock cpu`` times by
this process's CPU time, steadier on a shared machine).

For each of Arcade's resource maps with a ``Platforms`` layer, and for a generated
platformer level of 100,000 tiles (:func:`generated_rows`: rolling ground, floating
platforms, walls and pillars, 16 px tiles), it prints the layer's tiles (the shapes
``add_sprite_list(..., static=True)`` would make: one per tile), the shapes
``add_tile_layer`` makes, their ratio, and the best time of ``add_tile_layer`` over
the runs (each in a fresh CollisionWorld; loading the map is not timed). For the
generated level it also times ``add_sprite_list(sprites, static=True)`` on the same
sprites, and one tick of the world with the colliders in it.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade
import numpy as np
from rounds import CLOCKS, timed, use_clock
from tiled_json import tile_layer, write_map

from arcade_collide.arcade import CollisionWorld

RESOURCE_MAPS = ["level_1.json", "level_2.json", "map.json", "map2_level_1.json",
                 "map_with_ladders.json", "pymunk_test_map.json", "test_map_7.json"]


def generated_rows(tiles: int, seed: int = 17) -> list[str]:
    """A platformer level of exactly ``tiles`` full tiles, as text rows (top first):
    ``tiles / 100`` columns of rolling ground about half the height deep, walls at
    both ends, and floating platforms and pillars above."""
    rng = np.random.default_rng(seed)
    width = max(40, tiles // 100)
    height = max(20, int(1.6 * tiles / width))
    grid = np.zeros((height, width), dtype=bool)  # row 0 is the bottom here
    steps = np.cumsum(rng.integers(-1, 2, width))
    ground = np.clip(steps + height // 2 - 10, 2, (3 * height) // 5)
    for column, top in enumerate(ground.tolist()):
        grid[:top, column] = True
    grid[:, 0] = grid[:, -1] = True
    while grid.sum() < tiles:
        row = int(rng.integers((2 * height) // 3, height - 1))
        start = int(rng.integers(1, width - 12))
        if rng.random() < 0.2:  # a pillar
            grid[row - int(rng.integers(2, 8)) : row, start] = True
        else:
            grid[row, start : start + int(rng.integers(3, 12))] = True
    # Too many: take tiles off the top rows, walls kept.
    rows, columns = np.nonzero(grid[:, 1:-1])
    order = np.argsort(-rows, kind="stable")[: int(grid.sum()) - tiles]
    grid[rows[order], columns[order] + 1] = False
    return ["".join("#" if cell else "." for cell in row) for row in grid[::-1]]


def measure(tile_map: arcade.TileMap, layer: str, repeat: int) -> tuple[int, int, float]:
    """``(tiles, shapes, best milliseconds)`` of add_tile_layer on ``layer``, each run
    in a fresh world."""
    worlds: list[CollisionWorld] = []
    made: list[int] = []

    def fresh() -> None:
        for old in worlds:
            old.close()
        worlds[:] = [CollisionWorld()]

    def add() -> None:
        made[:] = [len(worlds[0].add_tile_layer(tile_map, layer).entities)]

    times = timed(add, warmup=0, ticks=repeat, before=fresh)
    fresh()
    worlds[0].close()
    return len(tile_map.sprite_lists[layer]), made[0], min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall")
    args = parser.parse_args()
    print(use_clock(args.clock))
    print(f"{'map':<34}{'tiles':>8}{'shapes':>8}{'ratio':>7}{'add ms':>9}")
    for name in [] if args.quick else RESOURCE_MAPS:
        tile_map = arcade.load_tilemap(f":resources:tiled_maps/{name}")
        tiles, shapes, ms = measure(tile_map, "Platforms", args.repeat)
        print(f"{name + ' Platforms':<34}{tiles:>8}{shapes:>8}{tiles / shapes:>7.1f}{ms:>9.2f}")
    count = 2_000 if args.quick else 100_000
    with tempfile.TemporaryDirectory() as folder:
        rows = generated_rows(count)
        assert sum(row.count("#") for row in rows) == count
        path = write_map(Path(folder), [tile_layer("Level", rows)], len(rows[0]), len(rows))
        tile_map = arcade.load_tilemap(path)
    tiles, shapes, ms = measure(tile_map, "Level", args.repeat)
    print(f"{f'generated {tiles:,} tiles':<34}{tiles:>8}{shapes:>8}{tiles / shapes:>7.1f}"
          f"{ms:>9.2f}")
    sprites = tile_map.sprite_lists["Level"]
    world = CollisionWorld()
    start = CLOCKS[args.clock]()
    world.add_sprite_list(sprites, static=True)
    print(f"add_sprite_list(static=True) on the same {tiles:,} sprites: "
          f"{(CLOCKS[args.clock]() - start) * 1e3:.1f} ms, {tiles:,} shapes")
    world.close()
    world = CollisionWorld()
    world.add_tile_layer(tile_map, "Level")
    player = arcade.SpriteSolidColor(12, 12, center_x=100, center_y=2000)
    world.add_sprite(player, velocity=(60.0, -60.0))
    tick = timed(lambda: world.step(1 / 60), warmup=3, ticks=30)
    print(f"one step with the merged colliders and a moving sprite: "
          f"{float(np.median(tick)):.3f} ms (median of 30)")
    world.close()


if __name__ == "__main__":
    main()

"""World queries in a level: ``point_query``, a 64 px ``aabb_query`` and rays through the
public calls, against pymunk's ``point_query``, ``shape_query`` and
``segment_query_first`` on the same scene, in the same run.

The scene: ``N`` static 32 px square tiles edge to edge on a square grid, and 200
moving circles (radius 6-12 px) over it, after one tick. Each query goes to a random
spot of the level; pymunk gets the same spots (its ``point_query(p, 0, filter)``, and a
box-shaped ``shape_query`` for the box). Medians of ``--repeat`` runs of ``--queries``
queries, in microseconds per query; the ways take turns, run after run.

With ``--bridge``, the same level as Arcade sprites in a ``CollisionWorld`` (tiles
added with ``static=True``): ``world.sprites_at`` and ``world.sprites_in_rect`` against
``arcade.get_sprites_at_point`` / ``arcade.get_sprites_in_rect`` over a spatially
hashed ``SpriteList`` of the same sprites.

Rays: each starts at a random spot up to 200 px outside the level's edge and aims at a
random spot inside it; ``CollisionSystem.ray_cast`` (one ray per call, reach 5,000 px)
against pymunk's ``segment_query_first`` over the same segment, and 1,000 such rays in
one ``ray_cast_batch`` call. Issue 15's targets: one ray at most 20 µs, 1,000 rays in
one batch call at most 2 ms; the exit status is 1 when one is not met.

    .venv/bin/python benchmarks/bench_queries.py --tiles 100000 [--bridge]
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
from typing import Any

# Measure the arcade_collide of this checkout, whichever one the environment installed.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import esper
import numpy as np
import pymunk
from rounds import Targets

from arcade_collide import CollisionSystem, MovementSystem, Position, Shape, Static, Velocity
from arcade_collide.geometry.shapes import Circle, Rect

TILE = 32.0
MOVERS = 200


def build(tiles: int, seed: int = 1) -> tuple[CollisionSystem, pymunk.Space, float]:
    """The level in a fresh esper world (ticked once) and in a pymunk space; its side."""
    rng = random.Random(seed)
    side = math.isqrt(tiles)
    esper.switch_world("bench-queries")
    esper.add_processor(MovementSystem())
    system = CollisionSystem()
    esper.add_processor(system)
    space = pymunk.Space()
    square = Rect(TILE, TILE)
    for k in range(side * side):
        x, y = (k % side) * TILE, (k // side) * TILE
        esper.create_entity(Position(x, y), Shape(square), Static())
        half = TILE / 2
        corners = [
            (x - half, y - half),
            (x + half, y - half),
            (x + half, y + half),
            (x - half, y + half),
        ]
        space.add(pymunk.Poly(space.static_body, corners))
    extent = side * TILE
    for _ in range(MOVERS):
        x, y, r = rng.uniform(0, extent), rng.uniform(0, extent), rng.uniform(6, 12)
        speed, heading = rng.uniform(60, 180), rng.uniform(0, 2 * math.pi)
        velocity = Velocity(speed * math.cos(heading), speed * math.sin(heading))
        esper.create_entity(Position(x, y), velocity, Shape(Circle(r)))
        body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
        body.position = (x, y)
        space.add(body, pymunk.Circle(body, r))
    esper.process(1 / 60)
    space.step(1 / 60)
    return system, space, extent


def build_bridge(tiles: int, seed: int = 1) -> tuple[Any, Any, float]:
    """The level as sprites: a CollisionWorld (stepped once) and a hashed SpriteList."""
    os.environ.setdefault("ARCADE_HEADLESS", "1")
    import arcade

    from arcade_collide.arcade import CollisionWorld

    rng = random.Random(seed)
    side = math.isqrt(tiles)
    world = CollisionWorld()
    sprites = arcade.SpriteList(use_spatial_hash=True)
    level = arcade.SpriteList(use_spatial_hash=True)
    for k in range(side * side):
        tile = arcade.SpriteSolidColor(
            TILE, TILE, center_x=(k % side) * TILE, center_y=(k // side) * TILE
        )
        level.append(tile)
        sprites.append(tile)
    world.add_sprite_list(level, static=True)
    extent = side * TILE
    for _ in range(MOVERS):
        r = rng.uniform(6, 12)
        mover = arcade.SpriteCircle(int(r), (255, 0, 0, 255))
        mover.position = (rng.uniform(0, extent), rng.uniform(0, extent))
        world.add_sprite(mover, Circle(r), velocity=(rng.uniform(-90, 90), rng.uniform(-90, 90)))
        sprites.append(mover)
    world.step(1 / 60)
    return world, sprites, extent


def bridge_ways(world: Any, sprites: Any, spots: list[tuple[float, float]]) -> dict[str, Any]:
    """The timed calls of ``--bridge``."""
    import arcade
    from arcade.types import LRBT

    rects = [LRBT(x - 32, x + 32, y - 32, y + 32) for x, y in spots]

    def ours_at() -> None:
        for p in spots:
            world.sprites_at(p)

    def arcade_at() -> None:
        for p in spots:
            arcade.get_sprites_at_point(p, sprites)

    def ours_rect() -> None:
        for rect in rects:
            world.sprites_in_rect(rect)

    def arcade_rect() -> None:
        for rect in rects:
            arcade.get_sprites_in_rect(rect, sprites)

    return {
        "sprites_at (ours)": ours_at,
        "get_sprites_at_point (arcade)": arcade_at,
        "sprites_in_rect 64 px (ours)": ours_rect,
        "get_sprites_in_rect 64 px (arcade)": arcade_rect,
    }


def per_query(run: Callable[[], object], count: int) -> float:
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) / count * 1e6


def rays(extent: float, count: int, seed: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """``count`` rays from outside the level's edge aimed at spots inside it."""
    rng = np.random.default_rng(seed)
    angle = rng.uniform(0, 2 * math.pi, count)
    centre = extent / 2
    radius = extent / 2 * math.sqrt(2) + rng.uniform(0, 200, count)
    origins = np.column_stack([centre + radius * np.cos(angle), centre + radius * np.sin(angle)])
    aims = rng.uniform(0, extent, (count, 2))
    return origins, aims - origins


def ray_targets(system: CollisionSystem, space: pymunk.Space, extent: float, repeat: int) -> bool:
    """Time rays one by one and in a batch against pymunk's; print the target lines."""
    origins, directions = rays(extent, 1_000)
    reach = 5_000.0
    units = directions / np.linalg.norm(directions, axis=1)[:, None]
    ends = [tuple(p) for p in (origins + reach * units).tolist()]
    starts = [tuple(p) for p in origins.tolist()]
    aims = [tuple(d) for d in directions.tolist()]
    every = pymunk.ShapeFilter()

    def ours_one() -> None:
        for origin, direction in zip(starts, aims, strict=True):
            system.ray_cast(origin, direction, reach)

    def pymunk_one() -> None:
        for a, b in zip(starts, ends, strict=True):
            space.segment_query_first(a, b, 0.0, every)

    hits = sum(system.ray_cast(o, d, reach) is not None for o, d in zip(starts, aims, strict=True))
    theirs = sum(
        space.segment_query_first(a, b, 0.0, every) is not None
        for a, b in zip(starts, ends, strict=True)
    )
    print(f"rays hitting a shape: ours {hits}, pymunk {theirs} of {len(starts)}")
    one: dict[str, list[float]] = {"ray_cast (ours)": [], "segment_query_first (pymunk)": []}
    batch: list[float] = []
    for _ in range(repeat):
        one["ray_cast (ours)"].append(per_query(ours_one, len(starts)))
        one["segment_query_first (pymunk)"].append(per_query(pymunk_one, len(starts)))
        start = time.perf_counter()
        system.ray_cast_batch(origins, directions, reach)
        batch.append((time.perf_counter() - start) * 1e3)
    for name, values in one.items():
        print(
            f"  {name:34s} median {statistics.median(values):7.2f} us  best {min(values):7.2f} us"
        )
    print(f"  {'ray_cast_batch, 1,000 rays (ours)':34s} median {statistics.median(batch):7.3f} ms")
    targets = Targets()
    targets.at_most("one ray, public call", statistics.median(one["ray_cast (ours)"]), 20, " µs")
    targets.at_most("1,000 rays in one batch call", statistics.median(batch), 2, " ms")
    return targets.all_met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tiles", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--bridge", action="store_true", help="sprites: ours against Arcade")
    args = parser.parse_args()
    if args.bridge:
        world, sprites, extent = build_bridge(args.tiles)
        rng = np.random.default_rng(2)
        spots = [tuple(p) for p in rng.uniform(0, extent, (args.queries, 2)).tolist()]
        report(bridge_ways(world, sprites, spots), args.repeat, len(spots), args.tiles)
        return 0
    system, space, extent = build(args.tiles)
    rng = np.random.default_rng(2)
    spots = [tuple(p) for p in rng.uniform(0, extent, (args.queries, 2)).tolist()]
    every = pymunk.ShapeFilter()
    box = pymunk.Poly.create_box(pymunk.Body(body_type=pymunk.Body.KINEMATIC), (64, 64))
    space.add(box.body, box)

    def ours_point() -> None:
        for p in spots:
            system.point_query(p)

    def ours_box() -> None:
        for x, y in spots:
            system.aabb_query(x - 32, y - 32, x + 32, y + 32)

    def pymunk_point() -> None:
        for p in spots:
            space.point_query(p, 0.0, every)

    def pymunk_box() -> None:
        for p in spots:
            box.body.position = p
            space.reindex_shapes_for_body(box.body)
            space.shape_query(box)

    ways = {
        "point_query (ours)": ours_point,
        "point_query (pymunk)": pymunk_point,
        "aabb_query 64 px (ours)": ours_box,
        "shape_query 64 px box (pymunk)": pymunk_box,
    }
    # The answers agree: the same number of shapes found under the spots.
    ours = sum(len(system.point_query(p)) for p in spots[:200])
    theirs = sum(len(space.point_query(p, 0.0, every)) for p in spots[:200])
    print(f"shapes found under 200 spots: ours {ours}, pymunk {theirs}")
    report(ways, args.repeat, len(spots), args.tiles)
    return 0 if ray_targets(system, space, extent, args.repeat) else 1


def report(ways: dict[str, Callable[[], object]], repeat: int, count: int, tiles: int) -> None:
    """Time the ways in turn, ``repeat`` runs each; print microseconds per query."""
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(repeat):
        for name, run in ways.items():
            times[name].append(per_query(run, count))
    print(f"{tiles} static tiles + {MOVERS} movers, after a tick; {count} queries per run")
    for name, values in times.items():
        print(
            f"  {name:34s} median {statistics.median(values):7.2f} us  best {min(values):7.2f} us"
        )


if __name__ == "__main__":
    sys.exit(main())

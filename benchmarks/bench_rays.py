"""Rays and shape casts: one ray through a level of 100,000 tiles, 1,000 rays in a batch,
scalar casts, and pymunk's segment_query_first on the same level, in one run.

The level is 316 x 316 tiles of 32 px with an empty corridor along the middle row and
column; rays start in the corridors (where they travel furthest before a hit).

Run: ``python benchmarks/bench_rays.py`` (add ``--no-pymunk`` to skip the comparison).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

# Measure the arcade_collide of this checkout, whichever one the environment installed.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from arcade_collide.geometry.arrays import pack
from arcade_collide.geometry.grid_ray import RayGrid
from arcade_collide.geometry.query.dispatch import intersects
from arcade_collide.geometry.query.kernel_base import world_rows
from arcade_collide.geometry.query.ray_queries import parse_ray, ray_cast, shape_cast
from arcade_collide.geometry.shapes import Circle, Polygon, Rect
from arcade_collide.geometry.static_grid import StaticGrid

SIDE = 316
TILE = 32.0
MIDDLE = SIDE // 2


def _level() -> tuple[list[tuple[float, float]], RayGrid]:
    centres = [((x + 0.5) * TILE, (y + 0.5) * TILE)
               for y in range(SIDE) for x in range(SIDE) if MIDDLE not in (x, y)]  # fmt: skip
    record = pack([Rect(TILE, TILE)] * len(centres), centres)
    boxes = np.concatenate([record.vertices.min(axis=1), record.vertices.max(axis=1)], axis=1)
    return centres, RayGrid(StaticGrid(boxes), world_rows(record))


def _time(call: Callable[[], object], repeat: int = 7, number: int = 200) -> float:
    """Median seconds per call over ``repeat`` runs of ``number`` calls."""
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            call()
        runs.append((time.perf_counter() - start) / number)
    return statistics.median(runs)


def _rays(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:  # type: ignore[type-arg]
    along = rng.uniform(0, SIDE * TILE, n)
    middle = (MIDDLE + 0.5) * TILE
    origins = np.where(rng.random(n)[:, None] < 0.5,
                       np.stack([along, np.full(n, middle)], axis=1),
                       np.stack([np.full(n, middle), along], axis=1))  # fmt: skip
    return origins, rng.normal(size=(n, 2))


def main() -> None:
    start = time.perf_counter()
    centres, grid = _level()
    print(f"level: {len(centres)} tiles, built in {time.perf_counter() - start:.2f} s")
    middle = (MIDDLE + 0.5) * TILE
    corridor = ((0.0, middle), (1.0, 0.0))  # along the whole corridor: no hit
    into = ((-10.0, 100.0), (1.0, 0.1))  # hits the first tile
    rng = np.random.default_rng(1)
    origins, directions = _rays(1000, rng)
    rays = [(tuple(map(float, o)), tuple(map(float, d)))
            for o, d in zip(origins, directions, strict=True)]  # fmt: skip
    lengthwise = (np.tile(corridor[0], (1000, 1)), np.tile(corridor[1], (1000, 1)))
    cases = {
        "one ray, public call (parse_ray + RayGrid.first), hits the first tile":
            lambda: grid.first(parse_ray(*into)),
        "one ray, public call, 316 cells of corridor without a hit":
            lambda: grid.first(parse_ray(*corridor)),
        "one ray, random from the corridors (mean of 1,000)":
            lambda: [grid.first(parse_ray(o, d)) for o, d in rays],
        "1,000 rays, one batch call (RayGrid.first_batch)":
            lambda: grid.first_batch(origins, directions),
        "1,000 rays along the corridor (316 cells each), one batch call":
            lambda: grid.first_batch(*lengthwise),
        "ray_cast scalar (Rect)": lambda: ray_cast(Rect(32, 32), (100, 0), (0, 0), (1, 0.1)),
        "shape_cast scalar (Circle against Rect)":
            lambda: shape_cast(Circle(8), (0, 0), (200, 10), Rect(32, 32), (100, 0)),
        "shape_cast scalar (Rect against Polygon)":
            lambda: shape_cast(Rect(16, 16), (0, 0), (200, 10), _HEXAGON, (100, 0)),
        "intersects scalar (Circle against Rect), for reference":
            lambda: intersects(Circle(8), (0, 0), Rect(32, 32), (100, 0)),
    }
    for name, call in cases.items():
        number = 2 if "random" in name or "batch" in name else 500
        seconds = _time(call, number=number)
        if "random" in name:
            seconds /= 1000
        print(f"{name}: {seconds * 1e6:.2f} us")
    if "--no-pymunk" not in sys.argv:
        _pymunk(centres, into, corridor, origins, directions)


_HEXAGON = Polygon([(10, 0), (5, 9), (-5, 9), (-10, 0), (-5, -9), (5, -9)])


def _pymunk(centres: list[tuple[float, float]], into: tuple[tuple[float, float], ...],
            corridor: tuple[tuple[float, float], ...], origins: np.ndarray,  # type: ignore[type-arg]
            directions: np.ndarray) -> None:  # type: ignore[type-arg]  # fmt: skip
    import pymunk

    space = pymunk.Space()
    body = space.static_body
    half = TILE / 2
    space.add(*(pymunk.Poly(body, [(x - half, y - half), (x + half, y - half),
                                   (x + half, y + half), (x - half, y + half)])
                for x, y in centres))  # fmt: skip
    space.reindex_static()
    far = 2.0 * SIDE * TILE
    everything = pymunk.ShapeFilter()

    def query(o: tuple[float, float], d: tuple[float, float]) -> object:
        n = float(np.hypot(*d))
        end = (o[0] + d[0] / n * far, o[1] + d[1] / n * far)
        return space.segment_query_first(o, end, 0.0, everything)

    first_tile = _time(lambda: query(*into))
    print(f"pymunk segment_query_first, hits the first tile: {first_tile * 1e6:.2f} us")
    print(f"pymunk segment_query_first, corridor: {_time(lambda: query(*corridor)) * 1e6:.2f} us")
    rays = list(zip(map(tuple, origins), map(tuple, directions), strict=True))
    seconds = _time(lambda: [query(o, d) for o, d in rays], number=2) / 1000
    print(f"pymunk segment_query_first, random from the corridors: {seconds * 1e6:.2f} us")
    point = (100.0, 100.0)
    print(f"pymunk point_query_nearest: "
          f"{_time(lambda: space.point_query_nearest(point, 0.0, everything)) * 1e6:.2f} us")


if __name__ == "__main__":
    main()

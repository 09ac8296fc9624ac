"""Rays against world tables: the candidate blocks and the grid walk equal brute force."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from narrow_cases import KINDS, aabbs, random_shape

from arcade_collide.geometry.arrays import pack
from arcade_collide.geometry.grid_ray import RayGrid
from arcade_collide.geometry.query.kernel_base import WorldRows, world_rows
from arcade_collide.geometry.query.ray_queries import (
    Ray,
    parse_ray,
    ray_cast,
    shape_cast,
    shape_rows,
)
from arcade_collide.geometry.query.ray_rows import cast_first, ray_all, ray_first
from arcade_collide.geometry.shapes import AnyShape, Circle, Rect
from arcade_collide.geometry.static_grid import StaticGrid

Pose3 = tuple[float, float, float]
Scene = tuple[list[AnyShape], list[Pose3], WorldRows, np.ndarray]  # type: ignore[type-arg]


def _scene(seed: int, n: int, spread: float) -> Scene:
    """``n`` random shapes of every kind, as a table (rows grouped by kind) and their boxes."""
    rng = np.random.default_rng(seed)
    shapes: list[AnyShape] = []
    poses: list[Pose3] = []
    records = []
    for kind in KINDS:
        group = [random_shape(kind, rng) for _ in range(n)]
        group_poses = [(*(float(v) for v in rng.uniform(-spread, spread, 2)),
                        float(rng.uniform(-360, 360))) for _ in range(n)]  # fmt: skip
        shapes += group
        poses += group_poses
        records.append(pack(group, group_poses))
    boxes = np.concatenate([aabbs(r) for r in records])
    return shapes, poses, world_rows(*records), boxes


def _brute(shapes: list[AnyShape], poses: list[Pose3], ray: Ray, o: tuple[float, float],
           d: tuple[float, float], limit: float) -> list[tuple[int, float]]:  # fmt: skip
    hits = []
    for t, (shape, pose) in enumerate(zip(shapes, poses, strict=True)):
        hit = ray_cast(shape, pose, o, d, limit)
        if hit is not None:
            hits.append((t, hit.distance))
    return sorted(hits, key=lambda h: (h[1], h[0]))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([math.inf, 5.0, 0.0]))
def test_blocks_and_grid_equal_brute_force(seed: int, limit: float) -> None:
    shapes, poses, rows, boxes = _scene(seed, 12, 10.0)
    rng = np.random.default_rng(seed + 1)
    grid = StaticGrid(boxes)
    everything = np.arange(len(shapes), dtype=np.int64)
    for _ in range(10):
        o = (float(rng.uniform(-12, 12)), float(rng.uniform(-12, 12)))
        d = (float(rng.normal()), float(rng.normal()))
        ray = parse_ray(o, d, limit)
        expected = _brute(shapes, poses, ray, o, d, limit)
        out = np.empty(3)
        first = ray_first(rows, rng.permutation(everything), *ray[:5], out)
        walked = RayGrid(grid, rows).first(ray)
        if not expected:
            assert first == -1 and walked is None
            continue
        assert first == expected[0][0]
        assert ray.hit(*out).distance == expected[0][1]
        assert walked is not None and walked[0] == first and walked[1] == ray.hit(*out)
        out_rows = np.empty(len(shapes), dtype=np.int64)
        hits = np.empty((len(shapes), 3))
        m = ray_all(rows, rng.permutation(everything), *ray[:5], out_rows, hits)
        found = zip(out_rows[:m], hits[:m], strict=True)
        assert [(int(t), ray.hit(*h).distance) for t, h in found] == expected
        assert [(t, h.distance) for t, h in RayGrid(grid, rows).all(ray)] == expected


def _tiles(
    k: int, size: float = 32.0, offset: float = 0.0
) -> tuple[WorldRows, StaticGrid, np.ndarray]:  # type: ignore[type-arg]
    """A ``k`` x ``k`` level of square tiles from ``(offset, offset)``, every third one
    missing (rows in order)."""
    keep = [(x, y) for y in range(k) for x in range(k) if (x * 7 + y * 3) % 3]
    poses = [(offset + (x + 0.5) * size, offset + (y + 0.5) * size) for x, y in keep]
    record = pack([Rect(size, size)] * len(poses), poses)
    boxes = aabbs(record)
    return world_rows(record), StaticGrid(boxes), boxes


@pytest.mark.parametrize("pad", [0.0, 0.5])
@pytest.mark.parametrize("offset", [0.0, 2.0**20, 1e6 + 0.25, 1e9])
def test_rays_along_tile_borders_and_through_corners(offset: float, pad: float) -> None:
    rows, _, boxes = _tiles(12, offset=offset)
    grid = StaticGrid(boxes + np.array([-pad, -pad, pad, pad]))  # boxes padded as the ECS pads
    everything = np.arange(len(grid.boxes), dtype=np.int64)
    cases = [((-5, 64), (1, 0)), ((400, 96), (-1, 0)), ((64, -5), (0, 1)), ((-32, -32), (1, 1)),
             ((400, -16), (-1, 1)), ((-16, 400), (1, -1)), ((192, 192), (-3, -1))]  # fmt: skip
    rng = np.random.default_rng(4)
    cases += [(tuple(rng.uniform(-50, 430, 2)), tuple(rng.normal(size=2))) for _ in range(300)]
    for o, d in cases:
        ray = parse_ray((o[0] + offset, o[1] + offset), d)
        out = np.empty(3)
        first = ray_first(rows, everything, *ray[:5], out)
        walked = RayGrid(grid, rows).first(ray)
        assert (walked is None) == (first < 0)
        if walked is not None:
            assert walked == (first, ray.hit(*out))


def test_layers_filter_the_walk() -> None:
    rows, grid, _ = _tiles(6)
    n = len(grid.boxes)
    layer = np.where(np.arange(n) % 2 == 0, 1, 2).astype(np.int64)
    ray = parse_ray((-5, 48), (1, 0))
    everything = np.arange(n, dtype=np.int64)
    for mask in (1, 2, 3):
        out = np.empty(3)
        first = ray_first(rows, everything[(layer & mask) != 0], *ray[:5], out)
        walked = RayGrid(grid, rows, layer=layer).first(ray, mask)
        assert walked is not None and walked == (first, ray.hit(*out))
    assert RayGrid(grid, rows, layer=layer).first(ray, 4) is None


def test_box_rows_map_grid_boxes_to_table_rows() -> None:
    rows, _, boxes = _tiles(6)
    still = np.arange(0, len(boxes), 2, dtype=np.int64)  # a grid of every other row
    grid = StaticGrid(boxes[still])
    ray = parse_ray((-5, 48), (1, 0))
    out = np.empty(3)
    first = ray_first(rows, still, *ray[:5], out)
    assert RayGrid(grid, rows, box_rows=still).first(ray) == (first, ray.hit(*out))


def test_grid_batch_equals_single_rays() -> None:
    rows, grid, _ = _tiles(20)
    rng = np.random.default_rng(9)
    origins = rng.uniform(-50, 700, (200, 2))
    directions = rng.normal(size=(200, 2))
    found, hits = RayGrid(grid, rows).first_batch(origins, directions, 300.0)
    for i in range(200):
        one = RayGrid(grid, rows).first(parse_ray(origins[i], directions[i], 300.0))
        assert (one is None) == (found[i] < 0)
        if one is not None:
            assert one == (found[i], (hits.distance[i], tuple(hits.point[i]),
                                      tuple(hits.normal[i])))  # fmt: skip
    assert 0.1 < hits.hit.mean() < 0.95


def test_cast_first_equals_brute_force() -> None:
    shapes, poses, rows, _ = _scene(5, 10, 8.0)
    caster = shape_rows(Circle(0.5), (-12.0, 0.5))
    everything = np.arange(len(shapes), dtype=np.int64)
    out = np.empty(5)
    best = cast_first(caster, 0, rows, everything, 24.0, 0.0, out)
    casts = [shape_cast(Circle(0.5), (-12.0, 0.5), (24.0, 0.0), s, p)
             for s, p in zip(shapes, poses, strict=True)]  # fmt: skip
    fractions = [(c.fraction, t) for t, c in enumerate(casts) if c is not None]
    assert fractions
    assert (out[0], best) == min(fractions)


@pytest.mark.parametrize("limit", [0.0, 10.0])
def test_a_ray_starting_inside_a_tile(limit: float) -> None:
    rows, grid, _ = _tiles(4)
    hit = RayGrid(grid, rows).first(parse_ray((48.0, 16.0), (1, 0), limit))
    assert hit is not None and hit[1].distance == 0.0

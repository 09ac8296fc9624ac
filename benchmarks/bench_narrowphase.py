"""Narrow-phase timings: point in triangle, and the 15 shape pairs one by one and in batches.

Run: ``.venv/bin/python benchmarks/bench_narrowphase.py`` (or ``make bench-narrowphase``);
``--quick`` uses fewer repeats and scalar calls.

Prints
* microseconds per call of ``point_in_triangle(method=...)`` for the six methods;
* per shape pair, microseconds per call of the public ``intersects`` and ``contact``
  (they validate their arguments, then make one compiled call that places the two
  shapes and runs the pair's kernel);
* per shape pair, nanoseconds per pair of ``intersects_batch`` and ``contact_batch``
  at 10,000 pairs (the same kernels over a packed record);
* the throughput ratio batch / one call, for both queries;
* microseconds per ``intersects_batch`` call on 500 pairs (there the fixed cost of a
  call dominates).

Timings are the minimum over repeats of ``timeit`` runs. Cases are random
shapes at random poses, roughly half of them touching. The machine may be
shared: compare ratios within one run rather than absolute numbers.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import timeit
from collections.abc import Callable

# Measure the arcade_collide of this checkout, whichever one the environment installed.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np

from arcade_collide.geometry.arrays import ShapeArrays, pack, take
from arcade_collide.geometry.point_in_triangle import POINT_IN_TRIANGLE_METHODS, point_in_triangle
from arcade_collide.geometry.query.dispatch import (
    TABLE,
    contact,
    contact_batch,
    intersects,
    intersects_batch,
)
from arcade_collide.geometry.shapes import (
    AnyShape,
    Circle,
    Point,
    Polygon,
    Rect,
    ShapeKind,
    Triangle,
)

BATCH_ROWS = 10_000
SMALL_ROWS = 500


def _shape(kind: ShapeKind, rng: np.random.Generator) -> AnyShape:
    if kind is ShapeKind.POINT:
        return Point()
    if kind is ShapeKind.CIRCLE:
        return Circle(float(rng.uniform(0.5, 2.0)))
    if kind is ShapeKind.RECT:
        return Rect(float(rng.uniform(0.5, 3.0)), float(rng.uniform(0.5, 3.0)))
    if kind is ShapeKind.TRIANGLE:
        right, top = (float(v) for v in rng.uniform(1.0, 2.0, 2))
        return Triangle((-1.0, -1.0), (right, -1.0), (0.0, top))
    # Hexagons on an ellipse: a typical sprite outline.
    rx, ry = rng.uniform(0.8, 2.0, 2)
    angles = np.arange(6) * (math.pi / 3) + rng.uniform(0, 0.5)
    return Polygon([(rx * math.cos(t), ry * math.sin(t)) for t in angles])


def _side(
    kind: ShapeKind, n: int, rng: np.random.Generator
) -> tuple[list[AnyShape], list[tuple[float, float, float]]]:
    shapes = [_shape(kind, rng) for _ in range(n)]
    xy = rng.uniform(-2.5, 2.5, (n, 2))
    angles = rng.uniform(0, 360, n)
    return shapes, [(float(x), float(y), float(a)) for (x, y), a in zip(xy, angles, strict=True)]


def _best(stmt: Callable[[], object], number: int, repeat: int) -> float:
    """Minimum seconds per run of ``stmt`` over ``repeat`` timeit batches of ``number`` runs."""
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def bench_point_in_triangle(repeat: int, number: int) -> None:
    a, b, c = (0.0, 0.0), (40.0, 3.0), (7.0, 30.0)
    points = [(10.0, 10.0), (50.0, -20.0)]  # one inside, one outside
    print("point_in_triangle(p, a, b, c, method=...)   us per call (inside/outside mean)")
    for method in POINT_IN_TRIANGLE_METHODS:

        def run(m: str = method) -> None:
            for p in points:
                point_in_triangle(p, a, b, c, method=m)

        print(f"  {method:14s} {_best(run, number, repeat) / len(points) * 1e6:8.3f}")


def bench_pairs(repeat: int, scalar_cases: int) -> list[float]:
    rng = np.random.default_rng(2026)
    header = (
        f"{'pair':18s} {'bool':>8s} {'contact':>8s} {'batch':>8s} {'batch':>8s} "
        f"{'ratio':>7s} {'ratio':>7s} {'small':>7s}"
    )
    units = (
        f"{'':18s} {'us':>8s} {'us':>8s} {'bool ns':>8s} {'cont ns':>8s} "
        f"{'bool':>7s} {'contact':>7s} {'bool us':>7s}"
    )
    print(f"\nshape pairs: one call, and batch per pair at M={BATCH_ROWS}")
    print(header)
    print(units)
    ratios: list[float] = []
    for (ka, kb), entry in sorted(TABLE.items()):
        if entry.swapped:
            continue
        shapes_a, poses_a = _side(ka, BATCH_ROWS, rng)
        shapes_b, poses_b = _side(kb, BATCH_ROWS, rng)
        cases = list(zip(shapes_a[:scalar_cases], poses_a, shapes_b, poses_b, strict=False))

        def one_bool(cs: list = cases) -> None:  # type: ignore[type-arg]
            for sa, pa, sb, pb in cs:
                intersects(sa, pa, sb, pb)

        def one_contact(cs: list = cases) -> None:  # type: ignore[type-arg]
            for sa, pa, sb, pb in cs:
                contact(sa, pa, sb, pb)

        a: ShapeArrays = pack(shapes_a, poses_a)
        b: ShapeArrays = pack(shapes_b, poses_b)
        n = len(cases)
        t_bool = _best(one_bool, 1, repeat) / n
        t_contact = _best(one_contact, 1, repeat) / n
        t_bbool = _best(lambda a=a, b=b: intersects_batch(a, b), 3, repeat) / BATCH_ROWS
        t_bcontact = _best(lambda a=a, b=b: contact_batch(a, b), 3, repeat) / BATCH_ROWS
        small = np.arange(SMALL_ROWS)
        a_small, b_small = take(a, small), take(b, small)  # type: ignore[type-var]
        t_small = _best(lambda a=a_small, b=b_small: intersects_batch(a, b), 10, repeat)
        r_bool = t_bool / t_bbool
        r_contact = t_contact / t_bcontact
        ratios += [r_bool, r_contact]
        hits = float(np.mean(intersects_batch(a, b)))
        name = f"{ka.name.lower()}_{kb.name.lower()}"
        print(
            f"{name:18s} {t_bool * 1e6:8.2f} {t_contact * 1e6:8.2f} "
            f"{t_bbool * 1e9:8.1f} {t_bcontact * 1e9:8.1f} {r_bool:7.0f} {r_contact:7.0f}"
            f" {t_small * 1e6:7.1f}"
            f"  hits {hits:4.0%}"
        )
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and scalar calls")
    args = parser.parse_args()
    repeat = 3 if args.quick else 7
    bench_point_in_triangle(repeat, 2_000 if args.quick else 20_000)
    ratios = bench_pairs(repeat, 300 if args.quick else 2_000)
    print(f"\nbatch / one-call throughput: min {min(ratios):.0f}x, median {np.median(ratios):.0f}x")


if __name__ == "__main__":
    main()

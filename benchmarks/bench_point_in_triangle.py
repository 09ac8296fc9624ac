"""Time the six point-in-triangle methods per call.

Run: ``.venv/bin/python benchmarks/bench_point_in_triangle.py``

Prints microseconds per call for each method's unchecked fast path (a point
inside and a point outside) and for the validating ``point_in_triangle``. Best of
several repeats; on a shared machine compare the ratios within one run rather than
the absolute numbers.
"""

from __future__ import annotations

import os
import sys
import timeit

# Measure the arcade_collide of this checkout, whichever one the environment installed.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from arcade_collide.geometry import point_in_triangle as pit

A, B, C = (0.0, 0.0), (40.0, 3.0), (7.0, 30.0)
INSIDE, OUTSIDE = (10.0, 10.0), (50.0, -20.0)
NUMBER = 100_000
REPEAT = 7


def per_call_us(stmt: object, number: int = NUMBER) -> float:
    """Best-of-REPEAT time of one call in microseconds."""
    return min(timeit.repeat(stmt, number=number, repeat=REPEAT)) / number * 1e6  # type: ignore[arg-type]


def main() -> None:
    print(f"{'method':14s} {'inside':>9s} {'outside':>9s} {'checked':>9s}   (us per call)")
    for name in pit.POINT_IN_TRIANGLE_METHODS:
        fast = getattr(pit, f"point_in_triangle_{name}")
        inside = per_call_us(lambda f=fast: f(INSIDE, A, B, C))
        outside = per_call_us(lambda f=fast: f(OUTSIDE, A, B, C))
        checked = per_call_us(
            lambda n=name: pit.point_in_triangle(INSIDE, A, B, C, method=n), number=NUMBER // 5
        )
        mark = "  <- default" if name == pit.DEFAULT_POINT_IN_TRIANGLE_METHOD else ""
        print(f"{name:14s} {inside:9.3f} {outside:9.3f} {checked:9.3f}{mark}")


if __name__ == "__main__":
    main()

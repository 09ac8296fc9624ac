"""Soak: a long run of entity churn, to show that memory and tick time stay flat.

Run: ``.venv/bin/python benchmarks/soak.py [--ticks N] [--entities N] [--churn N]``
(``make soak`` runs the full 100,000 ticks).

One esper world holds ``--entities`` colliding, moving entities (circles, rects,
triangles, polygons and points). Every tick ``--churn`` random entities are deleted
and as many created, then ``esper.process`` runs MovementSystem and CollisionSystem;
a subscriber counts the events. At ``--intervals`` evenly spaced points the script
prints the traced Python heap (``tracemalloc`` current and peak, in MiB), the
process's resident set (``VmRSS`` from ``/proc/self/status``), the component pool
rows in use against the live entities, and the median tick time of the interval:
CPU time of this process (``time.process_time``, which other jobs on a shared
machine disturb far less) and wall time.

The verdict compares the last interval with the first one after warm-up (the first
interval, where pools and caches grow to their working size): memory may not grow
by more than ``--memory-slack``. Tick time may not grow by more than
``--time-slack``, judged on the best interval median among the last three against the
best among the first three after warm-up: a slowdown that comes from the system
(a leak, a growing table) raises every interval, while another job on a shared
machine inflates only the intervals it overlaps.
tracemalloc slows Python down (roughly 2x here); ``--no-tracemalloc`` times without
it. Absolute times are noisy on a shared machine; the verdict compares ratios within
one run. The exit status is non-zero when the verdict is GROWS.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import random
import statistics
import sys
import time
import tracemalloc

# Measure the arcade_collide of this checkout, whichever one the environment installed.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import esper

from arcade_collide import Circle, Point, Polygon, Rect, Triangle
from arcade_collide.ecs import (
    CollisionEnded,
    CollisionStarted,
    CollisionSystem,
    MovementSystem,
    Position,
    Shape,
    Velocity,
)
from arcade_collide.ecs.world_state import world_pools
from arcade_collide.geometry.shapes import AnyShape

MIB = 1024.0 * 1024.0


def rss_mib() -> float:
    """Resident set size of this process in MiB (Linux ``/proc/self/status``)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return math.nan


def random_geometry(rng: random.Random) -> AnyShape:
    kind = rng.randrange(5)
    if kind == 0:
        return Point()
    if kind == 1:
        return Circle(rng.uniform(3, 10))
    if kind == 2:
        return Rect(rng.uniform(4, 16), rng.uniform(4, 16))
    if kind == 3:
        return Triangle((-6, -4), (rng.uniform(4, 8), -4), (0, rng.uniform(4, 8)))
    n = rng.randrange(3, 8)
    r = rng.uniform(4, 10)
    return Polygon([(r * math.cos(2 * math.pi * k / n), r * math.sin(2 * math.pi * k / n))
                    for k in range(n)])


class Churn:
    """The soak world: keeps ``size`` entities alive, replacing ``churn`` per tick."""

    def __init__(self, size: int, churn: int, seed: int) -> None:
        self.rng = random.Random(seed)
        self.size = size
        self.churn = churn
        # A square where 1,000 shapes of ~10 px overlap now and then.
        self.side = math.sqrt(size) * 25.0
        self.collisions = CollisionSystem()
        esper.add_processor(MovementSystem(), priority=1)
        esper.add_processor(self.collisions)
        self.events = 0
        self.collisions.subscribe(on_started=self._count, on_ended=self._count)
        self.live: list[int] = []
        for _ in range(size):
            self.live.append(self._spawn())

    def _count(self, event: CollisionStarted | CollisionEnded) -> None:
        self.events += 1

    def _spawn(self) -> int:
        rng = self.rng
        return esper.create_entity(
            Position(rng.uniform(0, self.side), rng.uniform(0, self.side), rng.uniform(0, 360)),
            Velocity(rng.uniform(-60, 60), rng.uniform(-60, 60), rng.uniform(-90, 90)),
            Shape(random_geometry(rng), layer=1 << rng.randrange(3)),
        )

    def tick(self, dt: float) -> None:
        rng, live = self.rng, self.live
        for _ in range(self.churn):
            k = rng.randrange(len(live))
            live[k], live[-1] = live[-1], live[k]
            esper.delete_entity(live.pop())
        for _ in range(self.churn):
            live.append(self._spawn())
        esper.process(dt)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ticks", type=int, default=100_000)
    parser.add_argument("--entities", type=int, default=1000)
    parser.add_argument("--churn", type=int, default=20, help="entities replaced per tick")
    parser.add_argument("--intervals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--memory-slack", type=float, default=0.10)
    parser.add_argument("--time-slack", type=float, default=0.30)
    parser.add_argument("--no-tracemalloc", action="store_true")
    args = parser.parse_args(argv)
    if args.ticks < 2 * args.intervals:
        parser.error("--ticks must be at least twice --intervals")

    esper.switch_world("soak")
    trace = not args.no_tracemalloc
    if trace:
        tracemalloc.start()
    world = Churn(args.entities, args.churn, args.seed)
    every = args.ticks // args.intervals
    print(
        f"soak: {args.ticks} ticks, {args.entities} entities, {args.churn} replaced per tick, "
        f"tracemalloc {'on' if trace else 'off'}"
    )
    print(
        f"{'tick':>8s} {'heap MiB':>9s} {'peak MiB':>9s} {'RSS MiB':>8s} "
        f"{'pos rows':>8s} {'vel rows':>8s} {'entities':>8s} {'cpu ms':>8s} {'wall ms':>8s} "
        f"{'events':>8s}"
    )
    rows: list[tuple[float, float, float]] = []
    times: list[float] = []
    walls: list[float] = []
    started = time.perf_counter()
    for n in range(1, args.ticks + 1):
        c0 = time.process_time()
        t0 = time.perf_counter()
        world.tick(1 / 60)
        walls.append(time.perf_counter() - t0)
        times.append(time.process_time() - c0)
        if n % every == 0:
            gc.collect()
            heap, peak = tracemalloc.get_traced_memory() if trace else (math.nan, math.nan)
            rss = rss_mib()
            pools = world_pools()
            median_ms = statistics.median(times) * 1e3
            wall_ms = statistics.median(walls) * 1e3
            rows.append((heap / MIB, rss, median_ms))
            print(
                f"{n:8d} {heap / MIB:9.2f} {peak / MIB:9.2f} {rss:8.1f} {pools.positions.live:8d} "
                f"{pools.velocities.live:8d} {len(world.live):8d} {median_ms:8.3f} {wall_ms:8.3f} "
                f"{world.events:8d}",
                flush=True,
            )
            times.clear()
            walls.clear()
    elapsed = time.perf_counter() - started
    # Interval 0 is the warm-up; compare the last interval with the first after it.
    (heap0, rss0, _), (heap1, rss1, _) = rows[1], rows[-1]
    k = min(3, (len(rows) - 1) // 2)
    ms0 = min(ms for _, _, ms in rows[1 : 1 + k])
    ms1 = min(ms for _, _, ms in rows[-k:])
    checks = {
        "heap": (heap0, heap1, args.memory_slack),
        "RSS": (rss0, rss1, args.memory_slack),
        f"cpu ms/tick (best of {k})": (ms0, ms1, args.time_slack),
    }
    flat = True
    for name, (first, last, slack) in checks.items():
        if math.isnan(first):
            continue
        ratio = last / first
        ok = ratio <= 1.0 + slack
        flat = flat and ok
        print(f"{name:22s} first {first:9.3f}  last {last:9.3f}  ratio {ratio:6.3f}  "
              f"{'ok' if ok else 'GROWS'} (limit {1 + slack:.2f})")
    print(f"verdict: {'FLAT' if flat else 'GROWS'} ({args.ticks} ticks in {elapsed:.0f} s)")
    esper.switch_world("default")
    esper.delete_world("soak")
    return 0 if flat else 1


if __name__ == "__main__":
    sys.exit(main())

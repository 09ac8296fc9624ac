"""Kinematic response: resting bodies stay put, and what the response costs per tick.

Two scenes, each ``esper.process(1 / 60)`` with a MovementSystem, a CollisionSystem
and its ResponseSystem:

* *resting*: ``--bodies`` boxes (20 x 20 px ``Body()``) dropped 2 px above a floor of
  flush 32 px square tiles (``Static()``, ``Solid()``), 30 px apart, under a gravity of
  1,000 px/s^2 (added to every body's Velocity before each tick, as a platformer
  controller does), for ``--ticks`` ticks. After the first ``--settle`` ticks, every
  body must stay where it came to rest (drift: the largest distance from there, over
  every tick, target under 0.01 px) and no contact may start or end (flicker, target
  0).
* *walking*: ``--walkers`` bodies on a level of ``--tiles`` tiles (the tiles in rows
  of flush floor with gaps between rows), each walking at 120 px/s under gravity:
  the response's share of the tick.

Timed per tick (ms, median and worst after the settling ticks): the whole tick, and
the ResponseSystem stage alone (its ``respond`` call inside the CollisionSystem).

    .venv/bin/python benchmarks/bench_response.py [--ticks N] [--bodies N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

import esper
import numpy as np

from arcade_collide import (
    CollisionSystem,
    MovementSystem,
    Position,
    Rect,
    ResponseSystem,
    Shape,
    Static,
    Velocity,
)
from arcade_collide.ecs.solids import Body, Solid
from arcade_collide.ecs.world_state import world_pools

DT = 1 / 60
GRAVITY = 1000.0
TILE = 32.0
BOX = 20.0


class Run:
    """One scene in its own esper world, its stage timed."""

    def __init__(self, name: str) -> None:
        self.name = name
        esper.switch_world(name)
        esper.add_processor(MovementSystem())
        self.collisions = CollisionSystem()
        esper.add_processor(self.collisions)
        self.response = ResponseSystem(self.collisions)
        stage = self.collisions._response
        assert stage is not None
        self.stage_times: list[float] = []

        def timed(*args: Any) -> None:
            t0 = time.perf_counter()
            stage(*args)
            self.stage_times.append(time.perf_counter() - t0)

        self.collisions._response = timed
        self.started = 0
        self.ended = 0
        self.sub = self.collisions.subscribe(on_started=self._start, on_ended=self._end)
        self.bodies: list[int] = []
        self.velocity_rows = np.empty(0, dtype=np.int64)

    def _start(self, _: object) -> None:
        self.started += 1

    def _end(self, _: object) -> None:
        self.ended += 1

    def add_bodies(self, xy: np.ndarray, vx: float = 0.0) -> None:
        for x, y in xy.tolist():
            self.bodies.append(
                esper.create_entity(
                    Position(x, y), Velocity(vx, 0.0), Shape(Rect(BOX, BOX)), Body()
                )
            )
        self.velocity_rows = np.array(
            [esper.component_for_entity(b, Velocity).pool_row for b in self.bodies]
        )

    def tick(self) -> float:
        esper.switch_world(self.name)
        pool = world_pools().velocities
        pool.data[self.velocity_rows, 1] -= GRAVITY * DT
        pool.touch(self.velocity_rows)
        t0 = time.perf_counter()
        esper.process(DT)
        return time.perf_counter() - t0

    def poses(self) -> np.ndarray:
        esper.switch_world(self.name)
        return np.array([[esper.component_for_entity(b, Position).x,
                          esper.component_for_entity(b, Position).y] for b in self.bodies])

    def close(self) -> None:
        esper.switch_world("default")
        esper.delete_world(self.name)


def floor(x0: float, y: float, count: int) -> None:
    for k in range(count):
        esper.create_entity(
            Position(x0 + k * TILE, y), Shape(Rect(TILE, TILE)), Static(), Solid()
        )


def resting(bodies: int, ticks: int, settle: int) -> dict[str, float]:
    run = Run("bench-response-resting")
    spacing = 30.0
    floor(0.0, 0.0, int(bodies * spacing / TILE) + 2)
    xy = np.stack([np.arange(bodies) * spacing + 10.0, np.full(bodies, TILE / 2 + BOX / 2 + 2)], 1)
    run.add_bodies(xy)
    for _ in range(settle):
        run.tick()
    rest = run.poses()
    started, ended = run.started, run.ended
    run.stage_times.clear()
    times = []
    drift = 0.0
    check = max(1, ticks // 20)
    for k in range(ticks):
        times.append(run.tick())
        if k % check == 0 or k == ticks - 1:
            drift = max(drift, float(np.abs(run.poses() - rest).max()))
    result = {
        "tick": statistics.median(times) * 1e3,
        "tick_worst": max(times) * 1e3,
        "stage": statistics.median(run.stage_times) * 1e3,
        "drift": drift,
        "flicker": float(run.started - started + run.ended - ended),
    }
    run.close()
    return result


def walking(walkers: int, tiles: int, ticks: int, settle: int) -> dict[str, float]:
    run = Run("bench-response-walking")
    per_row = 500
    rows = max(1, tiles // per_row)
    for r in range(rows):
        floor(0.0, r * 4 * TILE, per_row)
    per = max(1, walkers // rows + 1)
    xy = [
        (50.0 + k * (per_row * TILE - 100) / per, r * 4 * TILE + TILE / 2 + BOX / 2)
        for r in range(rows)
        for k in range(per)
    ][:walkers]
    run.add_bodies(np.array(xy), vx=120.0)
    for _ in range(settle):
        run.tick()
    run.stage_times.clear()
    times = [run.tick() for _ in range(ticks)]
    result = {
        "tick": statistics.median(times) * 1e3,
        "tick_worst": max(times) * 1e3,
        "stage": statistics.median(run.stage_times) * 1e3,
    }
    run.close()
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=10_000)
    parser.add_argument("--bodies", type=int, default=1_000)
    parser.add_argument("--settle", type=int, default=5)
    parser.add_argument("--walkers", type=int, default=200)
    parser.add_argument("--tiles", type=int, default=100_000)
    parser.add_argument("--walk-ticks", type=int, default=300)
    args = parser.parse_args(argv)
    rest = resting(args.bodies, args.ticks, args.settle)
    walk = walking(args.walkers, args.tiles, args.walk_ticks, args.settle)
    print(f"{'scene':<40} {'tick ms':>9} {'worst':>8} {'response ms':>12}")
    print(
        f"{f'resting: {args.bodies} bodies, {args.ticks} ticks':<40} {rest['tick']:9.3f} "
        f"{rest['tick_worst']:8.3f} {rest['stage']:12.3f}"
    )
    print(
        f"{f'walking: {args.walkers} bodies, {args.tiles} tiles':<40} {walk['tick']:9.3f} "
        f"{walk['tick_worst']:8.3f} {walk['stage']:12.3f}"
    )
    drift_ok = rest["drift"] < 0.01
    flicker_ok = rest["flicker"] == 0
    verdict = "met" if drift_ok else "not met"
    print(f"resting drift: {rest['drift']:.3g} px (target < 0.01): {verdict}")
    print(
        f"resting contact events after settling: {int(rest['flicker'])} (target 0): "
        f"{'met' if flicker_ok else 'not met'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Soak: long runs of three game scenes, to show that memory and tick time stay flat.

Run: ``.venv/bin/python benchmarks/soak.py [--scene churn|small|walk-cycle|all] [--ticks N]``
(``make soak`` runs every scene at its full length; ``--scene`` may be repeated).

The scenes:

* ``churn``: one esper world holds ``--entities`` colliding, moving entities (circles,
  rects, triangles, polygons and points, three layers). Every tick ``--churn`` random
  entities are deleted and as many created, then ``esper.process`` runs MovementSystem
  and CollisionSystem. 100,000 ticks by default.
* ``small``: the ECS small game: 10 moving shapes (circles, rects, triangles and
  polygons) in a 120 px box; the game turns back those that crossed a wall every 4th
  tick, so they meet now and then forever. MovementSystem and CollisionSystem; tick
  times in µs. 1,000,000 ticks by default.
* ``walk-cycle``: through the Arcade bridge: ``--sprites`` sprites (circles and boxes,
  the first 100 plain sprites with a 16 px texture) in an ``arcade.SpriteList``
  registered with ``CollisionWorld.add_sprite_list``, each with its own velocity. Every
  tick the 100 walkers swap between two 16 px textures and 3 bullets (a second
  registered list, 600 px/s) are fired, while the 3 oldest of the 30 in flight leave
  by ``SpriteList.remove`` or ``kill()`` in turn; every 8th tick the game turns back
  the sprites that crossed a wall (``world.poses()`` and ``set_velocity``); then
  ``world.step(1/60)``. 50,000 ticks by default.

Each scene counts its collision events (a subscriber, or the bridge's
``on_collision`` handlers). At ``--intervals`` evenly spaced points the script prints
the traced Python heap (``tracemalloc`` current and peak, in MiB), the process's
resident set (``VmRSS`` from ``/proc/self/status``), the Position and Velocity pool
rows in use against the live entities, and the median tick time of the interval: CPU
time of this process (``time.process_time``, which other jobs on a shared machine
disturb far less) and wall time.

Each scene gets its own verdict, which compares the last interval with the first one
after warm-up (the first interval, where pools and caches grow to their working size):
memory may not grow by more than ``--memory-slack`` (or :data:`MEMORY_FLOOR_MIB`,
whichever is more). Tick time may not grow by more
than ``--time-slack``, judged on the best interval median among the last three against
the best among the first three after warm-up: a slowdown that comes from the system
(a leak, a growing table) raises every interval, while another job on a shared machine
inflates only the intervals it overlaps.
tracemalloc slows a tick down (4-6x in these scenes); ``--no-tracemalloc`` times without
it. Absolute times are noisy on a shared machine; the verdict compares ratios within
one run. The exit status is non-zero when any scene's verdict is GROWS.
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
from collections import deque
from collections.abc import Callable, Sequence
from functools import partial
from typing import NamedTuple, Protocol

os.environ.setdefault("ARCADE_HEADLESS", "1")
# Measure the arcade_collide of this checkout, whichever one the environment installed.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import arcade
import esper
import numpy as np
from PIL import Image

from arcade_collide import Circle, Point, Polygon, Rect, Triangle
from arcade_collide.arcade import CollisionWorld
from arcade_collide.arcade.lifetime import in_world
from arcade_collide.ecs import (
    CollisionEnded,
    CollisionStarted,
    CollisionSystem,
    MovementSystem,
    Position,
    Shape,
    Velocity,
)
from arcade_collide.ecs.world_state import WorldPools, world_pools
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.shapes import AnyShape

MIB = 1024.0 * 1024.0
DT = 1 / 60
SCENES = ("churn", "small", "walk-cycle")
DEFAULT_TICKS = {"churn": 100_000, "small": 1_000_000, "walk-cycle": 50_000}


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


def random_geometry(rng: random.Random, points: bool = True) -> AnyShape:
    """A random shape of ~10 px: a point (unless ``points`` is False), circle, rect,
    triangle or polygon."""
    kind = rng.randrange(0 if points else 1, 5)
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


class Scene(Protocol):
    """What the soak loop needs of a scene."""

    unit: str
    """The unit tick times are printed in: ``"ms"`` or ``"µs"``."""
    events: int
    """Collision events delivered so far (starts and ends)."""

    def tick(self, dt: float) -> None: ...

    def entities(self) -> int: ...

    def pools(self) -> WorldPools: ...

    def close(self) -> None: ...


class EcsWorld:
    """An esper world of the scene's own, current while the scene lives, with
    MovementSystem and CollisionSystem and a subscriber counting the events."""

    unit = "ms"

    def __init__(self, name: str) -> None:
        self._previous = esper.current_world
        self._name = f"soak.{name}"
        esper.switch_world(self._name)
        esper.add_processor(MovementSystem(), priority=1)
        self.collisions = CollisionSystem()
        esper.add_processor(self.collisions)
        self.events = 0
        self.collisions.subscribe(on_started=self._count, on_ended=self._count)

    def _count(self, event: CollisionStarted | CollisionEnded) -> None:
        self.events += 1

    def pools(self) -> WorldPools:
        return world_pools()

    def close(self) -> None:
        esper.switch_world(self._previous)
        esper.delete_world(self._name)


class Churn(EcsWorld):
    """Keeps ``size`` entities alive, replacing ``churn`` random ones per tick."""

    def __init__(self, size: int, churn: int, seed: int) -> None:
        super().__init__("churn")
        self.rng = random.Random(seed)
        self.churn = churn
        # A square where 1,000 shapes of ~10 px overlap now and then.
        self.side = math.sqrt(size) * 25.0
        self.live = [self._spawn() for _ in range(size)]

    def _spawn(self) -> int:
        rng = self.rng
        return esper.create_entity(
            Position(rng.uniform(0, self.side), rng.uniform(0, self.side), rng.uniform(0, 360)),
            Velocity(rng.uniform(-60, 60), rng.uniform(-60, 60), rng.uniform(-90, 90)),
            Shape(random_geometry(rng), layer=1 << rng.randrange(3)),
        )

    def entities(self) -> int:
        return len(self.live)

    def tick(self, dt: float) -> None:
        rng, live = self.rng, self.live
        for _ in range(self.churn):
            k = rng.randrange(len(live))
            live[k], live[-1] = live[-1], live[k]
            esper.delete_entity(live.pop())
        for _ in range(self.churn):
            live.append(self._spawn())
        esper.process(dt)


class Small(EcsWorld):
    """The ECS small game: ``count`` shapes (circles, rects, triangles, polygons) in a
    ``side`` px box; every 4th tick the game turns back those that crossed a wall."""

    unit = "µs"
    BOUNCE_EVERY = 4

    def __init__(self, count: int, seed: int, side: float = 120.0) -> None:
        super().__init__("small")
        rng = random.Random(seed)
        self.side = side
        self.bodies: list[tuple[Position, Velocity]] = []
        for _ in range(count):
            position = Position(rng.uniform(15, side - 15), rng.uniform(15, side - 15),
                                rng.uniform(0, 360))
            speed, heading = rng.uniform(40, 80), rng.uniform(0, 2 * math.pi)
            velocity = Velocity(speed * math.cos(heading), speed * math.sin(heading),
                                rng.uniform(-90, 90))
            esper.create_entity(position, velocity, Shape(random_geometry(rng, points=False)))
            self.bodies.append((position, velocity))
        self.count = 0

    def entities(self) -> int:
        return len(self.bodies)

    def tick(self, dt: float) -> None:
        self.count += 1
        if self.count % self.BOUNCE_EVERY == 0:
            low, high = 10.0, self.side - 10.0
            for position, velocity in self.bodies:
                x, y, vx, vy = position.x, position.y, velocity.x, velocity.y
                if (x < low and vx < 0) or (x > high and vx > 0):
                    velocity.x = -vx
                if (y < low and vy < 0) or (y > high and vy > 0):
                    velocity.y = -vy
        esper.process(dt)


def walk_texture(rgb: tuple[int, int, int], name: str) -> arcade.Texture:
    return arcade.Texture(Image.new("RGBA", (16, 16), (*rgb, 255)), hash=f"soak-{name}")


class WalkCycle:
    """The bridge scene: sprites registered by list, walkers, bullets, bounces."""

    unit = "ms"
    WALKERS = 100
    BULLETS_PER_TICK = 3
    BULLETS_ALIVE = 30
    BOUNCE_EVERY = 8

    def __init__(self, sprites: int, seed: int) -> None:
        rng = self.rng = random.Random(seed)
        self.world = world = CollisionWorld()
        self.side = math.sqrt(sprites) * 30.0
        self.frames = (walk_texture((255, 0, 0), "walk-a"), walk_texture((0, 255, 0), "walk-b"))
        self.sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.walkers: list[arcade.Sprite] = []
        for k in range(sprites):
            sprite: arcade.Sprite
            if k < self.WALKERS:
                sprite = arcade.Sprite(self.frames[0])
                self.walkers.append(sprite)
            elif k % 2:
                sprite = arcade.SpriteCircle(rng.randrange(3, 10), arcade.color.WHITE)
            else:
                sprite = arcade.SpriteSolidColor(rng.randrange(4, 16, 2), rng.randrange(4, 16, 2))
            sprite.position = (rng.uniform(0, self.side), rng.uniform(0, self.side))
            self.sprites.append(sprite)
        world.add_sprite_list(self.sprites, kind="body")
        for sprite in self.sprites:
            world.set_velocity(sprite, rng.uniform(-60, 60), rng.uniform(-60, 60))
        self.bullets: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        world.add_sprite_list(self.bullets, velocity=(0.0, 600.0), kind="bullet")
        self.flying: deque[arcade.Sprite] = deque()
        self.events = 0
        for kinds in (("body", "body"), ("body", "bullet"), ("bullet", "bullet")):
            world.on_collision(*kinds, start=self._started, end=self._ended)
        self.count = 0

    def _started(self, a: arcade.Sprite, b: arcade.Sprite, contact: Contact) -> None:
        self.events += 1

    def _ended(self, a: arcade.Sprite, b: arcade.Sprite) -> None:
        self.events += 1

    def entities(self) -> int:
        return len(self.world)

    def pools(self) -> WorldPools:
        with in_world(self.world.name):
            return world_pools()

    def close(self) -> None:
        self.world.close()

    def _fire(self) -> None:
        rng = self.rng
        for _ in range(self.BULLETS_PER_TICK):
            bullet = arcade.SpriteSolidColor(4, 10, color=arcade.color.YELLOW)
            # Low enough that a bullet is gone before it reaches the top wall.
            bullet.position = (rng.uniform(0, self.side), rng.uniform(0, self.side - 120))
            self.bullets.append(bullet)
            self.flying.append(bullet)
        while len(self.flying) > self.BULLETS_ALIVE:
            bullet = self.flying.popleft()
            if self.count % 2:
                self.bullets.remove(bullet)
            else:
                bullet.kill()

    def _bounce(self) -> None:
        world = self.world
        xy, _ = world.poses()
        outward = np.sign(xy - self.side / 2)  # towards the wall a sprite is nearest
        out = np.flatnonzero(((xy < 0.0) | (xy > self.side)).any(axis=1))
        sprites = world.sprites()
        for row in out.tolist():
            sprite = sprites[row]
            vx, vy, _ = world.velocity(sprite)
            sx, sy = outward[row]
            if (xy[row, 0] < 0.0 or xy[row, 0] > self.side) and vx * sx > 0:
                vx = -vx
            if (xy[row, 1] < 0.0 or xy[row, 1] > self.side) and vy * sy > 0:
                vy = -vy
            world.set_velocity(sprite, vx, vy)

    def tick(self, dt: float) -> None:
        self.count += 1
        frame = self.frames[self.count % 2]
        for sprite in self.walkers:
            sprite.texture = frame
        self._fire()
        if self.count % self.BOUNCE_EVERY == 0:
            self._bounce()
        self.world.step(dt)


class Interval(NamedTuple):
    """One printed point of a soak run."""

    tick: int
    heap: float
    """Traced Python heap in MiB (NaN without tracemalloc)."""
    peak: float
    rss: float
    """Resident set in MiB."""
    positions: int
    """Position pool rows in use."""
    velocities: int
    """Velocity pool rows in use."""
    entities: int
    """Live entities (registered sprites for the bridge)."""
    cpu: float
    """Median CPU time per tick of the interval, in the scene's unit."""
    wall: float
    """Median wall time per tick of the interval, in the scene's unit."""
    events: int


MEMORY_FLOOR_MIB = 0.25
"""Memory may always grow by this much: a heap of a fraction of a MiB (the small scene's)
settles by some tens of KiB after the warm-up interval, which a ratio alone would call
growth."""


class Check(NamedTuple):
    """One line of a verdict: ``last / first`` held to ``limit``, or ``last - first`` to
    ``floor``."""

    name: str
    first: float
    last: float
    ratio: float
    limit: float
    floor: float = 0.0

    @property
    def ok(self) -> bool:
        return self.ratio <= self.limit or self.last - self.first <= self.floor


class Report(NamedTuple):
    """A scene's soak run: its intervals and verdict."""

    scene: str
    intervals: list[Interval]
    checks: list[Check]
    seconds: float

    @property
    def flat(self) -> bool:
        return all(check.ok for check in self.checks)


def verdict(
    intervals: Sequence[Interval], memory_slack: float, time_slack: float
) -> list[Check]:
    """The checks of a run: heap, RSS and best-of-k CPU time, last against first after
    the warm-up interval (heap left out without tracemalloc)."""
    first, last = intervals[1], intervals[-1]
    k = min(3, (len(intervals) - 1) // 2)
    cpu0 = min(point.cpu for point in intervals[1 : 1 + k])
    cpu1 = min(point.cpu for point in intervals[-k:])
    checks = []
    for name, before, after, slack, floor in (
        ("heap MiB", first.heap, last.heap, memory_slack, MEMORY_FLOOR_MIB),
        ("RSS MiB", first.rss, last.rss, memory_slack, MEMORY_FLOOR_MIB),
        (f"cpu per tick (best of {k})", cpu0, cpu1, time_slack, 0.0),
    ):
        if not math.isnan(before):
            checks.append(Check(name, before, after, after / before, 1.0 + slack, floor))
    return checks



def run_intervals(scene: Scene, ticks: int, every: int, trace: bool) -> list[Interval]:
    """Tick ``scene`` ``ticks`` times, printing and returning a point every ``every``."""
    scale = 1e6 if scene.unit == "µs" else 1e3
    print(
        f"{'tick':>8s} {'heap MiB':>9s} {'peak MiB':>9s} {'RSS MiB':>8s} {'pos rows':>8s} "
        f"{'vel rows':>8s} {'entities':>8s} {'cpu ' + scene.unit:>8s} "
        f"{'wall ' + scene.unit:>8s} {'events':>9s}"
    )
    points: list[Interval] = []
    cpus: list[float] = []
    walls: list[float] = []
    for n in range(1, ticks + 1):
        c0 = time.process_time()
        t0 = time.perf_counter()
        scene.tick(DT)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
        if n % every:
            continue
        cpu, wall = statistics.median(cpus) * scale, statistics.median(walls) * scale
        # Emptied before the heap is read, which would otherwise count them.
        cpus.clear()
        walls.clear()
        gc.collect()
        heap, peak = tracemalloc.get_traced_memory() if trace else (math.nan, math.nan)
        pools = scene.pools()
        point = Interval(
            n, heap / MIB, peak / MIB, rss_mib(), pools.positions.live,
            pools.velocities.live, scene.entities(), cpu, wall, scene.events,
        )
        points.append(point)
        print(f"{n:8d} {point.heap:9.2f} {point.peak:9.2f} {point.rss:8.1f} "
              f"{point.positions:8d} {point.velocities:8d} {point.entities:8d} "
              f"{point.cpu:8.3f} {point.wall:8.3f} {point.events:9d}", flush=True)
    return points


def soak(
    name: str,
    make: Callable[[], Scene],
    ticks: int,
    intervals: int,
    slack: tuple[float, float] = (0.10, 0.30),
    trace: bool = True,
) -> Report:
    """Run ``scene`` for ``ticks`` ticks, print ``intervals`` points and the verdict.

    Args:
        name: The scene's name, for the report.
        make: Builds the scene (once tracemalloc runs, so that the heap counts the
            whole scene); the scene is closed when the run is over.
        ticks: Ticks to run, at least twice ``intervals``.
        intervals: Points to print; the first is the warm-up.
        slack: ``(memory, time)``: how much growth the verdict allows.
        trace: Measure the Python heap with tracemalloc (started here if it was off,
            stopped again at the end).
    """
    tracing = trace and not tracemalloc.is_tracing()
    if tracing:
        tracemalloc.start()
    started = time.perf_counter()
    try:
        scene = make()
        try:
            points = run_intervals(scene, ticks, ticks // intervals, trace)
        finally:
            scene.close()
    finally:
        if tracing:
            tracemalloc.stop()
    report = Report(name, points, verdict(points, *slack), time.perf_counter() - started)
    for check in report.checks:
        print(f"{check.name:24s} first {check.first:9.3f}  last {check.last:9.3f}  "
              f"ratio {check.ratio:6.3f}  {'ok' if check.ok else 'GROWS'} "
              f"(limit {check.limit:.2f}" + (f" or +{check.floor:g}" if check.floor else "") + ")")
    print(f"verdict {name}: {'FLAT' if report.flat else 'GROWS'} "
          f"({ticks} ticks in {report.seconds:.0f} s)", flush=True)
    return report


def build(name: str, args: argparse.Namespace) -> Scene:
    """The scene ``name`` with the sizes of ``args``."""
    if name == "churn":
        return Churn(args.entities, args.churn, args.seed)
    if name == "small":
        return Small(args.small, args.seed)
    return WalkCycle(args.sprites, args.seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--scene", action="append", choices=[*SCENES, "all"],
                        help="scene to run (repeatable; default: all)")
    parser.add_argument("--ticks", type=int,
                        help="ticks per scene (default: " + ", ".join(
                            f"{name} {n:,}" for name, n in DEFAULT_TICKS.items()) + ")")
    parser.add_argument("--entities", type=int, default=1000, help="churn: live entities")
    parser.add_argument("--churn", type=int, default=20, help="churn: entities replaced per tick")
    parser.add_argument("--small", type=int, default=10, help="small: shapes")
    parser.add_argument("--sprites", type=int, default=2000, help="walk-cycle: sprites")
    parser.add_argument("--intervals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--memory-slack", type=float, default=0.10)
    parser.add_argument("--time-slack", type=float, default=0.30)
    parser.add_argument("--no-tracemalloc", action="store_true")
    args = parser.parse_args(argv)
    chosen = args.scene or ["all"]
    names = [name for name in SCENES if name in chosen or "all" in chosen]
    ticks = {name: args.ticks or DEFAULT_TICKS[name] for name in names}
    if min(ticks.values()) < 2 * args.intervals:
        parser.error("--ticks must be at least twice --intervals")
    if args.sprites < WalkCycle.WALKERS:
        parser.error(f"--sprites must be at least {WalkCycle.WALKERS} (the walkers)")

    trace = not args.no_tracemalloc
    reports = []
    for name in names:
        sizes = {"churn": f"{args.entities} entities, {args.churn} replaced per tick",
                 "small": f"{args.small} shapes in a 120 px box",
                 "walk-cycle": f"{args.sprites} sprites through the bridge"}[name]
        print(f"\nsoak {name}: {ticks[name]} ticks, {sizes}, "
              f"tracemalloc {'on' if trace else 'off'}")
        reports.append(soak(name, partial(build, name, args), ticks[name], args.intervals,
                            (args.memory_slack, args.time_slack), trace))
    if len(reports) > 1:
        print("\nsoak: " + ", ".join(
            f"{report.scene} {'FLAT' if report.flat else 'GROWS'}" for report in reports))
    return 0 if all(report.flat for report in reports) else 1


if __name__ == "__main__":
    sys.exit(main())

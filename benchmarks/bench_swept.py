"""Swept detection in a level: 1,000 fast bullets through 100,000 thin static walls.

The scene: ``--tiles`` static wall tiles (``Static``), one in each 48 px cell of a
near-square grid; each is an axis-aligned rectangle 1-16 px thick and 16-40 px long,
horizontal or vertical at random, placed at random inside its cell (so no two touch).
``--bullets`` circles of radius 1 px fly through it at 3,000 px/s (50 px per tick at
60 ticks per second: they jump clean over most walls between two ticks) in random
directions from random spots. Two scenes, by what happens to a bullet whose centre
leaves the level, between two ticks: *replaced*, its entity is deleted and a new one
made at a random spot (about five deletions and creations every tick, as in a game
that fires bullets); *bouncing*, its velocity turns back towards the level (the same
entities throughout). The bullets' motion is planned once (:class:`Shots`) and every
engine runs the same plan. Nothing stops a bullet: they fly through the walls.

Timed per tick (ms, median / worst of ``--ticks`` ticks after warm-up ones; the ways take
turns, ``--repeat`` runs each, each keeping its run with the lowest median
(``rounds.alternate``)); the deletions and creations between ticks are not timed:

* arcade_collide, swept: ``esper.process(1 / 60)`` (MovementSystem, CollisionSystem) with
  the bullets as ``Shape(Circle(1), swept=True)``;
* arcade_collide, not swept: the same scene with ``Shape(Circle(1))``;
* pymunk 6: ``space.step(1 / 60)``, the walls as sensor boxes of the static body, the
  bullets as kinematic bodies with sensor circles, a default collision handler with
  ``begin``.

Each records its started contacts (``CollisionStarted``, pymunk's ``begin``) and counts
its ended ones (``CollisionEnded``, ``separate``) in handlers.

Crossings: a (bullet, wall) pair whose shapes touched at some moment of a tick, counted
once per pair (a bullet flies straight and a wall is convex, so a pair crosses once; a
bouncing bullet may come back over a wall by the edge, counted once all the same). An
engine reports a crossing when it starts a contact of that pair. The reference is a
brute-force sub-stepped simulation of the same motion: each bullet's path over each
tick, sampled every 1/100 of the smallest shape size (the 1 px of the thinnest wall:
0.01 px), against the walls whose cells the path's box overlaps (vectorised numpy).
It runs over the first ``--count-ticks`` ticks (30: about 30,000 paths of 5,000
samples against ~5 walls each); each engine runs those ticks from the same start, and
its crossings are counted against the reference: reported, missed, spurious (the
largest gap of a spurious pair, its sampled distance past touching, is printed too).

Targets (issue 16), in each scene: the swept tick at most 1.5 ms over the tick without
swept shapes, and no crossing missed by the swept bullets. Each target line says "met"
or "not met"; the exit status is 0 unless the benchmark crashes.

    .venv/bin/python benchmarks/bench_swept.py [--quick] [--clock cpu] [--tiles N]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

# Measure the arcade_collide of this checkout, whichever one the environment installed.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import esper
import numpy as np
import pymunk
from rounds import CLOCKS, Targets, alternate, ms, timed, use_clock

from arcade_collide import CollisionEnded, CollisionStarted, CollisionSystem, MovementSystem
from arcade_collide.arcade.lifetime import delete_own_world, in_world
from arcade_collide.ecs.components import Position, Shape, Static, Velocity
from arcade_collide.geometry.shapes import Circle, Rect

DT = 1 / 60
CELL = 48.0
THICKNESS = (1.0, 16.0)
LENGTH = (16.0, 40.0)
RADIUS = 1.0
SPEED = 3000.0
STEP = min(2 * RADIUS, THICKNESS[0]) / 100
"""The reference's sub-step: 1/100 of the smallest shape size (px)."""
TARGET_MS = 1.5

_NO_SLOTS = np.empty(0, dtype=np.int64)
Pair = tuple[int, int]
"""A crossing: ``(bullet life, wall index)``."""


@dataclass(frozen=True)
class Level:
    """The walls: centres and half sizes, one per cell of a grid ``cols`` wide."""

    centres: np.ndarray
    halves: np.ndarray
    cols: int
    size: tuple[float, float]
    """Width and height of the level (px)."""


def make_level(tiles: int, seed: int = 1) -> Level:
    """``tiles`` thin walls, one inside each cell of a near-square grid, row by row."""
    rng = np.random.default_rng(seed)
    cols = max(1, round(math.sqrt(tiles)))
    rows = -(-tiles // cols)
    long = rng.uniform(*LENGTH, tiles)
    thick = rng.uniform(*THICKNESS, tiles)
    upright = rng.random(tiles) < 0.5
    halves = np.column_stack([np.where(upright, thick, long), np.where(upright, long, thick)]) / 2
    # Centres at least 1 px inside the cell's edges, so walls never touch.
    room = CELL / 2 - halves - 1.0
    k = np.arange(tiles)
    cells = np.column_stack([k % cols, k // cols]) * CELL + CELL / 2
    centres = cells + rng.uniform(-1.0, 1.0, (tiles, 2)) * room
    return Level(centres, halves, cols, (cols * CELL, rows * CELL))


class Shots:
    """The bullets' plan: ``count`` slots, each holding one bullet (a *life*) at a time.

    A bullet whose centre left the level is replaced by a new one (``bounce`` False) or
    turned back towards the level (``bounce`` True: the velocity component pointing
    away from it is reversed, as a ball bounces)."""

    def __init__(
        self, count: int, size: tuple[float, float], seed: int = 2, bounce: bool = False
    ) -> None:
        self.rng = np.random.default_rng(seed)
        self.size = size
        self.bounce = bounce
        self.pos = np.empty((count, 2))
        self.vel = np.empty((count, 2))
        self.life = np.empty(count, dtype=np.int64)
        self.lives = 0
        self.spawn(np.arange(count))

    def spawn(self, slots: np.ndarray) -> None:
        """A new bullet in each of ``slots``: a random spot, a random direction."""
        n = len(slots)
        self.pos[slots] = self.rng.uniform((0.0, 0.0), self.size, (n, 2))
        heading = self.rng.uniform(0.0, 2 * math.pi, n)
        self.vel[slots] = SPEED * np.column_stack([np.cos(heading), np.sin(heading)])
        self.life[slots] = self.lives + np.arange(n)
        self.lives += n

    def advance(self) -> tuple[np.ndarray, np.ndarray]:
        """Move every bullet by a tick; replace or turn those whose centre left the
        level. Returns the slots of the new bullets and those of the turned ones."""
        self.pos += self.vel * DT
        low, high = self.pos < 0.0, self.pos > np.array(self.size)
        if not self.bounce:
            gone = np.flatnonzero((low | high).any(axis=1))
            self.spawn(gone)
            return gone, _NO_SLOTS
        turn = (low & (self.vel < 0.0)) | (high & (self.vel > 0.0))
        self.vel[turn] *= -1.0
        return _NO_SLOTS, np.flatnonzero(turn.any(axis=1))


class Scene(ABC):
    """One engine running the plan: ``round()`` times its ticks, ``crossings()`` reads
    the crossings it reported since the last call."""

    def __init__(self, shots: Shots) -> None:
        self.shots = shots
        self.moved = False
        self.started: list[tuple[Any, Any]] = []
        """The started contacts recorded by the handler: engine-specific ids."""
        self.ended = 0
        """The ended contacts counted by the handler."""

    def between(self) -> None:
        """The game's work between ticks: replace or turn the bullets that left the
        level."""
        if self.moved:
            new, turned = self.shots.advance()
            self.spawn(new)
            self.aim(turned)
        self.moved = True

    def round(self, warmup: int, ticks: int) -> list[float]:
        self.started.clear()
        return timed(self.step, warmup, ticks, self.between)

    def run(self, ticks: int) -> set[Pair]:
        """Run ``ticks`` ticks untimed; the crossings reported."""
        self.started.clear()
        for _ in range(ticks):
            self.between()
            self.step()
        return self.crossings()

    @abstractmethod
    def spawn(self, slots: np.ndarray) -> None:
        """Delete the bullets of ``slots`` and make the plan's new ones there."""

    @abstractmethod
    def aim(self, slots: np.ndarray) -> None:
        """Give the bullets of ``slots`` the plan's velocities."""

    @abstractmethod
    def step(self) -> None:
        """One tick of the engine."""

    @abstractmethod
    def crossings(self) -> set[Pair]:
        """The crossings started since the last call, as ``(life, wall)`` pairs."""


class EcsScene(Scene):
    """The level and bullets in an esper world of their own."""

    made = 0

    def __init__(self, level: Level, shots: Shots, swept: bool) -> None:
        super().__init__(shots)
        EcsScene.made += 1
        self.name = f"bench-swept-{EcsScene.made}"
        self.swept = swept
        self.entity = np.full(len(shots.life), -1, dtype=np.int64)
        self.velocity: list[Velocity | None] = [None] * len(shots.life)
        self.life_of: dict[int, int] = {}
        with in_world(self.name):
            walls = [
                esper.create_entity(Position(x, y), Shape(Rect(2 * w, 2 * h)), Static())
                for (x, y), (w, h) in zip(level.centres.tolist(), level.halves.tolist(),
                                          strict=True)
            ]
            self.first_wall, self.walls = walls[0], len(walls)
            esper.add_processor(MovementSystem())
            esper.add_processor(CollisionSystem())
            esper.set_handler("on_collision_started", self.on_started)
            esper.set_handler("on_collision_ended", self.on_ended)
        self.spawn(np.arange(len(shots.life)))

    def on_started(self, event: CollisionStarted) -> None:
        self.started.append((event.a, event.b))

    def on_ended(self, event: CollisionEnded) -> None:
        self.ended += 1

    def spawn(self, slots: np.ndarray) -> None:
        shots = self.shots
        with in_world(self.name):
            for slot in slots.tolist():
                if self.entity[slot] >= 0:
                    esper.delete_entity(int(self.entity[slot]))
                (x, y), (vx, vy) = shots.pos[slot].tolist(), shots.vel[slot].tolist()
                shape = Shape(Circle(RADIUS), swept=self.swept)
                velocity = self.velocity[slot] = Velocity(vx, vy)
                entity = esper.create_entity(Position(x, y), velocity, shape)
                self.entity[slot] = entity
                self.life_of[entity] = int(shots.life[slot])

    def aim(self, slots: np.ndarray) -> None:
        for slot in slots.tolist():
            velocity = self.velocity[slot]
            assert velocity is not None
            velocity.x, velocity.y = self.shots.vel[slot].tolist()

    def step(self) -> None:
        with in_world(self.name):
            esper.process(DT)

    def crossings(self) -> set[Pair]:
        found = set()
        for a, b in self.started:
            wall, bullet = (a, b) if 0 <= a - self.first_wall < self.walls else (b, a)
            if 0 <= wall - self.first_wall < self.walls and bullet in self.life_of:
                found.add((self.life_of[bullet], wall - self.first_wall))
        self.started.clear()
        return found

    def close(self) -> None:
        delete_own_world(self.name)


class PymunkScene(Scene):
    """The level and bullets in a pymunk space: sensors, kinematic bullets."""

    def __init__(self, level: Level, shots: Shots) -> None:
        super().__init__(shots)
        self.space = space = pymunk.Space()
        handler = space.add_default_collision_handler()
        handler.begin = self.begin
        handler.separate = self.separate
        self.wall_of: dict[pymunk.Shape, int] = {}
        boxes = []
        for k, ((x, y), (w, h)) in enumerate(zip(level.centres.tolist(), level.halves.tolist(),
                                                 strict=True)):
            bb = pymunk.BB(x - w, y - h, x + w, y + h)
            box = pymunk.Poly.create_box_bb(space.static_body, bb)
            box.sensor = True
            boxes.append(box)
            self.wall_of[box] = k
        space.add(*boxes)
        self.bullet: list[pymunk.Circle | None] = [None] * len(shots.life)
        self.life_of: dict[pymunk.Shape, int] = {}
        self.spawn(np.arange(len(shots.life)))

    def begin(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> bool:
        self.started.append(arbiter.shapes)
        return True

    def separate(self, arbiter: pymunk.Arbiter, space: pymunk.Space, data: object) -> None:
        self.ended += 1

    def spawn(self, slots: np.ndarray) -> None:
        shots = self.shots
        for slot in slots.tolist():
            old = self.bullet[slot]
            if old is not None:
                self.space.remove(old.body, old)
            body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
            body.position, body.velocity = shots.pos[slot].tolist(), shots.vel[slot].tolist()
            circle = pymunk.Circle(body, RADIUS)
            circle.sensor = True
            self.space.add(body, circle)
            self.bullet[slot] = circle
            self.life_of[circle] = int(shots.life[slot])

    def aim(self, slots: np.ndarray) -> None:
        for slot in slots.tolist():
            circle = self.bullet[slot]
            assert circle is not None
            circle.body.velocity = self.shots.vel[slot].tolist()

    def step(self) -> None:
        self.space.step(DT)

    def crossings(self) -> set[Pair]:
        found = set()
        for a, b in self.started:
            wall, bullet = (a, b) if a in self.wall_of else (b, a)
            if wall in self.wall_of and bullet in self.life_of:
                found.add((self.life_of[bullet], self.wall_of[wall]))
        self.started.clear()
        return found


# -- the reference ------------------------------------------------------------------------


def candidates(level: Level, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, ...]:
    """``(bullet, wall)`` index pairs: the walls of the cells each path's box overlaps
    (a wall lies inside its cell, so no wall the path touches is left out)."""
    rows = -(-len(level.centres) // level.cols)
    lo = np.floor((np.minimum(start, end) - RADIUS) / CELL).astype(np.int64)
    hi = np.floor((np.maximum(start, end) + RADIUS) / CELL).astype(np.int64)
    lo = np.clip(lo, 0, [level.cols - 1, rows - 1])
    hi = np.clip(hi, 0, [level.cols - 1, rows - 1])
    span = hi - lo + 1
    counts = span[:, 0] * span[:, 1]
    bullet = np.repeat(np.arange(len(start)), counts)
    k = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
    cx = lo[bullet, 0] + k % span[bullet, 0]
    cy = lo[bullet, 1] + k // span[bullet, 0]
    wall = cy * level.cols + cx
    keep = wall < len(level.centres)
    return bullet[keep], wall[keep]


def sampled_gaps(
    level: Level, start: np.ndarray, move: np.ndarray, chunk: int = 128
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each path sampled every :data:`STEP` px against its candidate walls:
    ``(bullet, wall, gap)``, gap the least distance between the bullet's circle and
    the wall's rectangle over the samples (<= 0: they touched)."""
    bullet, wall = candidates(level, start, start + move)
    samples = math.ceil(float(np.hypot(move[:, 0], move[:, 1]).max(initial=0.0)) / STEP) + 1
    s = np.linspace(0.0, 1.0, samples)
    gap = np.empty(len(bullet))
    for at in range(0, len(bullet), chunk):
        b, w = bullet[at:at + chunk], wall[at:at + chunk]
        outside = []
        for axis in (0, 1):
            path = start[b, axis, None] + s * move[b, axis, None]
            away = np.abs(path - level.centres[w, axis, None]) - level.halves[w, axis, None]
            outside.append(np.maximum(away, 0.0))
        distance = np.sqrt((outside[0] ** 2 + outside[1] ** 2).min(axis=1))
        gap[at:at + chunk] = distance - RADIUS
    return bullet, wall, gap


def reference(level: Level, plan: Shots, ticks: int) -> tuple[set[Pair], dict[Pair, float]]:
    """The crossings of the first ``ticks`` ticks of ``plan`` (advanced by it), and the
    least sampled gap of every candidate pair."""
    touched: set[Pair] = set()
    gaps: dict[Pair, float] = {}
    for _ in range(ticks):
        bullet, wall, gap = sampled_gaps(level, plan.pos.copy(), plan.vel * DT)
        lives = plan.life[bullet].tolist()
        for pair in zip(lives, wall.tolist(), strict=True):
            gaps.setdefault(pair, math.inf)
        for pair, g in zip(zip(lives, wall.tolist(), strict=True), gap.tolist(), strict=True):
            gaps[pair] = min(gaps[pair], g)
            if g <= 0.0:
                touched.add(pair)
        plan.advance()
    return touched, gaps


# -- the run --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Config:
    tiles: int
    bullets: int
    count_ticks: int
    warmup: int
    ticks: int
    repeat: int


EDGES = {False: "replaced by new bullets", True: "bouncing back"}
"""The two scenes: what happens to a bullet that leaves the level (:class:`Shots`)."""


def count_crossings(
    level: Level, config: Config, scenes: dict[str, Scene], bounce: bool
) -> dict[str, tuple[int, int, int, float]]:
    """Per scene: ``(reported, missed, spurious, largest spurious gap)`` over the first
    ``config.count_ticks`` ticks; prints the reference's count."""
    plan = Shots(config.bullets, level.size, bounce=bounce)
    truth, gaps = reference(level, plan, config.count_ticks)
    print(f"\nBullets leaving the level {EDGES[bounce]}: crossings over the first "
          f"{config.count_ticks} ticks (reference: sub-stepped every {STEP:g} px): "
          f"{len(truth):,}", flush=True)
    out = {}
    for name, scene in scenes.items():
        found = scene.run(config.count_ticks)
        spurious = found - truth
        worst = max((gaps.get(pair, math.inf) for pair in spurious), default=0.0)
        out[name] = (len(found), len(truth - found), len(spurious), worst)
    return out


def build(level: Level, bullets: int, bounce: bool) -> dict[str, Scene]:
    """The three engines on the same level and the same bullets' plan."""
    def plan() -> Shots:
        return Shots(bullets, level.size, bounce=bounce)

    return {
        "arcade_collide, swept": EcsScene(level, plan(), swept=True),
        "arcade_collide, not swept": EcsScene(level, plan(), swept=False),
        f"pymunk {pymunk.version} (space.step)": PymunkScene(level, plan()),
    }


def report(
    config: Config,
    best: dict[str, list[float]],
    counts: dict[str, tuple[int, int, int, float]],
    target: tuple[Targets, str],
) -> None:
    """The scene's table and its target lines (in ``target``: the targets and the
    scene's word in their labels)."""
    swept, plain, peer = (statistics.median(values) for values in best.values())
    print(f"{config.tiles:,} thin walls + {config.bullets:,} bullets at {SPEED:,.0f} px/s; "
          f"ms per tick, median / worst of {config.ticks} ticks, best of {config.repeat} "
          "alternating runs; crossings of the counted ticks")
    print(f"{'way':38} {'ms per tick':>16} {'/ pymunk':>9} {'crossings':>10} {'missed':>7} "
          f"{'spurious':>9}")
    for (name, values), (found, missed, spurious, _) in zip(best.items(), counts.values(),
                                                             strict=True):
        ratio = statistics.median(values) / peer
        print(f"{name:38} {ms(values):>16} {ratio:>8.2f}x {found:>10,} {missed:>7,} "
              f"{spurious:>9,}")
    extra = swept - plain
    print(f"swept shapes cost {extra:.3f} ms per tick over the same scene without them "
          f"({swept / plain:.2f}x)")
    for name, (_, _, spurious, worst) in counts.items():
        if spurious:
            print(f"  {name}: largest sampled gap of a spurious crossing {worst:.4f} px")
    targets, scene = target
    label = f"{config.tiles:,} walls, {config.bullets:,} swept bullets, {scene}"
    targets.at_most(f"{label}: extra ms per tick over not swept", extra, TARGET_MS, " ms")
    targets.at_most(f"{label}: crossings missed", next(iter(counts.values()))[1], 0, "")


def measure(level: Level, config: Config, bounce: bool, targets: Targets) -> None:
    """One scene: build it, count crossings, time the ways alternating; print it all."""
    scenes = build(level, config.bullets, bounce)
    counts = count_crossings(level, config, scenes, bounce)
    best = alternate(
        {name: partial(scene.round, config.warmup, config.ticks)
         for name, scene in scenes.items()},
        config.repeat,
    )
    report(config, best, counts, (targets, EDGES[bounce].split()[0]))
    for scene in scenes.values():
        if isinstance(scene, EcsScene):
            scene.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small level, few ticks")
    parser.add_argument("--tiles", type=int, default=100_000)
    parser.add_argument("--bullets", type=int, default=1_000)
    parser.add_argument("--count-ticks", type=int, default=30,
                        help="ticks checked against the sub-stepped reference")
    parser.add_argument("--ticks", type=int, default=60, help="timed ticks per run")
    parser.add_argument("--repeat", type=int, default=3, help="alternating runs per way")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="time ticks by elapsed time (default) or by this process's CPU time")
    args = parser.parse_args(argv)
    print(use_clock(args.clock))
    if args.quick:
        config = Config(2_000, 50, 10, 2, 5, 1)
    else:
        config = Config(args.tiles, args.bullets, args.count_ticks, 5, args.ticks, args.repeat)
    level = make_level(config.tiles)
    targets = Targets()
    for bounce in (False, True):
        measure(level, config, bounce, targets)
    print(f"\nTargets (issue 16):\n{targets.summary()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

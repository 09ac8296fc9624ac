"""The target scenes of the ECS tick: a static level, mostly idle shapes, churn, a small world.

Run through ``bench_world.py --scene level|idle|churn|small``. Each scene is measured
against a peer, or against its own steady state, in the same run: the ways take turns
(:func:`rounds.alternate`) and each keeps its run with the lowest median. Tables show
ms per tick as ``median / worst`` of the kept run; warm-up ticks are not timed.

* ``level``: ``N`` static 32 px tiles (``Static``) on a grid, touching edge to edge, and
  200 moving circles (radius 6-12 px, 60-180 px/s) that bounce off the level's edges,
  so they stay over it. Peers on the same scene: pymunk's ``space.step`` (sensor boxes
  on the static body, kinematic sensor circles, ``begin``/``separate`` handlers), and
  Arcade's way: move each mover's sprite, then
  ``arcade.check_for_collision_with_list(mover, tiles)`` against a
  ``SpriteList(use_spatial_hash=True)`` of the tiles (movers against tiles only, as a
  game checks its walls). The bounce is the game's work between ticks: untimed for all
  three. Targets at 100,000 tiles: at most 5x pymunk's step, at least 30x faster than
  Arcade's way; at every size, no pair of two tiles reported (among the pairs touching
  after the first tick and after the last round, or in any tick's started events).
* ``idle``: the 20,000 circles of the moving benchmark, in three worlds: all with a
  Velocity (the peer); the same 2% with a Velocity every tick and the rest without;
  none with a Velocity and a random 2% moved by hand (their Position edited) before
  each tick, untimed, as the game's work. Target: each at most 15% of the all-moving
  tick.
* ``churn``: the 20,000 moving circles; a churn tick deletes 20 random entities (drawn
  in one call), creates 20 new ones and runs ``esper.process``, all timed. Peer: steady
  ticks of the same world, taking turns with the churn ticks tick by tick
  (:func:`rounds.interleave`: the quietest of ``--repeat`` runs is kept). Targets:
  median at most 1.3x the steady median, worst tick at most 3x.
* ``small``: 10 moving mixed shapes (``run_ecs`` of the moving benchmark, 2,000 ticks a
  run), pymunk alongside for scale. Target: median at most 30 µs.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import partial
from typing import Any

import esper
import numpy as np
from bench_world import DT, make_scene, on_ended, on_started, run_ecs, run_pymunk
from rounds import Targets, alternate, interleave, ms, small_scene, timed

from arcade_collide import (
    CollisionStarted,
    CollisionSystem,
    MovementSystem,
    Position,
    Shape,
    Static,
    Velocity,
)
from arcade_collide.arcade.lifetime import delete_own_world, in_world
from arcade_collide.geometry.shapes import Circle, Rect

TILE = 32.0


@dataclass(frozen=True)
class Plan:
    """How long each scene runs: sizes, ticks and alternating runs."""

    quick: bool
    repeat: int

    @property
    def level_tiles(self) -> list[int]:
        return [2_000] if self.quick else [20_000, 100_000]

    @property
    def movers(self) -> int:
        return 20 if self.quick else 200

    @property
    def crowd(self) -> int:
        """Shapes in the idle and churn scenes."""
        return 1_000 if self.quick else 20_000

    def ticks(self, default: int) -> tuple[int, int]:
        """Warm-up and timed ticks of a round."""
        return (2, 5) if self.quick else (5, default)


class EsperScene:
    """An esper world of its own with MovementSystem and CollisionSystem, kept alive for
    alternating rounds; the benchmark's event counters are its handlers.

    ``entities()`` makes the components inside that world, as a game would: a Position
    or Velocity lives in the pool of the world current when it is made.
    """

    made = 0

    def __init__(self, entities: Callable[[], Sequence[tuple[Any, ...]]]) -> None:
        EsperScene.made += 1
        self.name = f"bench-targets-{EsperScene.made}"
        with self.inside():
            self.ids = [esper.create_entity(*components) for components in entities()]
            esper.add_processor(MovementSystem())
            self.system = CollisionSystem()
            esper.add_processor(self.system)
            esper.set_handler("on_collision_started", on_started)
            esper.set_handler("on_collision_ended", on_ended)
            esper.process(DT)

    def inside(self) -> AbstractContextManager[None]:
        return in_world(self.name)

    def run(
        self,
        warmup: int,
        ticks: int,
        step: Callable[[], object] | None = None,
        before: Callable[[], object] | None = None,
    ) -> list[float]:
        """One round in this world: ``step`` is ``esper.process(DT)`` by default."""
        with self.inside():
            return timed(step or (lambda: esper.process(DT)), warmup, ticks, before)

    def close(self) -> None:
        delete_own_world(self.name)


def moving(body: Any, velocity: bool = True) -> tuple[Any, ...]:
    """The components of one body of :func:`bench_world.make_scene`."""
    components: list[Any] = [Position(body.x, body.y, angle=body.angle), Shape(body.geometry)]
    if velocity:
        components.append(Velocity(body.vx, body.vy, angular=body.angular))
    return tuple(components)


# -- level ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Level:
    """Tile centres, movers ``(x, y, radius, vx, vy)`` and the box they bounce in."""

    tiles: np.ndarray
    movers: np.ndarray
    bounds: tuple[float, float, float, float]


def make_level(tiles: int, movers: int, seed: int = 1) -> Level:
    """``tiles`` 32 px tiles row by row on a near-square grid, movers over the full rows."""
    cols = max(1, round(math.sqrt(tiles)))
    k = np.arange(tiles)
    centres = np.column_stack([k % cols, k // cols]) * TILE + TILE / 2
    bounds = (12.0, 12.0, cols * TILE - 12.0, (tiles // cols) * TILE - 12.0)
    rng = np.random.default_rng(seed)
    speed = rng.uniform(60, 180, movers)
    heading = rng.uniform(0, 2 * math.pi, movers)
    mover_rows = np.column_stack([
        rng.uniform(bounds[0], bounds[2], movers), rng.uniform(bounds[1], bounds[3], movers),
        rng.uniform(6, 12, movers), speed * np.cos(heading), speed * np.sin(heading),
    ])
    return Level(centres, mover_rows, bounds)


def bounced(
    x: float, y: float, vx: float, vy: float, bounds: tuple[float, ...]
) -> tuple[float, float]:
    """The velocity after bouncing off the level's edges (unchanged inside them)."""
    x0, y0, x1, y1 = bounds
    if (x < x0 and vx < 0) or (x > x1 and vx > 0):
        vx = -vx
    if (y < y0 and vy < 0) or (y > y1 and vy > 0):
        vy = -vy
    return vx, vy


_tile_events = [0]


def count_tile_pairs(event: CollisionStarted) -> None:
    """Counts started events between two static entities (run in the level's world)."""
    if esper.has_component(event.a, Static) and esper.has_component(event.b, Static):
        _tile_events[0] += 1


class EcsLevel(EsperScene):
    def __init__(self, level: Level) -> None:
        self.movers: list[tuple[Position, Velocity, Shape]] = []

        def entities() -> list[tuple[Any, ...]]:
            self.movers = [
                (Position(x, y), Velocity(vx, vy), Shape(Circle(r)))
                for x, y, r, vx, vy in level.movers
            ]
            tiles = [(Position(x, y), Shape(Rect(TILE, TILE)), Static()) for x, y in level.tiles]
            return tiles + self.movers

        esper.set_handler("on_collision_started", count_tile_pairs)
        super().__init__(entities)
        self.static = set(self.ids[: len(level.tiles)])
        self.bounds = level.bounds
        self.first = self.pairs()

    def pairs(self) -> tuple[int, int, int]:
        """Touching pairs after the last tick: all of them, those of two tiles and those
        of two movers."""
        with self.inside():
            touching = self.system.touching()
        static = [(a in self.static) + (b in self.static) for a, b in touching]
        return len(touching), static.count(2), static.count(0)

    def bounce(self) -> None:
        for position, velocity, _ in self.movers:
            velocity.x, velocity.y = bounced(
                position.x, position.y, velocity.x, velocity.y, self.bounds
            )

    def round(self, warmup: int, ticks: int) -> list[float]:
        return self.run(warmup, ticks, before=self.bounce)


class PymunkLevel:
    def __init__(self, level: Level) -> None:
        import pymunk

        self.space = space = pymunk.Space()
        self.touching = 0
        handler = space.add_default_collision_handler()
        handler.begin = self._begin
        handler.separate = self._separate
        half = TILE / 2
        boxes = [
            pymunk.Poly.create_box_bb(space.static_body, pymunk.BB(x - half, y - half,
                                                                   x + half, y + half))
            for x, y in level.tiles
        ]
        self.bodies = []
        for x, y, r, vx, vy in level.movers:
            body = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
            body.position, body.velocity = (x, y), (vx, vy)
            self.bodies.append(body)
            boxes.append(pymunk.Circle(body, r))
        for shape in boxes:
            shape.sensor = True
        space.add(*self.bodies, *boxes)
        self.bounds = level.bounds
        space.step(DT)
        self.first = self.touching

    def _begin(self, arbiter: object, space: object, data: object) -> bool:
        self.touching += 1
        return True

    def _separate(self, arbiter: object, space: object, data: object) -> None:
        self.touching -= 1

    def bounce(self) -> None:
        for body in self.bodies:
            (x, y), (vx, vy) = body.position, body.velocity
            body.velocity = bounced(x, y, vx, vy, self.bounds)

    def round(self, warmup: int, ticks: int) -> list[float]:
        return timed(lambda: self.space.step(DT), warmup, ticks, self.bounce)


class ArcadeLevel:
    def __init__(self, level: Level) -> None:
        import arcade

        self.check = arcade.check_for_collision_with_list
        self.tiles = arcade.SpriteList(use_spatial_hash=True)
        self.tiles.extend([
            arcade.SpriteSolidColor(int(TILE), int(TILE), x, y, color=arcade.color.WHITE)
            for x, y in level.tiles
        ])
        self.movers: list[list[Any]] = []
        for x, y, r, vx, vy in level.movers:
            sprite = arcade.SpriteCircle(round(r), arcade.color.WHITE)
            sprite.position = (x, y)
            self.movers.append([sprite, vx, vy])
        self.bounds = level.bounds
        self.first = self.tick()

    def tick(self) -> int:
        found = 0
        for sprite, vx, vy in self.movers:
            sprite.center_x += vx * DT
            sprite.center_y += vy * DT
            found += len(self.check(sprite, self.tiles))
        return found

    def bounce(self) -> None:
        for mover in self.movers:
            mover[1], mover[2] = bounced(*mover[0].position, mover[1], mover[2], self.bounds)

    def round(self, warmup: int, ticks: int) -> list[float]:
        return timed(self.tick, warmup, ticks, self.bounce)


def level_scene(plan: Plan, targets: Targets) -> None:
    warmup, ticks = plan.ticks(60)
    print(f"\nLevel: static {TILE:.0f} px tiles touching edge to edge + {plan.movers} "
          f"moving circles; ms per tick, median / worst of {ticks} ticks, best of "
          f"{plan.repeat} alternating runs")
    print(f"{'tiles':>7} {'arcade_collide':>16} {'pymunk':>16} {'Arcade way':>16} "
          f"{'ours/pymunk':>11} {'Arcade/ours':>11} {'pairs ours/pymunk':>17} "
          f"{'mover-tile ours/Arcade':>22} {'tile-tile pairs':>15}")
    for n in plan.level_tiles:
        level = make_level(n, plan.movers)
        _tile_events[0] = 0
        ours, peer, arcade_way = EcsLevel(level), PymunkLevel(level), ArcadeLevel(level)
        best = alternate(
            {"ours": partial(ours.round, warmup, ticks),
             "pymunk": partial(peer.round, warmup, ticks),
             "arcade": partial(arcade_way.round, warmup, ticks)},
            plan.repeat,
        )
        tile_tile = max(ours.pairs()[1], ours.first[1], _tile_events[0])
        e, p, a = (statistics.median(best[k]) for k in ("ours", "pymunk", "arcade"))
        mover_tile = ours.first[0] - ours.first[1] - ours.first[2]
        print(f"{n:>7} {ms(best['ours']):>16} {ms(best['pymunk']):>16} "
              f"{ms(best['arcade']):>16} {e / p:>10.1f}x {a / e:>10.1f}x "
              f"{f'{ours.first[0]}/{peer.first}':>17} "
              f"{f'{mover_tile}/{arcade_way.first}':>22} {tile_tile:>15}", flush=True)
        ours.close()
        label = f"level {n:,} tiles"
        if n == max(plan.level_tiles):
            targets.at_most(f"{label}: arcade_collide / pymunk", e / p, 5, "x")
            targets.at_least(f"{label}: Arcade's way / arcade_collide", a / e, 30, "x")
        targets.at_most(f"{label}: tile-tile pairs reported", tile_tile, 0, "")
    esper.remove_handler("on_collision_started", count_tile_pairs)


# -- idle, churn, small -----------------------------------------------------------------


def idle_scene(plan: Plan, targets: Targets) -> None:
    warmup, ticks = plan.ticks(40)
    bodies = make_scene(plan.crowd, mixed=False)
    rng = np.random.default_rng(3)
    share = max(1, len(bodies) // 50)
    chosen = set(rng.choice(len(bodies), share, replace=False).tolist())
    all_moving = EsperScene(lambda: [moving(b) for b in bodies])
    some_moving = EsperScene(lambda: [moving(b, k in chosen) for k, b in enumerate(bodies)])
    by_hand_parts: list[tuple[Any, ...]] = []

    def still() -> list[tuple[Any, ...]]:
        by_hand_parts.extend(moving(b, False) for b in bodies)
        return by_hand_parts

    by_hand = EsperScene(still)

    def move_by_hand() -> None:
        for k in rng.choice(len(bodies), share, replace=False).tolist():
            position, body = by_hand_parts[k][0], bodies[k]
            position.x += body.vx * DT
            position.y += body.vy * DT

    best = alternate(
        {"all": lambda: all_moving.run(warmup, ticks),
         "velocity": lambda: some_moving.run(warmup, ticks),
         "hand": lambda: by_hand.run(warmup, ticks, before=move_by_hand)},
        plan.repeat,
    )
    reference = statistics.median(best["all"])
    print(f"\nMostly idle: {len(bodies):,} circles, {share} of them (2%) moving; ms per tick, "
          f"median / worst of {ticks} ticks, best of {plan.repeat} alternating runs")
    rows = [("all moving (reference)", "all"), ("the same 2% with Velocity", "velocity"),
            ("a random 2% moved by hand", "hand")]
    for text, key in rows:
        print(f"  {text:28} {ms(best[key]):>18} "
              f"{statistics.median(best[key]) / reference:>7.1%} of all moving", flush=True)
    for text, key in rows[1:]:
        share_of = statistics.median(best[key]) / reference
        targets.at_most(f"idle {len(bodies):,}, {text} / all moving", 100 * share_of, 15, "%")
    for scene in (all_moving, some_moving, by_hand):
        scene.close()


def churn_scene(plan: Plan, targets: Targets) -> None:
    warmup, ticks = plan.ticks(60)
    per_tick = 20
    bodies = make_scene(plan.crowd, mixed=False)
    newcomers = make_scene(plan.crowd, mixed=False, seed=2)
    world = EsperScene(lambda: [moving(b) for b in bodies])
    live = list(world.ids)
    rng = np.random.default_rng(4)
    made = [0]

    def churn() -> None:
        # The leavers' places in ``live`` in one draw (a draw per leaver cost 20-40 µs
        # a tick, which a game does not pay); each stays valid as ``live`` shrinks.
        for k in rng.integers(len(live) - per_tick, size=per_tick).tolist():
            esper.delete_entity(live[k])
            live[k] = live[-1]
            live.pop()
        for _ in range(per_tick):
            live.append(esper.create_entity(*moving(newcomers[made[0] % len(newcomers)])))
            made[0] += 1
        esper.process(DT)

    with world.inside():
        best = interleave({"steady": lambda: esper.process(DT), "churn": churn}, warmup,
                          ticks, plan.repeat)
    world.close()
    steady, churned = statistics.median(best["steady"]), best["churn"]
    print(f"\nChurn: {len(bodies):,} moving circles, {per_tick} created + {per_tick} deleted "
          f"per tick; ms per tick, median / worst of {ticks} ticks of each, steady and churn "
          f"ticks taking turns tick by tick; the quietest of {plan.repeat} runs")
    print(f"  steady {ms(best['steady']):>18}\n  churn  {ms(churned):>18}  "
          f"(median {statistics.median(churned) / steady:.2f}x, worst "
          f"{max(churned) / steady:.2f}x the steady median)", flush=True)
    label = f"churn {len(bodies):,}"
    targets.at_most(f"{label}: median / steady", statistics.median(churned) / steady, 1.3, "x")
    targets.at_most(f"{label}: worst tick / steady", max(churned) / steady, 3, "x")


def small_world(plan: Plan, targets: Targets) -> None:
    ways = {"arcade_collide": run_ecs, "pymunk": run_pymunk}
    target = ("small, ECS tick (esper.process) with 10 shapes", 30.0)
    small_scene(targets, (plan.quick, plan.repeat), make_scene(10, mixed=True), ways, target)


SCENES = {"level": level_scene, "idle": idle_scene, "churn": churn_scene, "small": small_world}

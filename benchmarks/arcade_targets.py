"""The target scenes of the Arcade bridge: game patterns, ``close()``, a small world, a level.

Run through ``bench_arcade.py --scene patterns|close|small|level``. Tables show ms per
step as ``median / worst`` of the kept run (the run with the lowest median of
``--repeat`` alternating runs; for the patterns, the quietest of ``--repeat`` runs in
which the ways take turns step by step); warm-up steps are not timed.

* ``patterns``: one :class:`~arcade_collide.arcade.CollisionWorld` of 10,000 moving
  sprites (the circles scene of the moving benchmark: ``SpriteCircle`` sprites with
  derived shapes and velocities, held in a ``SpriteList`` for drawing); the first 100
  are plain sprites with a 16 px square texture (the walkers). The ways take turns in
  that world step by step (a steady step, then a step with each game pattern in turn;
  the quietest of ``--repeat`` runs is kept), so each ratio compares neighbouring
  steps. A pattern's own work (Arcade's setters, the bridge's calls) is timed with its
  step:

  - ``bullets``: 5 bullets (4 x 10 px, 600 px/s) appended to a ``SpriteList`` of their
    own (as Arcade's shooter examples keep their ``bullet_list``) and added with
    ``add_sprite``, and the 5 oldest taken out with ``remove_from_sprite_lists()``,
    every step (50 alive);
  - ``bullets, drawn list``: the same, the bullets appended to the list of the 10,000
    sprites instead. Printed for comparison, without a target: Arcade's own
    ``SpriteList.remove`` looks the sprite up in the list's Python list, so each removal
    from a 10,000-sprite list costs Arcade about 0.1-0.2 ms, whether or not the plugin
    is there;
  - ``walk cycle``: the 100 walkers' textures alternate between two 16 px textures;
  - ``scale pulse``: one sprite's ``scale`` pulses between 0.75 and 1.25;
  - ``mask toggle``: one sprite's collision mask alternates between all layers and all
    but layer 1. The bridge has no method for it: the game edits the sprite's ``Shape``
    component, found with ``world.entity(sprite)`` in the esper world ``world.name``.

  Targets: bullets at most 1.3x the steady step, the other patterns at most 1.2x.
* ``close``: ``world.close()`` of 20,000 moving circles after 3 steps (one timed call
  per world; 2 worlds, or 1 with ``--repeat 1``: building one takes seconds). Target:
  at most 50 ms (the best of the runs).
* ``small``: ``run_plugin`` of the moving benchmark on 10 mixed sprites, 2,000 steps a
  run, alternating with the Arcade way on the same sprites. Target: median at most
  60 µs.
* ``collector``: a full garbage collection (``gc.collect()``, the best of 5) of the
  process holding a world of 10,000 sprites like that of ``patterns`` (3 steps taken),
  then the same after ``gc.freeze()`` and after 30 more steps (then ``gc.unfreeze()``),
  with the tracked objects of each part: the process before, the sprites, the world.
  No target: what a game's pause at a full collection is, and what freezing a loaded
  level does.
* ``level``: the static level of ``world_targets.py`` (20,000 tiles, 200 movers)
  through the bridge: tiles added with ``add_sprite(tile, static=True)`` when the bridge
  takes that option, otherwise with ``add_sprite(tile)`` and a ``Static`` component
  added to the tile's entity; movers with a velocity, bounced off the level's edges
  between steps with ``set_velocity`` (untimed). Peer: Arcade's way on the same level,
  alternating. No target of its own; printed for comparison, with the pairs of two
  tiles touching after the last step (0 when the tiles are static).
"""

from __future__ import annotations

import gc
import inspect
import math
import statistics
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import arcade
import esper
from bench_arcade import EventCircle, run_plugin
from bench_world import DT, Body, make_scene, run_arcade
from PIL import Image
from rounds import Targets, alternate, interleave, ms, small_scene, timed
from world_targets import ArcadeLevel, bounced, make_level

from arcade_collide import ALL_LAYERS, Shape, Static
from arcade_collide.arcade import CollisionWorld
from arcade_collide.arcade.lifetime import in_world


@dataclass(frozen=True)
class Plan:
    """How long each scene runs: sizes, ticks and alternating runs."""

    quick: bool
    repeat: int

    @property
    def sprites(self) -> int:
        return 1_000 if self.quick else 10_000

    def ticks(self, default: int) -> tuple[int, int]:
        """Warm-up and timed steps of a round."""
        return (2, 5) if self.quick else (5, default)


def texture(rgb: tuple[int, int, int], name: str) -> arcade.Texture:
    return arcade.Texture(Image.new("RGBA", (16, 16), (*rgb, 255)), hash=f"bench-{name}")


def circle_sprite(body: Body) -> arcade.Sprite:
    """The circles scene's sprite of ``body`` (of :func:`bench_world.make_scene`), at its
    position."""
    sprite = EventCircle(max(1, round(body.geometry.radius)), arcade.color.WHITE)
    sprite.position = (body.x, body.y)
    return sprite


class Patterns:
    """The 10,000-sprite world and the game patterns applied to it, one per round."""

    def __init__(self, n: int) -> None:
        self.world = world = CollisionWorld()
        self.drawn = arcade.SpriteList()
        self.walk = (texture((255, 0, 0), "walk-a"), texture((0, 255, 0), "walk-b"))
        self.walkers: list[arcade.Sprite] = []
        for k, b in enumerate(make_scene(n, mixed=False)):
            if k < 100:
                sprite = arcade.Sprite(self.walk[0])
                sprite.position = (b.x, b.y)
                self.walkers.append(sprite)
            else:
                sprite = circle_sprite(b)
            self.drawn.append(sprite)
            world.add_sprite(sprite, velocity=(b.vx, b.vy))
        self.pulsing, toggled = self.drawn[100], self.drawn[101]
        with in_world(world.name):
            self.toggled = esper.component_for_entity(world.entity(toggled), Shape)
        self.side = math.sqrt(n) * 30.0
        self.bullet_list = arcade.SpriteList()
        self.bullets: deque[arcade.Sprite] = deque()
        self.drawn_bullets: deque[arcade.Sprite] = deque()
        self.count = 0
        """Bullets fired."""
        # Each pattern counts its own steps: the patterns take turns step by step.
        self.walks = self.pulses = self.toggles = 0
        world.step(DT)

    def steady(self) -> None:
        self.world.step(DT)

    def fire(self) -> None:
        self._fire(self.bullet_list, self.bullets)

    def fire_drawn(self) -> None:
        self._fire(self.drawn, self.drawn_bullets)

    def _fire(self, into: arcade.SpriteList, alive: deque[arcade.Sprite]) -> None:
        for _ in range(5):
            self.count += 1
            bullet = arcade.SpriteSolidColor(4, 10, color=arcade.color.YELLOW)
            bullet.position = ((self.count * 97.0) % self.side, (self.count * 61.0) % self.side)
            into.append(bullet)
            self.world.add_sprite(bullet, velocity=(0.0, 600.0))
            alive.append(bullet)
        while len(alive) > 50:
            alive.popleft().remove_from_sprite_lists()
        self.world.step(DT)

    def walk_cycle(self) -> None:
        self.walks += 1
        frame = self.walk[self.walks % 2]
        for sprite in self.walkers:
            sprite.texture = frame
        self.world.step(DT)

    def scale_pulse(self) -> None:
        self.pulses += 1
        self.pulsing.scale = 1.0 + 0.25 * math.sin(self.pulses * 0.5)
        self.world.step(DT)

    def mask_toggle(self) -> None:
        self.toggles += 1
        self.toggled.mask = ALL_LAYERS if self.toggles % 2 else ALL_LAYERS ^ 1
        self.world.step(DT)


def patterns_scene(plan: Plan, targets: Targets) -> None:
    warmup, ticks = plan.ticks(30)
    scene = Patterns(plan.sprites)
    ways: dict[str, Callable[[], object]] = {
        "steady": scene.steady, "bullets": scene.fire, "bullets, drawn list": scene.fire_drawn,
        "walk cycle": scene.walk_cycle, "scale pulse": scene.scale_pulse,
        "mask toggle": scene.mask_toggle,
    }
    best = interleave(ways, warmup, ticks, plan.repeat)
    scene.world.close()
    steady = statistics.median(best["steady"])
    print(f"\nGame patterns through the bridge: {plan.sprites:,} moving sprites; ms per "
          f"step, median / worst of {ticks} steps of each, the ways taking turns step by "
          f"step; the quietest of {plan.repeat} runs")
    for name in ways:
        print(f"  {name:19} {ms(best[name]):>18}  "
              f"{statistics.median(best[name]) / steady:5.2f}x steady", flush=True)
    for name, limit in (("bullets", 1.3), ("walk cycle", 1.2), ("scale pulse", 1.2),
                        ("mask toggle", 1.2)):
        targets.at_most(f"bridge {plan.sprites:,}, {name} / steady",
                        statistics.median(best[name]) / steady, limit, "x")


def close_scene(plan: Plan, targets: Targets) -> None:
    n = 2_000 if plan.quick else 20_000
    bodies = make_scene(n, mixed=False)
    took = []
    for _ in range(min(plan.repeat, 2)):
        world = CollisionWorld()
        drawn = arcade.SpriteList()
        for b in bodies:
            sprite = circle_sprite(b)
            drawn.append(sprite)
            world.add_sprite(sprite, velocity=(b.vx, b.vy))
        for _ in range(3):
            world.step(DT)
        pairs = len(world.contacts())
        took.append(statistics.median(timed(world.close, 0, 1)))
    print(f"\nclose() of {n:,} sprites ({pairs} touching pairs), ms per call, "
          f"{len(took)} worlds: {', '.join(f'{t:.1f}' for t in took)}", flush=True)
    targets.at_most(f"bridge close() of {n:,} sprites (best)", min(took), 50, " ms")


def small_world(plan: Plan, targets: Targets) -> None:
    ways = {"plugin": run_plugin, "Arcade way": run_arcade}
    target = ("bridge small, step (world.step) with 10 sprites", 60.0)
    small_scene(targets, (plan.quick, plan.repeat), make_scene(10, mixed=True), ways, target)


def add_static(world: CollisionWorld, sprite: arcade.Sprite) -> None:
    """Register a tile as static, with the bridge's option when it has one."""
    if "static" in inspect.signature(world.add_sprite).parameters:
        world.add_sprite(sprite, static=True)
        return
    entity = world.add_sprite(sprite)
    with in_world(world.name):
        esper.add_component(entity, Static())


class BridgeLevel:
    def __init__(self, tiles: int, movers: int) -> None:
        level = make_level(tiles, movers)
        self.world = world = CollisionWorld()
        self.drawn = arcade.SpriteList()
        for x, y in level.tiles:
            tile = arcade.SpriteSolidColor(32, 32, x, y, color=arcade.color.WHITE)
            self.drawn.append(tile)
            add_static(world, tile)
        self.movers = []
        for x, y, r, vx, vy in level.movers:
            sprite = EventCircle(round(r), arcade.color.WHITE)
            sprite.position = (x, y)
            self.drawn.append(sprite)
            world.add_sprite(sprite, velocity=(vx, vy))
            self.movers.append(sprite)
        self.bounds = level.bounds
        world.step(DT)
        self.peer = ArcadeLevel(level)

    def bounce(self) -> None:
        for sprite in self.movers:
            vx, vy, _ = self.world.velocity(sprite)
            new = bounced(*sprite.position, vx, vy, self.bounds)
            if new != (vx, vy):
                self.world.set_velocity(sprite, *new)

    def round(self, warmup: int, ticks: int) -> list[float]:
        return timed(partial(self.world.step, DT), warmup, ticks, self.bounce)


def level_scene(plan: Plan, targets: Targets) -> None:
    warmup, ticks = plan.ticks(30)
    tiles, movers = (2_000, 20) if plan.quick else (20_000, 200)
    level = BridgeLevel(tiles, movers)
    way = "add_sprite(static=True)" if "static" in inspect.signature(
        level.world.add_sprite).parameters else "Static() on the tile's entity"
    best = alternate(
        {"plugin": partial(level.round, warmup, ticks),
         "arcade": partial(level.peer.round, warmup, ticks)},
        plan.repeat,
    )
    moving = set(level.movers)
    tile_tile = sum(a not in moving and b not in moving for a, b, _ in level.world.contacts())
    level.world.close()
    ours, peer = statistics.median(best["plugin"]), statistics.median(best["arcade"])
    print(f"\nLevel through the bridge: {tiles:,} static tiles ({way}) + {movers} moving "
          f"circles; ms per step, median / worst of {ticks} steps, best of {plan.repeat} "
          f"alternating runs\n  plugin {ms(best['plugin']):>18}\n  Arcade way "
          f"{ms(best['arcade']):>14}  ({peer / ours:.1f}x the plugin step)\n"
          f"  tile-tile pairs touching after the last step: {tile_tile}", flush=True)


def collector_scene(plan: Plan, targets: Targets) -> None:
    def full_collection() -> float:
        return min(timed(gc.collect, 0, 5))

    before, took = len(gc.get_objects()), full_collection()
    bodies = make_scene(plan.sprites, mixed=False)
    drawn = arcade.SpriteList()
    drawn.extend(circle_sprite(b) for b in bodies)
    sprites, with_sprites = len(gc.get_objects()), full_collection()
    world = CollisionWorld()
    for sprite, b in zip(drawn, bodies, strict=True):
        world.add_sprite(sprite, velocity=(b.vx, b.vy))
    for _ in range(3):
        world.step(DT)
    held, with_world = len(gc.get_objects()), full_collection()
    gc.freeze()
    try:
        frozen = full_collection()
        for _ in range(30):
            world.step(DT)
        later = full_collection()
    finally:
        gc.unfreeze()
    world.close()
    rows = [
        ("the process before", took, f"{before:>9,}"),
        (f"+ {plan.sprites:,} sprites in a SpriteList", with_sprites, f"{sprites - before:>+9,}"),
        ("+ a CollisionWorld of them", with_world, f"{held - sprites:>+9,}"),
        ("after gc.freeze()", frozen, ""),
        ("30 steps later", later, ""),
    ]
    print("\nA full garbage collection (gc.collect(), best of 5), ms; tracked objects:")
    for label, ms_taken, objects in rows:
        print(f"  {label:34} {ms_taken:8.1f}" + (f"  {objects}" if objects else ""), flush=True)


SCENES = {
    "patterns": patterns_scene, "close": close_scene, "small": small_world,
    "level": level_scene, "collector": collector_scene,
}

"""The Arcade plugin against the Arcade way, on the same moving sprites.

Scenes come from ``bench_world.make_scene``: N bodies on a square of side
``sqrt(N) * 30`` px, "circles" only, or "mixed" (circles, rotated rectangles,
triangles and hexagons, turning).

* plugin: every sprite registered with a :class:`~arcade_collide.arcade.CollisionWorld`
  (explicit shape, velocity, turn rate) and held in a ``SpriteList`` as a game would
  for drawing; each sprite class defines ``on_collision_start``/``on_collision_end``.
  One tick is ``world.step(1/60)``: read the sprites, move, detect, write positions
  and angles back to the sprites and the sprite list, deliver the events to sprites.
* Arcade: move every sprite with its setters, then
  ``arcade.check_for_collision_with_list(sprite, sprites)`` for each one against a
  ``SpriteList(use_spatial_hash=True)``.

ms per tick: median of the timed ticks after warm-up ticks. The plugin and the Arcade
way are run ``--repeat`` times each (3 by default), alternately, on fresh sprites, and
each keeps its best median, as in ``bench_world.py``: the machine is shared, and a busy
neighbour should not decide a verdict. "ECS part" times ``esper.process`` alone in the
same world as the kept plugin run; "bridge" is the rest of a plugin step (plugin minus
ECS part: reading sprites, writing back, delivering events to sprites). Compare ratios
within one run.

The scenes of issue 14's targets (game patterns, ``close()``, a small world, a level
through the bridge) and the garbage collector's scene are described in
``arcade_targets.py``; each prints a line per
target, "met" or "not met", and a summary follows at the end. The exit status is 1
when a target is not met (0 always with ``--quick``).

Run: ``python benchmarks/bench_arcade.py`` (or ``make bench-arcade``) for every scene;
``--scene NAME`` (repeatable) runs only ``moving``, ``patterns``, ``close``, ``small``,
``level`` or ``collector``; ``--quick`` for a smoke run of every scene; ``--clock cpu``
times steps by this process's CPU time instead of elapsed time (steadier on a shared
machine).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from typing import Any

os.environ.setdefault("ARCADE_HEADLESS", "1")
# Measure the arcade_collide of this checkout, whichever one the environment installed.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import arcade
import esper
from bench_world import DT, Body, kernels_line, make_scene, run_arcade
from rounds import CLOCKS, Targets, timed, use_clock

from arcade_collide.arcade import CollisionWorld
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.shapes import Circle, Rect

TARGET_RATIO = 20.0
TARGET_MS = 8.0


class Counter:
    """Collision events received by sprites."""

    started = 0
    ended = 0


class EventCircle(arcade.SpriteCircle):
    def on_collision_start(self, other: arcade.Sprite, contact: Contact) -> None:
        Counter.started += 1

    def on_collision_end(self, other: arcade.Sprite) -> None:
        Counter.ended += 1


class EventBox(arcade.SpriteSolidColor):
    def on_collision_start(self, other: arcade.Sprite, contact: Contact) -> None:
        Counter.started += 1

    def on_collision_end(self, other: arcade.Sprite) -> None:
        Counter.ended += 1


def run_plugin(
    bodies: list[Body], warmup: int, ticks: int
) -> tuple[list[float], list[float], int, Any]:
    """Time ``world.step`` on the scene, then the ECS tick alone (``esper.process`` in
    the world's esper world: no sprite reads, write-back or sprite events); return
    both ms lists, the touching pairs and the sprites."""
    world = CollisionWorld()
    drawn = arcade.SpriteList()
    for b in bodies:
        g = b.geometry
        if isinstance(g, Circle):
            sprite: arcade.Sprite = EventCircle(max(1, round(g.radius)), arcade.color.WHITE)
        elif isinstance(g, Rect):
            sprite = EventBox(int(g.width), int(g.height), color=arcade.color.WHITE)
        else:
            sprite = EventBox(20, 20, color=arcade.color.WHITE)
        sprite.position = (b.x, b.y)
        sprite.angle = b.angle
        drawn.append(sprite)
        world.add_sprite(sprite, g, velocity=(b.vx, b.vy), angular=b.angular)
    world.step(DT)
    pairs = len(world.contacts())
    times = timed(lambda: world.step(DT), warmup, ticks)
    # The sprites' router is subscribed to the world's CollisionSystem: unsubscribed,
    # esper.process alone delivers no sprite events.
    world._subscription.unsubscribe()
    previous = esper.current_world
    esper.switch_world(world.name)
    ecs = timed(lambda: esper.process(DT), 1, ticks)
    esper.switch_world(previous)
    world.close()
    return times, ecs, pairs, drawn


SCENE_NAMES = ("moving", "patterns", "close", "small", "level", "collector")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, few ticks")
    parser.add_argument(
        "--scene", action="append", choices=SCENE_NAMES,
        help="run only this scene (repeat the option for several); default: all",
    )
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per way and scene; the best median is kept"
    )
    parser.add_argument(
        "--clock", choices=sorted(CLOCKS), default="wall",
        help="time ticks by elapsed time (default) or by this process's CPU time",
    )
    args = parser.parse_args()
    scenes = args.scene or list(SCENE_NAMES)
    print(kernels_line())
    print(use_clock(args.clock))
    targets = Targets()
    if "moving" in scenes:
        moving_scenes(args, targets)
    # The target scenes import this module by name: let them find this one, not a copy.
    sys.modules.setdefault("bench_arcade", sys.modules[__name__])
    from arcade_targets import SCENES, Plan

    plan = Plan(quick=args.quick, repeat=args.repeat)
    for name in scenes:
        if name in SCENES:
            SCENES[name](plan, targets)
    if targets.lines:
        print(f"\nTargets:\n{targets.summary()}")
    print(f"events delivered to sprites: {Counter.started} starts, {Counter.ended} ends")
    return 0 if args.quick or targets.all_met else 1


def moving_scenes(args: argparse.Namespace, targets: Targets) -> None:
    """The all-moving circles and mixed scenes against the Arcade way."""
    sizes = [500, 1000] if args.quick else [1000, 2000, 5000, 10000]
    arcade_limit = 1000 if args.quick else 5000
    ticks, arcade_ticks = (5, 2) if args.quick else (40, 4)
    print(f"{'scene':8} {'N':>6} {'plugin ms':>10} {'ECS part':>9} {'bridge':>7} "
          f"{'Arcade ms':>10} {'ratio':>7} {'pairs':>7}")
    for scene, n in [(scene, n) for scene in ("circles", "mixed") for n in sizes]:
        bodies = make_scene(n, mixed=scene == "mixed")
        plugin_runs, arcade_runs = [], []
        for _ in range(args.repeat):
            plugin_runs.append(run_plugin(bodies, 5, ticks)[:3])  # not the sprites
            if n <= arcade_limit:
                arcade_runs.append(run_arcade(bodies, 1, arcade_ticks)[0])
        plugin, ecs, pairs = min(plugin_runs, key=lambda r: statistics.median(r[0]))
        plugin_ms = statistics.median(plugin)
        ecs_ms = statistics.median(ecs)
        if n <= arcade_limit:
            arcade_ms = min(statistics.median(arc) for arc in arcade_runs)
            ratio = f"{arcade_ms / plugin_ms:6.1f}x"
            arcade_text = f"{arcade_ms:10.2f}"
        else:
            ratio, arcade_text, arcade_ms = "", f"{'-':>10}", 0.0
        print(f"{scene:8} {n:>6} {plugin_ms:10.2f} {ecs_ms:9.2f} {plugin_ms - ecs_ms:7.2f} "
              f"{arcade_text} {ratio:>7} {pairs:>7}", flush=True)
        if n == 5000:
            targets.check(
                f"{scene} N=5000",
                f"{plugin_ms:.2f} ms per plugin step, {arcade_ms / plugin_ms:.1f}x the Arcade way",
                f"<= {TARGET_MS} ms, >= {TARGET_RATIO}x",
                plugin_ms <= TARGET_MS and arcade_ms / plugin_ms >= TARGET_RATIO,
            )


if __name__ == "__main__":
    sys.exit(main())

"""Stress: thousands of moving circles, rectangles, triangles and hexagons, with timings.

Every shape drifts, turns and bounces off the window edges; a shape lights up while
it touches another. The top line shows the collision step's milliseconds per tick
(read sprites, move, detect, write back, deliver events) and the frames per second.

Run: ``python examples/stress.py [--count N]``. With ``ARCADE_HEADLESS=1`` it runs a
couple of seconds off-screen, saves a screenshot and prints the timings.
"""

from __future__ import annotations

import argparse
import math
import random
import time

import arcade
import numpy as np

from arcade_collide.arcade import CollisionWorld, HeadlessRun, run_view, shape_texture
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.shapes import AnyShape, Circle, Polygon, Rect, Triangle

WIDTH, HEIGHT = 800, 600
TITLE = "arcade_collide - stress"
SHAPES: list[AnyShape] = [
    Circle(4),
    Rect(9, 6),
    Triangle((5, 0), (-4, 4), (-4, -4)),
    Polygon(tuple((5 * math.cos(i * math.pi / 3), 5 * math.sin(i * math.pi / 3))
                  for i in range(6))),
]
IDLE, TOUCHING = (110, 130, 170), (255, 120, 80)


class Stress(arcade.View):
    """``count`` shapes in a CollisionWorld; timings in :attr:`step_ms` and :attr:`fps`."""

    def __init__(self, count: int = 2000, seed: int = 1) -> None:
        super().__init__()
        rng = random.Random(seed)
        self.world = CollisionWorld()
        self.sprites = arcade.SpriteList()
        textures = [shape_texture(shape, (255, 255, 255, 255)) for shape in SHAPES]
        self.touching: dict[arcade.Sprite, int] = {}
        for i in range(count):
            kind = i % len(SHAPES)
            sprite = arcade.Sprite(textures[kind], center_x=rng.uniform(10, WIDTH - 10),
                                   center_y=rng.uniform(10, HEIGHT - 40),
                                   angle=rng.uniform(0, 360))
            sprite.color = IDLE
            self.sprites.append(sprite)
            speed, heading = rng.uniform(20, 90), rng.uniform(0, 2 * math.pi)
            self.world.add_sprite(sprite, SHAPES[kind], kind="shape",
                                  velocity=(speed * math.cos(heading), speed * math.sin(heading)),
                                  angular=rng.uniform(-120, 120))
        self.world.on_collision("shape", "shape", start=self.started, end=self.ended)
        self.events = 0
        self.step_ms = 0.0
        self.fps = 0.0
        self.last_draw = 0.0
        self.text = arcade.Text("", 10, HEIGHT - 22, arcade.color.WHITE, 14)

    def started(self, a: arcade.Sprite, b: arcade.Sprite, _: Contact) -> None:
        self.events += 1
        for sprite in (a, b):
            self.touching[sprite] = self.touching.get(sprite, 0) + 1
            sprite.color = TOUCHING

    def ended(self, a: arcade.Sprite, b: arcade.Sprite) -> None:
        self.events += 1
        for sprite in (a, b):
            left = self.touching.pop(sprite) - 1
            if left:
                self.touching[sprite] = left
            else:
                sprite.color = IDLE

    def on_fixed_update(self, delta_time: float) -> None:
        started = time.perf_counter()
        self.world.step(delta_time)
        step_ms = (time.perf_counter() - started) * 1000.0
        self.step_ms = step_ms if self.step_ms == 0.0 else 0.9 * self.step_ms + 0.1 * step_ms
        # Bounce off the edges: find the few shapes outside with numpy, then turn them.
        xy, _ = self.world.poses()
        sprites = self.world.sprites()
        out_x = (xy[:, 0] < 0) | (xy[:, 0] > WIDTH)
        out_y = (xy[:, 1] < 0) | (xy[:, 1] > HEIGHT - 30)
        for row in np.flatnonzero(out_x | out_y).tolist():
            vx, vy, _ = self.world.velocity(sprites[row])
            if out_x[row] and (xy[row, 0] < 0) == (vx < 0):
                vx = -vx
            if out_y[row] and (xy[row, 1] < 0) == (vy < 0):
                vy = -vy
            self.world.set_velocity(sprites[row], vx, vy)

    def on_draw(self) -> None:
        now = time.perf_counter()
        if self.last_draw:
            fps = 1.0 / max(now - self.last_draw, 1e-9)
            self.fps = fps if self.fps == 0.0 else 0.9 * self.fps + 0.1 * fps
        self.last_draw = now
        self.clear(color=(10, 10, 16))
        self.sprites.draw()
        self.text.text = (f"{len(self.sprites)} shapes   {self.step_ms:5.2f} ms/tick   "
                          f"{self.fps:5.1f} FPS   touching {len(self.touching)}")
        self.text.draw()


def run_headless(
    seconds: float = 2.0, *, count: int = 2000, window: arcade.Window | None = None
) -> tuple[Stress, HeadlessRun]:
    """Run ``seconds`` of game time; return the scene and the run."""
    return run_view(lambda: Stress(count), max(1, round(seconds * 60)), window=window,
                    size=(WIDTH, HEIGHT), title=TITLE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshot", default="docs/images/stress.png")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--count", type=int, default=2000)
    args = parser.parse_args()
    if args.count < 0:
        parser.error(f"--count must be >= 0, got {args.count}")
    if arcade.headless:
        scene, run = run_headless(args.seconds, count=args.count)
        run.save_image(args.screenshot)
        print(f"stress (headless): {args.count} shapes, {run.ticks} ticks, {scene.events} events, "
              f"{scene.step_ms:.2f} ms/tick collision step, {run.draw_ms:.2f} ms/frame draw "
              f"(software rendering); screenshot {args.screenshot}")
        return
    window = arcade.Window(WIDTH, HEIGHT, TITLE)
    window.show_view(Stress(args.count))
    arcade.run()


if __name__ == "__main__":
    main()

"""Triangle lab: the mouse point against forty triangles, with six point-in-triangle methods.

Keys 1-6 pick the method used to highlight the triangles under the mouse; the
table shows what one test costs with each method (microseconds, running mean)
and whether all six agree. Every method obeys the same boundary rule: a point
on an edge is inside.

Run: ``python examples/triangle_lab.py`` (``ARCADE_HEADLESS=1`` renders off-screen
and saves a screenshot instead of opening a window).
"""

from __future__ import annotations

import argparse
import math
import random
import time

import arcade

from arcade_collide import POINT_IN_TRIANGLE_METHODS, point_in_triangle
from arcade_collide.arcade import HeadlessRun, run_view
from arcade_collide.geometry.pose import Vec2

WIDTH, HEIGHT = 800, 600
TITLE = "arcade_collide - triangle lab"
COLUMNS, ROWS = 8, 5
METHODS = POINT_IN_TRIANGLE_METHODS
BASE = (60, 80, 120)
HIT = (255, 200, 40)
EDGE = (200, 210, 230)


def make_triangles(seed: int = 7) -> list[tuple[Vec2, Vec2, Vec2]]:
    """One random, clearly non-degenerate triangle per grid cell."""
    rng = random.Random(seed)
    cell_w, cell_h = WIDTH / COLUMNS, (HEIGHT - 120) / ROWS
    triangles = []
    for row in range(ROWS):
        for col in range(COLUMNS):
            cx, cy = (col + 0.5) * cell_w, (row + 0.5) * cell_h
            start = rng.uniform(0, 2 * math.pi)
            # Three directions at least 60 degrees apart keep the triangle fat.
            turns = [start, start + rng.uniform(1.2, 2.4), start + rng.uniform(3.6, 5.0)]
            radius = 0.45 * min(cell_w, cell_h)
            triangles.append(
                tuple(  # type: ignore[misc]
                    (cx + radius * rng.uniform(0.6, 1.0) * math.cos(t),
                     cy + radius * rng.uniform(0.6, 1.0) * math.sin(t))
                    for t in turns
                )
            )
    return triangles


class TriangleLab(arcade.View):
    """The lab. Drive it with :meth:`set_mouse` and :meth:`select_method` in tests."""

    def __init__(self, seed: int = 7) -> None:
        super().__init__()
        self.triangles = make_triangles(seed)
        self.mouse: Vec2 = (-100.0, -100.0)
        self.method = "line_equation"
        self.hits: list[bool] = [False] * len(self.triangles)
        self.agree = True
        self.micros: dict[str, float] = dict.fromkeys(METHODS, 0.0)
        self.lines = [
            arcade.Text("", 12, HEIGHT - 22 - 17 * i, arcade.color.WHITE, 12, font_name="Courier")
            for i in range(len(METHODS) + 1)
        ]

    def set_mouse(self, x: float, y: float) -> None:
        """Move the test point (what the mouse does)."""
        self.mouse = (float(x), float(y))

    def select_method(self, name: str) -> None:
        """Pick the highlighting method by name (keys 1-6 do the same)."""
        if name not in METHODS:
            raise ValueError(f"unknown method {name!r}; valid: {', '.join(METHODS)}")
        self.method = name

    def centroid(self, index: int) -> Vec2:
        """Centre of triangle ``index`` (always inside it)."""
        (ax, ay), (bx, by), (cx, cy) = self.triangles[index]
        return ((ax + bx + cx) / 3.0, (ay + by + cy) / 3.0)

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.set_mouse(x, y)

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        index = symbol - arcade.key.KEY_1
        if 0 <= index < len(METHODS):
            self.method = METHODS[index]

    def on_fixed_update(self, delta_time: float) -> None:
        answers = {}
        for name in METHODS:
            started = time.perf_counter()
            answers[name] = [
                point_in_triangle(self.mouse, a, b, c, method=name) for a, b, c in self.triangles
            ]
            micros = (time.perf_counter() - started) * 1e6 / len(self.triangles)
            # A running mean keeps the table readable while still following the load.
            previous = self.micros[name]
            self.micros[name] = micros if previous == 0.0 else 0.9 * previous + 0.1 * micros
        self.hits = answers[self.method]
        self.agree = all(hits == self.hits for hits in answers.values())

    def on_draw(self) -> None:
        self.clear(color=(16, 18, 28))
        for (a, b, c), hit in zip(self.triangles, self.hits, strict=True):
            arcade.draw_triangle_filled(*a, *b, *c, HIT if hit else BASE)
            arcade.draw_polygon_outline([a, b, c], EDGE, 1)
        x, y = self.mouse
        arcade.draw_line(x - 8, y, x + 8, y, arcade.color.RED, 1)
        arcade.draw_line(x, y - 8, x, y + 8, arcade.color.RED, 1)
        for i, name in enumerate(METHODS):
            marker = ">" if name == self.method else " "
            self.lines[i].text = f"{marker}{i + 1} {name:<14}{self.micros[name]:6.2f} us/test"
        verdict = "all six agree" if self.agree else "METHODS DISAGREE"
        self.lines[-1].text = f"   hits: {sum(self.hits)}   {verdict}"
        for line in self.lines:
            line.draw()


def run_headless(
    seconds: float = 2.0, *, window: arcade.Window | None = None, seed: int = 7
) -> tuple[TriangleLab, HeadlessRun]:
    """Sweep the mouse across the triangles, cycling the methods; return the lab and run."""
    ticks = max(1, round(seconds * 60))

    def script(lab: TriangleLab, tick: int) -> None:
        lab.set_mouse(*lab.centroid(tick * len(lab.triangles) // ticks))
        lab.select_method(METHODS[tick * len(METHODS) // ticks])

    return run_view(
        lambda: TriangleLab(seed), ticks, window=window, size=(WIDTH, HEIGHT), title=TITLE,
        before_tick=script,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshot", default="docs/images/triangle_lab.png")
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    if arcade.headless:
        lab, run = run_headless(args.seconds)
        run.save_image(args.screenshot)
        print(f"triangle lab: {run.ticks} ticks, hits under the mouse: {sum(lab.hits)}, "
              f"{run.update_ms:.2f} ms/tick; screenshot {args.screenshot}")
        return
    window = arcade.Window(WIDTH, HEIGHT, TITLE)
    window.show_view(TriangleLab())
    arcade.run()


if __name__ == "__main__":
    main()

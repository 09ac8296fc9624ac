"""Thin walls: a turret fires bullets at 2,000-6,000 px/s into an arena of thin walls.

At 60 ticks a second a bullet jumps 33-100 px per tick, much further than a wall
(1-4 px) or a trigger strip (1 px) is thick. The bullets are swept
(``add_sprite(..., swept=True, stop_at_impact=True)``): each meets every wall and
trigger its motion passes over during a tick, and stops where it first touched a
wall. The bullet-wall handler runs with the bullet at that point; it leaves an impact
mark there and removes the bullet. The green trigger strips are sensors: each counts
the bullets passing through it (one start event per crossing, even when the bullet
crossed it between two ticks).

Run: ``python examples/thin_walls.py`` (the turret aims at the mouse; hold a mouse
button or space to fire; S turns sweeping off and on for new bullets, to watch them
tunnel). With ``ARCADE_HEADLESS=1`` the turret plays a scripted run twice with the same
seed, once with swept bullets and once without; the swept run's screenshot is saved and
a summary says how many wall hits and trigger crossings the run without sweeping missed.
"""

from __future__ import annotations

import argparse
import math
import random
from typing import NamedTuple

import arcade

from arcade_collide.arcade import CollisionWorld, HeadlessRun, run_view, sprite_for_shape
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.pose import Vec2, rotation
from arcade_collide.geometry.shapes import Circle, Rect, Triangle

WIDTH, HEIGHT = 800, 600
TITLE = "arcade_collide - thin walls"
TURRET_X, TURRET_Y = 400.0, 300.0
MUZZLE = 20.0
"""Bullets appear this far from the turret's centre, along its aim."""
BULLET = Circle(2)
SPEEDS = (2000.0, 6000.0)
"""Bullet speeds, px/s: each shot draws one uniformly from this range."""
FIRE_TICKS = 2
AUTO_TURN = 90.0
"""Degrees per second the scripted turret turns (clockwise, like ``Sprite.angle``)."""
JITTER = 3.0
"""Degrees: each scripted shot leaves at a random angle within this of the aim."""
TURN_RATE = 360.0
BULLET_TICKS = 90
OFF_SCREEN = 20.0
"""A bullet this far outside the window is gone (without sweeping, bullets tunnel
through the arena's frame too)."""
MAX_MARKS = 600
WALL_LAYER, TRIGGER_LAYER, BULLET_LAYER = 0b001, 0b010, 0b100
"""Bullets collide with walls and triggers, never with each other."""
BACKGROUND = (12, 14, 26)
WALL_COLOR = (200, 210, 235, 255)
TRIGGER_COLOR = (70, 220, 130, 255)
BULLET_COLOR = (255, 240, 140, 255)
MARK_COLOR = (255, 100, 40, 255)
TURRET_COLOR = (120, 170, 255, 255)
MARK = Circle(3)


class Strip(NamedTuple):
    """A wall or trigger: a ``length`` x ``thickness`` rectangle centred on ``(x, y)``,
    turned ``angle`` degrees clockwise."""

    x: float
    y: float
    length: float
    thickness: float
    angle: float

    def shape(self) -> Rect:
        """The collision shape, in the strip's own frame."""
        return Rect(self.length, self.thickness)


WALLS = (
    # The arena's frame (its corners overlap, so it is closed).
    Strip(400, 15, 784, 2, 0), Strip(400, 565, 784, 2, 0),
    Strip(15, 290, 554, 2, 90), Strip(785, 290, 554, 2, 90),
    # Inside: 1-4 px thick, several turned.
    Strip(230, 440, 170, 1, -40), Strip(565, 470, 180, 3, -30),
    Strip(600, 150, 160, 2, 60), Strip(190, 150, 170, 4, 0),
    Strip(110, 330, 150, 2, 90), Strip(690, 320, 130, 1, 80),
    Strip(400, 500, 130, 4, 0), Strip(410, 85, 120, 3, 15),
)
TRIGGERS = (
    Strip(400, 400, 110, 1, 0), Strip(505, 300, 110, 1, 90),
    Strip(315, 225, 100, 1, 45), Strip(300, 380, 90, 1, -45),
    Strip(250, 300, 120, 1, 90),
)


class Shot(NamedTuple):
    """A bullet as fired: its number is its index in :attr:`ThinWalls.shots`."""

    tick: int
    """The tick it was fired on (it moves during that tick)."""
    x: float
    y: float
    vx: float
    """Velocity, px/s."""
    vy: float
    swept: bool


class WallHit(NamedTuple):
    """A bullet meeting a wall, as the handler saw it."""

    shot: int
    wall: int
    """Index in :data:`WALLS`."""
    tick: int
    position: Vec2
    """Where the bullet was when the handler ran: the impact point for a swept bullet."""
    contact: Contact


class Crossing(NamedTuple):
    """A bullet starting to pass through a trigger."""

    shot: int
    trigger: int
    """Index in :data:`TRIGGERS`."""
    tick: int


class Comparison(NamedTuple):
    """What a run without sweeping reported of a swept run's events (same seed)."""

    wall_hits: int
    """Wall hits of the swept run."""
    wall_hits_seen: int
    """Of those, how many the run without sweeping reported (same bullet, same wall)."""
    crossings: int
    """Trigger crossings of the swept run."""
    crossings_seen: int
    """Of those, how many the run without sweeping reported."""


def heading(angle: float) -> Vec2:
    """Unit vector along an aim of ``angle`` degrees; ``Sprite.angle`` turns clockwise
    (exact for quarter turns)."""
    cos, sin = rotation(angle)
    return cos, -sin


class ThinWalls(arcade.View):
    """The game. Tests and the script drive it with :meth:`autopilot` or :meth:`fire`.

    Args:
        seed: Seeds the bullets' speeds and the script's aim.
        swept: Whether bullets are swept (:kbd:`S` switches it for new bullets).
    """

    def __init__(self, seed: int = 7, swept: bool = True) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.swept = swept
        self.world = CollisionWorld()
        self.walls = self._strips(WALLS, WALL_COLOR, "wall", layer=WALL_LAYER)
        self.triggers = self._strips(
            TRIGGERS, TRIGGER_COLOR, "trigger", layer=TRIGGER_LAYER, sensor=True
        )
        self.world.on_collision("bullet", "wall", start=self.on_bullet_hits_wall)
        self.world.on_collision("bullet", "trigger", start=self.on_bullet_crosses_trigger)
        self.turret = sprite_for_shape(Triangle((16, 0), (-10, 9), (-10, -9)), TURRET_COLOR,
                                       center_x=TURRET_X, center_y=TURRET_Y)
        self.turrets: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.turrets.append(self.turret)
        self.bullets: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.marks: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        self.shots: list[Shot] = []
        self.hits: list[WallHit] = []
        self.crossings: list[Crossing] = []
        self.tick = 0
        self.turning = 0
        self.firing = False
        self.target: Vec2 | None = None
        self.cooldown = 0
        self.trail: dict[arcade.Sprite, Vec2] = {}
        """Each bullet's position before the tick: its streak is drawn from there."""
        self.text = arcade.Text("", 10, HEIGHT - 10, arcade.color.WHITE, 13, anchor_y="top")
        self.labels = [arcade.Text("0", s.x + 6, s.y + 6, TRIGGER_COLOR, 12) for s in TRIGGERS]
        self.counts = [0] * len(TRIGGERS)

    def _strips(
        self, strips: tuple[Strip, ...], color: tuple[int, int, int, int], kind: str,
        layer: int, sensor: bool = False,
    ) -> arcade.SpriteList[arcade.Sprite]:
        """Static sprites for ``strips``, in the world as ``kind``."""
        sprites: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
        for index, strip in enumerate(strips):
            sprite = sprite_for_shape(strip.shape(), color, center_x=strip.x,
                                      center_y=strip.y, angle=strip.angle)
            sprite.properties["index"] = index
            sprites.append(sprite)
            self.world.add_sprite(sprite, strip.shape(), static=True, kind=kind, layer=layer,
                                  sensor=sensor)
        return sprites

    # --- input: keys and the mouse call these; so do tests and the script --------------

    def fire(self, spread: float = 0.0) -> bool:
        """Fire a bullet along the aim (turned by ``spread`` degrees), unless the gun
        is cooling down."""
        if self.cooldown > 0:
            return False
        self.cooldown = FIRE_TICKS
        speed = self.rng.uniform(*SPEEDS)
        dx, dy = heading(self.turret.angle + spread)
        x, y = TURRET_X + dx * MUZZLE, TURRET_Y + dy * MUZZLE
        bullet = sprite_for_shape(BULLET, BULLET_COLOR, center_x=x, center_y=y)
        bullet.properties["shot"] = len(self.shots)
        self.shots.append(Shot(self.tick, x, y, dx * speed, dy * speed, self.swept))
        self.bullets.append(bullet)
        self.world.add_sprite(bullet, BULLET, velocity=(dx * speed, dy * speed),
                              swept=self.swept, stop_at_impact=True, kind="bullet",
                              layer=BULLET_LAYER, mask=WALL_LAYER | TRIGGER_LAYER)
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol == arcade.key.SPACE:
            self.firing = True
        elif symbol == arcade.key.S:
            self.swept = not self.swept

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        if symbol == arcade.key.SPACE:
            self.firing = False

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.target = (x, y)

    def on_mouse_press(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.firing = True

    def on_mouse_release(self, x: int, y: int, button: int, modifiers: int) -> None:
        self.firing = False

    # --- the game ---------------------------------------------------------------------

    def on_bullet_hits_wall(self, bullet: arcade.Sprite, wall: arcade.Sprite,
                            contact: Contact) -> None:
        # A swept bullet was stopped where it first touched the wall: it is there now.
        self.hits.append(WallHit(int(bullet.properties["shot"]), int(wall.properties["index"]),
                                 self.tick, bullet.position, contact))
        mark = sprite_for_shape(MARK, MARK_COLOR, center_x=bullet.center_x,
                                center_y=bullet.center_y)
        self.marks.append(mark)
        if len(self.marks) > MAX_MARKS:
            self.marks.pop(0)
        self.trail.pop(bullet, None)
        bullet.remove_from_sprite_lists()  # also leaves the CollisionWorld

    def on_bullet_crosses_trigger(self, bullet: arcade.Sprite, trigger: arcade.Sprite,
                                  contact: Contact) -> None:
        index = int(trigger.properties["index"])
        self.crossings.append(Crossing(int(bullet.properties["shot"]), index, self.tick))
        self.counts[index] += 1

    def on_fixed_update(self, delta_time: float) -> None:
        self._aim(delta_time)
        self.cooldown = max(0, self.cooldown - 1)
        if self.firing:
            self.fire()
        self.trail = {bullet: bullet.position for bullet in self.bullets}
        self.world.step(delta_time)
        for bullet in list(self.bullets):
            shot = self.shots[int(bullet.properties["shot"])]
            x, y = bullet.position
            if (self.tick - shot.tick >= BULLET_TICKS or not -OFF_SCREEN <= x <= WIDTH + OFF_SCREEN
                    or not -OFF_SCREEN <= y <= HEIGHT + OFF_SCREEN):
                self.trail.pop(bullet, None)
                bullet.remove_from_sprite_lists()
        self.tick += 1

    def _aim(self, delta_time: float) -> None:
        """Turn the turret: at the script's rate, or towards the mouse."""
        if self.target is None:
            self.turret.angle += self.turning * AUTO_TURN * delta_time
            return
        x, y = self.target
        want = -math.degrees(math.atan2(y - TURRET_Y, x - TURRET_X))
        error = (want - self.turret.angle + 180.0) % 360.0 - 180.0
        step = TURN_RATE * delta_time
        self.turret.angle += max(-step, min(step, error))

    def autopilot(self) -> None:
        """The script: turn clockwise at :data:`AUTO_TURN`, firing whenever the gun is
        ready, each shot a little off the aim."""
        self.turning = 1
        if self.cooldown == 0:
            self.fire(self.rng.uniform(-JITTER, JITTER))

    def on_draw(self) -> None:
        self.clear(color=BACKGROUND)
        self.triggers.draw()
        self.walls.draw()
        self.marks.draw()
        for bullet, (x, y) in self.trail.items():
            arcade.draw_line(x, y, bullet.center_x, bullet.center_y, (*BULLET_COLOR[:3], 90), 2)
        self.bullets.draw()
        self.turrets.draw()
        for label, count in zip(self.labels, self.counts, strict=True):
            label.text = str(count)
            label.draw()
        self.text.text = (
            f"sweeping {'on' if self.swept else 'off'} (S)   shots {len(self.shots)}   "
            f"wall hits {len(self.hits)}   trigger crossings {len(self.crossings)}"
        )
        self.text.draw()


def compare(swept: ThinWalls, plain: ThinWalls) -> Comparison:
    """Which of ``swept``'s wall hits and crossings ``plain`` (the same script without
    sweeping) reported too: the same bullet (by shot number) meeting the same strip."""
    hits = {(hit.shot, hit.wall) for hit in plain.hits}
    crossings = {(c.shot, c.trigger) for c in plain.crossings}
    return Comparison(
        len(swept.hits), sum((hit.shot, hit.wall) in hits for hit in swept.hits),
        len(swept.crossings), sum((c.shot, c.trigger) in crossings for c in swept.crossings),
    )


def run_headless(
    seconds: float = 4.0, *, window: arcade.Window | None = None, seed: int = 7,
    swept: bool = True, capture: bool = True,
) -> tuple[ThinWalls, HeadlessRun]:
    """Play ``seconds`` of the script; return the game and the run."""

    def script(game: ThinWalls, tick: int) -> None:
        game.autopilot()

    return run_view(
        lambda: ThinWalls(seed, swept), max(1, round(seconds * 60)), window=window,
        size=(WIDTH, HEIGHT), title=TITLE, before_tick=script, capture=capture,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshot", default="docs/images/thin_walls.png")
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    window = arcade.Window(WIDTH, HEIGHT, TITLE)
    if arcade.headless:
        plain, _ = run_headless(args.seconds, window=window, seed=args.seed, swept=False,
                                capture=False)
        game, run = run_headless(args.seconds, window=window, seed=args.seed)
        window.close()
        run.save_image(args.screenshot)
        seen = compare(game, plain)
        print(f"thin walls (headless): {run.ticks} ticks, {run.game_seconds:.1f} s game time, "
              f"{len(game.shots)} bullets at {SPEEDS[0]:,.0f}-{SPEEDS[1]:,.0f} px/s; "
              f"wall hits: {seen.wall_hits} swept, {seen.wall_hits_seen} without sweeping "
              f"({seen.wall_hits - seen.wall_hits_seen} bullets tunnelled through the wall "
              f"they hit); trigger crossings: {seen.crossings} swept, {seen.crossings_seen} "
              f"without ({seen.crossings - seen.crossings_seen} missed); "
              f"{run.update_ms:.2f} ms/tick update, {run.draw_ms:.2f} ms/frame draw; "
              f"screenshot {args.screenshot}")
        return
    window.show_view(ThinWalls())
    arcade.run()


if __name__ == "__main__":
    main()

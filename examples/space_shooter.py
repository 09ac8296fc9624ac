"""Space shooter: a triangle ship shoots rotating polygon asteroids, which split when hit.

Arrow keys turn and thrust, space fires. Every sprite is registered with a
:class:`~arcade_collide.arcade.CollisionWorld`; the game reacts to collisions with
two pair handlers (bullet-rock, ship-rock) and never tests a pair itself.

Run: ``python examples/space_shooter.py``. With ``ARCADE_HEADLESS=1`` it plays itself
for a few seconds off-screen, saves a screenshot and prints a summary.
"""

from __future__ import annotations

import argparse
import math
import random

import arcade

from arcade_collide.arcade import (
    CollisionWorld,
    HeadlessRun,
    convex_hull,
    run_view,
    sprite_for_shape,
)
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.shapes import Circle, Polygon, Triangle

WIDTH, HEIGHT = 800, 600
TITLE = "arcade_collide - space shooter"
SHIP = Triangle((22, 0), (-12, 9), (-12, -9))
BULLET = Circle(3)
ROCK_RADIUS = {3: 44.0, 2: 26.0, 1: 14.0}
ROCK_POINTS = {3: 20, 2: 50, 1: 100}
BULLET_SPEED, BULLET_TICKS, FIRE_TICKS = 520.0, 70, 8
TURN_RATE, THRUST = 240.0, 260.0
WRAP = 50.0
"""How far past an edge a sprite goes before it re-enters at the other (the largest
rock's radius is 44, so both jumps happen off-screen)."""
SHIP_COLOR = (230, 240, 255, 255)
ROCK_COLOR = (150, 140, 130, 255)
BULLET_COLOR = (255, 220, 60, 255)
BACKGROUND = (8, 10, 24)


def heading(angle: float) -> tuple[float, float]:
    """Unit vector the ship's nose points along; ``Sprite.angle`` turns clockwise."""
    radians = math.radians(angle)
    return math.cos(radians), -math.sin(radians)


def rock_shape(size: int, rng: random.Random) -> Polygon:
    """A lumpy but convex outline: jittered radii, then the hull drops any dents."""
    r = ROCK_RADIUS[size]
    turns = sorted(rng.uniform(0, 2 * math.pi) for _ in range(5)) + [
        i * math.pi / 4 for i in range(8)
    ]
    points = [(r * rng.uniform(0.8, 1.0) * math.cos(t), r * rng.uniform(0.8, 1.0) * math.sin(t))
              for t in sorted(turns)]
    return Polygon(tuple(convex_hull(points)))


class SpaceShooter(arcade.View):
    """The game. Tests drive it with :meth:`turn`, :meth:`thrust`, :meth:`fire`."""

    def __init__(self, asteroids: int = 6, seed: int = 3) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.world = CollisionWorld()
        self.ship = sprite_for_shape(SHIP, SHIP_COLOR, center_x=WIDTH / 2, center_y=HEIGHT / 2)
        self.ships = arcade.SpriteList()
        self.ships.append(self.ship)
        self.world.add_sprite(self.ship, SHIP, velocity=(0, 0), kind="ship")
        self.rocks = arcade.SpriteList()
        self.bullets = arcade.SpriteList()
        self.world.on_collision("bullet", "rock", start=self.on_bullet_hits_rock)
        self.world.on_collision("ship", "rock", start=self.on_ship_hits_rock)
        self.score = self.hits = self.ship_hits = self.events = 0
        self.turning = 0
        self.held_turns: list[int] = []
        self.thrusting = False
        self.cooldown = 0
        self.bullet_age: dict[arcade.Sprite, int] = {}
        for _ in range(asteroids):
            # Rocks start away from the ship, in a ring.
            t = self.rng.uniform(0, 2 * math.pi)
            x = WIDTH / 2 + math.cos(t) * self.rng.uniform(180, 280)
            y = HEIGHT / 2 + math.sin(t) * self.rng.uniform(150, 260)
            self.spawn_rock(x, y, 3, self.rng.uniform(20, 60), t + math.pi / 2)
        self.text = arcade.Text("", 10, HEIGHT - 24, arcade.color.WHITE, 14)

    # --- input: keys call these; so do tests and the autopilot ------------------------

    def turn(self, direction: int) -> None:
        """-1 turns left (anticlockwise), 1 right, 0 stops turning."""
        self.turning = direction

    def thrust(self, on: bool) -> None:
        """Accelerate along the nose while on."""
        self.thrusting = on

    def fire(self) -> bool:
        """Fire a bullet from the nose, unless the gun is cooling down."""
        if self.cooldown > 0:
            return False
        self.cooldown = FIRE_TICKS
        dx, dy = heading(self.ship.angle)
        vx, vy, _ = self.world.velocity(self.ship)
        bullet = sprite_for_shape(BULLET, BULLET_COLOR, center_x=self.ship.center_x + dx * 24,
                                  center_y=self.ship.center_y + dy * 24)
        self.bullets.append(bullet)
        self.world.add_sprite(bullet, BULLET, velocity=(vx + dx * BULLET_SPEED,
                                                        vy + dy * BULLET_SPEED), kind="bullet")
        self.bullet_age[bullet] = 0
        return True

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol in (arcade.key.LEFT, arcade.key.RIGHT):
            self.held_turns.append(symbol)
            self.turn(-1 if symbol == arcade.key.LEFT else 1)
        elif symbol == arcade.key.UP:
            self.thrust(True)
        elif symbol == arcade.key.SPACE:
            self.fire()

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        if symbol in (arcade.key.LEFT, arcade.key.RIGHT):
            # The arrow still held (the last one pressed) keeps turning.
            self.held_turns = [key for key in self.held_turns if key != symbol]
            last = self.held_turns[-1] if self.held_turns else None
            self.turn(0 if last is None else (-1 if last == arcade.key.LEFT else 1))
        elif symbol == arcade.key.UP:
            self.thrust(False)

    # --- the game ---------------------------------------------------------------------

    def spawn_rock(self, x: float, y: float, size: int, speed: float, direction: float) -> None:
        """Add an asteroid of ``size`` (3 big .. 1 small) drifting and turning."""
        shape = rock_shape(size, self.rng)
        rock = sprite_for_shape(shape, ROCK_COLOR, outline=(220, 210, 200, 255),
                                center_x=x, center_y=y, angle=self.rng.uniform(0, 360))
        rock.properties["size"] = size
        self.rocks.append(rock)
        velocity = (speed * math.cos(direction), speed * math.sin(direction))
        self.world.add_sprite(rock, shape, velocity=velocity,
                              angular=self.rng.uniform(-90, 90), kind="rock")

    def on_bullet_hits_rock(self, bullet: arcade.Sprite, rock: arcade.Sprite, _: Contact) -> None:
        size = int(rock.properties["size"])
        self.hits += 1
        self.score += ROCK_POINTS[size]
        bullet.remove_from_sprite_lists()  # also leaves the CollisionWorld
        rock.remove_from_sprite_lists()
        del self.bullet_age[bullet]
        if size > 1:
            # The halves fly apart across the bullet's path.
            across = math.atan2(bullet.center_y - rock.center_y, bullet.center_x - rock.center_x)
            for side in (-1, 1):
                self.spawn_rock(rock.center_x, rock.center_y, size - 1, 70.0,
                                across + side * math.pi / 2)

    def on_ship_hits_rock(self, ship: arcade.Sprite, rock: arcade.Sprite, _: Contact) -> None:
        self.ship_hits += 1

    def on_fixed_update(self, delta_time: float) -> None:
        ship = self.ship
        ship.angle += self.turning * TURN_RATE * delta_time
        if self.thrusting:
            vx, vy, _ = self.world.velocity(ship)
            dx, dy = heading(ship.angle)
            self.world.set_velocity(ship, vx + dx * THRUST * delta_time,
                                    vy + dy * THRUST * delta_time)
        self.cooldown = max(0, self.cooldown - 1)
        before = self.hits + self.ship_hits
        self.world.step(delta_time)
        self.events += self.hits + self.ship_hits - before
        for bullet in list(self.bullet_age):
            self.bullet_age[bullet] += 1
            if self.bullet_age[bullet] > BULLET_TICKS:
                del self.bullet_age[bullet]
                bullet.remove_from_sprite_lists()
        # Leaving one edge re-enters at the other, still off-screen, so nothing pops into
        # view; the world reads the jump next tick.
        for sprite in [ship, *self.rocks]:
            if not -WRAP <= sprite.center_x <= WIDTH + WRAP:
                sprite.center_x = (sprite.center_x + WRAP) % (WIDTH + 2 * WRAP) - WRAP
            if not -WRAP <= sprite.center_y <= HEIGHT + WRAP:
                sprite.center_y = (sprite.center_y + WRAP) % (HEIGHT + 2 * WRAP) - WRAP

    def autopilot(self) -> None:
        """A scripted player: turn towards the nearest rock, fire when lined up."""
        if not self.rocks:
            self.turn(0)
            return
        rock = min(self.rocks, key=lambda r: arcade.get_distance_between_sprites(self.ship, r))
        want = -math.degrees(math.atan2(rock.center_y - self.ship.center_y,
                                        rock.center_x - self.ship.center_x))
        error = (want - self.ship.angle + 180.0) % 360.0 - 180.0
        self.turn(0 if abs(error) < 4 else (1 if error > 0 else -1))
        if abs(error) < 8:
            self.fire()

    def on_draw(self) -> None:
        self.clear(color=BACKGROUND)
        self.rocks.draw()
        self.bullets.draw()
        self.ships.draw()
        self.text.text = (
            f"score {self.score}   rocks {len(self.rocks)}   hits taken {self.ship_hits}"
        )
        self.text.draw()


def run_headless(
    seconds: float = 4.0, *, window: arcade.Window | None = None, seed: int = 3,
    asteroids: int = 6, autopilot: bool = True,
) -> tuple[SpaceShooter, HeadlessRun]:
    """Play ``seconds`` of game time with the autopilot; return the game and the run."""

    def script(game: SpaceShooter, tick: int) -> None:
        if autopilot:
            game.autopilot()

    return run_view(
        lambda: SpaceShooter(asteroids, seed), max(1, round(seconds * 60)), window=window,
        size=(WIDTH, HEIGHT), title=TITLE, before_tick=script,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshot", default="docs/images/space_shooter.png")
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args()
    if arcade.headless:
        game, run = run_headless(args.seconds)
        run.save_image(args.screenshot)
        print(f"space shooter (headless): {run.ticks} ticks, {run.game_seconds:.1f} s game time, "
              f"{game.events} collision events, {game.hits} rocks hit, score {game.score}, "
              f"{run.update_ms:.2f} ms/tick update, {run.draw_ms:.2f} ms/frame draw; "
              f"screenshot {args.screenshot}")
        return
    window = arcade.Window(WIDTH, HEIGHT, TITLE)
    window.show_view(SpaceShooter())
    arcade.run()


if __name__ == "__main__":
    main()

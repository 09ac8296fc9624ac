"""Breakout: a ball bounces off a paddle, walls and rotated bricks using the contact normal.

Left/right arrows or the mouse move the paddle. The ball is a sprite that defines
``on_collision_start(other, contact)``: the CollisionWorld calls it with the normal
pointing from the ball towards what it hit, and the ball reflects its velocity about it.
Bricks are rotated rectangles, so the ball leaves them at honest angles.

Run: ``python examples/breakout.py``. With ``ARCADE_HEADLESS=1`` the paddle follows
the ball by itself for a few seconds off-screen, then a screenshot is saved.
"""

from __future__ import annotations

import argparse
import math

import arcade

from arcade_collide.arcade import CollisionWorld, HeadlessRun, run_view
from arcade_collide.geometry.contact import Contact

WIDTH, HEIGHT = 800, 600
TITLE = "arcade_collide - breakout"
BALL_SPEED, PADDLE_SPEED = 380.0, 520.0
PADDLE_Y = 40.0
WALL, PADDLE_HALF, BALL_RADIUS = 12.0, 55.0, 8.0
MIN_RISE = math.sin(math.radians(20.0))
"""Smallest vertical share of the ball's speed after a bounce (no endless flat rallies)."""
BACKGROUND = (14, 16, 30)
BALL_COLOR = (255, 255, 255)
PADDLE_COLOR = (90, 200, 255)
WALL_COLOR = (60, 64, 90)
ROW_COLORS = [(240, 90, 90), (240, 160, 70), (230, 220, 80), (110, 210, 120)]


class Ball(arcade.SpriteCircle):
    """The ball: bounces off whatever it starts touching."""

    def __init__(self, game: Breakout) -> None:
        super().__init__(int(BALL_RADIUS), BALL_COLOR)
        self.game = game

    def on_collision_start(self, other: arcade.Sprite, contact: Contact) -> None:
        self.game.bounce(other, contact)


class Breakout(arcade.View):
    """The game. Tests drive the paddle with :meth:`move_paddle` or :meth:`autopilot`."""

    def __init__(self, seed_angle: float = 60.0) -> None:
        super().__init__()
        self.world = CollisionWorld()
        self.walls = arcade.SpriteList()
        half = WALL / 2
        for x, y, w, h in ((half, HEIGHT / 2, WALL, HEIGHT),
                           (WIDTH - half, HEIGHT / 2, WALL, HEIGHT),
                           (WIDTH / 2, HEIGHT - half, WIDTH, WALL)):
            self.walls.append(arcade.SpriteSolidColor(w, h, x, y, WALL_COLOR))
        # Walls and bricks are static: never tested against each other. A brick that
        # leaves its list (remove_from_sprite_lists) leaves the world too.
        self.world.add_sprite_list(self.walls, kind="wall", static=True)
        self.bricks = arcade.SpriteList()
        for row, color in enumerate(ROW_COLORS):
            for col in range(8):
                # Alternate tilts: the rotation is part of the pose, not of the shape.
                tilt = 12.0 if (row + col) % 2 else -12.0
                brick = arcade.SpriteSolidColor(76, 22, 70 + col * 94, 400 + row * 46, color,
                                                angle=tilt)
                self.bricks.append(brick)
        self.world.add_sprite_list(self.bricks, kind="brick", static=True)
        self.paddle = arcade.SpriteSolidColor(2 * PADDLE_HALF, 14, WIDTH / 2, PADDLE_Y,
                                              PADDLE_COLOR)
        self.world.add_sprite(self.paddle, kind="paddle")
        self.ball = Ball(self)
        # hull=False: a true circle, not the octagon hit box Arcade gives a SpriteCircle,
        # so the bounce normal off a rotated brick's corner turns smoothly.
        self.world.add_sprite(self.ball, velocity=(0, 0), kind="ball", hull=False)
        self.movers = arcade.SpriteList()
        self.movers.extend([self.paddle, self.ball])
        self.score = self.paddle_bounces = self.lives_lost = 0
        self.paddle_direction = 0
        self.held_keys: list[int] = []
        self.serve(seed_angle)
        self.text = arcade.Text("", 20, 20, arcade.color.WHITE, 14)

    def serve(self, degrees: float) -> None:
        """Put the ball above the paddle, leaving at ``degrees`` from the x axis."""
        self.ball.position = (self.paddle.center_x, PADDLE_Y + 40)
        radians = math.radians(degrees)
        self.world.set_velocity(self.ball, BALL_SPEED * math.cos(radians),
                                BALL_SPEED * math.sin(radians))

    def bounce(self, other: arcade.Sprite, contact: Contact) -> None:
        """Reflect the ball's velocity about the contact normal and step out of ``other``."""
        vx, vy, _ = self.world.velocity(self.ball)
        nx, ny = contact.normal
        along = vx * nx + vy * ny
        if along > 0.0:  # still heading into ``other`` (two bricks in one tick bounce once)
            vx, vy = vx - 2.0 * along * nx, vy - 2.0 * along * ny
        if other is self.paddle:
            self.paddle_bounces += 1
            # Where the ball lands on the paddle steers it, as in the original game.
            offset = (self.ball.center_x - other.center_x) / (other.width / 2)
            angle = math.radians(90.0 - 55.0 * max(-1.0, min(1.0, offset)))
            vx, vy = BALL_SPEED * math.cos(angle), BALL_SPEED * abs(math.sin(angle))
        if abs(vy) < MIN_RISE * BALL_SPEED:
            vy = math.copysign(MIN_RISE * BALL_SPEED, vy if vy else -1.0)
            vx = math.copysign(math.sqrt(BALL_SPEED**2 - vy * vy), vx)
        self.world.set_velocity(self.ball, vx, vy)
        # Step out with half a pixel to spare: a ball left exactly touching would still
        # count as touching, and its next hit on the same sprite would bring no new start.
        out = contact.depth + 0.5
        self.ball.position = (self.ball.center_x - nx * out, self.ball.center_y - ny * out)
        if other in self.bricks:
            self.score += 10
            other.remove_from_sprite_lists()  # leaves the world too

    def move_paddle(self, direction: int) -> None:
        """-1 moves the paddle left, 1 right, 0 stops it."""
        self.paddle_direction = direction

    def on_key_press(self, symbol: int, modifiers: int) -> None:
        if symbol in (arcade.key.LEFT, arcade.key.RIGHT):
            self.held_keys.append(symbol)
            self.move_paddle(-1 if symbol == arcade.key.LEFT else 1)

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        if symbol in (arcade.key.LEFT, arcade.key.RIGHT):
            # The arrow still held (the last one pressed) keeps the paddle moving.
            self.held_keys = [key for key in self.held_keys if key != symbol]
            last = self.held_keys[-1] if self.held_keys else None
            self.move_paddle(0 if last is None else (-1 if last == arcade.key.LEFT else 1))

    def on_mouse_motion(self, x: int, y: int, dx: int, dy: int) -> None:
        self.paddle.center_x = _paddle_x(x)

    def autopilot(self) -> None:
        """A scripted player: keep the paddle under the ball."""
        gap = self.ball.center_x - self.paddle.center_x
        self.move_paddle(0 if abs(gap) < 6 else (1 if gap > 0 else -1))

    def on_fixed_update(self, delta_time: float) -> None:
        x = self.paddle.center_x + self.paddle_direction * PADDLE_SPEED * delta_time
        self.paddle.center_x = _paddle_x(x)
        self.world.step(delta_time)
        self.hold_in_walls()
        x, y = self.ball.position
        if not (-20 <= x <= WIDTH + 20 and -20 <= y <= HEIGHT + 20):  # missed
            self.lives_lost += 1
            self.serve(60.0)

    def hold_in_walls(self) -> None:
        """Turn the ball back if it is in a wall and still heading into it.

        A contact that never ended brings no new start: when the paddle steers the ball
        back towards a wall it bounced off in the same tick, the ball stays touching
        that wall, and only this check turns it round.
        """
        x, y = self.ball.position
        vx, vy, _ = self.world.velocity(self.ball)
        turned_x = (x - BALL_RADIUS < WALL and vx < 0) or (
            x + BALL_RADIUS > WIDTH - WALL and vx > 0
        )
        turned_y = y + BALL_RADIUS > HEIGHT - WALL and vy > 0
        if turned_x or turned_y:
            self.world.set_velocity(self.ball, -vx if turned_x else vx, -vy if turned_y else vy)

    def on_draw(self) -> None:
        self.clear(color=BACKGROUND)
        self.walls.draw()
        self.bricks.draw()
        self.movers.draw()
        self.text.text = f"score {self.score}  bricks {len(self.bricks)}  missed {self.lives_lost}"
        self.text.draw()


def _paddle_x(x: float) -> float:
    """``x`` kept where the paddle stays clear of the side walls."""
    return min(max(x, WALL + PADDLE_HALF), WIDTH - WALL - PADDLE_HALF)


def run_headless(
    seconds: float = 6.0, *, window: arcade.Window | None = None, autopilot: bool = True
) -> tuple[Breakout, HeadlessRun]:
    """Play ``seconds`` of game time with the autopilot; return the game and the run."""

    def script(game: Breakout, tick: int) -> None:
        if autopilot:
            game.autopilot()

    return run_view(Breakout, max(1, round(seconds * 60)), window=window,
                    size=(WIDTH, HEIGHT), title=TITLE, before_tick=script)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screenshot", default="docs/images/breakout.png")
    parser.add_argument("--seconds", type=float, default=6.0)
    args = parser.parse_args()
    if arcade.headless:
        game, run = run_headless(args.seconds)
        run.save_image(args.screenshot)
        print(f"breakout (headless): {run.ticks} ticks, score {game.score}, "
              f"{game.paddle_bounces} paddle bounces, {len(game.bricks)} bricks left, "
              f"{run.update_ms:.2f} ms/tick; screenshot {args.screenshot}")
        return
    window = arcade.Window(WIDTH, HEIGHT, TITLE)
    window.show_view(Breakout())
    arcade.run()


if __name__ == "__main__":
    main()

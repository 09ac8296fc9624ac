"""Breakout, headless: the ball bounces off the paddle and breaks bricks; pixels match poses."""

from __future__ import annotations

import arcade
import pytest
from example_loader import load_example

from arcade_collide.arcade import pixel_at
from arcade_collide.geometry.pose import rotation, to_world

breakout = load_example("breakout")


def test_the_ball_bounces_off_the_paddle_and_breaks_bricks(window: arcade.Window) -> None:
    game, run = breakout.run_headless(7.0, window=window)
    assert game.paddle_bounces >= 1
    assert game.score > 0 and len(game.bricks) == 32 - game.score // 10
    assert game.lives_lost == 0
    assert run.image is not None
    assert pixel_at(run.image, *game.ball.position) == breakout.BALL_COLOR
    assert pixel_at(run.image, *game.paddle.position) == breakout.PADDLE_COLOR
    # Rotated bricks: points near each corner (placed with the world's pose, angle
    # clockwise) are brick-coloured, and the corners of the brick's axis-aligned
    # bounds, which a rotated rectangle leaves empty, show the background.
    xy, angle = game.world.poses()
    for row, sprite in enumerate(game.world.sprites()):
        if sprite not in game.bricks:
            continue
        x, y = (float(v) for v in xy[row])
        cos, sin = rotation(float(angle[row]))
        for cx, cy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            inside = to_world((cx * 0.4 * sprite.width, cy * 0.4 * sprite.height), x, y, cos, sin)
            assert pixel_at(run.image, *inside) == sprite.color[:3]
        half_w = 0.5 * sprite.width * abs(cos) + 0.5 * sprite.height * abs(sin)
        half_h = 0.5 * sprite.width * abs(sin) + 0.5 * sprite.height * abs(cos)
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            corner = (x + sx * (half_w - 2), y + sy * (half_h - 2))
            assert pixel_at(run.image, *corner) == breakout.BACKGROUND


def test_the_contact_normal_reflects_the_ball(window: arcade.Window) -> None:
    def drop(game: breakout.Breakout, tick: int) -> None:
        if tick == 0:
            game.serve(-90.0)  # straight down onto the paddle's centre

    game, _ = breakout.run_view(breakout.Breakout, 15, window=window, before_tick=drop)
    vx, vy, _ = game.world.velocity(game.ball)
    assert game.paddle_bounces == 1
    assert vy > 0 and abs(vx) < 0.2 * breakout.BALL_SPEED
    assert game.ball.bottom >= game.paddle.top - 1e-6


@pytest.mark.parametrize("side", [-1, 1])
def test_a_ball_meeting_wall_and_paddle_at_once_stays_in_the_field(
    window: arcade.Window, side: int
) -> None:
    # The paddle steers the ball back towards the wall it bounced off in the same tick.
    def corner(game: breakout.Breakout, tick: int) -> None:
        if tick == 0:
            game.paddle.center_x = 400 + side * 333  # against the wall
            game.ball.position = (400 + side * 376, 62)
            game.world.set_velocity(game.ball, side * 138.7, -353.8)
        x, y = game.ball.position
        assert breakout.WALL - 8 <= x <= breakout.WIDTH - breakout.WALL + 8 and y < 600

    game, _ = breakout.run_view(breakout.Breakout, 120, window=window, before_tick=corner,
                                capture=False)
    assert game.lives_lost == 0


def test_no_bounce_leaves_the_ball_flat(window: arcade.Window) -> None:
    rise: list[float] = []

    def watch(game: breakout.Breakout, tick: int) -> None:
        game.autopilot()
        rise.append(abs(game.world.velocity(game.ball)[1]))

    # This serve once sent the ball flat between the side walls for 20 seconds.
    breakout.run_view(lambda: breakout.Breakout(153.8447980644949), 600, window=window,
                      before_tick=watch, capture=False)
    assert min(rise[1:]) >= breakout.MIN_RISE * breakout.BALL_SPEED - 1e-9


def test_releasing_one_arrow_keeps_the_other_held_arrow_moving(window: arcade.Window) -> None:
    game = breakout.Breakout()
    game.on_key_press(arcade.key.LEFT, 0)
    game.on_key_press(arcade.key.RIGHT, 0)
    assert game.paddle_direction == 1
    game.on_key_release(arcade.key.RIGHT, 0)
    assert game.paddle_direction == -1
    game.on_key_release(arcade.key.LEFT, 0)
    assert game.paddle_direction == 0
    game.on_mouse_motion(0, 0, 0, 0)
    assert game.paddle.left == breakout.WALL
    game.world.close()

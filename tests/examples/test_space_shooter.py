"""The space shooter, played headless: bullets break rocks, sprites are drawn at their poses."""

from __future__ import annotations

import arcade
from example_loader import load_example

from arcade_collide.arcade import pixel_at
from arcade_collide.geometry.pose import rotation, to_world

shooter = load_example("space_shooter")


def test_a_bullet_fired_at_an_asteroid_splits_it_and_scores(window: arcade.Window) -> None:
    def aim_once(game: shooter.SpaceShooter, tick: int) -> None:
        if tick == 0:
            game.spawn_rock(650, 300, 3, 0.0, 0.0)  # dead ahead, not moving
            game.fire()

    game, _ = shooter.run_view(
        lambda: shooter.SpaceShooter(asteroids=0), 60, window=window, before_tick=aim_once
    )
    assert game.hits == 1
    assert game.score == shooter.ROCK_POINTS[3]
    assert [rock.properties["size"] for rock in game.rocks] == [2, 2]
    assert len(game.bullets) == 0 and len(game.world) == 3  # ship and two halves
    assert all(rock.center_x > 560 for rock in game.rocks)


def test_the_smallest_rock_is_destroyed(window: arcade.Window) -> None:
    def aim_once(game: shooter.SpaceShooter, tick: int) -> None:
        if tick == 0:
            game.ship.angle = 90.0  # clockwise: the nose points down
            game.spawn_rock(400, 120, 1, 0.0, 0.0)
        if tick == 1:
            game.fire()

    game, _ = shooter.run_view(
        lambda: shooter.SpaceShooter(asteroids=0), 40, window=window, before_tick=aim_once
    )
    assert game.hits == 1 and len(game.rocks) == 0


def test_autopilot_clears_rocks_and_sprites_are_drawn_at_their_poses(
    window: arcade.Window,
) -> None:
    game, run = shooter.run_headless(3.0, window=window)
    assert game.hits >= 3 and game.score > 0
    assert run.image is not None
    # Each rock's outline, pulled a little towards its centre and placed with the pose
    # the world holds, must be rock-coloured: sprite and shape agree on position and angle.
    xy, angle = game.world.poses()
    sprites = game.world.sprites()
    checked = 0
    for row, sprite in enumerate(sprites):
        if sprite not in game.rocks:
            continue
        shape = game.world.shapes()[row]
        cos, sin = rotation(float(angle[row]))
        x, y = (float(v) for v in xy[row])
        for vx, vy in shape.local_vertices():
            px, py = to_world((0.75 * vx, 0.75 * vy), x, y, cos, sin)
            if 0 <= px < 800 and 0 <= py < 560 and _alone(game, sprite, px, py):
                assert pixel_at(run.image, px, py) == shooter.ROCK_COLOR[:3]
                checked += 1
    assert checked >= 10
    nose = to_world((16, 0), *game.ship.position, *rotation(game.ship.angle))
    assert pixel_at(run.image, *nose) == shooter.SHIP_COLOR[:3]


def _alone(game: object, sprite: arcade.Sprite, x: float, y: float) -> bool:
    """No other sprite's bounds cover (x, y) (it could be drawn on top)."""
    others = [s for s in game.world.sprites() if s is not sprite]  # type: ignore[attr-defined]
    return not any(s.left <= x <= s.right and s.bottom <= y <= s.top for s in others)


def test_sprites_leaving_an_edge_come_back_from_off_screen(window: arcade.Window) -> None:
    seen: list[tuple[float, float]] = []

    def drift_right(game: shooter.SpaceShooter, tick: int) -> None:
        if tick == 0:
            game.spawn_rock(830, 300, 3, 120.0, 0.0)
        rock = game.rocks[0]
        seen.append((rock.left, rock.right))

    shooter.run_view(lambda: shooter.SpaceShooter(asteroids=0), 30, window=window,
                     before_tick=drift_right, capture=False)
    wrapped = [i for i in range(1, len(seen)) if seen[i][0] < seen[i - 1][0]]
    assert len(wrapped) == 1
    i = wrapped[0]
    assert seen[i - 1][0] > shooter.WIDTH and seen[i][1] < 0  # off-screen on both sides


def test_releasing_one_arrow_keeps_the_other_held_arrow_turning(window: arcade.Window) -> None:
    game = shooter.SpaceShooter(asteroids=0)
    game.on_key_press(arcade.key.LEFT, 0)
    game.on_key_press(arcade.key.RIGHT, 0)
    game.on_key_release(arcade.key.RIGHT, 0)
    assert game.turning == -1
    game.on_key_release(arcade.key.LEFT, 0)
    assert game.turning == 0
    game.world.close()

"""Arcade's sprite_bullets and its port play the same game, tick for tick."""

from __future__ import annotations

import arcade
import pytest
from arcade_traces import GAMES, same_game

GAME = GAMES["sprite_bullets"]
TICKS = 1200


@pytest.mark.parametrize("seed", [7, 11])
def test_the_port_plays_the_originals_game(window: arcade.Window, seed: int) -> None:
    original = same_game(GAME, window, TICKS, seed)
    # Bullets hit coins and miss others: both outcomes occur.
    end = original[-1]
    assert 10 <= end.score < 50
    assert len(end.sprites["coin_list"]) == 50 - end.score


def test_an_exactly_touching_bullet_and_coin_is_where_the_engines_may_differ() -> None:
    """The one kind of difference the ports can show: in exact arithmetic this bullet's
    corner lies on the coin's cut corner edge (x + y = 1399.2). Arcade tests world-space
    points it rotated in floats and finds a gap; the world, which counts touching
    shapes as overlapping, finds depth 0. The trace scripts keep clear of such cases."""
    from arcade_collide.arcade import CollisionWorld

    bullet = arcade.Sprite(":resources:images/space_shooter/laserBlue01.png", scale=0.8)
    bullet.angle = -90
    bullet.position = (919.0, 455.8)
    coin = arcade.Sprite(":resources:images/items/coinGold.png", scale=0.4)
    coin.position = (928, 490)
    world = CollisionWorld()
    try:
        world.add_sprite(bullet)
        world.add_sprite(coin)
        assert not arcade.check_for_collision(bullet, coin)
        assert world.overlapping(bullet) == [coin]
        contact = world.explain(bullet, coin).contact
        assert contact is not None and contact.depth == pytest.approx(0.0, abs=1e-9)
    finally:
        world.close()

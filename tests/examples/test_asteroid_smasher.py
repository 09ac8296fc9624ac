"""Arcade's asteroid_smasher and its port play the same game, tick for tick."""

from __future__ import annotations

import arcade
import pytest
from arcade_traces import GAMES, same_game

GAME = GAMES["asteroid_smasher"]
TICKS = 1800


@pytest.mark.parametrize("seed", [7, 11])
def test_the_port_plays_the_originals_game(window: arcade.Window, seed: int) -> None:
    original = same_game(GAME, window, TICKS, seed)
    # The script makes a game worth comparing: bullets split rocks, several fly at once.
    end = original[-1]
    assert end.score >= 2
    assert max(len(t.sprites["bullet_list"]) for t in original) >= 2
    assert max(len(t.sprites["asteroid_list"]) for t in original) > 3


def test_the_port_checks_the_hit_box_hull_not_the_texture(window: arcade.Window) -> None:
    port = GAME.port()
    view = port.GameView()
    view.start_new_game()
    try:
        rock = view.asteroid_list[0]
        (shape,) = [s for s, r in zip(view.world.shapes(), view.world.sprites(), strict=True)
                    if r is rock]
        scaled = {(x * rock.scale_x, y * rock.scale_y) for x, y in rock.hit_box.points}
        assert set(shape.local_vertices()) == scaled
    finally:
        view.world.close()

"""Arcade's sprite_bullets and its port play the same game, tick for tick."""

from __future__ import annotations

from collections.abc import Iterator

import arcade
import pytest
from arcade_traces import GAMES, same_game
from example_loader import example_window

GAME = GAMES["sprite_bullets"]
TICKS = 1200


@pytest.fixture(scope="module")
def window() -> Iterator[arcade.Window]:
    yield from example_window()


@pytest.mark.parametrize("seed", [7, 11])
def test_the_port_plays_the_originals_game(window: arcade.Window, seed: int) -> None:
    original = same_game(GAME, window, TICKS, seed)
    # Bullets hit coins and miss others: both outcomes occur.
    end = original[-1]
    assert 10 <= end.score < 50
    assert len(end.sprites["coin_list"]) == 50 - end.score

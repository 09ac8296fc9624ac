"""Arcade's ``line_of_sight`` example and its port, driven alike and compared tick by tick.

Both games get the same walls (:mod:`random` seeded alike before ``setup()``) and the
same key presses (the port's scripted :func:`walk`, pressed on each view's own
``on_key_press``/``on_key_release``). Each tick runs ``on_update``, then asks whether the
enemy sees the player as the game's ``on_draw`` asks it (``arcade.has_line_of_sight``,
``world.has_line_of_sight`` in the port); the last tick is drawn, and the sight line's
colour (red: seen) must agree. Per tick:

* the player's position is identical (both move with Arcade's own physics engine);
* the port's answer is the exact one: whether the closed segment from the player to the
  enemy meets a wall's hit-box polygon, by shapely (touching counts as blocked);
* where the original's answer differs, Arcade's sampling explains it: the segment meets
  the walls only in pieces holding none of the points ``arcade.has_line_of_sight`` tests
  (one every 2 px from the player: ``0, 2, 4, ...`` px along the segment, never the
  enemy's own spot unless it falls on one).

Over the six walks of :data:`SEEDS` (3,900 ticks) the traces differ on 80 ticks, every
one of them the original seeing the player through a wall: the segment cuts a tile's
corner with a piece 0.03-1.58 px long that lies between two consecutive sample points.
62 of the 80 are one spot of seed 29, where the player stands against a wall for a
second while the sight line cuts 1.58 px off a tile's corner. No tick has the original
blind where the segment is clear.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import arcade
import pytest
import shapely
from arcade.math import get_distance
from example_loader import load_example
from shapely.geometry import LineString, Point

from arcade_collide.arcade import pixel_at

original = importlib.import_module("arcade.examples.line_of_sight")
port = load_example("line_of_sight")

RESOLUTION = 2
"""``check_resolution`` of ``arcade.has_line_of_sight`` as the original calls it."""
SEEDS = (8, 12, 19, 27, 29, 35)
"""Wall layouts whose walks cut tiles' corners between Arcade's sample points."""
DIFFERENCES = 80
"""Ticks of the :data:`SEEDS` walks on which the original's answer differs from the port's."""


@dataclass(frozen=True)
class Tick:
    """What a tick shows."""

    player: tuple[float, float]
    enemy: tuple[float, float]
    sees: bool
    """The sight line is red: the enemy sees the player."""


def sees(game: Any, enemy: arcade.Sprite) -> bool:
    """Whether ``enemy`` sees the player, asked as the game's ``on_draw`` asks it."""
    if isinstance(game, port.GameView):
        return bool(game.world.has_line_of_sight(game.player.position, enemy.position,
                                                 game.wall_list))
    return arcade.has_line_of_sight(game.player.position, enemy.position, game.wall_list)


def play(module: ModuleType, seed: int, window: arcade.Window,
         monkeypatch: pytest.MonkeyPatch) -> tuple[Any, list[Tick]]:
    """Play ``module``'s game through the port's walk; return the game and its trace.

    Frames are not drawn tick by tick (software rendering would take most of the
    test's time): each tick asks what ``on_draw`` asks, and the last tick is drawn with
    ``arcade.draw_line`` recorded, whose colour must give the same answer.
    """
    random.seed(seed)
    game = module.GameView()
    game.setup()
    window.show_view(game)
    (enemy,) = game.enemy_list
    trace = []
    for tick in range(port.walk_ticks()):
        port.walk(game, tick)
        game.on_update(1 / 60)
        trace.append(Tick(tuple(game.player.position), tuple(enemy.position),
                          sees(game, enemy)))
    colours: list[Any] = []
    with monkeypatch.context() as patch:
        patch.setattr(arcade, "draw_line", lambda *args: colours.append(args[4]))
        game.on_draw()
    assert colours == [arcade.color.RED if trace[-1].sees else arcade.color.WHITE]
    return game, trace


def explain(tick: Tick, walls: shapely.Geometry) -> float | None:
    """How long a piece of the segment from player to enemy lies in ``walls`` while no
    point Arcade tests falls in it: the longest piece's length, or ``None`` when the
    segment misses the walls or Arcade tested a point inside one (then sampling does not
    explain a sight through the walls).

    The pieces are placed along the segment by their distance from the player, as
    Arcade measures it; Arcade tests the points ``k * RESOLUTION`` px along it for
    ``k = 0 .. distance // RESOLUTION``.
    """
    segment = LineString([tick.player, tick.enemy])
    pieces = shapely.get_parts(segment.intersection(walls))
    if len(pieces) == 0:
        return None
    distance = get_distance(*tick.player, *tick.enemy)
    samples = [k * RESOLUTION for k in range(int(distance // RESOLUTION) + 1)]
    for piece in pieces:
        ends = [segment.project(Point(xy)) for xy in piece.coords]
        if any(min(ends) <= s <= max(ends) for s in samples):
            return None
    return max(float(piece.length) for piece in pieces)


def test_the_port_moves_like_the_original_and_sees_exactly(
    window: arcade.Window, monkeypatch: pytest.MonkeyPatch
) -> None:
    missed: list[float] = []
    for seed in SEEDS:
        theirs, their_trace = play(original, seed, window, monkeypatch)
        ours, our_trace = play(port, seed, window, monkeypatch)
        ours.world.close()
        assert [w.position for w in ours.wall_list] == [w.position for w in theirs.wall_list]
        assert [t.player for t in our_trace] == [t.player for t in their_trace]
        walls = shapely.union_all(
            [shapely.Polygon(w.hit_box.get_adjusted_points()) for w in theirs.wall_list]
        )
        for mine, other in zip(our_trace, their_trace, strict=True):
            clear = not LineString([mine.player, mine.enemy]).intersects(walls)
            assert mine.sees == clear, (seed, mine)
            if other.sees != mine.sees:
                assert other.sees, (seed, other)  # never blind where the segment is clear
                piece = explain(other, walls)
                assert piece is not None, (seed, other)
                missed.append(piece)
        assert any(t.sees for t in our_trace) and not all(t.sees for t in our_trace)
    print(f"{len(missed)} visibility differences over {len(SEEDS)} walks, each a piece "
          f"{min(missed):.2f}-{max(missed):.2f} px long of the segment in a wall, between "
          f"two of Arcade's sample points")
    assert len(missed) == DIFFERENCES


def test_the_walk_presses_and_releases_each_key_in_turn() -> None:
    class Keys:
        def __init__(self) -> None:
            self.held: set[int] = set()
            self.log: list[tuple[int, tuple[int, ...]]] = []

        def on_key_press(self, key: int, modifiers: int) -> None:
            assert key not in self.held
            self.held.add(key)

        def on_key_release(self, key: int, modifiers: int) -> None:
            self.held.remove(key)

    keys = Keys()
    held = []
    for tick in range(port.walk_ticks()):
        port.walk(keys, tick)
        held.append(tuple(sorted(keys.held)))
    expected = [tuple(sorted(k)) for ticks, k in port.WALK for _ in range(ticks)] + [()]
    assert held == expected


def test_the_headless_run_draws_the_walk_and_its_sight_line(window: arcade.Window) -> None:
    game, run = port.run_headless(window=window, seed=port.HEADLESS_SEED)
    (enemy,) = game.enemy_list
    sees = game.world.has_line_of_sight(game.player.position, enemy.position, game.wall_list)
    game.world.close()
    assert run.ticks == port.walk_ticks()
    assert run.image is not None
    # The sight line's middle, on screen: the camera keeps its own view of the world.
    middle = ((game.player.center_x + enemy.center_x) / 2,
              (game.player.center_y + enemy.center_y) / 2)
    x, y = game.camera.project(middle)
    assert pixel_at(run.image, x, y) == (arcade.color.RED if sees else arcade.color.WHITE)[:3]

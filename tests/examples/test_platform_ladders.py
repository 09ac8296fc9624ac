"""platform_ladders: Arcade's platform tutorial part 15 and its port, driven with the
same keys, trace the same game: the same hits and score on every tick, the player
within 1 px (Arcade lands up to 0.25 px above a tile, in 0.25 px steps rounded to
0.01 px, climbs ramps and steps by whole pixels, so up to 1 px too high, and stops up
to 1 px short of a wall; the port lands, climbs and stops exactly)."""

from __future__ import annotations

import importlib

import arcade
from engine_traces import Tick, hold, script, trace
from example_loader import load_example

from arcade_collide.arcade import PhysicsEnginePlatformer

original = importlib.import_module("arcade.examples.platform_tutorial.15_ladders_moving_platforms")
port = load_example("platform_ladders")
K = arcade.key

KEYS = script(
    *hold(0, 90, K.RIGHT),  # walk right along the ground
    (30, "press", K.UP),  # jump (and hold UP: no effect until released)
    (31, "release", K.UP),
    *hold(90, 150, K.LEFT),
    (100, "press", K.UP),
    (101, "release", K.UP),
    *hold(150, 330, K.RIGHT),  # on to the ladders and platforms
    (200, "press", K.UP),
    (201, "release", K.UP),
    (260, "press", K.UP),
    (261, "release", K.UP),
    (300, "press", K.UP),
    (301, "release", K.UP),
    *hold(330, 336, K.RIGHT),  # by the moving platform: jump at it as it comes and goes
    *[(tick, action, K.UP) for t in range(340, 520, 30) for tick, action in
      ((t, "press"), (t + 1, "release"))],
    *hold(520, 600, K.LEFT),
)
TICKS = 600


def _run(module: object) -> tuple[list[Tick], object]:
    game = module.GameView()  # type: ignore[attr-defined]
    try:
        game.setup()
        scene = game.scene
        lists = [scene["Platforms"], scene["Moving Platforms"]]
        ticks = trace(game, KEYS, TICKS, lists, score=lambda g: int(g.score))
        return ticks, type(game.physics_engine)
    finally:
        game.close()


def test_traces_match_within_arcade_s_steps() -> None:
    theirs, _ = _run(original)
    ours, engine = _run(port)
    assert engine is PhysicsEnginePlatformer
    assert [t.hits for t in ours] == [t.hits for t in theirs]
    assert [t.score for t in ours] == [t.score for t in theirs]
    assert max(abs(a.x - b.x) for a, b in zip(theirs, ours, strict=True)) < 1.0
    assert max(abs(a.y - b.y) for a, b in zip(theirs, ours, strict=True)) < 1.0

"""sprite_move_walls: Arcade's example and its port, driven with the same keys, trace
the same ticks: same hits and score on every tick, the player within 1 px (Arcade
stops up to 1 px short of a crate, in whole pixels; the port stops flush)."""

from __future__ import annotations

import arcade
import arcade.examples.sprite_move_walls as original
from engine_traces import Tick, hold, script, trace
from example_loader import load_example

from arcade_collide.arcade import PhysicsEngineSimple

port = load_example("sprite_move_walls")
K = arcade.key

KEYS = script(
    *hold(0, 60, K.RIGHT),  # walk right under the row of crates
    *hold(60, 110, K.UP),  # up into the row's underside
    *hold(110, 170, K.RIGHT),  # slide along it, into the far end
    *hold(115, 150, K.UP),
    *hold(170, 200, K.DOWN),
    *hold(200, 320, K.LEFT),  # back left, past the row's left end
    *hold(320, 380, K.UP),
    *hold(380, 440, K.RIGHT),  # on top of the row, into the column of crates
    *hold(440, 470, K.UP),
    *hold(470, 520, K.RIGHT),  # along the column's side
    *hold(520, 560, K.DOWN),  # down onto the row's top
    *hold(525, 600, K.LEFT),
)
TICKS = 620


def _run(module: object) -> list[Tick]:
    game = module.GameView()  # type: ignore[attr-defined]
    game.setup()
    return trace(game, KEYS, TICKS, [game.wall_list])


def test_the_port_uses_the_drop_in_engine(window: arcade.Window) -> None:
    game = port.GameView()
    game.setup()
    assert isinstance(game.physics_engine, PhysicsEngineSimple)


def test_traces_match_within_arcade_s_whole_pixel_stops(window: arcade.Window) -> None:
    theirs, ours = _run(original), _run(port)
    assert [t.hits for t in ours] == [t.hits for t in theirs]
    assert sum(1 for t in ours if t.hits) > 20  # the script does push into crates
    worst = max(max(abs(a.x - b.x), abs(a.y - b.y)) for a, b in zip(theirs, ours, strict=True))
    assert worst < 1.0

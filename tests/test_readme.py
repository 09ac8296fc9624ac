"""The README's code blocks run as printed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"

# arcade.run() would loop forever: play 300 fixed updates and one frame instead.
_DRIVER = """
import arcade

def run():
    window = arcade.get_window()
    view = window.current_view
    for _ in range(300):
        view.on_fixed_update(1 / 60)
    view.on_draw()
    print(tuple(view.sprites[0].color))
    window.close()

arcade.run = run
"""


def _block(heading: str) -> str:
    text = README.read_text()
    found = re.search(rf"## {re.escape(heading)}\n\n```python\n(.*?)```", text, re.S)
    assert found is not None, heading
    return found.group(1)


def test_the_arcade_quick_start_runs_and_the_rock_hits_the_ship() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _DRIVER + _block("Arcade quick start")],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "ARCADE_HEADLESS": "1"},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-4:] == ["(255,", "0,", "0,", "255)"]


def test_the_geometry_and_ecs_blocks_run() -> None:
    for heading in ("Geometry in five lines", "The ECS in ten lines"):
        done = subprocess.run(
            [sys.executable, "-c", _block(heading)],
            capture_output=True, text=True, check=False, timeout=120,
        )
        assert done.returncode == 0, (heading, done.stderr)
        assert done.stderr == "", heading


def test_the_game_physics_block_lands_the_player_on_the_floor() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _block("Game physics: blocking, platformers, Tiled levels")],
        capture_output=True, text=True, check=False, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    position, support = done.stdout.splitlines()[-2:]
    x, y = (float(v) for v in re.findall(r"[-\d.e]+", position)[:2])
    assert x == 131.0  # friction 0.2 of the 300 px/s lost into the floor stops 60 px/s
    assert abs(y - 47.0) < 1e-6  # resting on the floor's top (32) at half its height (15)
    assert "normal=(0.0, 1.0)" in support

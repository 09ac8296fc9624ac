"""The README's code blocks run as printed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from test_docs_pages import DRIVER

README = Path(__file__).resolve().parents[1] / "README.md"
GAME = "An Arcade game: walls, a jumping player, a coin and a line of sight"


def _block(heading: str) -> str:
    text = README.read_text()
    found = re.search(rf"## {re.escape(heading)}\n\n```python\n(.*?)```", text, re.S)
    assert found is not None, heading
    return found.group(1)


def _run(program: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "ARCADE_HEADLESS": "1"},
        timeout=300,
    )


def test_the_readme_stays_short() -> None:
    assert len(README.read_text().splitlines()) <= 150


def test_the_geometry_and_ecs_blocks_run() -> None:
    for heading in ("Geometry in five lines", "The ECS in ten lines"):
        done = _run(_block(heading))
        assert done.returncode == 0, (heading, done.stderr)
        assert done.stderr == "", heading


def test_the_game_takes_the_coin_jumps_the_wall_and_sees_the_goal() -> None:
    done = _run(DRIVER + _block(GAME))
    assert done.returncode == 0, done.stderr
    # score, past the wall (it jumped it: the wall blocks the way along the floor), sight
    assert done.stdout.split()[-3:] == ["1", "True", "True"]


def test_the_wall_blocks_a_player_that_does_not_jump() -> None:
    game = _block(GAME)
    grounded = game.replace("self.engine.jump(15)", "pass")
    assert grounded != game
    done = _run(DRIVER + grounded)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-3:] == ["1", "False", "False"]

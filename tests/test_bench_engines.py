"""A small run of ``benchmarks/bench_engines.py``: the level it builds, and the whole
script's ``--quick`` run on a small level, which must print its table and targets."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

os.environ.setdefault("ARCADE_HEADLESS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_engines as bench


def test_the_level_has_its_tiles_a_ground_row_and_staircases() -> None:
    walls = bench.level(500)
    assert len(walls) == 500
    tops = {sprite.top for sprite in walls}
    assert {0.0 + 16, 32.0 + 16, 64.0 + 16, 96.0 + 16} <= tops  # ground and 1-3 blocks
    assert min(tops) < 0  # the rest is stacked below the ground


def test_quick_run_prints_its_table_and_targets(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--quick", "--tiles", "300"]) == 0
    out = capsys.readouterr().out
    for scene in ("sprite_move_walls", "level of 300 tiles", "platform_ladders"):
        assert f"| {scene} |" in out
        assert f"{scene}: drop-in / Arcade update:" in out
    assert "targets met:" in out

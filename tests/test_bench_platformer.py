"""A small run of ``benchmarks/bench_platformer.py`` (the full run: ``make bench-platformer``).

The level and the scripted input, then the ``--quick`` run (2,000 tiles, 20 bodies),
which must print its table and target lines and leave the bodies on the floors.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

# The script and its sibling ``rounds`` import each other by name, as when run.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_platformer as bench


def test_the_level_has_its_tiles_on_floors_and_bodies_stand_on_them() -> None:
    tiles = bench.tile_centres(100_000)
    assert len(tiles) == 100_000 and len(np.unique(tiles[:, 1])) == bench.FLOORS
    bodies = bench.spawn(tiles, 200)
    floors = np.unique(tiles[:, 1]) + bench.TILE / 2
    assert np.isin(bodies[:, 1] - bench.BODY[1] / 2, floors).all()
    width = tiles[:, 0].max()
    assert bodies[:, 0].min() >= 700 and bodies[:, 0].max() <= width - 600


def test_the_script_turns_and_jumps_every_body_on_its_own_phase() -> None:
    moves, jumps = zip(*(bench.script(t, 4) for t in range(200)), strict=True)
    assert {m for move in moves for m in move.tolist()} == {-1.0, 1.0}
    assert np.array(jumps).sum(axis=0).tolist() == [4, 4, 4, 4]


def test_quick_run_prints_its_table_and_targets(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "| arcade_collide |" in out and "| arcade engines |" in out
    assert "bodies on the ground after the runs: " in out
    assert "targets met:" in out

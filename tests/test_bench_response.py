"""A small run of ``benchmarks/bench_response.py``: resting bodies stay put without
contact events, and the script prints its table and target lines."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_response as bench


def test_resting_bodies_stay_put_and_keep_their_contacts() -> None:
    result = bench.resting(bodies=40, ticks=60, settle=5)
    assert result["drift"] < 0.01
    assert result["flicker"] == 0


def test_walkers_move() -> None:
    result = bench.walking(walkers=10, tiles=2_000, ticks=5, settle=2)
    assert result["tick"] >= result["stage"] > 0.0  # the stage ran inside each tick


def test_quick_run_prints_its_table(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--ticks", "20", "--bodies", "30", "--walkers", "5", "--tiles", "1000"]
    assert bench.main([*argv, "--walk-ticks", "5"]) == 0
    out = capsys.readouterr().out
    assert "resting drift" in out and "(target < 0.01): met" in out
    assert "after settling: 0 (target 0): met" in out

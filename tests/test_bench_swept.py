"""A small run of ``benchmarks/bench_swept.py`` (the full run: ``make bench-swept``).

2,000 thin walls and 50 bullets: the crossings each engine reports over a few ticks
against the sub-stepped reference (the swept bullets miss none, the others miss some),
then the whole script's ``--quick`` run, which must print its table and target lines.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# The script and its sibling ``rounds`` import each other by name, as when run.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_swept as bench


def test_walls_are_thin_and_inside_their_cells() -> None:
    level = bench.make_level(500)
    assert len(level.centres) == 500
    thickness = 2 * level.halves.min(axis=1)
    assert thickness.min() >= bench.THICKNESS[0] and thickness.max() <= bench.THICKNESS[1]
    cell = (level.centres // bench.CELL).astype(int)
    assert (cell[:, 1] * level.cols + cell[:, 0] == range(500)).all()
    low = level.centres - level.halves - cell * bench.CELL
    high = (cell + 1) * bench.CELL - (level.centres + level.halves)
    assert low.min() >= 1.0 - 1e-9 and high.min() >= 1.0 - 1e-9


def test_the_reference_finds_a_wall_crossed_between_samples_of_a_tick() -> None:
    level = bench.Level(
        centres=bench.np.array([[24.0, 24.0]]),
        halves=bench.np.array([[0.5, 10.0]]),
        cols=1,
        size=(48.0, 48.0),
    )
    start = bench.np.array([[0.0, 24.0], [0.0, 36.0]])
    move = bench.np.array([[50.0, 0.0], [50.0, 0.0]])
    bullet, wall, gap = bench.sampled_gaps(level, start, move)
    assert bullet.tolist() == [0, 1] and wall.tolist() == [0, 0]
    assert gap[0] <= 0.0  # through the 1 px wall
    assert gap[1] == pytest.approx(1.0, abs=bench.STEP)  # passes 2 px above its end


def test_swept_bullets_miss_no_crossing_that_others_miss() -> None:
    config = bench.Config(tiles=2_000, bullets=50, count_ticks=8, warmup=1, ticks=2, repeat=1)
    level = bench.make_level(config.tiles)
    scenes = bench.build(level, config.bullets)
    try:
        counts = bench.count_crossings(level, config, scenes)
    finally:
        for scene in scenes.values():
            if isinstance(scene, bench.EcsScene):
                scene.close()
    (swept, plain, peer) = counts.values()
    assert swept[0] > 50  # crossings happen, and the swept bullets report them all
    assert swept[1:3] == (0, 0)
    assert plain[1] > 0 and peer[1] > 0  # the bullets jump over walls between ticks
    assert plain[0] + plain[1] == swept[0] == peer[0] + peer[1]


def test_quick_run_prints_its_table_and_targets(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "arcade_collide, swept" in out and "pymunk" in out
    assert "swept bullets: crossings missed: 0 (target <= 0): met" in out
    assert "targets met:" in out

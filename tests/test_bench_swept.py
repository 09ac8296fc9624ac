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


@pytest.mark.parametrize("bounce", [False, True])
def test_swept_bullets_miss_no_crossing_that_others_miss(bounce: bool) -> None:
    config = bench.Config(tiles=2_000, bullets=50, count_ticks=8, warmup=1, ticks=2, repeat=1)
    level = bench.make_level(config.tiles)
    scenes = bench.build(level, config.bullets, bounce)
    try:
        counts = bench.count_crossings(level, config, scenes, bounce)
    finally:
        for scene in scenes.values():
            if isinstance(scene, bench.EcsScene):
                scene.close()
    (swept, plain, peer) = counts.values()
    assert swept[0] > 50  # crossings happen, and the swept bullets report them all
    assert swept[1:3] == (0, 0)
    assert plain[1] > 0 and peer[1] > 0  # the bullets jump over walls between ticks
    assert plain[0] + plain[1] == swept[0] == peer[0] + peer[1]


def test_bullets_leaving_the_level_are_replaced_or_turned_back() -> None:
    size = (100.0, 100.0)
    for bounce in (False, True):
        shots = bench.Shots(3, size, bounce=bounce)
        shots.pos[:] = [[99.5, 50.0], [50.0, 0.5], [50.0, 50.0]]
        shots.vel[:] = [[bench.SPEED, 0.0], [0.0, -bench.SPEED], [0.0, bench.SPEED / 4]]
        new, turned = shots.advance()
        if bounce:
            assert new.tolist() == [] and turned.tolist() == [0, 1]
            assert shots.vel[:2].tolist() == [[-bench.SPEED, 0.0], [0.0, bench.SPEED]]
            assert shots.life.tolist() == [0, 1, 2]
        else:
            assert new.tolist() == [0, 1] and turned.tolist() == []
            assert shots.life.tolist() == [3, 4, 2]
            assert ((shots.pos[:2] >= 0) & (shots.pos[:2] <= 100)).all()


def test_quick_run_prints_its_table_and_targets(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "arcade_collide, swept" in out and "pymunk" in out
    assert out.count("swept bullets, replaced: crossings missed: 0 (target <= 0): met") == 2
    assert out.count("swept bullets, bouncing: crossings missed: 0 (target <= 0): met") == 2
    assert "targets met:" in out

"""benchmarks/bench_examples.py runs, tiny, and prints its table."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_bench_examples_runs_tiny() -> None:
    env = dict(os.environ, ARCADE_HEADLESS="1")
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_examples.py"),
         "--ticks", "40", "--rounds", "1"],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert rows[0].startswith("| example |")
    names = {row.split("|")[1].strip() for row in rows[1:]}
    assert {"asteroid_smasher", "sprite_bullets"} <= names
    assert all(row.rstrip().endswith("| yes |") for row in rows[1:])

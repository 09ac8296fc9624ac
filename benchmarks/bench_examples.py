"""Arcade's own example games against their arcade_collide ports: update time per tick.

Each example in :data:`arcade_traces.GAMES` (``tests/examples/arcade_traces.py``; add an
entry there to time another port) is played headless with its scripted input and a
fixed random seed, original and port taking turns in rounds, and ``on_update`` is
timed tick by tick. Per example the table gives the mean ms per tick of each (best
round), their ratio (port / original; the issue's target is at most 1), and whether
the two played the same game (equal final score and lives).

Run: ``ARCADE_HEADLESS=1 python benchmarks/bench_examples.py [--example NAME] [--ticks N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "examples")]  # this checkout's package

import arcade  # noqa: E402
from arcade_traces import GAMES, ExampleGame, play  # noqa: E402


def measure(
    game: ExampleGame, window: arcade.Window, ticks: int, rounds: int, seed: int
) -> tuple[float, float, bool]:
    """Best-round mean ms per tick of the original and the port, and whether their final
    score and lives agree."""
    best = {"original": float("inf"), "port": float("inf")}
    ends = {}
    modules = {"original": game.original(), "port": game.port()}
    for _ in range(rounds):
        for way, module in modules.items():
            trace, took = play(game, module, window, ticks, seed)
            best[way] = min(best[way], statistics.fmean(took) * 1000.0)
            ends[way] = (trace[-1].score, trace[-1].lives)
    return best["original"], best["port"], ends["original"] == ends["port"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--example", action="append", choices=sorted(GAMES),
                        help="time only this example (repeat for several); default: all")
    parser.add_argument("--ticks", type=int, default=1800, help="ticks per game (>= 1)")
    parser.add_argument("--rounds", type=int, default=3, help="games per way (>= 1)")
    parser.add_argument("--seed", type=int, default=7, help="random seed of every game")
    args = parser.parse_args(argv)
    if args.ticks < 1 or args.rounds < 1:
        parser.error("--ticks and --rounds must be >= 1")
    window = arcade.Window(1280, 720, "bench_examples")
    try:
        print(f"{args.ticks} ticks per game, best of {args.rounds} rounds, seed {args.seed}")
        print("| example | original ms/tick | port ms/tick | port / original | same game |")
        print("|---|---:|---:|---:|---|")
        for name in args.example or sorted(GAMES):
            original, port, same = measure(GAMES[name], window, args.ticks, args.rounds,
                                           args.seed)
            print(f"| {name} | {original:.3f} | {port:.3f} | {port / original:.2f} | "
                  f"{'yes' if same else 'NO'} |", flush=True)
    finally:
        window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

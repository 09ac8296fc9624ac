"""Timing helpers shared by the benchmarks: timed ticks, alternating rounds, target lines.

A scene is measured in rounds: each way of running it (an engine, or a pattern and the
steady world it is compared with) runs ``ticks`` timed ticks after ``warmup`` untimed
ones, the ways take turns, and each keeps its run with the lowest median. The machine
may be shared: a busy neighbour slows whichever round it overlaps, and alternating
rounds keeps it from deciding a ratio. Ways that share one world take turns tick by
tick instead (:func:`interleave`), so that each ratio is read from neighbouring ticks.
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

CLOCKS: dict[str, Callable[[], float]] = {
    "wall": time.perf_counter,
    "cpu": time.process_time,
}
"""``wall``: elapsed time, what a game feels on a machine of its own. ``cpu``: this
process's CPU time, which other jobs on a shared machine disturb far less (they take
the processor away between ticks and inside them)."""

_clock = ["wall"]


def use_clock(name: str) -> str:
    """Time every later tick with clock ``name`` (a key of :data:`CLOCKS`); return a line
    naming it for the benchmark's output."""
    _clock[0] = name
    return f"clock: {name} (time.{CLOCKS[name].__name__})"


def timed(
    step: Callable[[], object],
    warmup: int,
    ticks: int,
    before: Callable[[], object] | None = None,
) -> list[float]:
    """Milliseconds of each of ``ticks`` calls of ``step`` after ``warmup`` calls.

    ``before`` (the game's own work between ticks, such as bouncing movers off the
    level's edges) runs before every call of ``step``, outside the timed part.
    """
    # Start each measurement without the previous scenes' garbage (pymunk spaces and
    # sprite lists hold reference cycles); the garbage collector stays enabled.
    gc.collect()
    for _ in range(warmup):
        if before is not None:
            before()
        step()
    clock = CLOCKS[_clock[0]]
    out = []
    for _ in range(ticks):
        if before is not None:
            before()
        start = clock()
        step()
        out.append((clock() - start) * 1e3)
    return out


def alternate(ways: dict[str, Callable[[], list[float]]], repeat: int) -> dict[str, list[float]]:
    """Run each way's round ``repeat`` times, taking turns; keep each way's best run.

    Returns:
        Per way, the milliseconds of its run with the lowest median.
    """
    runs: dict[str, list[list[float]]] = {name: [] for name in ways}
    for _ in range(repeat):
        for name, run in ways.items():
            runs[name].append(run())
    return {name: min(kept, key=statistics.median) for name, kept in runs.items()}


def interleave(
    steps: dict[str, Callable[[], object]], warmup: int, ticks: int, repeat: int
) -> dict[str, list[float]]:
    """Time the ways' steps in turn, tick by tick, in one world: ``warmup`` untimed
    turns, then ``ticks`` timed ones; ``repeat`` such runs, keeping the quietest.

    Each way's step runs next to the others', so a busy neighbour on a shared machine
    slows them alike and their ratio stays, where whole rounds taking turns each meet
    another moment of the machine. For ways that share one world (a pattern and the
    steady world it is compared with).

    Returns:
        Per way, the milliseconds of its ticks in the run whose medians sum lowest.
    """
    clock = CLOCKS[_clock[0]]
    best: dict[str, list[float]] | None = None
    for _ in range(repeat):
        gc.collect()
        for _ in range(warmup):
            for step in steps.values():
                step()
        run: dict[str, list[float]] = {name: [] for name in steps}
        for _ in range(ticks):
            for name, step in steps.items():
                start = clock()
                step()
                run[name].append((clock() - start) * 1e3)
        if best is None or _median_sum(run) < _median_sum(best):
            best = run
    assert best is not None
    return best


def _median_sum(run: dict[str, list[float]]) -> float:
    return sum(statistics.median(values) for values in run.values())


def small_scene(
    targets: Targets,
    plan: tuple[bool, int],
    bodies: Sequence[Any],
    ways: dict[str, Callable[[Any, int, int], Sequence[Any]]],
    target: tuple[str, float],
) -> None:
    """A small world's tick in µs: 2,000 ticks a run (200 when quick), the ways
    alternating; the first way is held to ``target`` (label, most µs per tick).

    Args:
        targets: Where the target line goes.
        plan: ``(quick, repeat)``.
        bodies: The scene, given to each way.
        ways: Per way, ``run(bodies, warmup, ticks)``, whose first item is the ms per tick.
        target: The target's label and its limit in µs.
    """
    quick, repeat = plan
    warmup, ticks = (20, 200) if quick else (100, 2000)
    best = alternate(
        {name: lambda run=run: run(bodies, warmup, ticks)[0] for name, run in ways.items()},
        repeat,
    )
    us = {name: statistics.median(values) * 1e3 for name, values in best.items()}
    print(f"\nSmall: {len(bodies)} moving mixed shapes; µs per tick, median of {ticks} ticks, "
          f"best of {repeat} alternating runs: "
          f"{', '.join(f'{name} {u:.1f}' for name, u in us.items())}", flush=True)
    label, limit = target
    targets.at_most(label, us[next(iter(ways))], limit, " µs")


def ms(values: Sequence[float]) -> str:
    """``median / worst`` of a run in milliseconds, for a table cell."""
    return f"{statistics.median(values):.3f} / {max(values):.3f}"


def number(value: float) -> str:
    """Three significant digits, without an exponent for large values (``4,021``)."""
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"


@dataclass
class Targets:
    """The target lines of a benchmark run: each says what was measured and whether the
    target is met."""

    lines: list[tuple[str, bool]] = field(default_factory=list)

    def check(self, label: str, measured: str, target: str, ok: bool) -> None:
        """Record (and print at once) one target: ``label: measured (target ...): met``."""
        line = f"{label}: {measured} (target {target}): {'met' if ok else 'not met'}"
        self.lines.append((line, ok))
        print(line, flush=True)

    def at_most(self, label: str, value: float, limit: float, unit: str) -> None:
        """A target that ``value`` stays at or under ``limit``."""
        self.check(label, f"{number(value)}{unit}", f"<= {limit:g}{unit}", value <= limit)

    def at_least(self, label: str, value: float, limit: float, unit: str) -> None:
        """A target that ``value`` reaches at least ``limit``."""
        self.check(label, f"{number(value)}{unit}", f">= {limit:g}{unit}", value >= limit)

    def summary(self) -> str:
        """Every target line again, then how many are met."""
        met = sum(ok for _, ok in self.lines)
        body = "\n".join(line for line, _ in self.lines)
        return f"{body}\ntargets met: {met} of {len(self.lines)}"

    @property
    def all_met(self) -> bool:
        return all(ok for _, ok in self.lines)

"""Shared helpers of the broad-phase tests: the brute-force reference, and box sets."""

from __future__ import annotations

import numpy as np


def pair_set(i: np.ndarray, j: np.ndarray) -> set[tuple[int, int]]:
    """The pairs ``(i[k], j[k])`` as a set, checking ``i < j`` and that none repeats."""
    assert len(i) == len(j)
    assert (i < j).all()
    pairs = set(zip(i.tolist(), j.tolist(), strict=True))
    assert len(pairs) == len(i), "a pair was reported twice"
    return pairs


def random_boxes(rng: np.random.Generator, n: int, size: float, lattice: bool) -> np.ndarray:
    """``n`` boxes in ``[-50, 50 + size]``, each side at most ``size``; on a unit
    lattice when ``lattice`` (shared edges and corners: touching must count)."""
    low = rng.uniform(-50, 50, (n, 2))
    extent = rng.uniform(0, size, (n, 2))
    if lattice:
        low, extent = np.round(low), np.round(extent)
    return np.hstack([low, low + extent])


def overlapping_pairs_brute_force(aabbs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every pair ``i < j`` of closed boxes that overlap or touch, by the all-pairs test."""
    b = np.asarray(aabbs, dtype=np.float64)
    hit = (
        (b[:, None, 0] <= b[None, :, 2])
        & (b[None, :, 0] <= b[:, None, 2])
        & (b[:, None, 1] <= b[None, :, 3])
        & (b[None, :, 1] <= b[:, None, 3])
    )
    i, j = np.nonzero(np.triu(hit, k=1))
    return i.astype(np.intp), j.astype(np.intp)


_HUGE = 1.7e308

EXTREME_BOXES = np.array(
    [
        [-_HUGE, -_HUGE, _HUGE, _HUGE],
        [0, 0, 5e-324, 5e-324],
        [1, 1, 1, 1],
        [-1e308, 0, 1e308, 1e-300],
        [_HUGE, _HUGE, _HUGE, _HUGE],
        [1e-300, 1e-300, 2e-300, 2e-300],
    ]
)
"""Boxes at both ends of the float range: widths and cell coordinates overflow to
infinity. The first box meets all others; besides those, (1, 3) and (3, 5) touch."""

"""Which rows of a pose table differ from another's: the write-back's first question.

One compiled pass over ``(N, 2)`` positions and ``(N,)`` angles replaces the handful of
numpy calls (comparisons, ``any``, ``all``, counts) that dominate a small world's
write-back, where every call costs more than the arithmetic.
"""

from __future__ import annotations

import numpy as np  # noqa: F401 (the doctest uses it)

from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.compiled import kernel


@kernel(
    "UniTuple(int64, 5)(float64[:, :], float64[:, :], float64[:], float64[:], boolean[::1],"
    " boolean[::1], boolean[::1], boolean[::1])"
)
def pose_changes(
    xy: FloatArray,
    old_xy: FloatArray,
    angle: FloatArray,
    old_angle: FloatArray,
    first: BoolArray,
    second: BoolArray,
    moved: BoolArray,
    turned: BoolArray,
) -> tuple[int, int, int, int, int]:
    """Per row, whether its position (``moved``) and angle (``turned``) differ, written
    into those arrays; returns how many rows moved, turned, changed (either), and
    changed among the rows flagged in ``first`` and among those in ``second``.

    Values compare as ``!=`` does: a NaN differs from everything.

    >>> xy = np.array([[0.0, 0.0], [1.0, 2.0], [3.0, 4.0]])
    >>> old = np.array([[0.0, 0.0], [1.0, 9.0], [3.0, 4.0]])
    >>> angle, old_angle = np.array([0.0, 0.0, 5.0]), np.zeros(3)
    >>> flags = np.array([False, True, True])
    >>> moved, turned = np.empty(3, dtype=bool), np.empty(3, dtype=bool)
    >>> pose_changes(xy, old, angle, old_angle, flags, ~flags, moved, turned)
    (1, 1, 2, 2, 0)
    >>> moved.tolist(), turned.tolist()  # a move, no change, a turn
    ([False, True, False], [False, False, True])
    """
    n_moved = n_turned = n_changed = n_first = n_second = 0
    for k in range(len(angle)):
        m = xy[k, 0] != old_xy[k, 0] or xy[k, 1] != old_xy[k, 1]
        t = angle[k] != old_angle[k]
        moved[k] = m
        turned[k] = t
        n_moved += m
        n_turned += t
        if m or t:
            n_changed += 1
            n_first += first[k]
            n_second += second[k]
    return n_moved, n_turned, n_changed, n_first, n_second


"""Every pair of circles from two small sets that meet, in one compiled pass.

A batch question asks about a few dozen sprites against a kind with a few members (a
gun's bullets against the coins left): testing every pair costs less than making a
grid of the members or working each sprite's reach out in array operations first.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel

Int64Array = NDArray[np.int64]


@kernel(
    "int64(float64[:, ::1], float64[::1], float64, float64, float64[:, ::1], float64[::1],"
    " int64[::1], int64[::1])"
)
def widened_circle_pairs(
    at: FloatArray,
    own: FloatArray,
    allowance: float,
    largest: float,
    centres: FloatArray,
    radii: FloatArray,
    out_q: Int64Array,
    out_s: Int64Array,
) -> int:
    """The pairs ``(q, s)`` whose circles meet (or touch): circle ``q`` about
    ``at[q, 0:2]`` of radius ``own[q]`` widened by the rounding ``allowance`` of any
    pair it can make, circle ``s`` about ``centres[s]`` of radius ``radii[s]``.

    Circle ``q``'s reach is ``own[q] * (1 + 2a) + a * (1 + 2 * largest) + 2a * (|x| + |y|)``
    for ``a = allowance``, with ``largest`` at least every ``radii[s]``: at least
    ``a * (1 + 2 * (|x| + |y|) + 2 * (own[q] + radii[s]))`` beyond ``own[q]``. The pairs
    are written to ``out_q`` and ``out_s`` (room for ``len(at) * len(centres)``) in
    ascending ``q``, then ``s``; returns how many, or -1 when a position in ``at`` is not
    finite (nothing is proven then).

    >>> at, own = np.array([[0.0, 0.0], [10.0, 0.0], [5.0, 9.0]]), np.ones(3)
    >>> centres, radii = np.array([[1.5, 0.0], [12.0, 0.0]]), np.ones(2)
    >>> out_q, out_s = np.empty(6, np.int64), np.empty(6, np.int64)
    >>> m = widened_circle_pairs(at, own, 1e-9, 1.0, centres, radii, out_q, out_s)
    >>> list(zip(out_q[:m].tolist(), out_s[:m].tolist()))  # a hit, a touch; a miss
    [(0, 0), (1, 1)]
    >>> widened_circle_pairs(np.array([[np.nan, 0.0]]), own[:1], 1e-9, 1.0, centres,
    ...                      radii, out_q, out_s)
    -1
    """
    m = 0
    base = allowance * (1.0 + 2.0 * largest)
    grow = 1.0 + 2.0 * allowance
    for q in range(len(at)):
        x = at[q, 0]
        y = at[q, 1]
        if not (np.isfinite(x) and np.isfinite(y)):
            return -1
        reach = own[q] * grow + base + 2.0 * allowance * (abs(x) + abs(y))
        for s in range(len(centres)):
            dx = centres[s, 0] - x
            dy = centres[s, 1] - y
            limit = radii[s] + reach
            if dx * dx + dy * dy <= limit * limit:
                out_q[m] = q
                out_s[m] = s
                m += 1
    return m

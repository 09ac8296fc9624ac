"""Rays and casts against many rows of a world table: the compiled blocks of world queries.

Each block takes a :class:`~.kernel_base.WorldRows` table and the table rows to try
(``candidates``: any order, each once), and a ray in the kernels' form
``(ox, oy, dx, dy, limit)`` (:class:`~.ray_queries.Ray` holds it and turns a kernel
result into a :class:`~arcade_collide.geometry.hits.RayHit`). Results are written as
``(s, nx, ny)`` per hit, ``s`` the ray parameter. Ties at equal ``s`` go to the lower
table row, so a result does not depend on the candidates' order.
"""

from __future__ import annotations

import numpy as np

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.casts import cast_rows
from arcade_collide.geometry.query.kernel_base import ROWS, Int64Array, WorldRows, types
from arcade_collide.geometry.query.rays import ray_row

_F = types.float64
_RAY = (_F,) * 5
_INDEX = types.int64[::1]


@kernel(types.int64(ROWS, _INDEX, *_RAY, _F[::1]))
def ray_first(
    rows: WorldRows, candidates: Int64Array,
    ox: float, oy: float, dx: float, dy: float, limit: float, out: FloatArray,
) -> int:  # fmt: skip
    """The candidate row the ray hits first (-1 when none), its ``(s, nx, ny)`` in ``out``."""
    best = -1
    for t in candidates:
        hit, s, nx, ny = ray_row(rows, t, ox, oy, dx, dy, limit)
        if hit and (best < 0 or s < limit or t < best):
            # ``limit`` shrinks to the best hit: a later hit is nearer or a tie.
            best = t
            limit = s
            out[0] = s
            out[1] = nx
            out[2] = ny
    return best


@kernel(types.int64(ROWS, _INDEX, *_RAY, _INDEX, _F[:, ::1]))
def ray_all(
    rows: WorldRows, candidates: Int64Array,
    ox: float, oy: float, dx: float, dy: float, limit: float,
    out_rows: Int64Array, out: FloatArray,
) -> int:  # fmt: skip
    """Every candidate row the ray hits, nearest first (then by row), into ``out_rows``
    and ``out`` (``(s, nx, ny)`` rows; both as long as ``candidates``); return how many."""
    m = 0
    found = np.empty(len(candidates), dtype=np.int64)
    hits = np.empty((len(candidates), 3))
    for t in np.sort(candidates):
        hit, s, nx, ny = ray_row(rows, t, ox, oy, dx, dy, limit)
        if hit:
            found[m] = t
            hits[m, 0] = s
            hits[m, 1] = nx
            hits[m, 2] = ny
            m += 1
    order = np.argsort(hits[:m, 0], kind="mergesort")
    for k in range(m):
        out_rows[k] = found[order[k]]
        out[k] = hits[order[k]]
    return m


@kernel(types.int64(ROWS, types.int64, ROWS, _INDEX, _F, _F, _F[::1]))
def cast_first(
    rows_a: WorldRows,
    a: int,
    rows: WorldRows,
    candidates: Int64Array,
    tx: float,
    ty: float,
    out: FloatArray,
) -> int:
    """The candidate row of ``rows`` that row ``a`` of ``rows_a``, moved along
    ``(tx, ty)``, touches first (-1 when none), its ``(fraction, px, py, nx, ny)`` in
    ``out`` (:func:`~.casts.cast_rows`)."""
    best = -1
    fraction = 1.0
    hit = np.empty(5)
    for t in candidates:
        if cast_rows(rows_a, a, rows, t, tx, ty, hit) and (
            best < 0 or hit[0] < fraction or (hit[0] == fraction and t < best)
        ):
            best = t
            fraction = hit[0]
            out[:] = hit
    return best


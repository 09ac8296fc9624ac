"""Swept pairs in compiled code: when a shape that moved over a tick first touched another.

A swept pair is a row A of a world table that moved over the tick and a row B of the
same table, with ``d`` the translation of A relative to B over the tick (A's own,
less B's when B's motion is known too). A is taken back along ``d`` from where the
table holds it and cast along ``d`` against B (:func:`~.casts.cast_rows`, exact for
every pair of kinds): the fraction of the tick at the first touch, the contact point,
and the normal from B towards A.

A shape that turned during the tick is cast as the circle about its pose origin that
holds it at every angle (``radius > 0``): conservative, it never misses a touch its
outline made, and it may report one its outline narrowly missed. Points and circles
turn without changing, and need no such circle.
"""

from __future__ import annotations

import numpy as np

from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.casts import cast_rows
from arcade_collide.geometry.query.kernel_base import (
    ROWS,
    Int64Array,
    WorldRows,
    copy_row,
    empty_rows,
    types,
)
from arcade_collide.geometry.shapes import ShapeKind

_POINT, _CIRCLE, _RECT, _TRIANGLE, _POLYGON = (int(kind) for kind in ShapeKind)
_F = types.float64
_INDEX = types.int64[::1]


@kernel(types.void(ROWS, types.int64, _F, _F), inline=True)
def shift_row(rows: WorldRows, t: int, dx: float, dy: float) -> None:
    """Move table row ``t`` of ``rows`` by ``(dx, dy)``, in place."""
    kind = rows.kinds[t]
    r = t - rows.start[kind]
    if kind == _POINT:
        rows.point_xy[r, 0] += dx
        rows.point_xy[r, 1] += dy
    elif kind == _CIRCLE:
        rows.circle_center[r, 0] += dx
        rows.circle_center[r, 1] += dy
    elif kind == _RECT:
        rows.rect_center[r, 0] += dx
        rows.rect_center[r, 1] += dy
        for k in range(4):
            rows.rect_vertices[r, k, 0] += dx
            rows.rect_vertices[r, k, 1] += dy
    elif kind == _TRIANGLE:
        for k in range(3):
            rows.triangle_vertices[r, k, 0] += dx
            rows.triangle_vertices[r, k, 1] += dy
    else:
        for k in range(rows.polygon_vertices.shape[1]):
            rows.polygon_vertices[r, k, 0] += dx
            rows.polygon_vertices[r, k, 1] += dy


@kernel(ROWS(ROWS, types.int64, _F, _F, _F), inline=True)
def _one_row(rows: WorldRows, t: int, radius: float, x: float, y: float) -> WorldRows:
    """A one-row table holding a copy of table row ``t`` of ``rows``, or, when
    ``radius > 0``, the circle of that radius centred at ``(x, y)``."""
    if radius > 0.0:
        one = empty_rows(np.full(1, _CIRCLE, dtype=np.int8), 0)
        one.circle_center[0, 0] = x
        one.circle_center[0, 1] = y
        one.circle_radius[0] = radius
        return one
    kind = rows.kinds[t]
    width = rows.polygon_nverts[t - rows.start[kind]] if kind == _POLYGON else 0
    one = empty_rows(np.full(1, kind, dtype=np.int8), width)
    copy_row(rows, t, one, 0)
    return one


@kernel(
    types.int64(
        ROWS, _INDEX, _INDEX, _F[:, ::1], _F[::1], _F[::1], _F[:, ::1], types.boolean[::1],
        _F[:, ::1],
    )
)  # fmt: skip
def swept_rows(
    rows: WorldRows,
    a: Int64Array,
    b: Int64Array,
    d: FloatArray,
    radius_a: FloatArray,
    radius_b: FloatArray,
    origins: FloatArray,
    hit: BoolArray,
    out: FloatArray,
) -> int:
    """The first touch of each swept pair ``(a[k], b[k])`` of table rows of ``rows``.

    Args:
        rows: The table, every row where it is at the end of the tick.
        a: The moving side of each pair.
        b: The other side.
        d: ``(M, 2)``: A's translation over the tick relative to B.
        radius_a: Per pair, > 0 to cast A as that circle about its pose origin (it
            turned), else 0 for its own outline.
        radius_b: Likewise for B, kept at its end pose.
        origins: ``(M, 4)``: the end-of-tick pose origins of A and of B,
            ``(ax, ay, bx, by)`` (read only for a side cast as a circle).
        hit: Out: whether the pair touched during the tick.
        out: Out, ``(M, 5)``: where ``hit``, ``(fraction, px, py, nx, ny)`` with the
            normal from B towards A; a pair touching at the start has fraction 0.

    Returns:
        How many pairs touched.
    """
    count = 0
    for k in range(len(a)):
        dx = d[k, 0]
        dy = d[k, 1]
        one_a = _one_row(rows, a[k], radius_a[k], origins[k, 0] - dx, origins[k, 1] - dy)
        if radius_a[k] <= 0.0:
            shift_row(one_a, 0, -dx, -dy)
        if radius_b[k] > 0.0:
            one_b = _one_row(rows, b[k], radius_b[k], origins[k, 2], origins[k, 3])
            hit[k] = cast_rows(one_a, 0, one_b, 0, dx, dy, out[k])
        else:
            hit[k] = cast_rows(one_a, 0, rows, b[k], dx, dy, out[k])
        count += hit[k]
    return count

"""Swept pairs in compiled code: when a shape that moved over a tick first touched another.

A swept pair is a row A of a world table that moved over the tick and a row B of the
same table, with ``d`` the translation of A relative to B over the tick (A's own,
less B's when B's motion is known too). A is taken back along ``d`` from where the
table holds it and cast along ``d`` against B (:func:`~.casts.cast_pair`, exact for
every pair of kinds): the fraction of the tick at the first touch, the contact point,
and the normal from B towards A. A pair touching at the start gets its start contact
(:func:`~.casts.start_contact`, depth included) when asked for.

A shape that turned during the tick is cast as the circle about its pose origin that
holds it at every angle (``radius > 0``): conservative, it never misses a touch its
outline made, and it may report one its outline narrowly missed. Points and circles
turn without changing, and need no such circle.
"""

from __future__ import annotations

import numpy as np

from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.casts import (
    cast_circles,
    cast_pair,
    cast_round,
    start_contact,
)
from arcade_collide.geometry.query.kernel_base import (
    ROWS,
    Int64Array,
    WorldRows,
    copy_row,
    empty_rows,
    types,
    unit,
)
from arcade_collide.geometry.query.rays import round_of
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


@kernel(types.void(ROWS, types.int64, _F, _F, _F), inline=True)
def _circle(rows: WorldRows, t: int, x: float, y: float, radius: float) -> None:
    """Make circle row ``t`` of ``rows`` the circle of ``radius`` centred at ``(x, y)``."""
    rows.circle_center[t, 0] = x
    rows.circle_center[t, 1] = y
    rows.circle_radius[t] = radius


@kernel(types.boolean(_F[::1], types.boolean, _F, _F, _F, _F, _F[::1]), inline=True)
def _start_hit(
    contact: FloatArray, touching: bool, dx: float, dy: float, px: float, py: float,
    out: FloatArray,
) -> bool:  # fmt: skip
    """``out`` for a pair touching at the start of A's motion ``d``: from ``contact``
    (the start contact, normal from A to B) when ``touching``; else (the contact was
    not asked for, or rounding made its test say apart) the normal ``-d`` at depth 0 at
    the cast's point ``(px, py)``, and no hit when A did not move."""
    out[0] = 0.0
    if touching:
        out[1] = contact[3]
        out[2] = contact[4]
        out[3] = -contact[0] + 0.0  # + 0.0: no negative zeros
        out[4] = -contact[1] + 0.0
        out[5] = contact[2]
        return True
    if dx == 0.0 and dy == 0.0:
        return False
    nx, ny = unit(-dx, -dy)
    out[1] = px
    out[2] = py
    out[3] = nx + 0.0
    out[4] = ny + 0.0
    out[5] = 0.0
    return True


@kernel(
    types.int64(
        ROWS, _INDEX, _INDEX, _F[:, ::1], _F[::1], _F[::1], _F[:, ::1], types.boolean[::1],
        types.boolean[::1], _F[:, ::1],
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
    exact_start: BoolArray,
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
        exact_start: Per pair, whether its contact is wanted when it touches at the
            start (else the normal is ``-d``, the depth 0: the pair touched at the
            last tick too, say, and reports nothing).
        hit: Out: whether the pair touched during the tick.
        out: Out, ``(M, 6)``: where ``hit``, ``(fraction, px, py, nx, ny, depth)``
            with the normal from B towards A; the depth is 0 but for a pair touching
            at the start (fraction 0), where it is that of the start contact.

    Returns:
        How many pairs touched.
    """
    # Scratch tables, written pair by pair: row k of ``copies`` holds a copy of a row of
    # kind k taken back along ``d``; ``circles`` round shapes (row 0 for A, row 1 for B)
    # where a cast or start contact takes them as table rows. A round A is cast as
    # numbers (:func:`~.casts.cast_round`), without a scratch row.
    copies = empty_rows(np.arange(5, dtype=np.int8), rows.polygon_vertices.shape[1])
    circles = empty_rows(np.full(2, _CIRCLE, dtype=np.int8), 0)
    contact = np.empty(5)
    count = 0
    for k in range(len(a)):
        dx = d[k, 0]
        dy = d[k, 1]
        t = a[k]
        kind = rows.kinds[t]
        round_a = radius_a[k] > 0.0 or kind <= _CIRCLE
        xa = ya = ra = 0.0
        if radius_a[k] > 0.0:
            xa, ya, ra = origins[k, 0] - dx, origins[k, 1] - dy, radius_a[k]
        elif round_a:
            x, y, ra = round_of(rows, t)
            xa, ya = x - dx, y - dy
        else:
            copy_row(rows, t, copies, kind)
            shift_row(copies, kind, -dx, -dy)
        if radius_b[k] > 0.0:
            _circle(circles, 1, origins[k, 2], origins[k, 3], radius_b[k])
        # One call per combination of tables: a table held in a variable would be
        # reference-counted at every assignment, which costs more than the cast.
        if round_a and radius_b[k] > 0.0:
            cast = cast_circles(xa, ya, ra, origins[k, 2], origins[k, 3], radius_b[k], dx, dy)
        elif round_a:
            cast = cast_round(xa, ya, ra, rows, b[k], dx, dy)
        elif radius_b[k] > 0.0:
            cast = cast_pair(copies, kind, circles, 1, dx, dy)
        else:
            cast = cast_pair(copies, kind, rows, b[k], dx, dy)
        touched, f, nx, ny, px, py = cast
        if touched and f == 0.0:  # touching at the start: the contact gives the normal
            touching = False
            if round_a:
                _circle(circles, 0, xa, ya, ra)
            if not exact_start[k]:
                pass
            elif round_a and radius_b[k] > 0.0:
                touching = start_contact(circles, 0, circles, 1, contact)
            elif round_a:
                touching = start_contact(circles, 0, rows, b[k], contact)
            elif radius_b[k] > 0.0:
                touching = start_contact(copies, kind, circles, 1, contact)
            else:
                touching = start_contact(copies, kind, rows, b[k], contact)
            touched = _start_hit(contact, touching, dx, dy, px, py, out[k])
        elif touched:
            out[k, 0] = f
            out[k, 1] = px
            out[k, 2] = py
            out[k, 3] = nx + 0.0  # + 0.0: no negative zeros
            out[k, 4] = ny + 0.0
            out[k, 5] = 0.0
        hit[k] = touched
        count += touched
    return count

"""Shapes placed in world space, in compiled code: one shape into a row of a
:class:`~arcade_collide.geometry.query.kernel_base.WorldRows` (the scalar queries), or a
whole table of posed shapes at once, in place (the ECS shape table).

Both write the numbers :func:`~arcade_collide.geometry.arrays.pack` computes from the
same shapes and poses, bit for bit: the same rotation (:func:`turn`, as
:func:`~arcade_collide.geometry.pose.rotation`) and the same vertex arithmetic
(:func:`~arcade_collide.geometry.arrays.world_point`).
"""

from __future__ import annotations

import math

import numpy as np

from arcade_collide.geometry.arrays import FloatArray, world_point
from arcade_collide.geometry.compiled import kernel, prefetch
from arcade_collide.geometry.query.kernel_base import ROWS, Int64Array, WorldRows, types
from arcade_collide.geometry.shapes import ShapeKind

_POINT, _CIRCLE, _RECT, _TRIANGLE, _POLYGON = (int(kind) for kind in ShapeKind)
_LOCAL = types.float64[:, ::1]


@kernel("UniTuple(float64, 2)(float64)", inline=True)
def turn(angle: float) -> tuple[float, float]:
    """``(cos, sin)`` of a clockwise angle in degrees, exact at multiples of 90 degrees:
    :func:`~arcade_collide.geometry.pose.rotation` in compiled code."""
    if np.fmod(angle, 90.0) == 0.0:
        quarter = int(np.fmod(np.floor(angle / 90.0), 4.0)) % 4
        if quarter == 0:
            return 1.0, 0.0
        if quarter == 1:
            return 0.0, 1.0
        if quarter == 2:
            return -1.0, 0.0
        return 0.0, -1.0
    radians = angle * (math.pi / 180.0)
    return math.cos(radians), math.sin(radians)


@kernel(types.void(ROWS, types.int64, types.int64, *(types.float64,) * 6, _LOCAL), inline=True)
def place_row(
    rows: WorldRows,
    kind: int,
    r: int,
    x: float,
    y: float,
    cos: float,
    sin: float,
    size_x: float,
    size_y: float,
    local: FloatArray,
) -> None:
    """Write one posed shape into row ``r`` of its kind's arrays of ``rows``.

    The shape is its kind, two sizes (a circle's radius; a rectangle's half width and
    height; else unused) and its local vertices (rectangles, triangles, polygons: a
    polygon narrower than the table repeats its last vertex); the pose is ``(x, y)``
    turned by ``(cos, sin)`` (:func:`turn`).
    """
    if kind == _POINT:
        rows.point_xy[r, 0] = x
        rows.point_xy[r, 1] = y
        return
    if kind == _CIRCLE:
        rows.circle_center[r, 0] = x
        rows.circle_center[r, 1] = y
        rows.circle_radius[r] = size_x
        return
    if kind == _RECT:
        _rect_frame(
            rows.rect_center, rows.rect_axis, rows.rect_half, r, x, y, cos, sin, size_x, size_y
        )
    elif kind == _POLYGON:
        rows.polygon_nverts[r] = len(local)
    out = _outlines(rows)[kind - _RECT]
    _outline(out, r, x, y, cos, sin, local.reshape((1, len(local), 2)), 0, len(local))


@kernel("UniTuple(float64, 4)(float64[:, :, ::1], int64, float64, float64, float64, float64,"
        " float64[:, :, ::1], int64, int64)", inline=True)  # fmt: skip
def _outline(
    out: FloatArray, r: int, x: float, y: float, cos: float, sin: float,
    local: FloatArray, c: int, count: int,
) -> tuple[float, float, float, float]:  # fmt: skip
    """Place the ``count`` local vertices ``local[c]`` into ``out[r]`` (repeating the last
    one to fill the row); return their box ``(min_x, min_y, max_x, max_y)``."""
    low_x = low_y = math.inf
    high_x = high_y = -math.inf
    for k in range(out.shape[1]):
        v = min(k, count - 1)
        wx, wy = world_point(x, y, cos, sin, local[c, v, 0], local[c, v, 1])
        out[r, k, 0] = wx
        out[r, k, 1] = wy
        low_x, low_y = min(low_x, wx), min(low_y, wy)
        high_x, high_y = max(high_x, wx), max(high_y, wy)
    return low_x, low_y, high_x, high_y


@kernel(types.void(*(types.float64[:, ::1],) * 3, types.int64, *(types.float64,) * 6), inline=True)
def _rect_frame(
    center: FloatArray, axis: FloatArray, half: FloatArray,
    r: int, x: float, y: float, cos: float, sin: float, hx: float, hy: float,
) -> None:  # fmt: skip
    """A rectangle's centre, x axis and half sizes into row ``r`` of those arrays."""
    center[r, 0] = x
    center[r, 1] = y
    axis[r, 0] = cos
    axis[r, 1] = -sin
    half[r, 0] = hx
    half[r, 1] = hy


@kernel(types.UniTuple(types.float64[:, :, ::1], 3)(ROWS), inline=True)
def _outlines(rows: WorldRows) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The vertex arrays of the convex kinds, in kind order."""
    return rows.rect_vertices, rows.triangle_vertices, rows.polygon_vertices


_INDEX = types.int64[::1]


@kernel(
    types.Tuple((types.int64, types.float64))(
        ROWS, types.float64[:, ::1], _INDEX, _INDEX, types.float64[::1], types.float64[::1],
        types.float64[:, :, ::1], _INDEX, types.float64[:, ::1],
        types.float64[::1], types.float64[::1], types.float64,
    )
)  # fmt: skip
def place_table(
    rows: WorldRows,
    poses: FloatArray,
    pose_rows: Int64Array,
    which: Int64Array,
    size_x: FloatArray,
    size_y: FloatArray,
    local: FloatArray,
    nlocal: Int64Array,
    boxes: FloatArray,
    origin_x: FloatArray,
    origin_y: FloatArray,
    pad: float,
) -> tuple[int, float]:
    """Place the rows ``which`` of a shape table at their poses, in place.

    Table row ``t`` (kind ``rows.kinds[t]``) is placed at
    ``poses[pose_rows[t]] = (x, y, angle)`` with sizes ``size_x[t]``, ``size_y[t]``; a
    convex row's local vertices are ``local[c, :nlocal[c]]``, ``c`` counting from the
    table's first convex row (rows are grouped by kind, convex kinds last). Each row's
    box goes into ``boxes[t]`` as ``(min_x, min_y, max_x, max_y)``, pushed out by
    ``pad`` on each side, its pose origin into ``origin_x``/``origin_y``.

    Returns:
        ``(bad, reach)``: ``bad`` is the first of ``which`` whose pose is not finite
        (nothing was written), else -1; ``reach`` is the largest coordinate magnitude
        of the exact boxes placed (0 when none).
    """
    # A few rows (moved by hand) lie anywhere in the table: what the second loop writes
    # of them is fetched while the first waits on their poses. (Most rows are read in
    # order, which the processor fetches ahead by itself.)
    spread = 8 * len(which) < len(boxes)
    for t in which:
        p = pose_rows[t]
        if not (
            math.isfinite(poses[p, 0]) and math.isfinite(poses[p, 1]) and math.isfinite(poses[p, 2])
        ):
            return t, 0.0
        if spread:
            prefetch(boxes, t)
            prefetch(origin_x, t)
            prefetch(origin_y, t)
            prefetch(size_x, t)
    # Every array is taken from ``rows`` once: inside the loop each would be
    # reference-counted on every row.
    kinds, start, xy = rows.kinds, rows.start, rows.point_xy
    center, radius, nverts = rows.circle_center, rows.circle_radius, rows.polygon_nverts
    rect_center, axis, half = rows.rect_center, rows.rect_axis, rows.rect_half
    outlines = _outlines(rows)
    first_convex = start[_RECT]
    reach = 0.0
    for t in which:
        p = pose_rows[t]
        kind = kinds[t]
        r = t - start[kind]
        x = origin_x[t] = poses[p, 0]
        y = origin_y[t] = poses[p, 1]
        if kind == _POINT:
            xy[r, 0] = boxes[t, 0] = boxes[t, 2] = x
            xy[r, 1] = boxes[t, 1] = boxes[t, 3] = y
        elif kind == _CIRCLE:
            center[r, 0] = x
            center[r, 1] = y
            size = radius[r] = size_x[t]
            boxes[t, 0] = x - size
            boxes[t, 1] = y - size
            boxes[t, 2] = x + size
            boxes[t, 3] = y + size
        else:
            c = t - first_convex
            cos, sin = turn(poses[p, 2])
            if kind == _RECT:
                _rect_frame(rect_center, axis, half, r, x, y, cos, sin, size_x[t], size_y[t])
            elif kind == _POLYGON:
                nverts[r] = nlocal[c]
            boxes[t, 0], boxes[t, 1], boxes[t, 2], boxes[t, 3] = _outline(
                outlines[kind - _RECT], r, x, y, cos, sin, local, c, nlocal[c]
            )
        reach = max(reach, -boxes[t, 0], -boxes[t, 1], boxes[t, 2], boxes[t, 3])
        boxes[t, 0] -= pad
        boxes[t, 1] -= pad
        boxes[t, 2] += pad
        boxes[t, 3] += pad
    return -1, reach

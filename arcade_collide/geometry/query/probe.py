"""One posed shape against chosen rows of a world table: the exact step of world queries.

A world query (what overlaps this point, box or shape) gathers candidate rows by their
boxes, then asks the pair kernels which of them touch the query shape. The kernels
read both shapes of a pair from one :class:`~.kernel_base.WorldRows` table, so
:func:`rows_touching_shape` copies the candidate rows and the placed query shape into
a small table of their own (:func:`gathered_rows`, ``O(candidates)``) and runs the
dispatch chain (:func:`~.dispatch.run_pairs`) over the pairs (query, candidate), all in
one compiled call: the same kernels as the tick, so a query and the tick never
disagree.

The query shape is given as the scalar queries take it (:func:`~.dispatch.intersects`):
its kind, two sizes, its local vertices and its pose ``(x, y, cos, sin)``.
"""

from __future__ import annotations

import math

import numpy as np

from arcade_collide.geometry.arrays import FloatArray, world_point
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.dispatch import SLOTS, run_pairs
from arcade_collide.geometry.query.kernel_base import (
    ROWS,
    Int64Array,
    WorldRows,
    copy_row,
    empty_rows,
    types,
)
from arcade_collide.geometry.query.placement import place_row
from arcade_collide.geometry.shapes import ShapeKind

_POINT, _CIRCLE, _RECT, _TRIANGLE, _POLYGON = (int(kind) for kind in ShapeKind)
_KINDS = len(ShapeKind)
_F = types.float64
_LOCAL = types.float64[:, ::1]


@kernel(types.UniTuple(_F, 4)(types.int64, _F, _F, _LOCAL, _F, _F, _F, _F))
def posed_box(
    kind: int, size_x: float, size_y: float, local: FloatArray,
    x: float, y: float, cos: float, sin: float,
) -> tuple[float, float, float, float]:  # fmt: skip
    """The exact box ``(min_x, min_y, max_x, max_y)`` of a posed shape (the numbers the
    table's placing computes, before its pad).

    >>> from arcade_collide.geometry.pose import rotation
    >>> square = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    >>> posed_box(2, 1.0, 1.0, square, 10.0, 0.0, *rotation(90))
    (9.0, -1.0, 11.0, 1.0)
    >>> posed_box(1, 2.0, 0.0, np.empty((0, 2)), 0.0, 5.0, 1.0, 0.0)  # a circle
    (-2.0, 3.0, 2.0, 7.0)
    """
    if kind == _POINT:
        return x, y, x, y
    if kind == _CIRCLE:
        return x - size_x, y - size_x, x + size_x, y + size_x
    low_x = low_y = math.inf
    high_x = high_y = -math.inf
    for k in range(len(local)):
        wx, wy = world_point(x, y, cos, sin, local[k, 0], local[k, 1])
        low_x, low_y = min(low_x, wx), min(low_y, wy)
        high_x, high_y = max(high_x, wx), max(high_y, wy)
    return low_x, low_y, high_x, high_y


@kernel("int64[::1](float64[:, ::1], int64[::1], float64, float64, float64, float64)")
def rows_touching_box(
    boxes: FloatArray, rows: Int64Array, left: float, bottom: float, right: float, top: float
) -> Int64Array:
    """The rows of ``rows`` whose box ``boxes[row]`` overlaps or touches the closed box
    ``(left, bottom, right, top)``, in the order of ``rows``: a scan, for the few
    rows a grid does not hold (the moving ones).

    >>> boxes = np.array([[0, 0, 2, 2], [5, 5, 6, 6], [2, 2, 3, 3.0]])
    >>> rows_touching_box(boxes, np.array([0, 1, 2]), 1.0, 1.0, 2.0, 2.0).tolist()
    [0, 2]
    """
    out = np.empty(len(rows), dtype=np.int64)
    m = 0
    for row in rows:
        if (
            boxes[row, 0] <= right
            and left <= boxes[row, 2]
            and boxes[row, 1] <= top
            and bottom <= boxes[row, 3]
        ):
            out[m] = row
            m += 1
    return out[:m]


@kernel(
    types.Tuple((ROWS, types.int64))(
        ROWS, types.int64[::1], types.int64, _F, _F, _LOCAL, _F, _F, _F, _F
    )
)
def gathered_rows(
    table: WorldRows, rows: Int64Array, kind: int, size_x: float, size_y: float,
    local: FloatArray, x: float, y: float, cos: float, sin: float,
) -> tuple[WorldRows, int]:  # fmt: skip
    """A table of the rows ``rows`` of ``table`` (ascending) with the posed query shape
    inserted among them at its kind, and the query's row in it. Candidate ``k`` is row
    ``k`` of the new table before the query's row, ``k + 1`` after it.

    >>> from arcade_collide.geometry.arrays import pack
    >>> from arcade_collide.geometry.query.kernel_base import world_rows
    >>> from arcade_collide.geometry.shapes import Circle, Rect
    >>> table = world_rows(pack([Circle(1)] * 2, [(0, 0), (5, 0)]), pack([Rect(2, 2)], [(9, 0)]))
    >>> small, q = gathered_rows(table, np.array([1, 2]), 1, 3.0, 0.0, np.empty((0, 2)),
    ...                          7.0, 0.0, 1.0, 0.0)  # a circle of radius 3 at (7, 0)
    >>> q, small.kinds.tolist(), small.circle_center.tolist(), small.circle_radius.tolist()
    (1, [1, 1, 2], [[5.0, 0.0], [7.0, 0.0]], [1.0, 3.0])
    """
    n = len(rows)
    q = 0
    while q < n and table.kinds[rows[q]] <= kind:
        q += 1
    kinds = np.empty(n + 1, dtype=np.int8)
    for k in range(n):
        kinds[k if k < q else k + 1] = table.kinds[rows[k]]
    kinds[q] = kind
    width = table.polygon_vertices.shape[1]
    if kind == _POLYGON:
        width = max(width, len(local))
    out = empty_rows(kinds, width)
    for k in range(n):
        copy_row(table, rows[k], out, k if k < q else k + 1)
    place_row(out, kind, q - out.start[kind], x, y, cos, sin, size_x, size_y, local)
    return out, q


@kernel(
    types.int64[::1](
        ROWS, types.int64[::1], types.int64, types.int64[::1],
        types.int64, _F, _F, _LOCAL, _F, _F, _F, _F,
    )
)  # fmt: skip
def rows_touching_shape(
    table: WorldRows, layer: Int64Array, mask: int, rows: Int64Array,
    kind: int, size_x: float, size_y: float, local: FloatArray,
    x: float, y: float, cos: float, sin: float,
) -> Int64Array:  # fmt: skip
    """The rows of ``rows`` (ascending) on a layer of ``mask`` (``layer[row] & mask``
    non-zero) whose shapes touch the posed query shape (closed shapes: touching
    counts), ascending.

    Args:
        table: A world table (the ECS shape table's rows).
        layer: ``(N,)`` layer bits of the table's rows.
        mask: The query's layer mask.
        rows: Candidate rows, ascending.
        kind: The query shape's kind; then its two sizes (a circle's radius; a
            rectangle's half width and height) and local vertices (``(K, 2)``).
        x: The query pose's x; then its y and the rotation's ``cos`` and ``sin``.

    >>> from arcade_collide.geometry.arrays import pack
    >>> from arcade_collide.geometry.query.kernel_base import world_rows
    >>> from arcade_collide.geometry.shapes import Circle
    >>> table = world_rows(pack([Circle(1)] * 3, [(0, 0), (3, 0), (10, 0)]))
    >>> layer, rows = np.array([1, 1, 2]), np.array([0, 1, 2])
    >>> point = (0, 0.0, 0.0, np.empty((0, 2)))
    >>> rows_touching_shape(table, layer, 3, rows, *point, 1.0, 0.0, 1.0, 0.0).tolist()  # a hit
    [0]
    >>> rows_touching_shape(table, layer, 3, rows, *point, 2.0, 0.0, 1.0, 0.0).tolist()  # touching
    [1]
    >>> rows_touching_shape(table, layer, 1, rows, *point, 10.0, 0.0, 1.0, 0.0).tolist()  # masked
    []
    """
    keep = np.empty(len(rows), dtype=np.int64)
    n = 0
    for row in rows:
        if layer[row] & mask:
            keep[n] = row
            n += 1
    keep = keep[:n]
    small, q = gathered_rows(table, keep, kind, size_x, size_y, local, x, y, cos, sin)
    # Every pair is (query, candidate): grouped by slot with a counting sort, as the
    # dispatch chain takes them.
    i = np.full(n, q, dtype=np.int64)
    j = np.empty(n, dtype=np.int64)
    counts = np.zeros(SLOTS + 1, dtype=np.int64)
    for k in range(n):
        j[k] = k if k < q else k + 1
        other = small.kinds[j[k]]
        counts[min(kind, other) * _KINDS + max(kind, other) + 1] += 1
    for s in range(1, len(counts)):
        counts[s] += counts[s - 1]
    order = np.empty(n, dtype=np.int64)
    fill = counts[:-1].copy()
    for k in range(n):
        other = small.kinds[j[k]]
        s = min(kind, other) * _KINDS + max(kind, other)
        order[fill[s]] = k
        fill[s] += 1
    hit = np.empty(n, dtype=np.bool_)
    run_pairs(small, i, j, order, counts, False, hit, np.empty((0, 5)))
    return keep[hit]

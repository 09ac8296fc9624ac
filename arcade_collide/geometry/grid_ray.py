"""Rays through a :class:`~arcade_collide.geometry.static_grid.StaticGrid`: the cells the
ray crosses, in ray order, with the exact test on the shapes binned there.

The walk steps from cell to cell where the ray crosses a cell border (Amanatides and
Woo, "A fast voxel traversal algorithm", 1987; Ericson, RTCD 7.4.2). A box lies in
every cell its closed extent meets, cells counted by ``floor``, so a point of the ray
lies in the boxes of the cell ``floor`` gives it; where the ray crosses a cell corner
exactly, the walk steps along a rising axis first, which reaches that cell. For the
first hit the walk stops once the next cell starts beyond the best hit so far: a hit
on a shape is a point in its box, and so in a cell the walk has passed. A ray against
a level of thousands of tiles costs the cells it crosses before its first hit.

The grid's boxes are rows of a world table (``box_rows[s]`` is box ``s``'s row, or
box ``s`` is row ``s`` when ``box_rows`` is empty); the exact test is
:func:`~arcade_collide.geometry.query.rays.ray_row`. A row whose ``layer`` shares no
bit with ``mask`` is skipped (no filter when ``layer`` is empty). Ties at equal
distance go to the lower table row, as in :mod:`~.query.ray_rows`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.hits import BatchRayHits, RayHit
from arcade_collide.geometry.query.kernel_base import ROWS, Int64Array, WorldRows, types
from arcade_collide.geometry.query.ray_batches import parse_rays
from arcade_collide.geometry.query.ray_queries import Ray
from arcade_collide.geometry.query.rays import ray_row
from arcade_collide.geometry.static_grid import StaticGrid, _index

_F = types.float64
_I = types.int64
_INDEX = types.int64[::1]
_INF = math.inf
_NONE = np.empty(0, dtype=np.int64)
_RAY = (_F,) * 5
_CELLS = (types.float64[::1], _I, _I, _INDEX, _INDEX, _INDEX, types.float64[:, ::1])
"""A grid as the walk reads it: :class:`~.static_grid.GridCells`' fields, then its boxes."""
_TABLE = (ROWS, _INDEX, _INDEX, _I)
"""The table: its rows, ``box_rows``, ``layer`` and ``mask``."""
_OUT = (types.boolean, _INDEX, types.float64[:, ::1])
"""Whether only the first hit is wanted, and where hits go: rows and ``(s, nx, ny)``."""


@kernel(types.UniTuple(_F, 2)(types.float64[:, ::1], _I, *(_F,) * 8, types.boolean),
        inline=True)  # fmt: skip
def _slab(
    boxes: FloatArray, s: int, ox: float, oy: float, dx: float, dy: float,
    inv_x: float, inv_y: float, enter: float, leave: float, exact: bool,
) -> tuple[float, float]:  # fmt: skip
    """The part ``[enter, leave]`` of the ray inside the closed box ``boxes[s]``
    (``min_x, min_y, max_x, max_y``), empty when ``enter > leave`` (Ericson, RTCD
    5.3.3). ``exact`` divides by the direction; else it multiplies by its reciprocals
    ``inv`` (unused where the direction is 0), quicker but rounded differently. The box
    is read in place: a view of it would cost reference counts per box."""
    for axis in range(2):
        o, d, inv, low, high = (
            (ox, dx, inv_x, boxes[s, 0], boxes[s, 2])
            if axis == 0
            else (oy, dy, inv_y, boxes[s, 1], boxes[s, 3])
        )
        if d == 0.0:
            if o < low or o > high:
                return 1.0, 0.0
            continue
        a = (low - o) / d if exact else (low - o) * inv
        b = (high - o) / d if exact else (high - o) * inv
        if a > b:
            a, b = b, a
        enter = max(enter, a)
        leave = min(leave, b)
    return enter, leave


@kernel(types.Tuple((_I, _I, _F))(_I, _I, _I, _I, *(_F,) * 7), inline=True)
def _step(
    ix: int, iy: int, nx: int, ny: int,
    x0: float, y0: float, size: float, ox: float, oy: float, dx: float, dy: float,
) -> tuple[int, int, float]:  # fmt: skip
    """The cell after ``(ix, iy)`` along the ray, and the ray parameter where it starts;
    ``ix`` is -1 past the grid. Across a corner, a rising axis steps first (the module
    docstring)."""
    next_x = next_y = _INF
    if dx != 0.0:
        next_x = (x0 + (ix + (dx > 0.0)) * size - ox) / dx
    if dy != 0.0:
        next_y = (y0 + (iy + (dy > 0.0)) * size - oy) / dy
    if next_x < next_y or (next_x == next_y and dx > 0.0):
        ix += 1 if dx > 0.0 else -1
        return (ix if 0 <= ix < nx else -1), iy, next_x
    iy += 1 if dy > 0.0 else -1
    return (ix if 0 <= iy < ny else -1), iy, next_y


@kernel(_I(*_CELLS, *_TABLE, *_RAY, *_OUT))
def walk(
    grid: FloatArray, nx: int, ny: int, starts: Int64Array, items: Int64Array,
    big: Int64Array, boxes: FloatArray,
    rows: WorldRows, box_rows: Int64Array, layer: Int64Array, mask: int,
    ox: float, oy: float, dx: float, dy: float, limit: float,
    first: bool, out_rows: Int64Array, out: FloatArray,
) -> int:  # fmt: skip
    """One ray's hits on the grid's rows (see the module docstring): when ``first``,
    the first hit into ``out_rows[0]``, ``out[0]`` and 1 returned (0 when none); else
    every hit, a row once per cell it lies in, while there is room, and their number.

    The boxes kept apart are tested first, then the cells in ray order. ``limit``
    shrinks to the best hit when ``first``. No array is passed on per box or per
    cell: each would cost reference counts there."""
    x0, y0, size = grid[0], grid[1], grid[2]
    extent = np.array([[x0, y0, grid[3], grid[4]]])
    enter, leave = _slab(extent, 0, ox, oy, dx, dy, 0.0, 0.0, 0.0, limit, True)
    inv = 1.0 / size  # as the grid bins its boxes
    ix = _index((ox + enter * dx - x0) * inv, nx) if enter <= leave else -1
    iy = _index((oy + enter * dy - y0) * inv, ny)
    inv_x = 1.0 / dx if dx != 0.0 else 0.0
    inv_y = 1.0 / dy if dy != 0.0 else 0.0
    best = -1
    m = 0
    cell = -1  # the boxes kept apart
    while True:
        seq = big if cell < 0 else items
        lo, hi = (0, len(big)) if cell < 0 else (starts[cell], starts[cell + 1])
        for q in range(lo, hi):
            s = seq[q]
            t = box_rows[s] if len(box_rows) else s
            if len(layer) and layer[t] & mask == 0:
                continue
            a, b = _slab(boxes, s, ox, oy, dx, dy, inv_x, inv_y, 0.0, limit, False)
            # The reciprocals round differently from the quotients: a box is kept unless
            # missed by more than a few units in the last place (the exact test decides).
            if a - b > 2.0**-48 * max(abs(a), abs(b)):
                continue
            hit, h, hx, hy = ray_row(rows, t, ox, oy, dx, dy, limit)
            if not hit or (first and best >= 0 and h == limit and t >= best):
                continue
            if first:
                best = t
                limit = h
                m = 0
            if m < len(out_rows):
                out_rows[m] = t
                out[m, 0] = h
                out[m, 1] = hx
                out[m, 2] = hy
            m += 1
        if cell >= 0:
            ix, iy, start = _step(ix, iy, nx, ny, x0, y0, size, ox, oy, dx, dy)
            if start > limit:
                break
        if ix < 0:
            break
        cell = iy * nx + ix
    return m


@kernel(types.void(*_CELLS, *_TABLE, *(types.float64[::1],) * 5, _INDEX, types.float64[:, ::1]))
def walk_batch(
    grid: FloatArray, nx: int, ny: int, starts: Int64Array, items: Int64Array,
    big: Int64Array, boxes: FloatArray,
    rows: WorldRows, box_rows: Int64Array, layer: Int64Array, mask: int,
    ox: FloatArray, oy: FloatArray, dx: FloatArray, dy: FloatArray, limit: FloatArray,
    out_rows: Int64Array, out: FloatArray,
) -> None:  # fmt: skip
    """The first hit of each ray ``r`` into ``out_rows[r]`` (-1 when none) and ``out[r]``."""
    for r in range(len(ox)):
        found = walk(grid, nx, ny, starts, items, big, boxes, rows, box_rows, layer, mask,
                      ox[r], oy[r], dx[r], dy[r], limit[r], True,
                      out_rows[r:r + 1], out[r:r + 1])  # fmt: skip
        if not found:
            out_rows[r] = -1
            out[r] = 0.0


ALL_BITS = 0xFFFF_FFFF
"""A ``mask`` that passes every row with a non-zero layer."""


class RayGrid:
    """Rays against the rows of a world table binned in a :class:`StaticGrid`.

    Args:
        grid: The boxes of the rows, each containing its row's shape.
        rows: The world table (read at each query: rows placed again in place count).
        box_rows: The table row of each grid box (None: box ``s`` is row ``s``).
        layer: Per table row, its layer bits (None: no filter); a query's ``mask``
            then passes the rows whose layer shares a bit with it.

    >>> from arcade_collide.geometry.arrays import pack
    >>> from arcade_collide.geometry.query.kernel_base import world_rows
    >>> from arcade_collide.geometry.query.ray_queries import parse_ray
    >>> from arcade_collide.geometry.shapes import Rect
    >>> table = world_rows(pack([Rect(2, 2)] * 3, [(0, 0), (4, 0), (8, 0)]))
    >>> boxes = np.array([[-1, -1, 1, 1], [3, -1, 5, 1], [7, -1, 9, 1.0]])
    >>> rays = RayGrid(StaticGrid(boxes), table)
    >>> rays.first(parse_ray((10, 0), (-1, 0)))
    (2, RayHit(distance=1.0, point=(9.0, 0.0), normal=(1.0, 0.0)))
    >>> rays.first(parse_ray((10, 2), (-1, 0))) is None
    True
    >>> rays.first(parse_ray((10, 1), (-1, 0)))  # along the top edges
    (2, RayHit(distance=1.0, point=(9.0, 1.0), normal=(1.0, 0.0)))
    >>> [(row, hit.distance) for row, hit in rays.all(parse_ray((10, 1), (-1, 0)))]
    [(2, 1.0), (1, 5.0), (0, 9.0)]
    >>> found, hits = rays.first_batch([(10, 0), (10, 2), (-2, 1)], [(-1, 0), (-1, 0), (1, 0)])
    >>> found.tolist(), hits.distance.tolist()  # hit, miss, along the top edges
    ([2, -1, 0], [1.0, 0.0, 1.0])
    """

    def __init__(
        self,
        grid: StaticGrid,
        rows: WorldRows,
        box_rows: Int64Array | None = None,
        layer: Int64Array | None = None,
    ) -> None:
        cells = grid.cells
        self._table: tuple[Any, ...] = (
            cells.grid, cells.nx, cells.ny, cells.starts, cells.items, cells.big, grid.boxes,
            rows, _NONE if box_rows is None else box_rows, _NONE if layer is None else layer,
        )  # fmt: skip

    def first(self, ray: Ray, mask: int = ALL_BITS) -> tuple[int, RayHit] | None:
        """The table row the ray (:func:`~.query.ray_queries.parse_ray`) hits first, and
        the hit; None when it hits none. Ties go to the lower row."""
        out_rows = np.empty(1, dtype=np.int64)
        out = np.empty((1, 3))
        args: Any = (*self._table, mask, *ray[:5], True, out_rows, out)
        if not walk(*args):
            return None
        return int(out_rows[0]), ray.hit(float(out[0, 0]), float(out[0, 1]), float(out[0, 2]))

    def all(self, ray: Ray, mask: int = ALL_BITS) -> list[tuple[int, RayHit]]:
        """Every table row the ray hits, nearest first (then by row), with its hit."""
        room = 16
        while True:
            out_rows = np.empty(room, dtype=np.int64)
            out = np.empty((room, 3))
            args: Any = (*self._table, mask, *ray[:5], False, out_rows, out)
            m = walk(*args)
            if m <= room:
                break
            room = m
        found, hits = out_rows[:m], out[:m]
        order = np.lexsort((found, hits[:, 0]))
        keep = np.ones(m, dtype=np.bool_)
        keep[1:] = found[order[1:]] != found[order[:-1]]  # a row lies in several cells
        return [
            (int(found[k]), ray.hit(float(hits[k, 0]), float(hits[k, 1]), float(hits[k, 2])))
            for k in order[keep]
        ]

    def first_batch(
        self,
        origins: object,
        directions: object,
        max_distance: float | FloatArray = math.inf,
        mask: int = ALL_BITS,
    ) -> tuple[Int64Array, BatchRayHits]:
        """:meth:`first` of ``M`` rays in one compiled call: the row each ray hits first
        (-1 for none) and the hits. The rays are given and checked as
        :func:`~.query.ray_batches.ray_cast_batch` takes them."""
        o, d, limit, length = parse_rays(origins, directions, max_distance)
        m = len(o)
        out_rows = np.empty(m, dtype=np.int64)
        out = np.empty((m, 3))
        rays = (o[:, 0].copy(), o[:, 1].copy(), d[:, 0].copy(), d[:, 1].copy(), limit)
        args: Any = (*self._table, mask, *rays, out_rows, out)
        walk_batch(*args)
        hit = out_rows >= 0
        s = out[:, 0]
        point = np.where(hit[:, None], o + s[:, None] * d, 0.0)
        return out_rows, BatchRayHits(hit, s * length, point, out[:, 1:3].copy())

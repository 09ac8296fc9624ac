"""What every pair kernel is written against: the world rows, the two kernel
signatures, the generic loops that run a kernel over pairs, and small shared helpers.

A pair module ``<a>_<b>.py`` defines two compiled kernels with one uniform signature:

* ``intersects_<a>_<b>(rows, a, b) -> bool`` (:data:`INTERSECTS`),
* ``contact_<a>_<b>(rows, a, b, out) -> bool`` (:data:`CONTACT`): False when apart,
  else the contact written into ``out`` as ``(nx, ny, depth, px, py)`` (:func:`put`),
  the normal pointing from A to B;

where ``rows`` is a :class:`WorldRows` record and ``a``, ``b`` are row indices within
the arrays of A's kind and of B's kind. :mod:`~arcade_collide.geometry.query.dispatch`
links one copy of :func:`chain` per pair.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple, get_args

import numba
import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry.arrays import (
    BoolArray,
    FloatArray,
    PolygonArrays,
    ShapeArrays,
)
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.shapes import ShapeKind

Int64Array = NDArray[np.int64]
_KINDS = len(ShapeKind)
_POINT_KIND, _CIRCLE_KIND, _RECT_KIND, _TRIANGLE_KIND, _ = (int(kind) for kind in ShapeKind)

_numba: Any = numba  # numba's annotations are partial: its type constructors are untyped
types = _numba.types

TINY_SQUARED = 2.0**-960
"""Squared distances below this (about 1e-145 squared) are subnormal or close: too few
bits to normalise a direction."""


class WorldRows(NamedTuple):
    """A world table's shapes as the kernels read them: one record per kind, each
    C-contiguous, empty (with the right number of axes) for kinds not present.

    Table row ``r`` of kind ``k`` is row ``r - start[k]`` of its kind's arrays.
    """

    kinds: NDArray[np.int8]
    start: Int64Array
    point_xy: FloatArray
    circle_center: FloatArray
    circle_radius: FloatArray
    rect_center: FloatArray
    rect_axis: FloatArray
    rect_half: FloatArray
    rect_vertices: FloatArray
    triangle_vertices: FloatArray
    polygon_vertices: FloatArray
    polygon_nverts: Int64Array


RECORD_KINDS: dict[type, ShapeKind] = dict(zip(get_args(ShapeArrays), ShapeKind, strict=True))
"""Batch record type -> its shape kind."""


def world_rows(*records: ShapeArrays) -> WorldRows:
    """A table of world-space batch records: each record's rows in turn, in the order
    given. The records of one kind must be consecutive; they are joined (polygon rows
    padded to one width by repeating their last vertex, as ``pack`` pads them).

    >>> from arcade_collide.geometry.arrays import pack
    >>> from arcade_collide.geometry.shapes import Circle
    >>> rows = world_rows(pack([Circle(2)], [(0, 0)]), pack([Circle(3)], [(5, 0)]))
    >>> rows.circle_radius.tolist(), rows.start.tolist(), rows.rect_vertices.shape
    ([2.0, 3.0], [0, 0, 2, 2, 2], (0, 4, 2))
    """
    kinds = [RECORD_KINDS[type(record)] for record in records]
    sizes = [len(record[0]) for record in records]
    rows = empty_rows(np.repeat(np.array(kinds, dtype=np.int8), sizes), 0)
    blocks: dict[ShapeKind, list[ShapeArrays]] = {}
    for k, record in enumerate(records):
        if kinds[k] not in blocks:
            rows.start[kinds[k]] = sum(sizes[:k])
        elif kinds[k - 1] != kinds[k]:
            raise ValueError(f"the {kinds[k].name.lower()} records must be consecutive")
        blocks.setdefault(kinds[k], []).append(record)
    fields: dict[str, Any] = {}
    for kind, block in blocks.items():
        for name, field in zip(_FIELDS[kind], _joined(block), strict=True):
            dtype = np.int64 if name == "polygon_nverts" else np.float64
            fields[name] = np.ascontiguousarray(field, dtype=dtype)
    return rows._replace(**fields)


_FIELDS = (
    ("point_xy",),
    ("circle_center", "circle_radius"),
    ("rect_center", "rect_axis", "rect_half", "rect_vertices"),
    ("triangle_vertices",),
    ("polygon_vertices", "polygon_nverts"),
)
"""Per kind, the fields of :class:`WorldRows` that hold its batch record's fields."""


def _joined(records: list[ShapeArrays]) -> ShapeArrays:
    """Records of one kind stacked."""
    first = records[0]
    if len(records) == 1:
        return first
    if isinstance(first, PolygonArrays):
        width = max(r.vertices.shape[1] for r in records)  # type: ignore[union-attr]
        vertices = [
            np.concatenate([v, np.repeat(v[:, -1:], width - v.shape[1], axis=1)], axis=1)
            for v in (r.vertices for r in records)  # type: ignore[union-attr]
        ]
        nverts = [r.nverts for r in records]  # type: ignore[union-attr]
        return PolygonArrays(np.concatenate(vertices), np.concatenate(nverts))
    return type(first)(*(np.concatenate(fields) for fields in zip(*records, strict=True)))


_F1, _F2, _F3 = types.float64[::1], types.float64[:, ::1], types.float64[:, :, ::1]
_I1 = types.int64[::1]
ROWS: Any = types.NamedTuple(
    (types.int8[::1], _I1, _F2, _F2, _F1, _F2, _F2, _F2, _F3, _F3, _F3, _I1), WorldRows
)
"""The numba type of :class:`WorldRows`."""


@kernel(ROWS(types.int8[::1], types.int64))
def empty_rows(kinds: NDArray[np.int8], polygon_width: int) -> WorldRows:
    """Unwritten :class:`WorldRows` for a table whose rows have ``kinds`` (in kind order),
    polygons ``polygon_width`` vertices wide.

    >>> rows = empty_rows(np.array([1, 1, 2], dtype=np.int8), 0)
    >>> rows.start.tolist(), rows.circle_radius.shape, rows.rect_vertices.shape
    ([0, 0, 2, 3, 3], (2,), (1, 4, 2))
    """
    n = np.zeros(_KINDS, dtype=np.int64)
    for kind in kinds:
        n[kind] += 1
    start = np.zeros(_KINDS, dtype=np.int64)
    for kind in range(1, _KINDS):
        start[kind] = start[kind - 1] + n[kind - 1]
    return WorldRows(
        kinds,
        start,
        np.empty((n[0], 2)),
        np.empty((n[1], 2)),
        np.empty(n[1]),
        np.empty((n[2], 2)),
        np.empty((n[2], 2)),
        np.empty((n[2], 2)),
        np.empty((n[2], 4, 2)),
        np.empty((n[3], 3, 2)),
        np.empty((n[4], polygon_width, 2)),
        np.empty(n[4], dtype=np.int64),
    )


INTERSECTS: Any = types.boolean(ROWS, types.int64, types.int64)
"""Signature of every boolean pair kernel."""
CONTACT: Any = types.boolean(ROWS, types.int64, types.int64, types.float64[::1])
"""Signature of every contact pair kernel."""
_INDEX = types.int64[::1]
CHAIN: Any = types.void(
    ROWS, _INDEX, _INDEX, _INDEX, _INDEX, types.boolean, types.boolean[::1], types.float64[:, ::1]
)
"""Signature of the links of :func:`chain`."""

KERNEL: Any = None
TEST: Any = None
SLOT: Any = None
NEXT: Any = None
"""What a link of :func:`chain` runs: its pair's contact and boolean kernels, its table
slot and the next link, bound in each copy by
:func:`~arcade_collide.geometry.compiled.specialise` (unbound here)."""

# The dispatch table compiles one copy of the chain function per registered pair and
# links them: a pass over a table's pairs is one call, whatever kind pairs it holds.
# Pairs are grouped by unordered kind pair; a pair whose kinds are in reverse order
# (kind_a > kind_b) runs the kernel as (b, a), and its contact normal is reversed: the
# table's mirrored entries (dispatch.TABLE) are exactly these.


def chain(
    rows: WorldRows,
    i: Int64Array,
    j: Int64Array,
    order: Int64Array,
    counts: Int64Array,
    contact: bool,
    hit: BoolArray,
    out: FloatArray,
) -> None:
    """The pair's kernel over the pairs ``p = order[counts[SLOT]:counts[SLOT + 1]]`` of
    table rows ``(i[p], j[p])``, then the next link if a later slot holds pairs: whether
    they touch into ``hit[p]`` and, when ``contact``, ``out[p] = (nx, ny, depth, px,
    py)`` (zeros when apart), the normal from ``i[p]`` to ``j[p]`` (``out`` is not read
    otherwise). The links run in ascending slot order."""
    kinds = rows.kinds
    start = rows.start
    for q in range(counts[SLOT], counts[SLOT + 1]):
        p = order[q]
        a = i[p]
        b = j[p]
        swap = kinds[a] > kinds[b]
        if swap:
            a, b = b, a
        if not contact:
            hit[p] = TEST(rows, a - start[kinds[a]], b - start[kinds[b]])
            continue
        row = out[p]
        touching = KERNEL(rows, a - start[kinds[a]], b - start[kinds[b]], row)
        hit[p] = touching
        if not touching:
            row[:] = 0.0
        elif swap:
            row[0] = -row[0]
            row[1] = -row[1]
    if counts[SLOT + 1] < counts[len(counts) - 1]:  # a later slot holds pairs
        NEXT(rows, i, j, order, counts, contact, hit, out)


@kernel(CHAIN)
def end_of_chain(
    rows: WorldRows,
    i: Int64Array,
    j: Int64Array,
    order: Int64Array,
    counts: Int64Array,
    contact: bool,
    hit: BoolArray,
    out: FloatArray,
) -> None:
    """The last link of :func:`chain`: nothing left to run."""


@kernel("void(float64[::1], float64, float64, float64, float64, float64)", inline=True)
def put(out: FloatArray, nx: float, ny: float, depth: float, px: float, py: float) -> None:
    """Write a contact ``(nx, ny, depth, px, py)`` into the output row ``out``."""
    out[0] = nx
    out[1] = ny
    out[2] = depth
    out[3] = px
    out[4] = py


@kernel("float64(float64, float64)", inline=True)
def first_min(a: float, b: float) -> float:
    """Python's ``min(a, b)``: ``a`` unless ``b < a`` (so ``min(0.0, -0.0)`` is ``0.0``)."""
    return b if b < a else a


@kernel("float64(float64, float64)", inline=True)
def first_max(a: float, b: float) -> float:
    """Python's ``max(a, b)``: ``a`` unless ``b > a``."""
    return b if b > a else a


_UP = 2.0**600
"""Scale for offsets whose square is below TINY_SQUARED (exact: a power of two)."""


@kernel(types.UniTuple(types.float64, 2)(types.float64, types.float64), inline=True)
def unit(dx: float, dy: float) -> tuple[float, float]:
    """The direction of the non-zero offset ``(dx, dy)`` as a unit vector. An offset
    whose square is below :data:`TINY_SQUARED` is scaled up first, so it keeps every bit
    of its direction."""
    d2 = dx * dx + dy * dy
    if d2 < TINY_SQUARED:
        dx *= _UP
        dy *= _UP
        d2 = dx * dx + dy * dy
    d = math.sqrt(d2)
    return dx / d, dy / d


@kernel(
    types.UniTuple(types.float64, 2)(ROWS, types.int64, types.float64, types.float64), inline=True
)
def rect_frame(rows: WorldRows, b: int, x: float, y: float) -> tuple[float, float]:
    """World point ``(x, y)`` in rectangle ``b``'s frame: ``(d . x_axis, d . y_axis)`` with
    ``d = (x, y) - centre``, the x axis ``(cos, -sin)`` and the y axis ``(sin, cos)``."""
    ax = rows.rect_axis[b, 0]
    ay = rows.rect_axis[b, 1]
    dx = x - rows.rect_center[b, 0]
    dy = y - rows.rect_center[b, 1]
    return dx * ax + dy * ay, dy * ax - dx * ay


@kernel(types.void(ROWS, types.int64, ROWS, types.int64), inline=True)
def copy_row(source: WorldRows, t: int, target: WorldRows, r: int) -> None:
    """Copy table row ``t`` of ``source`` into table row ``r`` of ``target`` (same kind;
    a polygon narrower than ``target``'s width repeats its last vertex)."""
    kind = source.kinds[t]
    a = t - source.start[kind]
    b = r - target.start[kind]
    if kind == _POINT_KIND:
        target.point_xy[b] = source.point_xy[a]
    elif kind == _CIRCLE_KIND:
        target.circle_center[b] = source.circle_center[a]
        target.circle_radius[b] = source.circle_radius[a]
    elif kind == _RECT_KIND:
        target.rect_center[b] = source.rect_center[a]
        target.rect_axis[b] = source.rect_axis[a]
        target.rect_half[b] = source.rect_half[a]
        target.rect_vertices[b] = source.rect_vertices[a]
    elif kind == _TRIANGLE_KIND:
        target.triangle_vertices[b] = source.triangle_vertices[a]
    else:
        target.polygon_nverts[b] = source.polygon_nverts[a]
        width = source.polygon_vertices.shape[1]
        for k in range(target.polygon_vertices.shape[1]):
            target.polygon_vertices[b, k] = source.polygon_vertices[a, min(k, width - 1)]

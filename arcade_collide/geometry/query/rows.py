"""The narrow phase over a world table: the candidate pairs' tests and contacts.

:func:`touching_rows` decides, for every candidate pair of rows of a world table,
whether the two shapes touch: the layer/mask filter first, then the pose-centred
circles of :mod:`~arcade_collide.geometry.bounding_circles`, then the exact test of
the pair's shape types. :func:`contact_rows` computes the contacts of pairs, and
:func:`contacts_at` those of chosen pairs, signed by the pairs' flip flags.

Each groups the pairs by their unordered shape kinds (a counting sort) and runs the
dispatch table's chains (:mod:`~arcade_collide.geometry.query.dispatch`) in one call.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types
from numpy.typing import NDArray

from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.bounding_circles import (
    SURELY_TOUCHING,
    UNDECIDED,
    pose_circle_verdict,
)
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.dispatch import NO_CONTACTS, SLOTS, run_pairs
from arcade_collide.geometry.query.kernel_base import ROWS, Int64Array, WorldRows, world_rows
from arcade_collide.geometry.shapes import ShapeKind

__all__ = [
    "PairFilter",
    "PoseCircles",
    "WorldRows",
    "contact_rows",
    "contacts_at",
    "touching_rows",
    "world_rows",
]

_KINDS = len(ShapeKind)
_I64 = types.int64[::1]
_F64 = types.float64[::1]


class PairFilter(NamedTuple):
    """Per-row collision filter bits (contiguous int64): a pair passes when
    ``layer[a] & mask[b]`` and ``layer[b] & mask[a]`` are both non-zero."""

    layer: Int64Array
    mask: Int64Array


class PoseCircles(NamedTuple):
    """Per-row pose origins and inner/outer radii (contiguous float64, see
    :mod:`~arcade_collide.geometry.bounding_circles`), with the absolute ``slack``."""

    origin_x: FloatArray
    origin_y: FloatArray
    inner: FloatArray
    outer: FloatArray
    slack: float


@kernel(
    "void(int64[::1], int64[::1], int8[::1], boolean, int64[::1], int64[::1], boolean,"
    " float64[::1], float64[::1], float64[::1], float64[::1], float64, boolean[::1],"
    " int64[::1], int64[::1])"
)
def _screen(
    i: Int64Array,
    j: Int64Array,
    kinds: NDArray[np.int8],
    filtered: bool,
    layer: Int64Array,
    mask: Int64Array,
    circles: bool,
    origin_x: FloatArray,
    origin_y: FloatArray,
    inner: FloatArray,
    outer: FloatArray,
    slack: float,
    out: BoolArray,
    counts: Int64Array,
    order: Int64Array,
) -> None:
    """The filter and pose-circle verdicts into ``out``; the pairs they leave to the
    exact test are listed in ``order`` grouped by slot (a stable counting sort), slot
    ``s`` from ``counts[s]`` to ``counts[s + 1]``."""
    pending = np.empty(len(i), dtype=np.int64)
    slot = np.empty(len(i), dtype=np.int8)
    count = 0
    counts[:] = 0
    for p in range(len(i)):
        a = i[p]
        b = j[p]
        if filtered and ((layer[a] & mask[b]) == 0 or (layer[b] & mask[a]) == 0):
            out[p] = False
            continue
        if circles:
            verdict = pose_circle_verdict(
                origin_x[b] - origin_x[a],
                origin_y[b] - origin_y[a],
                inner[a] + inner[b],
                outer[a] + outer[b],
                slack,
            )
            if verdict != UNDECIDED:
                out[p] = verdict == SURELY_TOUCHING
                continue
        ka = kinds[a]
        kb = kinds[b]
        s = min(ka, kb) * _KINDS + max(ka, kb)
        pending[count] = p
        slot[count] = s
        counts[s + 1] += 1
        count += 1
    for s in range(1, len(counts)):
        counts[s] += counts[s - 1]
    if count > 0 and counts[slot[0] + 1] - counts[slot[0]] == count:
        order[:count] = pending[:count]  # one slot: already grouped
        return
    fill = counts[:-1].copy()
    for q in range(count):
        s = slot[q]
        order[fill[s]] = pending[q]
        fill[s] += 1


@kernel(
    types.void(
        ROWS, _I64, _I64, types.boolean, _I64, _I64, types.boolean, _F64, _F64, _F64, _F64,
        types.float64, types.boolean[::1],
    )
)  # fmt: skip
def _screened_touching(
    rows: WorldRows,
    i: Int64Array,
    j: Int64Array,
    filtered: bool,
    layer: Int64Array,
    mask: Int64Array,
    circles: bool,
    origin_x: FloatArray,
    origin_y: FloatArray,
    inner: FloatArray,
    outer: FloatArray,
    slack: float,
    out: BoolArray,
) -> None:
    """:func:`_screen`, then the exact tests of the pairs it left, in one call."""
    counts = np.empty(SLOTS + 1, dtype=np.int64)
    order = np.empty(len(i), dtype=np.int64)
    _screen(
        i, j, rows.kinds, filtered, layer, mask, circles, origin_x, origin_y, inner, outer,
        slack, out, counts, order,
    )  # fmt: skip
    run_pairs(rows, i, j, order, counts, False, out, np.empty((0, 5)))


def _kinds_present(rows: WorldRows) -> list[int]:
    """The shape kinds the table holds."""
    sizes = (
        len(rows.point_xy),
        len(rows.circle_radius),
        len(rows.rect_center),
        len(rows.triangle_vertices),
        len(rows.polygon_nverts),
    )
    return [kind for kind, size in enumerate(sizes) if size]


_NO_INDEX = np.empty(0, dtype=np.int64)
_NO_FLOAT = np.empty(0)
_NO_FILTER = PairFilter(_NO_INDEX, _NO_INDEX)
_NO_CIRCLES = PoseCircles(_NO_FLOAT, _NO_FLOAT, _NO_FLOAT, _NO_FLOAT, 0.0)


def _grouped(
    i: Int64Array, j: Int64Array, rows: WorldRows, out: BoolArray
) -> tuple[Int64Array, Int64Array]:
    """The order of the pairs grouped by slot, and the slot bounds (no screening)."""
    counts = np.empty(SLOTS + 1, dtype=np.int64)
    kinds = _kinds_present(rows)
    if len(kinds) == 1:
        counts[: kinds[0] * (_KINDS + 1) + 1] = 0  # every pair in the one slot
        counts[kinds[0] * (_KINDS + 1) + 1 :] = len(i)
        return np.arange(len(i), dtype=np.int64), counts
    order = np.empty(len(i), dtype=np.int64)
    _screen(
        i, j, rows.kinds, False, *_NO_FILTER, False, *_NO_CIRCLES[:4], 0.0, out, counts, order,
    )  # fmt: skip
    return order, counts


def touching_rows(
    i: Int64Array,
    j: Int64Array,
    rows: WorldRows,
    pair_filter: PairFilter | None = None,
    circles: PoseCircles | None = None,
) -> BoolArray:
    """Which candidate pairs ``(i[p], j[p])`` of table rows touch (closed shapes).

    Args:
        i: Table rows of one side of the pairs (int64).
        j: Table rows of the other side.
        rows: The table's shapes (:func:`world_rows`).
        pair_filter: Layer/mask bits; pairs it rejects are not touching.
        circles: Pose circles to decide most pairs without the exact test (the same
            answers, sooner).

    Returns:
        ``(M,)`` booleans, equal to ``intersects_batch`` on the same pairs.

    >>> from arcade_collide.geometry.arrays import pack
    >>> from arcade_collide.geometry.shapes import Circle, Rect
    >>> rows = world_rows(pack([Circle(1), Circle(1)], [(0, 0), (2, 0)]),
    ...                   pack([Rect(2, 2)], [(5, 0)]))
    >>> pairs = np.array([0, 0, 1]), np.array([1, 2, 2])  # touching, a miss, a miss
    >>> touching_rows(*pairs, rows).tolist()
    [True, False, False]
    """
    i = np.ascontiguousarray(i, dtype=np.int64)
    j = np.ascontiguousarray(j, dtype=np.int64)
    out = np.empty(len(i), dtype=np.bool_)
    if not len(i):
        return out  # (a compiled call costs microseconds even with nothing to do)
    if pair_filter is None and circles is None and len(_kinds_present(rows)) == 1:
        order, counts = _grouped(i, j, rows, out)  # nothing to screen
        run_pairs(rows, i, j, order, counts, False, out, NO_CONTACTS)
        return out
    f = pair_filter if pair_filter is not None else _NO_FILTER
    c = circles if circles is not None else _NO_CIRCLES
    _screened_touching(
        rows, i, j, pair_filter is not None, f.layer, f.mask, circles is not None, *c[:4],
        float(c.slack), out,
    )  # fmt: skip
    return out


@kernel(
    types.void(
        ROWS, _I64, _I64, types.boolean[::1], _I64, types.float64[:, ::1], _F64,
        types.float64[:, ::1],
    )
)  # fmt: skip
def contacts_at(
    rows: WorldRows,
    i: Int64Array,
    j: Int64Array,
    flip: BoolArray,
    at: Int64Array,
    normal: FloatArray,
    depth: FloatArray,
    point: FloatArray,
) -> None:
    """The contacts of the touching pairs ``(i[at[k]], j[at[k]])`` of table rows, in
    one call: ``normal[k]`` from side ``i`` to side ``j``, reversed where ``flip[at[k]]``,
    ``depth[k]`` and ``point[k]``, with no negative zeros in the normals and points.

    >>> from arcade_collide.geometry.arrays import pack
    >>> from arcade_collide.geometry.shapes import Circle
    >>> rows = world_rows(pack([Circle(1)] * 3, [(0, 0), (1.5, 0), (0, 2)]))
    >>> i, j, flip = np.array([0, 0]), np.array([1, 2]), np.array([False, True])
    >>> normal, depth, point = np.empty((2, 2)), np.empty(2), np.empty((2, 2))
    >>> contacts_at(rows, i, j, flip, np.array([1, 0]), normal, depth, point)
    >>> normal.tolist(), depth.tolist(), point.tolist()  # touching, then overlapping
    ([[0.0, -1.0], [1.0, 0.0]], [0.0, 0.5], [[0.0, 1.0], [0.75, 0.0]])
    """
    m = len(at)
    pi = np.empty(m, dtype=np.int64)
    pj = np.empty(m, dtype=np.int64)
    for k in range(m):
        pi[k] = i[at[k]]
        pj[k] = j[at[k]]
    hit = np.empty(m, dtype=np.bool_)
    out = np.empty((m, 5))
    counts = np.empty(SLOTS + 1, dtype=np.int64)
    order = np.empty(m, dtype=np.int64)
    no_ints = np.empty(0, dtype=np.int64)
    no_floats = np.empty(0)
    _screen(
        pi, pj, rows.kinds, False, no_ints, no_ints, False, no_floats, no_floats, no_floats,
        no_floats, 0.0, hit, counts, order,
    )  # fmt: skip
    run_pairs(rows, pi, pj, order, counts, True, hit, out)
    for k in range(m):
        sign = -1.0 if flip[at[k]] else 1.0
        normal[k, 0] = sign * out[k, 0] + 0.0  # (+ 0.0: a negative zero made positive)
        normal[k, 1] = sign * out[k, 1] + 0.0
        depth[k] = out[k, 2]
        point[k, 0] = out[k, 3] + 0.0
        point[k, 1] = out[k, 4] + 0.0


def contact_rows(
    i: Int64Array, j: Int64Array, rows: WorldRows
) -> tuple[BoolArray, FloatArray, FloatArray, FloatArray]:
    """Contacts of the pairs of table rows ``(i[p], j[p])``, normals from ``i`` to ``j``.

    Args:
        i: Table rows of side A.
        j: Table rows of side B.
        rows: The table's shapes (:func:`world_rows`).

    Returns:
        ``(hit, normal, depth, point)`` as in
        :class:`~arcade_collide.geometry.arrays.BatchContacts`: ``(M,)``, ``(M, 2)``,
        ``(M,)``, ``(M, 2)``, zeros where a pair does not touch; equal to
        ``contact_batch`` on the same pairs.

    >>> from arcade_collide.geometry.arrays import pack
    >>> from arcade_collide.geometry.shapes import Circle
    >>> rows = world_rows(pack([Circle(1)] * 3, [(0, 0), (1.5, 0), (5, 0)]))
    >>> hit, normal, depth, point = contact_rows(np.array([0, 0]), np.array([1, 2]), rows)
    >>> hit.tolist(), normal.tolist(), depth.tolist(), point.tolist()  # a hit, a miss
    ([True, False], [[1.0, 0.0], [0.0, 0.0]], [0.5, 0.0], [[0.75, 0.0], [0.0, 0.0]])
    """
    i = np.ascontiguousarray(i, dtype=np.int64)
    j = np.ascontiguousarray(j, dtype=np.int64)
    m = len(i)
    hit = np.empty(m, dtype=np.bool_)
    out = np.empty((m, 5), dtype=np.float64)
    order, counts = _grouped(i, j, rows, hit)
    run_pairs(rows, i, j, order, counts, True, hit, out)
    return hit, out[:, 0:2].copy(), out[:, 2].copy(), out[:, 3:5].copy()

"""The narrow phase over a world table: the candidate pairs' tests and contacts.

:func:`touching_rows` decides, for every candidate pair of rows of a world table,
whether the two shapes touch: the layer/mask filter first, then the pose-centred
circles of :mod:`~arcade_collide.geometry.bounding_circles`, then the exact test of
the pair's shape types. :func:`contact_rows` computes the contacts of pairs.

Both group the pairs by their ordered shape kinds ``(kind_a, kind_b)`` (a counting
sort) and run, once per kind pair present, the loop the dispatch table compiled for
that slot (:data:`~arcade_collide.geometry.query.dispatch.TABLE`): the same kernels
the public queries run, swapped and flipped for the reverse order as the table says.

This module never imports esper or arcade.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.bounding_circles import (
    SURELY_TOUCHING,
    UNDECIDED,
    pose_circle_verdict,
)
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.dispatch import TABLE
from arcade_collide.geometry.query.kernel_base import Int64Array, WorldRows, world_rows
from arcade_collide.geometry.shapes import ShapeKind

__all__ = [
    "PairFilter",
    "PoseCircles",
    "WorldRows",
    "contact_rows",
    "touching_rows",
    "world_rows",
]

_KINDS = len(ShapeKind)
_SLOTS = [TABLE[(ShapeKind(g // _KINDS), ShapeKind(g % _KINDS))] for g in range(_KINDS * _KINDS)]
"""The table's entries by slot number ``kind_a * 5 + kind_b``."""


class PairFilter(NamedTuple):
    """Per-row collision filter bits: a pair passes when ``layer[a] & mask[b]`` and
    ``layer[b] & mask[a]`` are both non-zero."""

    layer: Int64Array
    mask: Int64Array


class PoseCircles(NamedTuple):
    """Per-row pose origins and inner/outer radii (see
    :mod:`~arcade_collide.geometry.bounding_circles`), with the absolute ``slack``."""

    origin_x: FloatArray
    origin_y: FloatArray
    inner: FloatArray
    outer: FloatArray
    slack: float


@kernel("void(int64[::1], int64[::1], int8[::1], int64[::1], int64[::1])")
def _group(
    i: Int64Array, j: Int64Array, kinds: NDArray[np.int8], counts: Int64Array, order: Int64Array
) -> None:
    """Counting sort of the pairs ``p`` listed in ``order`` by their table slot
    ``kinds[i[p]] * 5 + kinds[j[p]]``, in place; ``counts[s]`` is where slot ``s``
    starts (``counts[25]``: the end). Stable: within a slot, pairs keep their order."""
    counts[:] = 0
    for q in range(len(order)):
        p = order[q]
        counts[kinds[i[p]] * _KINDS + kinds[j[p]] + 1] += 1
    for s in range(1, len(counts)):
        counts[s] += counts[s - 1]
    fill = counts[:-1].copy()
    pending = order.copy()
    for q in range(len(pending)):
        p = pending[q]
        s = kinds[i[p]] * _KINDS + kinds[j[p]]
        order[fill[s]] = p
        fill[s] += 1


@kernel(
    "int64(int64[::1], int64[::1], boolean, int64[::1], int64[::1], boolean,"
    " float64[::1], float64[::1], float64[::1], float64[::1], float64, boolean[::1],"
    " int64[::1])"
)
def _screen(
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
    pending: Int64Array,
) -> int:
    """The filter and pose-circle verdicts into ``out``; the pairs they leave to the
    exact test go to ``pending``, whose length is returned."""
    count = 0
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
        pending[count] = p
        count += 1
    return count


def _slots(
    i: Int64Array, j: Int64Array, rows: WorldRows, order: Int64Array
) -> list[tuple[int, Int64Array]]:
    """The pairs listed in ``order`` grouped by table slot: ``(slot, pairs)`` for each
    slot present (one group, unsorted, when the table holds a single kind)."""
    sizes = (
        len(rows.point_xy),
        len(rows.circle_radius),
        len(rows.rect_center),
        len(rows.triangle_vertices),
        len(rows.polygon_nverts),
    )
    present = [kind for kind, size in enumerate(sizes) if size]
    if len(present) == 1:
        return [(present[0] * (_KINDS + 1), order)] if len(order) else []
    counts = np.empty(_KINDS * _KINDS + 1, dtype=np.int64)
    _group(i, j, rows.kinds, counts, order)
    slots = np.flatnonzero(counts[1:] > counts[:-1]).tolist()
    return [(s, order[counts[s] : counts[s + 1]]) for s in slots]


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
    >>> kinds = np.array([ShapeKind.CIRCLE, ShapeKind.CIRCLE, ShapeKind.RECT], dtype=np.int8)
    >>> world = {ShapeKind.CIRCLE: pack([Circle(1), Circle(1)], [(0, 0), (2, 0)]),
    ...          ShapeKind.RECT: pack([Rect(2, 2)], [(5, 0)])}
    >>> rows = world_rows(kinds, world, {ShapeKind.CIRCLE: 0, ShapeKind.RECT: 2})
    >>> pairs = np.array([0, 0, 1]), np.array([1, 2, 2])  # touching, a miss, a miss
    >>> touching_rows(*pairs, rows).tolist()
    [True, False, False]
    """
    i = np.ascontiguousarray(i, dtype=np.int64)
    j = np.ascontiguousarray(j, dtype=np.int64)
    out = np.empty(len(i), dtype=np.bool_)
    pending = np.empty(len(i), dtype=np.int64)
    none = np.empty(0, dtype=np.int64)
    nowhere = np.empty(0)
    f = pair_filter if pair_filter is not None else PairFilter(none, none)
    c = circles if circles is not None else PoseCircles(nowhere, nowhere, nowhere, nowhere, 0.0)
    floats = [np.ascontiguousarray(v, dtype=np.float64) for v in c[:4]]
    count = _screen(
        i,
        j,
        pair_filter is not None,
        np.ascontiguousarray(f.layer, dtype=np.int64),
        np.ascontiguousarray(f.mask, dtype=np.int64),
        circles is not None,
        floats[0],
        floats[1],
        floats[2],
        floats[3],
        float(c.slack),
        out,
        pending,
    )
    for s, group in _slots(i, j, rows, pending[:count]):
        entry = _SLOTS[s]
        entry.pair.run_intersects(rows, i, j, group, entry.swapped, out)
    return out


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
    >>> kinds = np.full(3, ShapeKind.CIRCLE, dtype=np.int8)
    >>> rows = world_rows(kinds, {ShapeKind.CIRCLE: pack([Circle(1)] * 3,
    ...                   [(0, 0), (1.5, 0), (5, 0)])}, {ShapeKind.CIRCLE: 0})
    >>> hit, normal, depth, point = contact_rows(np.array([0, 0]), np.array([1, 2]), rows)
    >>> hit.tolist(), normal.tolist(), depth.tolist(), point.tolist()  # a hit, a miss
    ([True, False], [[1.0, 0.0], [0.0, 0.0]], [0.5, 0.0], [[0.75, 0.0], [0.0, 0.0]])
    """
    i = np.ascontiguousarray(i, dtype=np.int64)
    j = np.ascontiguousarray(j, dtype=np.int64)
    m = len(i)
    hit = np.empty(m, dtype=np.bool_)
    out = np.empty((m, 5), dtype=np.float64)
    for s, group in _slots(i, j, rows, np.arange(m, dtype=np.int64)):
        entry = _SLOTS[s]
        entry.pair.run_contacts(rows, i, j, group, entry.swapped, hit, out)
    return hit, out[:, 0:2].copy(), out[:, 2].copy(), out[:, 3:5].copy()

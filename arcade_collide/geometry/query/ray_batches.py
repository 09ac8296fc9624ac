"""Ray casts and shape casts of many rows at once, each batch one compiled call.

Like :func:`~arcade_collide.geometry.query.dispatch.intersects_batch`, row ``i`` of a
batch is one query on row ``i`` of world-space shape records
(:func:`~arcade_collide.geometry.arrays.pack` builds them); the answer equals the
scalar query's row by row.
"""

from __future__ import annotations

import math

import numpy as np

from arcade_collide.geometry.arrays import FloatArray, ShapeArrays
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.hits import BatchCastHits, BatchRayHits
from arcade_collide.geometry.query.casts import cast_rows
from arcade_collide.geometry.query.dispatch import _arrays_kind, _batch_table
from arcade_collide.geometry.query.kernel_base import ROWS, Int64Array, WorldRows, types, world_rows
from arcade_collide.geometry.query.ray_queries import check_max_distance
from arcade_collide.geometry.query.rays import ray_row

_F1 = types.float64[::1]


def _vectors(value: object, name: str, m: int | None) -> FloatArray:
    """``value`` as an ``(m, 2)`` float array of finite numbers (any number of rows when
    ``m`` is None), or an error naming ``name``."""
    try:
        array = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an (M, 2) array of numbers") from None
    rows = "M" if m is None else m
    if array.ndim != 2 or array.shape[1] != 2 or rows not in ("M", len(array)):
        raise ValueError(f"{name} must have shape ({rows}, 2), got {array.shape}")
    if not np.isfinite(array).all():
        raise ValueError(f"{name} must be finite")
    return array


def parse_rays(
    origins: object, directions: object, max_distance: float | FloatArray, m: int | None = None
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Check ``m`` rays' arguments (as many as ``origins`` holds when ``m`` is None), as
    :func:`~.ray_queries.parse_ray` checks one ray's;
    return them in the kernels' form: ``(origins, directions, limits, lengths)``, each
    direction scaled by a power of two, the limits in units of it, and its length.

    >>> parse_rays([(0, 0)], [(0, 4)], 2.0, 1)[1:]
    (array([[0. , 0.5]]), array([4.]), array([0.5]))
    """
    o = _vectors(origins, "origins", m)
    m = len(o)
    d = _vectors(directions, "directions", m)
    if isinstance(max_distance, np.ndarray):
        limit = max_distance.reshape(-1)
        if limit.dtype.kind != "f" or not (limit >= 0.0).all():
            # Not all plain: check each value, for the message naming the first bad one.
            limit = np.array([check_max_distance(x, f"max_distance[{i}]")
                              for i, x in enumerate(limit)])  # fmt: skip
        if max_distance.shape != (m,):
            raise ValueError(f"max_distance must have shape ({m},), got {max_distance.shape}")
    else:
        limit = np.full(m, check_max_distance(max_distance))
    zero = ~d.any(axis=1)
    if zero.any():
        raise ValueError(f"directions[{int(np.argmax(zero))}] must be a non-zero vector")
    # Scale each direction's larger component into [0.5, 1): a power of two, so exact.
    exponent = np.frexp(np.abs(d).max(axis=1))[1]
    d = np.ldexp(d, -exponent[:, None])
    length = np.sqrt(d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1])  # as parse_ray computes it
    return o, d, limit / length, length


@kernel(types.void(ROWS, *(_F1,) * 5, types.float64[:, ::1]))
def _rays(
    rows: WorldRows,
    ox: FloatArray,
    oy: FloatArray,
    dx: FloatArray,
    dy: FloatArray,
    limit: FloatArray,
    out: FloatArray,
) -> None:
    """Ray ``t`` against table row ``t``: ``out[t] = (hit, s, nx, ny)``."""
    for t in range(len(ox)):
        hit, s, nx, ny = ray_row(rows, t, ox[t], oy[t], dx[t], dy[t], limit[t])
        out[t, 0] = 1.0 if hit else 0.0
        out[t, 1] = s
        out[t, 2] = nx
        out[t, 3] = ny


def ray_cast_batch(
    shapes: ShapeArrays,
    origins: object,
    directions: object,
    max_distance: float | FloatArray = math.inf,
) -> BatchRayHits:
    """Ray ``i`` (``origins[i]`` along ``directions[i]``) against shape ``shapes[i]``:
    row ``i`` is :func:`~.ray_queries.ray_cast` of them.

    Args:
        shapes: ``M`` world-space shapes of one type (a batch record).
        origins: ``(M, 2)`` ray origins.
        directions: ``(M, 2)`` non-zero directions.
        max_distance: One distance ``>= 0`` for all rays, or ``(M,)`` of them.

    Returns:
        The hits, zeros in the rows that miss.

    Raises:
        TypeError: ``shapes`` is not a batch record, or an argument holds no numbers.
        ValueError: a shape mismatch, a NaN or infinite coordinate, a zero direction,
            a NaN or negative distance.

    >>> from arcade_collide.geometry.arrays import pack
    >>> from arcade_collide.geometry.shapes import Rect
    >>> r = ray_cast_batch(pack([Rect(2, 2)] * 3, [(5, 0)] * 3),
    ...                    [(0, 0), (0, 3), (0, 1)], [(1, 0)] * 3)
    >>> r.hit.tolist(), r.distance.tolist()  # hit, miss, along an edge
    ([True, False, True], [4.0, 0.0, 4.0])
    """
    _arrays_kind(shapes, "shapes")
    m = len(shapes[0])
    o, d, limit, length = parse_rays(origins, directions, max_distance, m)
    out = np.empty((m, 4))
    rows = world_rows(shapes)
    _rays(rows, o[:, 0].copy(), o[:, 1].copy(), d[:, 0].copy(), d[:, 1].copy(), limit, out)
    hit = out[:, 0] != 0.0
    s = out[:, 1]
    point = np.where(hit[:, None], o + s[:, None] * d, 0.0)
    return BatchRayHits(hit, s * length, point, out[:, 2:4].copy())


@kernel(types.void(ROWS, types.int64[::1], types.int64[::1], _F1, _F1, types.float64[:, ::1]))
def _casts(
    rows: WorldRows,
    i: Int64Array,
    j: Int64Array,
    tx: FloatArray,
    ty: FloatArray,
    out: FloatArray,
) -> None:
    """Row ``i[p]`` moved along ``(tx[p], ty[p])`` against row ``j[p]``:
    ``out[p] = (hit, fraction, px, py, nx, ny)``, zeros when they never touch."""
    for p in range(len(i)):
        row = out[p]
        hit = cast_rows(rows, i[p], rows, j[p], tx[p], ty[p], row[1:])
        row[0] = 1.0 if hit else 0.0
        if not hit:
            row[1:] = 0.0


def shape_cast_batch(a: ShapeArrays, translations: object, b: ShapeArrays) -> BatchCastHits:
    """Shape ``a[i]`` moved along ``translations[i]`` against shape ``b[i]``: row ``i``
    is :func:`~.ray_queries.shape_cast` of them.

    Args:
        a: ``M`` world-space moving shapes of one type.
        translations: ``(M, 2)`` translations.
        b: ``M`` world-space still shapes of one type.

    Returns:
        The first touches, zeros in the rows that never touch.

    Raises:
        TypeError: ``a`` or ``b`` is not a batch record, or ``translations`` holds no numbers.
        ValueError: a shape mismatch or a NaN or infinite translation.

    >>> from arcade_collide.geometry.arrays import pack
    >>> from arcade_collide.geometry.shapes import Circle, Rect
    >>> r = shape_cast_batch(pack([Circle(1)] * 3, [(0, 0), (0, 3), (0, 2)]),
    ...                      [(10, 0)] * 3, pack([Rect(2, 2)] * 3, [(6, 0)] * 3))
    >>> r.hit.tolist(), r.fraction.tolist()  # hit, miss, grazing the corner
    ([True, False, True], [0.4, 0.0, 0.5])
    """
    rows, i, j, _, _ = _batch_table(a, b)
    t = _vectors(translations, "translations", len(i))
    out = np.empty((len(i), 6))
    _casts(rows, i, j, t[:, 0].copy(), t[:, 1].copy(), out)
    return BatchCastHits(out[:, 0] != 0.0, out[:, 1].copy(), out[:, 2:4].copy(), out[:, 4:6].copy())

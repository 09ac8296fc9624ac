"""The shape table's columns that follow from entities' components: kind, layers, size,
local outline, pose circles and Position row.

:meth:`~arcade_collide.ecs.layout.Layout.build` makes a whole table's columns with
:func:`columns`; a structural change makes only its newcomers' columns, which
:mod:`~arcade_collide.ecs.row_reuse` writes at the rows of leavers or
:meth:`~arcade_collide.ecs.layout.Layout.merged` merges in.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection
from operator import itemgetter
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from arcade_collide.ecs.components import SHARED, Position, Shape
from arcade_collide.ecs.storage import PooledRows, RowPool
from arcade_collide.ecs.world_state import ShapeEpoch
from arcade_collide.geometry.arrays import BoolArray, FloatArray, IntArray
from arcade_collide.geometry.bounding_circles import (
    circle_pose_circles,
    convex_pose_circles,
    pose_circles,
)
from arcade_collide.geometry.query.kernel_base import Int64Array
from arcade_collide.geometry.shapes import ShapeKind

Item = tuple[int, tuple[Position, Shape]]
"""An entity and its Position and Shape, as ``esper.get_components`` lists them."""

_KINDS = len(ShapeKind)
_FEW = 32
_known_pose_circles = functools.lru_cache(maxsize=64)(pose_circles)
""":func:`pose_circles` of a convex shape, by its value (shapes are immutable values);
the last few kept, so that a game spawning the same bullets pays once."""


class Columns(NamedTuple):
    """The columns of some entities' rows, kind-major and entity-minor: the fields of a
    :class:`~arcade_collide.ecs.layout.Layout` of the same names."""

    entities: IntArray
    positions: PooledRows
    """Each row's Position, read through its pool."""
    pool: RowPool | None
    """The one pool holding every row's Position, each its own row (else None)."""
    pool_rows: Int64Array
    kinds: NDArray[np.int8]
    """Each row's :class:`~arcade_collide.geometry.shapes.ShapeKind` (non-decreasing)."""
    shape_ids: Int64Array
    """``id`` of each row's Shape."""
    layer: IntArray
    mask: IntArray
    sensor: BoolArray
    sweep: NDArray[np.int8]
    static: BoolArray
    inner: FloatArray
    outer: FloatArray
    size_x: FloatArray
    size_y: FloatArray
    local: FloatArray
    """The convex rows' padded outlines (:attr:`~arcade_collide.ecs.layout.Layout.local`)."""
    nlocal: Int64Array


def columns(
    live: list[Item],
    statics: Collection[int],
    epoch: ShapeEpoch,
    held: Callable[[int, int], bool] | None = None,
) -> Columns:
    """The columns of the entities of ``live`` (distinct, in any order), rows ordered by
    kind, then entity id; the Shapes are told of the world's ``epoch`` and of their
    owners (:func:`claim`).

    Args:
        live: The entities and their Position and Shape.
        statics: Entities holding :class:`~arcade_collide.ecs.components.Static`
            (at least those of ``live``).
        epoch: The world's shape epoch, which edits of these Shapes bump.
        held: Whether an entity outside ``live`` still holds a Shape (see
            :func:`claim`); None for a table built afresh.

    Raises:
        ValueError: an entity id is 2**63 or more.
    """
    # Kind-major, entity-minor: each kind is one block, rows in a fixed order.
    live = sorted(live, key=itemgetter(0))
    n = len(live)
    by_kind = [s._geometry.kind for _, (_, s) in live]
    live = [live[k] for k in sorted(range(n), key=by_kind.__getitem__)]
    try:
        entities = np.fromiter(map(itemgetter(0), live), dtype=np.int64, count=n)
    except OverflowError:
        # esper counts ids up from 1, so an id beyond int64 takes 2**63 creations.
        entity = max(entity for entity, _ in live)
        raise ValueError(f"entity {entity}: entity ids must be below 2**63") from None
    shapes = [shape for _, (_, shape) in live]
    claim(live, epoch, held)
    geoms = [s._geometry for s in shapes]
    kinds = np.fromiter((g.kind for g in geoms), dtype=np.int8, count=n)
    size_x, size_y, inner, outer = np.zeros((4, n))
    bounds = np.searchsorted(kinds, np.arange(_KINDS + 1), side="left")
    circles = slice(bounds[ShapeKind.CIRCLE], bounds[ShapeKind.RECT])
    size_x[circles] = [g.radius for g in geoms[circles]]  # type: ignore[union-attr]
    inner[circles], outer[circles] = circle_pose_circles(size_x[circles])
    rects = slice(bounds[ShapeKind.RECT], bounds[ShapeKind.TRIANGLE])
    size_x[rects] = [g.half_width for g in geoms[rects]]  # type: ignore[union-attr]
    size_y[rects] = [g.half_height for g in geoms[rects]]  # type: ignore[union-attr]
    # Convex outlines padded to one width with their last vertex.
    convex = slice(bounds[ShapeKind.RECT], n)
    outlines = [g.local_vertices() for g in geoms[convex]]  # type: ignore[union-attr]
    width = max(map(len, outlines), default=4)
    padded = [v + (v[-1],) * (width - len(v)) for v in outlines]
    local = np.array(padded, dtype=np.float64).reshape(len(outlines), width, 2)
    if len(outlines) > _FEW:
        inner[convex], outer[convex] = convex_pose_circles(local)
    elif outlines:  # a few (spawned ones): looked up by value, quicker than a pass
        known = list(map(_known_pose_circles, geoms[convex]))
        inner[convex] = [pair[0] for pair in known]
        outer[convex] = [pair[1] for pair in known]
    positions = PooledRows([position for _, (position, _) in live])
    pool = positions.pools[0] if len(positions.pools) == 1 else None
    if len(set(positions.rows.tolist())) < n:
        pool = None  # a Position shared by several entities: no row log
    return Columns(
        entities, positions, pool, positions.rows, kinds,
        np.fromiter(map(id, shapes), dtype=np.int64, count=n),
        np.fromiter((s._layer for s in shapes), dtype=np.int64, count=n),
        np.fromiter((s._mask for s in shapes), dtype=np.int64, count=n),
        np.fromiter((s._sensor for s in shapes), dtype=np.bool_, count=n),
        np.fromiter(map(sweep_code, shapes), dtype=np.int8, count=n),
        _members(entities, statics),
        inner, outer, size_x, size_y, local,
        np.fromiter(map(len, outlines), dtype=np.int64, count=len(outlines)),
    )  # fmt: skip


def claim(live: list[Item], epoch: ShapeEpoch, held: Callable[[int, int], bool] | None) -> None:
    """Record each entity of ``live`` as its Shape's owner in the world of ``epoch``
    (the world's table finds an edited Shape's row by its owner).

    A Shape met twice in ``live``, or whose owner recorded before still holds it
    (``held(owner, id(shape))``), is marked :data:`~arcade_collide.ecs.components.SHARED`,
    and so is one marked so before; with ``held`` None (a table built afresh from every
    entity) only a Shape met twice is.
    """
    claimed: set[int] = set()
    for entity, (_, shape) in live:
        sid = id(shape)
        epochs = shape._epochs
        if epoch not in epochs:
            shape._epochs = (*epochs, epoch)
            shape._owners = (*shape._owners, entity)
        else:
            k = epochs.index(epoch)
            before = shape._owners[k]
            shared = sid in claimed or (
                held is not None and (before == SHARED or held(before, sid))
            )
            owner = SHARED if shared else entity
            shape._owners = (*shape._owners[:k], owner, *shape._owners[k + 1 :])
        claimed.add(sid)


def sweep_code(shape: Shape) -> int:
    """A Shape's :attr:`~arcade_collide.ecs.layout.Layout.sweep` code."""
    return (1 + shape._stop_at_impact) if shape._swept else 0


def _members(entities: IntArray, members: Collection[int]) -> BoolArray:
    """Which of ``entities`` are among ``members`` (no search when there are none)."""
    if not members:
        return np.zeros(len(entities), dtype=np.bool_)
    if len(entities) <= _FEW:
        return np.array([e in members for e in entities.tolist()], dtype=np.bool_)
    return np.isin(entities, np.fromiter(members, dtype=np.int64, count=len(members)))

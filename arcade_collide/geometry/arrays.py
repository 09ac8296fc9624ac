"""World-space array forms of the shapes, for the batch queries and the world rows.

Each ``*Arrays`` record holds ``M`` shapes of one type already in WORLD space (first
axis ``M``). :func:`pack` builds one from shapes and poses; the ECS places its
components with the same arithmetic (:mod:`~arcade_collide.geometry.query.placement`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, TypeVar

import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.pose import Pose, parse_pose, rotation
from arcade_collide.geometry.shapes import AnyShape, Circle, Point, Polygon, Rect, Triangle

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]


class PointArrays(NamedTuple):
    """``M`` points."""

    xy: FloatArray
    """``(M, 2)`` world positions."""


class CircleArrays(NamedTuple):
    """``M`` circles."""

    center: FloatArray
    """``(M, 2)`` world centres."""
    radius: FloatArray
    """``(M,)`` radii, > 0."""


class RectArrays(NamedTuple):
    """``M`` rotated rectangles."""

    center: FloatArray
    """``(M, 2)`` world centres."""
    axis: FloatArray
    """``(M, 2)`` unit vector of the rectangle's local x axis in world space,
    ``(cos, -sin)`` of the clockwise angle; the local y axis is ``(sin, cos)``."""
    half: FloatArray
    """``(M, 2)`` half width and half height."""
    vertices: FloatArray
    """``(M, 4, 2)`` world corners, counter-clockwise (y up), in
    :meth:`Rect.local_vertices` order."""


class TriangleArrays(NamedTuple):
    """``M`` triangles."""

    vertices: FloatArray
    """``(M, 3, 2)`` world vertices in the order the shapes gave them (any winding)."""


class PolygonArrays(NamedTuple):
    """``M`` convex polygons with up to ``K`` vertices."""

    vertices: FloatArray
    """``(M, K, 2)`` world vertices, counter-clockwise (y up); a polygon with fewer
    than ``K`` vertices repeats its last vertex to fill the row."""
    nverts: IntArray
    """``(M,)`` number of real vertices per row (3..K). (Named ``nverts`` because
    ``count`` is a tuple method.)"""


ShapeArrays = PointArrays | CircleArrays | RectArrays | TriangleArrays | PolygonArrays
"""Any of the batch records."""


_A = TypeVar("_A", PointArrays, CircleArrays, RectArrays, TriangleArrays, PolygonArrays)


class BatchContacts(NamedTuple):
    """Results of a batch contact query over ``M`` pairs.

    Row ``i`` follows :class:`~arcade_collide.geometry.contact.Contact`'s
    conventions: ``normal[i]`` is a unit vector from A towards B, translating B by
    ``normal[i] * depth[i]`` separates the pair, ``point[i]`` is midway between
    the surfaces. Rows where ``hit`` is False hold zeros.
    """

    hit: BoolArray
    """``(M,)`` True where the pair touches or overlaps."""
    normal: FloatArray
    """``(M, 2)`` unit normals from A to B."""
    depth: FloatArray
    """``(M,)`` penetration depths, >= 0."""
    point: FloatArray
    """``(M, 2)`` contact points."""

    def flipped(self) -> BatchContacts:
        """The same contacts seen from B: normals reversed."""
        return BatchContacts(self.hit, -self.normal, self.depth, self.point)


def take(arrays: _A, rows: IntArray | BoolArray) -> _A:
    """Select rows of a batch record (fancy indexing on every field).

    >>> take(CircleArrays(np.zeros((3, 2)), np.array([1.0, 2.0, 3.0])), np.array([2, 0])).radius
    array([3., 1.])
    """
    if rows.dtype == np.bool_:
        rows = np.flatnonzero(rows)
    # np.take along axis 0 is several times faster than ``field[rows]`` on 2-D and 3-D
    # fields (numpy's general fancy-indexing path), and gives the same rows.
    return type(arrays)(*(np.take(field, rows, axis=0) for field in arrays))  # type: ignore[arg-type]


def transform(local: FloatArray, xy: FloatArray, cos: FloatArray, sin: FloatArray) -> FloatArray:
    """World positions of local offsets ``(M, K, 2)`` for ``M`` poses.

    Same arithmetic, in the same order, as
    :func:`~arcade_collide.geometry.pose.to_world`.

    >>> transform(np.array([[[10.0, 0.0]]]), np.zeros((1, 2)), np.array([0.0]), np.array([1.0]))
    array([[[  0., -10.]]])
    """
    lx = local[..., 0]
    ly = local[..., 1]
    c = cos[:, None]
    s = sin[:, None]
    out = np.empty(local.shape, dtype=np.float64)
    out[..., 0] = xy[:, 0:1] + lx * c + ly * s
    out[..., 1] = xy[:, 1:2] - lx * s + ly * c
    return out


@kernel("UniTuple(float64, 2)(float64, float64, float64, float64, float64, float64)", inline=True)
def world_point(
    x: float, y: float, cos: float, sin: float, lx: float, ly: float
) -> tuple[float, float]:
    """:func:`~arcade_collide.geometry.pose.to_world` in compiled code: the local offset
    ``(lx, ly)`` placed by the pose ``(x, y)`` turned by ``(cos, sin)``, the same
    operations in the same order as :func:`transform`."""
    return x + lx * cos + ly * sin, y - lx * sin + ly * cos


def pack(shapes: Sequence[AnyShape], poses: Sequence[Pose]) -> ShapeArrays:
    """Build the world-space batch record for shapes of ONE type and their poses.

    Args:
        shapes: Shapes, all of the same type.
        poses: One pose per shape.

    Raises:
        TypeError: a shape is not one of the five geometry shapes.
        ValueError: mixed shape types, empty input, or lengths differ.

    >>> pack([Circle(1), Circle(2)], [(0, 0), (5, 5, 30)]).radius
    array([1., 2.])
    >>> pack([Circle(1), Rect(1, 1)], [(0, 0), (0, 0)])
    Traceback (most recent call last):
    ...
    ValueError: pack needs shapes of one type: shapes[0] is Circle but shapes[1] is Rect
    """
    if len(shapes) != len(poses):
        raise ValueError(f"got {len(shapes)} shapes but {len(poses)} poses")
    if not shapes:
        raise ValueError("pack needs at least one shape")
    kind = type(shapes[0])
    if kind not in (Point, Circle, Rect, Triangle, Polygon):
        raise TypeError(
            f"shapes[0] must be a Point, Circle, Rect, Triangle or Polygon, got {kind.__name__}"
        )
    for i, s in enumerate(shapes):
        if type(s) is not kind:
            raise ValueError(
                f"pack needs shapes of one type: shapes[0] is {kind.__name__} "
                f"but shapes[{i}] is {type(s).__name__}"
            )
    parsed = np.array([parse_pose(p, f"poses[{i}]") for i, p in enumerate(poses)])
    xy = np.ascontiguousarray(parsed[:, :2])
    rot = np.array([rotation(a) for a in parsed[:, 2]]).reshape(-1, 2)
    cos, sin = rot[:, 0], rot[:, 1]
    if kind is Point:
        return PointArrays(xy)
    if kind is Circle:
        return CircleArrays(xy, np.array([s.radius for s in shapes]))  # type: ignore[union-attr]
    if kind is Rect:
        rects: Sequence[Rect] = shapes  # type: ignore[assignment]
        local = np.array([r.local_vertices() for r in rects], dtype=np.float64)
        half = np.array([(r.half_width, r.half_height) for r in rects], dtype=np.float64)
        axis = np.stack([cos, -sin], axis=1)
        return RectArrays(xy, axis, half, transform(local, xy, cos, sin))
    if kind is Triangle:
        tris: Sequence[Triangle] = shapes  # type: ignore[assignment]
        local = np.array([t.local_vertices() for t in tris], dtype=np.float64)
        return TriangleArrays(transform(local, xy, cos, sin))
    polys: Sequence[Polygon] = shapes  # type: ignore[assignment]
    count = np.array([len(p.points) for p in polys], dtype=np.intp)
    k = int(count.max())
    local = np.array(
        [list(p.points) + [p.points[-1]] * (k - len(p.points)) for p in polys], dtype=np.float64
    )
    return PolygonArrays(transform(local, xy, cos, sin), count)

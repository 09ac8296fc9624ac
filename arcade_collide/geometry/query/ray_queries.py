"""The public, validating ray casts and shape casts, single and batched.

Each query validates its arguments in Python (the shapes and poses as
:func:`~arcade_collide.geometry.query.dispatch.intersects` does), then makes one
compiled call: the shapes are placed in a small table
(:func:`~arcade_collide.geometry.query.placement.place_row`) and run through the
kernels of :mod:`.rays` and :mod:`.casts`. :class:`Ray` is a checked ray in the kernels'
form, for the world queries built on :mod:`.ray_rows` and
:mod:`~arcade_collide.geometry.grid_ray`.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import numpy as np

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.hits import CastHit, RayHit
from arcade_collide.geometry.pose import check_vec2, to_float
from arcade_collide.geometry.query.casts import cast_rows, pair_rows
from arcade_collide.geometry.query.dispatch import (
    geometry_of,
    pose_terms,
)
from arcade_collide.geometry.query.kernel_base import (
    ROWS,
    WorldRows,
    empty_rows,
    types,
)
from arcade_collide.geometry.query.placement import place_row
from arcade_collide.geometry.query.rays import HIT, Hit, ray_row
from arcade_collide.geometry.shapes import AnyShape, ShapeKind

_POLYGON = int(ShapeKind.POLYGON)
_F = types.float64
_GEOMETRY: Any = (types.int64, _F, _F, types.float64[:, ::1])
_POSE: Any = (_F,) * 4


class Ray(NamedTuple):
    """A checked ray in the kernels' form: ``(ox, oy) + s * (dx, dy)`` for ``s`` in
    ``[0, limit]``. The direction is the caller's scaled by a power of two (exactly),
    ``length`` its norm, so a distance is ``s * length``."""

    ox: float
    oy: float
    dx: float
    dy: float
    limit: float
    """``max_distance / length`` (infinite for an infinite ray)."""
    length: float

    def hit(self, s: float, nx: float, ny: float) -> RayHit:
        """The :class:`RayHit` of a kernel result ``(s, nx, ny)``.

        >>> parse_ray((1, 2), (0, 4)).hit(2.0, 0.0, -1.0)
        RayHit(distance=1.0, point=(1.0, 3.0), normal=(0.0, -1.0))
        """
        return RayHit(s * self.length, (self.ox + s * self.dx, self.oy + s * self.dy), (nx, ny))


def check_max_distance(value: object, name: str = "max_distance") -> float:
    """``value`` as a float in ``[0, inf]``, or an error naming ``name``.

    >>> check_max_distance(math.inf)
    inf
    >>> check_max_distance(-1)
    Traceback (most recent call last):
    ...
    ValueError: max_distance must be >= 0, got -1.0
    """
    if isinstance(value, (bool, str, bytes)) or not hasattr(value, "__float__"):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    distance = to_float(value, name)
    if math.isnan(distance):
        raise ValueError(f"{name} must not be NaN")
    if distance < 0.0:
        raise ValueError(f"{name} must be >= 0, got {distance!r}")
    return distance


_PLAIN = frozenset((float, int))


def _pair(value: object, name: str) -> tuple[float, float]:
    """:func:`~arcade_collide.geometry.pose.check_vec2`, with a quicker path to the same
    values for a tuple of two finite floats or ints."""
    if type(value) is tuple and len(value) == 2:
        x, y = value
        if type(x) in _PLAIN and type(y) in _PLAIN:
            try:
                x, y = float(x), float(y)
            except OverflowError:
                pass  # an int beyond float range: check_vec2 names it
            else:
                if (x - x) + (y - y) == 0.0:  # NaN unless both are finite
                    return x, y
    return check_vec2(value, name)


def parse_ray(origin: object, direction: object, max_distance: object = math.inf) -> Ray:
    """Check a ray's arguments (each error names its argument) and return the :class:`Ray`.

    Raises:
        TypeError: ``origin`` or ``direction`` is not a pair of numbers, or
            ``max_distance`` is not a number.
        ValueError: a coordinate is NaN or infinite, ``direction`` is ``(0, 0)``,
            ``max_distance`` is NaN or negative.

    >>> parse_ray((0, 0), (3, 4), 10)
    Ray(ox=0.0, oy=0.0, dx=0.375, dy=0.5, limit=16.0, length=0.625)
    >>> parse_ray((0, 0), (0, 0))
    Traceback (most recent call last):
    ...
    ValueError: direction must be a non-zero vector, got (0.0, 0.0)
    """
    ox, oy = _pair(origin, "origin")
    dx, dy = _pair(direction, "direction")
    if type(max_distance) is float and max_distance >= 0.0:
        limit = max_distance
    else:
        limit = check_max_distance(max_distance)
    if dx == 0.0 and dy == 0.0:
        raise ValueError(f"direction must be a non-zero vector, got {(dx, dy)!r}")
    # Scale the larger component into [0.5, 1): a power of two, so exact.
    exponent = math.frexp(max(abs(dx), abs(dy)))[1]
    dx, dy = math.ldexp(dx, -exponent), math.ldexp(dy, -exponent)
    length = math.sqrt(dx * dx + dy * dy)  # no overflow: the larger component is below 1
    return Ray(ox, oy, dx, dy, limit / length, length)


@kernel(ROWS(*_GEOMETRY, *_POSE))
def _one_row(
    kind: int, size_x: float, size_y: float, local: FloatArray,
    x: float, y: float, cos: float, sin: float,
) -> WorldRows:  # fmt: skip
    """A one-row table of a posed shape (given as :func:`~.dispatch.geometry_of` and
    :func:`~.dispatch.pose_terms` give it)."""
    kinds = np.full(1, kind, dtype=np.int8)
    rows = empty_rows(kinds, len(local) if kind == _POLYGON else 0)
    place_row(rows, kind, 0, x, y, cos, sin, size_x, size_y, local)
    return rows


def shape_rows(shape: AnyShape, pose: object) -> WorldRows:
    """A one-row world table holding the posed shape (row 0), checked as
    :func:`ray_cast` checks its shape and pose: the moving shape of a cast against a
    world table (:func:`~.ray_rows.cast_first`).

    >>> from arcade_collide.geometry.shapes import Circle
    >>> rows = shape_rows(Circle(2), (1, 2))
    >>> rows.kinds.tolist(), rows.circle_center.tolist(), rows.circle_radius.tolist()
    ([1], [[1.0, 2.0]], [2.0])
    """
    return _one_row(*geometry_of(shape, "shape"), *pose_terms(pose, "pose"))


@kernel(HIT(*_GEOMETRY, *_POSE, *(_F,) * 5))
def _one_ray(
    kind: int, size_x: float, size_y: float, local: FloatArray,
    x: float, y: float, cos: float, sin: float,
    ox: float, oy: float, dx: float, dy: float, limit: float,
) -> Hit:  # fmt: skip
    """The ray against one posed shape, placed in a one-row table (:func:`_one_row`)."""
    rows = _one_row(kind, size_x, size_y, local, x, y, cos, sin)
    return ray_row(rows, 0, ox, oy, dx, dy, limit)


def ray_cast(
    shape: AnyShape,
    pose: object,
    origin: object,
    direction: object,
    max_distance: float = math.inf,
) -> RayHit | None:
    """Where the ray from ``origin`` along ``direction`` first meets the posed shape.

    The ray hits a closed shape: grazing a vertex or running along an edge counts. A
    ray starting inside or on the shape hits at distance 0 with the reversed unit
    direction as its normal; a point shape is hit only by a ray through it (see
    :mod:`~arcade_collide.geometry.hits` for the conventions).

    Args:
        shape: Any of Point, Circle, Rect, Triangle, Polygon.
        pose: ``(x, y)`` or ``(x, y, angle)`` of the shape, angle in clockwise degrees.
        origin: ``(x, y)`` where the ray starts.
        direction: ``(dx, dy)``, any non-zero vector (normalised inside).
        max_distance: How far along the ray to look, in world units, ``>= 0``.

    Returns:
        The first hit, or None when the ray misses within ``max_distance``.

    Raises:
        TypeError: ``shape`` is not one of the five shapes, or an argument is not a
            number or pair of numbers.
        ValueError: a NaN or infinite coordinate, a zero ``direction``, a NaN or
            negative ``max_distance``, or a bad pose (as in ``intersects``).

    >>> from arcade_collide.geometry.shapes import Circle, Rect
    >>> ray_cast(Rect(2, 2), (5, 0), (0, 0), (1, 0))
    RayHit(distance=4.0, point=(4.0, 0.0), normal=(-1.0, 0.0))
    >>> ray_cast(Circle(1), (5, 3), (0, 0), (1, 0)) is None
    True
    >>> ray_cast(Rect(2, 2), (5, 0), (0, 1), (1, 0))  # along the top edge
    RayHit(distance=4.0, point=(4.0, 1.0), normal=(-1.0, 0.0))
    """
    geometry = geometry_of(shape, "shape")
    placed = pose_terms(pose, "pose")
    ray = parse_ray(origin, direction, max_distance)
    hit, s, nx, ny = _one_ray(*geometry, *placed, *ray[:5])
    return ray.hit(s, nx, ny) if hit else None


_ONE_CAST: Any = types.boolean(*_GEOMETRY, *_GEOMETRY, *_POSE, *_POSE, _F, _F, _F[::1])


@kernel(_ONE_CAST)
def one_cast(
    kind_a: int, size_xa: float, size_ya: float, local_a: FloatArray,
    kind_b: int, size_xb: float, size_yb: float, local_b: FloatArray,
    xa: float, ya: float, ca: float, sa: float,
    xb: float, yb: float, cb: float, sb: float,
    tx: float, ty: float, out: FloatArray,
) -> bool:  # fmt: skip
    """The cast of one posed shape against another, placed in a two-row table."""
    rows, i, j = pair_rows(kind_a, len(local_a) if kind_a == _POLYGON else 0,
                           kind_b, len(local_b) if kind_b == _POLYGON else 0)  # fmt: skip
    a, b = i[0], j[0]
    place_row(rows, kind_a, a - rows.start[kind_a], xa, ya, ca, sa, size_xa, size_ya, local_a)
    place_row(rows, kind_b, b - rows.start[kind_b], xb, yb, cb, sb, size_xb, size_yb, local_b)
    return cast_rows(rows, a, rows, b, tx, ty, out)


def shape_cast(
    shape_a: AnyShape, pose_a: object, translation: object, shape_b: AnyShape, pose_b: object
) -> CastHit | None:
    """When shape A, moved from ``pose_a`` along ``translation`` (no rotation), first
    touches shape B at ``pose_b``.

    Exact for every kind pair: a ray against the Minkowski sum of the two shapes (a
    circle of the summed radius, a polygon rounded by a circle's radius) or, for two
    polygons, the translational separating-axis test (see :mod:`.casts`). Shapes
    touching or overlapping at the start hit at fraction 0; the normal then is the
    reversed contact normal (see :mod:`~arcade_collide.geometry.hits`).

    Args:
        shape_a: The moving shape (any of the five).
        pose_a: A's pose at the start.
        translation: ``(tx, ty)``, how far A moves (may be ``(0, 0)``).
        shape_b: The still shape.
        pose_b: B's pose.

    Returns:
        The first touch (fraction in ``[0, 1]``, the point, the normal from B towards
        A), or None when A never touches B on the way.

    Raises:
        TypeError: a shape is not one of the five shapes, or a pose or the
            translation is not a sequence of numbers.
        ValueError: a pose is bad (as in ``intersects``), or the translation has
            the wrong length or a NaN or infinite value.

    >>> from arcade_collide.geometry.shapes import Circle, Rect
    >>> shape_cast(Circle(1), (0, 0), (10, 0), Rect(2, 2), (6, 0))
    CastHit(fraction=0.4, point=(5.0, 0.0), normal=(-1.0, 0.0))
    >>> shape_cast(Circle(1), (0, 0), (10, 0), Rect(2, 2), (6, 3)) is None
    True
    >>> shape_cast(Rect(2, 2), (0, 0), (8, 0), Rect(2, 2), (6, 2))  # corners meet
    CastHit(fraction=0.5, point=(5.0, 1.0), normal=(-1.0, 0.0))
    """
    geometry_a = geometry_of(shape_a, "shape_a")
    geometry_b = geometry_of(shape_b, "shape_b")
    placed_a = pose_terms(pose_a, "pose_a")
    placed_b = pose_terms(pose_b, "pose_b")
    tx, ty = check_vec2(translation, "translation")
    out = np.empty(5)
    if not one_cast(*geometry_a, *geometry_b, *placed_a, *placed_b, tx, ty, out):
        return None
    return CastHit(float(out[0]), (float(out[1]), float(out[2])), (float(out[3]), float(out[4])))

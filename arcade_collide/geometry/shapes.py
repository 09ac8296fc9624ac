"""The five shapes, in LOCAL coordinates.

Shapes hold local geometry only; where a shape is in the world is a separate
pose (see :mod:`arcade_collide.geometry.pose`). ``Circle`` and ``Rect`` are
centred on the pose; ``Triangle`` and ``Polygon`` take vertex offsets from it;
``Point`` is the pose itself.

Every shape is an immutable, validated value: bad input raises ``TypeError`` or
``ValueError`` naming the argument, so a shape that exists is always usable.
All shapes are closed sets: their boundary belongs to them, so shapes that only
touch do collide.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import ClassVar

from arcade_collide.geometry.pose import Vec2, check_number, check_vec2

# Relative tolerance for "zero area" and "collinear": a cross product smaller than
# this fraction of the squared size of the shape is treated as zero.
DEGENERATE_TOLERANCE = 1e-12


class ShapeKind(IntEnum):
    """Stable small integers for the shape types (used to index dispatch tables).

    >>> Circle(2).kind, int(ShapeKind.RECT)
    (<ShapeKind.CIRCLE: 1>, 2)
    """

    POINT = 0
    CIRCLE = 1
    RECT = 2
    TRIANGLE = 3
    POLYGON = 4


@dataclass(frozen=True)
class Point:
    """A point at the pose itself.

    >>> Point()
    Point()
    """

    kind: ClassVar[ShapeKind] = ShapeKind.POINT

    @property
    def bounding_radius(self) -> float:
        """Radius of the smallest pose-centred circle containing the shape."""
        return 0.0


@dataclass(frozen=True)
class Circle:
    """A circle of ``radius`` centred on the pose.

    Args:
        radius: Strictly positive, finite.

    >>> Circle(2).radius
    2.0
    >>> Circle(-1)
    Traceback (most recent call last):
    ...
    ValueError: radius must be > 0, got -1.0
    """

    radius: float
    kind: ClassVar[ShapeKind] = ShapeKind.CIRCLE

    def __post_init__(self) -> None:
        radius = check_number(self.radius, "radius")
        if radius <= 0.0:
            raise ValueError(f"radius must be > 0, got {radius!r}")
        object.__setattr__(self, "radius", radius)

    @property
    def bounding_radius(self) -> float:
        """Radius of the smallest pose-centred circle containing the shape."""
        return self.radius


@dataclass(frozen=True)
class Rect:
    """A ``width`` x ``height`` rectangle centred on the pose, rotated with it.

    Args:
        width: Strictly positive, finite (along the local x axis).
        height: Strictly positive, finite (along the local y axis).

    >>> Rect(4, 2).local_vertices()
    ((-2.0, -1.0), (2.0, -1.0), (2.0, 1.0), (-2.0, 1.0))
    >>> Rect(0, 2)
    Traceback (most recent call last):
    ...
    ValueError: width must be > 0, got 0.0
    """

    width: float
    height: float
    kind: ClassVar[ShapeKind] = ShapeKind.RECT

    def __post_init__(self) -> None:
        for name in ("width", "height"):
            value = check_number(getattr(self, name), name)
            if value <= 0.0:
                raise ValueError(f"{name} must be > 0, got {value!r}")
            object.__setattr__(self, name, value)

    @property
    def half_width(self) -> float:
        """Half the width."""
        return self.width * 0.5

    @property
    def half_height(self) -> float:
        """Half the height."""
        return self.height * 0.5

    @property
    def bounding_radius(self) -> float:
        """Radius of the smallest pose-centred circle containing the shape."""
        return math.hypot(self.half_width, self.half_height)

    def local_vertices(self) -> tuple[Vec2, Vec2, Vec2, Vec2]:
        """The four corners, counter-clockwise (y up), starting bottom-left."""
        hw, hh = self.half_width, self.half_height
        return ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh))


def _cross(o: Vec2, a: Vec2, b: Vec2) -> float:
    """z of (a - o) x (b - o): > 0 when o -> a -> b turns counter-clockwise (y up)."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _size_squared(points: Iterable[Vec2], what: str) -> float:
    """The square of the larger side of the points' bounding box.

    Raises:
        ValueError: the square is beyond the float range (the vertices span more than
            about 1e154), where areas and turns cannot be computed.
    """
    pts = list(points)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    size = max(max(xs) - min(xs), max(ys) - min(ys))
    if not math.isfinite(size * size):
        raise ValueError(f"{what} is too large: its vertices span {size!r}, beyond 1e154")
    return size * size


@dataclass(frozen=True)
class Triangle:
    """A triangle given by three vertex offsets from the pose (any winding).

    Args:
        a: First vertex ``(x, y)``.
        b: Second vertex.
        c: Third vertex.

    Raises:
        ValueError: the vertices are collinear (zero area) or not finite.

    >>> Triangle((0, 0), (4, 0), (0, 3)).area
    6.0
    >>> Triangle((0, 0), (1, 1), (2, 2))
    Traceback (most recent call last):
    ...
    ValueError: triangle is degenerate: vertices a, b, c are collinear (zero area)
    """

    a: Vec2
    b: Vec2
    c: Vec2
    kind: ClassVar[ShapeKind] = ShapeKind.TRIANGLE

    def __post_init__(self) -> None:
        a = check_vec2(self.a, "a")
        b = check_vec2(self.b, "b")
        c = check_vec2(self.c, "c")
        if abs(_cross(a, b, c)) <= DEGENERATE_TOLERANCE * _size_squared((a, b, c), "triangle"):
            raise ValueError("triangle is degenerate: vertices a, b, c are collinear (zero area)")
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "c", c)

    @property
    def area(self) -> float:
        """Unsigned area."""
        return abs(_cross(self.a, self.b, self.c)) * 0.5

    @property
    def is_counter_clockwise(self) -> bool:
        """True when a -> b -> c turns counter-clockwise (y up)."""
        return _cross(self.a, self.b, self.c) > 0.0

    @property
    def bounding_radius(self) -> float:
        """Radius of the smallest pose-centred circle containing the shape."""
        return max(math.hypot(x, y) for x, y in (self.a, self.b, self.c))

    def local_vertices(self) -> tuple[Vec2, Vec2, Vec2]:
        """The vertices in the order given."""
        return (self.a, self.b, self.c)


@dataclass(frozen=True)
class Polygon:
    """A convex polygon given by vertex offsets from the pose.

    The outline is validated (at least 3 points, no repeated points, strictly
    convex, not self-intersecting) and stored counter-clockwise (y up), whatever
    winding it was given in.

    Args:
        points: The vertices in order around the outline.

    Raises:
        TypeError: ``points`` is not a sequence of ``(x, y)`` pairs.
        ValueError: fewer than 3 points, a repeated point, collinear
            neighbours, or a non-convex or self-intersecting outline.

    >>> Polygon([(0, 0), (0, 2), (2, 2), (2, 0)]).points
    ((0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0))
    >>> Polygon([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)])
    Traceback (most recent call last):
    ...
    ValueError: polygon is not convex (turns both ways at vertex 2)
    """

    points: tuple[Vec2, ...] = field()
    kind: ClassVar[ShapeKind] = ShapeKind.POLYGON

    def __post_init__(self) -> None:
        raw = self.points
        if isinstance(raw, (str, bytes)) or not hasattr(raw, "__iter__"):
            raise TypeError(f"points must be a sequence of (x, y) pairs, got {type(raw).__name__}")
        pts = [check_vec2(p, f"points[{i}]") for i, p in enumerate(raw)]
        n = len(pts)
        if n < 3:
            raise ValueError(f"polygon needs at least 3 points, got {n}")
        if len(set(pts)) != n:
            raise ValueError("polygon has a repeated point")
        tolerance = DEGENERATE_TOLERANCE * _size_squared(pts, "polygon")
        turns = [_cross(pts[i - 1], pts[i], pts[(i + 1) % n]) for i in range(n)]
        sign = 0.0
        for i, turn in enumerate(turns):
            if abs(turn) <= tolerance:
                raise ValueError(f"polygon has collinear neighbours at vertex {i}")
            if sign == 0.0:
                sign = math.copysign(1.0, turn)
            elif math.copysign(1.0, turn) != sign:
                raise ValueError(f"polygon is not convex (turns both ways at vertex {i})")
        # Same-sign turns are not enough: a pentagram turns one way twice round.
        winding = 0.0
        for i in range(n):
            (ax, ay), (bx, by), (cx, cy) = pts[i - 1], pts[i], pts[(i + 1) % n]
            winding += math.atan2(
                (bx - ax) * (cy - by) - (by - ay) * (cx - bx),
                (bx - ax) * (cx - bx) + (by - ay) * (cy - by),
            )
        if abs(abs(winding) - 2.0 * math.pi) > 1e-6:
            raise ValueError("polygon outline is self-intersecting")
        if sign < 0.0:
            pts = [pts[0], *reversed(pts[1:])]
        object.__setattr__(self, "points", tuple(pts))

    @property
    def area(self) -> float:
        """Area (positive)."""
        pts = self.points
        return 0.5 * sum(
            pts[i - 1][0] * pts[i][1] - pts[i][0] * pts[i - 1][1] for i in range(len(pts))
        )

    @property
    def bounding_radius(self) -> float:
        """Radius of the smallest pose-centred circle containing the shape."""
        return max(math.hypot(x, y) for x, y in self.points)

    def local_vertices(self) -> tuple[Vec2, ...]:
        """The vertices, counter-clockwise (y up)."""
        return self.points


AnyShape = Point | Circle | Rect | Triangle | Polygon
"""Any of the five geometry shapes."""

SHAPE_TYPES: tuple[type[AnyShape], ...] = (Point, Circle, Rect, Triangle, Polygon)
"""The shape types, indexed by :class:`ShapeKind`."""

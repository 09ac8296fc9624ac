"""The one narrow-phase dispatch table and the public, validating queries.

Every shape pair is registered exactly once below, in canonical
:class:`~arcade_collide.geometry.shapes.ShapeKind` order (point < circle < rect
< triangle < polygon). Registering ``(A, B)`` also fills the ``(B, A)`` slot
with a "swapped" entry: the arguments are exchanged before the pair function
runs and the result is flipped (:meth:`Contact.flipped`,
:meth:`BatchContacts.flipped`), so the normal still points from the caller's
first shape to the second. This is Box2D v3's ``s_registers`` table with its
``b2AddType`` swap flag, without the memory machinery.

``intersects``/``contact`` validate their arguments, then call the pair's
private fast path. ``intersects_batch``/``contact_batch`` take world-space
array records (:func:`~arcade_collide.geometry.arrays.pack`, or the ECS's own
arrays) and run the pair's vectorised kernel over all rows at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from arcade_collide.geometry.arrays import (
    BatchContacts,
    BoolArray,
    CircleArrays,
    PointArrays,
    PolygonArrays,
    RectArrays,
    ShapeArrays,
    TriangleArrays,
)
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.pose import parse_pose
from arcade_collide.geometry.query.circle_circle import (
    contact_circle_circle,
    contact_circle_circle_batch,
    intersects_circle_circle,
    intersects_circle_circle_batch,
)
from arcade_collide.geometry.query.circle_polygon import (
    contact_circle_polygon,
    contact_circle_polygon_batch,
    intersects_circle_polygon,
    intersects_circle_polygon_batch,
)
from arcade_collide.geometry.query.circle_rect import (
    contact_circle_rect,
    contact_circle_rect_batch,
    intersects_circle_rect,
    intersects_circle_rect_batch,
)
from arcade_collide.geometry.query.circle_triangle import (
    contact_circle_triangle,
    contact_circle_triangle_batch,
    intersects_circle_triangle,
    intersects_circle_triangle_batch,
)
from arcade_collide.geometry.query.point_circle import (
    contact_point_circle,
    contact_point_circle_batch,
    intersects_point_circle,
    intersects_point_circle_batch,
)
from arcade_collide.geometry.query.point_point import (
    contact_point_point,
    contact_point_point_batch,
    intersects_point_point,
    intersects_point_point_batch,
)
from arcade_collide.geometry.query.point_polygon import (
    contact_point_polygon,
    contact_point_polygon_batch,
    intersects_point_polygon,
    intersects_point_polygon_batch,
)
from arcade_collide.geometry.query.point_rect import (
    contact_point_rect,
    contact_point_rect_batch,
    intersects_point_rect,
    intersects_point_rect_batch,
)
from arcade_collide.geometry.query.point_triangle import (
    contact_point_triangle,
    contact_point_triangle_batch,
    intersects_point_triangle,
    intersects_point_triangle_batch,
)
from arcade_collide.geometry.query.polygon_polygon import (
    contact_polygon_polygon,
    contact_polygon_polygon_batch,
    intersects_polygon_polygon,
    intersects_polygon_polygon_batch,
)
from arcade_collide.geometry.query.rect_polygon import (
    contact_rect_polygon,
    contact_rect_polygon_batch,
    intersects_rect_polygon,
    intersects_rect_polygon_batch,
)
from arcade_collide.geometry.query.rect_rect import (
    contact_rect_rect,
    contact_rect_rect_batch,
    intersects_rect_rect,
    intersects_rect_rect_batch,
)
from arcade_collide.geometry.query.rect_triangle import (
    contact_rect_triangle,
    contact_rect_triangle_batch,
    intersects_rect_triangle,
    intersects_rect_triangle_batch,
)
from arcade_collide.geometry.query.triangle_polygon import (
    contact_triangle_polygon,
    contact_triangle_polygon_batch,
    intersects_triangle_polygon,
    intersects_triangle_polygon_batch,
)
from arcade_collide.geometry.query.triangle_triangle import (
    contact_triangle_triangle,
    contact_triangle_triangle_batch,
    intersects_triangle_triangle,
    intersects_triangle_triangle_batch,
)
from arcade_collide.geometry.shapes import SHAPE_TYPES, AnyShape, ShapeKind

_Pose3 = tuple[float, float, float]


class _Pair(NamedTuple):
    """The four functions of one pair module, for shapes (A, B) in canonical order."""

    intersects: Callable[[Any, _Pose3, Any, _Pose3], bool]
    contact: Callable[[Any, _Pose3, Any, _Pose3], Contact | None]
    intersects_batch: Callable[[Any, Any], BoolArray]
    contact_batch: Callable[[Any, Any], BatchContacts]


class _Entry(NamedTuple):
    """A table slot: the pair to run, and whether the caller's arguments are (B, A)."""

    pair: _Pair
    swapped: bool


_TABLE: dict[tuple[ShapeKind, ShapeKind], _Entry] = {}


def _register(kind_a: ShapeKind, kind_b: ShapeKind, pair: _Pair) -> None:
    """Fill slot ``(kind_a, kind_b)`` and its mirror ``(kind_b, kind_a)`` (swapped)."""
    if kind_a > kind_b:
        raise ValueError(f"register pairs in ShapeKind order, got {kind_a.name}, {kind_b.name}")
    if (kind_a, kind_b) in _TABLE:
        raise ValueError(f"pair {kind_a.name}, {kind_b.name} is registered twice")
    _TABLE[(kind_a, kind_b)] = _Entry(pair, swapped=False)
    if kind_a != kind_b:
        _TABLE[(kind_b, kind_a)] = _Entry(pair, swapped=True)


_P, _C, _R, _T, _G = (
    ShapeKind.POINT,
    ShapeKind.CIRCLE,
    ShapeKind.RECT,
    ShapeKind.TRIANGLE,
    ShapeKind.POLYGON,
)

# One explicit line per pair; the 15 lines cover all 25 ordered slots.
# fmt: off
_register(_P, _P, _Pair(intersects_point_point, contact_point_point, intersects_point_point_batch, contact_point_point_batch))  # noqa: E501
_register(_P, _C, _Pair(intersects_point_circle, contact_point_circle, intersects_point_circle_batch, contact_point_circle_batch))  # noqa: E501
_register(_P, _R, _Pair(intersects_point_rect, contact_point_rect, intersects_point_rect_batch, contact_point_rect_batch))  # noqa: E501
_register(_P, _T, _Pair(intersects_point_triangle, contact_point_triangle, intersects_point_triangle_batch, contact_point_triangle_batch))  # noqa: E501
_register(_P, _G, _Pair(intersects_point_polygon, contact_point_polygon, intersects_point_polygon_batch, contact_point_polygon_batch))  # noqa: E501
_register(_C, _C, _Pair(intersects_circle_circle, contact_circle_circle, intersects_circle_circle_batch, contact_circle_circle_batch))  # noqa: E501
_register(_C, _R, _Pair(intersects_circle_rect, contact_circle_rect, intersects_circle_rect_batch, contact_circle_rect_batch))  # noqa: E501
_register(_C, _T, _Pair(intersects_circle_triangle, contact_circle_triangle, intersects_circle_triangle_batch, contact_circle_triangle_batch))  # noqa: E501
_register(_C, _G, _Pair(intersects_circle_polygon, contact_circle_polygon, intersects_circle_polygon_batch, contact_circle_polygon_batch))  # noqa: E501
_register(_R, _R, _Pair(intersects_rect_rect, contact_rect_rect, intersects_rect_rect_batch, contact_rect_rect_batch))  # noqa: E501
_register(_R, _T, _Pair(intersects_rect_triangle, contact_rect_triangle, intersects_rect_triangle_batch, contact_rect_triangle_batch))  # noqa: E501
_register(_R, _G, _Pair(intersects_rect_polygon, contact_rect_polygon, intersects_rect_polygon_batch, contact_rect_polygon_batch))  # noqa: E501
_register(_T, _T, _Pair(intersects_triangle_triangle, contact_triangle_triangle, intersects_triangle_triangle_batch, contact_triangle_triangle_batch))  # noqa: E501
_register(_T, _G, _Pair(intersects_triangle_polygon, contact_triangle_polygon, intersects_triangle_polygon_batch, contact_triangle_polygon_batch))  # noqa: E501
_register(_G, _G, _Pair(intersects_polygon_polygon, contact_polygon_polygon, intersects_polygon_polygon_batch, contact_polygon_polygon_batch))  # noqa: E501
# fmt: on

_SHAPE_KIND: dict[type, ShapeKind] = {t: t.kind for t in SHAPE_TYPES}
_ARRAYS_KIND: dict[type, ShapeKind] = {
    PointArrays: ShapeKind.POINT,
    CircleArrays: ShapeKind.CIRCLE,
    RectArrays: ShapeKind.RECT,
    TriangleArrays: ShapeKind.TRIANGLE,
    PolygonArrays: ShapeKind.POLYGON,
}


def _shape_kind(shape: object, name: str) -> ShapeKind:
    kind = _SHAPE_KIND.get(type(shape))
    if kind is None:
        raise TypeError(
            f"{name} must be a Point, Circle, Rect, Triangle or Polygon, got {type(shape).__name__}"
        )
    return kind


def _arrays_kind(arrays: object, name: str) -> ShapeKind:
    kind = _ARRAYS_KIND.get(type(arrays))
    if kind is None:
        raise TypeError(
            f"{name} must be a PointArrays, CircleArrays, RectArrays, TriangleArrays or "
            f"PolygonArrays record, got {type(arrays).__name__}"
        )
    return kind


def _batch_entry(a: object, b: object) -> _Entry:
    entry = _TABLE[(_arrays_kind(a, "a"), _arrays_kind(b, "b"))]
    rows_a = len(a[0])  # type: ignore[index]
    rows_b = len(b[0])  # type: ignore[index]
    if rows_a != rows_b:
        raise ValueError(f"a and b must have the same number of rows, got {rows_a} and {rows_b}")
    return entry


def intersects(shape_a: AnyShape, pose_a: object, shape_b: AnyShape, pose_b: object) -> bool:
    """True when the two posed shapes touch or overlap (closed sets: touching counts).

    Args:
        shape_a: Any of Point, Circle, Rect, Triangle, Polygon.
        pose_a: ``(x, y)`` or ``(x, y, angle)`` of A, angle in clockwise degrees.
        shape_b: Any of the five shapes.
        pose_b: The pose of B.

    Returns:
        Whether the shapes share at least one point.

    Raises:
        TypeError: a shape argument is not one of the five shapes, or a pose is
            not a sequence of numbers.
        ValueError: a pose has the wrong length or a NaN/infinite value.

    >>> from arcade_collide.geometry.shapes import Circle, Rect
    >>> intersects(Circle(1), (2.5, 0), Rect(4, 2), (0, 0))
    True
    >>> intersects(Rect(4, 2), (0, 0), Circle(1), (5, 0))
    False
    >>> intersects(Rect(2, 2), (0, 0), Rect(2, 2), (2, 0))  # sharing an edge
    True
    """
    kind_a = _shape_kind(shape_a, "shape_a")
    kind_b = _shape_kind(shape_b, "shape_b")
    pa = parse_pose(pose_a, "pose_a")
    pb = parse_pose(pose_b, "pose_b")
    entry = _TABLE[(kind_a, kind_b)]
    if entry.swapped:
        return entry.pair.intersects(shape_b, pb, shape_a, pa)
    return entry.pair.intersects(shape_a, pa, shape_b, pb)


def contact(shape_a: AnyShape, pose_a: object, shape_b: AnyShape, pose_b: object) -> Contact | None:
    """How the two posed shapes meet, or None when they are apart.

    The normal points from A to B; translating B by ``normal * depth`` leaves
    the shapes touching (see :class:`~arcade_collide.geometry.contact.Contact`).

    Args:
        shape_a: Any of Point, Circle, Rect, Triangle, Polygon.
        pose_a: ``(x, y)`` or ``(x, y, angle)`` of A, angle in clockwise degrees.
        shape_b: Any of the five shapes.
        pose_b: The pose of B.

    Returns:
        The contact, or None when the shapes do not touch.

    Raises:
        TypeError: a shape argument is not one of the five shapes, or a pose is
            not a sequence of numbers.
        ValueError: a pose has the wrong length or a NaN/infinite value.

    >>> from arcade_collide.geometry.shapes import Circle, Rect
    >>> contact(Circle(1), (2.5, 0), Rect(4, 2), (0, 0))
    Contact(normal=(-1.0, 0.0), depth=0.5, point=(1.75, 0.0))
    >>> contact(Rect(4, 2), (0, 0), Circle(1), (2.5, 0))  # the same pair seen from the rect
    Contact(normal=(1.0, -0.0), depth=0.5, point=(1.75, 0.0))
    >>> contact(Rect(4, 2), (0, 0), Circle(1), (5, 0)) is None
    True
    >>> contact(Rect(2, 2), (0, 0), Rect(2, 2), (2, 0))  # sharing an edge
    Contact(normal=(1.0, 0.0), depth=0.0, point=(1.0, 0.0))
    """
    kind_a = _shape_kind(shape_a, "shape_a")
    kind_b = _shape_kind(shape_b, "shape_b")
    pa = parse_pose(pose_a, "pose_a")
    pb = parse_pose(pose_b, "pose_b")
    entry = _TABLE[(kind_a, kind_b)]
    if entry.swapped:
        result = entry.pair.contact(shape_b, pb, shape_a, pa)
        return None if result is None else result.flipped()
    return entry.pair.contact(shape_a, pa, shape_b, pb)


def intersects_batch(a: ShapeArrays, b: ShapeArrays) -> BoolArray:
    """Row ``i`` is True when shape ``a[i]`` touches or overlaps shape ``b[i]``.

    Both records are in world space (:func:`~arcade_collide.geometry.arrays.pack`
    builds them). Each side holds one shape type; any of the 25 type orders
    works. The answer equals :func:`intersects` row by row.

    Args:
        a: ``M`` shapes of one type (side A).
        b: ``M`` shapes of one type (side B).

    Returns:
        ``(M,)`` booleans.

    Raises:
        TypeError: an argument is not one of the five array records.
        ValueError: the two records have different row counts.

    >>> from arcade_collide.geometry.arrays import pack
    >>> from arcade_collide.geometry.shapes import Circle, Rect
    >>> rects = pack([Rect(4, 2)] * 3, [(0, 0)] * 3)
    >>> circles = pack([Circle(1)] * 3, [(2.5, 0), (5, 0), (3, 0)])
    >>> intersects_batch(rects, circles).tolist()  # hit, miss, touching
    [True, False, True]
    """
    entry = _batch_entry(a, b)
    if entry.swapped:
        return entry.pair.intersects_batch(b, a)
    return entry.pair.intersects_batch(a, b)


def contact_batch(a: ShapeArrays, b: ShapeArrays) -> BatchContacts:
    """Contacts of ``M`` pairs at once: row ``i`` is :func:`contact` of ``a[i]`` and ``b[i]``.

    Rows that do not touch have ``hit`` False and zeros elsewhere. Normals point
    from side A to side B.

    Args:
        a: ``M`` shapes of one type (side A).
        b: ``M`` shapes of one type (side B).

    Returns:
        The batch of contacts.

    Raises:
        TypeError: an argument is not one of the five array records.
        ValueError: the two records have different row counts.

    >>> from arcade_collide.geometry.arrays import pack
    >>> from arcade_collide.geometry.shapes import Circle, Rect
    >>> rects = pack([Rect(4, 2)] * 3, [(0, 0)] * 3)
    >>> circles = pack([Circle(1)] * 3, [(2.5, 0), (5, 0), (3, 0)])
    >>> r = contact_batch(rects, circles)
    >>> r.hit.tolist(), r.depth.tolist(), r.normal[0].tolist()  # hit, miss, touching
    ([True, False, True], [0.5, 0.0, 0.0], [1.0, -0.0])
    """
    entry = _batch_entry(a, b)
    if entry.swapped:
        return entry.pair.contact_batch(b, a).flipped()
    return entry.pair.contact_batch(a, b)

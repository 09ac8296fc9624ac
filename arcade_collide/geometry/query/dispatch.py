"""The one narrow-phase dispatch table and the public, validating queries.

Every shape pair is registered exactly once below, in canonical
:class:`~arcade_collide.geometry.shapes.ShapeKind` order (point < circle < rect
< triangle < polygon). Registering ``(A, B)`` also fills the ``(B, A)`` slot
with a "swapped" entry: the arguments are exchanged before the pair kernel
runs and the normal is reversed (as :meth:`Contact.flipped` does), so it still
points from the caller's first shape to the second. This is Box2D v3's
``s_registers`` table with its ``b2AddType`` swap flag, without the memory
machinery. From the registered pairs the table links two compiled chains,
:data:`run_intersects` and :data:`run_contacts`, that run every kernel over the
pairs of its slot (:mod:`~arcade_collide.geometry.query.kernel_base`); they serve
the queries below and :mod:`~arcade_collide.geometry.query.rows` (the ECS tick), so
no other dispatch exists.

``intersects``/``contact`` validate their arguments, place the two shapes in a
one-pair table (:func:`~arcade_collide.geometry.arrays.pack`) and run the pair's
kernel on it. ``intersects_batch``/``contact_batch`` take world-space array
records (``pack``, or the ECS's own arrays) and run the kernel over all rows.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from arcade_collide.geometry.arrays import (
    BatchContacts,
    BoolArray,
    CircleArrays,
    PointArrays,
    PolygonArrays,
    RectArrays,
    ShapeArrays,
    TriangleArrays,
    pack,
)
from arcade_collide.geometry.compiled import specialise
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.pose import parse_pose
from arcade_collide.geometry.query.circle_circle import (
    contact_circle_circle,
    intersects_circle_circle,
)
from arcade_collide.geometry.query.circle_polygon import (
    contact_circle_polygon,
    intersects_circle_polygon,
)
from arcade_collide.geometry.query.circle_rect import contact_circle_rect, intersects_circle_rect
from arcade_collide.geometry.query.circle_triangle import (
    contact_circle_triangle,
    intersects_circle_triangle,
)
from arcade_collide.geometry.query.kernel_base import (
    CONTACTS_CHAIN,
    INTERSECTS_CHAIN,
    Int64Array,
    WorldRows,
    contacts_chain,
    end_of_contacts,
    end_of_intersects,
    intersects_chain,
    world_rows,
)
from arcade_collide.geometry.query.point_circle import contact_point_circle, intersects_point_circle
from arcade_collide.geometry.query.point_point import contact_point_point, intersects_point_point
from arcade_collide.geometry.query.point_polygon import (
    contact_point_polygon,
    intersects_point_polygon,
)
from arcade_collide.geometry.query.point_rect import contact_point_rect, intersects_point_rect
from arcade_collide.geometry.query.point_triangle import (
    contact_point_triangle,
    intersects_point_triangle,
)
from arcade_collide.geometry.query.polygon_polygon import (
    contact_polygon_polygon,
    intersects_polygon_polygon,
)
from arcade_collide.geometry.query.rect_polygon import contact_rect_polygon, intersects_rect_polygon
from arcade_collide.geometry.query.rect_rect import contact_rect_rect, intersects_rect_rect
from arcade_collide.geometry.query.rect_triangle import (
    contact_rect_triangle,
    intersects_rect_triangle,
)
from arcade_collide.geometry.query.triangle_polygon import (
    contact_triangle_polygon,
    intersects_triangle_polygon,
)
from arcade_collide.geometry.query.triangle_triangle import (
    contact_triangle_triangle,
    intersects_triangle_triangle,
)
from arcade_collide.geometry.shapes import SHAPE_TYPES, AnyShape, ShapeKind


class Pair(NamedTuple):
    """The compiled kernels of one pair module, for shapes (A, B) in canonical order."""

    intersects: Any
    contact: Any


class Entry(NamedTuple):
    """A table slot: the pair to run, and whether the caller's arguments are (B, A)."""

    pair: Pair
    swapped: bool


TABLE: dict[tuple[ShapeKind, ShapeKind], Entry] = {}


def _register(kind_a: ShapeKind, kind_b: ShapeKind, intersects: Any, contact: Any) -> None:
    """Fill slot ``(kind_a, kind_b)`` and its mirror ``(kind_b, kind_a)`` (swapped)."""
    if kind_a > kind_b:
        raise ValueError(f"register pairs in ShapeKind order, got {kind_a.name}, {kind_b.name}")
    if (kind_a, kind_b) in TABLE:
        raise ValueError(f"pair {kind_a.name}, {kind_b.name} is registered twice")
    pair = Pair(intersects, contact)
    TABLE[(kind_a, kind_b)] = Entry(pair, swapped=False)
    if kind_a != kind_b:
        TABLE[(kind_b, kind_a)] = Entry(pair, swapped=True)


_P, _C, _R, _T, _G = (
    ShapeKind.POINT,
    ShapeKind.CIRCLE,
    ShapeKind.RECT,
    ShapeKind.TRIANGLE,
    ShapeKind.POLYGON,
)

# One explicit line per pair; the 15 lines cover all 25 ordered slots.
_register(_P, _P, intersects_point_point, contact_point_point)
_register(_P, _C, intersects_point_circle, contact_point_circle)
_register(_P, _R, intersects_point_rect, contact_point_rect)
_register(_P, _T, intersects_point_triangle, contact_point_triangle)
_register(_P, _G, intersects_point_polygon, contact_point_polygon)
_register(_C, _C, intersects_circle_circle, contact_circle_circle)
_register(_C, _R, intersects_circle_rect, contact_circle_rect)
_register(_C, _T, intersects_circle_triangle, contact_circle_triangle)
_register(_C, _G, intersects_circle_polygon, contact_circle_polygon)
_register(_R, _R, intersects_rect_rect, contact_rect_rect)
_register(_R, _T, intersects_rect_triangle, contact_rect_triangle)
_register(_R, _G, intersects_rect_polygon, contact_rect_polygon)
_register(_T, _T, intersects_triangle_triangle, contact_triangle_triangle)
_register(_T, _G, intersects_triangle_polygon, contact_triangle_polygon)
_register(_G, _G, intersects_polygon_polygon, contact_polygon_polygon)

SLOTS = len(ShapeKind) ** 2
"""Slot ``kind_a * 5 + kind_b`` of the chains below holds the pairs of that unordered
kind pair (``kind_a <= kind_b``)."""


def _chain(loop: Any, end: Any, signature: Any, kernel_of: Any) -> Any:
    """Link one copy of ``loop`` per registered pair, in slot order (see
    :mod:`~arcade_collide.geometry.query.kernel_base`); return the first link."""
    link = end
    for (kind_a, kind_b), entry in sorted(TABLE.items(), reverse=True):
        if not entry.swapped:
            slot = kind_a * len(ShapeKind) + kind_b
            link = specialise(loop, kernel_of(entry.pair), signature, SLOT=slot, NEXT=link)
    return link


run_intersects = _chain(
    intersects_chain, end_of_intersects, INTERSECTS_CHAIN, lambda p: p.intersects
)
"""Every registered boolean kernel over a table's pairs grouped by slot:
``run_intersects(rows, i, j, order, counts, out)``."""
run_contacts = _chain(contacts_chain, end_of_contacts, CONTACTS_CHAIN, lambda p: p.contact)
"""Every registered contact kernel over a table's pairs grouped by slot:
``run_contacts(rows, i, j, order, counts, hit, out)``."""


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


def _batch_kinds(a: object, b: object) -> tuple[ShapeKind, ShapeKind]:
    kinds = (_arrays_kind(a, "a"), _arrays_kind(b, "b"))
    rows_a = len(a[0])  # type: ignore[index]
    rows_b = len(b[0])  # type: ignore[index]
    if rows_a != rows_b:
        raise ValueError(f"a and b must have the same number of rows, got {rows_a} and {rows_b}")
    return kinds


def _join(a: ShapeArrays, b: ShapeArrays) -> ShapeArrays:
    """Two records of one kind stacked (polygon rows padded to one width by repeating
    their last vertex, as :func:`~arcade_collide.geometry.arrays.pack` pads)."""
    if isinstance(a, PolygonArrays) and isinstance(b, PolygonArrays):
        width = max(a.vertices.shape[1], b.vertices.shape[1])
        padded = [
            np.concatenate([v, np.repeat(v[:, -1:], width - v.shape[1], axis=1)], axis=1)
            for v in (a.vertices, b.vertices)
        ]
        return PolygonArrays(np.concatenate(padded), np.concatenate([a.nverts, b.nverts]))
    return type(a)(*(np.concatenate([x, y]) for x, y in zip(a, b, strict=True)))


def _float_record(arrays: ShapeArrays) -> ShapeArrays:
    """The record with float64 coordinates (integer vertex counts kept)."""
    if isinstance(arrays, PolygonArrays):
        return PolygonArrays(np.asarray(arrays.vertices, dtype=np.float64), arrays.nverts)
    return type(arrays)(*(np.asarray(x, dtype=np.float64) for x in arrays))


def _pair_rows(
    a: ShapeArrays, kind_a: ShapeKind, b: ShapeArrays, kind_b: ShapeKind
) -> tuple[WorldRows, Int64Array, Int64Array]:
    """A table holding records ``a`` then ``b``, and the pairs of their rows ``(i, j)``."""
    m = len(a[0])
    a = _float_record(a)
    b = _float_record(b)
    if kind_a == kind_b:
        world = {kind_a: _join(a, b)}
        start = {kind_a: 0}
    else:
        world = {kind_a: a, kind_b: b}
        start = {kind_a: 0, kind_b: m}
    kinds = np.repeat(np.array([kind_a, kind_b], dtype=np.int8), m)
    i = np.arange(m, dtype=np.int64)
    return world_rows(kinds, world, start), i, i + m


def _one_slot(kind_a: ShapeKind, kind_b: ShapeKind, m: int) -> Int64Array:
    """Slot bounds (see :data:`SLOTS`) for ``m`` pairs all of kinds ``(kind_a, kind_b)``."""
    counts = np.zeros(SLOTS + 1, dtype=np.int64)
    counts[min(kind_a, kind_b) * len(ShapeKind) + max(kind_a, kind_b) + 1 :] = m
    return counts


def _intersects_rows(
    a: ShapeArrays, kind_a: ShapeKind, b: ShapeArrays, kind_b: ShapeKind
) -> BoolArray:
    """The boolean kernel of ``(kind_a, kind_b)`` on rows ``a[p]``, ``b[p]``."""
    rows, i, j = _pair_rows(a, kind_a, b, kind_b)
    out = np.empty(len(i), dtype=np.bool_)
    run_intersects(rows, i, j, i, _one_slot(kind_a, kind_b, len(i)), out)
    return out


def _contact_rows(
    a: ShapeArrays, kind_a: ShapeKind, b: ShapeArrays, kind_b: ShapeKind
) -> BatchContacts:
    """The contact kernel of ``(kind_a, kind_b)`` on rows ``a[p]``, ``b[p]``."""
    rows, i, j = _pair_rows(a, kind_a, b, kind_b)
    hit = np.empty(len(i), dtype=np.bool_)
    out = np.empty((len(i), 5))
    run_contacts(rows, i, j, i, _one_slot(kind_a, kind_b, len(i)), hit, out)
    return BatchContacts(hit, out[:, 0:2].copy(), out[:, 2].copy(), out[:, 3:5].copy())


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
    hit = _intersects_rows(pack([shape_a], [pa]), kind_a, pack([shape_b], [pb]), kind_b)
    return bool(hit[0])


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
    found = _contact_rows(pack([shape_a], [pa]), kind_a, pack([shape_b], [pb]), kind_b)
    if not found.hit[0]:
        return None
    nx, ny = found.normal[0].tolist()
    px, py = found.point[0].tolist()
    return Contact((nx, ny), float(found.depth[0]), (px, py))


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
    kind_a, kind_b = _batch_kinds(a, b)
    return _intersects_rows(a, kind_a, b, kind_b)


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
    kind_a, kind_b = _batch_kinds(a, b)
    return _contact_rows(a, kind_a, b, kind_b)

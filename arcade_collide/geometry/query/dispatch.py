"""The one narrow-phase dispatch table and the public, validating queries.

Every shape pair is registered exactly once below, in canonical
:class:`~arcade_collide.geometry.shapes.ShapeKind` order. Registering ``(A, B)`` also
fills the ``(B, A)`` slot with a "swapped" entry: arguments exchanged, normal reversed
(Box2D v3's ``s_registers`` table with its ``b2AddType`` swap flag). From the
registered pairs the table links one compiled chain, entered by :func:`run_pairs`; it
serves the queries below and :mod:`~arcade_collide.geometry.query.rows` (the ECS
tick), so no other dispatch exists.

``intersects``/``contact`` validate in Python, then make one compiled call
(:func:`one_pair`) that places the two shapes in a one-pair table and enters the
chain at the pair's slot.
"""

from __future__ import annotations

import warnings
import weakref
from functools import partial
from types import ModuleType
from typing import Any, NamedTuple

import numba
import numpy as np
from numba.core.errors import NumbaExperimentalFeatureWarning

from arcade_collide.geometry.arrays import (
    BatchContacts,
    BoolArray,
    FloatArray,
    ShapeArrays,
)
from arcade_collide.geometry.compiled import kernel, specialise
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.pose import parse_pose, rotation
from arcade_collide.geometry.query import (
    circle_circle,
    circle_polygon,
    circle_rect,
    circle_triangle,
    point_circle,
    point_point,
    point_polygon,
    point_rect,
    point_triangle,
    polygon_polygon,
    rect_polygon,
    rect_rect,
    rect_triangle,
    triangle_polygon,
    triangle_triangle,
)
from arcade_collide.geometry.query.kernel_base import (
    CHAIN,
    RECORD_KINDS,
    Int64Array,
    WorldRows,
    chain,
    empty_rows,
    end_of_chain,
    types,
    world_rows,
)
from arcade_collide.geometry.query.placement import place_row
from arcade_collide.geometry.shapes import (
    SHAPE_TYPES,
    AnyShape,
    Circle,
    Polygon,
    Rect,
    ShapeKind,
    Triangle,
)


class Pair(NamedTuple):
    """The compiled kernels of one pair module, for shapes (A, B) in canonical order."""

    intersects: Any
    contact: Any


class Entry(NamedTuple):
    """A table slot: the pair to run, and whether the caller's arguments are (B, A)."""

    pair: Pair
    swapped: bool


TABLE: dict[tuple[ShapeKind, ShapeKind], Entry] = {}


def _register(kind_a: ShapeKind, kind_b: ShapeKind, module: ModuleType) -> None:
    """Fill slot ``(kind_a, kind_b)`` and its mirror ``(kind_b, kind_a)`` (swapped) with
    the pair module's ``intersects_<a>_<b>`` and ``contact_<a>_<b>`` kernels."""
    if kind_a > kind_b:
        raise ValueError(f"register pairs in ShapeKind order, got {kind_a.name}, {kind_b.name}")
    if (kind_a, kind_b) in TABLE:
        raise ValueError(f"pair {kind_a.name}, {kind_b.name} is registered twice")
    name = f"{kind_a.name}_{kind_b.name}".lower()
    pair = Pair(getattr(module, f"intersects_{name}"), getattr(module, f"contact_{name}"))
    TABLE[(kind_a, kind_b)] = Entry(pair, swapped=False)
    if kind_a != kind_b:
        TABLE[(kind_b, kind_a)] = Entry(pair, swapped=True)


_P, _C, _R, _T, _G = ShapeKind  # point, circle, rect, triangle, polygon

# One explicit line per pair; the 15 lines cover all 25 ordered slots.
_register(_P, _P, point_point)
_register(_P, _C, point_circle)
_register(_P, _R, point_rect)
_register(_P, _T, point_triangle)
_register(_P, _G, point_polygon)
_register(_C, _C, circle_circle)
_register(_C, _R, circle_rect)
_register(_C, _T, circle_triangle)
_register(_C, _G, circle_polygon)
_register(_R, _R, rect_rect)
_register(_R, _T, rect_triangle)
_register(_R, _G, rect_polygon)
_register(_T, _T, triangle_triangle)
_register(_T, _G, triangle_polygon)
_register(_G, _G, polygon_polygon)

SLOTS = len(ShapeKind) ** 2
"""Slot ``kind_a * 5 + kind_b`` of the chains below holds the pairs of that unordered
kind pair (``kind_a <= kind_b``)."""


_KINDS = len(ShapeKind)


def _chain() -> tuple[tuple[int, Any], ...]:
    """Link one copy of :func:`~arcade_collide.geometry.query.kernel_base.chain` per
    registered pair, in ascending slot order; return ``(slot, link)`` for every link,
    the first link first.

    A link runs its slot's pairs, then the next link while a later slot holds pairs:
    a pass over a table's pairs (:func:`run_pairs`) enters at the first slot that
    holds any and leaves after the last, and a query of one pair (:func:`one_pair`)
    runs its slot's link alone.
    """
    link = end_of_chain
    links = []
    for (kind_a, kind_b), entry in sorted(TABLE.items(), reverse=True):
        if not entry.swapped:
            slot = kind_a * _KINDS + kind_b
            link = specialise(
                chain, entry.pair.contact, CHAIN, TEST=entry.pair.intersects, SLOT=slot, NEXT=link
            )
            links.append((slot, link))
    return tuple(reversed(links))


_LINKS = _chain()
_literal_unroll: Any = numba.literal_unroll  # numba's annotations are partial


def run_pairs(
    rows: WorldRows,
    i: Int64Array,
    j: Int64Array,
    order: Int64Array,
    counts: Int64Array,
    contact: bool,
    hit: BoolArray,
    out: FloatArray,
) -> None:
    """Every registered pair kernel over a table's pairs grouped by slot (see
    :func:`~arcade_collide.geometry.query.kernel_base.chain`): the chain entered at
    the first slot that holds pairs."""
    first = 0
    while first < SLOTS and counts[first + 1] == counts[first]:
        first += 1
    for slot_link in _literal_unroll(_LINKS):
        if slot_link[0] == first:
            slot_link[1](rows, i, j, order, counts, contact, hit, out)


# Unrolling the loops over (slot, link) pairs types the links as numba's first-class
# functions, which numba flags as experimental with a warning at compile time.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
    run_pairs = kernel(CHAIN)(run_pairs)


NO_CONTACTS = np.empty((0, 5))
"""The ``out`` of a :func:`run_pairs` call without contacts."""


_SHAPE_KIND: dict[type, int] = {t: int(t.kind) for t in SHAPE_TYPES}
"""Shape type -> kind number (a plain int: numba converts an IntEnum argument slowly)."""


def _arrays_kind(arrays: object, name: str) -> ShapeKind:
    kind = RECORD_KINDS.get(type(arrays))
    if kind is None:
        raise TypeError(
            f"{name} must be a PointArrays, CircleArrays, RectArrays, TriangleArrays or "
            f"PolygonArrays record, got {type(arrays).__name__}"
        )
    return kind


_Batch = tuple[WorldRows, Int64Array, Int64Array, Int64Array, Int64Array]


def _batch_table(a: object, b: object) -> _Batch:
    """Check two batch records; return a table holding them, the pairs of their rows
    ``(i, j)``, the order of the pairs and their slot bounds (see :data:`SLOTS`)."""
    kind_a = _arrays_kind(a, "a")
    kind_b = _arrays_kind(b, "b")
    m = len(a[0])  # type: ignore[index]
    if len(b[0]) != m:  # type: ignore[index]
        raise ValueError(
            f"a and b must have the same number of rows, got {m} and {len(b[0])}"  # type: ignore[index]
        )
    i = np.arange(m, dtype=np.int64)
    j = i + m
    counts = np.zeros(SLOTS + 1, dtype=np.int64)
    counts[min(kind_a, kind_b) * _KINDS + max(kind_a, kind_b) + 1 :] = m
    if kind_a > kind_b:  # the table holds B's kind first
        return world_rows(b, a), j, i, i, counts  # type: ignore[arg-type]
    return world_rows(a, b), i, j, i, counts  # type: ignore[arg-type]


# The scalar queries: each shape enters compiled code as its kind, two sizes (a
# circle's radius; a rectangle's half width and height), its local vertices
# (rectangles, triangles, polygons) and its pose (x, y and the rotation's cos, sin), as
# scalars and one small array: each array argument costs a few tenths of a microsecond
# to pass, a numba allocation tens of nanoseconds.

_POLYGON = int(ShapeKind.POLYGON)
_NO_VERTICES = np.empty((0, 2))
_GEOMETRY_TYPES: Any = (types.int64, types.float64, types.float64, types.float64[:, ::1])
_POSE_TYPES: Any = (types.float64,) * 4
_ONE_PAIR: Any = types.Tuple((types.boolean, *(types.float64,) * 5))(
    types.boolean, *_GEOMETRY_TYPES, *_GEOMETRY_TYPES, *_POSE_TYPES, *_POSE_TYPES
)


def one_pair(
    contact: bool,
    kind_a: int, size_xa: float, size_ya: float, local_a: FloatArray,
    kind_b: int, size_xb: float, size_yb: float, local_b: FloatArray,
    xa: float, ya: float, ca: float, sa: float,
    xb: float, yb: float, cb: float, sb: float,
) -> tuple[bool, float, float, float, float, float]:  # fmt: skip
    """The pair kernel of two posed shapes, each given by :func:`geometry_of` and
    :func:`pose_terms` (the names as in :func:`~.placement.place_row`):
    ``(touching, nx, ny, depth, px, py)``, the contact zeros when ``contact`` is False
    or the shapes are apart."""
    width = len(local_a) if kind_a == _POLYGON else 0
    if kind_b == _POLYGON:
        width = max(width, len(local_b))
    kinds = np.empty(2, dtype=np.int8)
    kinds[0] = min(kind_a, kind_b)
    kinds[1] = max(kind_a, kind_b)
    rows = empty_rows(kinds, width)
    i = np.zeros(1, dtype=np.int64)  # A's table row
    i[0] = 1 if kind_a > kind_b else 0
    j = 1 - i
    place_row(rows, kind_a, i[0] - rows.start[kind_a], xa, ya, ca, sa, size_xa, size_ya, local_a)
    place_row(rows, kind_b, j[0] - rows.start[kind_b], xb, yb, cb, sb, size_xb, size_yb, local_b)
    slot = min(kind_a, kind_b) * _KINDS + max(kind_a, kind_b)
    counts = np.zeros(SLOTS + 1, dtype=np.int64)
    counts[slot + 1 :] = 1
    hit = np.empty(1, dtype=np.bool_)
    out = np.zeros((1, 5))
    for slot_link in _literal_unroll(_LINKS):
        if slot_link[0] == slot:
            slot_link[1](rows, i, j, np.zeros(1, dtype=np.int64), counts, contact, hit, out)
    return hit[0], out[0, 0], out[0, 1], out[0, 2], out[0, 3], out[0, 4]


with warnings.catch_warnings():  # (first-class functions: see run_pairs)
    warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
    one_pair = kernel(_ONE_PAIR)(one_pair)


Geometry = tuple[int, float, float, FloatArray]
"""A shape as :func:`one_pair` takes it: kind, two sizes (a circle's radius; a
rectangle's half width and height; else zeros) and local vertices (none for points
and circles)."""

_GEOMETRY: dict[int, tuple[weakref.ref[Any], Geometry]] = {}
"""The :data:`Geometry` of live shapes, by ``id``: shapes are frozen, so the arrays built
for a shape's first query serve all its later ones."""


def _forget(
    table: dict[int, tuple[weakref.ref[Any], Geometry]], key: int, ref: weakref.ref[Any]
) -> None:
    """Drop a collected shape's entry from ``table`` (unless its ``id`` already names
    another shape). The table comes bound in the callback: at interpreter exit the
    module's globals may already be cleared when the last shapes are collected."""
    kept = table.get(key)
    if kept is not None and kept[0] is ref:
        del table[key]


def geometry_of(shape: object, name: str) -> Geometry:
    """The :data:`Geometry` of ``shape`` (argument ``name``), kept while it lives."""
    key = id(shape)
    kept = _GEOMETRY.get(key)
    if kept is not None and kept[0]() is shape:
        return kept[1]
    kind = _SHAPE_KIND.get(type(shape))
    if kind is None:
        raise TypeError(
            f"{name} must be a Point, Circle, Rect, Triangle or Polygon, got {type(shape).__name__}"
        )
    geometry: Geometry = (kind, 0.0, 0.0, _NO_VERTICES)
    if isinstance(shape, Circle):
        geometry = (kind, shape.radius, 0.0, _NO_VERTICES)
    elif isinstance(shape, (Rect, Triangle, Polygon)):
        vertices = np.array(shape.local_vertices(), dtype=np.float64)
        if isinstance(shape, Rect):
            geometry = (kind, shape.half_width, shape.half_height, vertices)
        else:
            geometry = (kind, 0.0, 0.0, vertices)
    _GEOMETRY[key] = (weakref.ref(shape, partial(_forget, _GEOMETRY, key)), geometry)
    return geometry


_PLAIN = frozenset((float, int))


def pose_terms(pose: object, name: str) -> tuple[float, float, float, float]:
    """``(x, y, cos, sin)`` of a pose checked by
    :func:`~arcade_collide.geometry.pose.parse_pose`, whose checks a tuple of two or
    three finite floats or ints passes by a quicker path to the same values."""
    if type(pose) is tuple:
        count = len(pose)
        if count == 3:
            x, y, angle = pose
        elif count == 2:
            x, y = pose
            angle = 0.0
        else:
            x = y = angle = None  # parse_pose names the wrong length
        if type(x) in _PLAIN and type(y) in _PLAIN and type(angle) in _PLAIN:
            try:
                x, y, angle = float(x), float(y), float(angle)
            except OverflowError:
                pass  # an int beyond float range: parse_pose names it
            else:
                if (x - x) + (y - y) + (angle - angle) == 0.0:  # NaN unless all are finite
                    return (x, y, 1.0, 0.0) if angle == 0.0 else (x, y, *rotation(angle))
    x, y, angle = parse_pose(pose, name)
    return (x, y, *rotation(angle))


def _query(
    contact: bool, shape_a: object, pose_a: object, shape_b: object, pose_b: object
) -> tuple[bool, float, float, float, float, float]:
    """Check the arguments of :func:`intersects` / :func:`contact`, then run the pair."""
    return one_pair(
        contact,
        *geometry_of(shape_a, "shape_a"),
        *geometry_of(shape_b, "shape_b"),
        *pose_terms(pose_a, "pose_a"),
        *pose_terms(pose_b, "pose_b"),
    )


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
    return _query(False, shape_a, pose_a, shape_b, pose_b)[0]


def contact(shape_a: AnyShape, pose_a: object, shape_b: AnyShape, pose_b: object) -> Contact | None:
    """How the two posed shapes meet, or None when they are apart.

    The normal points from A to B; translating B by ``normal * depth`` leaves
    the shapes touching (see :class:`~arcade_collide.geometry.contact.Contact`).
    The arguments and the errors are those of :func:`intersects`.

    Returns:
        The contact, or None when the shapes do not touch.

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
    hit, nx, ny, depth, px, py = _query(True, shape_a, pose_a, shape_b, pose_b)
    return Contact((nx, ny), depth, (px, py)) if hit else None


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
    rows, i, j, order, counts = _batch_table(a, b)
    out = np.empty(len(i), dtype=np.bool_)
    run_pairs(rows, i, j, order, counts, False, out, NO_CONTACTS)
    return out


def contact_batch(a: ShapeArrays, b: ShapeArrays) -> BatchContacts:
    """Contacts of ``M`` pairs at once: row ``i`` is :func:`contact` of ``a[i]`` and ``b[i]``.

    Rows that do not touch have ``hit`` False and zeros elsewhere. Normals point
    from side A to side B. The arguments and the errors are those of
    :func:`intersects_batch`.

    Returns:
        The batch of contacts.

    >>> from arcade_collide.geometry.arrays import pack
    >>> from arcade_collide.geometry.shapes import Circle, Rect
    >>> r = contact_batch(pack([Rect(4, 2)] * 3, [(0, 0)] * 3),
    ...                   pack([Circle(1)] * 3, [(2.5, 0), (5, 0), (3, 0)]))
    >>> r.hit.tolist(), r.depth.tolist(), r.normal[0].tolist()  # hit, miss, touching
    ([True, False, True], [0.5, 0.0, 0.0], [1.0, -0.0])
    """
    rows, i, j, order, counts = _batch_table(a, b)
    hit = np.empty(len(i), dtype=np.bool_)
    out = np.empty((len(i), 5))
    run_pairs(rows, i, j, order, counts, True, hit, out)
    return BatchContacts(hit, out[:, 0:2].copy(), out[:, 2].copy(), out[:, 3:5].copy())

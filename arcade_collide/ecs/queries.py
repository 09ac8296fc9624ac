"""World queries: which entities overlap a point, a box or a posed shape, and why two
entities do or do not collide. Answered from a world's shape table as it is now.

The caller brings the table up to date first (:meth:`ShapeTable.refresh
<arcade_collide.ecs.table.ShapeTable.refresh>`, which places only the rows written
since it last looked). A query then:

1. gathers candidate rows by box (:meth:`QueryIndex.rows_in_box`): a
   :class:`~arcade_collide.geometry.static_grid.StaticGrid` of the static rows, built
   again only when those change (``table.layout``, ``table.static_revision``), and a
   compiled scan of the other rows' boxes; so a query costs what lies under its box
   and the moving rows, not the level;
2. runs the tick's own pair kernels on (query shape, candidate) for the candidates
   whose ``layer`` shares a bit with the query's ``mask``
   (:func:`~arcade_collide.geometry.query.probe.rows_touching_shape`): the answers are
   exact, closed sets (touching counts), and agree with the tick;
3. returns the entity ids in ascending order, those the ``where`` predicate (called
   with each entity id found) accepts.

Sensors are found like any shape; static shapes too.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

import esper
import numpy as np

from arcade_collide.ecs.components import ALL_LAYERS, Position, Shape, _check_bits
from arcade_collide.ecs.table import ShapeTable
from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.broad_phase import boxes_overlap
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.pose import Vec2, check_number, check_vec2
from arcade_collide.geometry.query.dispatch import geometry_of, pose_terms
from arcade_collide.geometry.query.kernel_base import Int64Array
from arcade_collide.geometry.query.probe import posed_box, rows_touching_box, rows_touching_shape
from arcade_collide.geometry.query.rows import contact_rows
from arcade_collide.geometry.query.separation import separating_axis
from arcade_collide.geometry.shapes import AnyShape, ShapeKind
from arcade_collide.geometry.static_grid import StaticGrid

Where = Callable[[int], object]
"""A query's ``where`` filter: called with an entity id found, keeps it when truthy."""

Box = tuple[float, float, float, float]
"""``(min_x, min_y, max_x, max_y)``."""

_NO_ROWS = np.empty(0, dtype=np.int64)
_PLAIN = {float, int}
_NO_VERTICES = np.empty((0, 2))
Geometry = tuple[int, float, float, FloatArray]
Pose4 = tuple[float, float, float, float]


class QueryIndex:
    """Candidate rows of one world's shape table for query boxes (see module docstring).

    Reused by every query of a world between ticks and across ticks; :meth:`update`
    follows the table. Its parts are public for queries built on it (rays):
    :meth:`static_grid` and :attr:`moving_rows`.
    """

    def __init__(self) -> None:
        self._table: ShapeTable | None = None
        self._key: tuple[object, int, int] | None = None
        self._grid = (StaticGrid(np.empty((0, 4))), _NO_ROWS)
        self._static_ids: Int64Array = _NO_ROWS
        """The entities of the grid's boxes, in order."""
        self.moving_rows: Int64Array = _NO_ROWS
        """The table's other rows (``table.dynamic_rows``), scanned by every query."""
        self._box = np.empty((1, 4))
        self._ids: tuple[ShapeTable, int, Int64Array, Int64Array] | None = None

    def update(self, table: ShapeTable) -> None:
        """Follow ``table`` (already refreshed); :meth:`static_grid` builds its grid
        again when it next runs, if the static rows' boxes changed."""
        self._table = table
        self.moving_rows = table.dynamic_rows

    def static_grid(self) -> tuple[StaticGrid, Int64Array]:
        """The grid of the static rows' boxes and those rows, ascending (grid box ``s``
        is table row ``rows[s]``), built again when the static rows' boxes were
        written (``table.static_revision``), the static entities changed or the table
        is another. Entities coming and going round them only renumber the rows."""
        table = self._table
        if table is not None:
            key = (table, table.layout, table.static_revision)
            if key != self._key:
                grid, rows = self._grid
                old = self._key
                if not (
                    old is not None
                    and old[0] is table
                    and old[2] == table.static_revision
                    and len(rows) == len(table.static_rows)
                    # The same rows array: rows were only reused in place round the
                    # static ones (a reused static row bumps the static revision).
                    and (
                        rows is table.static_rows
                        or np.array_equal(self._static_ids, table.entities[table.static_rows])
                    )
                ):
                    # The static shapes changed (not only rows coming and going round
                    # them, which renumbers them): bin them again.
                    grid = StaticGrid(table.aabbs[table.static_rows])
                    self._static_ids = table.entities[table.static_rows]
                self._grid = (grid, table.static_rows)
                self._key = key
        return self._grid

    def rows_in_box(self, box: Box) -> Int64Array:
        """The table rows, ascending, whose boxes (padded by the table's slack) overlap
        or touch the closed ``box``: a superset of the rows whose shapes touch it."""
        table = self._table
        if table is None:
            return _NO_ROWS
        left, bottom, right, top = box
        moving = rows_touching_box(table.aabbs, self.moving_rows, left, bottom, right, top)
        grid, static_rows = self.static_grid()
        if not len(static_rows):
            return moving
        self._box[0] = box
        _, s = grid.pairs(self._box)
        found = np.concatenate([static_rows[s], moving])
        found.sort()
        return found

    def rows_of(self, table: ShapeTable, entities: Int64Array) -> Int64Array:
        """The row of each entity id in ``table``, -1 for ids it does not hold (one sort
        of the table's ids, kept while its layout holds)."""
        if self._ids is None or self._ids[0] is not table or self._ids[1] != table.layout:
            order = np.argsort(table.entities, kind="stable")
            self._ids = (table, table.layout, table.entities[order], order)
        _, _, ids, order = self._ids
        at = np.minimum(np.searchsorted(ids, entities), max(len(ids) - 1, 0))
        if not len(ids):
            return np.full(len(entities), -1, dtype=np.int64)
        found = ids[at] == entities
        return np.where(found, order[at], -1).astype(np.int64)


def check_mask(mask: object) -> int:
    """``mask`` checked as a 32-bit layer mask (the ``mask`` argument of a query)."""
    return _check_bits(mask, "mask")


def check_where(where: object) -> Where | None:
    """``where`` checked to be None or callable."""
    if where is not None and not callable(where):
        raise TypeError(f"where must be a callable taking an entity id, got {type(where).__name__}")
    return where


def point_geometry(point: object) -> tuple[Geometry, Pose4]:
    """A point query's shape and pose, ``point`` checked (as the argument ``point``)."""
    # A tuple of two finite floats or ints takes a quicker path to check_vec2's values.
    if type(point) is tuple and len(point) == 2 and {type(point[0]), type(point[1])} <= _PLAIN:
        x, y = point
    else:
        x = y = math.nan
    if not (type(x) is float and type(y) is float and math.isfinite(x) and math.isfinite(y)):
        x, y = check_vec2(point, "point")
    return (int(ShapeKind.POINT), 0.0, 0.0, _NO_VERTICES), (x, y, 1.0, 0.0)


def box_geometry(
    left: object, bottom: object, right: object, top: object
) -> tuple[Geometry, Pose4]:
    """A box query's shape (a polygon on the exact corners, so no rounding moves
    them) and pose, the sides checked."""
    sides = [check_number(v, n) for v, n in zip(
        (left, bottom, right, top), ("left", "bottom", "right", "top"), strict=True
    )]  # fmt: skip
    x0, y0, x1, y1 = sides
    if not (x0 <= x1 and y0 <= y1):
        raise ValueError(
            f"the box needs left <= right and bottom <= top, got left={x0!r}, "
            f"bottom={y0!r}, right={x1!r}, top={y1!r}"
        )
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    return (int(ShapeKind.POLYGON), 0.0, 0.0, corners), (0.0, 0.0, 1.0, 0.0)


def shape_geometry(shape: object, pose: object) -> tuple[Geometry, Pose4]:
    """A shape query's shape and pose, checked (as the arguments ``shape``, ``pose``)."""
    return geometry_of(shape, "shape"), pose_terms(pose, "pose")


def query(
    table: ShapeTable,
    index: QueryIndex,
    geometry: Geometry,
    pose: Pose4,
    mask: int = ALL_LAYERS,
    where: Where | None = None,
) -> list[int]:
    """The entity ids, ascending, whose shapes touch the posed query shape (see the
    module docstring); ``table`` refreshed, ``index`` updated to it."""
    rows = touching_query(table, index, geometry, pose, mask)
    ids: list[int] = np.sort(table.entities[rows]).tolist()
    if where is not None:
        ids = [entity for entity in ids if where(entity)]
    return ids


def touching_query(
    table: ShapeTable, index: QueryIndex, geometry: Geometry, pose: Pose4, mask: int
) -> Int64Array:
    """The table rows, ascending, on a layer of ``mask`` whose shapes touch the query."""
    low_x, low_y, high_x, high_y = posed_box(*geometry, *pose)
    pad = table.slack
    rows = index.rows_in_box((low_x - pad, low_y - pad, high_x + pad, high_y + pad))
    if not len(rows):
        return rows
    touching: Int64Array = rows_touching_shape(
        table.rows, table.layer, mask, rows, *geometry, *pose
    )
    return touching


_E = TypeVar("_E")
_N = TypeVar("_N")


@dataclass(frozen=True)
class Explanation(Generic[_E]):
    """Why two entities (or sprites) do or do not collide, at their current poses.

    Conventions: :attr:`contact`'s normal and :attr:`separating_axis` point from
    :attr:`a` to :attr:`b`; boxes are ``(min_x, min_y, max_x, max_y)`` as the broad
    phase sees them (pushed out by the table's coordinate slack); touching counts as
    colliding (closed shapes). :attr:`collides` is what the next tick would report if
    nothing moved.
    """

    a: _E
    """The first entity (or sprite)."""
    b: _E
    """The second."""
    layer_a: int
    """A's layer bits."""
    mask_a: int
    """The layer bits A collides with."""
    layer_b: int
    """B's layer bits."""
    mask_b: int
    """The layer bits B collides with."""
    filter_passes: bool
    """``layer_a & mask_b`` and ``layer_b & mask_a`` are both non-zero."""
    sensor_a: bool
    """A is a sensor (it collides; its events say so)."""
    sensor_b: bool
    """B is a sensor."""
    static_a: bool
    """A is static (part of the level)."""
    static_b: bool
    """B is static; two static shapes are never paired."""
    box_a: Box
    """A's box."""
    box_b: Box
    """B's box."""
    boxes_overlap: bool
    """The boxes overlap or touch (the broad phase offers the pair)."""
    touching: bool
    """The exact test's verdict: the shapes share a point (whatever the filter says)."""
    contact: Contact | None
    """How they meet when :attr:`touching` (normal from A to B), else None."""
    separating_axis: Vec2 | None
    """When apart, a unit axis from A to B along which they are apart (convex pairs:
    the edge normal of greatest separation; circle pairs: the centre line; a circle or
    point and an outline: from the outline's closest point), else None."""
    gap: float | None
    """When apart, ``min(B . axis) - max(A . axis)`` along :attr:`separating_axis`."""

    @property
    def both_static(self) -> bool:
        """Both are static: never paired, whatever else holds."""
        return self.static_a and self.static_b

    @property
    def collides(self) -> bool:
        """The filter passes, they are not both static, and they touch."""
        return self.filter_passes and not self.both_static and self.touching

    def naming(self, a: _N, b: _N) -> Explanation[_N]:
        """The same explanation naming ``a`` and ``b`` instead (sprites for entities)."""
        fields = dict(self.__dict__, a=a, b=b)
        return Explanation(**fields)


def _check_entity(entity: object, name: str) -> int:
    if isinstance(entity, bool) or not isinstance(entity, numbers.Integral):
        raise TypeError(f"{name} must be an entity id (int), got {type(entity).__name__}")
    return int(entity)


def explain(table: ShapeTable, index: QueryIndex, a: object, b: object) -> Explanation[int]:
    """Why entities ``a`` and ``b`` do or do not collide (``table`` refreshed, ``index``
    updated to it; see :class:`Explanation`).

    Raises:
        TypeError: ``a`` or ``b`` is not an int.
        ValueError: ``a`` equals ``b``, or names no entity with a Position and a Shape
            in the table (unknown, deleted, or without a shape).
    """
    ea, eb = _check_entity(a, "a"), _check_entity(b, "b")
    if ea == eb:
        raise ValueError(f"explain needs two different entities, got {ea} twice")
    ids = np.array([ea, eb], dtype=np.int64) if max(ea, eb) < 2**63 else None
    rows = index.rows_of(table, ids) if ids is not None else np.array([-1, -1])
    for entity, row in zip((ea, eb), rows.tolist(), strict=True):
        if row < 0:
            raise ValueError(
                f"entity {entity} is not collidable in this world (it does not exist, "
                "was deleted, or has no Position and Shape)"
            )
    ra, rb = (int(r) for r in rows)
    layer, mask = table.layer, table.mask
    contact = contacts_in(table, rows[:1], rows[1:])[0]
    axis: Vec2 | None = None
    gap: float | None = None
    if contact is None:
        axis, gap = separating_axis(*_posed(ea), *_posed(eb))
    box_a: Box = tuple(table.aabbs[ra].tolist())
    box_b: Box = tuple(table.aabbs[rb].tolist())
    return Explanation(
        ea, eb, int(layer[ra]), int(mask[ra]), int(layer[rb]), int(mask[rb]),
        bool(layer[ra] & mask[rb]) and bool(layer[rb] & mask[ra]),
        bool(table.sensor[ra]), bool(table.sensor[rb]),
        bool(table.static[ra]), bool(table.static[rb]),
        box_a, box_b,
        bool(boxes_overlap(table.aabbs[ra], table.aabbs[rb])),
        contact is not None, contact, axis, gap,
    )  # fmt: skip


def _posed(entity: int) -> tuple[AnyShape, tuple[float, float, float]]:
    """An entity's local shape and pose, from its components."""
    position = esper.component_for_entity(entity, Position)
    shape = esper.component_for_entity(entity, Shape)
    return shape.geometry, (position.x, position.y, position.angle)


def current_contacts(
    table: ShapeTable,
    index: QueryIndex,
    keys: Int64Array,
    contacts: dict[tuple[int, int], Contact],
) -> dict[tuple[int, int], Contact]:
    """``contacts`` (of the entity pairs ``keys``, in their order) with each pair that
    touches in ``table`` (refreshed) given its contact there; the others, and pairs
    with an entity the table no longer holds, keep theirs. A new dict."""
    rows_a = index.rows_of(table, np.ascontiguousarray(keys[:, 0]))
    rows_b = index.rows_of(table, np.ascontiguousarray(keys[:, 1]))
    held = np.flatnonzero((rows_a >= 0) & (rows_b >= 0))
    now = dict(contacts)
    pairs = list(contacts)
    for k, contact in zip(
        held.tolist(), contacts_in(table, rows_a[held], rows_b[held]), strict=True
    ):
        if contact is not None:
            now[pairs[k]] = contact
    return now


def contacts_in(table: ShapeTable, rows_a: Int64Array, rows_b: Int64Array) -> list[Contact | None]:
    """The contact of each pair of table rows (normal from ``rows_a`` to ``rows_b``),
    None where they do not touch."""
    hit, normal, depth, point = contact_rows(rows_a, rows_b, table.rows)
    normal += 0.0  # -0.0 prints oddly: every zero positive, as in the tick's contacts
    point += 0.0
    contacts = _contacts(normal, depth, point)
    return [contact if h else None for h, contact in zip(hit.tolist(), contacts, strict=True)]


def contacts_from(
    keys: Int64Array, normal: FloatArray, depth: FloatArray, point: FloatArray
) -> dict[tuple[int, int], Contact]:
    """The contacts ``(normal[k], depth[k], point[k])`` of the entity pairs ``keys[k]``."""
    pairs = zip(keys[:, 0].tolist(), keys[:, 1].tolist(), strict=True)
    return dict(zip(pairs, _contacts(normal, depth, point), strict=True))


def _contacts(normal: FloatArray, depth: FloatArray, point: FloatArray) -> list[Contact]:
    """One Contact per row of the arrays."""
    return [
        Contact((nx, ny), d, (px, py))
        for nx, ny, d, px, py in zip(
            *normal.T.tolist(), depth.tolist(), *point.T.tolist(), strict=True
        )
    ]

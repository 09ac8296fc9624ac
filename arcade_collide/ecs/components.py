"""The components: :class:`Position`, :class:`Velocity`, :class:`Shape` and :class:`Static`.

``Position`` and ``Velocity`` are handles on a row of their world's pools
(:mod:`~arcade_collide.ecs.storage`); every assignment is validated. Edits of a
``Shape`` are picked up on the next tick.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from functools import partial
from typing import Any, Generic, TypeVar, overload

from arcade_collide.ecs.storage import RowPool
from arcade_collide.ecs.world_state import ShapeEpoch, world_pools
from arcade_collide.geometry.pose import check_number
from arcade_collide.geometry.shapes import SHAPE_TYPES, AnyShape

ALL_LAYERS = 0xFFFF_FFFF
"""A mask with all 32 layer bits set: collide with every layer."""

_T = TypeVar("_T")

SHARED = -1
"""The owner a :class:`Shape` records in a world where several entities hold it."""

_PLAIN = frozenset((float, int))
"""The types whose values :meth:`_Pooled._store` converts without :func:`check_number`."""


class _Pooled:
    """A component whose three numbers live in a row of its world's pool."""

    __slots__ = ("__weakref__", "_pool", "_row")

    _third: str
    """The name of the third number (the first two are ``x`` and ``y``)."""

    def _store(self, pool: RowPool, x: object, y: object, third: object) -> None:
        """Validate ``x``, ``y`` and the third number and write them to a new row of ``pool``."""
        if type(x) in _PLAIN and type(y) in _PLAIN and type(third) in _PLAIN:
            # Plain floats and ints: a finite sum proves each is finite (an int too
            # large for a float raises OverflowError). Anything else is checked one by
            # one below, which also words the errors.
            try:
                values = (float(x), float(y), float(third))  # type: ignore[arg-type]
                total = values[0] + values[1] + values[2]
            except OverflowError:
                total = math.inf
            if total - total != 0.0:
                values = self._checked(x, y, third)
        else:
            values = self._checked(x, y, third)
        self._pool = pool
        row = self._row = pool.allocate(values)
        pool.touch(row)

    def _checked(self, *values: object) -> tuple[float, float, float]:
        """``values`` (x, y, third) as finite floats, or the error naming the first bad one."""
        name = type(self).__name__
        names = ("x", "y", self._third)
        x, y, third = (check_number(v, f"{name}.{n}") for v, n in zip(values, names, strict=True))
        return x, y, third

    def __del__(self) -> None:
        row = getattr(self, "_row", None)
        if row is not None:
            self._pool.release(row)

    @property
    def pool_row(self) -> int:
        """The component's row in ``world_pools().positions`` (``.velocities`` for a
        :class:`Velocity`) of the world current when it was made, for its whole life.

        >>> from arcade_collide.ecs.world_state import world_pools
        >>> p = Position(3, 4, angle=5)
        >>> world_pools().positions.data[p.pool_row].tolist()
        [3.0, 4.0, 5.0]
        """
        return self._row

    def _values(self) -> tuple[float, float, float]:
        x, y, third = self._pool.data[self._row].tolist()
        return x, y, third

    def __repr__(self) -> str:
        x, y, third = self._values()
        return f"{type(self).__name__}({x!r}, {y!r}, {self._third}={third!r})"

    def __reduce__(self) -> tuple[type[_Pooled], tuple[float, float, float]]:
        # Also what copy.copy and copy.deepcopy use: a copy gets a row of its own.
        return (type(self), self._values())


class _Column:
    """A number of a :class:`_Pooled` component: one column of its row, validated."""

    __slots__ = ("column", "label")

    def __init__(self, column: int, label: str) -> None:
        self.column = column
        self.label = label

    @overload
    def __get__(self, obj: None, owner: type[Any] | None = None) -> _Column: ...
    @overload
    def __get__(self, obj: _Pooled, owner: type[Any] | None = None) -> float: ...
    def __get__(self, obj: _Pooled | None, owner: type[Any] | None = None) -> float | _Column:
        if obj is None:
            return self
        return float(obj._pool.data[obj._row, self.column])

    def __set__(self, obj: _Pooled, value: float) -> None:
        obj._pool.data[obj._row, self.column] = check_number(value, self.label)
        obj._pool.touch(obj._row)


class Position(_Pooled):
    """Where an entity is: ``x``, ``y`` in pixels and ``angle`` in degrees clockwise
    (like :attr:`arcade.Sprite.angle`).

    Args:
        x: Horizontal position, finite.
        y: Vertical position (y up), finite.
        angle: Rotation in degrees, clockwise, finite.

    Raises:
        TypeError: a value is not a real number.
        ValueError: a value is NaN or infinite.

    >>> p = Position(100, 50, angle=90)
    >>> p.x += 1
    >>> p
    Position(101.0, 50.0, angle=90.0)
    >>> p.y = float("nan")
    Traceback (most recent call last):
    ...
    ValueError: Position.y must be finite, got nan
    """

    __slots__ = ()
    _third = "angle"

    x = _Column(0, "Position.x")
    """Horizontal position in pixels."""
    y = _Column(1, "Position.y")
    """Vertical position in pixels (y up)."""
    angle = _Column(2, "Position.angle")
    """Rotation in degrees, clockwise."""

    def __init__(self, x: float, y: float, angle: float = 0.0) -> None:
        self._store(world_pools().positions, x, y, angle)


class Velocity(_Pooled):
    """How fast an entity moves: ``x``, ``y`` in pixels per second and ``angular`` in
    degrees per second (clockwise).

    Args:
        x: Horizontal speed, finite.
        y: Vertical speed, finite.
        angular: Turn rate in degrees per second, finite.

    Raises:
        TypeError: a value is not a real number.
        ValueError: a value is NaN or infinite.

    >>> Velocity(30, 0, angular=90)
    Velocity(30.0, 0.0, angular=90.0)
    >>> Velocity(float("inf"), 0)
    Traceback (most recent call last):
    ...
    ValueError: Velocity.x must be finite, got inf
    """

    __slots__ = ()
    _third = "angular"

    x = _Column(0, "Velocity.x")
    """Horizontal speed in pixels per second."""
    y = _Column(1, "Velocity.y")
    """Vertical speed in pixels per second (y up)."""
    angular = _Column(2, "Velocity.angular")
    """Turn rate in degrees per second, clockwise."""

    def __init__(self, x: float, y: float, angular: float = 0.0) -> None:
        self._store(world_pools().velocities, x, y, angular)


def _check_bits(value: object, name: str) -> int:
    # Any integer type (numpy's too), stored as a Python int.
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int bitmask, got {type(value).__name__}")
    bits = int(value)
    if not 0 <= bits <= ALL_LAYERS:
        raise ValueError(f"{name} must be a 32-bit mask in [0, 0xFFFFFFFF], got {bits!r}")
    return bits


def _check_geometry(value: object) -> AnyShape:
    if not isinstance(value, SHAPE_TYPES):
        raise TypeError(
            "Shape geometry must be a Point, Circle, Rect, Triangle or Polygon, "
            f"got {type(value).__name__}"
        )
    return value


_GEOMETRY = frozenset(SHAPE_TYPES)


class _Setting(Generic[_T]):
    """A :class:`Shape` field: its setter checks the value and bumps the shape epochs."""

    __slots__ = ("check", "slot")

    def __init__(self, check: Callable[[Any], _T]) -> None:
        self.check = check

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self.slot = "_" + name

    @overload
    def __get__(self, obj: None, owner: type[Any] | None = None) -> _Setting[_T]: ...
    @overload
    def __get__(self, obj: Shape, owner: type[Any] | None = None) -> _T: ...
    def __get__(self, obj: Shape | None, owner: type[Any] | None = None) -> _T | _Setting[_T]:
        if obj is None:
            return self
        value: _T = getattr(obj, self.slot)
        return value

    def __set__(self, obj: Shape, value: _T) -> None:
        setattr(obj, self.slot, self.check(value))
        obj._edited()


class Shape:
    """The collision shape of an entity, and how it collides.

    Two shapes are tested only when ``a.layer & b.mask`` and ``b.layer & a.mask`` are
    both non-zero. A sensor collides (and gets events) like any shape; the flag is
    reported on the events so the game can treat sensor contacts differently.

    Args:
        geometry: A :class:`~arcade_collide.geometry.shapes.Point`, ``Circle``,
            ``Rect``, ``Triangle`` or ``Polygon`` in local coordinates (the entity's
            :class:`Position` places it).
        layer: The layer bits this shape is on (32-bit mask, default ``1``).
        mask: The layer bits this shape collides with (default: all).
        sensor: Mark the shape as a sensor (trigger zone).
        swept: Test the shape's whole motion over each tick, not only where it ends:
            a fast bullet then meets the thin wall or trigger it jumped over
            (:mod:`~arcade_collide.ecs.swept` states the rules). Only swept shapes
            pay for it.
        stop_at_impact: For a swept shape: when its motion meets a shape that is not
            a sensor, it stops where it first touched it (the CollisionSystem moves
            its Position back there before the tick's contacts are found). Ignored
            unless ``swept``.

    Raises:
        TypeError: ``geometry`` is not a geometry shape, or a mask is not an int.
        ValueError: a mask is outside 32 bits.

    >>> from arcade_collide.geometry.shapes import Circle
    >>> Shape(Circle(8), layer=0b10, sensor=True)
    Shape(Circle(radius=8.0), layer=2, mask=4294967295, sensor=True)
    >>> Shape("circle")
    Traceback (most recent call last):
    ...
    TypeError: Shape geometry must be a Point, Circle, Rect, Triangle or Polygon, got str
    """

    __slots__ = (
        "__weakref__", "_epochs", "_geometry", "_layer", "_mask", "_owners", "_sensor",
        "_stop_at_impact", "_swept", "_watchers",
    )  # fmt: skip

    def __init__(
        self,
        geometry: AnyShape,
        layer: int = 1,
        mask: int = ALL_LAYERS,
        sensor: bool = False,
        swept: bool = False,
        stop_at_impact: bool = False,
    ) -> None:
        # Exact geometry types and plain ints in range pass without the checks' calls.
        self._geometry = geometry if type(geometry) in _GEOMETRY else _check_geometry(geometry)
        fits = type(layer) is int and type(mask) is int and 0 <= layer <= ALL_LAYERS
        if fits and 0 <= mask <= ALL_LAYERS:
            self._layer, self._mask = layer, mask
        else:
            self._layer = _check_bits(layer, "layer")
            self._mask = _check_bits(mask, "mask")
        self._sensor = bool(sensor)
        self._swept = bool(swept)
        self._stop_at_impact = bool(stop_at_impact)
        self._epochs: tuple[ShapeEpoch, ...] = ()
        """The shape epochs of the worlds whose tables placed this shape: an edit bumps
        them, and only those worlds re-read their shapes."""
        self._owners: tuple[int, ...] = ()
        """For each of :attr:`_epochs`, the entity holding this shape in that world when
        its table last placed it, or :data:`SHARED` (the table finds an edited shape's
        row by it)."""
        self._watchers: tuple[ShapeEpoch, ...] = ()
        """Epochs told of every edit besides the tables' (see :meth:`_watch_edits`)."""

    geometry = _Setting(_check_geometry)
    """The geometry shape, in local coordinates."""
    layer = _Setting(partial(_check_bits, name="layer"))
    """Layer bits of this shape."""
    mask = _Setting(partial(_check_bits, name="mask"))
    """Layer bits this shape collides with."""
    sensor = _Setting(bool)
    """True for a sensor (trigger) shape."""
    swept = _Setting(bool)
    """True when the shape's motion over each tick is tested (swept detection)."""
    stop_at_impact = _Setting(bool)
    """True when a swept shape stops at its first impact with a shape that is not a sensor."""

    def _edited(self) -> None:
        for epoch in self._epochs:
            epoch.note(self)
        for epoch in self._watchers:
            epoch.note(self)

    def _watch_edits(self, epoch: ShapeEpoch) -> None:
        """Tell ``epoch`` of every later edit of this shape, placed by a table or not (a
        CollisionWorld answers questions about shapes no tick has placed yet)."""
        if epoch not in self._watchers:
            self._watchers = (*self._watchers, epoch)

    def __repr__(self) -> str:
        extra = ", swept=True" if self._swept else ""
        extra += ", stop_at_impact=True" if self._stop_at_impact else ""
        return (
            f"Shape({self._geometry!r}, layer={self._layer}, mask={self._mask}, "
            f"sensor={self._sensor}{extra})"
        )

    def __reduce__(self) -> tuple[type[Shape], tuple[AnyShape, int, int, bool, bool, bool]]:
        # A copy belongs to no world's table yet.
        shape = self
        return (Shape, (shape._geometry, shape._layer, shape._mask, shape._sensor,
                        shape._swept, shape._stop_at_impact))  # fmt: skip


class Static:
    """Marks an entity as part of the level: a tile, a wall, a platform.

    Two static shapes are never tested against each other, and no pair of two static
    shapes is ever reported. A static entity may still be moved by hand (its
    :class:`Position` edited); that is correct, only not free. Without this marker an
    entity is not static, even without a :class:`Velocity`: the game may move it by
    hand and it collides with everything.

    >>> from arcade_collide.geometry.shapes import Rect
    >>> tile = (Position(0, 0), Shape(Rect(32, 32)), Static())  # esper.create_entity(*tile)
    >>> tile[2]
    Static()
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "Static()"

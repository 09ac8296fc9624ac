"""The platformer controller: the :class:`Platformer` component and :class:`PlatformerSystem`.

A platformer character is an entity with a ``Position``, a ``Velocity``, a ``Shape``,
a :class:`~arcade_collide.ecs.solids.Body` and a :class:`Platformer`. The game sets the
component's input before each tick (``move``, ``jump``, ``climb``); the system turns it,
with what the body stood on after the last tick, into the body's Velocity. It never
moves a body itself.

Tick order (``esper.process(dt)``; esper runs higher priorities first)::

    PlatformerSystem  priority 2   reads  each body's support after the last tick
                                          (ResponseSystem.supports), the ladders it
                                          overlapped then (CollisionSystem.touching),
                                          the input
                                   writes Velocity, the Platformer state
    MovementSystem    priority 1   Position += Velocity * dt
    CollisionSystem   priority 0   its ResponseSystem stage pushes the bodies out of
                                   the solids and keeps each body's support; then
                                   the contacts at the resolved positions

    collisions = CollisionSystem()
    response = ResponseSystem(collisions)        # a stage of the collision tick
    esper.add_processor(PlatformerSystem(response, collisions), priority=2)
    esper.add_processor(MovementSystem(), priority=1)
    esper.add_processor(collisions, priority=0)

The controller's rules are stated in :mod:`~arcade_collide.ecs.platformer_step`; every
controlled body's row is updated by one compiled pass, so the per-tick cost grows
with the number of bodies only through array work.
"""

from __future__ import annotations

import math
import numbers
import weakref
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any, Generic, Protocol, TypeVar, overload

import esper
import numpy as np
from numpy.typing import NDArray

from arcade_collide.ecs import platformer_step as col
from arcade_collide.ecs.components import Velocity
from arcade_collide.ecs.solids import Ladder
from arcade_collide.ecs.storage import PooledRows, RowPool
from arcade_collide.ecs.world_state import WorldState, world_state
from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.pose import check_number

_T = TypeVar("_T")

_pools: weakref.WeakKeyDictionary[WorldState, RowPool] = weakref.WeakKeyDictionary()
"""Each esper world's Platformer rows (kept with the world's own state, dropped with it)."""


def _platformer_pool() -> RowPool:
    """The Platformer rows of the current esper world."""
    state = world_state()
    pool = _pools.get(state)
    if pool is None:
        pool = _pools[state] = RowPool(col.WIDTH, capacity=64, logged=False)
    return pool


def _at_least_zero(value: object, name: str) -> float:
    number = check_number(value, name)
    if number < 0.0:
        raise ValueError(f"{name} must be at least 0, got {value!r}")
    return number


def _unit(value: object, name: str) -> float:
    number = check_number(value, name)
    if not -1.0 <= number <= 1.0:
        raise ValueError(f"{name} must be between -1 and 1, got {value!r}")
    return number


def _angle(value: object, name: str) -> float:
    number = check_number(value, name)
    if not 0.0 <= number < 90.0:
        raise ValueError(f"{name} must be at least 0 and below 90 degrees, got {value!r}")
    return number


def _count(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if int(value) < 0:
        raise ValueError(f"{name} must be at least 0, got {value!r}")
    return float(value)


def _flag(value: object, name: str) -> float:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}")
    return 1.0 if value else 0.0


class _Field(Generic[_T]):
    """A number of a :class:`Platformer`: a column of its row, checked when set (a
    field without a check is state the system writes: read-only)."""

    __slots__ = ("check", "column", "label", "read")

    def __init__(
        self,
        column: int,
        read: Callable[[float], _T],
        check: Callable[[object, str], float] | None = None,
    ) -> None:
        self.column = column
        self.read = read
        self.check = check

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self.label = f"{owner.__name__}.{name}"

    @overload
    def __get__(self, obj: None, owner: type[Any] | None = None) -> _Field[_T]: ...
    @overload
    def __get__(self, obj: Platformer, owner: type[Any] | None = None) -> _T: ...
    def __get__(self, obj: Platformer | None, owner: type[Any] | None = None) -> _T | _Field[_T]:
        if obj is None:
            return self
        return self.read(float(obj._pool.data[obj._row, self.column]))

    def __set__(self, obj: Platformer, value: _T) -> None:
        if self.check is None:
            raise AttributeError(f"{self.label} is state the PlatformerSystem writes")
        obj._pool.data[obj._row, self.column] = self.check(value, self.label)


def _as_bool(value: float) -> bool:
    return value != 0.0


def _as_int(value: float) -> int:
    return int(value)


_TUNING = (
    "gravity", "run_speed", "jump_speed", "coyote_time", "jump_buffer", "max_jumps",
    "ladder_speed", "max_floor_angle",
)  # fmt: skip


class Platformer:
    """Makes an entity a platformer character: gravity, walking, jumps, ladders.

    The defaults are the Arcade platform tutorial's values (1 px/frame² of gravity,
    20 px/frame jumps, 5 px/frame walking and climbing) at 60 ticks a second.

    Args:
        gravity: Downward acceleration in px/s² while off the ground and ladders.
        run_speed: Horizontal speed in px/s at ``move`` 1 (along the floor on a slope).
        jump_speed: Upward speed in px/s a jump starts with. The peak is about
            ``jump_speed**2 / (2 * gravity)`` px above the take-off.
        coyote_time: Seconds after walking off a ledge during which the ground jump is
            still allowed.
        jump_buffer: Seconds a jump press is kept when the body cannot jump yet: it
            jumps as soon as it can (landing, reaching a ladder) within that time.
        max_jumps: Jumps allowed between two touches of the ground or a ladder: 1 for
            a plain jump, 2 for a double jump, 0 for none.
        ladder_speed: Climbing speed in px/s at ``climb`` 1.
        max_floor_angle: The steepest support, in degrees from level, the body stands
            and walks on; steeper ones are walls (it slides down them).

    Input, set by the game before each tick:

    * ``move``: -1 (left) to 1 (right); 0 stands still.
    * ``jump``: Set True on the tick the jump key is pressed; the tick reads it and
      sets it back to False (the press then waits ``jump_buffer`` seconds).
    * ``climb``: -1 (down) to 1 (up), used while on a ladder.

    State, written by the :class:`PlatformerSystem` each tick (read-only):
    ``on_ground``, ``on_ladder``, ``jumps_used``, ``air_time``, ``jump_press_age``;
    and :attr:`can_jump`.

    Raises:
        TypeError: a value has the wrong type (``max_jumps`` must be an int).
        ValueError: a value is out of its range (speeds, times and gravity at least
            0, ``max_floor_angle`` in ``[0, 90)``, ``move``/``climb`` in ``[-1, 1]``).

    >>> hero = Platformer(jump_speed=600, max_jumps=2)
    >>> hero.move = 1
    >>> hero.jump = True
    >>> hero.can_jump, hero.on_ground, hero.jumps_used
    (True, False, 0)
    >>> hero.run_speed = -5
    Traceback (most recent call last):
    ...
    ValueError: Platformer.run_speed must be at least 0, got -5
    """

    __slots__ = ("__weakref__", "_pool", "_row")

    gravity = _Field(col.GRAVITY, float, _at_least_zero)
    run_speed = _Field(col.RUN_SPEED, float, _at_least_zero)
    jump_speed = _Field(col.JUMP_SPEED, float, _at_least_zero)
    coyote_time = _Field(col.COYOTE_TIME, float, _at_least_zero)
    jump_buffer = _Field(col.JUMP_BUFFER, float, _at_least_zero)
    max_jumps = _Field(col.MAX_JUMPS, _as_int, _count)
    ladder_speed = _Field(col.LADDER_SPEED, float, _at_least_zero)
    max_floor_angle = _Field(col.MAX_FLOOR_ANGLE, float, _angle)
    move = _Field(col.MOVE, float, _unit)
    """-1 (left) to 1 (right): the run input of the next tick."""
    jump = _Field(col.JUMP, _as_bool, _flag)
    """True asks for a jump; the next tick reads it and sets it back to False."""
    climb = _Field(col.CLIMB, float, _unit)
    """-1 (down) to 1 (up): the climb input of the next tick, used on ladders."""
    on_ground = _Field(col.ON_GROUND, _as_bool)
    """Whether the body stood on a floor (a support no steeper than
    ``max_floor_angle``) in the last tick and did not jump off it."""
    on_ladder = _Field(col.ON_LADDER, _as_bool)
    """Whether the body was climbing in the last tick: it overlapped a ladder and
    had not jumped off it."""
    jumps_used = _Field(col.JUMPS_USED, _as_int)
    """Jumps since the body last stood on the ground or a ladder (the ground jump
    counts as used once ``coyote_time`` has passed after walking off a ledge)."""
    air_time = _Field(col.AIR_TIME, float)
    """Seconds since the body last stood on the ground or a ladder (0 while it does)."""
    jump_press_age = _Field(col.JUMP_PRESS_AGE, float)
    """Seconds since the jump press still waiting to be used (``math.inf``: none)."""

    def __init__(
        self,
        gravity: float = 3600.0,
        run_speed: float = 300.0,
        jump_speed: float = 1200.0,
        coyote_time: float = 0.1,
        jump_buffer: float = 0.1,
        max_jumps: int = 1,
        ladder_speed: float = 300.0,
        max_floor_angle: float = 46.0,
    ) -> None:
        values = (gravity, run_speed, jump_speed, coyote_time, jump_buffer, max_jumps,
                  ladder_speed, max_floor_angle)  # fmt: skip
        fields = [getattr(Platformer, name) for name in _TUNING]
        checked = [f.check(v, f.label) for f, v in zip(fields, values, strict=True)]
        self._pool = _platformer_pool()
        self._row = self._pool.allocate()
        data = self._pool.data
        data[self._row, : len(checked)] = checked
        data[self._row, col.JUMP_PRESS_AGE] = math.inf

    def __del__(self) -> None:
        row = getattr(self, "_row", None)
        if row is not None:
            self._pool.release(row)

    @property
    def can_jump(self) -> bool:
        """Whether a jump asked for now would happen on the next tick, given the
        state after the last one: ``jumps_used < max_jumps``."""
        return self.jumps_used < self.max_jumps

    def __repr__(self) -> str:
        tuning = ", ".join(f"{name}={getattr(self, name)!r}" for name in _TUNING)
        return f"Platformer({tuning})"


class SupportArrays(Protocol):
    """What bodies stand on: a ``ResponseSystem.supports`` result."""

    @property
    def entity(self) -> NDArray[np.int64]: ...
    @property
    def normal(self) -> FloatArray: ...
    @property
    def velocity(self) -> FloatArray: ...


class SupportSource(Protocol):
    """Where the system reads the bodies' supports after the last tick."""

    def supports(self, entities: object) -> SupportArrays: ...


class LadderSource(Protocol):
    """Where the system reads which entities touched after the last tick."""

    def touching(self) -> list[tuple[int, int]]: ...


class PlatformerSystem(esper.Processor):
    """Sets the Velocity of every entity with a :class:`Platformer`, once per tick.

    Run it before the MovementSystem (the module docstring gives the tick order).

    Args:
        response: The world's ResponseSystem: each body's support after the last
            tick (``response.supports(entities)``).
        collisions: The world's CollisionSystem: the ladders each body overlapped
            after the last tick (read only while some entity has a
            :class:`~arcade_collide.ecs.solids.Ladder`).

    Raises:
        TypeError: ``response`` has no ``supports`` method, or ``collisions`` no
            ``touching`` method.

    >>> from arcade_collide import (Body, CollisionSystem, MovementSystem, Position, Rect,
    ...                             ResponseSystem, Shape, Solid, Static)
    >>> esper.switch_world("platformer-doctest")
    >>> floor = esper.create_entity(Position(0, 0), Shape(Rect(200, 20)), Static(), Solid())
    >>> hero = Platformer()
    >>> body = esper.create_entity(Position(0, 30), Velocity(0, 0), Shape(Rect(20, 40)),
    ...                            Body(), hero)
    >>> collisions = CollisionSystem()
    >>> response = ResponseSystem(collisions)
    >>> esper.add_processor(PlatformerSystem(response, collisions), priority=2)
    >>> esper.add_processor(MovementSystem(), priority=1)
    >>> esper.add_processor(collisions, priority=0)
    >>> esper.process(1 / 60); esper.process(1 / 60)
    >>> hero.on_ground
    True
    >>> hero.jump = True
    >>> esper.process(1 / 60)
    >>> esper.component_for_entity(body, Velocity).y, hero.on_ground, hero.jumps_used
    (1200.0, False, 1)
    >>> esper.switch_world("default"); esper.delete_world("platformer-doctest")
    """

    def __init__(self, response: SupportSource, collisions: LadderSource) -> None:
        if not callable(getattr(response, "supports", None)):
            raise TypeError(
                f"response must have a supports(entities) method, got {type(response).__name__}"
            )
        if not callable(getattr(collisions, "touching", None)):
            raise TypeError(
                f"collisions must have a touching() method, got {type(collisions).__name__}"
            )
        self._response = response
        self._collisions = collisions
        self._source: object = None
        self._entities: NDArray[np.int64] = np.empty(0, dtype=np.int64)
        self._rows = PooledRows([])
        self._velocities = PooledRows([])

    def process(self, dt: float, *args: Any, **kwargs: Any) -> None:
        """Advance every controlled body by ``dt`` seconds.

        Raises:
            TypeError: ``dt`` is not a number.
            ValueError: ``dt`` is not finite; an entity has a Platformer but no
                Velocity; a Platformer object is on several entities.
        """
        step = check_number(dt, "dt")
        source = esper.get_components(Platformer, Velocity)
        if source is not self._source:
            self._index(source)
            self._source = source
        if not len(self._entities):
            return
        supports = self._supports()
        ladders = self._ladders()
        rows, velocities = self._rows, self._velocities
        table = rows.read(col.WIDTH)
        speeds = velocities.read()
        col.platformer_step(
            table,
            np.arange(len(table), dtype=np.int64),
            speeds,
            np.arange(len(speeds), dtype=np.int64),
            supports,
            ladders,
            step,
        )
        rows.write(table)
        velocities.write(speeds)

    def _index(self, source: Sequence[tuple[int, tuple[Platformer, Velocity]]]) -> None:
        items = sorted(source, key=itemgetter(0))
        entities = [entity for entity, _ in items]
        controllers = [c[0] for _, c in items]
        seen: dict[int, int] = {}
        for entity, controller in zip(entities, controllers, strict=True):
            other = seen.setdefault(id(controller), entity)
            if other != entity:
                raise ValueError(
                    f"entity {entity}: its Platformer is also entity {other}'s; "
                    "give each character a Platformer of its own"
                )
        known = set(entities)
        missing = [e for e, _ in esper.get_component(Platformer) if e not in known]
        if missing:
            raise ValueError(f"entity {min(missing)}: a Platformer needs a Velocity")
        self._entities = np.array(entities, dtype=np.int64)
        self._rows = PooledRows(controllers)
        self._velocities = PooledRows([c[1] for _, c in items])

    def _supports(self) -> FloatArray:
        """Each body's support row (found, normal, velocity) after the last tick."""
        found = self._response.supports(self._entities)
        out = np.empty((len(self._entities), col.SUPPORT_WIDTH))
        out[:, 0] = found.entity >= 0
        out[:, 1:3] = found.normal
        out[:, 3:5] = found.velocity
        return out

    def _ladders(self) -> BoolArray:
        """Whether each body overlapped a ladder after the last tick."""
        count = len(self._entities)
        ladder_ids = [entity for entity, _ in esper.get_component(Ladder)]
        if not ladder_ids:
            return np.zeros(count, dtype=np.bool_)
        pairs = np.array(self._collisions.touching(), dtype=np.int64).reshape(-1, 2)
        ladder = np.isin(pairs, ladder_ids)
        climbers = np.concatenate((pairs[ladder[:, 1], 0], pairs[ladder[:, 0], 1]))
        return np.isin(self._entities, climbers)

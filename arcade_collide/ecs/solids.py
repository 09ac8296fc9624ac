"""The response components: :class:`Solid` blocks, a :class:`Body` is blocked,
a :class:`Ladder` can be climbed.

They are plain values: the game adds them with the entity's ``Position`` and
``Shape``, and replaces one (``esper.add_component``) to change it. The systems that
act on them read them each tick.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

from arcade_collide.ecs.components import ALL_LAYERS


def _fraction(value: object, name: str, upper: float) -> float:
    """``value`` as a float in ``[0, upper]``, or a clear error naming it."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    number = float(value)
    if not (0.0 <= number <= upper and math.isfinite(number)):
        limit = "a finite number at least 0" if math.isinf(upper) else f"between 0 and {upper}"
        raise ValueError(f"{name} must be {limit}, got {value!r}")
    return number


@dataclass(frozen=True, slots=True)
class Solid:
    """Marks a shape that blocks every :class:`Body` whose ``blocked_by`` mask shares
    a bit with the shape's collision ``layer``: a wall, a floor tile, a crate.

    Attributes:
        one_way: Blocks only from above: a body passes up through it (and sideways
            across it) and lands on its top, as on a platform a player jumps onto from
            below. A one-way solid blocks a body only if the body's lowest point was at
            or above the solid's top at the start of the tick.

    >>> Solid()
    Solid(one_way=False)
    >>> Solid(one_way=True).one_way
    True
    """

    one_way: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.one_way, bool):
            raise TypeError(f"Solid.one_way must be a bool, got {type(self.one_way).__name__}")


@dataclass(frozen=True, slots=True)
class Body:
    """Marks a shape that never ends a tick overlapping a :class:`Solid` it is blocked
    by, and pushes other bodies apart.

    Attributes:
        restitution: The share of the speed into a solid that is kept, reversed, after
            the hit: 0 stops (the body slides along the surface), 1 bounces back at
            full speed.
        friction: Slows the motion along a surface the body presses on: each tick in
            contact, the speed along the surface drops by ``friction`` times the speed
            lost into the surface, Coulomb style, and never reverses. 0 slides freely.
        blocked_by: Collision layers that block it: a Solid (or another Body) whose
            ``layer`` shares a bit with this mask. All layers by default.

    >>> Body()
    Body(restitution=0.0, friction=0.0, blocked_by=4294967295)
    >>> Body(restitution=1.5)
    Traceback (most recent call last):
    ...
    ValueError: Body.restitution must be between 0 and 1.0, got 1.5
    """

    restitution: float = 0.0
    friction: float = 0.0
    blocked_by: int = ALL_LAYERS

    def __post_init__(self) -> None:
        restitution = _fraction(self.restitution, "Body.restitution", 1.0)
        object.__setattr__(self, "restitution", restitution)
        object.__setattr__(self, "friction", _fraction(self.friction, "Body.friction", math.inf))
        mask = self.blocked_by
        if isinstance(mask, bool) or not isinstance(mask, numbers.Integral):
            raise TypeError(f"Body.blocked_by must be an int mask, got {type(mask).__name__}")
        if not 0 <= int(mask) <= ALL_LAYERS:
            raise ValueError(f"Body.blocked_by must fit in 32 bits, got {mask!r}")
        object.__setattr__(self, "blocked_by", int(mask))


@dataclass(frozen=True, slots=True)
class Ladder:
    """Marks a shape a platformer character can climb: while its shape overlaps one,
    gravity does not pull it and it moves up and down as asked.

    A ladder never blocks (give it no :class:`Solid`).

    >>> Ladder()
    Ladder()
    """

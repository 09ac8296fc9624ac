"""Checks of the arguments a game passes to :class:`~arcade_collide.arcade.CollisionWorld`.

Each check raises the ``TypeError`` or ``ValueError`` listed in ``docs/errors.md``,
naming the argument; finiteness of pose and velocity values is left to the ECS
components, whose messages name the field.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any, SupportsFloat

from arcade_collide.ecs import ALL_LAYERS, Shape
from arcade_collide.ecs.platformer import Platformer
from arcade_collide.ecs.solids import Body, Ladder, Solid
from arcade_collide.geometry.pose import to_float
from arcade_collide.geometry.shapes import AnyShape, Point


def require_real(value: object, name: str) -> float:
    """``value`` as a float; ``TypeError`` naming ``name`` unless it is a real number.

    >>> require_real(3, "vx")
    3.0
    >>> require_real(True, "vx")
    Traceback (most recent call last):
    ...
    TypeError: vx must be a real number, got bool
    """
    if type(value) is float:
        return value
    if isinstance(value, (bool, str, bytes)) or not isinstance(value, SupportsFloat):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    return to_float(value, name)


def require_hashable(value: object, name: str) -> None:
    """``TypeError`` naming ``name`` unless ``value`` can be a dict key."""
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"{name} must be hashable, got {type(value).__name__}") from None


def require_callable(**handlers: object) -> None:
    """``TypeError`` for the first handler given (not None) that cannot be called."""
    for name, handler in handlers.items():
        if handler is not None and not callable(handler):
            raise TypeError(f"{name} must be callable, got {type(handler).__name__}")


def require_layer(layer: object, name: str) -> int:
    """``layer`` as an int: a 32-bit mask with a bit set.

    >>> require_layer(0b10, "layer_a")
    2
    >>> require_layer(0, "layer_b")
    Traceback (most recent call last):
    ...
    ValueError: layer_b must be a 32-bit mask in [1, 0xFFFFFFFF], got 0
    """
    if isinstance(layer, bool) or not isinstance(layer, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(layer).__name__}")
    bits = int(layer)
    if not 0 < bits <= ALL_LAYERS:
        raise ValueError(f"{name} must be a 32-bit mask in [1, 0xFFFFFFFF], got {bits!r}")
    return bits


def velocity_pair(velocity: object) -> tuple[float, float]:
    """``velocity`` as ``(vx, vy)``, checked for length and number types.

    >>> velocity_pair([1, 2.5])
    (1.0, 2.5)
    >>> velocity_pair((1, 2, 3))
    Traceback (most recent call last):
    ...
    ValueError: velocity must be (vx, vy), got 3 values
    """
    if isinstance(velocity, (str, bytes)) or not isinstance(velocity, Iterable):
        raise TypeError(f"velocity must be (vx, vy), got {type(velocity).__name__}")
    values = tuple(velocity)
    if len(values) != 2:
        raise ValueError(f"velocity must be (vx, vy), got {len(values)} values")
    return require_real(values[0], "vx"), require_real(values[1], "vy")


STATIC_MOVES = "a static sprite cannot have a velocity or turn rate"


def sprite_options(
    shape: AnyShape | None,
    *,
    velocity: object = None,
    angular: object = 0.0,
    kind: object = None,
    hull: bool = True,
    static: bool = False,
    solid: object = False,
    body: object = None,
    platformer: object = None,
    ladder: object = False,
    **shape_options: Any,
) -> dict[str, Any]:
    """The options of ``add_sprite`` checked: ``velocity`` becomes ``(vx, vy, angular)``
    (None when all three are zero and ``velocity`` was not given); ``solid`` a
    :class:`~arcade_collide.ecs.solids.Solid` or None, ``body`` a
    :class:`~arcade_collide.ecs.solids.Body` or None; ``platformer`` a
    :class:`~arcade_collide.ecs.platformer.Platformer` or None (a platformer is a body
    with a velocity); ``ladder`` a :class:`~arcade_collide.ecs.solids.Ladder` or None
    (a ladder is a sensor).

    >>> sprite_options(None, velocity=(1, 2), kind="rock")["velocity"]
    (1.0, 2.0, 0.0)
    >>> sprite_options(None, layer=0)
    Traceback (most recent call last):
    ...
    ValueError: layer must be a 32-bit mask in [1, 0xFFFFFFFF], got 0
    >>> sprite_options(None, velocity=(1, 0), static=True)
    Traceback (most recent call last):
    ...
    ValueError: a static sprite cannot have a velocity or turn rate
    >>> sprite_options(None, solid=True, body=True)
    Traceback (most recent call last):
    ...
    ValueError: a sprite cannot be both solid and a body: bodies already block each other
    >>> sprite_options(None, platformer=True)["body"]
    Body(restitution=0.0, friction=0.0, blocked_by=4294967295)
    """
    require_hashable(kind, "kind")
    made_platformer = platformer_option(platformer)
    made_ladder = ladder_option(ladder, solid, body, made_platformer)
    if made_platformer is not None:
        if static:
            raise ValueError("a static sprite cannot be a platformer: a platformer moves")
        if body is None or body is False:
            body = True
        if velocity is None:
            velocity = (0.0, 0.0)
    if made_ladder is not None:
        shape_options.setdefault("sensor", True)
    turn = require_real(angular, "angular")
    moves = None
    if velocity is not None or turn != 0.0:
        vx, vy = velocity_pair(velocity) if velocity is not None else (0.0, 0.0)
        moves = (vx, vy, turn)
    if static and moves is not None:
        raise ValueError(STATIC_MOVES)
    if "layer" in shape_options:
        require_layer(shape_options["layer"], "layer")
    if shape is not None or shape_options:
        # Refuses unknown options and bad masks before any sprite is added.
        Shape(shape if shape is not None else Point(), **shape_options)
    return {
        "shape": shape, "velocity": moves, "kind": kind, "hull": bool(hull),
        "static": bool(static), "shape_options": dict(shape_options),
        **response_options(solid, body, bool(static)),
        "platformer": made_platformer, "ladder": made_ladder,
    }


def platformer_option(platformer: object) -> Platformer | None:
    """``add_sprite``'s ``platformer`` (None, False, True or a Platformer) as a
    Platformer or None.

    >>> platformer_option(True).max_jumps
    1
    >>> platformer_option("yes")
    Traceback (most recent call last):
    ...
    TypeError: platformer must be a Platformer, True or None, got str
    """
    if platformer is None or platformer is False:
        return None
    if platformer is True:
        return Platformer()
    if isinstance(platformer, Platformer):
        return platformer
    got = type(platformer).__name__
    raise TypeError(f"platformer must be a Platformer, True or None, got {got}")


def ladder_option(
    ladder: object, solid: object, body: object, platformer: Platformer | None
) -> Ladder | None:
    """``add_sprite``'s ``ladder`` (a bool) as a Ladder or None; a ladder neither
    blocks nor is blocked.

    >>> ladder_option(True, False, None, None)
    Ladder()
    >>> ladder_option(True, True, None, None)
    Traceback (most recent call last):
    ...
    ValueError: a ladder cannot be solid, a body or a platformer: platformers climb it
    """
    if not isinstance(ladder, bool):
        raise TypeError(f"ladder must be a bool, got {type(ladder).__name__}")
    if not ladder:
        return None
    if solid not in (False, None) or body not in (False, None) or platformer is not None:
        raise ValueError("a ladder cannot be solid, a body or a platformer: platformers climb it")
    return Ladder()


def response_options(solid: object, body: object, static: bool) -> dict[str, Any]:
    """``add_sprite``'s ``solid`` (a bool or a Solid) and ``body`` (None, True or a
    Body) as ``{"solid": Solid | None, "body": Body | None}``, checked.

    >>> response_options(True, None, True)
    {'solid': Solid(one_way=False), 'body': None}
    >>> response_options(False, "yes", False)
    Traceback (most recent call last):
    ...
    TypeError: body must be a Body, True or None, got str
    """
    if isinstance(solid, bool):
        made_solid = Solid() if solid else None
    elif isinstance(solid, Solid):
        made_solid = solid
    else:
        raise TypeError(f"solid must be a bool or a Solid, got {type(solid).__name__}")
    if body is None or body is False:
        made_body = None
    elif body is True:
        made_body = Body()
    elif isinstance(body, Body):
        made_body = body
    else:
        raise TypeError(f"body must be a Body, True or None, got {type(body).__name__}")
    if made_solid is not None and made_body is not None:
        raise ValueError(
            "a sprite cannot be both solid and a body: bodies already block each other"
        )
    if static and made_body is not None:
        raise ValueError("a static sprite cannot be a body: a body moves")
    return {"solid": made_solid, "body": made_body}

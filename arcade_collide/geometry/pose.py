"""Poses: where a shape's local frame sits in the world.

A pose is ``(x, y)`` or ``(x, y, angle)``. ``angle`` is in degrees, clockwise,
exactly like :attr:`arcade.Sprite.angle`: the local point ``(10, 0)`` at angle 90
lands at ``(0, -10)`` relative to the pose. Arcade's y axis points up, so a
clockwise turn maps local ``(x, y)`` to ``(x*cos + y*sin, -x*sin + y*cos)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence, Set

import numpy as np

Vec2 = tuple[float, float]
"""A 2D point or vector ``(x, y)``."""

Pose = tuple[float, float] | tuple[float, float, float] | Sequence[float]
"""``(x, y)`` or ``(x, y, angle)`` with ``angle`` in clockwise degrees."""


_NUMPY_VALUES = (np.ndarray, np.generic)
_NUMPY_NUMBER_KINDS = "iuf"
"""numpy dtype kinds that are numbers: signed and unsigned integers, floats."""


def check_number(value: object, name: str) -> float:
    """Return ``value`` as a finite float or raise naming ``name``.

    Args:
        value: The value to check.
        name: The argument name used in the error message.

    Anything with ``__float__`` is a number (``int``, ``Fraction``, ``Decimal``), except
    text and bools. A numpy value is a number when it holds one integer or float: a
    numpy scalar or a 0-d array (numpy itself treats those as scalars, and the value
    is copied out). Arrays of one or more dimensions are refused, even of one element,
    and so are numpy bools, complex numbers, text and dates.

    Args:
        value: The value to check.
        name: The argument name used in the error message.

    Raises:
        TypeError: ``value`` is not a real number (``bool`` is refused too).
        ValueError: ``value`` is NaN or infinite, or too large for a float.

    >>> check_number(3, "radius")
    3.0
    >>> check_number(float("nan"), "radius")
    Traceback (most recent call last):
    ...
    ValueError: radius must be finite, got nan
    >>> check_number(np.array(2.5), "radius")
    2.5
    >>> check_number(np.array([2.5]), "radius")
    Traceback (most recent call last):
    ...
    TypeError: radius must be a real number, got a numpy array of shape (1,)
    """
    if isinstance(value, (bool, str, bytes)) or not hasattr(value, "__float__"):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    if isinstance(value, _NUMPY_VALUES):
        if value.ndim:
            raise TypeError(
                f"{name} must be a real number, got a numpy array of shape {value.shape}"
            )
        if value.dtype.kind not in _NUMPY_NUMBER_KINDS:
            raise TypeError(f"{name} must be a real number, got numpy {value.dtype.name}")
    result = to_float(value, name)
    if not math.isfinite(result):
        raise ValueError(f"{name} must be finite, got {result!r}")
    return result


def to_float(value: object, name: str) -> float:
    """``float(value)`` for a value that has ``__float__``, refusals named by ``name``.

    Raises:
        ValueError: ``value`` is too large for a float (an int or Fraction), or a
            signalling NaN (``Decimal('sNaN')``).

    >>> to_float(10**400, "radius")
    Traceback (most recent call last):
    ...
    ValueError: radius must be finite, got int too large for a float
    """
    try:
        return float(value)  # type: ignore[arg-type]
    except OverflowError:
        raise ValueError(
            f"{name} must be finite, got {type(value).__name__} too large for a float"
        ) from None
    except ValueError:
        raise ValueError(f"{name} must be finite, got {value!r}") from None


def check_vec2(value: object, name: str) -> Vec2:
    """Return ``value`` as a finite ``(x, y)`` tuple or raise naming ``name``.

    >>> check_vec2([1, 2], "a")
    (1.0, 2.0)
    >>> check_vec2((1, 2, 3), "a")
    Traceback (most recent call last):
    ...
    ValueError: a must have exactly 2 coordinates, got 3
    """
    # Sets and mappings have a length but no order: {x, y} would be read in hash order.
    if isinstance(value, (str, bytes, Set, Mapping)) or (
        not isinstance(value, Sequence) and not hasattr(value, "__len__")
    ):
        raise TypeError(f"{name} must be a pair of numbers (x, y), got {type(value).__name__}")
    items = list(value)  # type: ignore[call-overload]
    if len(items) != 2:
        raise ValueError(f"{name} must have exactly 2 coordinates, got {len(items)}")
    return (check_number(items[0], f"{name}[0]"), check_number(items[1], f"{name}[1]"))


def parse_pose(pose: object, name: str = "pose") -> tuple[float, float, float]:
    """Validate a pose and return ``(x, y, angle_degrees)``.

    Args:
        pose: ``(x, y)`` or ``(x, y, angle)``.
        name: The argument name used in error messages.

    Raises:
        TypeError: the pose is not a sequence of numbers.
        ValueError: wrong length, or a NaN/infinite value.

    >>> parse_pose((1, 2))
    (1.0, 2.0, 0.0)
    >>> parse_pose((1, 2, 90))
    (1.0, 2.0, 90.0)
    >>> parse_pose((1,))
    Traceback (most recent call last):
    ...
    ValueError: pose must be (x, y) or (x, y, angle), got 1 values
    >>> parse_pose({"x": 1, "y": 2})
    Traceback (most recent call last):
    ...
    TypeError: pose must be (x, y) or (x, y, angle), got dict
    """
    if isinstance(pose, (str, bytes, Set, Mapping)) or not hasattr(pose, "__len__"):
        raise TypeError(f"{name} must be (x, y) or (x, y, angle), got {type(pose).__name__}")
    items = list(pose)  # type: ignore[call-overload]
    if len(items) not in (2, 3):
        raise ValueError(f"{name} must be (x, y) or (x, y, angle), got {len(items)} values")
    x = check_number(items[0], f"{name} x")
    y = check_number(items[1], f"{name} y")
    angle = check_number(items[2], f"{name} angle") if len(items) == 3 else 0.0
    return (x, y, angle)


def rotation(angle_degrees: float) -> tuple[float, float]:
    """Return ``(cos, sin)`` of a clockwise angle in degrees.

    Multiples of 90 degrees give exact values, so axis-aligned poses stay exact.

    >>> rotation(0)
    (1.0, 0.0)
    >>> rotation(90)
    (0.0, 1.0)
    >>> rotation(-180)
    (-1.0, 0.0)
    """
    quarter, rest = divmod(angle_degrees, 90.0)
    if rest == 0.0:
        return ((1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0))[int(quarter) % 4]
    radians = math.radians(angle_degrees)
    return (math.cos(radians), math.sin(radians))


def to_world(local: Vec2, x: float, y: float, cos: float, sin: float) -> Vec2:
    """Map a local offset to world space for a pose given as position plus ``rotation()``.

    >>> to_world((10.0, 0.0), 0.0, 0.0, *rotation(90))
    (0.0, -10.0)
    """
    lx, ly = local
    return (x + lx * cos + ly * sin, y - lx * sin + ly * cos)

"""Circle against circle: centre distance against the sum of the radii.

The boolean compares squared distances (no square root). The contact is
symmetric bit for bit: swapping the circles negates ``b - a`` exactly and every
other operation commutes, so ``contact(a, b) == contact(b, a).flipped()``.
Coincident centres have no direction; the normal is then ``(1.0, 0.0)`` when
``r_a <= r_b`` and ``(-1.0, 0.0)`` otherwise, which keeps the symmetry for
circles of different radii (two identical circles at one place get
``(1.0, 0.0)`` both ways).
"""

from __future__ import annotations

import math

import numpy as np

from arcade_collide.geometry.arrays import BatchContacts, BoolArray, CircleArrays, take
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.query._convex import TINY_SQUARED, scatter, touching_rows
from arcade_collide.geometry.shapes import Circle

_UP = 2.0**600
"""Exact power-of-two scale for such offsets, so their direction stays accurate."""


def intersects_circle_circle(
    a: Circle, pose_a: tuple[float, float, float], b: Circle, pose_b: tuple[float, float, float]
) -> bool:
    """True when the circles touch or overlap: ``|c_b - c_a|^2 <= (r_a + r_b)^2``.

    Args:
        a: Circle A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Circle B.
        pose_b: Validated pose of B.

    Returns:
        Whether the closed discs share a point.

    >>> intersects_circle_circle(Circle(1), (0, 0, 0), Circle(1), (1.5, 0, 0))
    True
    >>> intersects_circle_circle(Circle(1), (0, 0, 0), Circle(1), (3, 0, 0))
    False
    >>> intersects_circle_circle(Circle(1), (0, 0, 0), Circle(2), (3, 0, 0))  # touching
    True
    """
    dx = pose_b[0] - pose_a[0]
    dy = pose_b[1] - pose_a[1]
    rs = a.radius + b.radius
    return dx * dx + dy * dy <= rs * rs


def _contact(ax: float, ay: float, ra: float, bx: float, by: float, rb: float) -> Contact | None:
    dx = bx - ax
    dy = by - ay
    d2 = dx * dx + dy * dy
    rs = ra + rb
    if d2 > rs * rs:
        return None
    d = math.sqrt(d2)
    if d2 >= TINY_SQUARED:
        nx = dx / d
        ny = dy / d
    elif dx != 0.0 or dy != 0.0:
        # The squared distance underflowed or lost bits: scale by an exact power of two first.
        sx = dx * _UP
        sy = dy * _UP
        ds = math.sqrt(sx * sx + sy * sy)
        nx = sx / ds
        ny = sy / ds
    else:
        nx, ny = (1.0 if ra <= rb else -1.0), 0.0
    # Midway between A's deepest point (a + n*ra) and B's (b - n*rb).
    point = ((ax + nx * ra + (bx - nx * rb)) * 0.5, (ay + ny * ra + (by - ny * rb)) * 0.5)
    return Contact((nx, ny), max(rs - d, 0.0), point)


def contact_circle_circle(
    a: Circle, pose_a: tuple[float, float, float], b: Circle, pose_b: tuple[float, float, float]
) -> Contact | None:
    """Contact of two circles, or None when they are apart.

    ``normal`` points from A's centre to B's, ``depth = r_a + r_b - distance``,
    ``point`` is midway between A's deepest point ``c_a + normal*r_a`` and B's
    ``c_b - normal*r_b``.

    Args:
        a: Circle A.
        pose_a: Validated ``(x, y, angle)`` of A.
        b: Circle B.
        pose_b: Validated pose of B.

    Returns:
        The contact, or None when the circles do not touch.

    >>> contact_circle_circle(Circle(1), (0, 0, 0), Circle(1), (1.5, 0, 0))
    Contact(normal=(1.0, 0.0), depth=0.5, point=(0.75, 0.0))
    >>> contact_circle_circle(Circle(1), (0, 0, 0), Circle(1), (0, 3, 0)) is None
    True
    >>> contact_circle_circle(Circle(1), (0, 0, 0), Circle(1), (0, 2, 0))  # touching
    Contact(normal=(0.0, 1.0), depth=0.0, point=(0.0, 1.0))
    """
    return _contact(pose_a[0], pose_a[1], a.radius, pose_b[0], pose_b[1], b.radius)


def intersects_circle_circle_batch(a: CircleArrays, b: CircleArrays) -> BoolArray:
    """Vectorised :func:`intersects_circle_circle` over ``M`` rows.

    Args:
        a: ``M`` world-space circles (side A).
        b: ``M`` world-space circles (side B).

    Returns:
        ``(M,)`` booleans, equal to the scalar form row by row.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a = pack([Circle(1)] * 3, [(0, 0)] * 3)
    >>> b = pack([Circle(1), Circle(1), Circle(2)], [(1.5, 0), (3, 0), (3, 0)])
    >>> intersects_circle_circle_batch(a, b).tolist()  # hit, miss, touching
    [True, False, True]
    """
    dx = b.center[:, 0] - a.center[:, 0]
    dy = b.center[:, 1] - a.center[:, 1]
    rs = a.radius + b.radius
    result: BoolArray = dx * dx + dy * dy <= rs * rs
    return result


def contact_circle_circle_batch(a: CircleArrays, b: CircleArrays) -> BatchContacts:
    """Vectorised :func:`contact_circle_circle` over ``M`` rows (bitwise equal to it).

    Args:
        a: ``M`` world-space circles (side A).
        b: ``M`` world-space circles (side B).

    Returns:
        The contacts; rows that do not touch hold zeros.

    >>> from arcade_collide.geometry.arrays import pack
    >>> a = pack([Circle(1)] * 3, [(0, 0)] * 3)
    >>> b = pack([Circle(1), Circle(1), Circle(2)], [(1.5, 0), (3, 0), (3, 0)])
    >>> r = contact_circle_circle_batch(a, b)
    >>> r.hit.tolist(), r.depth.tolist()  # hit, miss, touching
    ([True, False, True], [0.5, 0.0, 0.0])
    """
    # Only the touching rows get a direction and a point (scattered into zeros).
    hit = intersects_circle_circle_batch(a, b)
    rows = touching_rows(hit)
    if rows is not None:
        a = take(a, rows)
        b = take(b, rows)
    ax = a.center[:, 0]
    ay = a.center[:, 1]
    bx = b.center[:, 0]
    by = b.center[:, 1]
    ra = a.radius
    rb = b.radius
    dx = bx - ax
    dy = by - ay
    d2 = dx * dx
    d2 += dy * dy
    rs = ra + rb
    d = np.sqrt(d2)
    close = d2 < TINY_SQUARED
    some_close = bool(close.any())
    d_safe = np.where(close, 1.0, d) if some_close else d
    nx = dx / d_safe
    ny = dy / d_safe
    if some_close:
        tiny = close & ((dx != 0.0) | (dy != 0.0))
        nx[close] = np.where(ra[close] <= rb[close], 1.0, -1.0)
        ny[close] = 0.0
        if tiny.any():
            sx = dx[tiny] * _UP
            sy = dy[tiny] * _UP
            ds = np.sqrt(sx * sx + sy * sy)
            nx[tiny] = sx / ds
            ny[tiny] = sy / ds
    depth = rs - d
    np.maximum(depth, 0.0, out=depth)
    return scatter(
        hit,
        rows,
        nx,
        ny,
        depth,
        (ax + nx * ra + (bx - nx * rb)) * 0.5,
        (ay + ny * ra + (by - ny * rb)) * 0.5,
    )

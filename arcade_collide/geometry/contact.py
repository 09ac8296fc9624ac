"""The result of a contact query."""

from __future__ import annotations

from typing import NamedTuple

from arcade_collide.geometry.pose import Vec2


class Contact(NamedTuple):
    """How two touching or overlapping shapes meet.

    Sign conventions: ``normal`` is a unit vector pointing from shape A towards
    shape B. Translating B by ``normal * depth`` separates the shapes: in exact
    arithmetic they are left touching; in floats the translation rounds, so they may
    end a rounding step apart and no longer count as touching. ``depth`` is ``0.0``
    for shapes that only touch.

    >>> c = Contact(normal=(1.0, 0.0), depth=0.5, point=(2.0, 3.0))
    >>> c.flipped()
    Contact(normal=(-1.0, -0.0), depth=0.5, point=(2.0, 3.0))
    """

    normal: Vec2
    """Unit vector from A towards B (world space)."""
    depth: float
    """Penetration depth along ``normal``, >= 0."""
    point: Vec2
    """A world-space point midway between the two surfaces along ``normal``."""

    def flipped(self) -> Contact:
        """The same contact seen from B: the normal reversed, depth and point kept."""
        nx, ny = self.normal
        return Contact((-nx, -ny), self.depth, self.point)

"""What ray casts and shape casts return: one hit, or a batch of them.

Conventions, for every shape kind:

* Shapes are closed sets: a ray that touches a vertex or runs along an edge hits, and
  a cast that ends with the shapes touching hits.
* A ray is ``origin + distance * unit(direction)``; a hit's ``normal`` is the unit
  outward normal of the surface hit, so it points back against the ray
  (``normal . direction <= 0``). A ray whose origin is inside or on the shape hits at
  distance 0, at its origin, and its normal is the reversed unit direction. A point
  shape is hit only by a ray that passes exactly through it; its normal is the
  reversed unit direction too.
* A cast moves shape A by ``fraction * translation`` (no rotation) towards shape B,
  which stays. Its ``normal`` is the unit outward normal of B's surface at the first
  touch, pointing from B towards A (against the motion); ``point`` is where they touch.
  Shapes already touching or overlapping hit at fraction 0; the normal is then the
  reversed contact normal (:func:`~arcade_collide.geometry.query.dispatch.contact`
  of A and B, which points from A to B) and the point the contact point.
"""

from __future__ import annotations

from typing import NamedTuple

from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.pose import Vec2


class RayHit(NamedTuple):
    """Where a ray first meets a shape (see the module docstring for the conventions).

    >>> RayHit(2.0, (1.0, 0.0), (-1.0, 0.0)).distance
    2.0
    """

    distance: float
    """World units along the ray from its origin to the hit, >= 0."""
    point: Vec2
    """The world point hit: the origin plus ``distance`` times the unit direction."""
    normal: Vec2
    """Unit outward normal of the surface hit, pointing back against the ray; the
    reversed unit direction when the ray starts inside or on the shape, or hits a point."""


class CastHit(NamedTuple):
    """When and where a moving shape A first touches a shape B (see the module docstring).

    >>> CastHit(0.5, (1.0, 0.0), (-1.0, 0.0)).fraction
    0.5
    """

    fraction: float
    """Part of the translation travelled at the first touch, in ``[0, 1]``."""
    point: Vec2
    """A world point where the two shapes touch, A at the fraction."""
    normal: Vec2
    """Unit normal from B towards A at the touch: B's outward surface normal there
    (the reversed contact normal when they touch at the start)."""


class BatchRayHits(NamedTuple):
    """``M`` ray casts at once: row ``i`` holds :class:`RayHit`'s fields, zeros where
    ``hit[i]`` is False.

    >>> from arcade_collide import Circle, pack, ray_cast_batch
    >>> hits = ray_cast_batch(pack([Circle(1)] * 2, [(5, 0), (5, 3)]), [(0, 0)] * 2, [(1, 0)] * 2)
    >>> hits.hit.tolist(), hits.distance.tolist(), hits.normal.tolist()  # a hit and a miss
    ([True, False], [4.0, 0.0], [[-1.0, 0.0], [0.0, 0.0]])
    """

    hit: BoolArray
    """``(M,)`` whether ray ``i`` hits."""
    distance: FloatArray
    """``(M,)`` distances along the rays."""
    point: FloatArray
    """``(M, 2)`` points hit."""
    normal: FloatArray
    """``(M, 2)`` unit normals."""


class BatchCastHits(NamedTuple):
    """``M`` shape casts at once: row ``i`` holds :class:`CastHit`'s fields, zeros where
    ``hit[i]`` is False.

    >>> from arcade_collide import Circle, pack, shape_cast_batch
    >>> moving = pack([Circle(1)] * 2, [(0, 0), (0, 5)])
    >>> hits = shape_cast_batch(moving, [(10, 0)] * 2, pack([Circle(1)] * 2, [(6, 0)] * 2))
    >>> hits.hit.tolist(), hits.fraction.tolist(), hits.point.tolist()  # a hit and a miss
    ([True, False], [0.4, 0.0], [[5.0, 0.0], [0.0, 0.0]])
    """

    hit: BoolArray
    """``(M,)`` whether cast ``i`` hits."""
    fraction: FloatArray
    """``(M,)`` fractions of the translations."""
    point: FloatArray
    """``(M, 2)`` touching points."""
    normal: FloatArray
    """``(M, 2)`` unit normals from B towards A."""

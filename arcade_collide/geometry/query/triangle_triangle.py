"""Triangle against triangle: separating-axis test over the six edge normals.

Exact whatever the windings, containment included (RTCD 5.2.1).
``contact(a, b) == contact(b, a).flipped()`` holds bit for bit: without a tie
the two orders compute the same numbers, and a contact decided by a tie (equal
depths on two axes, or equal overlap on both sides) is evaluated with the
shapes in a canonical order (smaller world-vertex key first) and flipped back.
Only triangles that coincide exactly break it (no direction tells A from B).

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Triangle
>>> a, b = Triangle((0, 0), (2, 0), (0, 2)), Triangle((0, 0), (-2, 0), (0, 2))
>>> poses = [(0.5, 0), (-5, 5), (0, 0)]  # hit, miss, touching
>>> [intersects(a, (0, 0), b, p) for p in poses]
[True, False, True]
>>> [contact(a, (0, 0), b, p) for p in poses]  # doctest: +NORMALIZE_WHITESPACE
[Contact(normal=(-1.0, 0.0), depth=0.5, point=(0.25, 1.0)), None,
 Contact(normal=(-1.0, -0.0), depth=0.0, point=(0.0, 1.0))]

This module never imports esper or arcade.
"""

from __future__ import annotations

from arcade_collide.geometry.query.convex import convex_pair, triangle_outline

intersects_triangle_triangle, contact_triangle_triangle = convex_pair(
    "triangle_triangle", triangle_outline, triangle_outline, canonical=True
)

"""Circle against convex polygon: closest point of the polygon to the circle centre.

The circle hits when its centre is inside the polygon or within ``r`` of an
edge (RTCD 5.2.8). See
:func:`~arcade_collide.geometry.query.circle_outline.circle_outline_contact` for the
contact rule (a centre inside leaves through the nearest edge, the earlier
edge on ties).

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Circle, Polygon
>>> a, b = Circle(1), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
>>> centres = [(2.5, 1), (5, 5), (3, 1)]  # hit, miss, touching
>>> [intersects(a, c, b, (0, 0)) for c in centres]
[True, False, True]
>>> [contact(a, c, b, (0, 0)) for c in centres]  # doctest: +NORMALIZE_WHITESPACE
[Contact(normal=(-1.0, 0.0), depth=0.5, point=(1.75, 1.0)), None,
 Contact(normal=(-1.0, 0.0), depth=0.0, point=(2.0, 1.0))]

This module never imports esper or arcade.
"""

from __future__ import annotations

from arcade_collide.geometry.query.convex import circle_convex_pair, never, polygon_outline

intersects_circle_polygon, contact_circle_polygon = circle_convex_pair(
    "circle_polygon", polygon_outline, never
)

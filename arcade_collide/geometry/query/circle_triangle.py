"""Circle against triangle: closest point of the triangle to the circle centre.

The triangle is put in counter-clockwise order and handled as a convex
outline (RTCD 5.1.5, 5.2.8): the circle hits when its centre is inside the
triangle or within ``r`` of an edge. See
:func:`~arcade_collide.geometry.query.circle_outline.circle_outline_contact` for the
contact rule (a centre inside leaves through the nearest edge, the earlier
edge on ties).

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Circle, Triangle
>>> centres = [(2, -0.5), (5, 5), (2, -1)]  # hit, miss, touching
>>> a, b = Circle(1), Triangle((0, 0), (4, 0), (0, 4))
>>> for c in centres: print(intersects(a, c, b, (0, 0)), contact(a, c, b, (0, 0)))
True Contact(normal=(0.0, 1.0), depth=0.5, point=(2.0, 0.25))
False None
True Contact(normal=(0.0, 1.0), depth=0.0, point=(2.0, 0.0))
"""

from __future__ import annotations

from arcade_collide.geometry.query.convex import circle_convex_pair

intersects_circle_triangle, contact_circle_triangle = circle_convex_pair("triangle")

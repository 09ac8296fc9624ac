"""Circle against convex polygon: closest point of the polygon to the circle centre.

The polygon is a convex outline, counter-clockwise: the circle hits when its
centre is inside or within ``r`` of an edge (RTCD 5.2.8); the contact rule is
:func:`~arcade_collide.geometry.query.circle_outline.circle_outline_contact`'s.

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Circle, Polygon
>>> centres = [(2.5, 1), (5, 5), (3, 1)]  # hit, miss, touching
>>> a, b = Circle(1), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
>>> for c in centres: print(intersects(a, c, b, (0, 0)), contact(a, c, b, (0, 0)))
True Contact(normal=(-1.0, 0.0), depth=0.5, point=(1.75, 1.0))
False None
True Contact(normal=(-1.0, 0.0), depth=0.0, point=(2.0, 1.0))
"""

from __future__ import annotations

from arcade_collide.geometry.query.convex import circle_convex_pair

intersects_circle_polygon, contact_circle_polygon = circle_convex_pair("polygon")

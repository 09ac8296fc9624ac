"""Convex polygon against convex polygon: separating-axis test.

Testing every edge pair for a crossing (the parametric segment test) misses a
polygon lying wholly inside the other; SAT over the edge normals of both is
exact for convex polygons, containment included (RTCD 5.2.1).

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Polygon
>>> poses = [(1, 1), (5, 5), (2, 0)]  # hit, miss, touching
>>> a = b = Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
>>> for p in poses: print(intersects(a, (0, 0), b, p), contact(a, (0, 0), b, p))
True Contact(normal=(0.0, 1.0), depth=1.0, point=(1.5, 1.5))
False None
True Contact(normal=(1.0, 0.0), depth=0.0, point=(2.0, 1.0))
"""

from __future__ import annotations

from arcade_collide.geometry.query.convex import convex_pair

intersects_polygon_polygon, contact_polygon_polygon = convex_pair("polygon", "polygon")

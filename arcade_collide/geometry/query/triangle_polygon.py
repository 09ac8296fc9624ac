"""Triangle against convex polygon: separating-axis test over both outlines' edge normals.

Exact for convex shapes, containment included (RTCD 5.2.1).

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Polygon, Triangle
>>> poses = [(-0.5, 0.5), (5, 5), (-1, 0.5)]  # hit, miss, touching
>>> a, b = Triangle((0, 0), (2, 0), (0, 2)), Polygon([(0, 0), (1, 0), (1, 1), (0, 1)])
>>> for p in poses: print(intersects(a, (0, 0), b, p), contact(a, (0, 0), b, p))
True Contact(normal=(-1.0, 0.0), depth=0.5, point=(0.25, 1.0))
False None
True Contact(normal=(-1.0, 0.0), depth=0.0, point=(0.0, 1.0))
"""

from __future__ import annotations

from arcade_collide.geometry.query.convex import convex_pair

intersects_triangle_polygon, contact_triangle_polygon = convex_pair("triangle", "polygon")

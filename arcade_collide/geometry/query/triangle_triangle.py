"""Triangle against triangle: separating-axis test over the six edge normals.

Exact whatever the windings, containment included (RTCD 5.2.1).

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Triangle
>>> poses = [(0.5, 0), (-5, 5), (0, 0)]  # hit, miss, touching
>>> a, b = Triangle((0, 0), (2, 0), (0, 2)), Triangle((0, 0), (-2, 0), (0, 2))
>>> for p in poses: print(intersects(a, (0, 0), b, p), contact(a, (0, 0), b, p))
True Contact(normal=(-1.0, 0.0), depth=0.5, point=(0.25, 1.0))
False None
True Contact(normal=(-1.0, -0.0), depth=0.0, point=(0.0, 1.0))
"""

from __future__ import annotations

from arcade_collide.geometry.query.convex import convex_pair

intersects_triangle_triangle, contact_triangle_triangle = convex_pair("triangle", "triangle")

"""Rectangle against triangle: separating-axis test over both outlines' edge normals.

Both shapes are convex outlines (rectangle corners, triangle vertices in any
winding: SAT does not need the winding), so SAT is exact and catches one shape
lying wholly inside the other (RTCD 5.2.1).

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Rect, Triangle
>>> poses = [(0.5, -1), (5, 5), (1, 0)]  # hit, miss, touching
>>> a, b = Rect(2, 2), Triangle((0, 0), (2, 0), (0, 2))
>>> for p in poses: print(intersects(a, (0, 0), b, p), contact(a, (0, 0), b, p))
True Contact(normal=(1.0, 0.0), depth=0.5, point=(0.75, 0.0))
False None
True Contact(normal=(1.0, 0.0), depth=0.0, point=(1.0, 0.5))
"""

from __future__ import annotations

from arcade_collide.geometry.query.convex import convex_pair

intersects_rect_triangle, contact_rect_triangle = convex_pair("rect", "triangle")

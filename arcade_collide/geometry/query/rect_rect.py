"""Rectangle against rectangle (both rotated): separating-axis test.

Each rectangle is reduced to its four world corners, a convex outline, as
Box2D reduces a box to a polygon; SAT over the edge normals of both is exact
(RTCD 4.4.1 for oriented boxes, 5.2.1). A rectangle's opposite edges are
parallel, so two axes per rectangle suffice (edges 0 and 1 of its corners).

>>> from arcade_collide.geometry.query.dispatch import contact, intersects
>>> from arcade_collide.geometry.shapes import Rect
>>> poses = [(1.5, 0), (3, 0.5), (2, 1)]  # hit, miss, touching
>>> a, b = Rect(2, 2), Rect(2, 2)
>>> for p in poses: print(intersects(a, (0, 0), b, p), contact(a, (0, 0), b, p))
True Contact(normal=(1.0, 0.0), depth=0.5, point=(0.75, 0.0))
False None
True Contact(normal=(1.0, 0.0), depth=0.0, point=(1.0, 0.5))
"""

from __future__ import annotations

from arcade_collide.geometry.query.convex import convex_pair

intersects_rect_rect, contact_rect_rect = convex_pair("rect", "rect")

"""Circle against convex polygon: closest point of the polygon to the circle centre.

The circle hits when its centre is inside the polygon or within ``r`` of an
edge (RTCD 5.2.8). See
:func:`~arcade_collide.geometry.query.circle_outline.circle_outline_contact` for the
contact rule (a centre inside leaves through the nearest edge, the earlier
edge on ties).

This module never imports esper or arcade.
"""

from __future__ import annotations

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.circle_outline import (
    circle_outline_contact,
    circle_outline_intersects,
)
from arcade_collide.geometry.query.kernel_base import (
    CONTACT,
    INTERSECTS,
    WorldRows,
)


@kernel(INTERSECTS, inline=True)
def intersects_circle_polygon(rows: WorldRows, a: int, b: int) -> bool:
    """True when circle A and polygon B touch or overlap (closed sets).

    Args:
        rows: The shapes in world space.
        a: Row of the circle (A) in the circle arrays of ``rows``.
        b: Row of the polygon (B) in the polygon arrays of ``rows``.

    Returns:
        Whether the closed shapes share a point.

    >>> from arcade_collide.geometry.query.dispatch import intersects
    >>> from arcade_collide.geometry.shapes import Circle, Polygon
    >>> a, b = Circle(1), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> intersects(a, (2.5, 1, 0), b, (0, 0, 0))
    True
    >>> intersects(a, (5, 5, 0), b, (0, 0, 0))
    False
    >>> intersects(a, (3, 1, 0), b, (0, 0, 0))  # touching
    True
    """
    return circle_outline_intersects(
        rows.circle_center[a, 0],
        rows.circle_center[a, 1],
        rows.circle_radius[a],
        rows.polygon_vertices[b],
        rows.polygon_nverts[b],
        False,
    )


@kernel(CONTACT, inline=True)
def contact_circle_polygon(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """Contact of circle A with polygon B, normal from A to B, or None.

    Args:
        rows: The shapes in world space.
        a: Row of the circle (A) in the circle arrays of ``rows``.
        b: Row of the polygon (B) in the polygon arrays of ``rows``.
        out: Output row ``(nx, ny, depth, px, py)``, the normal from A to B.

    Returns:
        False (``out`` untouched) when the shapes do not touch.

    >>> from arcade_collide.geometry.query.dispatch import contact
    >>> from arcade_collide.geometry.shapes import Circle, Polygon
    >>> a, b = Circle(1), Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])
    >>> contact(a, (2.5, 1, 0), b, (0, 0, 0))
    Contact(normal=(-1.0, 0.0), depth=0.5, point=(1.75, 1.0))
    >>> contact(a, (5, 5, 0), b, (0, 0, 0)) is None
    True
    >>> contact(a, (3, 1, 0), b, (0, 0, 0))  # touching
    Contact(normal=(-1.0, 0.0), depth=0.0, point=(2.0, 1.0))
    """
    return circle_outline_contact(
        rows.circle_center[a, 0],
        rows.circle_center[a, 1],
        rows.circle_radius[a],
        rows.polygon_vertices[b],
        rows.polygon_nverts[b],
        False,
        out,
    )

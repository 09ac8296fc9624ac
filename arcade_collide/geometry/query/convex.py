"""Rectangles, triangles and polygons as convex outlines, and the pair kernels built on them.

A rectangle, triangle or polygon row reduces to a convex outline ``(v, n, axes)``:
its world vertices, their number and how many leading edges give distinct SAT axes
(:mod:`.sat`), as Box2D reduces a box to a polygon. The six pairs of these kinds
share one SAT body, and circle-triangle and circle-polygon one circle-outline body
(:mod:`.circle_outline`). A pair module binds its outlines into a copy of the body
(:func:`~arcade_collide.geometry.compiled.bind`), so its kernels
``intersects_<a>_<b>`` and ``contact_<a>_<b>`` are compiled as if written out for
it, and inlined into the dispatch chains like any pair kernel.

The same-kind pairs (rectangle, triangle and polygon against their own kind) settle
ties in a canonical order, so ``contact(a, b) == contact(b, a).flipped()`` holds bit
for bit unless the two outlines coincide (:func:`.sat.sat_contact`).
"""

from __future__ import annotations

from typing import Any

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import bind, kernel
from arcade_collide.geometry.query.circle_outline import (
    circle_outline_contact,
    circle_outline_intersects,
    clockwise,
)
from arcade_collide.geometry.query.kernel_base import CONTACT, INTERSECTS, ROWS, WorldRows, types
from arcade_collide.geometry.query.sat import sat_contact, sat_intersects

OUTLINE: Any = types.Tuple((types.float64[:, ::1], types.int64, types.int64))(ROWS, types.int64)
"""Signature of an outline getter: row ``r`` of its kind as ``(v, n, axes)``."""


@kernel(OUTLINE, inline=True)
def rect_outline(rows: WorldRows, r: int) -> tuple[FloatArray, int, int]:
    """Rectangle ``r``'s four world corners; opposite edges are parallel, so two axes."""
    return rows.rect_vertices[r], 4, 2


@kernel(OUTLINE, inline=True)
def triangle_outline(rows: WorldRows, r: int) -> tuple[FloatArray, int, int]:
    """Triangle ``r``'s three world vertices (either winding), three axes."""
    return rows.triangle_vertices[r], 3, 3


@kernel(OUTLINE, inline=True)
def polygon_outline(rows: WorldRows, r: int) -> tuple[FloatArray, int, int]:
    """Polygon ``r``'s world vertices (the first ``nverts``), one axis per edge."""
    n = rows.polygon_nverts[r]
    return rows.polygon_vertices[r], n, n


@kernel("boolean(float64[:, ::1])", inline=True)
def never(v: FloatArray) -> bool:
    """False: a polygon is stored counter-clockwise, so its outline is never swapped."""
    return False


OUTLINE_A: Any = None
OUTLINE_B: Any = None
CANONICAL = False
CLOCKWISE: Any = None
"""What a copy of the bodies below reads: the outline getters of A and B, whether a
tie is settled in canonical order (same-kind pairs, see :func:`.sat.sat_contact`) and
the winding test of B's outline, bound by :func:`convex_pair` and
:func:`circle_convex_pair` (unbound here)."""


def _intersects(rows: WorldRows, a: int, b: int) -> bool:
    """SAT test of outline A with outline B (:func:`.sat.sat_intersects`)."""
    return sat_intersects(OUTLINE_A(rows, a), OUTLINE_B(rows, b))


def _contact(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """SAT contact of outline A with outline B into ``out`` (:func:`.sat.sat_contact`)."""
    return sat_contact(OUTLINE_A(rows, a), OUTLINE_B(rows, b), CANONICAL, out)


def _circle_intersects(rows: WorldRows, a: int, b: int) -> bool:
    """Circle A against outline B (:func:`.circle_outline.circle_outline_intersects`)."""
    v, n, _ = OUTLINE_B(rows, b)
    center = rows.circle_center[a]
    return circle_outline_intersects(
        center[0], center[1], rows.circle_radius[a], v, n, CLOCKWISE(v)
    )


def _circle_contact(rows: WorldRows, a: int, b: int, out: FloatArray) -> bool:
    """Contact of circle A with outline B into ``out``
    (:func:`.circle_outline.circle_outline_contact`)."""
    v, n, _ = OUTLINE_B(rows, b)
    center = rows.circle_center[a]
    return circle_outline_contact(
        center[0], center[1], rows.circle_radius[a], v, n, CLOCKWISE(v), out
    )


OUTLINES: dict[str, Any] = {
    "rect": rect_outline,
    "triangle": triangle_outline,
    "polygon": polygon_outline,
}
"""The outline getter of each outline kind."""
CLOCKWISE_TESTS: dict[str, Any] = {"triangle": clockwise, "polygon": never}
"""The winding test of the outline kinds a circle meets through :mod:`.circle_outline`
(the circle-rectangle pair has its own kernels)."""


def convex_pair(kind_a: str, kind_b: str) -> tuple[Any, Any]:
    """The kernels ``(intersects_<a>_<b>, contact_<a>_<b>)`` of two outline kinds; a tie
    is settled in canonical order when the kinds are the same (see :func:`.sat.sat_contact`).
    """
    name = f"{kind_a}_{kind_b}"
    outlines = {"OUTLINE_A": OUTLINES[kind_a], "OUTLINE_B": OUTLINES[kind_b]}
    return (
        bind(_intersects, f"intersects_{name}", INTERSECTS, **outlines),
        bind(_contact, f"contact_{name}", CONTACT, **outlines, CANONICAL=kind_a == kind_b),
    )


def circle_convex_pair(kind_b: str) -> tuple[Any, Any]:
    """The kernels ``(intersects_circle_<b>, contact_circle_<b>)`` of a circle against an
    outline kind."""
    names = {"OUTLINE_B": OUTLINES[kind_b], "CLOCKWISE": CLOCKWISE_TESTS[kind_b]}
    return (
        bind(_circle_intersects, f"intersects_circle_{kind_b}", INTERSECTS, **names),
        bind(_circle_contact, f"contact_circle_{kind_b}", CONTACT, **names),
    )

"""Pose-centred inner and outer circles: a cheap verdict for most candidate pairs.

Every shape has two circles centred on its pose origin: the *outer* circle, the
smallest such circle containing the shape (``bounding_radius``), and the *inner*
circle, the largest such disc inside the shape. Two shapes whose outer circles are
apart cannot touch; two shapes whose inner discs overlap must touch; only the rest
need the exact test.

Radii are shrunk (inner) or grown (outer) by :data:`RELATIVE_MARGIN`, and the caller
passes an absolute ``slack`` (:func:`coordinate_slack`): a pair within that margin of
either boundary is left to the exact test, so these verdicts never contradict it.
"""

from __future__ import annotations

import math

import numpy as np

from arcade_collide.geometry.arrays import FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.shapes import AnyShape, Circle, Point

RELATIVE_MARGIN = 1e-9
"""Inner radii are stored ``1 - RELATIVE_MARGIN`` times their size, outer radii
``1 + RELATIVE_MARGIN`` times: far above the rounding of the radii and of squared
distances (a few units of 1e-16), far below anything a game can see."""

COORDINATE_MARGIN = 1e-12
""":func:`coordinate_slack` per unit of the largest coordinate: thousands of times the
rounding (about 2.2e-16 relative) of the exact tests' world coordinates."""

NO_INNER_DISC = -math.inf
"""Inner radius of a shape whose pose origin lies outside it (no disc fits)."""


def pose_circles(shape: AnyShape) -> tuple[float, float]:
    """``(inner, outer)`` radii of the pose-centred circles of ``shape``, with margins.

    ``inner`` is the radius of the largest disc centred on the pose that lies inside
    the shape (0 for a point, :data:`NO_INNER_DISC` when the pose origin is outside
    the shape), shrunk by :data:`RELATIVE_MARGIN`; ``outer`` is ``bounding_radius``
    grown by it.

    >>> from arcade_collide.geometry.shapes import Rect, Triangle
    >>> inner, outer = pose_circles(Rect(6, 8))
    >>> round(inner, 6), round(outer, 6)
    (3.0, 5.0)
    >>> pose_circles(Triangle((1, 1), (2, 1), (1, 2)))[0]  # origin outside
    -inf
    """
    if isinstance(shape, Point):
        return 0.0, 0.0
    if isinstance(shape, Circle):
        inner, outer = circle_pose_circles(np.array([shape.radius]))
    else:
        inner, outer = convex_pose_circles(np.array([shape.local_vertices()], dtype=np.float64))
    return float(inner[0]), float(outer[0])


def circle_pose_circles(radius: FloatArray) -> tuple[FloatArray, FloatArray]:
    """:func:`pose_circles` for ``(M,)`` circle radii.

    >>> inner, outer = circle_pose_circles(np.array([2.0]))
    >>> bool(inner[0] < 2.0 < outer[0])
    True
    """
    return radius * (1.0 - RELATIVE_MARGIN), radius * (1.0 + RELATIVE_MARGIN)


def convex_pose_circles(vertices: FloatArray) -> tuple[FloatArray, FloatArray]:
    """:func:`pose_circles` for ``(M, K, 2)`` local outlines of convex shapes.

    Rows may be padded by repeating their last vertex (as polygon records are);
    the zero-length edges this creates are ignored. Either winding works.

    >>> inner, outer = convex_pose_circles(np.array([[[-1.0, -1], [3, -1], [3, 3], [-1, 3]]]))
    >>> inner.round(6).tolist(), outer.round(6).tolist()
    ([1.0], [4.242641])
    """
    x = vertices[:, :, 0]
    y = vertices[:, :, 1]
    ex = np.roll(x, -1, axis=1) - x
    ey = np.roll(y, -1, axis=1) - y
    area2 = (x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1)
    sign = np.where(area2 > 0.0, 1.0, -1.0)[:, None]
    length = np.hypot(ex, ey)
    real = length > 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        distance = sign * (ex * -y - ey * -x) / length
    inner = np.where(real, distance, np.inf).min(axis=1)
    outer = np.hypot(x, y).max(axis=1) * (1.0 + RELATIVE_MARGIN)
    inner = np.where(inner < 0.0, NO_INNER_DISC, inner * (1.0 - RELATIVE_MARGIN))
    return inner, outer


def coordinate_slack(reach: float) -> float:
    """Absolute slack for :func:`pose_circle_verdict` in a world whose coordinates reach
    ``reach`` in magnitude: :data:`COORDINATE_MARGIN` times ``reach``, rounded up to a
    power of two (so that it changes rarely as shapes move).

    >>> coordinate_slack(3e6) == 2.0**-18  # 3e-06 rounded up
    True
    >>> coordinate_slack(0.0)
    0.0
    """
    raw = COORDINATE_MARGIN * reach
    if not raw > 0.0:
        return 0.0
    mantissa, exponent = math.frexp(raw)
    return math.ldexp(1.0, exponent if mantissa > 0.5 else exponent - 1)


SURELY_APART = 0
SURELY_TOUCHING = 1
UNDECIDED = 2
"""The verdicts of :func:`pose_circle_verdict`."""


@kernel("int64(float64, float64, float64, float64, float64)", inline=True)
def pose_circle_verdict(dx: float, dy: float, inner: float, outer: float, slack: float) -> int:
    """Whether two shapes surely touch, surely do not, or need the exact test.

    Args:
        dx: x offset from one pose origin to the other.
        dy: y offset.
        inner: Sum of the two inner radii of :func:`pose_circles`.
        outer: Sum of the two outer radii.
        slack: Absolute rounding allowance, from :func:`coordinate_slack`.

    Returns:
        :data:`SURELY_TOUCHING`, :data:`SURELY_APART` or :data:`UNDECIDED`.

    >>> from arcade_collide.geometry.shapes import Rect
    >>> a, b = pose_circles(Circle(1.0)), pose_circles(Rect(2, 2))
    >>> inner, outer = a[0] + b[0], a[1] + b[1]
    >>> [pose_circle_verdict(dx, 0.0, inner, outer, 0.0) for dx in (1.5, 3.0, 2.0)]
    [1, 0, 2]

    (Inner discs overlap; far apart; touching, left to the exact test.)
    """
    d2 = dx * dx + dy * dy
    sure = inner - slack
    if sure >= 0.0 and d2 <= sure * sure:
        return SURELY_TOUCHING
    reach = outer + slack
    if d2 > reach * reach:
        return SURELY_APART
    return UNDECIDED

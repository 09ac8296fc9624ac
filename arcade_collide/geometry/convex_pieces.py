"""Simple polygons cut into convex pieces, and ellipses as convex outlines.

The narrow phase takes convex shapes only, and a tile's hit box or a level's polygon
may be concave. :func:`convex_pieces` cuts an outline into triangles by ear clipping,
then removes the diagonals that are not needed, Hertel-Mehlhorn style (O'Rourke,
*Computational Geometry in C*, 2nd ed., 1.6 and 2.5): a diagonal goes when the two
pieces it separates make a convex piece together. That gives at most four times the
fewest pieces possible, and rarely more than one piece per reflex vertex plus one.

:func:`ellipse_outline` gives the convex polygon that stands for an ellipse whose
axes differ (a circle is a true :class:`~arcade_collide.geometry.shapes.Circle`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from arcade_collide.geometry.pose import Vec2, check_vec2
from arcade_collide.geometry.shapes import DEGENERATE_TOLERANCE

Outline = tuple[Vec2, ...]
"""Vertices in order around an outline, counter-clockwise (y up)."""


def _cross(o: Vec2, a: Vec2, b: Vec2) -> float:
    """z of (a - o) x (b - o): > 0 when o -> a -> b turns counter-clockwise (y up)."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def convex_pieces(points: Sequence[object]) -> list[Outline]:
    """Cut a simple polygon into convex pieces whose union is the polygon.

    Repeated consecutive points (a closing point equal to the first included) and
    vertices on a straight line between their neighbours are dropped first; the
    pieces are counter-clockwise, have no collinear neighbours and do not overlap
    (they share sides only).

    Args:
        points: The outline's vertices ``(x, y)`` in order, either winding.

    Returns:
        The convex pieces; one piece, the cleaned outline, when it is convex.

    Raises:
        TypeError: ``points`` is not a sequence of ``(x, y)`` pairs.
        ValueError: a coordinate is not finite, fewer than 3 distinct points are
            left, the outline has no area, or it crosses or touches itself.

    A hit (a concave L cut in two):

    >>> for piece in convex_pieces([(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]):
    ...     print(piece)
    ((2.0, 1.0), (1.0, 1.0), (0.0, 0.0), (2.0, 0.0))
    ((0.0, 2.0), (0.0, 0.0), (1.0, 1.0), (1.0, 2.0))

    A miss (convex already, given clockwise with a closing point):

    >>> convex_pieces([(0, 0), (0, 1), (1, 1), (1, 0), (0, 0)])
    [((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))]

    An outline that touches itself is refused:

    >>> convex_pieces([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2), (1, 1)])
    Traceback (most recent call last):
    ...
    ValueError: outline touches or crosses itself (sides 1 and 4)
    """
    outline = _clean(points)
    tolerance = DEGENERATE_TOLERANCE * _size_squared(outline)
    _check_simple(outline)
    if all(_cross(outline[i - 1], outline[i], outline[(i + 1) % len(outline)]) > tolerance
           for i in range(len(outline))):
        return [outline]
    triangles = _ear_clip(outline, tolerance)
    return [_drop_collinear(tuple(outline[k] for k in piece), tolerance)
            for piece in _merge_pieces(outline, triangles, tolerance)]


def _clean(points: Sequence[object]) -> Outline:
    """The outline counter-clockwise, without repeated or collinear points."""
    if isinstance(points, (str, bytes)) or not hasattr(points, "__iter__"):
        raise TypeError(
            f"points must be a sequence of (x, y) pairs, got {type(points).__name__}"
        )
    raw = [check_vec2(p, f"points[{i}]") for i, p in enumerate(points)]
    pts = [p for i, p in enumerate(raw) if p != raw[i - 1]] if len(raw) > 1 else raw
    if len(pts) < 3:
        raise ValueError(f"outline needs at least 3 distinct points, got {len(pts)}")
    area2 = sum(pts[i - 1][0] * pts[i][1] - pts[i][0] * pts[i - 1][1] for i in range(len(pts)))
    if area2 < 0.0:
        pts.reverse()
    outline = _drop_collinear(tuple(pts), DEGENERATE_TOLERANCE * _size_squared(pts))
    if len(outline) < 3 or abs(area2) <= DEGENERATE_TOLERANCE * _size_squared(pts):
        if len(outline) > 3:
            _check_simple(outline)  # a bow tie's areas cancel: say that it crosses
        raise ValueError("outline has no area")
    return outline


def _size_squared(points: Sequence[Vec2]) -> float:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    size = max(max(xs) - min(xs), max(ys) - min(ys))
    return size * size


def _drop_collinear(outline: Outline, tolerance: float) -> Outline:
    """``outline`` without the vertices that lie on the line through their neighbours."""
    pts = list(outline)
    changed = True
    while changed and len(pts) > 3:
        changed = False
        for i in range(len(pts)):
            if abs(_cross(pts[i - 1], pts[i], pts[(i + 1) % len(pts)])) <= tolerance:
                del pts[i]
                changed = True
                break
    return tuple(pts)


def _segments_meet(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool:
    """Whether the closed segments ab and cd share a point (Ericson 5.1.9.1)."""
    d1, d2 = _cross(a, b, c), _cross(a, b, d)
    d3, d4 = _cross(c, d, a), _cross(c, d, b)
    if ((d1 > 0.0) != (d2 > 0.0) and d1 != 0.0 and d2 != 0.0
            and (d3 > 0.0) != (d4 > 0.0) and d3 != 0.0 and d4 != 0.0):
        return True

    def on(p: Vec2, q: Vec2, r: Vec2, turn: float) -> bool:
        return turn == 0.0 and min(p[0], q[0]) <= r[0] <= max(p[0], q[0]) and (
            min(p[1], q[1]) <= r[1] <= max(p[1], q[1]))

    return on(a, b, c, d1) or on(a, b, d, d2) or on(c, d, a, d3) or on(c, d, b, d4)


def _check_simple(outline: Outline) -> None:
    """Raise unless no two sides that are not neighbours share a point."""
    n = len(outline)
    for i in range(n):
        a, b = outline[i], outline[(i + 1) % n]
        for j in range(i + 2, n):
            if i == 0 and j == n - 1:
                continue
            if _segments_meet(a, b, outline[j], outline[(j + 1) % n]):
                raise ValueError(f"outline touches or crosses itself (sides {i} and {j})")


def _in_triangle(p: Vec2, a: Vec2, b: Vec2, c: Vec2) -> bool:
    """Whether ``p`` is inside or on the counter-clockwise triangle abc."""
    return _cross(a, b, p) >= 0.0 and _cross(b, c, p) >= 0.0 and _cross(c, a, p) >= 0.0


def _ear_clip(outline: Outline, tolerance: float) -> list[list[int]]:
    """Triangles (vertex indices, counter-clockwise) that tile the simple ``outline``.

    An ear is a convex vertex whose triangle with its neighbours holds no other
    remaining vertex (O'Rourke 1.6); a vertex left collinear by earlier clips is
    dropped without a triangle.
    """
    left = list(range(len(outline)))
    triangles: list[list[int]] = []
    while len(left) > 3:
        n = len(left)
        for k in range(n):
            i, j, m = left[k - 1], left[k], left[(k + 1) % n]
            a, b, c = outline[i], outline[j], outline[m]
            turn = _cross(a, b, c)
            if abs(turn) <= tolerance:
                del left[k]
                break
            if turn > 0.0 and not any(
                _in_triangle(outline[v], a, b, c) for v in left if v not in (i, j, m)
            ):
                triangles.append([i, j, m])
                del left[k]
                break
        else:  # rounding left no ear: the outline is not simple after all
            raise ValueError("outline touches or crosses itself (no ear left to clip)")
    if abs(_cross(*(outline[v] for v in left))) > tolerance:
        triangles.append(left)
    return triangles


def _merge_pieces(
    outline: Outline, triangles: list[list[int]], tolerance: float
) -> list[list[int]]:
    """Join pieces across their shared diagonal wherever the union stays convex."""
    pieces: dict[int, list[int]] = dict(enumerate(triangles))
    owner: dict[tuple[int, int], int] = {}
    for key, piece in pieces.items():
        for k in range(len(piece)):
            owner[piece[k - 1], piece[k]] = key
    for i, j in list(owner):
        if (j, i) not in owner or i > j:
            continue
        first, second = owner[i, j], owner[j, i]
        p, q = pieces[first], pieces[second]
        # p runs ... i, j ...: from j round to i; q runs ... j, i ...: from i round to j.
        p_from_j = p[p.index(j):] + p[: p.index(j)]
        q_from_i = q[q.index(i):] + q[: q.index(i)]
        union = p_from_j + q_from_i[1:-1]
        if not _convex(outline, union, tolerance):
            continue
        del pieces[second], owner[i, j], owner[j, i]
        pieces[first] = union
        for k in range(len(union)):
            owner[union[k - 1], union[k]] = first
    return list(pieces.values())


def _convex(outline: Outline, piece: list[int], tolerance: float) -> bool:
    n = len(piece)
    return all(
        _cross(outline[piece[k - 1]], outline[piece[k]], outline[piece[(k + 1) % n]])
        >= -tolerance
        for k in range(n)
    )


def ellipse_outline(width: float, height: float, tolerance: float = 0.5) -> Outline:
    """A convex polygon inscribed in the ``width`` x ``height`` ellipse centred on 0.

    Its vertices lie on the ellipse at equal steps of the parameter angle, the first
    on the positive x axis; there are as many as it takes for the polygon to stray at
    most ``tolerance`` inside the ellipse (a chord of the larger circle of the two
    radii, ``r(1 - cos(pi/n))``), rounded up to a multiple of 4 so that the polygon
    reaches the ellipse's ends on both axes (its bounding box is the ellipse's), from
    8 to 64.

    Args:
        width: The ellipse's extent along x, > 0.
        height: Its extent along y, > 0.
        tolerance: How far inside the ellipse a side may be, > 0, in the same units.

    Raises:
        ValueError: a size or the tolerance is not a finite number > 0.

    A hit (a 40 x 20 ellipse: 16 vertices, the first at (20, 0)):

    >>> outline = ellipse_outline(40, 20)
    >>> len(outline), outline[0]
    (16, (20.0, 0.0))

    A miss and a touch: every vertex is on the ellipse, none beyond it.

    >>> max(abs((x / 20) ** 2 + (y / 10) ** 2 - 1) for x, y in outline) < 1e-12
    True
    >>> ellipse_outline(0, 3)
    Traceback (most recent call last):
    ...
    ValueError: width must be a finite number > 0, got 0
    """
    for name, value in (("width", width), ("height", height), ("tolerance", tolerance)):
        if not (isinstance(value, (int, float)) and 0.0 < value < math.inf):
            raise ValueError(f"{name} must be a finite number > 0, got {value!r}")
    radius = 0.5 * max(width, height)
    ratio = max(-1.0, 1.0 - tolerance / radius)
    needed = math.ceil(math.pi / math.acos(ratio)) if ratio > -1.0 else 8
    count = min(64, max(8, 4 * math.ceil(needed / 4)))
    return tuple(
        (0.5 * width * math.cos(2.0 * math.pi * k / count),
         0.5 * height * math.sin(2.0 * math.pi * k / count))
        for k in range(count)
    )

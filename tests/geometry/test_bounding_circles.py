"""Pose-centred circles: their verdicts never contradict the exact tests."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.geometry.arrays import pack
from arcade_collide.geometry.bounding_circles import (
    NO_INNER_DISC,
    RELATIVE_MARGIN,
    SURELY_APART,
    SURELY_TOUCHING,
    circle_pose_circles,
    convex_pose_circles,
    coordinate_slack,
    pose_circle_verdict,
    pose_circles,
)
from arcade_collide.geometry.query.dispatch import intersects, intersects_batch
from arcade_collide.geometry.shapes import (
    AnyShape,
    Circle,
    Point,
    Polygon,
    Rect,
    ShapeKind,
    Triangle,
)
from tests.geometry.query.narrow_cases import KINDS, posed, random_shape

CONVEX = (ShapeKind.RECT, ShapeKind.TRIANGLE, ShapeKind.POLYGON)


def verdict(
    a: AnyShape, pa: tuple[float, float, float], b: AnyShape, pb: tuple[float, float, float]
) -> tuple[bool, bool]:
    ia, oa = pose_circles(a)
    ib, ob = pose_circles(b)
    slack = coordinate_slack(max(abs(v) for v in (*pa[:2], *pb[:2])))
    found = pose_circle_verdict(pb[0] - pa[0], pb[1] - pa[1], ia + ib, oa + ob, slack)
    return found == SURELY_TOUCHING, found == SURELY_APART


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(KINDS), st.sampled_from(KINDS), st.data())
def test_verdicts_agree_with_the_exact_test(
    kind_a: ShapeKind, kind_b: ShapeKind, data: st.DataObject
) -> None:
    a, pa = data.draw(posed(kind_a))
    b, pb = data.draw(posed(kind_b))
    touching, apart = verdict(a, pa, b, pb)
    assert not (touching and apart)
    exact = intersects(a, pa, b, pb)
    if touching:
        assert exact
    if apart:
        assert not exact


@pytest.mark.parametrize("kind", CONVEX)
def test_inner_disc_inside_and_outer_circle_around(kind: ShapeKind) -> None:
    rng = np.random.default_rng(int(kind))
    for _ in range(200):
        shape = random_shape(kind, rng)
        inner, outer = pose_circles(shape)
        vertices = np.array(shape.local_vertices())  # type: ignore[union-attr]
        assert np.hypot(vertices[:, 0], vertices[:, 1]).max() <= outer
        if inner == NO_INNER_DISC:
            assert not intersects(Point(), (0.0, 0.0), shape, (0.0, 0.0))
            continue
        assert inner >= 0.0
        # The inner disc lies in the shape: a circle of that radius about the origin
        # is contained (it touches, and its far side stays inside every edge line).
        for t in np.linspace(0.0, 2.0 * math.pi, 24, endpoint=False):
            p = (inner * math.cos(t), inner * math.sin(t))
            assert intersects(Point(), p, shape, (0.0, 0.0))


def test_batch_radii_match_shapely_on_padded_rows() -> None:
    # An independent reference: shapely's distance from the origin to the outline
    # (when the origin is inside) and the farthest vertex.
    rng = np.random.default_rng(7)
    origin = shapely.Point(0.0, 0.0)
    for kind in CONVEX:
        shapes = [random_shape(kind, rng) for _ in range(50)]
        # Rows padded to 8 vertices by repeating the last one, like polygon records.
        rows = []
        for s in shapes:
            v = list(s.local_vertices())  # type: ignore[union-attr]
            rows.append(v + [v[-1]] * (8 - len(v)))
        inner, outer = convex_pose_circles(np.array(rows))
        for k, s in enumerate(shapes):
            vertices = np.array(s.local_vertices())  # type: ignore[union-attr]
            outline = shapely.Polygon(vertices)
            if outline.intersects(origin):
                expect_inner = outline.exterior.distance(origin)
                assert inner[k] == pytest.approx(expect_inner, rel=1e-8, abs=1e-12)
                assert inner[k] <= expect_inner
            else:
                assert inner[k] == NO_INNER_DISC
            far = float(np.hypot(vertices[:, 0], vertices[:, 1]).max())
            assert far < outer[k] <= far * (1.0 + 2 * RELATIVE_MARGIN)
        # The one-shape form is the same computation, row by row.
        expect = np.array([pose_circles(s) for s in shapes])
        np.testing.assert_array_equal(inner, expect[:, 0])
        np.testing.assert_array_equal(outer, expect[:, 1])
    inner, outer = circle_pose_circles(np.array([3.0]))
    assert (inner[0], outer[0]) == pose_circles(Circle(3.0))


def test_known_radii() -> None:
    assert pose_circles(Point()) == (0.0, 0.0)
    inner, outer = pose_circles(Rect(4, 10))
    assert inner == pytest.approx(2.0, rel=2 * RELATIVE_MARGIN) and inner < 2.0
    assert outer == pytest.approx(math.hypot(2, 5), rel=2 * RELATIVE_MARGIN)
    assert outer > math.hypot(2, 5)
    # The origin on a vertex: a disc of radius 0 (the point itself) is inside.
    assert pose_circles(Triangle((0, 0), (3, 0), (0, 3)))[0] == 0.0
    # Either winding.
    square = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
    ccw = convex_pose_circles(np.array([square]))
    cw = convex_pose_circles(np.array([square[::-1]]))
    assert ccw == cw
    assert pose_circles(Polygon(square))[0] == pytest.approx(1.0)


def test_exact_touching_is_left_to_the_exact_test() -> None:
    # Two circles touching exactly, and a circle touching a rectangle's side.
    for a, b, d in ((Circle(1), Circle(2), 3.0), (Circle(1), Rect(2, 2), 2.0)):
        touching, apart = verdict(a, (0.0, 0.0, 0.0), b, (d, 0.0, 0.0))
        assert not touching and not apart
        assert intersects(a, (0.0, 0.0), b, (d, 0.0))


def test_far_from_the_origin_the_slack_grows() -> None:
    far = 3e7
    a, b = Rect(2, 2), Rect(2, 2)
    # 1e-6 of overlap at 3e7 is within the rounding allowance: undecided.
    touching, apart = verdict(a, (far, 0.0, 0.0), b, (far + 2.0 - 1e-6, 0.0, 0.0))
    assert not touching and not apart
    assert coordinate_slack(0.0) == 0.0 and coordinate_slack(far) == 2.0**-15 > far * 1e-12


def test_batch_of_scene_pairs_matches_kernel() -> None:
    rng = np.random.default_rng(3)
    for kind_a in KINDS:
        for kind_b in KINDS:
            sa = [random_shape(kind_a, rng) for _ in range(300)]
            sb = [random_shape(kind_b, rng) for _ in range(300)]
            pa = [(*rng.uniform(-4, 4, 2), rng.uniform(0, 360)) for _ in range(300)]
            pb = [(*rng.uniform(-4, 4, 2), rng.uniform(0, 360)) for _ in range(300)]
            exact = intersects_batch(pack(sa, pa), pack(sb, pb))
            ra = np.array([pose_circles(s) for s in sa])
            rb = np.array([pose_circles(s) for s in sb])
            xy_a, xy_b = np.array(pa)[:, :2], np.array(pb)[:, :2]
            found = np.array([
                pose_circle_verdict(dx, dy, inner, outer, 1e-12 * 4)
                for dx, dy, inner, outer in zip(
                    xy_b[:, 0] - xy_a[:, 0], xy_b[:, 1] - xy_a[:, 1],
                    ra[:, 0] + rb[:, 0], ra[:, 1] + rb[:, 1], strict=True,
                )
            ])
            touching, apart = found == SURELY_TOUCHING, found == SURELY_APART
            assert exact[touching].all()
            assert not exact[apart].any()
            if kind_a is not ShapeKind.POINT and kind_b is not ShapeKind.POINT:
                # The verdicts decide a good share of the pairs.
                assert (touching | apart).mean() > 0.3

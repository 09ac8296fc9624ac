"""The compiled contacts equal the dispatch table's batch contacts bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from narrow_cases import CANONICAL_PAIRS, SCENES, pair_ids, paired_scene, table_rows_for

from arcade_collide.geometry.arrays import pack
from arcade_collide.geometry.query.compiled_contacts import contact_rows
from arcade_collide.geometry.query.compiled_pairs import world_rows
from arcade_collide.geometry.query.dispatch import contact, contact_batch
from arcade_collide.geometry.shapes import Circle, Point, Polygon, Rect, ShapeKind, Triangle


def _same_bits(got: np.ndarray, expected: np.ndarray) -> bool:  # type: ignore[type-arg]
    """Equal bit for bit once zeros are made positive (``+ 0.0``, as the ECS does): the
    batch kernels' block reductions may keep the other zero of a -0.0/0.0 tie."""
    a, b = np.asarray(got) + 0.0, np.asarray(expected) + 0.0
    return a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize(("lattice", "offset"), SCENES)
@pytest.mark.parametrize("pair", CANONICAL_PAIRS, ids=pair_ids)
def test_contacts_equal_contact_batch_bit_for_bit(
    pair: tuple[ShapeKind, ShapeKind], lattice: bool, offset: float
) -> None:
    n = 150
    sa, pa, sb, pb = paired_scene(pair, n, 3, lattice, offset)
    a, b = pack(sa, pa), pack(sb, pb)
    i, j, rows, _ = table_rows_for(pair, a, b, n)
    for (x, y), expected in (((i, j), contact_batch(a, b)), ((j, i), contact_batch(b, a))):
        hit, normal, depth, point = contact_rows(x, y, rows)
        assert 0 < hit.sum() < n
        assert hit.tolist() == expected.hit.tolist()
        # Touching rows bit for bit; rows that miss hold zeros (the reversed batch negates
        # them, so their sign is not compared).
        assert not normal[~hit].any() and not depth[~hit].any() and not point[~hit].any()
        wrong = [
            r for r in np.flatnonzero(hit).tolist()
            if not (_same_bits(normal[r], expected.normal[r])
                    and _same_bits(depth[r], expected.depth[r])
                    and _same_bits(point[r], expected.point[r]))
        ]
        assert not wrong, (
            f"row {wrong[0]}: got {normal[wrong[0]]}, {depth[wrong[0]]}, {point[wrong[0]]}; "
            f"expected {expected.normal[wrong[0]]}, {expected.depth[wrong[0]]}, "
            f"{expected.point[wrong[0]]}"
        )


def test_a_hit_a_miss_and_a_touching_contact() -> None:
    kinds = np.array([ShapeKind.CIRCLE] * 3 + [ShapeKind.RECT], dtype=np.int8)
    circles = pack([Circle(1.0)] * 3, [(1.5, 0.0), (2.5, 0.0), (2.0, 0.0)])
    rect = pack([Rect(2.0, 2.0)], [(0.0, 0.0)])
    rows = world_rows(kinds, {ShapeKind.CIRCLE: circles, ShapeKind.RECT: rect},
                      {ShapeKind.CIRCLE: 0, ShapeKind.RECT: 3})
    hit, normal, depth, point = contact_rows(np.array([0, 1, 2]), np.array([3, 3, 3]), rows)
    assert hit.tolist() == [True, False, True]
    assert normal.tolist() == [[-1.0, 0.0], [0.0, 0.0], [-1.0, 0.0]]
    assert depth.tolist() == [0.5, 0.0, 0.0]
    assert point.tolist() == [[0.75, 0.0], [0.0, 0.0], [1.0, 0.0]]


@pytest.mark.parametrize("origin", [0.0, 1e3, 1e9])
@pytest.mark.parametrize("kind", [ShapeKind.TRIANGLE, ShapeKind.POLYGON])
def test_a_circle_near_a_sharp_corner_gets_the_same_contact_anywhere(
    origin: float, kind: ShapeKind
) -> None:
    """The tip of a 20-degree corner lies 0.21 right of a unit circle's centre: B leaves
    along +x by 0.79. A centre is taken as on the outline only within rounding of
    it, so far from the origin the corner is not mistaken for its nearest face."""
    h = np.radians(10.0)
    corner = [(0.0, 0.0), (10 * np.cos(h), 10 * np.sin(h)), (10 * np.cos(h), -10 * np.sin(h))]
    shape = Triangle(*corner) if kind == ShapeKind.TRIANGLE else Polygon(corner)
    centre, tip = (origin, origin), (origin + 0.21, origin)
    got = contact(Circle(1.0), centre, shape, tip)
    assert got is not None
    assert got.normal == pytest.approx((1.0, 0.0), abs=1e-6)
    assert got.depth == pytest.approx(0.79, abs=1e-6)
    circles, others = pack([Circle(1.0)], [centre]), pack([shape], [tip])
    batch = contact_batch(circles, others)
    i, j, rows, _ = table_rows_for((ShapeKind.CIRCLE, kind), circles, others, 1)
    hit, normal, depth, _ = contact_rows(i, j, rows)
    assert hit.tolist() == batch.hit.tolist() == [True]
    assert normal[0].tolist() == batch.normal[0].tolist() == list(got.normal)
    assert depth[0] == batch.depth[0] == got.depth


def _three_ways(a: object, pose_a: tuple[float, float], b: object,
                pose_b: tuple[float, float]) -> list[tuple[list[float], float]]:
    """(normal, depth) of one pair from contact(), contact_batch() and contact_rows()."""
    got = contact(a, pose_a, b, pose_b)  # type: ignore[arg-type]
    assert got is not None
    pa, pb = pack([a], [pose_a]), pack([b], [pose_b])  # type: ignore[list-item]
    batch = contact_batch(pa, pb)
    i, j, rows, _ = table_rows_for((a.kind, b.kind), pa, pb, 1)  # type: ignore[attr-defined]
    hit, normal, depth, _ = contact_rows(i, j, rows)
    assert bool(batch.hit[0]) and bool(hit[0])
    return [
        (list(got.normal), got.depth),
        (batch.normal[0].tolist(), float(batch.depth[0])),
        (normal[0].tolist(), float(depth[0])),
    ]


@pytest.mark.parametrize("size", [1e70, 1e80, 1e150])
@pytest.mark.parametrize("kind", ["rect", "polygon"])
def test_huge_outlines_take_the_shallowest_axis(size: float, kind: str) -> None:
    """Squared overlaps of shapes over ~1e77 overflow: every axis tied at infinity and the
    first one won, ten times too deep. The ranks stay finite up to the 1e154 span limit."""
    half = size / 2
    square = Polygon([(-half, -half), (half, -half), (half, half), (-half, half)])
    shape = Rect(size, size) if kind == "rect" else square
    for normal, depth in _three_ways(shape, (0.0, 0.0), square, (0.9 * size, 0.0)):
        assert normal == [1.0, 0.0]
        assert depth == pytest.approx(0.1 * size, rel=1e-12)


@pytest.mark.parametrize(
    ("a", "b", "angle", "normal", "depth"),
    [
        (Rect(1, 1), Rect(1e-11, 1.0), 0.0, [1.0, 0.0], 0.5),
        (Circle(1.0), Polygon([(0, 0), (1e-11, 0), (0, 1e-9)]), 0.0, [-1.0, 0.0], 1.0),
        (Triangle((0, 0), (1e-11, 0), (0, 3e-9)), Point(), 45.0, [-0.5**0.5, 0.5**0.5], 0.0),
    ],
)
def test_edges_rounded_to_zero_length_far_out_give_finite_contacts(
    a: object, b: object, angle: float, normal: list[float], depth: float
) -> None:
    """At (1e6, 1e6) a 1e-11 side rounds to nothing: such an edge is no axis and no face
    (it raised ZeroDivisionError, or gave NaN contacts in the batch kernels)."""
    at = (1e6, 1e6, angle)
    for got_normal, got_depth in _three_ways(a, at, b, at):
        assert got_normal == normal
        assert got_depth == depth

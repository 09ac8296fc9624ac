"""The dispatch table and the public queries: wiring, validation, properties of all 25 orders."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from narrow_cases import KINDS, ORDERED_PAIRS, aabbs, paired_scene, posed, rotate_pose

import arcade_collide
from arcade_collide.geometry.arrays import CircleArrays, RectArrays, ShapeArrays, pack, take
from arcade_collide.geometry.query import dispatch
from arcade_collide.geometry.query.dispatch import (
    contact,
    contact_batch,
    intersects,
    intersects_batch,
)
from arcade_collide.geometry.query.kernel_base import world_rows
from arcade_collide.geometry.shapes import (
    AnyShape,
    Circle,
    Point,
    Polygon,
    Rect,
    ShapeKind,
    Triangle,
)

PROPERTY_SETTINGS = settings(max_examples=60, deadline=None)
Posed = tuple[AnyShape, tuple[float, float, float]]


def _ids(pair: tuple[ShapeKind, ShapeKind]) -> str:
    return f"{pair[0].name.lower()}-{pair[1].name.lower()}"


def _pair_strategy(pair: tuple[ShapeKind, ShapeKind]) -> st.SearchStrategy[tuple[Posed, Posed]]:
    return st.tuples(posed(pair[0]), posed(pair[1]))


# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------


def test_table_fills_every_ordered_slot_from_fifteen_registrations() -> None:
    table = dispatch.TABLE
    assert set(table) == set(ORDERED_PAIRS)
    direct = [key for key, entry in table.items() if not entry.swapped]
    assert sorted(direct) == sorted((a, b) for a in KINDS for b in KINDS if a <= b)
    for (a, b), entry in table.items():
        first, second = sorted((a, b))
        name = f"{first.name.lower()}_{second.name.lower()}"
        assert entry.swapped == (a > b)
        assert entry.pair.intersects.__name__ == f"intersects_{name}"
        assert entry.pair.contact.__name__ == f"contact_{name}"
        assert table[(b, a)].pair is entry.pair


def test_the_chain_links_every_slot_in_ascending_order() -> None:
    slots = [slot for slot, _ in dispatch._LINKS]
    assert slots == sorted(a * 5 + b for a, b in dispatch.TABLE if a <= b)
    assert dispatch._LINKS[0][1].__name__ == "chain_contact_point_point"
    assert dispatch._LINKS[-1][1].__name__ == "chain_contact_polygon_polygon"


def _slot_counts(*slots: int) -> np.ndarray:
    """The slot bounds of one pair in each of ``slots`` (ascending), grouped in that order."""
    counts = np.zeros(dispatch.SLOTS + 1, dtype=np.int64)
    for slot in slots:
        counts[slot + 1 :] += 1
    return counts


@pytest.mark.parametrize(
    "kinds",
    [
        [ShapeKind.POINT, ShapeKind.POLYGON],  # the first and the last slot
        [ShapeKind.CIRCLE, ShapeKind.RECT],  # a slot in between, alone
        [ShapeKind.POLYGON],  # the last slot alone
        [ShapeKind.POINT],  # the first slot alone
    ],
    ids=lambda kinds: "+".join(kind.name.lower() for kind in kinds),
)
def test_a_pass_runs_each_slot_holding_pairs_and_no_other(kinds: list[ShapeKind]) -> None:
    # One pair of each kind with itself (a hit) and, where there are two kinds, one
    # pair across them (a miss): the pass enters at the first slot that holds pairs,
    # and every slot holding pairs is run, whatever lies between.
    shapes = {
        ShapeKind.POINT: Point(),
        ShapeKind.CIRCLE: Circle(1),
        ShapeKind.RECT: Rect(2, 2),
        ShapeKind.POLYGON: Polygon([(0, 0), (2, 0), (1, 2)]),
    }
    rows = world_rows(
        *(pack([shapes[kind]] * 2, [(10.0 * n, 0.0)] * 2) for n, kind in enumerate(kinds))
    )
    pairs = [(2 * n, 2 * n + 1, kind * 5 + kind) for n, kind in enumerate(kinds)]
    if len(kinds) == 2:
        pairs.append((0, 2, kinds[0] * 5 + kinds[1]))
    pairs.sort(key=lambda pair: pair[2])
    i = np.array([pair[0] for pair in pairs], dtype=np.int64)
    j = np.array([pair[1] for pair in pairs], dtype=np.int64)
    order = np.arange(len(pairs), dtype=np.int64)
    expected = [pair[0] + 1 == pair[1] for pair in pairs]
    hit = ~np.array(expected)  # each answer wrong until its slot runs
    dispatch.run_pairs(
        rows, i, j, order, _slot_counts(*(pair[2] for pair in pairs)), False, hit,
        dispatch.NO_CONTACTS,
    )  # fmt: skip
    assert hit.tolist() == expected


def test_registering_out_of_order_or_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="ShapeKind order"):
        dispatch._register(ShapeKind.RECT, ShapeKind.CIRCLE, dispatch.circle_rect)
    with pytest.raises(ValueError, match="twice"):
        dispatch._register(ShapeKind.CIRCLE, ShapeKind.RECT, dispatch.circle_rect)


def test_public_names_are_exported() -> None:
    for name in ("intersects", "contact", "intersects_batch", "contact_batch", "pack", "ShapeKind"):
        assert name in arcade_collide.__all__
    assert arcade_collide.contact is contact
    assert arcade_collide.intersects_batch is intersects_batch


def test_reverse_order_flips_the_normal() -> None:
    forward = contact(Circle(1), (2.5, 0), Rect(4, 2), (0, 0))
    backward = contact(Rect(4, 2), (0, 0), Circle(1), (2.5, 0))
    assert forward is not None and backward is not None
    assert forward.normal == (-1.0, 0.0)
    assert backward == forward.flipped()


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("query", [intersects, contact])
def test_bad_poses_raise_naming_the_argument(query: object) -> None:
    fn = query  # the two public scalar queries share their validation
    assert callable(fn)
    with pytest.raises(ValueError, match="pose_a x must be finite"):
        fn(Circle(1), (math.nan, 0), Circle(1), (0, 0))
    with pytest.raises(ValueError, match="pose_b angle must be finite"):
        fn(Circle(1), (0, 0), Circle(1), (0, 0, math.inf))
    with pytest.raises(ValueError, match="pose_b must be"):
        fn(Circle(1), (0, 0), Circle(1), (0, 0, 0, 0))
    with pytest.raises(TypeError, match="pose_a must be"):
        fn(Circle(1), 5, Circle(1), (0, 0))


@pytest.mark.parametrize("query", [intersects, contact])
def test_non_shapes_raise_type_error_naming_the_argument(query: object) -> None:
    fn = query
    assert callable(fn)
    with pytest.raises(TypeError, match="shape_a must be a Point, Circle"):
        fn("circle", (0, 0), Circle(1), (0, 0))
    with pytest.raises(TypeError, match=r"shape_b must be .* got float"):
        fn(Circle(1), (0, 0), 1.0, (0, 0))


def test_batch_arguments_are_checked() -> None:
    circles = pack([Circle(1)] * 3, [(0, 0)] * 3)
    two = pack([Circle(1)] * 2, [(0, 0)] * 2)
    with pytest.raises(ValueError, match="same number of rows, got 3 and 2"):
        intersects_batch(circles, two)
    with pytest.raises(ValueError, match="same number of rows"):
        contact_batch(two, circles)
    with pytest.raises(TypeError, match="a must be a PointArrays"):
        contact_batch((np.zeros((3, 2)), np.ones(3)), circles)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="b must be a PointArrays"):
        intersects_batch(circles, Circle(1))  # type: ignore[arg-type]


@pytest.mark.parametrize("pair", ORDERED_PAIRS, ids=_ids)
def test_empty_batches(pair: tuple[ShapeKind, ShapeKind]) -> None:
    a = _take0(pair[0])
    b = _take0(pair[1])
    assert intersects_batch(a, b).shape == (0,)
    result = contact_batch(a, b)
    assert result.hit.shape == (0,) and result.normal.shape == (0, 2)


def _take0(kind: ShapeKind) -> ShapeArrays:
    sample = {
        ShapeKind.POINT: Point(),
        ShapeKind.CIRCLE: Circle(1),
        ShapeKind.RECT: Rect(1, 2),
        ShapeKind.TRIANGLE: Triangle((0, 0), (1, 0), (0, 1)),
        ShapeKind.POLYGON: Polygon([(0, 0), (1, 0), (1, 1), (0, 1)]),
    }[kind]
    return take(pack([sample], [(0, 0)]), np.zeros(0, dtype=np.intp))


# ---------------------------------------------------------------------------
# Properties, every ordered pair
# ---------------------------------------------------------------------------


def _same_place(x: Posed, y: Posed) -> bool:
    """Identical world geometry: no direction tells A from B (fallback normal)."""
    if type(x[0]) is not type(y[0]):
        return False
    a = pack([x[0]], [x[1]])
    b = pack([y[0]], [y[1]])
    if isinstance(a, RectArrays) and isinstance(b, RectArrays):
        return np.array_equal(a.vertices, b.vertices)  # all a rectangle's SAT test sees
    return all(np.array_equal(fa, fb) for fa, fb in zip(a, b, strict=True))


@pytest.mark.parametrize("pair", ORDERED_PAIRS, ids=_ids)
def test_symmetry_and_consistency(pair: tuple[ShapeKind, ShapeKind]) -> None:
    @PROPERTY_SETTINGS
    @given(_pair_strategy(pair))
    def check(case: tuple[Posed, Posed]) -> None:
        (sa, pa), (sb, pb) = case
        forward = contact(sa, pa, sb, pb)
        backward = contact(sb, pb, sa, pa)
        assert intersects(sa, pa, sb, pb) == (forward is not None)
        assert intersects(sb, pb, sa, pa) == (backward is not None)
        assert (forward is None) == (backward is None)
        if forward is not None and backward is not None and not _same_place((sa, pa), (sb, pb)):
            assert forward == backward.flipped()

    check()


@pytest.mark.parametrize("pair", ORDERED_PAIRS, ids=_ids)
def test_scalar_equals_batch_and_hits_overlap_bounds(pair: tuple[ShapeKind, ShapeKind]) -> None:
    @PROPERTY_SETTINGS
    @given(_pair_strategy(pair))
    def check(case: tuple[Posed, Posed]) -> None:
        (sa, pa), (sb, pb) = case
        a = pack([sa], [pa])
        b = pack([sb], [pb])
        got = contact(sa, pa, sb, pb)
        batch = contact_batch(a, b)
        assert bool(intersects_batch(a, b)[0]) == bool(batch.hit[0]) == (got is not None)
        if got is None:
            assert not batch.normal.any() and not batch.depth.any() and not batch.point.any()
            return
        assert got.normal == tuple(batch.normal[0])
        assert got.depth == batch.depth[0]
        assert got.point == tuple(batch.point[0])
        box_a = aabbs(a)[0]
        box_b = aabbs(b)[0]
        assert box_a[0] <= box_b[2] and box_b[0] <= box_a[2]
        assert box_a[1] <= box_b[3] and box_b[1] <= box_a[3]

    check()


def _bits(values: object) -> bytes:
    return np.asarray(values, dtype=np.float64).tobytes()


@pytest.mark.parametrize("lattice", [False, True], ids=["random", "lattice"])
@pytest.mark.parametrize("pair", ORDERED_PAIRS, ids=_ids)
def test_scalar_results_equal_batch_results_bit_for_bit(
    pair: tuple[ShapeKind, ShapeKind], lattice: bool
) -> None:
    """Every scalar answer is the batch answer, signed zeros included, whatever form
    the pose takes (tuples of floats or ints, lists, numpy scalars)."""
    n = 120
    shapes_a, poses_a, shapes_b, poses_b = paired_scene(pair, n, 13, lattice, 0.0)
    batch = contact_batch(pack(shapes_a, poses_a), pack(shapes_b, poses_b))
    flags = intersects_batch(pack(shapes_a, poses_a), pack(shapes_b, poses_b))
    assert 0 < int(flags.sum()) < n  # both outcomes occur
    forms = [
        lambda p: p,
        lambda p: list(p),
        lambda p: tuple(np.float64(v) for v in p),
        lambda p: tuple(int(v) if v == int(v) else v for v in p),
    ]
    for k in range(n):
        form = forms[k % len(forms)]
        pa, pb = form(poses_a[k]), form(poses_b[k])
        assert intersects(shapes_a[k], pa, shapes_b[k], pb) == bool(flags[k])
        got = contact(shapes_a[k], pa, shapes_b[k], pb)
        assert (got is not None) == bool(batch.hit[k])
        row = (batch.normal[k], batch.depth[k], batch.point[k])
        if got is None:
            assert _bits(np.concatenate([np.ravel(v) for v in row])) == bytes(40)
        else:
            assert _bits([*got.normal, got.depth, *got.point]) == _bits(
                np.concatenate([np.ravel(v) for v in row])
            )


def _moved(pose: tuple[float, float, float], dx: float, dy: float) -> tuple[float, float, float]:
    return (pose[0] + dx, pose[1] + dy, pose[2])


@pytest.mark.parametrize("pair", ORDERED_PAIRS, ids=_ids)
def test_depth_along_the_normal_separates(pair: tuple[ShapeKind, ShapeKind]) -> None:
    @PROPERTY_SETTINGS
    @given(_pair_strategy(pair))
    def check(case: tuple[Posed, Posed]) -> None:
        (sa, pa), (sb, pb) = case
        got = contact(sa, pa, sb, pb)
        if got is None:
            return
        nx, ny = got.normal
        assert math.isclose(math.hypot(nx, ny), 1.0, abs_tol=1e-12)
        assert got.depth >= 0.0
        step = got.depth * (1 + 1e-6) + 1e-9
        assert not intersects(sa, pa, sb, _moved(pb, nx * step, ny * step))
        if got.depth > 1e-4:
            step = got.depth * (1 - 1e-6)
            assert intersects(sa, pa, sb, _moved(pb, nx * step, ny * step))

    check()


@pytest.mark.parametrize("pair", ORDERED_PAIRS, ids=_ids)
def test_translation_and_rotation_invariance(pair: tuple[ShapeKind, ShapeKind]) -> None:
    """Moving or turning the whole scene keeps the answer (up to rounding near touching)."""

    @PROPERTY_SETTINGS
    @given(
        _pair_strategy(pair),
        st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
        st.floats(-180.0, 180.0),
    )
    def check(case: tuple[Posed, Posed], shift: tuple[int, int], theta: float) -> None:
        (sa, pa), (sb, pb) = case
        base = contact(sa, pa, sb, pb)
        moved = contact(sa, _moved(pa, *shift), sb, _moved(pb, *shift))
        turned = contact(sa, rotate_pose(pa, theta), sb, rotate_pose(pb, theta))
        for other in (moved, turned):
            if (base is None) != (other is None):
                # Only a pair within rounding of touching may change its answer.
                hit = base if base is not None else other
                assert hit is not None and hit.depth < 1e-9
            elif base is not None and other is not None:
                assert math.isclose(base.depth, other.depth, rel_tol=1e-9, abs_tol=1e-9)

    check()


def test_batch_matches_scalar_for_circles_given_as_raw_arrays() -> None:
    """Records need not come from pack: the ECS builds them straight from its arrays."""
    a = CircleArrays(np.array([[0.0, 0.0], [0.0, 0.0]]), np.array([1.0, 1.0]))
    b = pack([Rect(2, 2), Rect(2, 2)], [(2, 0, 45), (3, 0, 0)])
    result = contact_batch(a, b)
    assert result.hit.tolist() == [True, False]
    expected = contact(Circle(1), (0, 0), Rect(2, 2), (2, 0, 45))
    assert expected is not None
    assert tuple(result.normal[0]) == expected.normal


def test_a_shape_collected_after_the_module_globals_are_cleared_is_forgotten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # At interpreter exit a module's globals are set to None before the last shapes are
    # collected: the weak reference's callback must not look the table up by name.
    shape = Circle(3.0)
    table = dispatch._GEOMETRY
    dispatch.geometry_of(shape, "shape")
    ref = table[id(shape)][0]
    monkeypatch.setattr(dispatch, "_GEOMETRY", None)
    callback = ref.__callback__
    assert callback is not None
    callback(ref)
    assert id(shape) not in table

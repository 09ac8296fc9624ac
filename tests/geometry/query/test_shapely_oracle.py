"""The narrow phase against shapely, on thousands of seeded random pairs per shape pair.

shapely decides with exact predicates on the same world coordinates (built by
``pack``). Rows within ``EPS`` of touching are excluded from the boolean
comparison: there the answer depends on the last bit of the arithmetic.
Circles are never approximated by polygons (see ``narrow_cases.oracle``).

Besides the boolean, every contact is checked through shapely: moving B along
the normal by slightly more than ``depth`` separates the pair, by slightly
less keeps it touching; and scalar answers equal batch answers bit for bit.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from narrow_cases import CANONICAL_PAIRS, SCALE, oracle, random_side, translated

from arcade_collide.geometry.arrays import BatchContacts, ShapeArrays, pack, take
from arcade_collide.geometry.query.dispatch import (
    contact,
    contact_batch,
    intersects,
    intersects_batch,
)
from arcade_collide.geometry.shapes import AnyShape, ShapeKind

EPS = 1e-7 * SCALE
FAST_CASES = 3000
SLOW_CASES = 40000

Side = tuple[list[AnyShape], list[tuple[float, float, float]], ShapeArrays]


@functools.cache
def _cases(kind_a: ShapeKind, kind_b: ShapeKind, n: int, seed: int) -> tuple[Side, Side]:
    rng = np.random.default_rng([seed, int(kind_a), int(kind_b)])
    side_a, side_b = random_side(kind_a, n, rng), random_side(kind_b, n, rng)
    if kind_a is kind_b is ShapeKind.POINT:
        # Random points never coincide: make every other pair coincide.
        poses = [side_a[1][i] if i % 2 == 0 else p for i, p in enumerate(side_b[1])]
        side_b = (side_b[0], poses, pack(side_b[0], poses))
    elif kind_a is ShapeKind.POINT:
        # A point far from a small shape nearly always misses: put it near B.
        jitter = rng.uniform(-2.5, 2.5, (n, 2))
        poses = [(p[0] + dx, p[1] + dy, 0.0) for p, (dx, dy) in zip(side_b[1], jitter, strict=True)]
        side_a = (side_a[0], poses, pack(side_a[0], poses))
    return side_a, side_b


def _ids(pair: tuple[ShapeKind, ShapeKind]) -> str:
    return f"{pair[0].name.lower()}-{pair[1].name.lower()}"


def _check_boolean(a: ShapeArrays, b: ShapeArrays) -> None:
    truth, near = oracle(a, b, EPS)
    got = intersects_batch(a, b)
    keep = ~near
    wrong = np.flatnonzero(keep & (got != truth))
    assert wrong.size == 0, f"{wrong.size} disagreements with shapely, first rows {wrong[:5]}"
    # The comparison means something only if both answers occur often.
    assert truth[keep].mean() > 0.05
    assert (~truth[keep]).mean() > 0.05


def _check_depth(a: ShapeArrays, b: ShapeArrays, result: BatchContacts) -> None:
    """Moving B by depth along the normal leaves the pair exactly touching."""
    rows = np.flatnonzero(result.hit)
    a_hit = take(a, rows)
    b_hit = take(b, rows)
    normal = result.normal[rows]
    depth = result.depth[rows]
    np.testing.assert_allclose(np.hypot(*normal.T), 1.0, rtol=0, atol=1e-12)
    assert (depth >= 0.0).all()
    beyond = translated(b_hit, normal * (depth * (1 + 1e-6) + 1e-9)[:, None])
    truth_beyond, _ = oracle(a_hit, beyond, 0.0)
    assert not truth_beyond.any(), f"rows {rows[truth_beyond][:5]} still touch past the depth"
    deep = depth > 1e-4
    deep_rows = np.flatnonzero(deep)
    offset = (normal * (depth * (1 - 1e-6))[:, None])[deep]
    truth_short, _ = oracle(take(a_hit, deep_rows), translated(take(b_hit, deep_rows), offset), 0.0)
    assert truth_short.all(), f"rows {rows[deep][~truth_short][:5]} separate before the depth"


def _check_scalar_equals_batch(sa: Side, sb: Side, result: BatchContacts, rows: int) -> None:
    shapes_a, poses_a, _ = sa
    shapes_b, poses_b, _ = sb
    for i in range(rows):
        hit = intersects(shapes_a[i], poses_a[i], shapes_b[i], poses_b[i])
        got = contact(shapes_a[i], poses_a[i], shapes_b[i], poses_b[i])
        assert hit == bool(result.hit[i]) == (got is not None), i
        if got is not None:
            assert got.normal == tuple(result.normal[i]), i
            assert got.depth == result.depth[i], i
            assert got.point == tuple(result.point[i]), i


def _run(pair: tuple[ShapeKind, ShapeKind], n: int, seed: int, scalar_rows: int) -> None:
    sa, sb = _cases(pair[0], pair[1], n, seed)
    a, b = sa[2], sb[2]
    _check_boolean(a, b)
    result = contact_batch(a, b)
    assert (result.hit == intersects_batch(a, b)).all()
    _check_depth(a, b, result)
    _check_scalar_equals_batch(sa, sb, result, scalar_rows)
    # The reversed order is the same contact seen from the other side.
    reverse = contact_batch(b, a)
    assert (reverse.hit == result.hit).all()
    # Two identical shapes at one place (here: coincident points) have no direction
    # to tell A from B; both orders report the fixed fallback normal.
    same = np.zeros(len(result.hit), dtype=bool)
    if type(a) is type(b):
        rows = [(fa == fb).reshape(len(same), -1).all(axis=1) for fa, fb in zip(a, b, strict=True)]
        same = np.all(rows, axis=0)
    assert (reverse.normal[~same] == -result.normal[~same]).all()
    assert (reverse.depth == result.depth).all()
    assert (reverse.point == result.point).all()
    _check_scalar_equals_batch(sb, sa, reverse, scalar_rows // 4)


@pytest.mark.parametrize("pair", CANONICAL_PAIRS, ids=_ids)
def test_agrees_with_shapely(pair: tuple[ShapeKind, ShapeKind]) -> None:
    _run(pair, FAST_CASES, seed=2026, scalar_rows=200)


@pytest.mark.slow
@pytest.mark.parametrize("pair", CANONICAL_PAIRS, ids=_ids)
def test_agrees_with_shapely_many(pair: tuple[ShapeKind, ShapeKind]) -> None:
    _run(pair, SLOW_CASES, seed=7, scalar_rows=4000)

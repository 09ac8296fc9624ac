"""Position, Velocity and Shape: validation, pooled storage, copying."""

from __future__ import annotations

import copy
import gc
import pickle

import numpy as np
import pytest

from arcade_collide.ecs.components import ALL_LAYERS, Position, Shape, Velocity
from arcade_collide.ecs.storage import RowPool
from arcade_collide.ecs.world_state import world_pools
from arcade_collide.geometry.shapes import Circle, Rect


def test_position_reads_and_writes_its_row() -> None:
    p = Position(1, 2, angle=30)
    assert (p.x, p.y, p.angle) == (1.0, 2.0, 30.0)
    p.x, p.y, p.angle = 5, -6, 90
    assert world_pools().positions.data[p.pool_row].tolist() == [5.0, -6.0, 90.0]


@pytest.mark.parametrize("attr", ["x", "y", "angle"])
@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_position_rejects_non_finite_naming_the_attribute(attr: str, bad: float) -> None:
    p = Position(0, 0)
    with pytest.raises(ValueError, match=rf"Position\.{attr} must be finite"):
        setattr(p, attr, bad)
    assert getattr(p, attr) == 0.0
    kwargs = {"x": 0.0, "y": 0.0, "angle": 0.0, attr: bad}
    with pytest.raises(ValueError, match=rf"Position\.{attr}"):
        Position(**kwargs)


@pytest.mark.parametrize("attr", ["x", "y", "angular"])
def test_velocity_rejects_non_finite_naming_the_attribute(attr: str) -> None:
    v = Velocity(1, 2, angular=3)
    with pytest.raises(ValueError, match=rf"Velocity\.{attr} must be finite"):
        setattr(v, attr, float("nan"))
    assert (v.x, v.y, v.angular) == (1.0, 2.0, 3.0)


def test_non_numbers_are_type_errors() -> None:
    with pytest.raises(TypeError, match=r"Position\.x"):
        Position("1", 0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"Velocity\.y"):
        Velocity(0, None)  # type: ignore[arg-type]


def test_rows_are_released_and_reused() -> None:
    pos_pool = world_pools().positions
    p = Position(1, 1)
    row = p.pool_row
    assert row not in pos_pool._free
    del p
    gc.collect()
    assert row in pos_pool._free
    # Whatever row it gets, a new component starts from its own values.
    rows = [Position(2, 2) for _ in range(len(pos_pool._free) + 1)]
    assert any(q.pool_row == row for q in rows)
    assert all((q.x, q.y, q.angle) == (2.0, 2.0, 0.0) for q in rows)


def test_pool_grows_and_keeps_values() -> None:
    pool = RowPool(3, capacity=2)
    rows = [pool.allocate() for _ in range(5)]
    for k, row in enumerate(rows):
        pool.data[row] = (k, k, k)
    assert len(pool.data) >= 5
    assert [pool.data[r, 0] for r in rows] == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert pool.live == 5


def test_copies_get_their_own_rows() -> None:
    p = Position(3, 4, angle=5)
    for other in (copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert other.pool_row != p.pool_row
        assert (other.x, other.y, other.angle) == (3.0, 4.0, 5.0)
        other.x = 100
        assert p.x == 3.0
    v = Velocity(1, 2, 3)
    w = copy.copy(v)
    w.x = 9
    assert (v.x, w.x) == (1.0, 9.0)


def test_shape_validates_its_geometry_and_masks() -> None:
    s = Shape(Circle(3))
    assert (s.layer, s.mask, s.sensor) == (1, ALL_LAYERS, False)
    with pytest.raises(TypeError, match="Shape geometry must be"):
        Shape((1, 2))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Shape geometry must be"):
        s.geometry = "circle"  # type: ignore[assignment]
    assert s.geometry == Circle(3)
    with pytest.raises(ValueError, match="layer"):
        Shape(Circle(1), layer=-1)
    with pytest.raises(ValueError, match="mask"):
        Shape(Circle(1), mask=1 << 32)
    with pytest.raises(TypeError, match="mask"):
        Shape(Circle(1), mask=1.5)  # type: ignore[arg-type]
    s.geometry = Rect(2, 3)
    s.sensor = True
    assert s.geometry == Rect(2, 3) and s.sensor


def test_numpy_integers_are_layer_bits_stored_as_ints() -> None:
    s = Shape(Circle(1), layer=np.int64(2), mask=np.uint32(ALL_LAYERS))
    assert (s.layer, s.mask) == (2, ALL_LAYERS)
    assert type(s.layer) is int and type(s.mask) is int
    with pytest.raises(TypeError, match="layer"):
        Shape(Circle(1), layer=np.float64(2))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="layer"):
        Shape(Circle(1), layer=np.bool_(True))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ((1, 2.5, -3), [1.0, 2.5, -3.0]),
        ((1e308, 1e308, 1e308), [1e308, 1e308, 1e308]),  # each finite, their sum is not
        ((2**1023, -(2**1023), 0), [2.0**1023, -(2.0**1023), 0.0]),
        ((np.float32(1.5), np.int64(2), 0.25), [1.5, 2.0, 0.25]),
    ],
)
def test_values_are_stored_as_finite_floats_by_every_path(
    values: tuple[float, float, float], expected: list[float]
) -> None:
    for kind in (Position, Velocity):
        component = kind(*values)
        assert component._pool.data[component.pool_row].tolist() == expected


@pytest.mark.parametrize(
    ("values", "error", "message"),
    [
        ((1.0, float("nan"), float("inf")), ValueError, r"\.y must be finite, got nan"),
        ((10**400, 0, 0), ValueError, r"\.x must be finite, got int too large"),
        ((0.0, 0.0, True), TypeError, r"\.\w+ must be a real number, got bool"),
        ((float("-inf"), 0, 0), ValueError, r"\.x must be finite, got -inf"),
    ],
)
def test_the_first_bad_value_is_named_whatever_the_others(
    values: tuple[float, float, float], error: type[Exception], message: str
) -> None:
    for kind in (Position, Velocity):
        with pytest.raises(error, match=kind.__name__ + message):
            kind(*values)


@pytest.mark.parametrize(
    ("layer", "mask", "error", "message"),
    [
        (-1, 1, ValueError, "layer must be a 32-bit mask"),
        (1, ALL_LAYERS + 1, ValueError, "mask must be a 32-bit mask"),
        (True, 1, TypeError, "layer must be an int bitmask, got bool"),
        (1, 2.0, TypeError, "mask must be an int bitmask, got float"),
    ],
)
def test_shape_masks_out_of_range_are_refused(
    layer: int, mask: int, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        Shape(Circle(1), layer=layer, mask=mask)
    assert Shape(Circle(1), layer=np.uint32(ALL_LAYERS)).layer == ALL_LAYERS

"""Poses: parsing, validation and the clockwise-degrees rotation convention."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.geometry.pose import check_number, check_vec2, parse_pose, rotation, to_world


def test_rotation_is_clockwise_degrees_like_arcade_sprites() -> None:
    # The contract: local (10, 0) at angle 90 lands at (0, -10) relative to the pose.
    assert to_world((10.0, 0.0), 0.0, 0.0, *rotation(90)) == (0.0, -10.0)
    assert to_world((10.0, 0.0), 5.0, 7.0, *rotation(180)) == (-5.0, 7.0)
    assert to_world((0.0, 10.0), 0.0, 0.0, *rotation(90)) == (10.0, 0.0)


@pytest.mark.parametrize("quarter", range(-8, 9))
def test_right_angles_are_exact(quarter: int) -> None:
    cos, sin = rotation(90.0 * quarter)
    assert (cos, sin) == (
        round(math.cos(math.radians(90 * quarter))),
        round(math.sin(math.radians(90 * quarter))),
    )


@given(st.floats(-1e6, 1e6))
@settings(max_examples=200, deadline=None)
def test_rotation_is_a_unit_vector(angle: float) -> None:
    cos, sin = rotation(angle)
    assert math.hypot(cos, sin) == pytest.approx(1.0)


def test_parse_pose_accepts_sequences_and_numpy() -> None:
    assert parse_pose([1, 2]) == (1.0, 2.0, 0.0)
    assert parse_pose(np.array([1.0, 2.0, 45.0])) == (1.0, 2.0, 45.0)
    assert parse_pose((np.float32(1.5), 2, np.int64(3))) == (1.5, 2.0, 3.0)


@pytest.mark.parametrize(
    ("pose", "error", "message"),
    [
        ((1,), ValueError, r"pose must be \(x, y\) or \(x, y, angle\), got 1 values"),
        ((1, 2, 3, 4), ValueError, "got 4 values"),
        ("12", TypeError, "got str"),
        (None, TypeError, "got NoneType"),
        (5, TypeError, "got int"),
        ((float("nan"), 0), ValueError, "pose x must be finite"),
        ((0, float("inf")), ValueError, "pose y must be finite"),
        ((0, 0, float("-inf")), ValueError, "pose angle must be finite"),
        ((0, "a"), TypeError, "pose y must be a real number"),
        ((0, None), TypeError, "pose y must be a real number"),
    ],
)
def test_bad_poses_name_the_argument(pose: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        parse_pose(pose)


def test_check_helpers_name_the_argument() -> None:
    with pytest.raises(TypeError, match="speed must be a real number, got bool"):
        check_number(True, "speed")
    with pytest.raises(TypeError, match=r"a must be a pair of numbers \(x, y\)"):
        check_vec2(3, "a")
    with pytest.raises(ValueError, match=r"a\[1\] must be finite"):
        check_vec2((0, math.nan), "a")


@pytest.mark.parametrize(
    "value",
    [np.float64(2.5), np.float32(2.5), np.float16(2.5), np.int8(2), np.uint64(2),
     np.array(2.5), np.array(2, dtype=np.int16), np.array(2.5, dtype=np.float32)],
    ids=repr,
)
def test_numpy_numbers_and_0d_arrays_are_numbers(value: object) -> None:
    result = check_number(value, "radius")
    assert type(result) is float and result == float(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "got"),
    [
        (np.array([3.0]), "a numpy array of shape (1,)"),
        (np.array([[3]]), "a numpy array of shape (1, 1)"),
        (np.array([]), "a numpy array of shape (0,)"),
        (np.arange(3.0), "a numpy array of shape (3,)"),
        (np.True_, "numpy bool"),
        (np.array(False), "numpy bool"),
        (np.complex128(1), "numpy complex128"),
        (np.array(1 + 0j), "numpy complex128"),
        (np.array("3"), "numpy str32"),
        (np.array(1.0, dtype=object), "numpy object"),
        (np.timedelta64(3, "s"), "numpy timedelta64[s]"),
    ],
    ids=repr,
)
def test_numpy_values_that_are_not_one_number_are_refused_by_name(
    value: object, got: str
) -> None:
    with pytest.raises(TypeError) as raised:
        check_number(value, "radius")
    assert str(raised.value) == f"radius must be a real number, got {got}"


def test_numpy_arrays_inside_points_and_poses_are_refused_by_name() -> None:
    with pytest.raises(TypeError, match=r"^a\[0\] must be a real number, got a numpy array "):
        check_vec2(np.array([[1.0], [2.0]]), "a")
    with pytest.raises(TypeError, match=r"^pose x must be a real number, got a numpy array "):
        parse_pose(np.array([[1.0, 2.0], [3.0, 4.0]]))
    assert check_vec2(np.array([1.0, 2.0]), "a") == (1.0, 2.0)  # a point is a sequence

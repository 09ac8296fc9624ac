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

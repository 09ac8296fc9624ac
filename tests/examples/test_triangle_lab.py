"""The triangle lab, headless: the triangle under the mouse lights up, whatever the method."""

from __future__ import annotations

import arcade
import pytest
from example_loader import load_example

from arcade_collide.arcade import pixel_at

lab_module = load_example("triangle_lab")


@pytest.mark.parametrize("key", range(6))
def test_the_triangle_under_the_mouse_is_highlighted(window: arcade.Window, key: int) -> None:
    target = 13

    def script(lab: lab_module.TriangleLab, tick: int) -> None:
        lab.on_key_press(arcade.key.KEY_1 + key, 0)
        lab.set_mouse(*lab.centroid(target))

    lab, run = lab_module.run_view(lab_module.TriangleLab, 3, window=window, before_tick=script)
    assert lab.method == lab_module.METHODS[key]
    assert [i for i, hit in enumerate(lab.hits) if hit] == [target]
    assert lab.agree
    assert run.image is not None
    for index in (target, target + 1):
        # Off the centroid, where the mouse cross is drawn.
        (ax, ay), _, _ = lab.triangles[index]
        cx, cy = lab.centroid(index)
        x, y = cx + 0.3 * (ax - cx), cy + 0.3 * (ay - cy)
        expected = lab_module.HIT if index == target else lab_module.BASE
        assert pixel_at(run.image, x, y) == expected


def test_a_vertex_counts_as_inside_and_empty_space_as_outside(window: arcade.Window) -> None:
    def script(lab: lab_module.TriangleLab, tick: int) -> None:
        lab.set_mouse(*(lab.triangles[5][1] if tick == 0 else (1.0, 599.0)))

    lab, _ = lab_module.run_view(lab_module.TriangleLab, 1, window=window, before_tick=script)
    assert lab.hits[5] and lab.agree
    lab, _ = lab_module.run_view(lab_module.TriangleLab, 2, window=window, before_tick=script)
    assert not any(lab.hits)
    with pytest.raises(ValueError, match="method"):
        lab.select_method("guess")


def test_run_headless_sweeps_every_method(window: arcade.Window) -> None:
    lab, run = lab_module.run_headless(1.0, window=window)
    assert all(us > 0.0 for us in lab.micros.values())
    assert lab.agree and run.ticks == 60

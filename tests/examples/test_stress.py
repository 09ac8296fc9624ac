"""The stress scene, headless: events keep the highlight in step with the world's contacts."""

from __future__ import annotations

import arcade
from example_loader import load_example

from arcade_collide.arcade import pixel_at

stress = load_example("stress")


def test_highlights_follow_the_contacts_and_sprites_stay_on_screen(window: arcade.Window) -> None:
    scene, run = stress.run_headless(2.0, count=600, window=window)
    assert scene.events > 0 and scene.step_ms > 0.0
    touching = {s for a, b, _ in scene.world.contacts() for s in (a, b)}
    assert set(scene.touching) == touching
    for sprite in scene.sprites:
        assert sprite.color[:3] == (stress.TOUCHING if sprite in touching else stress.IDLE)
    xy, _ = scene.world.poses()
    assert (xy[:, 0] > -20).all() and (xy[:, 0] < stress.WIDTH + 20).all()
    assert (xy[:, 1] > -20).all() and (xy[:, 1] < stress.HEIGHT + 20).all()
    # A shape with nothing near it is drawn, in its colour, where the world put it.
    assert run.image is not None
    alone = 0
    for row in range(len(xy)):
        near = ((xy - xy[row]) ** 2).sum(axis=1) < 20.0**2
        x, y = xy[row]
        if near.sum() == 1 and 0 < x < stress.WIDTH and 0 < y < stress.HEIGHT - 30:
            assert pixel_at(run.image, x, y) == stress.IDLE
            alone += 1
    assert alone >= 5


def test_an_empty_scene_runs(window: arcade.Window) -> None:
    scene, run = stress.run_headless(0.1, count=0, window=window)
    assert run.ticks == 6 and scene.events == 0

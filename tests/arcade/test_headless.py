"""HeadlessRun.save_image: the screenshot step the examples share."""

from __future__ import annotations

from pathlib import Path

import PIL.Image

from arcade_collide.arcade.headless import HeadlessRun


def run_with(image: PIL.Image.Image | None) -> HeadlessRun:
    return HeadlessRun(ticks=1, game_seconds=1 / 60, update_ms=0.0, draw_ms=0.0, image=image)


def test_save_image_creates_the_folder(tmp_path: Path) -> None:
    target = tmp_path / "new" / "shot.png"
    run_with(PIL.Image.new("RGBA", (3, 2), (255, 0, 0, 255))).save_image(target)
    with PIL.Image.open(target) as saved:
        assert saved.size == (3, 2)
        assert saved.getpixel((1, 1))[:3] == (255, 0, 0)


def test_no_image_writes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "none" / "shot.png"
    run_with(None).save_image(target)
    assert not target.exists()
    assert not target.parent.exists()

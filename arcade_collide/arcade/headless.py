"""Drive an :class:`arcade.View` tick by tick without an event loop.

The loop calls ``on_fixed_update``, ``on_update``, then ``on_draw``, as Arcade's own
loop does, and never ``arcade.run()`` or ``arcade.exit()`` (which does not return
headless). With ``ARCADE_HEADLESS=1`` Arcade renders off-screen through EGL.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import arcade
import PIL.Image

ViewT = TypeVar("ViewT", bound=arcade.View)


@dataclass(frozen=True)
class HeadlessRun:
    """What :func:`run_view` measured.

    >>> class Blue(arcade.View):
    ...     def on_draw(self) -> None:
    ...         self.clear(color=(0, 0, 255))
    >>> _, run = run_view(Blue, 30, size=(64, 48))
    >>> run.ticks, round(run.game_seconds, 6), run.image.size
    (30, 0.5, (64, 48))
    """

    ticks: int
    """Fixed-update ticks run."""
    game_seconds: float
    """Simulated time: ``ticks * delta_time``."""
    update_ms: float
    """Mean wall time of one ``on_fixed_update`` + ``on_update``, milliseconds."""
    draw_ms: float
    """Mean wall time of one ``on_draw``, milliseconds (0 when nothing was drawn)."""
    image: PIL.Image.Image | None
    """The last frame, read back with :func:`arcade.get_image` (``None`` if not asked for)."""

    def save_image(self, path: str | Path) -> None:
        """Write :attr:`image` to ``path`` (creating its folder); nothing if there is none."""
        if self.image is not None:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self.image.save(path)


def run_view(
    make_view: Callable[[], ViewT],
    ticks: int,
    *,
    window: arcade.Window | None = None,
    size: tuple[int, int] = (800, 600),
    title: str = "arcade_collide",
    delta_time: float = 1.0 / 60.0,
    draw_every: int = 1,
    before_tick: Callable[[ViewT, int], object] | None = None,
    capture: bool = True,
) -> tuple[ViewT, HeadlessRun]:
    """Run a view for ``ticks`` fixed ticks; return it with timings and the last frame.

    Args:
        make_view: Builds the view once the window exists (Arcade views need
            one); it is shown in the window, then driven.
        ticks: Number of fixed-update ticks (>= 1).
        window: A window to reuse (left open). By default one of ``size`` is
            created and closed before returning.
        size: Size of the window created when ``window`` is None.
        title: Its title.
        delta_time: Seconds per tick.
        draw_every: Draw every this many ticks (the last tick is always drawn).
        before_tick: ``fn(view, tick)`` called before each tick (scripted input).
        capture: Read the last frame back into :attr:`HeadlessRun.image`.

    Returns:
        The view and the measurements.

    Raises:
        ValueError: ``ticks`` or ``draw_every`` is below 1.

    >>> class Counter(arcade.View):
    ...     def __init__(self) -> None:
    ...         super().__init__()
    ...         self.updates = 0
    ...     def on_fixed_update(self, delta_time: float) -> None:
    ...         self.updates += 1
    >>> view, run = run_view(Counter, 10, size=(64, 48), capture=False)
    >>> view.updates, run.ticks, run.image
    (10, 10, None)
    """
    if ticks < 1:
        raise ValueError(f"ticks must be >= 1, got {ticks}")
    if draw_every < 1:
        raise ValueError(f"draw_every must be >= 1, got {draw_every}")
    own_window = window is None
    window = arcade.Window(size[0], size[1], title) if window is None else window
    try:
        view = make_view()
        window.show_view(view)
        update_time = 0.0
        draw_time = 0.0
        draws = 0
        for tick in range(ticks):
            if before_tick is not None:
                before_tick(view, tick)
            started = time.perf_counter()
            view.on_fixed_update(delta_time)
            view.on_update(delta_time)
            update_time += time.perf_counter() - started
            if (tick + 1) % draw_every == 0 or tick == ticks - 1:
                started = time.perf_counter()
                view.on_draw()
                draw_time += time.perf_counter() - started
                draws += 1
        image = arcade.get_image() if capture else None
        return view, HeadlessRun(
            ticks=ticks,
            game_seconds=ticks * delta_time,
            update_ms=update_time * 1000.0 / ticks,
            draw_ms=draw_time * 1000.0 / draws,
            image=image,
        )
    finally:
        if own_window:
            window.close()


def pixel_at(image: PIL.Image.Image, x: float, y: float) -> tuple[int, int, int]:
    """The RGB colour of ``image`` at Arcade coordinates ``(x, y)`` (origin bottom-left).

    :func:`arcade.get_image` returns a top-down image, so rows are flipped here.

    Args:
        image: A frame from :func:`arcade.get_image`.
        x: Window x, pixels from the left.
        y: Window y, pixels from the bottom.

    Raises:
        ValueError: the point is outside the image.

    >>> class Half(arcade.View):  # red bottom half, blue top half
    ...     def on_draw(self) -> None:
    ...         self.clear(color=(0, 0, 255))
    ...         arcade.draw_lrbt_rectangle_filled(0, 64, 0, 24, (255, 0, 0))
    >>> _, run = run_view(Half, 1, size=(64, 48))
    >>> pixel_at(run.image, 10, 5), pixel_at(run.image, 10, 40)
    ((255, 0, 0), (0, 0, 255))
    >>> pixel_at(run.image, 10, 48)
    Traceback (most recent call last):
    ...
    ValueError: (10, 48) is outside the 64x48 image
    """
    column, row = math.floor(x), image.height - 1 - math.floor(y)
    if not (0 <= column < image.width and 0 <= row < image.height):
        raise ValueError(f"({x}, {y}) is outside the {image.width}x{image.height} image")
    pixel = image.getpixel((column, row))
    if not isinstance(pixel, tuple):
        raise ValueError("image must have colour channels")
    return (int(pixel[0]), int(pixel[1]), int(pixel[2]))

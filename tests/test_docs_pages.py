"""The documentation's code blocks run as printed.

Every fenced block opened with exactly ```` ```python ```` in a page under ``docs/`` is
run; the blocks of one page run in order in one fresh interpreter, as a reader would
type them in one session. A block shown but not run (a fragment, a diff against an
Arcade game) is written as a ```` ```{code-block} python ```` directive instead.
``arcade.run()`` plays :data:`TICKS` fixed updates and one frame headless, then closes
the window, so a page can end with the game it built.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
TICKS = 120

# Replaces arcade.run(): the shown view's (or the window's) updates and one draw, then
# close the window.
DRIVER = f"""
import arcade

def _run(*args, **kwargs):
    window = arcade.get_window()
    game = window.current_view or window
    for _ in range({TICKS}):
        game.on_fixed_update(1 / 60)
        game.on_update(1 / 60)
    game.on_draw()
    window.close()

arcade.run = _run
"""

_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def pages() -> list[Path]:
    """Every Markdown page with at least one runnable block."""
    found = [
        page
        for page in sorted(DOCS.rglob("*.md"))
        if "_build" not in page.parts and _BLOCK.search(page.read_text())
    ]
    return found


def program(page: Path) -> str:
    """The page's runnable blocks, in order, behind the driver."""
    blocks = _BLOCK.findall(page.read_text())
    return DRIVER + "\n".join(f"# --- block {i + 1}\n{block}" for i, block in enumerate(blocks))


def test_the_guide_has_runnable_pages() -> None:
    guide = [page for page in pages() if page.parent.name == "guide"]
    assert len(guide) >= 8, [page.name for page in guide]


@pytest.mark.parametrize("page", pages(), ids=lambda page: str(page.relative_to(DOCS)))
def test_page_blocks_run(page: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", program(page)],
        capture_output=True,
        text=True,
        check=False,
        cwd=DOCS.parent,
        env={**os.environ, "ARCADE_HEADLESS": "1"},
        timeout=300,
    )
    assert done.returncode == 0, f"{page}:\n{done.stderr[-4000:]}"

"""Import the example scripts (``examples/<name>.py``, not a package) as modules.

``ARCADE_HEADLESS`` is set before Arcade is first imported, so windows render
off-screen through EGL.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

os.environ.setdefault("ARCADE_HEADLESS", "1")

import arcade

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load_example(name: str) -> ModuleType:
    """Import ``examples/<name>.py`` as module ``<name>`` (once)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load example {name!r}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def example_window() -> Iterator[arcade.Window]:
    """Yield an 800 x 600 window (the examples' size), closed afterwards.

    Arcade allows one window per process at a time, so each test module opens its
    own through a module-scoped fixture built on this generator.
    """
    window = arcade.Window(800, 600, "arcade_collide examples")
    try:
        yield window
    finally:
        window.close()

"""Arcade must be imported in headless mode (EGL, no display) for windows to open in CI.

The flag is read when Arcade is first imported, so it is set here, before any
test module of this package imports arcade.
"""

import os

os.environ.setdefault("ARCADE_HEADLESS", "1")

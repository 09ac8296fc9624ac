"""RowPool, the numpy storage behind Position and Velocity."""

from __future__ import annotations

import subprocess
import sys

# Components still alive at interpreter exit give their rows back from ``__del__``.
# Here the script's globals stay reachable from the storage module, so the
# components outlive the clearing of module globals (heapq's among them).
_LATE_EXIT = """
import esper
from arcade_collide import Circle, Position, Shape, Velocity
import arcade_collide.ecs.storage as storage

def hook() -> None:
    pass

storage.hook = hook
for k in range(50):
    esper.create_entity(Position(k, 0), Velocity(1, 0), Shape(Circle(2)))
"""


def test_components_alive_at_interpreter_exit_release_their_rows_quietly() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _LATE_EXIT], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0
    assert done.stderr == ""


def test_single_rows_and_arrays_are_logged_apart_until_the_limit() -> None:
    import numpy as np

    from arcade_collide.ecs.storage import _LOG_LIMIT, RowPool

    pool = RowPool(3)
    pool.touch(4)
    pool.touch(np.array([1, 2]))
    assert pool.written_singles.tolist() == [4]
    assert [rows.tolist() for rows in pool.written or []] == [[1, 2]]
    pool.clear_log()
    for row in range(_LOG_LIMIT + 1):
        pool.touch(row)
    assert pool.written is None  # too many to list: the table places every row
    pool.clear_log()
    pool.touch(None)
    assert pool.written is None

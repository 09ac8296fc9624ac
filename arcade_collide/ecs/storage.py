"""Shared numpy storage behind the Position and Velocity components.

Each component type keeps its numbers in one module-level :class:`RowPool`: a
growable ``float64`` table, one row per live component object. A component object
only remembers its row, and its ``x``/``y``/``angle`` properties read and write the
table. Game code therefore works with ordinary objects, while the systems update
every entity at once with whole-array numpy operations: no per-entity Python work,
no copying of component objects into arrays and back each tick.

Rows are released when the component object is garbage collected, and reused.
The table may be reallocated when it grows, so systems must read :attr:`RowPool.data`
afresh at each tick and never keep it across ticks.

This module never imports esper or arcade.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray


class RowPool:
    """A growable table of float rows with a free list.

    Args:
        width: Numbers per row.
        capacity: Initial number of rows.

    >>> pool = RowPool(2, capacity=1)
    >>> a, b = pool.allocate(), pool.allocate()  # grows past the initial capacity
    >>> pool.data[b] = (3.0, 4.0)
    >>> pool.release(a)
    >>> pool.allocate() == a                     # released rows are reused
    True
    """

    def __init__(self, width: int, capacity: int = 1024) -> None:
        if width < 1 or capacity < 1:
            raise ValueError("width and capacity must be >= 1")
        self.data: NDArray[np.float64] = np.zeros((capacity, width), dtype=np.float64)
        """The table, ``(capacity, width)``; replaced by a larger copy when it grows."""
        # Handed out from the end, so the lowest rows go first: entities created
        # together get consecutive rows, which lets systems use slices.
        self._free: list[int] = list(range(capacity - 1, -1, -1))
        self.version = 0
        """Bumped whenever a row is written through a component object; systems that
        write :attr:`data` directly bump it too (see :meth:`touch`)."""

    def allocate(self) -> int:
        """Reserve a row (zeroed) and return its index."""
        if not self._free:
            old = len(self.data)
            grown = np.zeros((old * 2, self.data.shape[1]), dtype=np.float64)
            grown[:old] = self.data
            self.data = grown
            self._free = list(range(old * 2 - 1, old - 1, -1))
        row = self._free.pop()
        self.data[row] = 0.0
        return row

    def release(self, row: int) -> None:
        """Give a row back for reuse."""
        self._free.append(row)

    def touch(self) -> None:
        """Record that rows were written (systems compare :attr:`version` to skip work)."""
        self.version += 1

    @property
    def live(self) -> int:
        """Number of rows in use."""
        return len(self.data) - len(self._free)


POSITIONS = RowPool(3)
"""Rows ``(x, y, angle)`` of every :class:`~arcade_collide.ecs.components.Position`."""

VELOCITIES = RowPool(3)
"""Rows ``(x, y, angular)`` of every :class:`~arcade_collide.ecs.components.Velocity`."""


def tune_allocator() -> bool:
    """Ask glibc's allocator to keep freed memory for reuse (opt-in, process-wide).

    A tick allocates and frees numpy temporaries of a few hundred kilobytes each.
    With glibc's default settings the freed heap is handed back to the system at
    once, and the next tick pays a page fault for every 4 KiB page it touches again:
    on a virtual machine that is about 2 microseconds per page, a quarter of the tick
    time at 20,000 shapes (measured with ``getrusage`` minor-fault counts, see
    ``benchmarks/bench_world.py --tune-allocator``). This raises glibc's trim and mmap
    thresholds so the memory stays in the process instead; the process then keeps its
    peak heap size. Nothing happens on other platforms or C libraries.

    Returns:
        True if the settings were applied.
    """
    import ctypes
    import ctypes.util
    import sys

    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3  # from glibc's <malloc.h>
    mmap_ok = int(mallopt(m_mmap_threshold, 64 * 1024 * 1024)) == 1
    trim_ok = int(mallopt(m_trim_threshold, 256 * 1024 * 1024)) == 1
    return mmap_ok and trim_ok

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

import heapq

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
    >>> for row in (b, a):                       # released in any order...
    ...     pool.release(row)
    >>> [pool.allocate(), pool.allocate()]       # ...the lowest row comes back first
    [0, 1]
    """

    def __init__(self, width: int, capacity: int = 1024) -> None:
        if width < 1 or capacity < 1:
            raise ValueError("width and capacity must be >= 1")
        self.data: NDArray[np.float64] = np.zeros((capacity, width), dtype=np.float64)
        """The table, ``(capacity, width)``; replaced by a larger copy when it grows."""
        # A min-heap: the lowest free row goes first, also after releases (a deleted
        # level's rows come back in garbage-collection order). Entities created
        # together then get consecutive rows whenever consecutive rows are free,
        # which lets systems use slices instead of gathers.
        self._free: list[int] = list(range(capacity))
        # Held by the pool: rows are released from component finalizers, which may run
        # at interpreter exit after this module's globals (and heapq's) were cleared.
        self._push = heapq.heappush
        self._pop = heapq.heappop
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
            self._free = list(range(old, old * 2))  # ascending: already a heap
        row = self._pop(self._free)
        self.data[row] = 0.0
        return row

    def release(self, row: int) -> None:
        """Give a row back for reuse."""
        self._push(self._free, row)

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


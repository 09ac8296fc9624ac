"""numpy row pools behind the Position and Velocity components.

A component object holds one row of a :class:`RowPool` of the world current when it
was made (:func:`~arcade_collide.ecs.world_state.world_pools`) until it is garbage
collected; systems read and write all rows at once (:class:`PooledRows`). The table
is replaced when it grows, so read :attr:`RowPool.data` afresh each tick.
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Sequence
from operator import attrgetter
from typing import Any

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]


_LOG_LIMIT = 4096
"""Entries :attr:`RowPool.written` and :attr:`RowPool.written_singles` each keep before
the pool stops listing rows (a world whose table never looks would otherwise grow them
without bound)."""


class RowPool:
    """A growable table of float rows with a free list.

    Args:
        width: Numbers per row.
        capacity: Initial number of rows.
        logged: Whether :attr:`written` lists the rows written; False for a pool
            whose log nobody reads (it then stays None).

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

    def __init__(self, width: int, capacity: int = 1024, *, logged: bool = True) -> None:
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
        """Bumped whenever rows are written (see :meth:`touch`)."""
        self.written: list[IntArray] | None = [] if logged else None
        """The arrays of rows written since the world's shape table last looked, or
        None when some writes did not say which rows (then :attr:`written_singles`
        means nothing)."""
        self.written_singles: array[int] = array("q")
        """The single rows written since then (component setters write one row at a
        time). A machine-integer array: numpy reads it in one copy, where a list of
        ints is converted one by one."""

    def allocate(self, values: Sequence[float] | None = None) -> int:
        """Reserve a row, holding ``values`` (default: zeros), and return its index."""
        if not self._free:
            old = len(self.data)
            grown = np.zeros((old * 2, self.data.shape[1]), dtype=np.float64)
            grown[:old] = self.data
            self.data = grown
            self._free = list(range(old, old * 2))  # ascending: already a heap
        row = self._pop(self._free)
        self.data[row] = 0.0 if values is None else values
        return row

    def release(self, row: int) -> None:
        """Give a row back for reuse."""
        self._push(self._free, row)

    def touch(self, rows: int | IntArray | None = None) -> None:
        """Record that ``rows`` were written (None: rows not said, maybe all).

        Every writer calls it: component setters, systems writing :attr:`data` in bulk.
        Systems compare :attr:`version` to skip work; the shape table reads
        :attr:`written` to re-place only what moved.
        """
        self.version += 1
        log = self.written
        if log is None:
            return
        if type(rows) is int:
            singles = self.written_singles
            if len(singles) < _LOG_LIMIT:
                singles.append(rows)
                return
        elif rows is not None and len(log) < _LOG_LIMIT:
            log.append(rows)  # type: ignore[arg-type]  # (an int is logged above)
            return
        self.written = None

    def clear_log(self) -> None:
        """Start listing written rows afresh (the shape table has read them)."""
        self.written = []
        self.written_singles = array("q")

    @property
    def live(self) -> int:
        """Number of rows in use."""
        return len(self.data) - len(self._free)


_ROW = attrgetter("_row")
_POOL = attrgetter("_pool")


class PooledRows:
    """The rows of a list of component objects, read and written as one ``(N, width)`` array.

    The objects usually share one pool, and are then read through a slice when their
    rows are consecutive (objects created together), else through one gather; objects
    from several pools (made while another world was current) are gathered per pool.

    Args:
        handles: Component objects with a ``_pool`` and a ``_row``.

    >>> pool = RowPool(2)
    >>> class Handle:
    ...     def __init__(self, pool: RowPool) -> None:
    ...         self._pool, self._row = pool, pool.allocate()
    >>> rows = PooledRows([Handle(pool), Handle(pool)])
    >>> rows.write(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> rows.read().tolist(), rows.unchanged_since(rows.stamp())
    ([[1.0, 2.0], [3.0, 4.0]], True)
    """

    def __init__(self, handles: Sequence[Any]) -> None:
        self.size = len(handles)
        self.rows: IntArray = np.fromiter(
            map(_ROW, handles), dtype=np.int64, count=len(handles)
        )
        """Each handle's row in its pool."""
        pools = dict.fromkeys(map(_POOL, handles))  # in C: one pool is the usual case
        if len(pools) == 1:
            (pool,) = pools
            self._groups: list[tuple[RowPool, IntArray | None, IntArray | slice]] = [
                (pool, None, as_slice(self.rows))
            ]
            self.pools: tuple[RowPool, ...] = (pool,)
            return
        groups: dict[int, tuple[RowPool, list[int], list[int]]] = {}
        for k, handle in enumerate(handles):
            pool = handle._pool
            group = groups.get(id(pool))
            if group is None:
                group = groups[id(pool)] = (pool, [], [])
            group[1].append(k)
            group[2].append(handle._row)
        self._groups = [
            (pool, np.array(at, dtype=np.intp), as_slice(np.array(rows, dtype=np.intp)))
            for pool, at, rows in groups.values()
        ]
        self.pools = tuple(group[0] for group in self._groups)
        """The pools the rows live in."""

    @classmethod
    def in_pool(cls, pool: RowPool, rows: IntArray) -> PooledRows:
        """The rows ``rows`` of ``pool``, without their handles (their owners keep
        the handles, and so the rows, alive), read and written through the array as
        given: no pass over the rows finds whether they are one run. (A shape table's
        layout reads its poses by its pool rows: its PooledRows gives the pool's stamps.)

        >>> pool = RowPool(3, capacity=8)
        >>> pool.data[2:6, 0] = (1.0, 2.0, 3.0, 4.0)
        >>> PooledRows.in_pool(pool, np.array([5, 2])).read()[:, 0].tolist()
        [4.0, 1.0]
        """
        pooled = cls([])
        pooled.size = len(rows)
        pooled.rows = rows
        pooled._groups = [(pool, None, rows)]
        pooled.pools = (pool,)
        return pooled

    def read(self, width: int = 3) -> FloatArray:
        """The rows, in the order of the handles (a view when it can be one)."""
        if len(self._groups) == 1:
            pool, _, rows = self._groups[0]
            return pool.data[rows] if isinstance(rows, slice) else pool.data.take(rows, axis=0)
        out = np.empty((self.size, width), dtype=np.float64)
        for pool, at, rows in self._groups:
            out[at] = pool.data[rows]
        return out

    def write(self, values: FloatArray) -> None:
        """Store ``values`` (one row per handle) and :meth:`RowPool.touch` the pools."""
        for pool, at, rows in self._groups:
            pool.data[rows] = values if at is None else values[at]
            pool.touch(np.arange(rows.start, rows.stop) if isinstance(rows, slice) else rows)

    def stamp(self) -> tuple[object, ...]:
        """What :meth:`unchanged_since` compares: each pool's table and version."""
        return tuple(x for pool in self.pools for x in (pool.data, pool.version))

    def unchanged_since(self, stamp: tuple[object, ...]) -> bool:
        """True when no pool was written (or grew) since ``stamp`` was taken."""
        if len(self.pools) == 1 and len(stamp) == 2:
            pool = self.pools[0]
            return stamp[0] is pool.data and stamp[1] == pool.version
        return len(stamp) == 2 * len(self.pools) and all(
            data is pool.data and version == pool.version
            for pool, data, version in zip(self.pools, stamp[::2], stamp[1::2], strict=True)
        )


def as_slice(rows: IntArray) -> IntArray | slice:
    """A slice when the rows are consecutive and ascending, else the rows: slices read
    and write blocks without a gather.

    >>> as_slice(np.array([3, 4, 5]))
    slice(3, 6, None)
    >>> as_slice(np.array([3, 5])).tolist()
    [3, 5]
    """
    n = len(rows)
    if not n:
        return rows
    first = int(rows[0])
    # Two samples turn down most shuffled rows (those of a layout whose rows were
    # reused) before the whole check.
    if int(rows[-1]) - first != n - 1 or int(rows[n // 2]) - first != n // 2:
        return rows
    if (np.diff(rows) == 1).all():
        return slice(first, first + n)
    return rows


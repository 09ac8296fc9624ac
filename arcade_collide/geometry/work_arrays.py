"""Work arrays kept from call to call, for the per-tick code.

A temporary above about 128 kB comes from the C allocator as freshly mapped memory,
whose pages fault in again on every call once it is freed; a buffer that is kept is
faulted in once.

:class:`WorkArrays` holds named buffers; the broad phase keeps its own. A buffer's
contents are undefined when handed out, and a caller must be done
with it before anything asks for the same name again.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray


class WorkArrays:
    """Named work buffers that grow as needed and are reused.

    >>> work = WorkArrays()
    >>> a = work.get("a", (2, 3))
    >>> a.shape, a.dtype.name
    ((2, 3), 'float64')
    >>> work.get("a", (6,)).base is a.base   # the same memory, reused
    True
    """

    def __init__(self) -> None:
        self._arrays: dict[str, NDArray[Any]] = {}

    def get(self, name: str, shape: tuple[int, ...], dtype: Any = np.float64) -> NDArray[Any]:
        """A C-contiguous ``shape`` view of the buffer ``name`` (contents undefined)."""
        size = shape[0] if len(shape) == 1 else int(np.prod(shape))
        buf = self._arrays.get(name)
        if buf is None or buf.dtype != dtype or buf.size < size:
            # A quarter more than asked, so that slowly growing sizes do not
            # reallocate every call.
            buf = np.empty(max(size, 1024) * 5 // 4, dtype=dtype)
            self._arrays[name] = buf
        return buf[:size] if len(shape) == 1 else buf[:size].reshape(shape)


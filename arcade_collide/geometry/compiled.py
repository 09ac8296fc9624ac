"""Optional compiled kernels: numba, when it is installed.

The library depends only on numpy; ``pip install arcade-collide[fast]`` adds numba,
which compiles the few per-tick loops written for it to machine code: the broad phase
(:mod:`.row_sweep`), the candidate pairs' tests
(:mod:`.query.compiled_pairs`), the contacts of new pairs
(:mod:`.query.compiled_contacts`) and the placing of rotated shapes
(:func:`.arrays.place_vertices`); the ECS layer above uses it too, for its pair
keys. Without numba those loops still import and run as plain Python (the tests run
them that way on small inputs), and the systems use the vectorised numpy paths
instead, which give the same answers more slowly.

Set the environment variable ``ARCADE_COLLIDE_NO_JIT=1`` before the first import to
use the numpy paths even where numba is installed (to compare the two, say).

Kernels are compiled when this package is first imported on a machine (about 20 s
on the project's 2-core machine) and cached next to the sources (numba's
``cache=True``), so later imports load them in about a second.

This module never imports esper or arcade.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

_numba: Any
try:
    import numba as _numba
except ImportError:  # the plain install: numpy paths only
    _numba = None

ENABLED: bool = _numba is not None and os.environ.get("ARCADE_COLLIDE_NO_JIT", "") in ("", "0")
"""True when the compiled kernels are in use (numba importable and not switched off)."""


def kernel(signature: str, *, inline: bool = False) -> Callable[[_F], _F]:
    """Compile a loop function with numba for ``signature`` when :data:`ENABLED`.

    Compiled eagerly (at import, or from numba's on-disk cache), without fast-math, so
    the machine code does the same IEEE operations in the same order as the Python
    source, and with numpy's error model (a division by zero gives an infinity or NaN,
    as in the numpy paths, instead of raising). When not enabled the function is
    returned unchanged.

    ``inline=True`` also inlines the function into compiled callers: a helper that
    takes many arrays would otherwise pay for their reference counting on every call.
    """

    def wrap(func: _F) -> _F:
        if not ENABLED:
            return func
        compiled: _F = _numba.njit(
            signature,
            cache=True,
            nogil=True,
            error_model="numpy",
            inline="always" if inline else "never",
        )(func)
        return compiled

    return wrap

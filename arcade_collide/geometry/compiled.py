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

numba checks a cached kernel against its own source file only. A kernel also
reads constants and inlined kernels of other modules, frozen in when it was
compiled, so an edited constant elsewhere (a git checkout, say) would leave a stale
kernel in use. Before any kernel is compiled or loaded, this module therefore
compares a digest of every source file of the geometry and ECS layers with the one
recorded at the last compilation and, when they differ, deletes the package's numba
cache files (:func:`drop_stale_caches`).

This module never imports esper or arcade.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

_numba: Any
try:
    import numba as _numba
except ImportError:  # the plain install: numpy paths only
    _numba = None

ENABLED: bool = _numba is not None and os.environ.get("ARCADE_COLLIDE_NO_JIT", "") in ("", "0")
"""True when the compiled kernels are in use (numba importable and not switched off)."""

_PACKAGE = Path(__file__).resolve().parent.parent
_LAYERS = ("geometry", "ecs")
"""The package folders whose modules define kernels or what kernels read."""
_STAMP = "kernel-sources.sha256"


def drop_stale_caches(root: Path = _PACKAGE) -> bool:
    """Delete numba's cache files under ``root`` if a source file changed since they
    were written (see the module docstring); return whether any were deleted.

    The digest covers the ``.py`` files of ``root``'s geometry and ECS folders and is
    kept in ``root/__pycache__``. Where that folder cannot be written (a read-only
    install), nothing is done: numba then caches elsewhere, and an install changes
    every source file's time stamp anyway.
    """
    digest = hashlib.sha256()
    for layer in _LAYERS:
        for source in sorted((root / layer).rglob("*.py")):
            digest.update(source.relative_to(root).as_posix().encode())
            digest.update(source.read_bytes())
    stamp = root / "__pycache__" / _STAMP
    try:
        if stamp.read_text() == digest.hexdigest():
            return False
    except OSError:
        pass  # no stamp yet
    stale = [
        path
        for layer in _LAYERS
        for pattern in ("*.nbi", "*.nbc")
        for path in (root / layer).rglob(f"__pycache__/{pattern}")
    ]
    try:
        for path in stale:
            path.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest.hexdigest())
    except OSError:
        return False
    return bool(stale)


if ENABLED:
    drop_stale_caches()


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

"""The numba compilation of every kernel, its on-disk cache and the cache guard, and
the prefetch kernels use for rows spread over large arrays.

Kernels are compiled on a machine's first import and cached next to the sources
(numba's ``cache=True``); one line on standard error says so
(:func:`announce_compilation`).

numba checks a cached kernel against its own source file only, but a kernel also
freezes in constants and kernels of other modules. So before any kernel is loaded,
:func:`drop_stale_caches` compares a digest of every source file of the geometry and
ECS layers with the last compilation's and deletes the cache files when they differ.
Setting the environment variable ``ARCADE_COLLIDE_KEEP_KERNELS=1`` skips that guard
(numba's own per-file check still applies): a developer's shortcut while editing
modules no other kernel reads, never for a test run that counts.
"""

from __future__ import annotations

import hashlib
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO, TypeVar, cast

import numba
from llvmlite import ir
from numba.core import cgutils
from numba.extending import intrinsic

_F = TypeVar("_F", bound=Callable[..., Any])

_PACKAGE = Path(__file__).resolve().parent.parent
_LAYERS = ("geometry", "ecs")
"""The package folders whose modules define kernels or what kernels read."""
_STAMP = "kernel-sources.sha256"

FIRST_COMPILE = "about two minutes"
"""About how long the first import takes to compile every kernel (111 s on a 2-core
machine on 2026-11-29)."""


def _cache_files(root: Path) -> list[Path]:
    return [
        path
        for layer in _LAYERS
        for pattern in ("*.nbi", "*.nbc")
        for path in (root / layer).rglob(f"__pycache__/{pattern}")
    ]


def drop_stale_caches(root: Path = _PACKAGE) -> bool:
    """Delete numba's cache files under ``root`` if a source file changed since they
    were written (see the module docstring); return whether any were deleted.

    The digest covers the ``.py`` files of ``root``'s geometry and ECS folders and is
    kept in ``root/__pycache__``. Where that folder cannot be written (a read-only
    install), nothing is done: numba then caches elsewhere, and an install changes
    every source file's time stamp anyway. ``ARCADE_COLLIDE_KEEP_KERNELS=1`` skips
    the check (see the module docstring).
    """
    if os.environ.get("ARCADE_COLLIDE_KEEP_KERNELS") == "1":
        return False
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
    stale = _cache_files(root)
    try:
        for path in stale:
            path.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest.hexdigest())
    except OSError:
        return False
    return bool(stale)


def announce_compilation(root: Path = _PACKAGE, stream: TextIO | None = None) -> bool:
    """Print one line to ``stream`` (standard error) when no kernel is cached under
    ``root``, so the import about to compile them all does not look hung; return
    whether it did."""
    if any(root.glob("geometry/__pycache__/*.nbi")):
        return False
    print(
        "arcade_collide: compiling the collision kernels once for this machine "
        f"({FIRST_COMPILE}); later imports load them from the cache.",
        file=sys.stderr if stream is None else stream,
        flush=True,
    )
    return True


drop_stale_caches()
announce_compilation()


def kernel(signature: Any, *, inline: bool = False) -> Callable[[_F], _F]:
    """Compile a function with numba for ``signature`` (a string or numba signature).

    Compiled eagerly (at import, or loaded from numba's on-disk cache), without
    fast-math, so the machine code does the IEEE operations of the Python source in
    its order, and with numpy's error model (a division by zero gives an infinity or
    NaN instead of raising).

    ``inline=True`` inlines the function into its compiled callers instead (a call
    that takes many arrays would pay for their reference counting every time); it is
    then compiled only inside them, and on its own only if called from Python.
    ``signature`` still documents its types.
    """

    def wrap(func: _F) -> _F:
        if inline:
            inlined: Any = numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")
            return inlined(func)  # type: ignore[no-any-return]
        compiled: _F = numba.njit(signature, cache=True, nogil=True, error_model="numpy")(func)
        return compiled

    return wrap


def _prefetch(typingctx: Any, array: Any, row: Any) -> Any:
    """The typing and code of :data:`prefetch` (a numba intrinsic)."""
    del typingctx  # (numba's signature)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        array_type = signature.args[0]
        data = context.make_array(array_type)(context, builder, args[0])
        intp = numba.types.intp
        row = context.cast(builder, args[1], signature.args[1], intp)
        index = [row] + [context.get_constant(intp, 0)] * (array_type.ndim - 1)
        pointer = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
            context, builder, array_type, data, index, wraparound=False, boundscheck=False
        )
        byte_pointer = builder.bitcast(pointer, ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        function = builder.module.declare_intrinsic(
            "llvm.prefetch",
            [byte_pointer.type],
            ir.FunctionType(ir.VoidType(), [byte_pointer.type, i32, i32, i32]),
        )
        # A read (0), kept in every cache level (3), of data (1).
        builder.call(function, [byte_pointer, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    if not isinstance(array, numba.types.Array) or not isinstance(row, numba.types.Integer):
        return None  # (numba then reports no matching signature)
    return numba.types.void(array, row), codegen


prefetch = cast(Callable[[Any, Any], None], intrinsic(_prefetch))
"""In a kernel, ``prefetch(array, row)`` asks the processor to start loading the cache
line holding ``array[row]`` (the row's first item: ``array[row, 0]`` of a 2-D array),
and returns at once; ``row`` (any integer type) must be a row of ``array``. A loop of
prefetches ahead of a loop that reads those rows keeps many cache misses in flight,
where the reading loop's branches would wait on them one at a time."""


def bind(template: Callable[..., Any], name: str, signature: Any, **names: Any) -> Any:
    """Compile a copy of ``template`` named ``name`` in which each global name is bound
    as ``names`` gives, inlined into its compiled callers (``kernel(signature,
    inline=True)``).

    numba freezes a global into the machine code, so the copy is what the template's
    source would be with those names written in: the pair modules get their kernels
    this way from one generic body (:mod:`.query.convex`).
    """
    return kernel(signature, inline=True)(_copy(template, name, names))


def specialise(loop: Callable[..., Any], callee: Any, signature: Any, **names: Any) -> Any:
    """Compile one copy of the generic ``loop`` in which the global name ``KERNEL`` is
    ``callee``, a compiled kernel, and each further global name is bound as ``names``
    gives.

    numba freezes a global into the machine code, so each copy calls its kernel
    directly (inlinable), as if written for it. A kernel passed as an argument
    instead would be cached under a key numba cannot find again in the next
    process, or called through a pointer, measured 20 times slower per pair. Each
    copy gets its own name (``<loop>_<callee>``) and so its own cache file.
    """
    name = f"{loop.__name__}_{callee.__name__}"
    return kernel(signature)(_copy(loop, name, {**names, "KERNEL": callee}))


def _copy(template: Callable[..., Any], name: str, names: dict[str, Any]) -> Any:
    """``template`` as a new function ``name`` whose globals are its module's with
    ``names`` bound."""
    copy = types.FunctionType(template.__code__, {**template.__globals__, **names}, name)
    copy.__qualname__ = name
    copy.__module__ = template.__module__
    copy.__doc__ = template.__doc__
    return copy

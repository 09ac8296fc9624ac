"""The numba cache guard (cached kernels go when a source file they may read changes),
the one-line notice before the first compilation, and the kernels' prefetch."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

import arcade_collide
from arcade_collide.geometry.compiled import announce_compilation, drop_stale_caches, prefetch


@pytest.fixture(autouse=True)
def _guard_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests check the guard itself, whatever a developer's shell has set."""
    monkeypatch.delenv("ARCADE_COLLIDE_KEEP_KERNELS", raising=False)


def _tree(root: Path) -> tuple[Path, Path, Path]:
    kernels = root / "geometry" / "query"
    (kernels / "__pycache__").mkdir(parents=True)
    (root / "ecs" / "__pycache__").mkdir(parents=True)
    constants = root / "geometry" / "query" / "circle_outline.py"
    constants.write_text("NEAR_EDGE = 2.0**-44\n")
    (kernels / "circle_polygon.py").write_text("from .circle_outline import NEAR_EDGE\n")
    cached = kernels / "__pycache__" / "circle_polygon.contact_circle_polygon-1.py311.nbi"
    return constants, cached, root / "ecs" / "__pycache__" / "pair_keys.keys-1.py311.1.nbc"


def _cache(*paths: Path) -> None:
    for path in paths:
        path.write_bytes(b"kernel")


def test_cache_files_survive_while_the_sources_are_unchanged(tmp_path: Path) -> None:
    _, index, data = _tree(tmp_path)
    assert not drop_stale_caches(tmp_path)  # first run: nothing cached yet, stamp written
    _cache(index, data)
    assert not drop_stale_caches(tmp_path)
    assert index.exists() and data.exists()


def test_an_edited_constant_in_another_module_drops_every_cached_kernel(tmp_path: Path) -> None:
    constants, index, data = _tree(tmp_path)
    drop_stale_caches(tmp_path)
    _cache(index, data)
    constants.write_text("NEAR_EDGE = 2.0**-33\n")  # the kernel's own file is unchanged
    assert drop_stale_caches(tmp_path)
    assert not index.exists() and not data.exists()
    _cache(index, data)  # compiled again with the new constant
    assert not drop_stale_caches(tmp_path)
    assert index.exists()


def test_the_developer_switch_keeps_the_caches_until_it_is_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    constants, index, data = _tree(tmp_path)
    drop_stale_caches(tmp_path)
    _cache(index, data)
    constants.write_text("NEAR_EDGE = 2.0**-33\n")
    monkeypatch.setenv("ARCADE_COLLIDE_KEEP_KERNELS", "1")
    assert not drop_stale_caches(tmp_path)
    assert index.exists() and data.exists()
    monkeypatch.delenv("ARCADE_COLLIDE_KEEP_KERNELS")
    assert drop_stale_caches(tmp_path)
    assert not index.exists()


def test_files_outside_the_kernel_layers_do_not_count(tmp_path: Path) -> None:
    _, index, _ = _tree(tmp_path)
    bridge = tmp_path / "arcade" / "world.py"
    bridge.parent.mkdir()
    bridge.write_text("x = 1\n")
    drop_stale_caches(tmp_path)
    _cache(index)
    bridge.write_text("x = 2\n")
    assert not drop_stale_caches(tmp_path)
    assert index.exists()


def test_the_notice_is_printed_only_while_nothing_is_cached(tmp_path: Path) -> None:
    (tmp_path / "geometry" / "__pycache__").mkdir(parents=True)
    out = io.StringIO()
    assert announce_compilation(tmp_path, out)
    assert out.getvalue().count("\n") == 1 and "compiling the collision kernels" in out.getvalue()
    (tmp_path / "geometry" / "__pycache__" / "arrays._place_vertices-1.py311.nbi").write_bytes(b"")
    out = io.StringIO()
    assert not announce_compilation(tmp_path, out)
    assert out.getvalue() == ""


@pytest.mark.slow
def test_a_fresh_copy_announces_its_compilation_once(tmp_path: Path) -> None:
    """A copy of the package without caches prints the notice, compiles, and is then
    imported silently from its own cache."""
    package = Path(arcade_collide.__file__).parent
    copy = tmp_path / "arcade_collide"
    subprocess.run(["cp", "-r", str(package), str(copy)], check=True)
    for cached in [*copy.rglob("*.nbi"), *copy.rglob("*.nbc"), *copy.rglob("*.sha256")]:
        cached.unlink()
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = [
        sys.executable,
        "-c",
        "import arcade_collide.geometry.query.rows as r, sys; "
        "assert r.__file__.startswith(sys.argv[1])",
        str(tmp_path),
    ]
    first = subprocess.run(run, env=env, cwd=tmp_path, capture_output=True, text=True, check=True)
    assert first.stderr.count("compiling the collision kernels") == 1
    again = subprocess.run(run, env=env, cwd=tmp_path, capture_output=True, text=True, check=True)
    assert "compiling" not in again.stderr


def test_prefetch_compiles_for_rows_of_any_integer_type_and_changes_nothing() -> None:
    @numba.njit(cache=False)
    def total(boxes: np.ndarray, flags: np.ndarray, rows: np.ndarray) -> float:
        for r in rows:
            prefetch(boxes, r)
            prefetch(flags, r)
        s = 0.0
        for r in rows:
            s += boxes[r, 0] + flags[r]
        return s

    boxes = np.arange(40.0).reshape(10, 4)
    flags = np.arange(10, dtype=np.int8)
    before = boxes.copy(), flags.copy()
    for dtype in (np.int32, np.int64):
        assert total(boxes, flags, np.array([9, 0, 3], dtype=dtype)) == (36 + 9) + 0 + (12 + 3)
    assert np.array_equal(boxes, before[0]) and np.array_equal(flags, before[1])


def test_prefetch_refuses_what_is_not_an_array_row() -> None:
    @numba.njit(cache=False)
    def wrong(value: float, row: int) -> None:
        prefetch(value, row)

    with pytest.raises(numba.core.errors.TypingError):
        wrong(1.0, 0)

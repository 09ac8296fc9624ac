"""The numba cache guard: cached kernels go when a source file they may read changes."""

from __future__ import annotations

from pathlib import Path

from arcade_collide.geometry.compiled import drop_stale_caches


def _tree(root: Path) -> tuple[Path, Path, Path]:
    kernels = root / "geometry" / "query"
    (kernels / "__pycache__").mkdir(parents=True)
    (root / "ecs" / "__pycache__").mkdir(parents=True)
    constants = root / "geometry" / "query" / "_convex.py"
    constants.write_text("NEAR_EDGE = 2.0**-44\n")
    (kernels / "compiled_contacts.py").write_text("from ._convex import NEAR_EDGE\n")
    cached = kernels / "__pycache__" / "compiled_contacts._contact-1.py311.nbi"
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

"""Every public name has an entry in the API reference, and an example.

The public names are ``__all__`` of ``arcade_collide``, ``arcade_collide.ecs`` and
``arcade_collide.arcade``. Each is documented once, at its shortest path: a top-level
name as ``arcade_collide.X``, an ECS-only one as ``arcade_collide.ecs.X``, a bridge name
as ``arcade_collide.arcade.X``, by an autodoc directive in a page under
``docs/reference/``. A class or function shows an example in its docstring (a ``>>>``
line, run by ``--doctest-modules``); a constant or type alias, whose docstring is not
its own, in a runnable ```` ```python ```` block of a reference page that names it.
"""

from __future__ import annotations

import inspect
import os
import re
from pathlib import Path

os.environ.setdefault("ARCADE_HEADLESS", "1")  # before the bridge imports arcade

import arcade_collide
import arcade_collide.arcade
import arcade_collide.ecs

REFERENCE = Path(__file__).resolve().parents[1] / "docs" / "reference"

# autodoc writes reST, so the pages call it inside ```{eval-rst} blocks (MyST would read
# its output as Markdown).
_EVAL_RST = re.compile(r"^```\{eval-rst\}\n(.*?)^```", re.S | re.M)
_DIRECTIVE = re.compile(r"^\.\. (auto(?:class|function|data|exception))::\s+(\S+)\s*$", re.M)
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)

# The CollisionWorld methods a game calls most: each shows an example in its docstring
# or in a runnable block of the bridge's reference page.
WORLD_METHODS = (
    "add_sprite", "add_sprite_list", "step", "overlapping", "touching", "ray_cast",
    "on_collision", "close", "add_tile_layer",
)  # fmt: skip


def public_paths() -> dict[str, object]:
    """Each public name at its shortest path, with the object."""
    paths: dict[str, object] = {}
    for module in (arcade_collide, arcade_collide.ecs, arcade_collide.arcade):
        for name in module.__all__:
            if not any(path.rsplit(".", 1)[1] == name for path in paths):
                paths[f"{module.__name__}.{name}"] = getattr(module, name)
    return paths


def directives() -> list[tuple[str, str, Path]]:
    """``(directive, documented path, page)`` of every autodoc directive in the reference."""
    return [
        (kind, path, page)
        for page in sorted(REFERENCE.glob("*.md"))
        for block in _EVAL_RST.findall(page.read_text())
        for kind, path in _DIRECTIVE.findall(block)
    ]


def page_blocks() -> str:
    """The runnable code blocks of the reference pages, joined."""
    return "\n".join(
        block
        for page in sorted(REFERENCE.glob("*.md"))
        for block in _BLOCK.findall(page.read_text())
    )


def has_own_docstring(value: object) -> bool:
    """Whether ``value`` is a class or function, so its docstring is its own."""
    return inspect.isclass(value) or inspect.isroutine(value)


def test_the_public_names_are_counted_once() -> None:
    names = {path.rsplit(".", 1)[1] for path in public_paths()}
    every = {*arcade_collide.__all__, *arcade_collide.ecs.__all__, *arcade_collide.arcade.__all__}
    assert names == every
    assert len(names) == 58


def test_every_public_name_has_one_reference_entry() -> None:
    documented = [path for _, path, _ in directives()]
    missing = sorted(set(public_paths()) - set(documented))
    assert not missing, f"no autodoc directive under docs/reference/ for: {missing}"
    twice = sorted({path for path in documented if documented.count(path) > 1})
    assert not twice, f"documented more than once: {twice}"
    unknown = sorted(set(documented) - set(public_paths()))
    assert not unknown, f"documented, but not a public name at its shortest path: {unknown}"


def test_every_public_name_has_an_example() -> None:
    blocks = page_blocks()
    missing = []
    for path, value in public_paths().items():
        name = path.rsplit(".", 1)[1]
        if has_own_docstring(value):
            if ">>>" not in (inspect.getdoc(value) or ""):
                missing.append(path)
        elif not re.search(rf"\b{name}\b", blocks):
            missing.append(path)
    assert not missing, f"no example (docstring >>> or reference page block) for: {missing}"


def test_the_main_world_methods_have_examples() -> None:
    world = arcade_collide.arcade.CollisionWorld
    blocks = page_blocks()
    missing = [
        name
        for name in WORLD_METHODS
        if ">>>" not in (inspect.getdoc(getattr(world, name)) or "")
        and not re.search(rf"\.{name}\(", blocks)
    ]
    assert not missing, f"CollisionWorld methods without an example: {missing}"


def test_the_checks_see_a_missing_entry() -> None:
    # The parsing finds the directives of eval-rst blocks and nothing else.
    text = "```{eval-rst}\n.. autoclass:: arcade_collide.Circle\n   :members:\n```\n"
    block = _EVAL_RST.findall(text + "```python\n.. autofunction:: x.y\n```\n")
    assert [_DIRECTIVE.findall(b) for b in block] == [[("autoclass", "arcade_collide.Circle")]]
    assert not _DIRECTIVE.findall("{py:class}`arcade_collide.Circle`\n")
    assert not has_own_docstring(arcade_collide.ALL_LAYERS)
    assert has_own_docstring(arcade_collide.contact)

"""Per-tick traces of a game driven by its physics engine, for comparing an Arcade
example with its port: the same scripted key presses, then each tick's player
position, score and the sprites ``update()`` returned."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

import arcade

Script = dict[int, list[tuple[str, int]]]
"""``{tick: [("press" | "release", key), ...]}``: key events sent before that tick."""


class Tick(NamedTuple):
    """One tick of a trace."""

    x: float
    y: float
    score: int
    hits: tuple[tuple[int, int], ...]
    """The sprites ``update()`` returned, each as (list index, index in the list at
    the start), sorted (Arcade returns spatially hashed lists in hash order)."""


def script(*events: tuple[int, str, int]) -> Script:
    """A script from ``(tick, "press" | "release", key)`` events."""
    out: Script = {}
    for tick, action, key in events:
        out.setdefault(tick, []).append((action, key))
    return out


def hold(start: int, stop: int, *keys: int) -> list[tuple[int, str, int]]:
    """Events pressing ``keys`` at tick ``start`` and releasing them at ``stop``."""
    return [(start, "press", k) for k in keys] + [(stop, "release", k) for k in keys]


def trace(
    game: Any,
    events: Script,
    ticks: int,
    lists: Iterable[arcade.SpriteList[Any]],
    score: Callable[[Any], int] = lambda game: 0,
) -> list[Tick]:
    """Drive ``game`` (a View or Window with ``on_key_press``, ``on_key_release``,
    ``on_update``, ``player_sprite`` and ``physics_engine``) for ``ticks`` ticks at
    1/60 s; ``lists`` name the sprites hits may be."""
    names = {id(s): (i, j) for i, sl in enumerate(lists) for j, s in enumerate(sl)}
    engine = game.physics_engine
    returned: list[list[Any]] = []
    update = engine.update

    def recording_update() -> list[Any]:
        hits = update()
        returned.append(hits)
        return hits

    engine.update = recording_update
    out = []
    for tick in range(ticks):
        for action, key in events.get(tick, []):
            (game.on_key_press if action == "press" else game.on_key_release)(key, 0)
        returned.clear()
        game.on_update(1 / 60)
        hits = tuple(sorted(names[id(s)] for hit in returned for s in hit))
        player = game.player_sprite
        out.append(Tick(player.center_x, player.center_y, score(game), hits))
    return out

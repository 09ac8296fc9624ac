"""What the ECS keeps for each esper world: row pools, shape epoch, shape table, handler changes.

Nothing is shared between worlds. A state is found by the world's name and
:func:`~arcade_collide.ecs.esper_internals.world_token`, so a world recreated under the
same name starts afresh.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import esper

from arcade_collide.ecs.delivery import HandlerChanges
from arcade_collide.ecs.esper_internals import world_token
from arcade_collide.ecs.storage import RowPool


class WorldPools(NamedTuple):
    """The row pools of one esper world."""

    positions: RowPool
    """Rows ``(x, y, angle)`` of the Position objects made while the world was current."""
    velocities: RowPool
    """Rows ``(x, y, angular)`` of the Velocity objects, likewise."""


class ShapeEpoch:
    """A counter bumped by every edit of a Shape the world's table has placed, and the
    shapes edited since the table last looked."""

    __slots__ = ("edited", "value")

    def __init__(self) -> None:
        self.value = 0
        self.edited: list[Any] | None = []
        """The Shape components edited since the table last looked (None: too many)."""

    def note(self, shape: object) -> None:
        """Record an edit of ``shape``."""
        self.value += 1
        edited = self.edited
        if edited is not None:
            if len(edited) < _EDITS_LISTED:
                edited.append(shape)
            else:
                self.edited = None


_EDITS_LISTED = 256
"""Edits :attr:`ShapeEpoch.edited` lists before the table is rebuilt instead."""


class WorldState:
    """The ECS state of one esper world."""

    def __init__(self, token: object) -> None:
        self.token = token
        """The world's :func:`~arcade_collide.ecs.esper_internals.world_token`."""
        # Only the shape table reads a write log: the Position pool's.
        self.pools = WorldPools(RowPool(3), RowPool(3, logged=False))
        self.shape_epoch = ShapeEpoch()
        self.handler_changes = HandlerChanges()
        """Bumped when a collision handler of the world is removed (or subscribed)."""
        self.table: Any = None
        """The world's :class:`~arcade_collide.ecs.table.ShapeTable` once made."""


_states: dict[str, WorldState] = {}
_last: tuple[str, object, WorldState] | None = None


def world_state() -> WorldState:
    """The state of the current esper world, created on first use.

    >>> world_state() is world_state()
    True
    """
    global _last
    name = esper.current_world
    token = world_token()
    last = _last
    if last is not None and last[0] == name and last[1] is token:
        return last[2]
    state = _states.get(name)
    if state is None or state.token is not token:
        forget_deleted_worlds()
        state = WorldState(token)
        _states[name] = state
    _last = (name, token, state)
    return state


def forget_deleted_worlds() -> None:
    """Drop the states of worlds esper no longer has (a state holds its world's table,
    and so every collidable entity's components, alive)."""
    if len(_states) > 1:
        alive = set(esper.list_worlds())
        for stale in [n for n in _states if n not in alive]:
            del _states[stale]


def world_pools() -> WorldPools:
    """The Position and Velocity pools of the current esper world.

    Code writing positions in bulk writes ``pools.positions.data`` rows
    (``component.pool_row``), then calls ``pools.positions.touch(rows)`` with those rows
    so the world's shape table places them again (``touch()`` without rows places all).

    >>> pools = world_pools()
    >>> pools.positions is world_pools().positions
    True
    """
    return world_state().pools

"""How long a CollisionWorld's esper world and its hold on sprites last: removal hooks
(:class:`RemovalHook`) and the deletion of a world's own esper world by ``close()`` or,
once it was garbage collected without ``close()``, by the next CollisionWorld created
or stepped (:func:`forget_when_dropped`). A joined esper world only loses the
processors the CollisionWorld added to it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, Protocol

import arcade
import esper

_DROPPED: list[str] = []
"""Own esper worlds of CollisionWorlds garbage collected without ``close()``."""


class MembershipListener(Protocol):
    """What hears of list changes (:class:`RemovalHook`): ``joined_list`` runs inside
    Arcade's method and must not raise; ``list_changed`` once it is done."""

    def joined_list(self, sprite_list: Any) -> None: ...

    def list_changed(self, sprite_list: Any, left: list[Any], joined: list[Any]) -> None: ...


class _Removes(Protocol):
    def remove_sprite(self, sprite: arcade.Sprite) -> None: ...

    @property
    def closed(self) -> bool: ...

    @property
    def _memberships(self) -> Any: ...


class RemovalHook:
    """What a world registers with ``sprite.register_physics_engine``, and listens to
    sprite lists with (:mod:`.sprite_lists`).

    Arcade's ``remove_from_sprite_lists()`` calls ``remove_sprite`` on each registered
    engine. The hook holds its world weakly, so a sprite or sprite list that outlives
    a level does not keep the level's world alive.
    """

    __slots__ = ("_world",)

    def __init__(self, world: _Removes) -> None:
        self._world = weakref.ref(world)

    def remove_sprite(self, sprite: arcade.Sprite) -> None:
        world = self._world()
        if world is None:
            return
        engines = sprite.physics_engines  # the list Arcade's loop walks
        try:
            world.remove_sprite(sprite)
        except Exception as error:
            # Arcade's loop stops at the exception: the engines after this one (another
            # CollisionWorld, say) take the sprite out first, as the loop would have.
            at = next((k for k, engine in enumerate(engines) if engine is self), len(engines))
            for engine in engines[at + 1 :]:
                try:
                    engine.remove_sprite(sprite)
                except Exception as later:
                    note = getattr(error, "add_note", None)  # Python 3.11+
                    if note is not None:
                        note(f"another physics engine also raised: {later!r}")
            sprite.physics_engines.clear()
            raise

    @property
    def gone(self) -> bool:
        """Whether the world was garbage collected or closed: the hook does nothing."""
        world = self._world()
        return world is None or world.closed

    def joined_list(self, sprite_list: arcade.SpriteList[Any]) -> None:
        """A sprite of the world joined ``sprite_list``: the world watches it."""
        world = self._world()
        if world is not None and not world.closed:
            world._memberships.watch(sprite_list)

    def list_changed(
        self, sprite_list: arcade.SpriteList[Any], left: list[Any], joined: list[Any]
    ) -> None:
        """Sprites left and joined a list the world watches (see :mod:`.sprite_lists`)."""
        world = self._world()
        if world is not None and not world.closed:
            world._memberships.changed(world, sprite_list, left, joined)

    def attach(self, sprite: arcade.Sprite) -> None:
        """Register with ``sprite`` (once), dropping the hooks of worlds that are gone."""
        engines = sprite.physics_engines
        if any(type(engine) is RemovalHook and engine.gone for engine in engines):
            sprite.physics_engines = engines = [
                e for e in engines if type(e) is not RemovalHook or not e.gone
            ]
        if self not in engines:
            sprite.register_physics_engine(self)

    def detach(self, sprite: arcade.Sprite) -> None:
        """Unregister from ``sprite``."""
        # Replaced by a new list rather than edited: Arcade may be iterating this one.
        sprite.physics_engines = [e for e in sprite.physics_engines if e is not self]


def forget_when_dropped(world: object, name: str) -> weakref.finalize[..., Any]:
    """Note ``name`` for deletion once ``world`` is garbage collected.

    The finalizer holds the name only, not the world, so a dropped level's esper world
    goes with it. The garbage collector may run it inside any esper call, so it only
    notes the name; :func:`delete_dropped_worlds` deletes the world later.
    """
    forget = weakref.finalize(world, _DROPPED.append, name)
    forget.atexit = False
    return forget


def delete_dropped_worlds() -> None:
    """Delete the esper worlds of CollisionWorlds garbage collected without ``close()``."""
    while _DROPPED:
        name = _DROPPED.pop()
        if name in esper.list_worlds() and esper.current_world != name:
            esper.delete_world(name)


def delete_own_world(name: str) -> None:
    """Delete a CollisionWorld's own esper world, if it still exists."""
    if name not in esper.list_worlds():
        return
    if esper.current_world == name:
        esper.switch_world("default")
    esper.delete_world(name)


class in_world:  # noqa: N801 (used like the function it replaced)
    """Make esper world ``name`` the current one for the ``with`` block, then restore.

    A class rather than a generator context manager: entered on every registration,
    removal, step and query, where the generator's machinery cost several times the
    two switches.
    """

    __slots__ = ("_name", "_previous")

    def __init__(self, name: str) -> None:
        self._name = name
        self._previous = ""

    def __enter__(self) -> None:
        self._previous = esper.current_world
        esper.switch_world(self._name)

    def __exit__(self, *exc: object) -> None:
        esper.switch_world(self._previous)


def weakly(method: Callable[..., object]) -> Callable[..., None]:
    """``method`` (a bound method) called through a weak reference: a call after its
    object is gone does nothing."""
    ref = weakref.WeakMethod(method)

    def call(*args: Any) -> None:
        bound = ref()
        if bound is not None:
            bound(*args)

    return call


class WriteBack(esper.Processor):
    """Runs a world's write-back between its movement and its collision detection (so
    the callbacks see the new poses); holds the world weakly, as esper's registry must
    not keep it alive."""

    def __init__(self, write_back: weakref.WeakMethod[Callable[[], None]]) -> None:
        self._write_back = write_back

    def process(self, *args: Any, **kwargs: Any) -> None:
        write_back = self._write_back()
        if write_back is not None:
            write_back()

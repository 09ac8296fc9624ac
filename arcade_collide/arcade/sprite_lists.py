"""Which sprites a world holds because of sprite lists, and when they leave it.

A world watches (:func:`~.arcade_internals.watch_list`) every list given to
``add_sprite_list`` and every list holding a sprite given to ``add_sprite``; each of
Arcade's methods that changes a watched list (``append``, ``extend``, ``insert``,
``remove``, ``pop``, ``clear`` deep or not, item assignment, and so ``kill()`` and
``remove_from_sprite_lists()``) tells the world once it is done. (A sprite list has no
slice or item deletion.) The rules:

* A sprite added with ``add_sprite`` stays until ``remove_sprite``, or until it has
  left every sprite list it was in (``remove_from_sprite_lists()`` does exactly that;
  a sprite that was never in a list leaves by ``remove_sprite`` or ``kill()`` only).
  To move such a sprite from one list to another, append it to the new list first.
* A sprite that came in through registered lists only stays while one of them holds
  it. One in two registered lists has the options of the list it came in through;
  leaving one, it stays for the other.
* A sprite already in the world when its list is registered, or when it is appended
  to a registered list, keeps its entity and options.

Removals end the sprite's contacts at once, as ``remove_sprite`` does; an exception
an end callback raised comes out of the list method, after the list was changed.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

import arcade

from arcade_collide.arcade import arcade_internals as internals
from arcade_collide.arcade.lifetime import RemovalHook
from arcade_collide.ecs.delivery import Delivery


class _World(Protocol):
    def __contains__(self, sprite: object) -> bool: ...

    def remove_sprite(self, sprite: arcade.Sprite) -> None: ...

    def _add(self, sprite: arcade.Sprite, options: dict[str, Any], pinned: bool) -> int: ...

    def _prepare(self, sprite: arcade.Sprite, options: dict[str, Any], pinned: bool) -> Any: ...

    def _admit(self, made: list[Any]) -> None: ...

    def _discard(self, made: list[Any]) -> None: ...


class ListOptions(NamedTuple):
    """The ``add_sprite`` options a registered sprite list gives its sprites."""

    sprite_list: arcade.SpriteList[Any]
    options: dict[str, Any]


class Memberships:
    """One world's registered sprite lists and the lists it watches.

    Args:
        hook: The world's hook, given to the lists as their listener.
        holds: ``holds(sprite)``: whether the sprite is in the world, and added with
            ``add_sprite`` (True), through a list only (False), or not at all (None).
    """

    def __init__(self, hook: RemovalHook, holds: Callable[[arcade.Sprite], bool | None]) -> None:
        self._hook = hook
        self._holds = holds
        self.registered: dict[int, ListOptions] = {}
        """The registered lists by ``id`` (held, so the ids stay theirs)."""
        self._watched: weakref.WeakSet[arcade.SpriteList[Any]] = weakref.WeakSet()

    def watch(self, sprite_list: arcade.SpriteList[Any]) -> None:
        """Hear of ``sprite_list``'s changes (once per list)."""
        if sprite_list not in self._watched:
            internals.watch_list(sprite_list, self._hook)
            self._watched.add(sprite_list)

    def listen(self, sprite: arcade.Sprite) -> None:
        """Watch every list ``sprite`` is in now or joins later."""
        for sprite_list in internals.listen(sprite, self._hook):
            self.watch(sprite_list)

    def options_for(self, sprite_list: arcade.SpriteList[Any]) -> dict[str, Any] | None:
        """The options ``sprite_list`` was registered with; None if it is not registered."""
        entry = self.registered.get(id(sprite_list))
        return entry.options if entry is not None and entry.sprite_list is sprite_list else None

    def keeps(self, sprite: arcade.Sprite, pinned: bool) -> bool:
        """Whether ``sprite`` (``pinned``: added with ``add_sprite``) stays, by the rules of
        the module docstring, as the lists it is in stand now."""
        # list.copy: a plain read that does not report a touch (see _Armed).
        for sprite_list in list.copy(sprite.sprite_lists):
            if sprite in sprite_list and (pinned or self.options_for(sprite_list) is not None):
                return True
        return False

    def leavers(self, left: list[Any]) -> list[Any]:
        """The sprites of ``left`` (which just left a list) that leave the world."""
        going = []
        for sprite in left:
            pinned = self._holds(sprite)
            if pinned is not None and not self.keeps(sprite, pinned):
                going.append(sprite)
        return going

    def unlisten(self, sprite: arcade.Sprite) -> None:
        """Stop watching the lists ``sprite`` joins (it left the world)."""
        internals.unlisten(sprite, self._hook)

    def register(
        self, world: _World, sprite_list: arcade.SpriteList[Any], options: dict[str, Any]
    ) -> None:
        """Add ``sprite_list``'s sprites not in ``world`` yet with ``options``, all or none;
        then watch it as a registered list.

        Raises:
            ValueError: the list is already registered.
            TypeError, ValueError: a sprite could not be added (naming its index).
        """
        if self.options_for(sprite_list) is not None:
            raise ValueError("sprite_list is already registered in this CollisionWorld")
        made: list[Any] = []
        for index, sprite in enumerate(list(sprite_list)):
            if sprite in world:
                continue
            try:
                made.append(world._prepare(sprite, options, pinned=False))
            except (TypeError, ValueError) as error:
                world._discard(made)
                raise type(error)(f"sprite_list[{index}]: {error}") from None
        world._admit(made)
        self.registered[id(sprite_list)] = ListOptions(sprite_list, options)
        self.watch(sprite_list)

    def changed(
        self, world: _World, sprite_list: arcade.SpriteList[Any], left: list[Any], joined: list[Any]
    ) -> None:
        """Take out of ``world`` the sprites of ``left`` that leave it, and add the
        sprites that ``joined`` a registered list (one that cannot be added is taken
        out of the list again); then raise the first error."""
        going = self.leavers(left) if left else left
        options = self.options_for(sprite_list) if joined else None
        if not going and options is None:
            return  # (a sprite appended to a list that is not registered, say)
        changing = Delivery("end callback")
        for sprite in going:
            changing.call(world.remove_sprite, sprite)
        if options is not None:
            for sprite in joined:
                if sprite not in world:
                    changing.call(_join, world, sprite_list, sprite, options)
        changing.raise_first()

    def close(self) -> None:
        """Stop watching every list and forget the registered ones."""
        for sprite_list in list(self._watched):
            internals.unwatch_list(sprite_list, self._hook)
        self._watched = weakref.WeakSet()
        self.registered.clear()


def _join(
    world: _World,
    sprite_list: arcade.SpriteList[Any],
    sprite: arcade.Sprite,
    options: dict[str, Any],
) -> None:
    try:
        world._add(sprite, options, pinned=False)
    except Exception:
        if sprite in sprite_list:
            sprite_list.remove(sprite)
        raise

"""Drop-ins for Arcade's ``PhysicsEngineSimple`` and ``PhysicsEnginePlatformer``.

A game switches by changing one import::

    from arcade_collide.arcade import PhysicsEnginePlatformer  # was: from arcade import ...

The constructors, methods, properties and return values are Arcade 3.3's. Collisions
are exact tests of the collision shapes (the convex hull of each sprite's hit box, as
Arcade's polygon test sees it) against the sprites of the engine's lists, which each
engine holds in a private :class:`~arcade_collide.arcade.world.CollisionWorld`
(:mod:`.engine_world`): sprites the game appends to or removes from those lists, and
lists it adds or replaces through the properties or by mutating them, are followed.
A sprite collides as in Arcade only when it overlaps: touching is not a collision, so a
player resting flush on a floor is not "on" it for :meth:`~PhysicsEnginePlatformer.can_jump`
with ``y_distance=0``, nor hits it unless gravity moves it into it.

One ``update()`` moves the platforms (as Arcade does), takes the sprites near the
whole move (:meth:`.engine_world.EngineWorld.near`), then moves the player on y and
then on x as Arcade does, with exact stops where Arcade steps and searches. The
differences, each on purpose:

* **Landing and head bumps are flush.** Arcade, moving down into a floor, pushes the
  player up in 0.25 px steps (so it rests up to 0.25 px above the floor), moving up
  into a ceiling steps down 1 px at a time (up to 1 px below), then rounds
  ``center_y`` to 0.01 px. Here the player stops where a shape cast first meets the
  obstacle: flush, unrounded.
* **Walls stop the player flush.** Arcade searches the x move in whole pixels (an
  integer binary search), so the player stops up to 1 px short of a wall. Here the
  cast gives the exact distance.
* **Ramps lift by the exact amount.** Arcade tries a lift equal to the x move and
  lowers it 1 px at a time (from the y before the tick's y move), so it climbs up to
  1 px too high; here the lift is the least that frees the player (a downward cast),
  at most the x move, as in Arcade. When even that lift is blocked the player stops
  flush against the obstacle (Arcade retries ramps at shorter x moves).
* **Unsticking is a push along the contact normal.** A player that starts a tick (or
  ends a rotation) overlapping an obstacle is moved out along the deepest contact's
  normal by its depth, repeated; Arcade "wiggles" it to the first free spot of 8
  directions at doubling distances, which can be far off or on the wrong side.
* **Hits are the sprites overlapped at the y target and at the x target**, in the
  order the lists and their sprites were registered. Arcade also adds what its
  shorter x probes met (never more than the full move meets on a straight wall) and
  gives the sprites of a spatially hashed list in hash order.

Kept as Arcade does them (games depend on them): platforms move with their
``boundary_*`` bounce before the player; a platform carries the player by its
``change_x`` (once per platform sprite the player fell into) only in a tick where the
player has no ``change_x`` of its own (its x move starts from the x before the
carry); after a y hit ``change_y`` becomes ``min(0, change_y of the first sprite
hit)``; gravity is skipped while the player overlaps a ladder; multi-jump counting.

Walls and ladders must not move (as in Arcade, where moving them defeats the spatial
hash): the engine reuses the walls a world query found while the player stays near
them. The engine owns its world; :meth:`PhysicsEnginePlatformer.close` (or dropping the
engine) releases it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import arcade

from arcade_collide.arcade.engine_world import (
    EngineWorld,
    Near,
    advance,
    overlapping,
    pose_of,
    push_out,
    ramp_lift,
)
from arcade_collide.geometry.pose import check_number

SpriteLists = arcade.SpriteList[Any] | Iterable[arcade.SpriteList[Any]] | None
"""One sprite list, several, or none: what the engines' list arguments take."""

OBSTACLES = ("wall", "platform")


def _add_to_list(dest: list[arcade.SpriteList[Any]], source: SpriteLists) -> None:
    """Append one sprite list to ``dest`` or extend it with several (Arcade's rule)."""
    if not source:
        return
    if isinstance(source, arcade.SpriteList):
        dest.append(source)
    else:
        dest.extend(source)


def _lists_property(attribute: str, doc: str) -> Any:
    """A list-of-sprite-lists property as Arcade's: reading gives the engine's list
    itself (the game may change it), setting adds one list or several, setting a falsy
    value or deleting clears it."""

    def get(engine: object) -> list[arcade.SpriteList[Any]]:
        held: list[arcade.SpriteList[Any]] = getattr(engine, attribute)
        return held

    def set_(engine: object, lists: SpriteLists = None) -> None:
        if lists:
            _add_to_list(getattr(engine, attribute), lists)
        else:
            getattr(engine, attribute).clear()

    def delete(engine: object) -> None:
        getattr(engine, attribute).clear()

    return property(get, set_, delete, f"{doc} Setting adds lists (as in Arcade); "
                    "setting a falsy value or deleting clears them.")  # fmt: skip


def _player(player_sprite: object) -> arcade.Sprite:
    if not isinstance(player_sprite, arcade.Sprite):
        raise TypeError(
            f"player_sprite must be an arcade.Sprite, got {type(player_sprite).__name__}"
        )
    return player_sprite


class _Move:
    """One ``update()``'s move of the player: the sprites near it and the exact steps."""

    def __init__(self, world: EngineWorld, player: arcade.Sprite, ramp_up: bool) -> None:
        self.world, self.player, self.ramp_up = world, player, ramp_up
        self.shape = world.player_shape(player)
        self.near: list[Near] = []
        self.blocking: list[Near] = []

    def look(self, gravity: float = 0.0) -> None:
        """Ask the world for the sprites near every pose this tick may test (with
        ``change_y`` as it is and less ``gravity``)."""
        player, reach = self.player, self.shape.reach
        x, y = player.position
        dx, dy = player.change_x, player.change_y
        low, high = min(dy, dy - gravity, 0.0), max(dy, dy - gravity, 0.0)
        rise = abs(dx) if self.ramp_up else 0.0
        self.near = self.world.near(
            x + min(dx, 0.0) - reach, y + low - reach,
            x + max(dx, 0.0) + reach, y + high + reach + rise,
        )  # fmt: skip
        self.blocking = [other for other in self.near if other.kind in OBSTACLES]

    def on_ladder(self) -> bool:
        """Whether the player overlaps a ladder among the sprites near it."""
        ladders = [other for other in self.near if other.kind == "ladder"]
        pose = pose_of(self.player)
        return bool(ladders) and bool(overlapping(self.shape, pose, ladders))

    def hits_at(self, pose: tuple[float, float, float]) -> list[arcade.Sprite]:
        found = overlapping(self.shape, pose, self.blocking)
        return [other.sprite for other in found]

    def unstick(self) -> list[arcade.Sprite]:
        """Rotate by ``change_angle`` and push the player out of what it overlaps;
        return what the rotation made it overlap."""
        player = self.player
        if self.hits_at(pose_of(player)):
            self._push()
        rotating: list[arcade.Sprite] = []
        if player.change_angle:
            x, y, angle = pose_of(player)
            player.angle = angle + player.change_angle
            rotating = self.hits_at(pose_of(player))
            if rotating:
                self._push()
                if math.dist((x, y), player.position) > (player.width + player.height) / 2:
                    player.position, player.angle = (x, y), angle
        return rotating

    def _push(self) -> None:
        x, y, _ = push_out(self.shape, pose_of(self.player), self.blocking)
        self.player.position = (x, y)
        self.look()

    def move_y(self) -> list[arcade.Sprite]:
        """Arcade's y step, stopping flush; return the sprites the y move meets."""
        player = self.player
        x, y, angle = pose_of(player)
        dy = player.change_y
        hits = self.hits_at((x, y + dy, angle))
        if not hits:
            player.center_y = y + dy
            return hits
        player.center_y = y + dy * advance(self.shape, (x, y, angle), (0.0, dy), self.blocking)
        if dy < 0:
            for sprite in hits:
                player.center_x += getattr(sprite, "change_x", 0.0)
        player.change_y = min(0.0, getattr(hits[0], "change_y", 0.0))
        return hits

    def move_x(self, start_x: float) -> list[arcade.Sprite]:
        """Arcade's x step from ``start_x``, stopping flush or lifted up a ramp;
        return the sprites the x move meets."""
        player = self.player
        dx = player.change_x
        _, y, angle = pose_of(player)
        target = (start_x + dx, y, angle)
        hits = self.hits_at(target)
        if not hits:
            player.position = (target[0], y)
            return hits
        lift = ramp_lift(self.shape, target, abs(dx), self.blocking) if self.ramp_up else None
        if lift is not None:
            player.position = (target[0], y + lift)
        else:
            made = advance(self.shape, (start_x, y, angle), (dx, 0.0), self.blocking)
            player.position = (start_x + dx * made, y)
        return hits


def _move_sprite(move: _Move) -> list[arcade.Sprite]:
    """Move the player by its ``change_*`` among the sprites ``move`` found near it;
    return the sprites hit (module docstring)."""
    player = move.player
    rotating = move.unstick()
    start_x = player.center_x
    hits = move.move_y()
    if player.change_x:
        hits += [sprite for sprite in move.move_x(start_x) if sprite not in hits]
    hits += [sprite for sprite in rotating if sprite not in hits]
    return hits


class PhysicsEngineSimple:
    """Arcade's top-down engine, backed by an exact collision world.

    Args:
        player_sprite: The sprite the player controls.
        walls: A :class:`arcade.SpriteList` or an iterable of them, which stop
            the player.

    Raises:
        TypeError: ``player_sprite`` is not an ``arcade.Sprite``, or a wall list is
            not an ``arcade.SpriteList`` (naming ``walls[i]``).

    >>> player = arcade.SpriteSolidColor(20, 20, center_x=50, center_y=50)
    >>> walls = arcade.SpriteList()
    >>> walls.append(arcade.SpriteSolidColor(20, 100, center_x=80, center_y=50))
    >>> engine = PhysicsEngineSimple(player, walls)
    >>> player.change_x = 5
    >>> engine.update(), engine.update(), player.center_x
    ([], [], 60)
    >>> engine.update() == [walls[0]], player.center_x  # flush against the wall
    (True, 60)
    >>> engine.close()
    """

    def __init__(self, player_sprite: arcade.Sprite, walls: SpriteLists = None) -> None:
        self.player_sprite: arcade.Sprite = _player(player_sprite)
        """The player-controlled sprite."""
        self._walls: list[arcade.SpriteList[Any]] = []
        self._world = EngineWorld()
        _add_to_list(self._walls, walls)
        self._sync()

    def _sync(self) -> None:
        self._world.sync([("walls", "wall", self._walls)])

    walls = _lists_property("_walls", "The sprite lists that block the player.")

    def update(self) -> list[arcade.BasicSprite]:
        """Move :attr:`player_sprite` and return the sprites it hit (empty if none)."""
        self._sync()
        move = _Move(self._world, self.player_sprite, ramp_up=False)
        move.look()
        return list(_move_sprite(move))

    def close(self) -> None:
        """Release the engine's collision world; :meth:`update` builds it again."""
        self._world.close()


class PhysicsEnginePlatformer:
    """Arcade's platformer engine (gravity, jumps, ladders, moving platforms), backed
    by an exact collision world.

    Args:
        player_sprite: The player's sprite (an ``arcade.Sprite``).
        platforms: Sprite list(s) the player stands on that may move (``change_x``,
            ``change_y`` and the ``boundary_*`` attributes).
        gravity_constant: Subtracted from the player's ``change_y`` each update while
            it is off ladders.
        ladders: Sprite list(s) the player climbs without gravity while overlapping.
        walls: Sprite list(s) of terrain that never moves.

    Raises:
        TypeError: ``player_sprite`` is not an ``arcade.Sprite``, a list is not an
            ``arcade.SpriteList`` (naming e.g. ``ladders[0]``), or
            ``gravity_constant`` is not a real number.
        ValueError: ``gravity_constant`` is not finite.

    >>> player = arcade.SpriteSolidColor(20, 20, center_x=50, center_y=60)
    >>> floor = arcade.SpriteList()
    >>> floor.append(arcade.SpriteSolidColor(200, 20, center_x=50, center_y=0))
    >>> engine = PhysicsEnginePlatformer(player, walls=floor, gravity_constant=1.0)
    >>> for _ in range(60):
    ...     _ = engine.update()
    >>> player.bottom, engine.can_jump()  # landed on the floor's top
    (10.0, True)
    >>> engine.jump(15)
    >>> _ = engine.update()
    >>> player.bottom, engine.can_jump()  # 15 px up, less 1 px of gravity
    (24.0, False)
    >>> engine.close()
    """

    def __init__(
        self,
        player_sprite: arcade.Sprite,
        platforms: SpriteLists = None,
        gravity_constant: float = 0.5,
        ladders: SpriteLists = None,
        walls: SpriteLists = None,
    ) -> None:
        self.player_sprite: arcade.Sprite = _player(player_sprite)
        """The sprite the player controls."""
        self.gravity_constant: float = check_number(gravity_constant, "gravity_constant")
        """The player's downward acceleration per update off ladders."""
        self._ladders: list[arcade.SpriteList[Any]] = []
        self._platforms: list[arcade.SpriteList[Any]] = []
        self._walls: list[arcade.SpriteList[Any]] = []
        _add_to_list(self._ladders, ladders)
        _add_to_list(self._platforms, platforms)
        _add_to_list(self._walls, walls)
        self.jumps_since_ground: int = 0
        """Jumps since the player last stood on a wall or platform."""
        self.allowed_jumps: int = 1
        """Total jumps allowed, the first included (see :meth:`enable_multi_jump`)."""
        self.allow_multi_jump: bool = False
        """Whether multi-jump is enabled."""
        self._world = EngineWorld()
        self._sync()

    def _sync(self) -> None:
        self._world.sync([
            ("walls", "wall", self._walls),
            ("platforms", "platform", self._platforms),
            ("ladders", "ladder", self._ladders),
        ])  # fmt: skip

    ladders = _lists_property(
        "_ladders", "Sprite lists that turn gravity off while the player overlaps them."
    )
    platforms = _lists_property(
        "_platforms",
        "Sprite lists of platforms the update moves (``change_x``/``change_y`` within "
        "``boundary_left/right/bottom/top``).",
    )
    walls = _lists_property("_walls", "Sprite lists of terrain that never moves.")

    def _overlapping(self, kinds: tuple[str, ...], dy: float = 0.0) -> bool:
        """Whether the player, moved ``dy`` on y, overlaps a sprite of ``kinds``."""
        self._sync()
        player = self.player_sprite
        shape = self._world.player_shape(player)
        x, y, angle = pose_of(player)
        y += dy
        reach = shape.reach
        near = self._world.near(x - reach, y - reach, x + reach, y + reach)
        kept = [n for n in near if n.kind in kinds]
        return bool(overlapping(shape, (x, y, angle), kept))

    def is_on_ladder(self) -> bool:
        """Whether the player overlaps a sprite of :attr:`ladders`."""
        return self._overlapping(("ladder",))

    def can_jump(self, y_distance: float = 5) -> bool:
        """Whether the player can jump: it overlaps a wall or platform when moved
        ``y_distance`` down (which also resets :attr:`jumps_since_ground`), or it may
        still air-jump.

        Raises:
            TypeError: ``y_distance`` is not a real number.
            ValueError: ``y_distance`` is not finite.
        """
        distance = check_number(y_distance, "y_distance")
        grounded = self._overlapping(OBSTACLES, -distance)
        if grounded:
            self.jumps_since_ground = 0
        return grounded or (self.allow_multi_jump and self.jumps_since_ground < self.allowed_jumps)

    def enable_multi_jump(self, allowed_jumps: int) -> None:
        """Allow ``allowed_jumps`` jumps in all, the first from the ground included."""
        self.allowed_jumps = allowed_jumps
        self.allow_multi_jump = True

    def disable_multi_jump(self) -> None:
        """Back to one jump from the ground; resets the jump count."""
        self.allow_multi_jump = False
        self.allowed_jumps = 1
        self.jumps_since_ground = 0

    def jump(self, velocity: float) -> None:
        """Set the player's ``change_y`` to ``velocity`` and count the jump."""
        self.player_sprite.change_y = velocity
        self.increment_jump_counter()

    def increment_jump_counter(self) -> None:
        """Count a jump when multi-jump is enabled."""
        if self.allow_multi_jump:
            self.jumps_since_ground += 1

    def update(self) -> list[arcade.BasicSprite]:
        """Move the platforms, apply gravity off ladders, move the player; return the
        wall and platform sprites it hit (ladders are never in it)."""
        self._sync()
        _move_platforms(self._platforms)
        move = _Move(self._world, self.player_sprite, ramp_up=True)
        move.look(self.gravity_constant)
        if not move.on_ladder():
            self.player_sprite.change_y -= self.gravity_constant
        return list(_move_sprite(move))

    def close(self) -> None:
        """Release the engine's collision world; :meth:`update` builds it again."""
        self._world.close()


def _move_platforms(platform_lists: Iterable[arcade.SpriteList[Any]]) -> None:
    """Move each platform by its ``change_x``/``change_y``, bouncing at its bounds."""
    for platform_list in platform_lists:
        for platform in platform_list:
            if platform.change_x == 0 and platform.change_y == 0:
                continue
            if platform.boundary_left is not None and platform.left <= platform.boundary_left:
                platform.left = platform.boundary_left
                if platform.change_x < 0:
                    platform.change_x *= -1
            if platform.boundary_right is not None and platform.right >= platform.boundary_right:
                platform.right = platform.boundary_right
                if platform.change_x > 0:
                    platform.change_x *= -1
            platform.center_x += platform.change_x
            if platform.boundary_top is not None and platform.top >= platform.boundary_top:
                platform.top = platform.boundary_top
                if platform.change_y > 0:
                    platform.change_y *= -1
            if platform.boundary_bottom is not None and platform.bottom <= platform.boundary_bottom:
                platform.bottom = platform.boundary_bottom
                if platform.change_y < 0:
                    platform.change_y *= -1
            platform.center_y += platform.change_y

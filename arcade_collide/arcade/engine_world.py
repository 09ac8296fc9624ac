"""The drop-in engines' world: their sprite lists in a private CollisionWorld, and the
exact moves of the player among them.

:class:`EngineWorld` registers each sprite list the engine holds (walls and ladders as
static sprites, platforms as moving ones, all with the convex hull of their hit boxes,
like Arcade's own polygon tests, the world's default shape, following their hit
boxes) with ``add_sprite_list``, so sprites the game appends to or removes from those
lists follow by themselves; when the engine's lists of lists
change (a list added, replaced or cleared) the world is built again from them.

The player is not registered: its shape (the hull of its hit box) is the query shape.
Each tick takes the sprites near the whole move (:meth:`EngineWorld.near`: the walls
and ladders of a world query over a larger box, reused while the player stays in it
and no sprite joined or left; the platforms, which move, from their lists) and then
answers every question of the tick exactly from those: :func:`overlapping`,
:func:`advance` (a shape cast that tells a blocking touch from a grazing one),
:func:`ramp_lift` and :func:`push_out`.

Collision is Arcade's rule: two shapes collide when they overlap by more than
:data:`TOUCH`; shapes that only touch (a player resting flush on a floor) do not.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import arcade

from arcade_collide.arcade.shapes_from_sprites import shape_for_sprite
from arcade_collide.arcade.world import CollisionWorld
from arcade_collide.geometry.query.dispatch import contact
from arcade_collide.geometry.query.ray_queries import shape_cast
from arcade_collide.geometry.shapes import AnyShape

TOUCH = 1e-6
"""Overlap depth (px) at or below which two shapes only touch: Arcade's polygon test
(``max_a <= min_b``) does not count touching as a collision, and a cast stops the
player within rounding of flush."""

PROBE = 1e-3
"""How far (px) past a cast's first touch :func:`advance` looks to tell a move that
enters a shape from one that only grazes it."""

Pose = tuple[float, float, float]
Box = tuple[float, float, float, float]

CACHE_PAD = 64.0
"""How much (px) larger than a tick's box the box is that the world is asked about
(the walls found are reused while the player stays inside it)."""


class Near(NamedTuple):
    """A sprite of the engine's lists near the player."""

    sprite: arcade.Sprite
    kind: str
    """``"wall"``, ``"platform"`` or ``"ladder"``."""
    shape: AnyShape
    box: Box
    """The sprite's bounds (``left, bottom, right, top``) when it was found."""


def pose_of(sprite: arcade.Sprite) -> Pose:
    """``sprite``'s pose now: centre and clockwise angle."""
    x, y = sprite.position
    return (x, y, sprite.angle)


class EngineWorld:
    """The private CollisionWorld holding one engine's sprite lists (module docstring)."""

    def __init__(self) -> None:
        self._world: CollisionWorld | None = None
        self._lists: tuple[tuple[str, arcade.SpriteList[Any]], ...] = ()
        self._player_key: tuple[Any, ...] = ()
        self._player_shape: AnyShape | None = None
        self._reach = 0.0
        self._cache: tuple[Box, int, list[Near]] | None = None

    def sync(self, groups: Sequence[tuple[str, str, Sequence[object]]]) -> None:
        """Follow the engine's lists: ``(argument name, kind, lists)`` per group.

        Raises:
            TypeError: an entry is not an ``arcade.SpriteList`` (naming the argument
                and index, e.g. ``walls[1]``).
        """
        lists: list[tuple[str, arcade.SpriteList[Any]]] = []
        for name, kind, entries in groups:
            for index, entry in enumerate(entries):
                if not isinstance(entry, arcade.SpriteList):
                    raise TypeError(
                        f"{name}[{index}] must be an arcade.SpriteList, "
                        f"got {type(entry).__name__}"
                    )
                lists.append((kind, entry))
        held = tuple(lists)
        if len(held) == len(self._lists) and all(
            a[0] == b[0] and a[1] is b[1] for a, b in zip(held, self._lists, strict=True)
        ):
            return
        self.close()
        world = CollisionWorld()
        registered: set[int] = set()
        for kind, sprite_list in held:
            if id(sprite_list) not in registered:
                registered.add(id(sprite_list))
                _register(world, sprite_list, kind)
        self._world, self._lists, self._cache = world, held, None

    def close(self) -> None:
        """Close the private world (the engine's lists are left as they are)."""
        if self._world is not None:
            self._world.close()
        self._world, self._lists, self._cache = None, (), None

    def player_shape(self, player: arcade.Sprite) -> tuple[AnyShape, float]:
        """The player's shape (the hull of its hit box at its scale) and the radius of
        a circle about its centre holding it, rebuilt when the hit box or scale change."""
        key = (player.hit_box, player.scale, player.width, player.height)
        if self._player_shape is None or key != self._player_key:
            shape = shape_for_sprite(player, hull=True)
            sx, sy = player.scale
            points = [(x * sx, y * sy) for x, y in player.hit_box.points]
            corner = math.hypot(player.width, player.height) * 0.5  # a Rect fallback
            self._reach = max([math.hypot(x, y) for x, y in points] + [corner])
            self._player_shape, self._player_key = shape, key
        return self._player_shape, self._reach

    def near(self, left: float, bottom: float, right: float, top: float) -> list[Near]:
        """The sprites of the engine's lists that may meet the box, now: the walls
        and ladders the world found in a box :data:`CACHE_PAD` px larger (asked again
        once the box leaves it or a sprite joined or left the world), and the
        platforms whose bounds meet the box (platforms move every tick)."""
        world = self._world
        if world is None:
            return []
        cache = self._cache
        if cache is None or not _holds(cache[0], (left, bottom, right, top)) or (
            cache[1] != len(world) or not all(n.sprite in world for n in cache[2])
        ):
            pad = CACHE_PAD
            box = (left - pad, bottom - pad, right + pad, top + pad)
            bodies = world._bodies
            rows = [bodies.list[bodies.row_of[sprite]] for sprite in world.aabb_query(*box)]
            still = [_near(body.sprite, str(body.kind), body.geometry) for body in rows
                     if body.kind != "platform"]  # fmt: skip
            cache = self._cache = (box, len(world), still)
        found = [n for n in cache[2] if _meets(n.box, left, bottom, right, top)]
        return found + self._platforms_near(world, left, bottom, right, top)

    def _platforms_near(
        self, world: CollisionWorld, left: float, bottom: float, right: float, top: float
    ) -> list[Near]:
        bodies = world._bodies
        out = []
        for kind, sprite_list in self._lists:
            if kind != "platform":
                continue
            for sprite in sprite_list:
                row = bodies.row_of.get(sprite)
                if row is not None:
                    near = _near(sprite, kind, bodies.list[row].geometry)
                    if _meets(near.box, left, bottom, right, top):
                        out.append(near)
        return out


def _near(sprite: arcade.Sprite, kind: str, shape: AnyShape) -> Near:
    return Near(sprite, kind, shape, (sprite.left, sprite.bottom, sprite.right, sprite.top))


def _meets(box: Box, left: float, bottom: float, right: float, top: float) -> bool:
    return box[0] <= right and left <= box[2] and box[1] <= top and bottom <= box[3]


def _holds(outer: Box, inner: Box) -> bool:
    return (outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2]
            and inner[3] <= outer[3])  # fmt: skip


def _register(world: CollisionWorld, sprite_list: arcade.SpriteList[Any], kind: str) -> None:
    """Add ``sprite_list`` to ``world``, its sprites now and later, as the hulls of
    their hit boxes (walls and ladders static)."""
    world.add_sprite_list(sprite_list, kind=kind, static=kind != "platform")


def _depth(shape: AnyShape, pose: Pose, other: Near) -> float:
    """How deep ``shape`` at ``pose`` overlaps ``other`` (0 when apart or touching)."""
    found = contact(shape, pose, other.shape, pose_of(other.sprite))
    return 0.0 if found is None else found.depth


def overlapping(
    shape: AnyShape, pose: Pose, near: Iterable[Near], reach: float = math.inf
) -> list[Near]:
    """The sprites of ``near`` that ``shape`` at ``pose`` overlaps by more than
    :data:`TOUCH` (Arcade's collision: touching is not one); ``reach`` (the radius of
    a circle about the pose holding the shape) skips those whose bounds are farther."""
    x, y, _ = pose
    box = (x - reach, y - reach, x + reach, y + reach)
    return [other for other in near
            if _meets(other.box, *box) and _depth(shape, pose, other) > TOUCH]  # fmt: skip


def advance(shape: AnyShape, pose: Pose, move: tuple[float, float], near: Iterable[Near]) -> float:
    """The fraction of ``move`` that ``shape`` makes from ``pose`` before a sprite of
    ``near`` blocks it (1.0 when none does).

    A touch blocks only when the move goes on into the shape: a shape the move
    slides along (a flush row of tiles, a wall beside the player) or leaves does not.
    A straight move that enters a convex shape enters it right after its first touch,
    so looking :data:`PROBE` px past that touch decides.
    """
    mx, my = move
    length = math.hypot(mx, my)
    if length == 0.0:
        return 1.0
    best = 1.0
    for other in near:
        hit = shape_cast(shape, pose, move, other.shape, pose_of(other.sprite))
        if hit is None or hit.fraction >= best:
            continue
        start = _depth(shape, pose, other) if hit.fraction == 0.0 else 0.0
        probe = hit.fraction + PROBE / length
        ahead = (pose[0] + mx * probe, pose[1] + my * probe, pose[2])
        if _depth(shape, ahead, other) > start + TOUCH:
            best = hit.fraction
    return best


def ramp_lift(shape: AnyShape, pose: Pose, rise: float, near: Sequence[Near]) -> float | None:
    """The least lift, at most ``rise``, that frees ``shape`` at ``pose`` from ``near``
    (a slope or a low step), or None when even the full rise does not."""
    lifted = (pose[0], pose[1] + rise, pose[2])
    if overlapping(shape, lifted, near):
        return None
    return rise * (1.0 - advance(shape, lifted, (0.0, -rise), near))


def push_out(shape: AnyShape, pose: Pose, near: Sequence[Near], rounds: int = 16) -> Pose:
    """``pose`` moved out of every sprite of ``near`` it overlaps: each round moves it
    back along the deepest contact's normal by its depth."""
    x, y, angle = pose
    for _ in range(rounds):
        deepest = None
        for other in near:
            found = contact(shape, (x, y, angle), other.shape, pose_of(other.sprite))
            if found is not None and found.depth > TOUCH and (
                deepest is None or found.depth > deepest.depth
            ):
                deepest = found
        if deepest is None:
            break
        x -= deepest.normal[0] * deepest.depth
        y -= deepest.normal[1] * deepest.depth
    return (x, y, angle)

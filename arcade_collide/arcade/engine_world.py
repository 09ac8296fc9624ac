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

Those exact tests call the compiled pair kernels behind
:func:`~arcade_collide.geometry.query.dispatch.contact` and
:func:`~arcade_collide.geometry.query.ray_queries.shape_cast` directly, on shapes and
poses packed once: each sprite's when it is found (:class:`Near`), the player's shape
when it is built (:class:`PlayerShape`) and each pose of the player a question tries
(:func:`packed_pose`, which checks it as ``contact`` does). Only the sprites whose
bounds can matter are tested: an overlap deeper than :data:`TOUCH` needs the bounds to
overlap by more than that on both axes, and a cast can only meet the sprites whose
bounds meet the box the move sweeps.

Collision is Arcade's rule: two shapes collide when they overlap by more than
:data:`TOUCH`; shapes that only touch (a player resting flush on a floor) do not.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, cast

import arcade
import numpy as np

from arcade_collide.arcade.shapes_from_sprites import shape_for_sprite
from arcade_collide.arcade.world import CollisionWorld
from arcade_collide.geometry.pose import check_vec2, to_world
from arcade_collide.geometry.query.dispatch import Geometry, geometry_of, one_pair, pose_terms
from arcade_collide.geometry.query.ray_queries import one_cast
from arcade_collide.geometry.shapes import AnyShape, Circle, Point

TOUCH = 1e-6
"""Overlap depth (px) at or below which two shapes only touch: Arcade's polygon test
(``max_a <= min_b``) does not count touching as a collision, and a cast stops the
player within rounding of flush."""

PROBE = 1e-3
"""How far (px) past a cast's first touch :func:`advance` looks to tell a move that
enters a shape from one that only grazes it."""

Pose = tuple[float, float, float]
Box = tuple[float, float, float, float]
Placed = tuple[float, float, float, float]
"""A pose packed for the pair kernels: ``x, y`` and the rotation's ``cos, sin``."""

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
    geometry: Geometry
    """``shape`` packed for the pair kernels."""
    placed: Placed
    """The sprite's pose when it was found, packed."""


class PlayerShape(NamedTuple):
    """The player's shape, packed once for every exact test of it."""

    shape: AnyShape
    reach: float
    """The radius of a circle about the player's centre holding the shape."""
    geometry: Geometry
    outline: tuple[tuple[float, float], ...]
    """The shape's local vertices (none for a point or circle, bounded by ``reach``)."""
    extent: Box
    """The shape's bounds at pose ``(0, 0, 0)``."""

    def bounds(self, placed: Placed) -> Box:
        """The shape's bounds at the packed pose ``placed``."""
        x, y, cos, sin = placed
        if sin == 0.0 and cos == 1.0:
            left, bottom, right, top = self.extent
            return (x + left, y + bottom, x + right, y + top)
        if not self.outline:
            reach = self.reach
            return (x - reach, y - reach, x + reach, y + reach)
        return _extent([to_world(local, x, y, cos, sin) for local in self.outline])


def pose_of(sprite: arcade.Sprite) -> Pose:
    """``sprite``'s pose now: centre and clockwise angle."""
    x, y = sprite.position
    return (x, y, sprite.angle)


def packed_pose(pose: Pose) -> Placed:
    """``pose`` packed for the pair kernels, checked as ``contact`` checks ``pose_a``.

    Raises:
        TypeError, ValueError: as :func:`~arcade_collide.geometry.query.dispatch.contact`
            for a bad ``pose_a``.
    """
    return pose_terms(pose, "pose_a")


class EngineWorld:
    """The private CollisionWorld holding one engine's sprite lists (module docstring)."""

    def __init__(self) -> None:
        self._world: CollisionWorld | None = None
        self._lists: tuple[tuple[str, arcade.SpriteList[Any]], ...] = ()
        self._player_key: tuple[Any, ...] = ()
        self._player_shape: PlayerShape | None = None
        self._cache: tuple[Box, int, list[Near]] | None = None

    def sync(self, groups: Sequence[tuple[str, str, Sequence[object]]]) -> None:
        """Follow the engine's lists: ``(argument name, kind, lists)`` per group.

        Raises:
            TypeError: an entry is not an ``arcade.SpriteList`` (naming the argument
                and index, e.g. ``walls[1]``).
        """
        held = tuple((kind, entry) for _, kind, entries in groups for entry in entries)
        if len(held) == len(self._lists) and all(
            a[0] == b[0] and a[1] is b[1] for a, b in zip(held, self._lists, strict=True)
        ):
            return  # the lists held are the ones checked when the world was built
        for name, _, entries in groups:
            for index, entry in enumerate(entries):
                if not isinstance(entry, arcade.SpriteList):
                    raise TypeError(
                        f"{name}[{index}] must be an arcade.SpriteList, got {type(entry).__name__}"
                    )
        checked = cast(tuple[tuple[str, arcade.SpriteList[Any]], ...], held)
        self.close()
        world = CollisionWorld()
        registered: set[int] = set()
        for kind, sprite_list in checked:
            if id(sprite_list) not in registered:
                registered.add(id(sprite_list))
                _register(world, sprite_list, kind)
        self._world, self._lists, self._cache = world, checked, None

    def close(self) -> None:
        """Close the private world (the engine's lists are left as they are)."""
        if self._world is not None:
            self._world.close()
        self._world, self._lists, self._cache = None, (), None

    def player_shape(self, player: arcade.Sprite) -> PlayerShape:
        """The player's shape (the hull of its hit box at its scale), packed, rebuilt
        when the hit box or scale change."""
        key = (player.hit_box, player.scale, player.width, player.height)
        if self._player_shape is None or key != self._player_key:
            shape = shape_for_sprite(player, hull=True)
            sx, sy = player.scale
            points = [(x * sx, y * sy) for x, y in player.hit_box.points]
            corner = math.hypot(player.width, player.height) * 0.5  # a Rect fallback
            reach = max([math.hypot(x, y) for x, y in points] + [corner])
            outline = () if isinstance(shape, (Point, Circle)) else tuple(shape.local_vertices())
            extent = _extent(outline) if outline else (-reach, -reach, reach, reach)
            packed = PlayerShape(shape, reach, geometry_of(shape, "shape"), outline, extent)
            self._player_shape, self._player_key = packed, key
        return self._player_shape

    def near(self, left: float, bottom: float, right: float, top: float) -> list[Near]:
        """The sprites of the engine's lists that may meet the box, now: the walls
        and ladders the world found in a box :data:`CACHE_PAD` px larger (asked again
        once the box leaves it or a sprite joined or left the world), and the
        platforms whose bounds meet the box (platforms move every tick)."""
        world = self._world
        if world is None:
            return []
        cache = self._cache
        row_of = world._bodies.row_of
        if (
            cache is None
            or not _holds(cache[0], (left, bottom, right, top))
            or (cache[1] != len(row_of) or not all(n.sprite in row_of for n in cache[2]))
        ):
            pad = CACHE_PAD
            box = (left - pad, bottom - pad, right + pad, top + pad)
            bodies = world._bodies
            rows = [bodies.list[bodies.row_of[sprite]] for sprite in world.aabb_query(*box)]
            still = [_near(body.sprite, str(body.kind), body.geometry) for body in rows
                     if body.kind != "platform"]  # fmt: skip
            cache = self._cache = (box, len(row_of), still)
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
                if row is None:
                    continue
                box = _extent(sprite.hit_box.get_adjusted_points())
                if _meets(box, left, bottom, right, top):
                    out.append(_near(sprite, kind, bodies.list[row].geometry, box))
        return out


def _near(sprite: arcade.Sprite, kind: str, shape: AnyShape, box: Box | None = None) -> Near:
    """``sprite`` as found now, its shape and pose packed (``box``: its bounds, if read)."""
    if box is None:
        box = _extent(sprite.hit_box.get_adjusted_points())
    placed = pose_terms(pose_of(sprite), "pose_b")
    return Near(sprite, kind, shape, box, geometry_of(shape, "shape_b"), placed)


def _extent(points: Sequence[tuple[float, float]]) -> Box:
    """The bounds of ``points``: of a sprite's adjusted hit-box points, what its
    ``left, bottom, right, top`` give, read once."""
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    return (min(xs), min(ys), max(xs), max(ys))


def _meets(box: Box, left: float, bottom: float, right: float, top: float) -> bool:
    return box[0] <= right and left <= box[2] and box[1] <= top and bottom <= box[3]


SLACK = TOUCH / 2
"""How much (px) more than their true overlap two bounds may seem to overlap by through
rounding (sprite bounds come from Arcade's hit box, the shapes' from their vertices)."""


def _deep(box: Box, other: Box) -> bool:
    """Whether the two bounds may overlap enough on both axes for the shapes inside
    them to overlap by more than :data:`TOUCH` (a shape moved by the bounds' overlap on
    one axis is out of the other, so the depth is at most that overlap; bounds narrower
    than :data:`SLACK` pass)."""
    return (box[0] + SLACK < other[2] and other[0] + SLACK < box[2]
            and box[1] + SLACK < other[3] and other[1] + SLACK < box[3])  # fmt: skip


def _holds(outer: Box, inner: Box) -> bool:
    return (outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2]
            and inner[3] <= outer[3])  # fmt: skip


def _register(world: CollisionWorld, sprite_list: arcade.SpriteList[Any], kind: str) -> None:
    """Add ``sprite_list`` to ``world``, its sprites now and later, as the hulls of
    their hit boxes (walls and ladders static)."""
    world.add_sprite_list(sprite_list, kind=kind, static=kind != "platform")


def _contact(player: PlayerShape, placed: Placed, other: Near) -> tuple[Any, ...]:
    """``contact`` of the player at ``placed`` and ``other`` as the kernel gives it:
    ``(touching, nx, ny, depth, px, py)``, zeros when apart."""
    return one_pair(True, *player.geometry, *other.geometry, *placed, *other.placed)


def _depth(player: PlayerShape, placed: Placed, other: Near) -> float:
    """How deep the player at ``placed`` overlaps ``other`` (0 when apart or touching)."""
    return float(_contact(player, placed, other)[3])


def overlapping(player: PlayerShape, pose: Pose, near: Iterable[Near]) -> list[Near]:
    """The sprites of ``near`` that the player at ``pose`` overlaps by more than
    :data:`TOUCH` (Arcade's collision: touching is not one); the pose is packed (and
    checked) only when some sprite's bounds overlap the player's enough."""
    x, y, angle = pose
    placed = None if angle == 0.0 else packed_pose(pose)
    if placed is None:
        left, bottom, right, top = player.extent
        box = (x + left, y + bottom, x + right, y + top)
    else:
        box = player.bounds(placed)
    found = [other for other in near if _deep(other.box, box)]
    if not found:
        return found
    if placed is None:
        placed = packed_pose(pose)
    return [other for other in found if _depth(player, placed, other) > TOUCH]


def advance(
    player: PlayerShape, pose: Pose, move: tuple[float, float], near: Iterable[Near]
) -> float:
    """The fraction of ``move`` that the player makes from ``pose`` before a sprite of
    ``near`` blocks it (1.0 when none does).

    A touch blocks only when the move goes on into the shape: a shape the move
    slides along (a flush row of tiles, a wall beside the player) or leaves does not.
    A straight move that enters a convex shape enters it right after its first touch,
    so looking :data:`PROBE` px past that touch decides. Only the sprites whose bounds
    meet the box the move sweeps (and :data:`PROBE` px beyond) are cast against.
    """
    mx, my = check_vec2(move, "translation")
    length = math.hypot(mx, my)
    if length == 0.0:
        return 1.0
    placed = packed_pose(pose)
    x, y, cos, sin = placed
    left, bottom, right, top = player.bounds(placed)
    swept = (left + min(mx, 0.0) - PROBE, bottom + min(my, 0.0) - PROBE,
             right + max(mx, 0.0) + PROBE, top + max(my, 0.0) + PROBE)  # fmt: skip
    best = 1.0
    out = np.empty(5)
    for other in near:
        if not _meets(other.box, *swept) or not one_cast(
            *player.geometry, *other.geometry, *placed, *other.placed, mx, my, out
        ):
            continue
        fraction = float(out[0])
        if fraction >= best:
            continue
        start = _depth(player, placed, other) if fraction == 0.0 else 0.0
        probe = fraction + PROBE / length
        ahead = (x + mx * probe, y + my * probe, cos, sin)
        if _depth(player, ahead, other) > start + TOUCH:
            best = fraction
    return best


def ramp_lift(player: PlayerShape, pose: Pose, rise: float, near: Sequence[Near]) -> float | None:
    """The least lift, at most ``rise``, that frees the player at ``pose`` from
    ``near`` (a slope or a low step), or None when even the full rise does not."""
    lifted = (pose[0], pose[1] + rise, pose[2])
    if overlapping(player, lifted, near):
        return None
    return rise * (1.0 - advance(player, lifted, (0.0, -rise), near))


def push_out(player: PlayerShape, pose: Pose, near: Sequence[Near], rounds: int = 16) -> Pose:
    """``pose`` moved out of every sprite of ``near`` it overlaps: each round moves it
    back along the deepest contact's normal by its depth."""
    x, y, angle = pose
    for _ in range(rounds):
        placed = packed_pose((x, y, angle))
        box = player.bounds(placed)
        deepest: tuple[float, float, float] | None = None
        for other in near:
            if not _deep(other.box, box):
                continue
            _, nx, ny, depth, _, _ = _contact(player, placed, other)
            if depth > TOUCH and (deepest is None or depth > deepest[2]):
                deepest = (nx, ny, depth)
        if deepest is None:
            break
        x -= deepest[0] * deepest[2]
        y -= deepest[1] * deepest[2]
    return (x, y, angle)

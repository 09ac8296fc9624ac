"""Many sprites asked about one kind at once: the answers of
:meth:`~.queries.WorldQueries.overlapping_many`, kept true while the game acts on them.

A shooter asks, for each bullet, which rocks it hits, and removes what was hit before
it asks about the next bullet. :class:`Overlaps` answers every bullet from one read of
the world (the moved sprites read once, the kind's bounding circles gathered once,
each bullet's few near rocks tested exactly), and each answer it gives is the one
``overlapping(bullet)`` would give at that moment:

* sprites that left the world since (a rock an earlier bullet removed) are left out
  of the answer given in the batch;
* when a sprite of the kind joined (a rock split in two), a sprite was touched (moved,
  resized) or a Shape was edited since, the answer is asked afresh with
  :meth:`~.queries.WorldQueries.overlapping`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from typing import Protocol

import arcade

from arcade_collide.arcade.bodies import Bodies
from arcade_collide.arcade.handlers import Body
from arcade_collide.arcade.kind_circles import KindCircles
from arcade_collide.ecs.world_state import WorldState


class _World(Protocol):
    """What the answers use of ``CollisionWorld``."""

    _bodies: Bodies
    _circles: KindCircles
    _closed: bool

    def overlapping(
        self, sprite: arcade.Sprite, kind: Hashable = ..., mask: int = ...
    ) -> list[arcade.Sprite]: ...


class Overlaps(Mapping[arcade.Sprite, list[arcade.Sprite]]):
    """What :meth:`~.queries.WorldQueries.overlapping_many` returns: for each sprite
    asked about, the sprites of the kind overlapping or touching it, as
    ``world.overlapping(sprite, kind, mask)`` would answer now (see the module
    docstring). Its keys are the sprites asked about, in the order given.

    Raises:
        KeyError: a sprite that was not asked about; or, as ``overlapping`` raises,
            one asked about that has left the world since.
    """

    def __init__(
        self,
        world: _World,
        state: WorldState,
        kind: Hashable,
        mask: int,
        every: bool,
        answers: dict[arcade.Sprite, list[Body]],
    ) -> None:
        self._world = world
        self._state = state
        self._kind = kind
        self._mask = mask
        self._every = every
        self._answers = answers
        self._stamp = self._now()

    def _now(self) -> tuple[object, object, tuple[int, int, int]]:
        """What a change of would make an answer given in the batch stale: the pose
        mirror (replaced when the world is cleared), the Position table, and the
        table's version, the last join of a sprite of the kind and the Shape edits."""
        bodies, state = self._world._bodies, self._state
        pool = state.pools.positions
        joins = bodies.joins if self._every else bodies.kind_joins(self._kind)
        return (bodies.mirror, pool.data, (pool.version, joins, state.shape_epoch.value))

    def __getitem__(self, sprite: arcade.Sprite) -> list[arcade.Sprite]:
        found = self._answers[sprite]
        world = self._world
        bodies = world._bodies
        mirror = bodies.mirror
        (mirror_then, data_then, counts_then), (_, data, counts) = self._stamp, self._now()
        fresh = (
            not world._closed
            and sprite in bodies.row_of
            and mirror is mirror_then
            and data is data_then
            and counts == counts_then
            and mirror.untouched()
            and not bodies.derived.boxes_freed()
        )
        if not fresh:
            return world.overlapping(sprite, kind=self._kind, mask=self._mask)
        mirror.note_quiet_read()  # a read between moves: see PoseMirror.accept
        by_entity = bodies.by_entity
        return [other.sprite for other in found if by_entity.get(other.entity) is other]

    def __iter__(self) -> Iterator[arcade.Sprite]:
        return iter(self._answers)

    def __len__(self) -> int:
        return len(self._answers)


def answer_all(
    world: _World, sprites: list[Body], kind: Hashable, mask: int
) -> dict[arcade.Sprite, list[Body]]:
    """For each of ``sprites`` (bodies of the world, read up to date), the bodies of
    ``kind`` overlapping or touching it, by ascending entity id."""
    circles_of = world._circles
    circles = circles_of.circles(kind)
    answers: dict[arcade.Sprite, list[Body]] = {}
    for body in sprites:
        found = circles_of.touching_in(circles, body, mask)
        if found is None:  # a pose is not finite: overlapping() names the sprite
            bodies = world._bodies
            sprites_found = world.overlapping(body.sprite, kind=kind, mask=mask)
            found = [bodies.list[bodies.row_of[other]] for other in sprites_found]
        answers[body.sprite] = found
    return answers

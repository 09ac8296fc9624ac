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

A small world, whose pose mirror compares stamps rather than keeping a touch log,
answers each sprite when its answer is looked up, from the poses read straight from
the sprites then (:meth:`~.kind_circles.KindCircles.touching_direct`): telling whether
an answer given earlier still holds would read every sprite again anyway. A larger
world whose touch log shows the kind's sprites as last read answers from the asked
sprites' own poses (:meth:`~.kind_circles.KindCircles.touching_logged`); an answer is
then looked up as given while the log took no touch and its sprite kept its stamp.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Mapping
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Protocol

import arcade

from arcade_collide.arcade.arcade_internals import stamp_reader, stamps_of
from arcade_collide.arcade.bodies import Bodies
from arcade_collide.arcade.handlers import Body
from arcade_collide.arcade.kind_circles import NO_BODIES, KindCircles, Stamped
from arcade_collide.ecs.world_state import WorldState

_sprite = attrgetter("sprite")
_first = itemgetter(0)
_second = itemgetter(1)

BATCH_ASKED = 16
"""From this many sprites asked about at once, the world's answers find the near pairs
by one query of a grid of the kind's circles
(:meth:`~.kind_circles.KindCircles.touching_batch`) rather than a Python loop per
sprite, while the kind's members stay where they were at its last question..."""

BATCH_MOVED = 64
"""...and from this many also when they moved (the grid is then made for the one
question)."""


class _World(Protocol):
    """What the answers use of ``CollisionWorld``."""

    _bodies: Bodies
    _circles: KindCircles
    _closed: bool
    _sweeping: bool

    def overlapping(
        self, sprite: arcade.Sprite, kind: Hashable = ..., mask: int = ...
    ) -> list[arcade.Sprite]: ...
    def _sync(self) -> None: ...
    def _overlapping_read(
        self, body: Body, kind: Hashable, mask: int
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
        # A change of any of these makes an answer given in the batch stale: the pose
        # mirror (replaced when the world is cleared), the Position table, the counts
        # of _counts_now, and the mirror's version (a read, say) or its changes.
        bodies = world._bodies
        self._bodies = bodies
        self._mirror = bodies.mirror
        self._positions = state.pools.positions
        self._data = self._positions.data
        self._counts = self._counts_now()
        self._changes = self._mirror.changes()
        self._version = self._mirror.version
        self._revision = bodies.revision

    def _counts_now(self) -> tuple[int, int, int, int]:
        """The Position table's version, the last join of a sprite of the kind, the
        Shape edits' epoch and the edits of the world's Shapes (placed by a tick or not)."""
        bodies = self._bodies
        joins = bodies.joins if self._every else bodies.kind_joins(self._kind)
        return (
            self._positions.version, joins, self._state.shape_epoch.value,
            bodies.shape_edits.value,
        )  # fmt: skip

    def __getitem__(self, sprite: arcade.Sprite) -> list[arcade.Sprite]:
        found = self._answers[sprite]
        world, bodies, mirror = self._world, self._bodies, self._mirror
        positions = self._positions
        fresh = (
            not world._closed
            and bodies.mirror is mirror
            and sprite in bodies.row_of
            and positions.data is self._data
            and not bodies.derived.boxes_freed()
            # A read since (a question answered afresh) may have rebuilt a shape.
            and self._counts_now() == self._counts
            and mirror.version == self._version
            and mirror.untouched()
        )
        if not fresh:
            return world.overlapping(sprite, kind=self._kind, mask=self._mask)
        mirror.note_quiet_read()  # a read between moves: see PoseMirror.accept
        return self._held(found) if found else []

    def _held(self, found: list[Body]) -> list[arcade.Sprite]:
        """The sprites of the bodies ``found`` (some) still in the world."""
        bodies = self._bodies
        if bodies.revision == self._revision:  # none joined or left since: all still held
            return [other.sprite for other in found]
        by_entity = bodies.by_entity
        return [other.sprite for other in found if by_entity.get(other.entity) is other]

    def __iter__(self) -> Iterator[arcade.Sprite]:
        return iter(self._answers)

    def __len__(self) -> int:
        return len(self._answers)


class LoggedOverlaps(Overlaps):
    """The :class:`Overlaps` answered from the asked sprites' poses read straight from
    them while the touch log showed the kind's sprites as the world last read them
    (:meth:`~.kind_circles.KindCircles.touching_logged`): an answer is looked up as
    given while the log took no touch and its sprite kept the stamp it was read with."""

    def __init__(
        self,
        world: _World,
        state: WorldState,
        kind: Hashable,
        mask: int,
        every: bool,
        answers: dict[arcade.Sprite, list[Body]],
        logged: Stamped,
    ) -> None:
        super().__init__(world, state, kind, mask, every, answers)
        self._logged = logged
        """The stamps of the sprites asked about, when their poses were read."""
        self._stamp_of = stamp_reader()

    def __getitem__(self, sprite: arcade.Sprite) -> list[arcade.Sprite]:
        found = self._answers[sprite]
        bodies, positions, counts = self._bodies, self._positions, self._counts
        # A closed world has no sprite left (and takes none); the mirror's changes count
        # every join and read, so of _counts_now the table's version and the two counts
        # of Shape edits are left to compare.
        if (
            sprite in bodies.row_of
            and self._mirror.log_still(self._changes)
            and self._stamp_of(sprite) == self._logged[sprite]
            and positions.version == counts[0]
            and positions.data is self._data
            and self._state.shape_epoch.value == counts[2]
            and bodies.shape_edits.value == counts[3]
            and not bodies.derived.boxes_freed()
        ):
            return self._held(found) if found else []
        return self._world.overlapping(sprite, kind=self._kind, mask=self._mask)


class AnsweredWhenLookedUp(Overlaps):
    """The :class:`Overlaps` of a small world, whose pose mirror compares stamps: each
    answer is found when it is looked up, from the sprites' poses read straight from
    them then (see the module docstring), as ``world.overlapping`` finds it."""

    def __init__(
        self, world: _World, kind: Hashable, mask: int, asked: list[arcade.Sprite]
    ) -> None:
        self._world = world
        self._kind = kind
        self._mask = mask
        self._answers = dict.fromkeys(asked, NO_BODIES)  # (no answer given yet)

    def __getitem__(self, sprite: arcade.Sprite) -> list[arcade.Sprite]:
        self._answers[sprite]  # (KeyError: not asked about)
        world = self._world
        bodies = world._bodies
        row = bodies.row_of.get(sprite)
        if row is None or world._closed:  # overlapping() raises
            return world.overlapping(sprite, kind=self._kind, mask=self._mask)
        body = bodies.list[row]
        if not world._sweeping:
            # Each answer counts as one more check of the sprites' stamps.
            found = world._circles.touching_direct(body, row, self._kind, self._mask, False)
            if found is not None:
                return [other.sprite for other in found]
        return world._overlapping_read(body, self._kind, self._mask)


def answer_batch(
    world: _World, sprites: list[Body], rows: list[int], kind: Hashable, mask: int, every: bool
) -> Overlaps:
    """What :meth:`~.queries.WorldQueries.overlapping_many` returns for ``sprites``
    (bodies of the world, at ``rows``; ``mask`` checked, ``every``: ``kind`` is
    ``ANY_KIND``)."""
    circles = world._circles
    state = circles.state
    if not world._sweeping and world._bodies.mirror.stamps_for(read=True) is not None:
        return _later(world, sprites, kind, mask)
    logged = None if world._sweeping else circles.touching_logged(sprites, rows, kind, mask)
    if logged is not None:
        circles.batch_done()
        return LoggedOverlaps(world, state, kind, mask, every, logged[0], logged[1])
    world._sync()
    world._bodies.mirror.note_quiet_read()  # its answers are read between moves
    answers = answer_all(world, sprites, kind, mask)
    circles.batch_done()
    return Overlaps(world, state, kind, mask, every, answers)


def _later(world: _World, sprites: list[Body], kind: Hashable, mask: int) -> Overlaps:
    """A small world's answers, each found when it is looked up; the world reads its
    sprites first (and names one at a non-finite pose) unless every asked sprite's
    pose is finite."""
    asked = list(map(_sprite, sprites))
    stamps = stamps_of(asked)
    # One sum is finite when every value is (a huge one may overflow it: the read decides).
    if not math.isfinite(
        sum(chain.from_iterable(map(_first, stamps)), 0.0) + sum(map(_second, stamps), 0.0)
    ):
        world._sync()
    return AnsweredWhenLookedUp(world, kind, mask, asked)


def answer_all(
    world: _World, sprites: list[Body], kind: Hashable, mask: int
) -> dict[arcade.Sprite, list[Body]]:
    """For each of ``sprites`` (bodies of the world, read up to date), the bodies of
    ``kind`` overlapping or touching it, by ascending entity id."""
    circles_of = world._circles
    if len(sprites) >= BATCH_ASKED:
        batch = circles_of.touching_batch(sprites, kind, mask, len(sprites) >= BATCH_MOVED)
        if batch is not None:
            return {body.sprite: found for body, found in zip(sprites, batch, strict=True)}
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

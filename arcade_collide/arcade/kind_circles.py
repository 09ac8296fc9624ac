"""Bounding circles of a world's sprites by kind: the quick proof that a sprite touches
no sprite of a kind, which lets :meth:`~.queries.WorldQueries.overlapping` answer
without bringing the shape table up to date or running a query.

Every shape lies inside the circle of its ``bounding_radius`` about its pose origin, so
two sprites whose circles are apart (by more than a rounding allowance) cannot touch.
Only the sprites whose circles reach the queried sprite's are tested exactly
(:func:`~.sprite_pairs.touching_bodies`), so the exact answer is the only one returned.

A kind's members (bodies, Position rows, radii) are gathered again only when a sprite
of that kind joins or leaves the world or a Shape of the world is edited, through the
world or through esper (a bullet removed leaves the rocks' members as they were; each
Shape tells :attr:`~.bodies.Bodies.shape_edits`); their circles, sorted by x so
that each query looks only at the circles within its reach in x, only when a Position
was written since.

In a small world (:data:`~.pose_mirror.SMALL_WORLD`, its pose mirror comparing stamps)
whose Position table still holds the poses the world last read from or wrote to its
sprites, :meth:`KindCircles.touching_direct` answers one sprite from the poses read
straight from it and from the kind's members: one Python loop over the members'
circles, then the exact test of the few left. No esper world is switched to and
nothing is stored: the answer is the one the world gives after reading the sprites,
since the shapes are the same (none of those sprites' sizes or hit boxes changed since
the last read), and so are the poses (the values a read would store).

In a larger world, whose pose mirror keeps a touch log,
:meth:`KindCircles.touching_logged` answers many sprites asked about at once (the
bullets a game moved) from their poses read straight from them, while the log shows
that no sprite of the kind asked about changed since the world last read it: the
kind's circles (and their grid) are as kept, so one compiled pass (over every pair
of asked sprite and member, or a query of the grid when there are many) and the exact
test of the few pairs left answer, and the moves wait in the log for the next read.
Only while no read came between two batch questions: a game that steps between them
has the step read the moves anyway.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Hashable
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any, NamedTuple

import arcade
import numpy as np
from numpy.typing import NDArray

from arcade_collide.arcade import arcade_internals as internals
from arcade_collide.arcade.arcade_internals import Stamps
from arcade_collide.arcade.bodies import Bodies
from arcade_collide.arcade.handlers import Body
from arcade_collide.arcade.sprite_pairs import Pose, touching_bodies
from arcade_collide.ecs.world_state import WorldState
from arcade_collide.geometry.circle_pairs import widened_circle_pairs
from arcade_collide.geometry.shapes import AnyShape
from arcade_collide.geometry.static_grid import StaticGrid

ROUNDING_ALLOWANCE = 1e-9
"""Circles nearer than this fraction of their reach (their radii and coordinates) are
taken to meet: millions of times the rounding of the exact tests' world coordinates."""

_geometry = attrgetter("_geometry")
"""A Shape's geometry, read from the slot behind ``Shape.geometry`` (whose getter is a
Python call per shape; :meth:`KindCircles._members_of` reads every member's)."""
_TUPLE = frozenset({tuple})
_pool_row = attrgetter("position.pool_row")
_shape = attrgetter("shape")
_kind = attrgetter("kind")
_sprite = attrgetter("sprite")
_first = itemgetter(0)
_second = itemgetter(1)
_size_of_stamp = itemgetter(2, 3)
NO_BODIES: list[Body] = []
"""The answer of a sprite that touches nothing, shared by all (answers are never changed
in place)."""

FULL_POSE_CHECK = 2048
"""In a world of at most this many sprites, the check that the Position table holds the
pose mirror's poses compares every row, once per table version (a few µs); a larger
world compares the rows asked about at each question."""

BRUTE_PAIRS = 4096
"""A batch question tests every asked-times-member pair of circles up to this many;
above, the asked circles query a grid of the members' (:meth:`KindCircles._grid_of`)."""

_MAX_RADII = 4096
"""Radii remembered by geometry before the memo starts afresh (sprites resized often)."""


class _Members(NamedTuple):
    """The sprites of one kind, as they stand while none joins or leaves."""

    revision: int
    """The kind's :meth:`~.bodies.Bodies.kind_revision` when they were gathered."""
    edits: int
    """The bodies' :attr:`~.bodies.Bodies.shape_edits` then (the radii are of the
    geometries their Shapes held)."""
    bodies: list[Body]
    rows: NDArray[np.intp]
    """Each one's row in the Position table."""
    radii: NDArray[np.float64]
    radius_list: list[float]
    """:attr:`radii` as Python floats."""
    max_radius: float


class _Direct(NamedTuple):
    """One kind's members as :meth:`KindCircles.touching_direct` reads them, for one
    read of the pose mirror."""

    members: _Members
    seen: Stamps
    """The mirror's stamps of the read they were found for."""
    sprites: list[arcade.Sprite]
    """The members' sprites."""
    widths: list[Any]
    """Their width objects at that read."""
    heights: list[Any]
    """Their height objects at that read."""


class _Asked(NamedTuple):
    """The sprites one batch question asked about, as :meth:`KindCircles._asked_held`
    found them."""

    sprites: list[arcade.Sprite]
    revision: int
    """The bodies' :attr:`~.bodies.Bodies.revision` then (their rows are the same)."""
    version: int
    """The pose mirror's :attr:`~.pose_mirror.PoseMirror.version` then."""
    edits: int
    """The bodies' :attr:`~.bodies.Bodies.shape_edits` then (the radii are of the
    geometries their Shapes held)."""
    table: object
    """The Position table (its array) then..."""
    table_version: int
    """...and its version."""
    sizes: list[tuple[Any, Any]]
    """Their width and height objects, which their derived shapes were built for."""
    radii: NDArray[np.float64]
    """The bounding radii of their geometries."""


class Circles(NamedTuple):
    """The circles of one kind's members at the poses of one Position version, sorted by x."""

    members: _Members
    """The members they were read for."""
    table: object
    """The Position table (its array) when they were read."""
    version: int
    """And its version."""
    xs: list[float]
    ys: list[float]
    radii: list[float]
    bodies: list[Body]
    finite: bool
    """Whether every pose is finite (else the exact query is left to name the sprite)."""
    xy: NDArray[np.float64]
    """The members' positions they were read from, by member."""


Stamped = dict[arcade.Sprite, tuple[Any, Any, Any, Any]]
"""Sprites and their :func:`~.arcade_internals.stamp_of` when they were read."""


class KindCircles:
    """The bounding circles of one world's sprites by kind.

    Args:
        bodies: The world's bodies.
        state: The world's esper world state (its Position pool).
        any_kind: The ``kind`` value that stands for every sprite.
    """

    def __init__(self, bodies: Bodies, state: WorldState, any_kind: object) -> None:
        self._bodies = bodies
        self.state = state
        """The world's esper world state."""
        self._any_kind = any_kind
        self._members: dict[Hashable, _Members] = {}
        self._circles: dict[Hashable, Circles] = {}
        self._radius: dict[int, tuple[AnyShape, float]] = {}
        """Each geometry's bounding radius, by ``id`` (the geometry is kept with it)."""
        self._grids: dict[Hashable, tuple[NDArray[np.float64], _Members, StaticGrid | None]] = {}
        """The grid of each kind's circles (:meth:`_grid_of`; None: not made), with the
        positions and members it was made or last looked for."""
        self._quiet: dict[Hashable, tuple[object, _Members, int]] = {}
        """Per kind, the pose mirror, the members and the mirror's changes when its log
        last held none of them (:meth:`_members_quiet`)."""
        self._asked: _Asked | None = None
        """The sprites :meth:`touching_logged` last checked (see :meth:`_asked_held`)."""
        self._reads_after_batch = 0
        """The pose mirror's reads when the last batch question was answered."""
        self._direct: dict[Hashable, _Direct] = {}
        """Per kind, what :meth:`touching_direct` reads its members with."""
        self._synced: tuple[object, int] | None = None
        """The Position table (its array) and its version when it was last found to
        hold the poses the pose mirror holds (:meth:`_poses_held`)."""

    def _table_unwritten(self) -> bool:
        """Whether the Position table (its array and version) is as :meth:`_poses_held`
        last found it holding the pose mirror's poses."""
        pool = self.state.pools.positions
        synced = self._synced
        return synced is not None and synced[0] is pool.data and synced[1] == pool.version

    def _poses_held(self) -> bool:
        """Whether the Position table holds the poses the pose mirror of a small world
        last saw on or gave to the sprites, compared again only when the table was
        written since it last did."""
        if self._table_unwritten():
            return True
        self._synced = None
        bodies = self._bodies
        mirror = bodies.mirror
        pool = self.state.pools.positions
        poses = pool.data[bodies.table_rows]
        if np.array_equal(poses[:, 0:2], mirror.xy) and np.array_equal(poses[:, 2], mirror.angle):
            self._synced = (pool.data, pool.version)
        return self._synced is not None

    def touching_direct(
        self, body: Body, row: int, kind: Hashable, mask: int, read: bool = True
    ) -> list[Body] | None:
        """:meth:`touching` for ``body`` (at row ``row``) at the poses read straight from
        the sprites now, in a small world (its pose mirror compares stamps) whose
        Position table holds the poses it last read: the answer the world gives once
        it has read them, as long as the sprites read here (``body`` and the members of
        ``kind``) kept the sizes and hit boxes of that read and their poses are finite;
        else None (the world reads first, and names a sprite at a non-finite pose).
        Counts as a read of the sprites' stamps (``read``) or as one more check of
        them (:meth:`~.pose_mirror.PoseMirror.stamps_for`)."""
        bodies = self._bodies
        seen = bodies.mirror.stamps_for(read)
        if seen is None or bodies.derived.boxes_freed() or not self._poses_held():
            return None
        members = self._members_of(kind)
        direct = self._direct_of(kind, members, seen)
        at, turn, width, height = internals.stamp_of(body.sprite)
        if width != seen[2][row] or height != seen[3][row]:
            return None  # resized: its derived shape is rebuilt by a read
        places, turns, widths, heights = internals.stamps(direct.sprites)
        if widths != direct.widths or heights != direct.heights:
            return None
        x, y, angle = float(at[0]), float(at[1]), float(turn)
        reach = _reach(x, y, self._radius_of(_geometry(body.shape)), members.max_radius)
        # One sum is finite when every value is (a huge one may overflow it: the read decides).
        total = x + y + angle + sum(turns, 0.0)
        near: list[tuple[Body, Pose]] = []
        for place, other_turn, radius, other in zip(
            places, turns, members.radius_list, members.bodies, strict=True
        ):
            dx, dy = place[0] - x, place[1] - y
            total += dx + dy
            limit = radius + reach
            if dx * dx + dy * dy <= limit * limit and other is not body:
                near.append((other, (float(place[0]), float(place[1]), float(other_turn))))
        if not math.isfinite(total):
            return None
        return touching_bodies(body, (x, y, angle), near, mask) if near else []

    def _direct_of(self, kind: Hashable, members: _Members, seen: Stamps) -> _Direct:
        """The sprites of ``members`` (of ``kind``) and their sizes in the mirror's
        stamps ``seen``, found again after a read or when the members changed."""
        kept = self._direct.get(kind)
        if kept is not None and kept.members is members and kept.seen is seen:
            return kept
        sprites = list(map(_sprite, members.bodies))
        rows = list(map(self._bodies.row_of.__getitem__, sprites))
        widths, heights = seen[2], seen[3]
        direct = _Direct(
            members, seen, sprites, [widths[row] for row in rows], [heights[row] for row in rows]
        )
        self._direct[kind] = direct
        return direct

    def touching_logged(
        self, asked: list[Body], mine: list[int], kind: Hashable, mask: int
    ) -> tuple[dict[arcade.Sprite, list[Body]], Stamped] | None:
        """:meth:`touching` for each of ``asked`` (at rows ``mine``) at the poses read
        straight from their sprites, while the touch log shows that no member of
        ``kind`` changed since the world last read it (the members' circles and their
        grid are as kept), and the asked sprites' stamps the answers were given for;
        None when the world must
        read its sprites first (a member was touched, the log is not in use, an asked
        sprite was resized or holds a pose the world would not store as read) or has
        nothing to read (the log is empty), and when the world read its sprites since
        the last batch question (:meth:`batch_done`): a game that steps between its
        questions has its moves read by the step anyway, so a question that reads
        them first spares the step that read."""
        bodies = self._bodies
        mirror = bodies.mirror
        if mirror.reads != self._reads_after_batch:
            return None  # the game steps between batches: the step would read them again
        changes = mirror.log_touches()
        if changes is None or not mirror.logged_any() or bodies.derived.boxes_freed():
            return None  # (with nothing logged, the world's read costs nothing)
        members = self._members_of(kind)
        if not self._members_quiet(kind, members, changes):
            return None
        circles = self.circles(kind, members)
        if not circles.finite:
            return None
        sprites = list(map(_sprite, asked))
        stamps = internals.stamps_of(sprites)
        places = list(map(_first, stamps))
        if not _TUPLE.issuperset(map(type, places)):
            return None
        n = len(sprites)
        at = np.fromiter(chain.from_iterable(places), np.float64, count=2 * n).reshape(n, 2)
        # One sum is finite when every value is (a huge one may overflow it: the read decides).
        if not math.isfinite(sum(map(_second, stamps), 0.0)):
            return None
        held = self._asked_held(asked, sprites, mine, stamps)
        if held is None:
            return None
        near = self._near_asked(kind, circles, asked, at, held.radii)
        if near is None:
            return None  # a position is not finite
        read = dict(zip(sprites, stamps, strict=True))
        answers = dict.fromkeys(sprites, NO_BODIES)
        for k, others in near.items():
            (x, y), angle = stamps[k][0], stamps[k][1]
            answers[sprites[k]] = touching_bodies(
                asked[k], (float(x), float(y), float(angle)), others, mask
            )
        return answers, read

    def _asked_held(
        self,
        asked: list[Body],
        sprites: list[arcade.Sprite],
        mine: list[int],
        stamps: list[tuple[Any, Any, Any, Any]],
    ) -> _Asked | None:
        """``asked`` (their ``sprites``, at rows ``mine``, with ``stamps`` just read) as
        :meth:`touching_logged` checks them, or None when the Position table does not
        hold the pose mirror's poses at their rows or a derived shape among them was
        built for another size than its stamp's (a read then decides). A game asks
        about the same sprites tick after tick (its bullets): while none joined or left
        the world, the pose mirror's version stayed (no read, so no shape rebuilt), no
        Shape was edited and the Position table was not written, sprites with the sizes
        of the last check need no other."""
        bodies = self._bodies
        pool = self.state.pools.positions
        sizes = list(map(_size_of_stamp, stamps))
        kept = self._asked
        if (
            kept is not None
            and kept.revision == bodies.revision
            and kept.version == bodies.mirror.version
            and kept.table is pool.data
            and kept.table_version == pool.version
            and kept.edits == bodies.shape_edits.value
            and kept.sprites == sprites
            and kept.sizes == sizes
        ):
            return kept
        self._asked = None
        rows = np.array(mine, dtype=np.intp)
        size = np.fromiter(chain.from_iterable(sizes), np.float64, 2 * len(sizes))
        if not (bodies.derived.sizes_held(rows, size.reshape(-1, 2)) and self._rows_held(rows)):
            return None
        self._asked = _Asked(
            sprites, bodies.revision, bodies.mirror.version, bodies.shape_edits.value,
            pool.data, pool.version, sizes, self._radii_of(asked),
        )  # fmt: skip
        return self._asked

    def _radii_of(self, bodies: list[Body]) -> NDArray[np.float64]:
        """The bounding radii of the shapes of ``bodies``, as an array."""
        geometries = list(map(_geometry, map(_shape, bodies)))
        n = len(geometries)
        if n and geometries.count(geometries[0]) == n:  # one shape for all (a gun's bullets)
            return np.full(n, self._radius_of(geometries[0]))
        return np.fromiter(map(self._radius_of, geometries), np.float64, count=n)

    def batch_done(self) -> None:
        """Note that a batch question was answered, after any read it made (see
        :meth:`touching_logged`)."""
        self._reads_after_batch = self._bodies.mirror.reads

    def _members_quiet(self, kind: Hashable, members: _Members, changes: int) -> bool:
        """Whether the touch log holds no member of ``kind`` (``members``), looked at
        again only when the mirror's :meth:`~.pose_mirror.PoseMirror.changes` grew
        since it last held none."""
        quiet = self._quiet.get(kind)
        mirror = self._bodies.mirror
        if quiet is not None and quiet[0] is mirror and quiet[1] is members and quiet[2] == changes:
            return True  # entries since only left the log
        self._quiet.pop(kind, None)
        if kind is not self._any_kind:
            listed = self._bodies.list
            if kind in map(_kind, map(listed.__getitem__, mirror.logged_rows())):
                return False
        elif mirror.logged_rows():
            return False
        self._quiet[kind] = (mirror, members, changes)
        return True

    def _rows_held(self, rows: NDArray[np.intp]) -> bool:
        """Whether the Position table holds the pose mirror's poses at ``rows`` (rows
        of the bodies): surely while it is as :meth:`_poses_held` last found it."""
        bodies = self._bodies
        if len(bodies.list) <= FULL_POSE_CHECK or self._table_unwritten():
            return self._poses_held()  # every row, then known until the table is written
        poses = self.state.pools.positions.data.take(bodies.table_rows.take(rows), axis=0)
        mirror = bodies.mirror
        return np.array_equal(poses[:, 0:2], mirror.xy.take(rows, axis=0)) and np.array_equal(
            poses[:, 2], mirror.angle.take(rows)
        )

    def touching(self, body: Body, kind: Hashable, mask: int) -> list[Body] | None:
        """The other sprites of ``kind`` on a layer of ``mask`` whose shapes overlap or
        touch ``body``'s, at the poses of their Positions, by ascending entity id; None
        when a pose is not finite (no circle proves anything)."""
        return self.touching_in(self.circles(kind), body, mask)

    def touching_in(self, circles: Circles, body: Body, mask: int) -> list[Body] | None:
        """:meth:`touching` among ``circles``, which :meth:`circles` gave in this state
        of the world (one call for many sprites asked about one kind)."""
        near = self._near_in(circles, body)
        if not near:
            return near
        item = self.state.pools.positions.data.item
        poses = [(item(r, 0), item(r, 1), item(r, 2)) for r in map(_pool_row, near)]
        position = body.position
        pose = (position.x, position.y, position.angle)
        return touching_bodies(body, pose, list(zip(near, poses, strict=True)), mask)

    def touching_batch(
        self, asked: list[Body], kind: Hashable, mask: int, moved_too: bool = False
    ) -> list[list[Body]] | None:
        """:meth:`touching` for each of ``asked`` at once: the near pairs found by one
        query of a grid of the kind's circles (:meth:`_grid_of`), then the exact test
        of those. None when the grid is not worth making (the kind's members moved
        since the last question, and not ``moved_too``) or a position is not finite:
        then :meth:`touching_in`, sprite by sprite, answers (and says which answer a
        non-finite position spoils)."""
        circles = self.circles(kind)
        members = circles.members
        answers: list[list[Body]] = [[] for _ in asked]
        if not asked or not members.bodies:
            return answers
        grid = self._grid_of(kind, circles, moved_too) if circles.finite else None
        if grid is None:
            return None
        data = self.state.pools.positions.data
        rows = np.fromiter(map(_pool_row, asked), np.intp, count=len(asked))
        mine = data.take(rows, axis=0)[:, 0:3]
        # One sum is finite when every value is (a huge one may overflow it: the loop decides).
        if not math.isfinite(float(mine[:, 0:2].sum())):
            return None
        near = self._near_grid(grid, circles, asked, mine, self._radii_of(asked))
        if not near:
            return answers
        poses = mine.tolist()
        for k, others in near.items():
            x, y, angle = poses[k]
            answers[k] = touching_bodies(asked[k], (x, y, angle), others, mask)
        return answers

    def _near_asked(
        self,
        kind: Hashable,
        circles: Circles,
        asked: list[Body],
        at: NDArray[np.float64],
        radii: NDArray[np.float64],
    ) -> _Near | None:
        """:meth:`_near_grid` for ``asked`` at positions ``at`` (``(N, 2)``, C order)
        of radii ``radii``, among the circles of ``kind``; None when a position is not
        finite. Up to :data:`BRUTE_PAIRS` asked-times-member pairs are all tested in
        one compiled pass, with no grid made."""
        members = circles.members
        pairs = len(asked) * len(members.bodies)
        if pairs > BRUTE_PAIRS:
            # One sum is finite when every value is (a huge one may overflow it: then None).
            if not math.isfinite(float(at.sum())):
                return None
            grid = self._grid_of(kind, circles, True)
            assert grid is not None  # (made when asked to be)
            return self._near_grid(grid, circles, asked, at, radii)
        out_q, out_s = np.empty(pairs, np.int64), np.empty(pairs, np.int64)
        found = widened_circle_pairs(
            at, radii, ROUNDING_ALLOWANCE, members.max_radius, circles.xy, members.radii,
            out_q, out_s,
        )  # fmt: skip
        if found < 0:
            return None
        return self._near_found(circles, asked, out_q[:found], out_s[:found])

    def _near_grid(
        self,
        grid: StaticGrid,
        circles: Circles,
        asked: list[Body],
        mine: NDArray[np.float64],
        radii: NDArray[np.float64],
    ) -> _Near:
        """The members of ``circles`` whose circles meet each asked sprite's (at pose
        ``mine[k]``, of radius ``radii[k]``), other than itself, with their poses: the
        asked circles (each widened by its rounding allowance, :func:`_reach_all`)
        query ``grid`` (:meth:`_grid_of`) in one compiled pass."""
        members = circles.members
        reach = _reach_all(mine, radii, members.max_radius)
        q, s = grid.circle_pairs(mine, reach, circles.xy, members.radii)
        return self._near_found(circles, asked, q, s)

    def _near_found(
        self, circles: Circles, asked: list[Body], q: NDArray[np.int64], s: NDArray[np.int64]
    ) -> _Near:
        """The members of ``circles`` in the pairs ``(q, s)`` (asked sprite ``asked[q]``,
        member ``s``) whose circles meet, with their poses, by index of asked sprite (a
        sprite's pair with itself left out)."""
        if not len(q):
            return {}
        members = circles.members
        bodies, item = members.bodies, self.state.pools.positions.data.item
        found: _Near = {}
        for k, j, row in zip(q.tolist(), s.tolist(), members.rows[s].tolist(), strict=True):
            other = bodies[j]
            if other is not asked[k]:
                found.setdefault(k, []).append((other, (item(row, 0), item(row, 1), item(row, 2))))
        return found

    def _grid_of(self, kind: Hashable, circles: Circles, moved_too: bool) -> StaticGrid | None:
        """A grid of the boxes of the circles of ``kind`` (``circles``), by member, kept
        while they are the same members at the same positions. A new one is made for
        members that were already at these positions at the kind's last question (still
        members), or that are asked about for the first time, or when ``moved_too``;
        otherwise None (members that move between questions would need a grid each
        time, which costs more than walking their sorted circles)."""
        members = circles.members
        kept = self._grids.get(kind)
        if kept is not None and kept[1] is members:
            if kept[0] is circles.xy:
                if kept[2] is not None:
                    return kept[2]
            elif not moved_too:
                self._grids[kind] = (circles.xy, members, None)  # seen here: still next time?
                return None
        grid = StaticGrid(_circle_boxes(circles.xy[:, 0], circles.xy[:, 1], members.radii))
        self._grids[kind] = (circles.xy, members, grid)
        return grid

    def _near_in(self, circles: Circles, body: Body) -> list[Body] | None:
        """The members of ``circles`` other than ``body`` whose circles meet its circle
        (the rest surely do not touch it), in no set order; None when a pose is not
        finite."""
        data = self.state.pools.positions.data
        row = body.position.pool_row
        x, y = data.item(row, 0), data.item(row, 1)
        if not (circles.finite and math.isfinite(x) and math.isfinite(y)):
            return None
        own = self._radius_of(body.shape.geometry)
        largest = circles.members.max_radius
        allowance = ROUNDING_ALLOWANCE * (1.0 + abs(x) + abs(y) + own + largest)
        span = own + largest + allowance
        xs, ys, radii, bodies = circles.xs, circles.ys, circles.radii, circles.bodies
        found = []
        for k in range(bisect_left(xs, x - span), bisect_right(xs, x + span)):
            dx, dy, reach = xs[k] - x, ys[k] - y, radii[k] + own + allowance
            if dx * dx + dy * dy <= reach * reach and bodies[k] is not body:
                found.append(bodies[k])
        return found

    def circles(self, kind: Hashable, members: _Members | None = None) -> Circles:
        """The circles of ``kind`` (whose members are ``members`` when the caller has
        just gathered them), read again when a Position was written or the members
        changed; sorted again only when a member's position changed (the bullets moved,
        the rocks they are asked about did not)."""
        if members is None:
            members = self._members_of(kind)
        pool = self.state.pools.positions
        kept = self._circles.get(kind)
        if kept is not None and (kept.members is not members or kept.table is not pool.data):
            kept = None  # made for other members or another table: nothing to compare
        if kept is not None and kept.version == pool.version:
            return kept
        xy = pool.data[members.rows, 0:2]
        if kept is not None and np.array_equal(xy, kept.xy):
            kept = self._circles[kind] = Circles(
                kept.members, kept.table, pool.version, kept.xs, kept.ys, kept.radii,
                kept.bodies, kept.finite, kept.xy,
            )  # fmt: skip
            return kept
        order = np.argsort(xy[:, 0], kind="stable")
        bodies = members.bodies
        circles = Circles(
            members,
            pool.data,
            pool.version,
            xy[order, 0].tolist(),
            xy[order, 1].tolist(),
            members.radii[order].tolist(),
            [bodies[k] for k in order.tolist()],
            bool(np.isfinite(xy).all()),
            xy,
        )
        self._circles[kind] = circles
        return circles

    def member_count(self, kind: Hashable) -> int:
        """How many sprites of ``kind`` the world holds."""
        return len(self._members_of(kind).bodies)

    def _members_of(self, kind: Hashable) -> _Members:
        """The members of ``kind``, gathered again when one joined or left the world or
        a Shape of the world was edited (another geometry, say)."""
        bodies = self._bodies
        every = kind is self._any_kind
        revision = bodies.revision if every else bodies.kind_revision(kind)
        edits = bodies.shape_edits.value
        members = self._members.get(kind)
        if members is not None and members.revision == revision and members.edits == edits:
            return members
        chosen = [body for body in bodies.list if every or body.kind == kind]
        radii = [self._radius_of(_geometry(body.shape)) for body in chosen]
        members = _Members(
            revision,
            edits,
            chosen,
            np.array([body.position.pool_row for body in chosen], dtype=np.intp),
            np.array(radii, dtype=np.float64),
            radii,
            max(radii, default=0.0),
        )
        self._members[kind] = members
        return members

    def _radius_of(self, geometry: AnyShape) -> float:
        # By identity: hashing a polygon's points costs more than a lookup.
        known = self._radius.get(id(geometry))
        if known is not None and known[0] is geometry:
            return known[1]
        if len(self._radius) >= _MAX_RADII:
            self._radius.clear()
        radius = float(geometry.bounding_radius)
        self._radius[id(geometry)] = (geometry, radius)
        return radius


_Near = dict[int, list[tuple[Body, Pose]]]
"""Per index of a sprite asked about, the members near it with their poses."""


def _circle_boxes(
    x: NDArray[np.float64], y: NDArray[np.float64], r: NDArray[np.float64]
) -> NDArray[np.float64]:
    """``(N, 4)`` boxes ``(min_x, min_y, max_x, max_y)`` of the circles about ``(x, y)``
    of radii ``r``."""
    boxes = np.empty((len(x), 4))
    np.subtract(x, r, out=boxes[:, 0])
    np.subtract(y, r, out=boxes[:, 1])
    np.add(x, r, out=boxes[:, 2])
    np.add(y, r, out=boxes[:, 3])
    return boxes


_SLOPE = np.array([2.0 * ROUNDING_ALLOWANCE, 2.0 * ROUNDING_ALLOWANCE])


def _reach_all(
    at: NDArray[np.float64], own: NDArray[np.float64], largest: float
) -> NDArray[np.float64]:
    """:func:`_reach` of many sprites at once, at positions ``at[:, 0:2]`` with radii
    ``own``, in fewer array operations (the same sum, grouped otherwise: an allowance
    millions of times the rounding either way)."""
    reach: NDArray[np.float64] = np.abs(at[:, 0:2]) @ _SLOPE
    reach += own * (1.0 + 2.0 * ROUNDING_ALLOWANCE)
    reach += ROUNDING_ALLOWANCE * (1.0 + 2.0 * largest)
    return reach


def _reach(x: float, y: float, own: float, largest: float) -> float:
    """How far from ``(x, y)`` the circle of a sprite there of radius ``own`` reaches,
    with at least each pair's rounding allowance (see :meth:`KindCircles._near_in`: a
    member near enough to touch lies within ``own + largest`` of it)."""
    return own + ROUNDING_ALLOWANCE * (1.0 + 2.0 * (abs(x) + abs(y)) + 2.0 * (own + largest))

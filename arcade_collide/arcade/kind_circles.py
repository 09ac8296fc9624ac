"""Bounding circles of a world's sprites by kind: the quick proof that a sprite touches
no sprite of a kind, which lets :meth:`~.queries.WorldQueries.overlapping` answer
without bringing the shape table up to date or running a query.

Every shape lies inside the circle of its ``bounding_radius`` about its pose origin, so
two sprites whose circles are apart (by more than a rounding allowance) cannot touch.
Only the sprites whose circles reach the queried sprite's are tested exactly
(:func:`~.sprite_pairs.touching_bodies`), so the exact answer is the only one returned.

A kind's members (bodies, Position rows, radii) are gathered again only when a sprite
of that kind joins or leaves the world or a member's Shape gets another geometry (a
bullet removed leaves the rocks' members as they were); their circles, sorted by x so
that each query looks only at the circles within its reach in x, only when a Position
was written since.

In a small world (:data:`~.pose_mirror.SMALL_WORLD`) whose Position table still holds
the poses the world last read from or wrote to its sprites, :meth:`KindCircles.now`
reads the sprites' poses straight from them and :meth:`KindCircles.touching_now`
answers many sprites at once from those: one numpy pass over every (asked, member)
pair of circles, then the exact test of the few pairs left. No esper world is switched
to and nothing is stored: the answers are those the world gives after reading the
sprites, since the shapes are the same (no sprite's size or hit box changed since the
last read), and so are the poses (the values a read would store).

In a larger world, whose pose mirror keeps a touch log,
:meth:`KindCircles.touching_logged` answers many sprites asked about at once (the
bullets a game moved) from their poses read straight from them, while the log shows
that no sprite of the kind asked about changed since the world last read it: the
kind's circles and their grid are as kept, so one compiled query of the grid and the
exact test of the few pairs left answer, and the moves wait in the log for the next
read. Only while no read came between two batch questions: a game that steps between
them has the step read the moves anyway.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Hashable
from functools import cached_property
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
_sprite = attrgetter("sprite")
_first = itemgetter(0)

PYTHON_PAIRS = 256
"""A question about this many (asked, member) pairs or fewer finds its near pairs in a
Python loop: numpy's dozen calls cost more than the loop below it."""

FULL_POSE_CHECK = 2048
"""In a world of at most this many sprites, the check that the Position table holds the
pose mirror's poses compares every row, once per table version (a few µs); a larger
world compares the rows asked about at each question."""

_MAX_RADII = 4096
"""Radii remembered by geometry before the memo starts afresh (sprites resized often)."""


class _Members(NamedTuple):
    """The sprites of one kind, as they stand while none joins or leaves."""

    revision: int
    """The kind's :meth:`~.bodies.Bodies.kind_revision` when they were gathered."""
    bodies: list[Body]
    shapes: list[Any]
    """Their Shape components."""
    geometries: list[AnyShape]
    """Their geometries when the radii were computed."""
    rows: NDArray[np.intp]
    """Each one's row in the Position table."""
    radii: NDArray[np.float64]
    radius_list: list[float]
    """:attr:`radii` as Python floats."""
    max_radius: float


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


class SpritesNow:
    """A small world's sprites and their poses, read straight from them
    (:meth:`KindCircles.now`); the arrays are made on first use (a question about a
    few pairs needs none).

    Args:
        sprites: The sprites, row for row with the world's bodies when read.
        stamps: Their stamps then (:func:`~.arcade_internals.stamps`), every position
            a tuple and every pose finite.
    """

    def __init__(self, sprites: list[arcade.Sprite], stamps: Stamps) -> None:
        self.sprites = sprites
        """The sprites, row for row with the world's bodies when read."""
        self.stamps = stamps
        """Their stamps then: what a change shows in."""

    def pose(self, row: int) -> Pose:
        """Row ``row``'s pose as floats (as :attr:`xy` and :attr:`angle` hold it)."""
        x, y = self.stamps[0][row]
        return (float(x), float(y), float(self.stamps[1][row]))

    @cached_property
    def _arrays(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        return internals.as_arrays(self.stamps[0], self.stamps[1])

    @property
    def xy(self) -> NDArray[np.float64]:
        """``(N, 2)`` the positions."""
        return self._arrays[0]

    @property
    def angle(self) -> NDArray[np.float64]:
        """``(N,)`` the clockwise angles."""
        return self._arrays[1]


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
        self._rows: dict[Hashable, tuple[int, _Members, NDArray[np.intp], list[int]]] = {}
        """Per kind, the members' rows among the bodies, with the bodies' revision and
        the members they were found for."""
        self._last: tuple[Stamps, SpritesNow] | None = None
        """The last :meth:`now`, with the mirror's stamps it was read against."""
        self._grids: dict[Hashable, tuple[NDArray[np.float64], _Members, StaticGrid | None]] = {}
        """The grid of each kind's circles (:meth:`_grid_of`; None: not made), with the
        positions and members it was made or last looked for."""
        self._quiet: dict[Hashable, tuple[object, _Members, int]] = {}
        """Per kind, the pose mirror, the members and the mirror's changes when its log
        last held none of them (:meth:`_members_quiet`)."""
        self._reads_after_batch = 0
        """The pose mirror's reads when the last batch question was answered."""
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

    def now(self) -> SpritesNow | None:
        """The sprites' poses read straight from them; None unless the world is small
        (its pose mirror compares stamps), the Position table holds the mirror's poses,
        no sprite's size or hit box changed since the last read, and every position is
        a tuple and every pose finite (the world's read then decides). The last result
        is given again while no stamp changed and the world read nothing since."""
        bodies = self._bodies
        seen = bodies.mirror.stamps_for(read=True)
        if seen is None or bodies.derived.boxes_freed() or not self._poses_held():
            return None
        sprites = bodies.mirror.sprites
        last, self._last = self._last, None
        if (
            last is not None
            and last[0] is seen
            and last[1].sprites == sprites
            and internals.same_stamps(sprites, last[1].stamps)
        ):
            self._last = last
            return last[1]
        stamps = internals.stamps(sprites)
        positions = stamps[0]
        if stamps[2] != seen[2] or stamps[3] != seen[3]:
            return None  # resized: the derived shapes are rebuilt by a read
        if not _TUPLE.issuperset(map(type, positions)):
            return None
        if not math.isfinite(sum(chain.from_iterable(positions), 0.0) + sum(stamps[1], 0.0)):
            return None
        now = SpritesNow(list(sprites), stamps)
        self._last = (seen, now)
        return now

    def touching_now(
        self, now: SpritesNow, asked: list[Body], mine: list[int], kind: Hashable, mask: int
    ) -> list[list[Body]]:
        """For each of ``asked`` (at rows ``mine``), the other sprites of ``kind`` on a
        layer of ``mask`` whose shapes overlap or touch its own at the poses ``now``
        (which :meth:`now` just gave), by ascending entity id."""
        members = self._members_of(kind)
        rows, row_list = self._rows_of(kind, members)
        answers: list[list[Body]] = [[] for _ in asked]
        if not asked or not row_list:
            return answers
        radii = [self._radius_of(_geometry(body.shape)) for body in asked]
        if len(asked) * len(row_list) <= PYTHON_PAIRS:
            near = _near_listed(now, asked, mine, radii, members, row_list)
        else:
            poses = np.column_stack((now.xy[rows], now.angle[rows]))
            near = _near_arrays(asked, [now.pose(row) for row in mine], radii, members, poses)
        for k, others in near.items():
            answers[k] = touching_bodies(asked[k], now.pose(mine[k]), others, mask)
        return answers

    def touching_logged(
        self, asked: list[Body], mine: list[int], kind: Hashable, mask: int
    ) -> tuple[list[list[Body]], Stamped] | None:
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
        circles = self.circles(kind)
        if not circles.finite:
            return None
        sprites = list(map(_sprite, asked))
        stamps = internals.stamps_of(sprites)
        if not _TUPLE.issuperset(map(type, map(_first, stamps))):
            return None
        n = len(sprites)
        rows = np.array(mine, dtype=np.intp)
        pose = np.fromiter(
            chain.from_iterable((p[0], p[1], angle, w, h) for p, angle, w, h in stamps),
            np.float64, count=5 * n,
        ).reshape(n, 5)  # x, y, angle, width, height
        # One sum is finite when every value is (a huge one may overflow it: the read decides).
        if not math.isfinite(float(pose.sum())):
            return None
        if not bodies.derived.sizes_held(rows, pose[:, 3:5]):
            return None
        if not self._rows_held(rows):
            return None
        read = dict(zip(sprites, stamps, strict=True))
        answers: list[list[Body]] = [[] for _ in asked]
        if not asked or not members.bodies:
            return answers, read
        grid = self._grid_of(kind, circles, True)
        assert grid is not None  # (made when asked to be)
        geometries = list(map(_geometry, map(_shape, asked)))
        if geometries.count(geometries[0]) == n:  # one shape for all (a gun's bullets)
            radii = np.full(n, self._radius_of(geometries[0]))
        else:
            radii = np.fromiter(map(self._radius_of, geometries), np.float64, count=n)
        near = self._near_grid(grid, circles, asked, pose[:, 0:3], radii)
        for k, others in near.items():
            x, y, angle = stamps[k][0][0], stamps[k][0][1], stamps[k][1]
            answers[k] = touching_bodies(asked[k], (float(x), float(y), float(angle)), others,
                                         mask)  # fmt: skip
        return answers, read

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
            if any(listed[row].kind == kind for row in mirror.logged_rows()):
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

    def _rows_of(self, kind: Hashable, members: _Members) -> tuple[NDArray[np.intp], list[int]]:
        """The rows among the bodies of ``members`` (of ``kind``), as an array and a
        list, found again when a sprite joined or left the world."""
        bodies = self._bodies
        known = self._rows.get(kind)
        if known is not None and known[0] == bodies.revision and known[1] is members:
            return known[2], known[3]
        row_of = bodies.row_of
        row_list = [row_of[b.sprite] for b in members.bodies]
        rows = np.array(row_list, dtype=np.intp)
        self._rows[kind] = (bodies.revision, members, rows, row_list)
        return rows, row_list

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
        radii = np.array([self._radius_of(_geometry(body.shape)) for body in asked])
        near = self._near_grid(grid, circles, asked, mine, radii)
        if not near:
            return answers
        poses = mine.tolist()
        for k, others in near.items():
            x, y, angle = poses[k]
            answers[k] = touching_bodies(asked[k], (x, y, angle), others, mask)
        return answers

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
        if not len(q):
            return {}
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

    def circles(self, kind: Hashable) -> Circles:
        """The circles of ``kind``, read again when a Position was written or the
        members changed; sorted again only when a member's position changed (the
        bullets moved, the rocks they are asked about did not)."""
        members = self._members_of(kind)
        pool = self.state.pools.positions
        kept = self._circles.get(kind)
        if kept is not None and (kept.members is not members or kept.table is not pool.data):
            kept = None  # made for other members or another table: nothing to compare
        if kept is not None and kept.version == pool.version:
            return kept
        xy = pool.data[members.rows, 0:2]
        if kept is not None and np.array_equal(xy, kept.xy):
            kept = self._circles[kind] = kept._replace(version=pool.version)
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
        a member's Shape got another geometry."""
        bodies = self._bodies
        every = kind is self._any_kind
        revision = bodies.revision if every else bodies.kind_revision(kind)
        members = self._members.get(kind)
        if (
            members is not None
            and members.revision == revision
            and list(map(_geometry, members.shapes)) == members.geometries
        ):
            return members
        chosen = [body for body in bodies.list if every or body.kind == kind]
        shapes = [body.shape for body in chosen]
        geometries = list(map(_geometry, shapes))
        radii = [self._radius_of(geometry) for geometry in geometries]
        members = _Members(
            revision,
            chosen,
            shapes,
            geometries,
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


def _near_listed(
    now: SpritesNow,
    asked: list[Body],
    mine: list[int],
    radii: list[float],
    members: _Members,
    rows: list[int],
) -> _Near:
    """The members (at ``rows``) whose bounding circles meet each asked sprite's (at
    row ``mine[k]``, of radius ``radii[k]``) in one Python loop over the pairs."""
    positions = now.stamps[0]
    member_radii, bodies = members.radius_list, members.bodies
    largest = members.max_radius
    found: _Near = {}
    for k, (row, own) in enumerate(zip(mine, radii, strict=True)):
        x, y = positions[row]
        reach = _reach(x, y, own, largest)
        body = asked[k]
        for j, other in enumerate(rows):
            ox, oy = positions[other]
            dx, dy, limit = ox - x, oy - y, member_radii[j] + reach
            if dx * dx + dy * dy <= limit * limit and bodies[j] is not body:
                found.setdefault(k, []).append((bodies[j], now.pose(other)))
    return found


def _near_arrays(
    asked: list[Body],
    mine: list[Pose],
    radii: list[float],
    members: _Members,
    poses: NDArray[np.float64],
) -> _Near:
    """:func:`_near_listed` in one numpy pass over every pair (many pairs): the asked
    sprites' poses are ``mine``, the members' ``poses`` (``(M, 3)``: x, y, clockwise
    angle), every position finite."""
    largest = members.max_radius
    reach = np.array(
        [_reach(x, y, own, largest) for (x, y, _), own in zip(mine, radii, strict=True)]
    )
    at = np.array(mine)
    dx = poses[:, 0] - at[:, 0:1]
    dy = poses[:, 1] - at[:, 1:2]
    limit = members.radii + reach[:, None]
    which, other = np.nonzero(dx * dx + dy * dy <= limit * limit)
    found: _Near = {}
    bodies, item = members.bodies, poses.item
    for k, j in zip(which.tolist(), other.tolist(), strict=True):
        if bodies[j] is not asked[k]:
            found.setdefault(k, []).append((bodies[j], (item(j, 0), item(j, 1), item(j, 2))))
    return found


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


def _reach_all(
    at: NDArray[np.float64], own: NDArray[np.float64], largest: float
) -> NDArray[np.float64]:
    """:func:`_reach` of many sprites at once, at positions ``at[:, 0:2]`` with radii
    ``own``, in fewer array operations (the same sum, grouped otherwise: an allowance
    millions of times the rounding either way)."""
    reach = np.abs(at[:, 0])
    reach += np.abs(at[:, 1])
    reach *= 2.0 * ROUNDING_ALLOWANCE
    reach += own * (1.0 + 2.0 * ROUNDING_ALLOWANCE)
    reach += ROUNDING_ALLOWANCE * (1.0 + 2.0 * largest)
    return reach


def _reach(x: float, y: float, own: float, largest: float) -> float:
    """How far from ``(x, y)`` the circle of a sprite there of radius ``own`` reaches,
    with at least each pair's rounding allowance (see :meth:`KindCircles._near_in`: a
    member near enough to touch lies within ``own + largest`` of it)."""
    return own + ROUNDING_ALLOWANCE * (1.0 + 2.0 * (abs(x) + abs(y)) + 2.0 * (own + largest))

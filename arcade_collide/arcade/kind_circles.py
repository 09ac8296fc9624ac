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
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Hashable
from operator import attrgetter
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from arcade_collide.arcade.bodies import Bodies
from arcade_collide.arcade.handlers import Body
from arcade_collide.arcade.sprite_pairs import touching_bodies
from arcade_collide.ecs.world_state import WorldState
from arcade_collide.geometry.shapes import AnyShape

ROUNDING_ALLOWANCE = 1e-9
"""Circles nearer than this fraction of their reach (their radii and coordinates) are
taken to meet: millions of times the rounding of the exact tests' world coordinates."""

_geometry = attrgetter("geometry")

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
        return touching_bodies(body, near, mask, self.state.pools.positions.data)

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
        members changed."""
        members = self._members_of(kind)
        pool = self.state.pools.positions
        circles = self._circles.get(kind)
        if (
            circles is not None
            and circles.members is members
            and circles.table is pool.data
            and circles.version == pool.version
        ):
            return circles
        xy = pool.data[members.rows, 0:2]
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
        )
        self._circles[kind] = circles
        return circles

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

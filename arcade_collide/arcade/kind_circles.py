"""Bounding circles of a world's sprites by kind: the quick proof that a sprite touches
no sprite of a kind, which lets :meth:`~.queries.WorldQueries.overlapping` answer an
empty list without bringing the shape table up to date or running a query.

Every shape lies inside the circle of its ``bounding_radius`` about its pose origin, so
two sprites whose circles are apart (by more than a rounding allowance) cannot touch.
Only when some circle of the kind reaches the sprite's does the world run the exact
query, whose answer is therefore the only one ever returned.

The circles of a kind are gathered once per state of the world (no Position written,
no sprite added or removed since, every Shape keeping its geometry), sorted by x, so
each query looks only at the circles within its reach in x.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Hashable
from operator import attrgetter
from typing import Any, NamedTuple

import numpy as np

from arcade_collide.arcade.bodies import Bodies
from arcade_collide.arcade.handlers import Body
from arcade_collide.ecs.world_state import WorldState
from arcade_collide.geometry.shapes import AnyShape

ROUNDING_ALLOWANCE = 1e-9
"""Circles nearer than this fraction of their reach (their radii and coordinates) are
taken to meet: millions of times the rounding of the exact tests' world coordinates."""

_geometry = attrgetter("geometry")

_MAX_RADII = 4096
"""Radii remembered by geometry before the memo starts afresh (sprites resized often)."""


class _Members(NamedTuple):
    """The circles of one kind's sprites in one state of the world, sorted by x."""

    state: tuple[int, int]
    """Rows revision and Position version when they were gathered."""
    shapes: list[Any]
    """The sprites' Shape components, in the order of the world's rows."""
    geometries: list[AnyShape]
    """Their geometries when the radii were computed."""
    xs: list[float]
    ys: list[float]
    radii: list[float]
    pool_rows: list[int]
    """Each circle's row in the Position table."""
    max_radius: float
    finite: bool
    """Whether every pose is finite (else the exact query is left to name the sprite)."""


class KindCircles:
    """The bounding circles of one world's sprites by kind.

    Args:
        bodies: The world's bodies.
        state: The world's esper world state (its Position pool and Shape epoch).
        any_kind: The ``kind`` value that stands for every sprite.
    """

    def __init__(self, bodies: Bodies, state: WorldState, any_kind: object) -> None:
        self._bodies = bodies
        self._state = state
        self._any_kind = any_kind
        self._kinds: dict[Hashable, _Members] = {}
        self._radius: dict[int, tuple[AnyShape, float]] = {}
        """Each geometry's bounding radius, by ``id`` (the geometry is kept with it)."""

    def may_touch(self, body: Body, kind: Hashable) -> bool:
        """Whether some other sprite of ``kind`` has a bounding circle meeting ``body``'s,
        at the poses of their Positions (False proves that no sprite of ``kind``
        touches ``body``'s sprite)."""
        members = self._members(kind)
        data = self._state.pools.positions.data
        row = body.position.pool_row
        x, y = data.item(row, 0), data.item(row, 1)
        if not (members.finite and math.isfinite(x) and math.isfinite(y)):
            return True
        own = self._radius_of(body.shape.geometry)
        allowance = ROUNDING_ALLOWANCE * (1.0 + abs(x) + abs(y) + own + members.max_radius)
        span = own + members.max_radius + allowance
        xs, ys, radii, rows = members.xs, members.ys, members.radii, members.pool_rows
        for k in range(bisect_left(xs, x - span), bisect_right(xs, x + span)):
            dx, dy, reach = xs[k] - x, ys[k] - y, radii[k] + own + allowance
            if dx * dx + dy * dy <= reach * reach and rows[k] != row:
                return True
        return False

    def _members(self, kind: Hashable) -> _Members:
        """The circles of ``kind``, gathered again when the world's state changed."""
        bodies, state = self._bodies, self._state
        now = (bodies.revision, state.pools.positions.version)
        members = self._kinds.get(kind)
        if (
            members is not None
            and members.state == now
            and list(map(_geometry, members.shapes)) == members.geometries
        ):
            return members
        every = kind is self._any_kind
        chosen = [body for body in bodies.list if every or body.kind == kind]
        shapes = [body.shape for body in chosen]
        geometries = list(map(_geometry, shapes))
        rows = np.array([body.position.pool_row for body in chosen], dtype=np.intp)
        xy = state.pools.positions.data[rows, 0:2]
        order = np.argsort(xy[:, 0], kind="stable")
        radii = [self._radius_of(geometry) for geometry in geometries]
        sorted_radii = [radii[k] for k in order.tolist()]
        members = _Members(
            now,
            shapes,
            geometries,
            xy[order, 0].tolist(),
            xy[order, 1].tolist(),
            sorted_radii,
            rows[order].tolist(),
            max(sorted_radii, default=0.0),
            bool(np.isfinite(xy).all()),
        )
        self._kinds[kind] = members
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

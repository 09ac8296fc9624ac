"""The exact test of one sprite against a few others, by the compiled pair kernel.

:meth:`~.queries.WorldQueries.overlapping` gives it the sprites whose bounding circles
meet the queried sprite's (:mod:`.kind_circles`): a handful, so each pair goes straight
to :func:`~arcade_collide.geometry.query.dispatch.one_pair` at the poses of the
Position components, without bringing the world's shape table up to date. The shapes
are placed as the table places them (the same rotation and vertex arithmetic, bit for
bit: :mod:`~arcade_collide.geometry.query.placement`) and tested by the same kernels,
so the answer is the one the ECS shape query would give.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from arcade_collide.arcade.handlers import Body
from arcade_collide.geometry.query.dispatch import geometry_of, one_pair, pose_terms


def touching_bodies(
    body: Body, others: list[Body], mask: int, data: NDArray[np.float64]
) -> list[Body]:
    """The bodies of ``others`` on a layer of ``mask`` whose shapes overlap or touch
    ``body``'s (closed shapes), by ascending entity id.

    Args:
        body: The queried sprite's body.
        others: Bodies near it, other than ``body``.
        mask: Only bodies whose Shape ``layer`` shares a bit with it.
        data: The world's Position table (``(rows, 3)`` x, y, clockwise angle).

    Raises:
        ValueError: a pose is not finite (naming which).
    """
    found = []
    position = body.position
    mine = geometry_of(body.shape.geometry, "shape_a")
    placed = pose_terms((position.x, position.y, position.angle), "pose_a")
    item = data.item
    for other in sorted(others, key=_entity):
        shape = other.shape
        if not shape.layer & mask:
            continue
        row = other.position.pool_row
        pose = pose_terms((item(row, 0), item(row, 1), item(row, 2)), "pose_b")
        if one_pair(False, *mine, *geometry_of(shape.geometry, "shape_b"), *placed, *pose)[0]:
            found.append(other)
    return found


def _entity(body: Body) -> int:
    return body.entity

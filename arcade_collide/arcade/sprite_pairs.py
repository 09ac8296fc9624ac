"""The exact test of one sprite against a few others, by the compiled pair kernel.

:meth:`~.queries.WorldQueries.overlapping` gives it the sprites whose bounding circles
meet the queried sprite's (:mod:`.kind_circles`): a handful, so each pair goes straight
to :func:`~arcade_collide.geometry.query.dispatch.one_pair` at the given poses (those
of the Position components, or those the sprites hold when they agree with them),
without bringing the world's shape table up to date. The shapes are placed as the
table places them (the same rotation and vertex arithmetic, bit for bit:
:mod:`~arcade_collide.geometry.query.placement`) and tested by the same kernels, so the
answer is the one the ECS shape query would give.
"""

from __future__ import annotations

from arcade_collide.arcade.handlers import Body
from arcade_collide.geometry.query.dispatch import geometry_of, one_pair, pose_terms

Pose = tuple[float, float, float]
"""``(x, y, angle)``: a position and a clockwise angle in degrees, as Python floats."""


def touching_bodies(
    body: Body, pose: Pose, others: list[tuple[Body, Pose]], mask: int
) -> list[Body]:
    """The bodies of ``others`` on a layer of ``mask`` whose shapes overlap or touch
    ``body``'s (closed shapes), by ascending entity id.

    Args:
        body: The queried sprite's body.
        pose: Its pose.
        others: Bodies near it, other than ``body``, each with its pose.
        mask: Only bodies whose Shape ``layer`` shares a bit with it.

    Raises:
        ValueError: a pose is not finite (naming which).
    """
    found = []
    mine = geometry_of(body.shape.geometry, "shape_a")
    placed = pose_terms(pose, "pose_a")
    for other, other_pose in sorted(others, key=_entity):
        shape = other.shape
        if not shape.layer & mask:
            continue
        pose_b = pose_terms(other_pose, "pose_b")
        if one_pair(False, *mine, *geometry_of(shape.geometry, "shape_b"), *placed, *pose_b)[0]:
            found.append(other)
    return found


def _entity(other: tuple[Body, Pose]) -> int:
    return other[0].entity

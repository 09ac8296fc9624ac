"""The touching pairs of the current esper world, found by testing every pair: the
reference the ECS tests compare ``CollisionSystem.touching()`` with."""

from __future__ import annotations

import esper

from arcade_collide import intersects
from arcade_collide.ecs import Position, Shape, Static


def touching_pairs() -> list[tuple[int, int]]:
    """Every pair ``(a, b)``, ``a < b``, whose shapes touch now, passes the layer filter
    and is not two static shapes; sorted."""
    items = sorted(esper.get_components(Position, Shape))
    found = []
    for k, (a, (pa, sa)) in enumerate(items):
        for b, (pb, sb) in items[k + 1 :]:
            if esper.has_component(a, Static) and esper.has_component(b, Static):
                continue
            if not (sa.layer & sb.mask and sb.layer & sa.mask):
                continue
            if intersects(sa.geometry, (pa.x, pa.y, pa.angle), sb.geometry, (pb.x, pb.y, pb.angle)):
                found.append((a, b))
    return found

"""The compiled passes of the kinematic response: which contact each body resolves
next, and the velocity change of each body's contacts.

Contacts are given as pairs ``p`` of (body ``body[p]``, other table row), with the
normal ``(nx[p], ny[p])`` pointing from the other shape towards the body.
"""

from __future__ import annotations

import math

import numpy as np

from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import Int64Array, types

_I1 = types.int64[::1]
_F1 = types.float64[::1]
_B1 = types.boolean[::1]


@kernel(_I1(_I1, _F1, _B1, types.int64))
def deepest(body: Int64Array, depth: FloatArray, need: BoolArray, bodies: int) -> Int64Array:
    """Per body, the pair ``p`` with ``need[p]`` of greatest ``depth`` (the first of
    equals), -1 for a body with none.

    Resolving only the deepest contact of a body, then measuring again, is what keeps
    a body sliding over a flush row of tiles off their inner edges: the tile it rests
    on is the deeper one, and pushing out of it leaves the next tile's corner touching
    at depth 0.

    >>> deepest(np.array([0, 0, 1]), np.array([0.5, 2.0, 1.0]), np.array([True] * 3), 3).tolist()
    [1, 2, -1]
    """
    best = np.full(bodies, -1, dtype=np.int64)
    for p in range(len(body)):
        if need[p]:
            b = body[p]
            if best[b] < 0 or depth[p] > depth[best[b]]:
                best[b] = p
    return best


@kernel(
    types.void(
        _I1, _F1, _F1, _F1, _F1, _F1, _B1, types.float64[:, ::1], _F1, _F1, types.float64,
        _I1,
    )
)
def resolve_velocities(
    body: Int64Array,
    nx: FloatArray,
    ny: FloatArray,
    share: FloatArray,
    other_vx: FloatArray,
    other_vy: FloatArray,
    blocking: BoolArray,
    velocity: FloatArray,
    restitution: FloatArray,
    friction: FloatArray,
    bounce_speed: float,
    support: Int64Array,
) -> None:
    """Remove from each body's velocity (``velocity[b]``, ``(vx, vy)`` rows, changed
    in place) the part that moves it into a surface it touches, pair by pair.

    For a blocking pair, with the relative velocity ``v - other`` and its speed ``vn``
    along the normal: when ``vn < 0`` the body gets ``share * (1 + e) * -vn`` along the
    normal (``e`` its restitution, 0 when ``-vn`` is at most ``bounce_speed``, so a
    body resting under gravity does not hop), and its relative speed along the surface
    drops by ``friction`` times that change, never reversing (Coulomb). ``share`` is 1
    against a solid, 0.5 against another body (each of the two takes half).
    ``support[b]`` gets the blocking pair whose normal points most upward (-1: none).

    >>> v = np.array([[3.0, -4.0]])
    >>> support = np.empty(1, dtype=np.int64)
    >>> z = np.zeros(1)
    >>> one = np.ones(1)
    >>> resolve_velocities(np.zeros(1, dtype=np.int64), z, one, one, z, z,
    ...     np.array([True]), v, z, np.array([0.5]), 0.0, support)
    >>> v.tolist(), support.tolist()  # landing: vy removed, vx slowed by 0.5 * 4
    ([[1.0, 0.0]], [0])
    """
    support[:] = -1
    for p in range(len(body)):
        if not blocking[p]:
            continue
        b = body[p]
        top = support[b]
        if top < 0 or ny[p] > ny[top]:
            support[b] = p
        rx = velocity[b, 0] - other_vx[p]
        ry = velocity[b, 1] - other_vy[p]
        vn = rx * nx[p] + ry * ny[p]
        if not vn < 0.0:
            continue
        e = restitution[b] if -vn > bounce_speed else 0.0
        change = share[p] * (1.0 + e) * -vn
        tx = rx - vn * nx[p]
        ty = ry - vn * ny[p]
        velocity[b, 0] += change * nx[p]
        velocity[b, 1] += change * ny[p]
        along = math.hypot(tx, ty)
        if along > 0.0 and friction[b] > 0.0:
            slow = min(along, friction[b] * change) / along
            velocity[b, 0] -= tx * slow
            velocity[b, 1] -= ty * slow

"""The compiled passes of the kinematic response: each body pushed out of its deepest
contact, the contacts on inner edges, and the velocity change of each body's contacts.

Contacts are given as pairs ``p`` of (body ``body[p]``, other table row), with the
normal ``(nx[p], ny[p])`` (or ``normal[p]``) pointing from the other shape towards
the body.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.broad_phase import boxes_overlap
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import Int64Array, types

_I1 = types.int64[::1]
_F1 = types.float64[::1]
_B1 = types.boolean[::1]
_F2 = types.float64[:, ::1]


@kernel("UniTuple(int64[::1], 2)(float64[:, ::1], float64[:, ::1])")
def boxes_meeting(queries: FloatArray, boxes: FloatArray) -> tuple[Int64Array, Int64Array]:
    """Index pairs ``(q, s)``: closed query box ``queries[q]`` overlaps or touches closed
    box ``boxes[s]``, ascending by ``q``, then by ``s``.

    The boxes are sorted by their low sides along the axis they spread over more; each
    query tests those whose low side lies between its own low side less (twice) the
    widest box and its high side (a sweep, Ericson, *Real-Time Collision Detection*,
    7.5.2). Made for a few hundred moving boxes, whose grid would be built afresh at
    every tick.

    >>> boxes = np.array([[0.0, 0, 2, 2], [2, 0, 4, 2], [9, 9, 10, 10]])
    >>> q, s = boxes_meeting(np.array([[1.5, 1, 3, 1.5], [5, 5, 6, 6], [4, 2, 5, 3.0]]), boxes)
    >>> list(zip(q.tolist(), s.tolist()))  # a hit on two boxes, a miss, a corner touch
    [(0, 0), (0, 1), (2, 1)]
    """
    n = len(boxes)
    # Sweep along the axis the boxes spread over more (rows of bodies stacked in y
    # would all fall in one slice of x).
    a = 0
    if n and boxes[:, 1].max() - boxes[:, 1].min() > boxes[:, 0].max() - boxes[:, 0].min():
        a = 1
    order = np.argsort(boxes[:, a], kind="mergesort")
    low = boxes[order, a]
    widest = 0.0
    for k in range(n):
        widest = max(widest, boxes[k, a + 2] - boxes[k, a])
    out_q = np.empty(max(4 * len(queries), 16), dtype=np.int64)
    out_s = np.empty(len(out_q), dtype=np.int64)
    m = 0
    for q in range(len(queries)):
        box = queries[q]
        # Twice the widest box, and a hair more, so no rounding can leave a box out.
        reach = 2.0 * widest + 1e-9 * (abs(box[a]) + 1.0)
        lo = np.searchsorted(low, box[a] - reach, side="left")
        hi = np.searchsorted(low, box[a + 2], side="right")
        first = m
        for k in range(lo, hi):
            s = order[k]
            if boxes_overlap(box, boxes[s]):
                if m == len(out_q):
                    out_q = np.concatenate((out_q, np.empty(len(out_q), dtype=np.int64)))
                    out_s = np.concatenate((out_s, np.empty(len(out_s), dtype=np.int64)))
                out_q[m] = q
                out_s[m] = s
                m += 1
        if m - first > 1:
            out_s[first:m] = np.sort(out_s[first:m])
    return out_q[:m].copy(), out_s[:m].copy()


@kernel(_B1(_I1, _I1, _I1, types.int8[::1], _I1, _I1, _B1))
def blocking_candidates(
    body: Int64Array,
    other: Int64Array,
    rows: Int64Array,
    code: NDArray[np.int8],
    blocked_by: Int64Array,
    layer: Int64Array,
    sensor: BoolArray,
) -> BoolArray:
    """Which candidate pairs (body ``body[p]`` at table row ``rows[body[p]]``, table row
    ``other[p]``) may block: the other row blocks, is not the body
    itself, is on a layer the body is ``blocked_by``, and neither is a sensor (``code``
    is :attr:`~arcade_collide.ecs.response_roster.Roster.code`, 0 for not blocking).

    >>> blocking_candidates(np.array([0, 0, 0]), np.array([1, 2, 0]), np.array([0]),
    ...     np.array([3, 1, 0], dtype=np.int8), np.array([1]), np.array([1, 1, 2]),
    ...     np.zeros(3, dtype=np.bool_)).tolist()  # a solid; not blocking; itself
    [True, False, False]
    """
    keep = np.empty(len(body), dtype=np.bool_)
    for p in range(len(body)):
        b = body[p]
        row = rows[b]
        o = other[p]
        keep[p] = (
            code[o] != 0
            and row != o
            and (blocked_by[b] & layer[o]) != 0
            and not (sensor[row] or sensor[o])
        )
    return keep


@kernel(_B1(_I1, _B1, _B1, _F1, _F1, _F2, types.float64, _F2))
def push_deepest(
    body: Int64Array,
    hit: BoolArray,
    blocking: BoolArray,
    depth: FloatArray,
    share: FloatArray,
    normal: FloatArray,
    margin: float,
    poses: FloatArray,
) -> BoolArray:
    """Push each body out of its deepest blocking contact; which bodies moved.

    A pair ``p`` needs a push when it touches, blocks and its share of the depth,
    ``share * depth``, is over ``2 * margin``. Per body, the pair needing it of greatest
    share of the depth (the first of equals) moves the body (``poses[b]``, ``(x, y,
    angle)`` rows, changed in place) along its normal by that share less ``share *
    margin``, so the two end overlapping by the margin: touching.

    Resolving only the deepest contact of a body, then measuring again, is what keeps
    a body sliding over a flush row of tiles off their inner edges: the tile it rests
    on is the deeper one, and pushing out of it leaves the next tile's corner touching
    at depth 0.

    >>> poses = np.zeros((2, 3))
    >>> yes = np.array([True] * 3)
    >>> moved = push_deepest(np.array([0, 0, 1]), yes, yes, np.array([0.5, 2.0, 0.0]),
    ...     np.ones(3), np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]]), 0.0, poses)
    >>> moved.tolist(), poses.tolist()  # body 0 out of its deeper contact; 1 touches
    ([True, False], [[0.0, 2.0, 0.0], [0.0, 0.0, 0.0]])
    """
    bodies = poses.shape[0]
    best = np.full(bodies, -1, dtype=np.int64)
    best_depth = np.zeros(bodies)
    for p in range(len(body)):
        d = depth[p] * share[p]
        if hit[p] and blocking[p] and d > 2.0 * margin:
            b = body[p]
            if best[b] < 0 or d > best_depth[b]:
                best[b] = p
                best_depth[b] = d
    moved = np.zeros(bodies, dtype=np.bool_)
    for b in range(bodies):
        p = best[b]
        if p >= 0:
            push = best_depth[b] - share[p] * margin
            poses[b, 0] += normal[p, 0] * push
            poses[b, 1] += normal[p, 1] * push
            moved[b] = True
    return moved


@kernel(_B1(_I1, _I1, _B1, _F2, _F2, _B1, _F2, types.float64, _I1))
def inner_edges(
    body: Int64Array,
    other: Int64Array,
    hit: BoolArray,
    normal: FloatArray,
    point: FloatArray,
    solid: BoolArray,
    boxes: FloatArray,
    probe: float,
    which: Int64Array,
) -> BoolArray:
    """Which of the pairs ``which`` touch on an inner edge: the point ``probe`` past
    their contact point along the normal lies in the box (``boxes[other[q]]``, closed)
    of another pair ``q`` of the same body whose other shape is ``solid[q]``.

    ``body`` is ascending, so the pairs of one body are adjacent.

    >>> box = np.array([[0.0, -1.0, 1.0, 0.0], [1.0, -1.0, 2.0, 0.0]])
    >>> inner_edges(np.array([0, 0]), np.array([0, 1]), np.array([True, True]),
    ...     np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[1.0, 0.0], [1.5, 0.0]]),
    ...     np.array([True, True]), box, 0.001, np.array([0, 1])).tolist()
    [True, False]
    """
    n = len(body)
    inner = np.zeros(n, dtype=np.bool_)
    for k in range(len(which)):
        p = which[k]
        if not hit[p]:
            continue
        b = body[p]
        lo = p
        while lo > 0 and body[lo - 1] == b:
            lo -= 1
        px = point[p, 0] + normal[p, 0] * probe
        py = point[p, 1] + normal[p, 1] * probe
        q = lo
        while q < n and body[q] == b:
            if q != p and solid[q]:
                o = other[q]
                if boxes[o, 0] <= px <= boxes[o, 2] and boxes[o, 1] <= py <= boxes[o, 3]:
                    inner[p] = True
                    break
            q += 1
    return inner


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

"""The compiled passes of the kinematic response: the candidate pairs, each body pushed
out of its deepest contact, the contacts measured and those on inner edges, and the
velocity change of each body's contacts.

Contacts are given as pairs ``p`` of (body ``body[p]``, other table row), with the
normal ``(nx[p], ny[p])`` (or ``normal[p]``) pointing from the other shape towards
the body.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from arcade_collide.ecs.response_roster import ONE_WAY
from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.broad_phase import boxes_overlap
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import Int64Array, types

_I1 = types.int64[::1]
_F1 = types.float64[::1]
_B1 = types.boolean[::1]
_F2 = types.float64[:, ::1]


@kernel(
    "Tuple((int64[::1], float64[::1], int64[::1]))(float64[:, ::1], float64, float64, int64)",
    inline=True,
)
def _banded(
    boxes: FloatArray, low_y: float, inv: float, bands: int
) -> tuple[Int64Array, FloatArray, Int64Array]:
    """``(order, low_x, starts)``: the boxes of band ``b`` (low side in y, from
    ``low_y``, ``inv`` bands a px) are ``order[starts[b]:starts[b + 1]]``, ascending by
    their low x (``low_x``, in that order; equals stay in index order)."""
    n = len(boxes)
    band = np.empty(n, dtype=np.int64)
    for k in range(n):
        band[k] = min(int((boxes[k, 1] - low_y) * inv), bands - 1)
    by_x = np.argsort(boxes[:, 0], kind="mergesort")
    starts = np.zeros(bands + 1, dtype=np.int64)
    for k in range(n):
        starts[band[k] + 1] += 1
    for b in range(bands):
        starts[b + 1] += starts[b]
    fill = starts[:-1].copy()
    order = np.empty(n, dtype=np.int64)
    low_x = np.empty(n)
    for k in range(n):
        s = by_x[k]
        order[fill[band[s]]] = s
        low_x[fill[band[s]]] = boxes[s, 0]
        fill[band[s]] += 1
    return order, low_x, starts


@kernel("UniTuple(int64[::1], 2)(float64[:, ::1], float64[:, ::1])")
def boxes_meeting(queries: FloatArray, boxes: FloatArray) -> tuple[Int64Array, Int64Array]:
    """Index pairs ``(q, s)``: closed query box ``queries[q]`` overlaps or touches closed
    box ``boxes[s]``, ascending by ``q``, then by ``s``.

    The boxes are binned into horizontal bands by their low side in y, each band
    sorted by the low side in x; a query visits the bands whose boxes can reach its
    y range and, in each, the boxes whose low x lies between its own low x less
    (twice) the widest box and its high x (a sweep per band, Ericson, *Real-Time
    Collision Detection*, 7.5.2). Bands twice the tallest box high (more when the boxes
    spread far in y, at most about one band per box) keep bodies standing in columns
    or on rows of floors out of each other's sweep. Made for a few hundred moving
    boxes, whose structure is built afresh at every tick.

    >>> boxes = np.array([[0.0, 0, 2, 2], [2, 0, 4, 2], [9, 9, 10, 10]])
    >>> q, s = boxes_meeting(np.array([[1.5, 1, 3, 1.5], [5, 5, 6, 6], [4, 2, 5, 3.0]]), boxes)
    >>> list(zip(q.tolist(), s.tolist()))  # a hit on two boxes, a miss, a corner touch
    [(0, 0), (0, 1), (2, 1)]
    """
    n = len(boxes)
    out_q = np.empty(max(4 * len(queries), 16), dtype=np.int64)
    out_s = np.empty(len(out_q), dtype=np.int64)
    if n == 0:
        return out_q[:0].copy(), out_s[:0].copy()
    widest = 0.0
    tallest = 0.0
    low_y = boxes[0, 1]
    high_y = boxes[0, 1]
    for k in range(n):
        widest = max(widest, boxes[k, 2] - boxes[k, 0])
        tallest = max(tallest, boxes[k, 3] - boxes[k, 1])
        low_y = min(low_y, boxes[k, 1])
        high_y = max(high_y, boxes[k, 1])
    height = max(2.0 * tallest, (high_y - low_y) / n)
    inv = 1.0 / height if height > 0.0 else 0.0
    bands = min(int((high_y - low_y) * inv) + 1, n)
    order, low_x, starts = _banded(boxes, low_y, inv, bands)
    m = 0
    for q in range(len(queries)):
        box = queries[q]
        # Twice the widest (tallest) box, and a hair more, so no rounding leaves a box out.
        reach_x = 2.0 * widest + 1e-9 * (abs(box[0]) + 1.0)
        reach_y = 2.0 * tallest + 1e-9 * (abs(box[1]) + 1.0)
        # Clamped as floats: a query far from every box stays within int64.
        first_band = int(min(max(np.floor((box[1] - reach_y - low_y) * inv), 0.0), bands))
        last_band = int(min(max(np.floor((box[3] - low_y) * inv), -1.0), bands - 1.0))
        first = m
        for b in range(first_band, last_band + 1):
            part = low_x[starts[b] : starts[b + 1]]
            lo = starts[b] + np.searchsorted(part, box[0] - reach_x, side="left")
            hi = starts[b] + np.searchsorted(part, box[2], side="right")
            for k in range(lo, hi):
                s = order[k]
                if not boxes_overlap(box, boxes[s]):
                    continue
                if m == len(out_q):
                    out_q = np.concatenate((out_q, np.empty(len(out_q), dtype=np.int64)))
                    out_s = np.concatenate((out_s, np.empty(len(out_s), dtype=np.int64)))
                # Kept ascending by s: a query meets a few boxes.
                at = m
                while at > first and out_s[at - 1] > s:
                    out_s[at] = out_s[at - 1]
                    at -= 1
                out_s[at] = s
                out_q[m] = q
                m += 1
    return out_q[:m].copy(), out_s[:m].copy()


@kernel(_F2(_F2, _I1, _F2, _F2, types.float64))
def reach_boxes(
    boxes: FloatArray, rows: Int64Array, poses: FloatArray, start: FloatArray, reach: float
) -> FloatArray:
    """Body ``k``'s box (``boxes[rows[k]]``) grown on every side by how far it moved
    from ``start[k]`` to ``poses[k]`` (the larger of ``|dx|`` and ``|dy|``) plus
    ``reach``, at most half its larger side.

    >>> reach_boxes(np.array([[0.0, 0.0, 4.0, 2.0]]), np.array([0]), np.array([[3.0, 0, 0]]),
    ...     np.array([[2.5, 0.0, 0.0]]), 1.0).tolist()  # moved 0.5: grown by 1.5
    [[-1.5, -1.5, 5.5, 3.5]]
    """
    out = np.empty((len(rows), 4))
    for k in range(len(rows)):
        box = boxes[rows[k]]
        moved = max(abs(poses[k, 0] - start[k, 0]), abs(poses[k, 1] - start[k, 1]))
        half = 0.5 * max(box[2] - box[0], box[3] - box[1])
        grow = min(moved + reach, half)
        out[k, 0] = box[0] - grow
        out[k, 1] = box[1] - grow
        out[k, 2] = box[2] + grow
        out[k, 3] = box[3] + grow
    return out


@kernel(
    types.Tuple((_I1, _I1, _I1, _F1))(
        _I1, _I1, _I1, _I1, _I1, _I1, _I1, _I1, types.int8[::1], _I1, _I1, _B1
    )
)
def candidate_pairs(
    static_q: Int64Array,
    static_s: Int64Array,
    static_rows: Int64Array,
    moving_q: Int64Array,
    moving_s: Int64Array,
    moving_rows: Int64Array,
    rows: Int64Array,
    body_of: Int64Array,
    code: NDArray[np.int8],
    blocked_by: Int64Array,
    layer: Int64Array,
    sensor: BoolArray,
) -> tuple[Int64Array, Int64Array, Int64Array, FloatArray]:
    """The pairs (body, table row) that may block, from the boxes meeting each body's
    box: ``(body, other, other_body, share)``, grouped by body, ascending.

    Body ``k`` (table row ``rows[k]``) met static row ``static_rows[static_s[a]]``
    where ``static_q[a] == k``, and moving row ``moving_rows[moving_s[c]]`` where
    ``moving_q[c] == k`` (both ascending by body). A body's pairs are its static ones
    in the order given, then its moving ones. A pair is kept when the other row
    blocks (``code``, :attr:`~arcade_collide.ecs.response_roster.Roster.code`, not 0),
    is not the body itself, is on a layer the body is ``blocked_by``, and neither is a
    sensor. ``other_body`` is the other row's body index (``body_of``, -1: a solid);
    ``share`` is 0.5 where that body is blocked by this one too (each takes half the
    push), else 1.

    >>> one = np.array([0]); none = np.empty(0, dtype=np.int64)
    >>> found = candidate_pairs(np.array([0, 0, 0]), np.array([0, 1, 2]), np.array([1, 2, 0]),
    ...     none, none, none, one, np.array([0, -1, -1]), np.array([3, 1, 0], dtype=np.int8),
    ...     np.array([1]), np.array([1, 1, 2]), np.zeros(3, dtype=np.bool_))
    >>> [a.tolist() for a in found]  # a solid kept; not blocking, itself left out
    [[0], [1], [-1], [1.0]]
    """
    n = len(static_q) + len(moving_q)
    body = np.empty(n, dtype=np.int64)
    other = np.empty(n, dtype=np.int64)
    other_body = np.empty(n, dtype=np.int64)
    share = np.ones(n)
    m = 0
    a = 0
    c = 0
    for k in range(len(rows)):
        row = rows[k]
        while True:
            if a < len(static_q) and static_q[a] == k:
                o = static_rows[static_s[a]]
                a += 1
            elif c < len(moving_q) and moving_q[c] == k:
                o = moving_rows[moving_s[c]]
                c += 1
            else:
                break
            if (
                code[o] == 0
                or row == o
                or (blocked_by[k] & layer[o]) == 0
                or sensor[row]
                or sensor[o]
            ):
                continue
            their = body_of[o]
            body[m] = k
            other[m] = o
            other_body[m] = their
            if their >= 0 and (blocked_by[their] & layer[row]) != 0:
                share[m] = 0.5
            m += 1
    return body[:m].copy(), other[:m].copy(), other_body[:m].copy(), share[:m].copy()


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


@kernel(_I1(_B1, _I1, _I1, _I1, _I1, _F2, _B1))
def pairs_to_measure(
    moved: BoolArray,
    body: Int64Array,
    other_body: Int64Array,
    body_row: Int64Array,
    other: Int64Array,
    boxes: FloatArray,
    hit: BoolArray,
) -> Int64Array:
    """The pairs to measure again once the bodies ``moved`` moved: those of a body that
    moved or against one, whose boxes (``boxes[body_row[p]]``, ``boxes[other[p]]``,
    padded, so they hold the shapes) overlap or touch. The others of them cannot
    touch: ``hit[p]`` becomes False.

    >>> hit = np.array([True, True, True])
    >>> boxes = np.array([[0.0, 0, 1, 1], [1.0, 0, 2, 1], [5.0, 5, 6, 6]])
    >>> pairs_to_measure(np.array([True]), np.zeros(3, dtype=np.int64), np.full(3, -1),
    ...     np.zeros(3, dtype=np.int64), np.array([1, 2, 0]), boxes, hit).tolist(), hit.tolist()
    ([0, 2], [True, False, True])
    """
    which = np.empty(len(body), dtype=np.int64)
    m = 0
    for p in range(len(body)):
        if not (moved[body[p]] or (other_body[p] >= 0 and moved[other_body[p]])):
            continue
        if boxes_overlap(boxes[body_row[p]], boxes[other[p]]):
            which[m] = p
            m += 1
        else:
            hit[p] = False
    found: Int64Array = which[:m].copy()
    return found


@kernel(_B1(_I1, _I1, _B1, _F2, _F2, _I1, _F2, types.float64, _I1))
def inner_edges(
    body: Int64Array,
    other: Int64Array,
    hit: BoolArray,
    normal: FloatArray,
    point: FloatArray,
    other_body: Int64Array,
    boxes: FloatArray,
    probe: float,
    which: Int64Array,
) -> BoolArray:
    """Which of the pairs ``which`` touch on an inner edge: the point ``probe`` past
    their contact point along the normal lies in the box (``boxes[other[q]]``, closed)
    of another pair ``q`` of the same body whose other shape is a solid
    (``other_body[q] < 0``, not a body).

    ``body`` is ascending, so the pairs of one body are adjacent.

    >>> box = np.array([[0.0, -1.0, 1.0, 0.0], [1.0, -1.0, 2.0, 0.0]])
    >>> inner_edges(np.array([0, 0]), np.array([0, 1]), np.array([True, True]),
    ...     np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[1.0, 0.0], [1.5, 0.0]]),
    ...     np.array([-1, -1]), box, 0.001, np.array([0, 1])).tolist()
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
            if q != p and other_body[q] < 0:
                o = other[q]
                if boxes[o, 0] <= px <= boxes[o, 2] and boxes[o, 1] <= py <= boxes[o, 3]:
                    inner[p] = True
                    break
            q += 1
    return inner


@kernel(
    types.void(
        _I1, _B1, _F2, _F1, _F2, _I1, _I1, _I1, _I1, types.int8[::1], _F2, _F2, _F2,
        types.float64, types.float64, types.float64, _B1, _F2, _F1, _F2, _B1,
    )
)
def take_contacts(
    which: Int64Array,
    found_hit: BoolArray,
    found_normal: FloatArray,
    found_depth: FloatArray,
    found_point: FloatArray,
    body: Int64Array,
    other: Int64Array,
    other_body: Int64Array,
    rows: Int64Array,
    code: NDArray[np.int8],
    boxes: FloatArray,
    poses: FloatArray,
    start: FloatArray,
    slack: float,
    margin: float,
    probe: float,
    hit: BoolArray,
    normal: FloatArray,
    depth: FloatArray,
    point: FloatArray,
    blocking: BoolArray,
) -> None:
    """Store the contacts ``found_*[k]`` of the pairs ``p = which[k]`` (normals from
    the body, as measured) into ``hit[p]``, ``normal[p]`` (from the other shape
    towards the body), ``depth[p]``, ``point[p]``, and whether each blocks.

    A pair blocks unless it touches on an inner edge (:func:`inner_edges`). Against a
    one-way solid (``code`` :data:`~arcade_collide.ecs.response_roster.ONE_WAY` at
    ``other[p]``) it blocks only if the body's bottom, where the tick began (its box
    now, ``boxes[rows[b]]``, less how far it rose since ``start[b]``), was at or
    above the solid's top (within ``4 * margin``); its normal is then up and its
    depth how far the bottom is below the top. Boxes are padded by ``slack``.

    >>> hit, depth, blocking = np.zeros(1, dtype=np.bool_), np.zeros(1), np.zeros(1, dtype=np.bool_)
    >>> normal, point = np.zeros((1, 2)), np.zeros((1, 2))
    >>> take_contacts(np.array([0]), np.array([True]), np.array([[0.0, -1.0]]),
    ...     np.array([0.5]), np.array([[0.0, 1.0]]), np.array([0]), np.array([1]),
    ...     np.array([-1]), np.array([0]), np.array([0, 1], dtype=np.int8),
    ...     np.array([[0.0, 0.5, 1.0, 1.5], [0.0, 0.0, 1.0, 1.0]]), np.zeros((1, 3)),
    ...     np.zeros((1, 3)), 0.0, 0.0, 0.001, hit, normal, depth, point, blocking)
    >>> hit.tolist(), normal.tolist(), depth.tolist(), blocking.tolist()  # on a floor
    ([True], [[-0.0, 1.0]], [0.5], [True])
    """
    for k in range(len(which)):
        p = which[k]
        hit[p] = found_hit[k]
        normal[p, 0] = -found_normal[k, 0]
        normal[p, 1] = -found_normal[k, 1]
        depth[p] = found_depth[k]
        point[p, 0] = found_point[k, 0]
        point[p, 1] = found_point[k, 1]
    inner = inner_edges(body, other, hit, normal, point, other_body, boxes, probe, which)
    for k in range(len(which)):
        p = which[k]
        blocking[p] = not inner[p]
        if code[other[p]] == ONE_WAY:
            b = body[p]
            bottom_now = boxes[rows[b], 1] + slack
            risen = poses[b, 1] - start[b, 1]
            top = boxes[other[p], 3] - slack
            blocking[p] = bottom_now - risen >= top - 4.0 * margin
            normal[p, 0] = 0.0
            normal[p, 1] = 1.0
            depth[p] = max(top - bottom_now, 0.0)


@kernel(types.void(_I1, _I1, _I1, _F2, _F2, _I1, _F2, _F2), inline=True)
def _keep_supports(
    top: Int64Array,
    other: Int64Array,
    entities: Int64Array,
    normal: FloatArray,
    other_v: FloatArray,
    support: Int64Array,
    support_normal: FloatArray,
    support_velocity: FloatArray,
) -> None:
    """Body ``b``'s support from its pair ``top[b]`` (-1: none, zeros)."""
    for b in range(len(top)):
        p = top[b]
        if p < 0:
            support[b] = -1
            support_normal[b] = 0.0
            support_velocity[b] = 0.0
        else:
            support[b] = entities[other[p]]
            support_normal[b] = normal[p]
            support_velocity[b] = other_v[p]


@kernel(
    types.void(
        _I1, _I1, _F2, _F1, _B1, _B1, _I1, _F2, _I1, _F2, _F1, _F1, types.float64, _I1,
        _I1, _F2, _F2,
    )
)
def resolve_velocities(
    body: Int64Array,
    other: Int64Array,
    normal: FloatArray,
    share: FloatArray,
    hit: BoolArray,
    blocking: BoolArray,
    mover: Int64Array,
    mover_velocity: FloatArray,
    velocity_row: Int64Array,
    velocity: FloatArray,
    restitution: FloatArray,
    friction: FloatArray,
    bounce_speed: float,
    entities: Int64Array,
    support: Int64Array,
    support_normal: FloatArray,
    support_velocity: FloatArray,
) -> None:
    """Remove from each body's velocity the part that moves it into a surface it
    touches, pair by pair, and find what each body stands on.

    Body ``b``'s velocity is ``velocity[velocity_row[b], :2]`` (changed in place; 0
    and not kept where ``velocity_row[b]`` is -1); the other shape's, table row
    ``other[p]``, is ``mover_velocity[mover[other[p]], :2]`` (0 where ``mover`` is -1).
    For a touching, blocking pair, with the relative velocity ``v - other`` and its
    speed ``vn`` along the normal: when ``vn < 0`` the body gets
    ``share * (1 + e) * -vn`` along the normal (``e`` its restitution, 0 when ``-vn``
    is at most ``bounce_speed``, so a body resting under gravity does not hop), and
    its relative speed along the surface drops by ``friction`` times that change,
    never reversing (Coulomb). ``share``: 1 against a solid, 0.5 against a body.
    ``support[b]`` gets the entity (``entities[other[p]]``) of the touching, blocking
    pair whose normal points most upward (the first of equals; -1: none), its normal
    and velocity ``support_normal[b]``, ``support_velocity[b]`` (zeros where none).

    >>> v, at = np.array([[3.0, -4.0, 0.0]]), np.zeros(1, dtype=np.int64)
    >>> support, normal, speed = np.empty(1, dtype=np.int64), np.zeros((1, 2)), np.zeros((1, 2))
    >>> yes, none = np.array([True]), np.array([-1])
    >>> resolve_velocities(at, at, np.array([[0.0, 1.0]]), np.ones(1), yes, yes, none,
    ...     np.zeros((0, 3)), at, v, np.zeros(1), np.array([0.5]), 0.0, np.array([7]),
    ...     support, normal, speed)
    >>> v.tolist(), support.tolist(), normal.tolist()  # landing: vy gone, vx slowed by 2
    ([[1.0, 0.0, 0.0]], [7], [[0.0, 1.0]])
    """
    count = len(velocity_row)
    vel = np.zeros((count, 2))
    for b in range(count):
        if velocity_row[b] >= 0:
            vel[b] = velocity[velocity_row[b], :2]
    top = np.full(count, -1, dtype=np.int64)
    other_v = np.zeros((len(body), 2))
    for p in range(len(body)):
        if not (hit[p] and blocking[p]):
            continue
        b = body[p]
        nx, ny = normal[p, 0], normal[p, 1]
        if top[b] < 0 or ny > normal[top[b], 1]:
            top[b] = p
        at = mover[other[p]]
        if at >= 0:
            other_v[p, 0] = mover_velocity[at, 0]
            other_v[p, 1] = mover_velocity[at, 1]
        rx, ry = vel[b, 0] - other_v[p, 0], vel[b, 1] - other_v[p, 1]
        vn = rx * nx + ry * ny
        if not vn < 0.0:
            continue
        e = restitution[b] if -vn > bounce_speed else 0.0
        change = share[p] * (1.0 + e) * -vn
        tx, ty = rx - vn * nx, ry - vn * ny
        vel[b, 0] += change * nx
        vel[b, 1] += change * ny
        along = math.hypot(tx, ty)
        if along > 0.0 and friction[b] > 0.0:
            slow = min(along, friction[b] * change) / along
            vel[b, 0] -= tx * slow
            vel[b, 1] -= ty * slow
    for b in range(count):
        if velocity_row[b] >= 0:
            velocity[velocity_row[b], :2] = vel[b]
    _keep_supports(top, other, entities, normal, other_v, support, support_normal, support_velocity)


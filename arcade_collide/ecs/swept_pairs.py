"""Compiled passes over a tick's swept shapes and pairs (:mod:`~arcade_collide.ecs.swept`):
the motions and their boxes in one pass; the candidate pairs filtered and made ready
for their casts in one pass; and entities and pair keys looked up in sorted arrays.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from arcade_collide.geometry.arrays import BoolArray, FloatArray
from arcade_collide.geometry.compiled import kernel
from arcade_collide.geometry.query.kernel_base import Int64Array, types
from arcade_collide.geometry.shapes import ShapeKind

STOP = 2
"""The :attr:`~arcade_collide.ecs.table.ShapeTable.sweep` code of a shape that stops."""

_RECT = int(ShapeKind.RECT)
"""The first kind whose outline turns with its angle."""

Int8Array = NDArray[np.int8]
_I1 = types.int64[::1]
_F1 = types.float64[::1]
_F2 = types.float64[:, ::1]
_B1 = types.boolean[::1]


@kernel(
    types.Tuple((_F2, _F1, _F1, _F2, _F2))(
        _F2, _F2, _I1, types.int8[::1], _F1, types.float64, _F2, _F1, _F1
    )
)  # fmt: skip
def motions(
    start: FloatArray,
    end: FloatArray,
    rows: Int64Array,
    kinds: Int8Array,
    outer: FloatArray,
    slack: float,
    aabbs: FloatArray,
    origin_x: FloatArray,
    origin_y: FloatArray,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """The motions of the moving swept ``rows`` from poses ``start`` to ``end`` (``(N,
    3)``, ``(x, y, angle)``), as ``(t, turn, radius, ends, boxes)``.

    ``t`` ``(N, 2)`` is the translation, ``turn`` the change of angle in ``[-180, 180)``
    degrees, and ``radius`` that of the circle about the pose origin a turning outline
    is cast as (its outer circle grown by ``slack``; 0 for a round shape or one that
    did not turn). ``ends`` ``(N, 4)`` is a box holding the row at the end of its motion
    that, moved back along ``t``, holds it all the way (its box in ``aabbs``, with the
    turning circle), and ``boxes`` the bounding box of that motion.

    >>> start = np.array([[0.0, 0.0, 0.0], [5.0, 5.0, 10.0]])
    >>> end = np.array([[3.0, -4.0, 0.0], [5.0, 5.0, 350.0]])  # a move; a turn by -20
    >>> aabbs = np.array([[2.0, -5.0, 4.0, -3.0], [4.0, 4.5, 6.0, 5.5]])
    >>> t, turn, radius, ends, boxes = motions(
    ...     start, end, np.array([0, 1]), np.array([1, 2], dtype=np.int8),
    ...     np.array([1.0, 1.25]), 0.0, aabbs, np.array([3.0, 5.0]), np.array([-4.0, 5.0]))
    >>> t.tolist(), turn.tolist(), radius.tolist()
    ([[3.0, -4.0], [0.0, 0.0]], [0.0, -20.0], [0.0, 1.25])
    >>> boxes.tolist()  # back along the move; the turning circle
    [[-1.0, -5.0, 4.0, 1.0], [3.75, 3.75, 6.25, 6.25]]
    """
    n = len(rows)
    t = np.empty((n, 2))
    turn = np.empty(n)
    radius = np.zeros(n)
    ends = np.empty((n, 4))
    boxes = np.empty((n, 4))
    for k in range(n):
        row = rows[k]
        tx = end[k, 0] - start[k, 0]
        ty = end[k, 1] - start[k, 1]
        t[k, 0] = tx
        t[k, 1] = ty
        w = (end[k, 2] - start[k, 2] + 180.0) % 360.0 - 180.0
        turn[k] = w
        x0 = aabbs[row, 0]
        y0 = aabbs[row, 1]
        x1 = aabbs[row, 2]
        y1 = aabbs[row, 3]
        if w != 0.0 and kinds[row] >= _RECT:
            r = outer[row] + slack
            radius[k] = r
            x0 = min(x0, origin_x[row] - r)
            y0 = min(y0, origin_y[row] - r)
            x1 = max(x1, origin_x[row] + r)
            y1 = max(y1, origin_y[row] + r)
        ends[k, 0] = x0
        ends[k, 1] = y0
        ends[k, 2] = x1
        ends[k, 3] = y1
        boxes[k, 0] = min(x0, x0 - tx)
        boxes[k, 1] = min(y0, y0 - ty)
        boxes[k, 2] = max(x1, x1 - tx)
        boxes[k, 3] = max(y1, y1 - ty)
    return t, turn, radius, ends, boxes


@kernel(types.int64[::1](_I1, _I1))
def _entity_order(entities: Int64Array, hint: Int64Array) -> Int64Array:
    """The order sorting ``entities`` (unique): an insertion sort from ``hint`` when it
    is an order of as many, while that stays cheap, else a sort afresh.

    >>> _entity_order(np.array([7, 3, 9, 4]), np.array([1, 0, 2, 3])).tolist()
    [1, 3, 0, 2]
    """
    n = len(entities)
    if len(hint) != n:
        return np.argsort(entities)
    order: Int64Array = hint.copy()
    budget = 16 * n
    for k in range(1, n):
        q = order[k]
        e = entities[q]
        r = k - 1
        while r >= 0 and entities[order[r]] > e:
            order[r + 1] = order[r]
            r -= 1
        order[r + 1] = q
        budget -= k - 1 - r
        if budget < 0:
            return np.argsort(entities)
    return order


@kernel(
    types.Tuple((_I1, _I1, _I1, _F2, _F2, _B1))(
        _I1, _I1, _I1, _F2, _F2, _I1, _I1, _F2, _I1
    )
)  # fmt: skip
def swept_poses(
    rows: Int64Array,
    entities: Int64Array,
    old_entities: Int64Array,
    old_poses: FloatArray,
    data: FloatArray,
    pose_rows: Int64Array,
    start_entities: Int64Array,
    start_poses: FloatArray,
    hint: Int64Array,
) -> tuple[Int64Array, Int64Array, Int64Array, FloatArray, FloatArray, BoolArray]:
    """The swept ``rows`` (their ``entities``, unique) by ascending entity, with where
    they are and where they start, when the swept entities are not last tick's.

    Returns ``(order, entities, rows, now, before, known)``: ``order`` sorts the given
    rows by entity; ``now`` is each one's pose (``data[pose_rows[row]]``); ``before``
    its pose at the last tick (``old_poses`` of the same entity in ``old_entities``,
    ascending), else the pose kept before this tick moved it (``start_poses`` of the
    same entity in ``start_entities``, any order), else ``now``; ``known`` whether
    either was found. ``hint`` is where the sort starts when it orders as many rows
    (the last tick's ``order``: a few bullets replaced leave it nearly right).

    >>> order, entities, rows, now, before, known = swept_poses(
    ...     np.array([0, 1, 2]), np.array([7, 3, 9]), np.array([3, 5]),
    ...     np.array([[1.0, 1, 0], [2, 2, 0]]), np.array([[4.0, 4, 0], [5, 5, 0], [6, 6, 0]]),
    ...     np.array([2, 1, 0]), np.array([9]), np.array([[8.0, 8, 0]]), np.array([2, 0, 1]))
    >>> order.tolist(), entities.tolist(), known.tolist()  # 3 was there; 9 was kept
    ([1, 0, 2], [3, 7, 9], [True, False, True])
    >>> before[:, 0].tolist(), now[:, 0].tolist()
    ([1.0, 6.0, 8.0], [5.0, 6.0, 4.0])
    """
    n = len(rows)
    order = _entity_order(entities, hint)
    by_id = np.empty(n, dtype=np.int64)
    sorted_rows = np.empty(n, dtype=np.int64)
    now = np.empty((n, 3))
    before = np.empty((n, 3))
    known = np.zeros(n, dtype=np.bool_)
    j = 0
    for k in range(n):
        row = rows[order[k]]
        entity = entities[order[k]]
        by_id[k] = entity
        sorted_rows[k] = row
        now[k] = data[pose_rows[row]]
        while j < len(old_entities) and old_entities[j] < entity:
            j += 1
        if j < len(old_entities) and old_entities[j] == entity:
            before[k] = old_poses[j]
            known[k] = True
        else:
            before[k] = now[k]
    missing = n - np.count_nonzero(known)
    if missing and len(start_entities):
        # The entities not swept at the last tick (few: new this tick), ascending as in
        # ``by_id``, are searched for each kept entity: the kept ones (every swept
        # shape's) need no sort.
        new = np.flatnonzero(~known)
        wanted = by_id[new]
        at = np.searchsorted(wanted, start_entities)
        for s in range(len(start_entities)):
            if at[s] < missing and wanted[at[s]] == start_entities[s]:
                before[new[at[s]]] = start_poses[s]
                known[new[at[s]]] = True
    return order, by_id, sorted_rows, now, before, known


@kernel(types.boolean(_I1, _I1, _I1, _I1, _F2, _I1, _I1, _F2))
def same_swept_poses(
    rows: Int64Array,
    order: Int64Array,
    entities: Int64Array,
    known: Int64Array,
    data: FloatArray,
    pose_rows: Int64Array,
    rows_out: Int64Array,
    now: FloatArray,
) -> bool:
    """Whether the swept ``rows`` taken in ``order`` hold the entities ``known`` (the
    swept entities of the last tick, ascending): then ``rows[order]`` are written into
    ``rows_out`` and their poses (``data[pose_rows[row]]``) into ``now``, the work
    :func:`swept_poses` does for a tick with the same swept shapes as the last.

    >>> rows_out, now = np.empty(2, dtype=np.int64), np.empty((2, 3))
    >>> data = np.array([[4.0, 4, 0], [5, 5, 0]])
    >>> same_swept_poses(np.array([0, 1]), np.array([1, 0]), np.array([7, 3]),
    ...                  np.array([3, 7]), data, np.array([0, 1]), rows_out, now)
    True
    >>> rows_out.tolist(), now[:, 0].tolist()
    ([1, 0], [5.0, 4.0])
    >>> same_swept_poses(np.array([0, 1]), np.array([0, 1]), np.array([7, 3]),
    ...                  np.array([3, 7]), data, np.array([0, 1]), rows_out, now)
    False
    """
    n = len(rows)
    if len(order) != n or len(known) != n:
        return False
    for k in range(n):
        row = rows[order[k]]
        if entities[row] != known[k]:
            return False
        rows_out[k] = row
    for k in range(n):
        p = pose_rows[rows_out[k]]
        now[k, 0] = data[p, 0]
        now[k, 1] = data[p, 1]
        now[k, 2] = data[p, 2]
    return True


@kernel(types.int64(_I1, _F2, _F2, _B1, _B1, _I1, _F2, _F2))
def moved_motions(
    rows: Int64Array,
    before: FloatArray,
    now: FloatArray,
    known: BoolArray,
    moving: BoolArray,
    moved_rows: Int64Array,
    start: FloatArray,
    end: FloatArray,
) -> int:
    """Which swept ``rows`` moved: known where they were (``known``) and posed
    otherwise now (a NaN counts as a move). Flags into ``moving``; the rows that moved,
    and their poses ``before`` and ``now``, into the first rows of ``moved_rows``,
    ``start`` and ``end``; returns how many.

    >>> before = np.array([[0.0, 0, 0], [1, 1, 0], [2, 2, 0]])
    >>> now = np.array([[0.0, 0, 0], [1, 1, 0.5], [3, 2, 0]])
    >>> moving, moved = np.empty(3, dtype=bool), np.empty(3, dtype=np.int64)
    >>> start, end = np.empty((3, 3)), np.empty((3, 3))
    >>> known = np.array([True, True, False])
    >>> count = moved_motions(np.array([5, 6, 7]), before, now, known, moving, moved,
    ...                       start, end)
    >>> count, moving.tolist(), moved[:count].tolist(), end[:count, 2].tolist()
    (1, [False, True, False], [6], [0.5])
    """
    count = 0
    for k in range(len(rows)):
        moved = known[k] and (
            before[k, 0] != now[k, 0] or before[k, 1] != now[k, 1] or before[k, 2] != now[k, 2]
        )
        moving[k] = moved
        if moved:
            moved_rows[count] = rows[k]
            for c in range(3):
                start[count, c] = before[k, c]
                end[count, c] = now[k, c]
            count += 1
    return count


@kernel(types.int64(_B1, _I1, _I1, _I1, _B1, _F2, _F2))
def kept_hits(
    hit: BoolArray,
    a: Int64Array,
    b: Int64Array,
    b_moving: Int64Array,
    fresh: BoolArray,
    d: FloatArray,
    found: FloatArray,
) -> int:
    """Move the entries ``k`` where ``hit[k]`` to the front of each array (for the first
    ``len(hit)`` entries), in order, in place; return how many.

    >>> a, b, m = np.array([1, 2, 3]), np.array([4, 5, 6]), np.array([-1, 0, -1])
    >>> fresh, d, found = np.array([True, False, True]), np.eye(3)[:, :2].copy(), np.zeros((3, 6))
    >>> kept_hits(np.array([False, True, True]), a, b, m, fresh, d, found)
    2
    >>> a[:2].tolist(), m[:2].tolist(), fresh[:2].tolist(), d[:2].tolist()
    ([2, 3], [0, -1], [False, True], [[0.0, 1.0], [0.0, 0.0]])
    """
    m = 0
    for k in range(len(hit)):
        if hit[k]:
            a[m] = a[k]
            b[m] = b[k]
            b_moving[m] = b_moving[k]
            fresh[m] = fresh[k]
            d[m, 0] = d[k, 0]
            d[m, 1] = d[k, 1]
            for c in range(6):
                found[m, c] = found[k, c]
            m += 1
    return m


@kernel(types.void(_I1, _I1, _I1, _I1, _I1, _I1, _I1, _I1, _I1, _I1, _I1, _I1))
def joined_candidates(
    q: Int64Array,
    s: Int64Array,
    static_rows: Int64Array,
    q_other: Int64Array,
    s_other: Int64Array,
    others: Int64Array,
    i: Int64Array,
    j: Int64Array,
    rows: Int64Array,
    a: Int64Array,
    b: Int64Array,
    b_moving: Int64Array,
) -> None:
    """The swept stage's candidate pairs in one set of arrays ``(a, b, b_moving)``, in
    this order: each moving box ``q[k]`` with the static row ``static_rows[s[k]]``, each
    ``q_other[k]`` with the other row ``others[s_other[k]]``, then the moving boxes
    ``i[k]`` and ``j[k]`` with each other (``b`` the table row ``rows[j[k]]``,
    ``b_moving`` the index ``j[k]``; -1 for the rows that stay put).

    >>> a, b, m = (np.empty(3, dtype=np.int64) for _ in range(3))
    >>> none = np.empty(0, dtype=np.int64)
    >>> joined_candidates(np.array([0]), np.array([1]), np.array([10, 11]), none, none,
    ...                   none, np.array([0, 1]), np.array([1, 2]), np.array([20, 21, 22]),
    ...                   a, b, m)
    >>> a.tolist(), b.tolist(), m.tolist()
    ([0, 0, 1], [11, 21, 22], [-1, 1, 2])
    """
    n = 0
    for k in range(len(q)):
        a[n] = q[k]
        b[n] = static_rows[s[k]]
        b_moving[n] = -1
        n += 1
    for k in range(len(q_other)):
        a[n] = q_other[k]
        b[n] = others[s_other[k]]
        b_moving[n] = -1
        n += 1
    for k in range(len(i)):
        a[n] = i[k]
        b[n] = rows[j[k]]
        b_moving[n] = j[k]
        n += 1


@kernel(_I1(_I1, _I1))
def kept_places(old: Int64Array, new: Int64Array) -> Int64Array:
    """Where each of ``old`` is in ``new`` (both ascending and unique), -1 where absent,
    in one merge.

    >>> kept_places(np.array([2, 4, 7]), np.array([1, 4, 7, 9])).tolist()
    [-1, 1, 2]
    """
    out = np.empty(len(old), dtype=np.int64)
    j = 0
    for k in range(len(old)):
        while j < len(new) and new[j] < old[k]:
            j += 1
        out[k] = j if j < len(new) and new[j] == old[k] else -1
    return out


@kernel(types.int64(types.int64[:, ::1], types.int64, types.int64), inline=True)
def find_pair(keys: Int64Array, a: int, b: int) -> int:
    """The index of the pair ``(a, b)`` in ``keys`` (rows sorted lexicographically),
    -1 when absent."""
    lo, hi = 0, len(keys)
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid, 0] < a or (keys[mid, 0] == a and keys[mid, 1] < b):
            lo = mid + 1
        else:
            hi = mid
    if lo < len(keys) and keys[lo, 0] == a and keys[lo, 1] == b:
        return lo
    return -1


@kernel(_I1(types.int64[:, ::1], _I1, _I1))
def find_pairs(keys: Int64Array, a: Int64Array, b: Int64Array) -> Int64Array:
    """The index of each pair ``(a[k], b[k])`` in ``keys`` (rows sorted
    lexicographically), -1 where absent.

    >>> keys = np.array([[1, 2], [1, 5], [3, 4]])
    >>> find_pairs(keys, np.array([1, 3, 2]), np.array([5, 4, 3])).tolist()
    [1, 2, -1]
    """
    out = np.empty(len(a), dtype=np.int64)
    for k in range(len(a)):
        out[k] = find_pair(keys, a[k], b[k])
    return out


@kernel(
    types.int64(
        _I1, _F2, _F1, _I1, _I1, _I1, _F1, _F1, _I1, _B1, _I1, _I1, types.int8[::1],
        types.int64[:, ::1], _I1, _I1, _I1, _I1, _F2, _F2, _B1, _B1,
    )
)  # fmt: skip
def swept_pass(
    moving: Int64Array,
    t: FloatArray,
    radius: FloatArray,
    a: Int64Array,
    b: Int64Array,
    b_moving: Int64Array,
    origin_x: FloatArray,
    origin_y: FloatArray,
    entities: Int64Array,
    static: BoolArray,
    layer: Int64Array,
    mask: Int64Array,
    sweep: Int8Array,
    old_keys: Int64Array,
    out_a: Int64Array,
    out_b: Int64Array,
    out_m: Int64Array,
    row_a: Int64Array,
    d: FloatArray,
    pair: FloatArray,
    exact: BoolArray,
    fresh: BoolArray,
) -> int:
    """The candidate pairs that may collide, compacted, with what
    :func:`~arcade_collide.geometry.query.sweeps.swept_rows` reads of each.

    Args:
        moving: The table rows of the swept shapes that moved.
        t: ``(N, 2)``: each one's translation over the tick.
        radius: Each one's turning circle's radius (0: cast its own outline).
        a: Per candidate pair, its swept side, an index into ``moving``.
        b: Its other side, a table row.
        b_moving: The index of ``b`` in ``moving``, -1 when it is not one of them.
        origin_x: The table's pose origins.
        origin_y: (likewise.)
        entities: The table's entity ids.
        static: The table's static flags (two static rows never collide).
        layer: The table's layers.
        mask: The table's masks.
        sweep: The table's sweep codes (:data:`STOP`: the shape stops at impact).
        old_keys: The pairs touching at the last tick, sorted.
        out_a: Out, per pair kept: its ``a``.
        out_b: Out: its ``b``.
        out_m: Out: its ``b_moving``.
        row_a: Out: ``moving[a]``.
        d: Out ``(M, 2)``: A's translation relative to B.
        pair: Out ``(M, 6)``: the radii of A and B (0: their own outlines) and the
            pose origins ``(ax, ay, bx, by)``.
        exact: Out: whether its start contact is wanted (a new pair, or one side stops).
        fresh: Out: whether the pair is absent from ``old_keys``.

    Returns:
        How many pairs were kept (the first rows of the outs).
    """
    count = 0
    for k in range(len(a)):
        i = a[k]
        ra = moving[i]
        rb = b[k]
        if ra == rb or (static[ra] and static[rb]):
            continue
        if (layer[ra] & mask[rb]) == 0 or (layer[rb] & mask[ra]) == 0:
            continue
        m = b_moving[k]
        d[count, 0] = t[i, 0]
        d[count, 1] = t[i, 1]
        pair[count, 0] = radius[i]
        pair[count, 1] = 0.0
        if m >= 0:
            d[count, 0] -= t[m, 0]
            d[count, 1] -= t[m, 1]
            pair[count, 1] = radius[m]
        pair[count, 2] = origin_x[ra]
        pair[count, 3] = origin_y[ra]
        pair[count, 4] = origin_x[rb]
        pair[count, 5] = origin_y[rb]
        ea = entities[ra]
        eb = entities[rb]
        new = find_pair(old_keys, min(ea, eb), max(ea, eb)) < 0
        fresh[count] = new
        exact[count] = new or sweep[ra] == STOP or sweep[rb] == STOP
        out_a[count] = i
        out_b[count] = rb
        out_m[count] = m
        row_a[count] = ra
        count += 1
    return count

"""The platformer controller's tick: one compiled pass over every controlled body's row.

Each :class:`~arcade_collide.ecs.platformer.Platformer` is a row of a per-world table
of ``WIDTH`` floats: its tuning, the game's input for the tick and the state the
controller keeps (the column numbers below). :func:`platformer_step` reads the rows,
each body's support (what it stands on after the last tick) and whether it overlaps a
ladder, and writes the new state and each body's Velocity. It is a pure function of
those arrays: no esper, no geometry.

The rules, per body and tick of ``dt`` seconds (``eps`` = 1e-9 s absorbs rounding in
sums of ``dt``):

* Ground: the body stands on its support when that support's normal is within
  ``max_floor_angle`` of straight up. On the ground its velocity is the run input
  along the floor (the tangent ``(ny, -nx)``, so slopes are walked along, not into)
  plus the support's velocity (a moving platform carries it), plus one tick of gravity
  along ``-normal``: the body presses into its floor by ``gravity * dt**2`` and the
  response pushes it back out along the normal, so nothing slides sideways.
* Air: ``vx = move * run_speed``; ``vy`` loses ``gravity * dt`` each tick, starting
  from the Velocity the response left (a ceiling stops a rise), or, on the first tick
  off the ground, from the vertical speed the body had along its floor.
* Ladder: while the body overlaps a ladder, no gravity, even where it also stands on
  a floor (the foot of a ladder): ``vx = move * run_speed``,
  ``vy = climb * ladder_speed``. A jump lets go of the ladder until the body leaves it
  or climbs again.
* Jumps: a press is kept ``jump_buffer`` seconds (its own tick included); the body
  jumps on the first tick it can: ``vy = jump_speed``, gravity from the next tick.
  ``jumps_used`` counts jumps since the body last stood on the ground or a ladder; it
  can jump while ``jumps_used < max_jumps``. Walking off a ledge keeps the ground jump
  for ``coyote_time`` seconds (``air_time <= coyote_time``), then counts it as used.
"""

from __future__ import annotations

import math

from arcade_collide.geometry.arrays import BoolArray, FloatArray, IntArray
from arcade_collide.geometry.compiled import kernel

# Tuning, set by the game when it makes the component.
GRAVITY = 0
RUN_SPEED = 1
JUMP_SPEED = 2
COYOTE_TIME = 3
JUMP_BUFFER = 4
MAX_JUMPS = 5
LADDER_SPEED = 6
MAX_FLOOR_ANGLE = 7
# Input, set by the game before each tick; JUMP is cleared by the tick.
MOVE = 8
JUMP = 9
CLIMB = 10
# State, written by the tick.
ON_GROUND = 11
ON_LADDER = 12
JUMPS_USED = 13
AIR_TIME = 14
JUMP_PRESS_AGE = 15
INTENDED_VY = 16
"""The vertical speed the body had along its floor or in the air, before the pressing
tick of gravity on the ground was added."""
LET_GO = 17
"""1 after a jump from a ladder, until the body leaves the ladder or climbs."""
WIDTH = 18

SUPPORT_WIDTH = 5
"""Columns of a support row: found (0 or 1), normal x, normal y, velocity x, velocity y."""

EPS = 1e-9


@kernel(
    "void(float64[:, ::1], int64[::1], float64[:, ::1], int64[::1], float64[:, ::1], "
    "boolean[::1], float64)"
)
def platformer_step(
    table: FloatArray,
    rows: IntArray,
    velocities: FloatArray,
    vel_rows: IntArray,
    supports: FloatArray,
    ladders: BoolArray,
    dt: float,
) -> None:
    """Advance the controlled bodies ``rows`` of ``table`` by ``dt`` seconds, in place.

    Args:
        table: The Platformer rows (``WIDTH`` columns, see the module's column names).
        rows: Each body's row in ``table``.
        velocities: The Velocity rows ``(x, y, angular)``; ``x`` and ``y`` are written.
        vel_rows: Each body's row in ``velocities``.
        supports: ``(N, SUPPORT_WIDTH)``: each body's support after the last tick.
        ladders: ``(N,)`` bools: whether each body overlaps a ladder.
        dt: The tick in seconds.

    >>> import numpy as np
    >>> table = np.zeros((1, WIDTH))
    >>> table[0, [GRAVITY, RUN_SPEED, JUMP_SPEED, MAX_JUMPS, MAX_FLOOR_ANGLE]] = (
    ...     600, 100, 300, 1, 45)
    >>> table[0, JUMP_PRESS_AGE] = np.inf
    >>> table[0, JUMP] = 1.0                      # pressed, standing on a flat floor
    >>> vel = np.zeros((1, 3)); one = np.zeros(1, np.int64)
    >>> floor = np.array([[1.0, 0.0, 1.0, 0.0, 0.0]])
    >>> platformer_step(table, one, vel, one, floor, np.zeros(1, np.bool_), 0.1)
    >>> vel[0].tolist(), table[0, [JUMPS_USED, JUMP]].tolist()
    ([0.0, 300.0, 0.0], [1.0, 0.0])
    >>> platformer_step(table, one, vel, one, 0 * floor, np.zeros(1, np.bool_), 0.1)
    >>> vel[0].tolist(), table[0, ON_GROUND].item()  # airborne: gravity, no more jumps
    ([0.0, 240.0, 0.0], 0.0)
    """
    for k in range(len(rows)):
        row = table[rows[k]]
        v = vel_rows[k]
        gravity = row[GRAVITY]
        age = 0.0 if row[JUMP] != 0.0 else row[JUMP_PRESS_AGE] + dt
        row[JUMP] = 0.0
        nx, ny = supports[k, 1], supports[k, 2]
        floor = supports[k, 0] != 0.0 and ny >= math.cos(math.radians(row[MAX_FLOOR_ANGLE]))
        overlap = ladders[k]
        let_go = row[LET_GO] != 0.0 and overlap and row[CLIMB] == 0.0
        on_ladder = overlap and not let_go
        if floor or on_ladder:
            air, used = 0.0, 0.0
        else:
            air, used = row[AIR_TIME] + dt, row[JUMPS_USED]
            if used == 0.0 and air > row[COYOTE_TIME] + EPS:
                used = 1.0
        run = row[MOVE] * row[RUN_SPEED]
        if on_ladder:
            vx, vy = run, row[CLIMB] * row[LADDER_SPEED]
            intended = vy
        elif floor:
            along_x = run * ny + supports[k, 3]
            along_y = -run * nx + supports[k, 4]
            intended = along_y
            vx = along_x - nx * gravity * dt
            vy = along_y - ny * gravity * dt
        else:
            start = row[INTENDED_VY] if row[ON_GROUND] != 0.0 else velocities[v, 1]
            vx, vy = run, start - gravity * dt
            intended = vy
        if age <= row[JUMP_BUFFER] + EPS and used < row[MAX_JUMPS]:
            vx, vy = run, row[JUMP_SPEED]
            intended = vy
            used += 1.0
            age = math.inf
            floor = False
            let_go = overlap
            on_ladder = False
        velocities[v, 0] = vx
        velocities[v, 1] = vy
        row[ON_GROUND] = 1.0 if floor else 0.0
        row[ON_LADDER] = 1.0 if on_ladder else 0.0
        row[JUMPS_USED] = used
        row[AIR_TIME] = air
        row[JUMP_PRESS_AGE] = age
        row[INTENDED_VY] = intended
        row[LET_GO] = 1.0 if let_go else 0.0

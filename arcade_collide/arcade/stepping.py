"""Stepping a :class:`~.world.CollisionWorld`: read the game's moves, run the tick,
write the poses back (the steps are listed in :mod:`.world`).

A sprite stopped at impact (``add_sprite(..., swept=True, stop_at_impact=True)``), or
a body sprite the response pushed out of a solid (``add_sprite(..., body=Body())``),
is moved to where the tick left it before the tick's callbacks run, so a callback
reading its position sees the impact point or the resolved pose.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextlib import AbstractContextManager

import esper
import numpy as np
from numpy.typing import NDArray

from arcade_collide.arcade.bodies import Bodies, store_poses
from arcade_collide.arcade.handlers import Router
from arcade_collide.arcade.lifetime import delete_dropped_worlds
from arcade_collide.arcade.validation import require_real
from arcade_collide.ecs import Position, Subscription
from arcade_collide.ecs.table import table_for_current_world
from arcade_collide.ecs.world_state import world_pools

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

_NO_ROWS: IntArray = np.zeros(0, dtype=np.intp)


class Stepping:
    """:meth:`step` and the write-back of a :class:`~.world.CollisionWorld`."""

    _bodies: Bodies
    _router: Router
    _subscription: Subscription
    _stepping: bool
    _dead: int
    _sweeping: bool
    """Whether a swept sprite was ever added (new ones need their start poses kept)."""
    _closed: bool
    _kept: tuple[list[Position], IntArray, FloatArray, FloatArray] | None
    ticks: int
    _check_open: Callable[[], None]
    _in_world: Callable[[], AbstractContextManager[None]]
    _release_esper_world: Callable[[], None]

    def step(self, delta_time: float) -> None:
        """Advance the world by ``delta_time`` seconds (call from ``on_fixed_update``).

        Args:
            delta_time: Seconds; ``>= 0``.

        Raises:
            ValueError: ``delta_time`` is negative or not finite, or a sprite was moved
                to a non-finite pose.
            RuntimeError: the world was closed.
            Exception: the first exception a collision callback raised, after every
                event of the tick was delivered.
        """
        self._check_open()
        require_real(delta_time, "delta_time")
        if not math.isfinite(delta_time) or delta_time < 0.0:
            raise ValueError(f"delta_time must be finite and >= 0, got {delta_time!r}")
        delete_dropped_worlds()
        caller = esper.current_world
        try:
            with self._in_world():
                self._read_sprites()
                self._stepping = True
                self._dead = 0  # (esper.process clears them first)
                self._router.hold(self._subscription, caller)
                try:
                    esper.process(delta_time)
                finally:
                    self._stepping = False
                    self._router.release(self._subscription)
                    if self._kept is not None:  # see _write_back
                        _, rows, xy, angle = self._kept
                        self._kept = None
                        store_poses(rows, xy, angle)
        finally:
            if self._closed:  # by a collision callback
                self._release_esper_world()

    def _sync(self) -> None:
        """:meth:`_read_sprites`, in the world's esper world; switched to only when the
        sprites have something to take in (a query between moves switches nothing)."""
        bodies = self._bodies
        mirror = bodies.mirror
        if self._sweeping or not mirror.untouched():
            with self._in_world():
                self._read_sprites()
            return
        mirror.note_quiet_read()
        if bodies.derived.boxes_freed():  # a hull whose hit box was replaced
            with self._in_world():
                self._rebuild_derived(_NO_ROWS)

    def _read_sprites(self) -> None:
        """Take in the game's hand moves and rebuild the derived shapes that changed."""
        bodies = self._bodies
        mirror = bodies.mirror
        if self._sweeping:
            # New swept sprites start where they were added, before the game's moves.
            table = table_for_current_world()
            table.prepare()
            table.note_sweep_starts()
        moves = mirror.hand_moves()
        self._rebuild_derived(moves.read)
        if moves.rows.size:
            # One sum is finite when every value is (a huge one may overflow it: look closer).
            if not math.isfinite(float(moves.xy.sum()) + float(moves.angle.sum())):
                finite = np.isfinite(moves.xy).all(axis=1) & np.isfinite(moves.angle)
                if not finite.all():
                    bad = bodies.list[int(moves.rows[np.argmin(finite)])].entity
                    raise ValueError(f"a sprite (entity {bad}) was moved to a non-finite pose")
            store_poses(bodies.table_rows[moves.rows], moves.xy, moves.angle)
        mirror.accept(moves)

    def _rebuild_derived(self, touched: IntArray | None) -> None:
        """Give the Shapes of derived shapes whose sprite changed their new geometry
        (``touched``: the rows the sprites' setters reported, None for all; in the
        world's esper world)."""
        bodies = self._bodies
        for body in bodies.derived.refresh(bodies.list, bodies.mirror.sprites, touched,
                                           bodies.row_of):  # fmt: skip
            body.shape.geometry = body.geometry

    def _write_back(self) -> None:
        """Give the sprites the poses the movement left (run by :class:`WriteBack`)."""
        if not self._stepping:
            return
        self._write_poses()
        self.ticks += 1

    def _stopped(self, entities: list[int]) -> None:
        """Give the sprites the tick stopped at impact or the response moved their new
        poses, before the tick's events reach the callbacks (the CollisionSystem's
        ``on_stop``, the ResponseSystem's ``on_moved``)."""
        if self._stepping:
            self._write_poses()

    def _write_poses(self) -> None:
        """Give each sprite the pose of its Position, where they differ."""
        bodies = self._bodies
        mirror = bodies.mirror
        # take(): a copy (the mirror keeps it), made faster than by fancy indexing.
        poses = world_pools().positions.data.take(bodies.table_rows, axis=0)
        kept = mirror.write(poses[:, 0:2], poses[:, 2])
        if kept.size:  # the sprites' own setters made other poses (see the module docstring)
            self._kept = (
                [bodies.list[row].position for row in kept.tolist()],
                bodies.table_rows[kept], mirror.xy[kept], mirror.angle[kept],
            )

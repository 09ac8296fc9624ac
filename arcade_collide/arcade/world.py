"""``CollisionWorld``: Arcade sprites as entities of an esper collision world.

One tick of :meth:`CollisionWorld.step`:

1. **read**: poses of sprites the game moved since the last tick go into the
   ``Position`` components; sprites with a derived shape whose width, height or
   texture changed get a rebuilt ``Shape`` (an explicit shape is kept as given).
   Only sprites the game touched through Arcade's setters are read
   (:class:`~.sprite_sync.PoseMirror` logs them), so a tick where the game moved
   nothing by hand reads no sprite.
2. **simulate**: the ECS processors run (movement, then collision detection).
3. **write back**: every sprite whose component pose changed gets its new
   ``position`` and ``angle`` once, in bulk (:mod:`.sprite_sync`); a sprite that
   neither moved nor turned is not touched, and in a tick where nothing turned
   (or nothing moved) no angle (or position) is written. A sprite whose class
   overrides the pose properties is written through them; where its setter stores
   another pose than the world's (clamping it inside an arena, snapping it to a
   grid), the components and :meth:`CollisionWorld.poses` take what the sprite holds.
   That tick's contacts and events are still those of the pose the world moved it
   to, as when a game clamps a sprite after the step.
4. **dispatch**: collision events buffered during the tick reach the sprites
   (``on_collision_start(other, contact)`` / ``on_collision_end(other)``) and
   the pair handlers registered with :meth:`CollisionWorld.on_collision` (kinds)
   and :meth:`CollisionWorld.on_layers` (layer bits), in the
   ECS's deterministic order, after the write-back so handlers see the new poses.
   A sprite's two methods are looked up once, when it is added. A callback that
   raises does not stop the others; the first exception is re-raised at the end.

Angles need no conversion: ``Sprite.angle`` and the pose angle are both
clockwise degrees.
"""

from __future__ import annotations

import math
import numbers
import weakref
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, SupportsFloat

import arcade
import esper
import numpy as np
from arcade.types import RGBOrA255
from numpy.typing import NDArray

from arcade_collide.arcade.debug_draw import draw_world_debug
from arcade_collide.arcade.shapes_from_sprites import shape_for_sprite
from arcade_collide.arcade.sprite_sync import PoseMirror, read_sizes, size_marks
from arcade_collide.ecs import (
    ALL_LAYERS,
    CollisionEnded,
    CollisionStarted,
    CollisionSystem,
    MovementSystem,
    Position,
    Shape,
    Velocity,
)
from arcade_collide.ecs.storage import POSITIONS
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.pose import to_float
from arcade_collide.geometry.shapes import AnyShape

StartHandler = Callable[[arcade.Sprite, arcade.Sprite, Contact], Any]
"""``fn(sprite_a, sprite_b, contact)``; ``contact.normal`` points from a to b."""
EndHandler = Callable[[arcade.Sprite, arcade.Sprite], Any]
"""``fn(sprite_a, sprite_b)``."""

FloatArray = NDArray[np.float64]
_Sizes = tuple[NDArray[np.intp], FloatArray, NDArray[np.int64], Any]
"""Rows read for a size check, their sizes and textures, and the size marks."""


@dataclass
class _PairHandlers:
    start: list[StartHandler] = field(default_factory=list)
    end: list[EndHandler] = field(default_factory=list)


@dataclass(slots=True)
class _Body:
    """What the world remembers about one registered sprite.

    Slotted: event delivery reads a few fields of two bodies per event, straight from
    the object rather than through an instance dict.
    """

    sprite: arcade.Sprite
    entity: int
    position: Position
    kind: Hashable
    geometry: AnyShape
    auto_shape: bool
    hull: bool
    shape_options: dict[str, Any]
    on_start: Callable[[arcade.Sprite, Contact], Any] | None
    """The sprite's ``on_collision_start``, looked up once when it was added."""
    on_end: Callable[[arcade.Sprite], Any] | None
    layer: int
    """The layer bits of the sprite's Shape (for :meth:`CollisionWorld.on_layers`)."""
    hull_points: Any = None
    """For a derived ``hull=True`` shape, the hit-box points it was built from: Arcade
    gives a sprite a new hit box (``hit_box = ...``, ``sync_hit_box_to_texture()``)
    without a setter the pose mirror hears, so the world compares these each step."""


class CollisionWorld:
    """Collision detection and movement for Arcade sprites.

    The world owns its own esper world (``esper.switch_world`` is used around
    every call, and the previously current world is restored), so it can sit
    beside a game's own esper world.

    Example::

        from arcade_collide.arcade import CollisionWorld

        world = CollisionWorld()
        world.add_sprite(ship, kind="ship")
        world.add_sprite(rock, velocity=(40, 0), angular=30, kind="rock")
        world.on_collision("ship", "rock", start=lambda ship, rock, contact: ...)

        def on_fixed_update(self, delta_time):
            world.step(delta_time)

    Args:
        name: The esper world name. By default, or when no esper world of that name
            exists yet, the world is its own (and :meth:`close` deletes it). Naming an
            existing esper world joins it: a MovementSystem and a CollisionSystem are
            added to it, :meth:`step` runs ``esper.process`` there (so the game's own
            processors in that world run on each step too), and :meth:`close` takes
            the two systems out again. That world must not have its own MovementSystem
            or CollisionSystem.

    A world of its own is deleted by :meth:`close`, or after the CollisionWorld was
    garbage collected (a level dropped with its sprites), when the next CollisionWorld
    is created or stepped; a joined world keeps this world's systems and entities
    until :meth:`close`.

    Raises:
        ValueError: the esper world to join already has a MovementSystem or a
            CollisionSystem (it would move its entities twice).
    """

    def __init__(self, name: str | None = None) -> None:
        _delete_dropped_worlds()
        # A world named here but not created yet is this world's own, deleted by close().
        self._owns_world = name is None or name not in esper.list_worlds()
        self.name = name if name is not None else f"arcade_collide.world.{id(self):x}"
        if not self._owns_world:
            with self._in_world():
                taken = [kind.__name__ for kind in (MovementSystem, CollisionSystem)
                         if esper.get_processor(kind) is not None]
            if taken:
                raise ValueError(
                    f"esper world {self.name!r} already has a {' and a '.join(taken)}: "
                    "join it with one CollisionWorld and no systems of its own"
                )
        self._bodies: list[_Body] = []
        self._mirror = PoseMirror()
        """The sprites of ``_bodies``, row for row, with the poses last seen or written."""
        self._row_of: dict[arcade.Sprite, int] = {}
        self._body_of_entity: dict[int, _Body] = {}
        self._rows: NDArray[np.intp] = np.zeros(0, dtype=np.intp)
        self._size: FloatArray = np.zeros((0, 2))
        self._texture: NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        self._auto: NDArray[np.bool_] = np.zeros(0, dtype=np.bool_)
        self._hulls: dict[int, _Body] = {}
        """Bodies with a derived hull shape, by entity."""
        self._size_marks: tuple[list[Any], list[Any], list[Any]] | None = None
        """:func:`size_marks` of every row at the last size check (None: check in full)."""
        self._pair_handlers: dict[tuple[Hashable, Hashable], _PairHandlers] = {}
        self._layer_handlers: list[tuple[int, int, StartHandler | None, EndHandler | None]] = []
        self._active: dict[tuple[int, int], Contact] = {}
        self._pending: list[CollisionStarted | CollisionEnded] = []
        self._ended_by_removal: list[tuple[_Body, _Body]] = []
        self._dispatching = False
        self._error: Exception | None = None
        self.ticks = 0
        self._closed = False
        with self._in_world():
            self._movement = MovementSystem()
            self._collisions = CollisionSystem()
            esper.add_processor(self._movement, priority=2)
            esper.add_processor(self._collisions, priority=1)
        # Events are buffered during esper.process and handed to sprites after the
        # write-back, so handlers see this tick's poses.
        self._hook = _RemovalHook(self)
        self._subscription = self._collisions.subscribe(
            on_started=self._pending.append, on_ended=self._pending.append
        )
        # Holds the name only, not the world: a dropped level's esper world goes with it.
        # The garbage collector may run the finalizer inside any esper call, so it only
        # notes the name; the next CollisionWorld created or stepped deletes the world.
        self._forget: weakref.finalize[..., Any] | None = None
        if self._owns_world:
            self._forget = weakref.finalize(self, _DROPPED.append, self.name)
            self._forget.atexit = False

    # --- registration -------------------------------------------------------------------

    def add_sprite(
        self,
        sprite: arcade.Sprite,
        shape: AnyShape | None = None,
        *,
        velocity: tuple[float, float] | None = None,
        angular: float = 0.0,
        kind: Hashable = None,
        hull: bool = False,
        **shape_options: Any,
    ) -> int:
        """Register ``sprite``; it collides from the next :meth:`step` on.

        Args:
            sprite: An :class:`arcade.Sprite` (or subclass), not yet in this world.
            shape: An explicit local-frame shape. By default it is derived from the
                sprite (:func:`~.shapes_from_sprites.shape_for_sprite`) and rebuilt
                when the sprite's scale or texture changes; an explicit shape is kept.
            velocity: ``(vx, vy)`` in pixels per second. ``None`` (the default) and
                ``angular == 0`` leave the sprite static: only the game moves it.
            angular: Turn rate in degrees per second, clockwise like ``Sprite.angle``.
            kind: Any hashable label (``"bullet"``) used by :meth:`on_collision`.
            hull: Derive a convex polygon from the sprite's hit box instead of a
                rectangle or circle (rebuilt also when the sprite is given a new hit
                box, by ``hit_box = ...`` or ``sync_hit_box_to_texture()``).
            **shape_options: Passed to the ``Shape`` component (collision ``layer``,
                ``mask``, ``sensor``).

        Returns:
            The sprite's entity id in this world's esper world.

        Raises:
            TypeError: ``sprite`` is not an :class:`arcade.Sprite`, ``kind`` is not
                hashable, or a number is not a real number.
            ValueError: the sprite is already registered, ``velocity`` is not a
                pair, or a pose or velocity value is not finite.
            RuntimeError: the world was closed.
        """
        self._check_open()
        if not isinstance(sprite, arcade.Sprite):
            raise TypeError(f"sprite must be an arcade.Sprite, got {type(sprite).__name__}")
        if sprite in self._row_of:
            raise ValueError("sprite is already in this CollisionWorld")
        _require_hashable(kind, "kind")
        geometry = shape if shape is not None else shape_for_sprite(sprite, hull=hull)
        x, y = sprite.position
        components: list[Any] = [
            Position(float(x), float(y), angle=float(sprite.angle)),
            Shape(geometry, **shape_options),
        ]
        angular = _require_real(angular, "angular")
        if velocity is not None or angular != 0.0:
            vx, vy = _velocity_pair(velocity) if velocity is not None else (0.0, 0.0)
            components.append(Velocity(vx, vy, angular=angular))
        with self._in_world():
            entity = int(esper.create_entity(*components))
        body = _Body(
            sprite, entity, components[0], kind, geometry, shape is None, hull,
            dict(shape_options), _hook(sprite, "on_collision_start"),
            _hook(sprite, "on_collision_end"), components[1].layer,
        )
        self._row_of[sprite] = len(self._bodies)
        self._bodies.append(body)
        self._mirror.add(sprite)
        self._body_of_entity[entity] = body
        if hull and shape is None:
            body.hull_points = sprite.hit_box.points
            self._hulls[entity] = body
        self._rows = np.append(self._rows, np.intp(_table_row(body.position)))
        size, texture = read_sizes([sprite])
        self._size = np.concatenate([self._size, size])
        self._texture = np.concatenate([self._texture, texture])
        self._auto = np.append(self._auto, shape is None)
        self._size_marks = None
        if self._hook not in sprite.physics_engines:
            sprite.register_physics_engine(self._hook)
        return entity

    def remove_sprite(self, sprite: arcade.Sprite) -> None:
        """Take ``sprite`` out of the world, ending its contacts.

        Called automatically by ``sprite.remove_from_sprite_lists()`` (the world
        registers a hook with ``sprite.register_physics_engine``, which this takes
        out again). Both sprites
        of every pair it was touching get their end events at once (after the
        current event, when called from a collision handler). Removing a sprite
        that is not in the world does nothing.

        Args:
            sprite: The sprite to remove.
        """
        row = self._row_of.pop(sprite, None)
        if row is None:
            return
        body = self._bodies[row]
        last = len(self._bodies) - 1
        if row != last:
            # Swap-remove keeps every per-row array dense without shifting.
            moved = self._bodies[last]
            self._bodies[row] = moved
            self._row_of[moved.sprite] = row
            for array in (self._size, self._texture, self._rows, self._auto):
                array[row] = array[last]
        self._bodies.pop()
        self._mirror.remove(row)
        self._rows = self._rows[:last]
        self._size = self._size[:last]
        self._texture = self._texture[:last]
        self._auto = self._auto[:last]
        self._size_marks = None
        del self._body_of_entity[body.entity]
        self._hulls.pop(body.entity, None)
        # A new list, not an edit: Arcade may be iterating the old one right now.
        sprite.physics_engines = [e for e in sprite.physics_engines if e is not self._hook]
        with self._in_world():
            esper.delete_entity(body.entity)
        for pair in [p for p in self._active if body.entity in p]:
            del self._active[pair]
            a, b = self._body_of_entity.get(pair[0], body), self._body_of_entity.get(pair[1], body)
            self._ended_by_removal.append((a, b))
        if not self._dispatching:
            self._deliver_removal_ends()
            self._raise_first_error()

    def __contains__(self, sprite: object) -> bool:
        return sprite in self._row_of

    def __len__(self) -> int:
        return len(self._bodies)

    def entity(self, sprite: arcade.Sprite) -> int:
        """The esper entity id of a registered sprite.

        Raises:
            KeyError: the sprite is not in this world.
        """
        row = self._row_of.get(sprite)
        if row is None:
            raise KeyError("sprite is not in this CollisionWorld")
        return self._bodies[row].entity

    def sprites(self) -> list[arcade.Sprite]:
        """The registered sprites, in row order (the order of :meth:`poses`)."""
        return list(self._mirror.sprites)

    def poses(self) -> tuple[FloatArray, FloatArray]:
        """Copies of the poses written at the last step: ``(N, 2)`` xy and ``(N,)`` angles.

        Rows follow :meth:`sprites`, so a game can find sprites to act on with
        numpy (off-screen, say) instead of a Python loop over every sprite.
        """
        return self._mirror.xy.copy(), self._mirror.angle.copy()

    # --- velocities ---------------------------------------------------------------------

    def set_velocity(
        self, sprite: arcade.Sprite, vx: float, vy: float, angular: float | None = None
    ) -> None:
        """Set a sprite's velocity (pixels per second) and optionally its turn rate.

        Args:
            sprite: A registered sprite.
            vx: Horizontal speed, pixels per second.
            vy: Vertical speed, pixels per second.
            angular: Clockwise degrees per second; ``None`` keeps the current rate.

        Raises:
            KeyError: the sprite is not in this world.
            TypeError: a value is not a real number.
            ValueError: a value is not finite (the velocity is then unchanged).
        """
        entity = self.entity(sprite)
        _require_real(vx, "vx")
        _require_real(vy, "vy")
        if angular is not None:
            _require_real(angular, "angular")
        with self._in_world():
            current = esper.try_component(entity, Velocity)
            turn = angular if angular is not None else (current.angular if current else 0.0)
            # A new component validates all three numbers before anything is changed.
            new = Velocity(vx, vy, angular=turn)
            if current is None:
                esper.add_component(entity, new)
                return
            current.x, current.y, current.angular = new.x, new.y, new.angular

    def velocity(self, sprite: arcade.Sprite) -> tuple[float, float, float]:
        """``(vx, vy, angular)`` of a registered sprite (zeros for a static one).

        Raises:
            KeyError: the sprite is not in this world.
        """
        entity = self.entity(sprite)
        with self._in_world():
            current = esper.try_component(entity, Velocity)
        if current is None:
            return (0.0, 0.0, 0.0)
        return (float(current.x), float(current.y), float(current.angular))

    # --- events -------------------------------------------------------------------------

    def on_collision(
        self,
        kind_a: Hashable,
        kind_b: Hashable,
        start: StartHandler | None = None,
        end: EndHandler | None = None,
    ) -> None:
        """Call ``start``/``end`` when a sprite of ``kind_a`` meets one of ``kind_b``.

        Handlers are held strongly (lambdas are fine) and always get the
        ``kind_a`` sprite first, with ``contact.normal`` pointing from it to the
        ``kind_b`` sprite, whatever the entity order.

        Args:
            kind_a: The first kind (as given to :meth:`add_sprite`).
            kind_b: The second kind; may equal ``kind_a``.
            start: ``fn(sprite_a, sprite_b, contact)`` when the pair starts touching.
            end: ``fn(sprite_a, sprite_b)`` when it stops touching or one leaves.

        Raises:
            TypeError: a kind is not hashable, or ``start`` or ``end`` is given but
                not callable.
        """
        _require_hashable(kind_a, "kind_a")
        _require_hashable(kind_b, "kind_b")
        for name, handler in (("start", start), ("end", end)):
            if handler is not None and not callable(handler):
                raise TypeError(f"{name} must be callable, got {type(handler).__name__}")
        handlers = self._pair_handlers.setdefault((kind_a, kind_b), _PairHandlers())
        if start is not None:
            handlers.start.append(start)
        if end is not None:
            handlers.end.append(end)

    def on_layers(
        self,
        layer_a: int,
        layer_b: int,
        start: StartHandler | None = None,
        end: EndHandler | None = None,
    ) -> None:
        """Call ``start``/``end`` when a sprite on ``layer_a`` meets one on ``layer_b``.

        Like :meth:`on_collision`, keyed by the ``layer`` bits given to
        :meth:`add_sprite` (default ``1``) instead of kinds: a pair matches when one
        sprite's layer shares a bit with ``layer_a`` and the other's with ``layer_b``;
        that first sprite is passed first, with the normal pointing away from it.

        Args:
            layer_a: Layer bits of the first sprite.
            layer_b: Layer bits of the second sprite.
            start: ``fn(sprite_a, sprite_b, contact)`` when the pair starts touching.
            end: ``fn(sprite_a, sprite_b)`` when it stops touching or one leaves.

        Raises:
            TypeError: a layer is not an int, or a handler is not callable.
            ValueError: a layer is not a 32-bit mask with a bit set.
        """
        layers: list[int] = []
        for name, layer in (("layer_a", layer_a), ("layer_b", layer_b)):
            if isinstance(layer, bool) or not isinstance(layer, numbers.Integral):
                raise TypeError(f"{name} must be an int, got {type(layer).__name__}")
            if not 0 < layer <= ALL_LAYERS:
                raise ValueError(
                    f"{name} must be a 32-bit mask in [1, 0xFFFFFFFF], got {int(layer)!r}"
                )
            layers.append(int(layer))
        for name, handler in (("start", start), ("end", end)):
            if handler is not None and not callable(handler):
                raise TypeError(f"{name} must be callable, got {type(handler).__name__}")
        self._layer_handlers.append((layers[0], layers[1], start, end))

    def contacts(self) -> list[tuple[arcade.Sprite, arcade.Sprite, Contact]]:
        """Pairs touching after the last step, with the contact reported when they met.

        ``contact.normal`` points from the first sprite to the second.
        """
        out = []
        for (a, b), contact in self._active.items():
            out.append((self._body_of_entity[a].sprite, self._body_of_entity[b].sprite, contact))
        return out

    def touching(self, sprite: arcade.Sprite) -> list[arcade.Sprite]:
        """The sprites touching ``sprite`` after the last step."""
        entity = self.entity(sprite)
        out = []
        for a, b in self._active:
            if a == entity:
                out.append(self._body_of_entity[b].sprite)
            elif b == entity:
                out.append(self._body_of_entity[a].sprite)
        return out

    # --- the tick -----------------------------------------------------------------------

    def step(self, delta_time: float) -> None:
        """Advance the world by ``delta_time`` seconds (call from ``on_fixed_update``).

        Args:
            delta_time: Seconds; ``>= 0``.

        Raises:
            ValueError: ``delta_time`` is negative or not finite.
            RuntimeError: the world was closed.
        """
        self._check_open()
        _require_real(delta_time, "delta_time")
        if not math.isfinite(delta_time) or delta_time < 0.0:
            raise ValueError(f"delta_time must be finite and >= 0, got {delta_time!r}")
        if _DROPPED:
            _delete_dropped_worlds()
        mirror = self._mirror
        moves = mirror.hand_moves()
        self._refresh_shapes(mirror.sprites, moves.read)
        if moves.rows.size:
            finite = np.isfinite(moves.xy).all(axis=1) & np.isfinite(moves.angle)
            if not finite.all():
                bad = self._bodies[int(moves.rows[np.argmin(finite)])].entity
                raise ValueError(f"a sprite (entity {bad}) was moved to a non-finite pose")
            self._store_poses(moves.rows, moves.xy, moves.angle)
        mirror.accept(moves)
        with self._in_world():
            esper.process(delta_time)
        # Read the table afresh: it may have been reallocated while entities were created.
        poses = POSITIONS.data[self._rows]
        kept = mirror.write(poses[:, 0:2], poses[:, 2])
        if kept.size:
            # Setters of the sprite's class made another pose of the world's (clamping,
            # say): the components take what the sprites hold, as poses() does.
            self._store_poses(kept, mirror.xy[kept], mirror.angle[kept])
        self.ticks += 1
        self._dispatch()

    def _store_poses(self, rows: NDArray[np.intp], xy: FloatArray, angle: FloatArray) -> None:
        """Put the poses of the sprites ``rows`` into their Position components.

        The components are handles on rows of one shared table, so this is one scatter
        instead of a setter call per sprite.
        """
        table = POSITIONS.data
        table[self._rows[rows], 0:2] = xy
        table[self._rows[rows], 2] = angle
        POSITIONS.touch()

    def _refresh_shapes(
        self, sprites: list[arcade.Sprite], touched: NDArray[np.intp] | None
    ) -> None:
        """Rebuild derived shapes of sprites whose size, texture or hull hit box changed.

        Only sprites with a derived shape are read: an explicit shape is kept as given,
        so a game of explicit shapes pays nothing here. Arcade's size and texture
        setters report to the pose mirror's log like the pose setters do, so only the
        ``touched`` rows are read; when every pose was read (``touched`` is None),
        sizes are read as numbers only if some sprite's width, height or texture
        object was replaced since the last such check (:func:`~.sprite_sync.size_marks`).
        A new hit box reports nothing, so the sprites with a derived hull are also
        checked for one, each step (an identity test of the hit box's points).
        """
        rows, sizes = self._resized_rows(sprites, touched)
        if self._hulls:
            row_of = self._row_of
            rows.update(
                row_of[body.sprite]
                for body in self._hulls.values()
                if body.sprite.hit_box.points is not body.hull_points
            )
        # Every new shape first (a sprite of zero size raises): a failed step stores
        # none of them, so the next step sees the same changes again.
        bodies = [self._bodies[row] for row in sorted(rows)]
        geometries = []
        for body in bodies:
            try:
                geometries.append(shape_for_sprite(body.sprite, hull=body.hull))
            except ValueError as error:
                raise ValueError(f"a sprite (entity {body.entity}): {error}") from None
        if sizes is not None:
            auto, size, texture, self._size_marks = sizes
            self._size[auto] = size
            self._texture[auto] = texture
        if not bodies:
            return
        with self._in_world():
            for body, geometry in zip(bodies, geometries, strict=True):
                body.geometry = geometry
                if body.entity in self._hulls:
                    body.hull_points = body.sprite.hit_box.points
                esper.add_component(body.entity, Shape(geometry, **body.shape_options))

    def _resized_rows(
        self, sprites: list[arcade.Sprite], touched: NDArray[np.intp] | None
    ) -> tuple[set[int], _Sizes | None]:
        """Rows of derived shapes whose sprite's size or texture changed (see
        :meth:`_refresh_shapes`), and what to record once their shapes are built: the
        rows read, their sizes and textures, and the new size marks."""
        auto = np.flatnonzero(self._auto)
        if auto.size == 0:
            return set(), None
        if touched is not None:
            auto = touched[self._auto[touched]]
            if auto.size == 0:
                return set(), None
            marks = None
        else:
            marks = size_marks(sprites)
            if marks == self._size_marks:
                return set(), None
        everyone = auto.size == len(sprites)
        size, texture = read_sizes(sprites if everyone else [sprites[i] for i in auto.tolist()])
        changed = (size != self._size[auto]).any(axis=1) | (texture != self._texture[auto])
        return set(auto[changed].tolist()), (auto, size, texture, marks)

    def _dispatch(self) -> None:
        """Deliver the events buffered during the tick, then any removal ends.

        As in the ECS, a handler that raises an ``Exception`` does not stop delivery:
        every other callback of the tick still runs (so each start keeps its matching
        end), then the first exception is re-raised.

        The sprites' own callbacks are called inline (a few hundred events a tick in a
        busy scene); pair and layer handlers, when any are registered, go through
        :meth:`_pair_start` and :meth:`_pair_end`.
        """
        events = self._pending[:]
        self._pending.clear()
        active = self._active
        body_of = self._body_of_entity
        removal_ends = self._ended_by_removal
        self._dispatching = True
        try:
            for event in events:
                if type(event) is CollisionStarted:
                    a, b, contact, _ = event
                    pair = (a, b)
                    body_a = body_of.get(a)
                    body_b = body_of.get(b)
                    # A sprite removed earlier in this dispatch (a bullet that already
                    # hit something) gets no further events.
                    if body_a is None or body_b is None or pair in active:
                        continue
                    active[pair] = contact
                    # Handlers that remove either sprite queue the pair's end events,
                    # which are delivered after this start has reached both sprites and
                    # the pair handlers.
                    callback = body_a.on_start
                    if callback is not None:
                        try:
                            callback(body_b.sprite, contact)
                        except Exception as error:  # re-raised by _raise_first_error
                            self._keep(error)
                    callback = body_b.on_start
                    if callback is not None:
                        flipped = contact.flipped()
                        try:
                            callback(body_a.sprite, flipped)
                        except Exception as error:  # re-raised by _raise_first_error
                            self._keep(error)
                    if self._pair_handlers or self._layer_handlers:
                        self._pair_start(body_a, body_b, contact)
                else:
                    if active.pop((event.a, event.b), None) is None:
                        continue
                    self._end_pair(body_of[event.a], body_of[event.b])
                # Nothing can have queued removal ends when the loop continued above:
                # no callback ran.
                if removal_ends:
                    self._deliver_removal_ends()
        finally:
            self._dispatching = False
        self._deliver_removal_ends()
        self._raise_first_error()

    def _keep(self, error: Exception) -> None:
        """Keep the first exception of a delivery, for :meth:`_raise_first_error`."""
        if self._error is None:
            self._error = error

    def _run(self, callback: Callable[..., Any], *args: Any) -> None:
        """Call a user callback; keep the first exception for after the delivery."""
        try:
            callback(*args)
        except Exception as error:  # re-raised by _raise_first_error
            self._keep(error)

    def _raise_first_error(self) -> None:
        error, self._error = self._error, None
        if error is not None:
            raise error

    def _deliver_removal_ends(self) -> None:
        while self._ended_by_removal:
            body_a, body_b = self._ended_by_removal.pop(0)
            self._end_pair(body_a, body_b)

    def _end_pair(self, body_a: _Body, body_b: _Body) -> None:
        callback = body_a.on_end
        if callback is not None:
            try:
                callback(body_b.sprite)
            except Exception as error:  # re-raised by _raise_first_error
                self._keep(error)
        callback = body_b.on_end
        if callback is not None:
            try:
                callback(body_a.sprite)
            except Exception as error:  # re-raised by _raise_first_error
                self._keep(error)
        if self._layer_handlers or self._pair_handlers:
            self._pair_end(body_a, body_b)

    def _pair_end(self, body_a: _Body, body_b: _Body) -> None:
        for layer_a, layer_b, _, end in list(self._layer_handlers):
            if end is None:
                continue
            if body_a.layer & layer_a and body_b.layer & layer_b:
                self._run(end, body_a.sprite, body_b.sprite)
            elif body_b.layer & layer_a and body_a.layer & layer_b:
                self._run(end, body_b.sprite, body_a.sprite)
        if not self._pair_handlers:
            return
        forward = self._pair_handlers.get((body_a.kind, body_b.kind))
        if forward is not None:
            for end in list(forward.end):
                self._run(end, body_a.sprite, body_b.sprite)
        if body_a.kind != body_b.kind:
            backward = self._pair_handlers.get((body_b.kind, body_a.kind))
            if backward is not None:
                for end in list(backward.end):
                    self._run(end, body_b.sprite, body_a.sprite)

    def _pair_start(self, body_a: _Body, body_b: _Body, contact: Contact) -> None:
        forward = self._pair_handlers.get((body_a.kind, body_b.kind))
        if forward is not None:
            for start in list(forward.start):
                self._run(start, body_a.sprite, body_b.sprite, contact)
        if body_a.kind != body_b.kind:
            backward = self._pair_handlers.get((body_b.kind, body_a.kind))
            if backward is not None:
                flipped = contact.flipped()
                for start in list(backward.start):
                    self._run(start, body_b.sprite, body_a.sprite, flipped)
        for layer_a, layer_b, start_fn, _ in list(self._layer_handlers):
            if start_fn is None:
                continue
            if body_a.layer & layer_a and body_b.layer & layer_b:
                self._run(start_fn, body_a.sprite, body_b.sprite, contact)
            elif body_b.layer & layer_a and body_a.layer & layer_b:
                self._run(start_fn, body_b.sprite, body_a.sprite, contact.flipped())

    def shapes(self) -> list[AnyShape]:
        """The local-frame collision shapes, in the order of :meth:`sprites`."""
        return [body.geometry for body in self._bodies]

    def draw_debug(
        self,
        *,
        outline: RGBOrA255 = (0, 255, 0, 255),
        bounds: RGBOrA255 | None = (255, 255, 0, 120),
        normals: RGBOrA255 = (255, 0, 255, 255),
        normal_length: float = 16.0,
    ) -> None:
        """Draw shape outlines, their axis-aligned bounds and contact normals.

        Call inside ``on_draw`` after drawing the sprites. Everything is drawn in
        three batched line calls, so it stays usable with thousands of sprites.

        Args:
            outline: Colour of the shape outlines.
            bounds: Colour of the axis-aligned bounding boxes; ``None`` skips them.
            normals: Colour of the contact normals (drawn from the contact point).
            normal_length: Length of a drawn normal, pixels.
        """
        xy, angle = self.poses()
        draw_world_debug(
            self.shapes(), xy, angle, [c for _, _, c in self.contacts()],
            outline=outline, bounds=bounds, normals=normals, normal_length=normal_length,
        )

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"CollisionWorld {self.name!r} was closed")

    @contextmanager
    def _in_world(self) -> Iterator[None]:
        previous = esper.current_world
        esper.switch_world(self.name)
        try:
            yield
        finally:
            esper.switch_world(previous)

    def close(self) -> None:
        """Remove every sprite (ending contacts) and unsubscribe.

        A world of its own is then deleted; a joined esper world (``name`` given) is
        kept, with this world's two processors taken out of it. An end callback that
        raises does not stop the closing: the first exception is re-raised after it.
        A closed world refuses new sprites and steps; closing it again does nothing.
        """
        if self._closed:
            return
        self._closed = True
        errors: list[Exception] = []
        for body in list(self._bodies):
            try:
                self.remove_sprite(body.sprite)
            except Exception as error:  # an end callback raised: finish closing first
                errors.append(error)
        self._subscription.unsubscribe()
        if not self._owns_world:
            with self._in_world():
                esper.remove_processor(MovementSystem)
                esper.remove_processor(CollisionSystem)
        else:
            if self._forget is not None:
                self._forget.detach()
            _delete_own_world(self.name)
        if errors:
            note = getattr(errors[0], "add_note", None)  # Python 3.11+
            for later in errors[1:]:
                if note is not None:
                    note(f"another end callback also raised: {later!r}")
            raise errors[0]


class _RemovalHook:
    """What a CollisionWorld registers with ``sprite.register_physics_engine``.

    Arcade's ``remove_from_sprite_lists()`` calls ``remove_sprite`` on each registered
    engine. The hook holds its world weakly, so a sprite that outlives a level does not
    keep the level's world alive.
    """

    __slots__ = ("_world",)

    def __init__(self, world: CollisionWorld) -> None:
        self._world = weakref.ref(world)

    def remove_sprite(self, sprite: arcade.Sprite) -> None:
        world = self._world()
        if world is None:
            return
        engines = sprite.physics_engines  # the list Arcade's loop walks
        try:
            world.remove_sprite(sprite)
        except Exception as error:
            # Arcade's loop stops at the exception: the engines after this one (another
            # CollisionWorld, say) take the sprite out first, as the loop would have.
            at = next((k for k, engine in enumerate(engines) if engine is self), len(engines))
            for engine in engines[at + 1 :]:
                try:
                    engine.remove_sprite(sprite)
                except Exception as later:
                    note = getattr(error, "add_note", None)  # Python 3.11+
                    if note is not None:
                        note(f"another physics engine also raised: {later!r}")
            sprite.physics_engines.clear()
            raise


_DROPPED: list[str] = []
"""Own esper worlds of CollisionWorlds garbage collected without :meth:`~CollisionWorld.close`."""


def _delete_dropped_worlds() -> None:
    while _DROPPED:
        name = _DROPPED.pop()
        if name in esper.list_worlds() and esper.current_world != name:
            esper.delete_world(name)


def _delete_own_world(name: str) -> None:
    """Delete a CollisionWorld's own esper world, if it still exists."""
    if name not in esper.list_worlds():
        return
    if esper.current_world == name:
        esper.switch_world("default")
    esper.delete_world(name)


def _require_real(value: object, name: str) -> float:
    """``value`` as a float; ``TypeError`` naming ``name`` unless it is a real number.

    Finiteness is left to the components, whose messages name the field.
    """
    if isinstance(value, (bool, str, bytes)) or not isinstance(value, SupportsFloat):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    return to_float(value, name)


def _require_hashable(value: object, name: str) -> None:
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"{name} must be hashable, got {type(value).__name__}") from None


def _velocity_pair(velocity: object) -> tuple[float, float]:
    """``velocity`` as ``(vx, vy)``, checked for length and number types."""
    if isinstance(velocity, (str, bytes)) or not isinstance(velocity, Iterable):
        raise TypeError(f"velocity must be (vx, vy), got {type(velocity).__name__}")
    values = tuple(velocity)
    if len(values) != 2:
        raise ValueError(f"velocity must be (vx, vy), got {len(values)} values")
    return _require_real(values[0], "vx"), _require_real(values[1], "vy")


def _hook(sprite: arcade.Sprite, name: str) -> Any:
    """The sprite's bound ``name`` method, or None when it has none (or it is not callable)."""
    method = getattr(sprite, name, None)
    return method if callable(method) else None


def _table_row(position: Position) -> int:
    """The row of ``position`` in the shared Position table (see ``arcade_collide.ecs.storage``).

    The world keeps the Position objects it created alive in its bodies, so the rows
    stay theirs for as long as the sprites are registered.
    """
    return int(position._row)

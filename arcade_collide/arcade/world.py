"""``CollisionWorld``: Arcade sprites as entities of an esper collision world.

One tick of :meth:`CollisionWorld.step`:

1. **read**: the sprites the game moved (:class:`~.pose_mirror.PoseMirror` logs them)
   go into the ``Position`` components; derived shapes follow size and texture
   changes (:mod:`.derived_shapes`).
2. **move**: ``esper.process`` runs the MovementSystem (and the game's own processors
   when the world joined the game's esper world).
3. **write back**: each sprite whose pose changed gets it once, in bulk. Where a
   sprite's own setter stores another pose (clamping, snapping), the components take
   what the sprite holds once the tick is over; that tick's contacts are those of the
   pose the world moved it to.
4. **detect and deliver**: the CollisionSystem's events go to the sprites
   (``on_collision_start(other, contact)`` / ``on_collision_end(other)``) and to the
   handlers, after the write-back (:mod:`.handlers` states the rules).

Angles need no conversion: ``Sprite.angle`` and the pose angle are both clockwise.
"""

from __future__ import annotations

import weakref
from collections.abc import Hashable
from contextlib import AbstractContextManager
from typing import Any

import arcade
import esper
import numpy as np
from arcade.types import RGBOrA255
from numpy.typing import NDArray

from arcade_collide.arcade.bodies import Bodies
from arcade_collide.arcade.debug_draw import draw_world_debug
from arcade_collide.arcade.handlers import (
    Body,
    EndHandler,
    Router,
    StartHandler,
    sprite_method,
)
from arcade_collide.arcade.kind_circles import KindCircles
from arcade_collide.arcade.lifetime import (
    RemovalHook,
    WriteBack,
    delete_dropped_worlds,
    delete_own_world,
    forget_when_dropped,
    in_world,
    weakly,
)
from arcade_collide.arcade.platformers import SpritePlatformers
from arcade_collide.arcade.queries import ANY_KIND, WorldQueries
from arcade_collide.arcade.sprite_lists import Memberships
from arcade_collide.arcade.sprite_rays import SpriteRays
from arcade_collide.arcade.stepping import Stepping
from arcade_collide.arcade.tile_layers import TileLayers
from arcade_collide.arcade.validation import (
    STATIC_MOVES,
    require_callable,
    require_hashable,
    require_layer,
    require_real,
    sprite_options,
)
from arcade_collide.ecs import CollisionSystem, MovementSystem, Position, Shape, Static, Velocity
from arcade_collide.ecs.delivery import Delivery
from arcade_collide.ecs.platformer import PlatformerSystem
from arcade_collide.ecs.response import ResponseSystem
from arcade_collide.ecs.world_state import world_state
from arcade_collide.geometry.shapes import AnyShape

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.intp]

DEAD_KEPT = 256
"""Entities of removed sprites a world that owns its esper world lets wait between
steps before it has esper clear them away: esper drops a deleted entity (and so its
Position row) at the next ``esper.process``, which a game that only asks questions
never runs."""


class CollisionWorld(WorldQueries, SpriteRays, Stepping, TileLayers, SpritePlatformers):
    """Collision detection and movement for Arcade sprites.

    The world queries (:meth:`point_query`, :meth:`sprites_at`, :meth:`overlapping`,
    :meth:`explain` and the others) come from :class:`~.queries.WorldQueries`; the
    colliders of Tiled levels (:meth:`add_tile_layer`) from :class:`~.tile_layers.TileLayers`.

    Every call runs in the world's own esper world, the current one restored after it.
    See the package docstring (:mod:`arcade_collide.arcade`) for an example.

    Args:
        name: The esper world name. By default, or when no esper world of that name
            exists yet, the world is its own (and :meth:`close` deletes it). Naming an
            existing esper world joins it: a MovementSystem and a CollisionSystem are
            added to it, :meth:`step` runs ``esper.process`` there (so the game's own
            processors in that world run on each step too), and :meth:`close` takes
            the world's processors out again. That world must not have its own
            MovementSystem or CollisionSystem. The write-back and the callbacks then
            run inside ``esper.process`` after the MovementSystem (priority 2): the
            game's processors of priority 1 added before the join run first, those of
            priority 0 or lower after the callbacks (not at all in a step whose
            callback raised). How long the esper world lives: :mod:`.lifetime`.

    Raises:
        ValueError: the esper world to join already has a MovementSystem or a
            CollisionSystem (it would move its entities twice).

    >>> world = CollisionWorld()
    >>> ship = arcade.SpriteSolidColor(20, 20, center_x=0, center_y=0)
    >>> rock = arcade.SpriteSolidColor(20, 20, center_x=40, center_y=0)
    >>> world.add_sprite(ship, kind="ship")
    1
    >>> world.add_sprite(rock, velocity=(-1200, 0), kind="rock")  # 20 px per 1/60 s
    2
    >>> hits = []
    >>> world.on_collision("ship", "rock", start=lambda s, r, contact: hits.append(contact.normal))
    >>> world.step(1 / 60)  # the rock's left edge reaches the ship's right edge
    >>> rock.center_x, hits, world.touching(ship) == [rock]
    (20.0, [(1.0, 0.0)], True)
    >>> world.close()
    """

    def __init__(self, name: str | None = None) -> None:
        delete_dropped_worlds()
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
        self._bodies = Bodies()
        self._router = Router(self._bodies.by_entity)
        self._stepping = False
        self._dead = 0
        """Entities deleted since the last step or clearing (see :data:`DEAD_KEPT`)."""
        self._sweeping = False
        self._kept: tuple[list[Position], IntArray, FloatArray, FloatArray] | None = None
        """Poses the sprites' own setters made of the write-back, stored after the tick:
        the Positions (held so that their table rows stay theirs), rows, xy, angles."""
        self.ticks = 0
        self._closed = False
        self._response: ResponseSystem | None = None
        """The kinematic response, made with the first solid or body sprite."""
        self._platformers: PlatformerSystem | None = None
        """The platformer controller, made with the first platformer sprite."""
        with self._in_world():
            self._circles = KindCircles(self._bodies, world_state(), ANY_KIND)
            self._movement = MovementSystem()
            self._collisions = CollisionSystem(on_stop=weakly(self._stopped))
            esper.add_processor(self._movement, priority=2)
            # Same priority as the collision system, added first: runs right before it.
            esper.add_processor(WriteBack(weakref.WeakMethod(self._write_back)), priority=1)
            esper.add_processor(self._collisions, priority=1)
        self._hook = RemovalHook(self)
        self._memberships = Memberships(self._hook, self._bodies.pinned)
        self._subscription = self._router.subscribe_weakly(self._collisions)
        self._forget = forget_when_dropped(self, self.name) if self._owns_world else None

    # --- registration -------------------------------------------------------------------

    def add_sprite(
        self,
        sprite: arcade.Sprite,
        shape: AnyShape | None = None,
        *,
        velocity: tuple[float, float] | None = None,
        angular: float = 0.0,
        kind: Hashable = None,
        hull: bool = True,
        static: bool = False,
        **shape_options: Any,
    ) -> int:
        """Register ``sprite``; it collides from the next :meth:`step` on.

        The sprite leaves the world by :meth:`remove_sprite`, ``kill()``,
        ``remove_from_sprite_lists()``, or once it has left every sprite list it was in
        (``SpriteList.remove``, ``pop``, ``clear``): :mod:`.sprite_lists` states the rules.

        Args:
            sprite: An :class:`arcade.Sprite` (or subclass), not yet in this world.
            shape: An explicit local-frame shape. By default it is derived from the
                sprite (:func:`~.shapes_from_sprites.shape_for_sprite`, as ``hull``
                says) and rebuilt when the sprite's size, scale or hit box changes;
                an explicit shape is kept.
            velocity: ``(vx, vy)`` in pixels per second. ``None`` (the default) and
                ``angular == 0`` leave the sprite still: only the game moves it.
            angular: Turn rate in degrees per second, clockwise like ``Sprite.angle``.
            kind: Any hashable label (``"bullet"``) used by :meth:`on_collision`.
            hull: The derived shape is the convex hull of the sprite's hit box at
                its scale, the outline Arcade's own collision checks use (True, the
                default; a ``Rect`` when the hull is an axis-aligned rectangle
                centred on the sprite), or the texture's rectangle, a circle for a
                ``SpriteCircle`` (False). A hull follows a new hit box
                (``hit_box = ...``, ``sync_hit_box_to_texture()``).
            static: Part of the level (a wall, a tile): two static sprites are never
                tested against each other nor reported (:class:`~arcade_collide.Static`).
                The game may still move it by hand; it then collides correctly, at
                a cost. A static sprite has no velocity.
            **shape_options: Passed to the ``Shape`` component (collision ``layer``,
                ``mask``, ``sensor``, ``swept``, ``stop_at_impact``). A ``swept``
                sprite meets what it passed over during a tick, not only what it ends
                on (:mod:`arcade_collide.ecs.swept`): fast bullets do not jump over
                thin walls. With ``stop_at_impact`` it also stops where it first
                touched a shape that is not a sensor, and is there when the
                tick's callbacks run. ``solid=True`` (or a
                :class:`~arcade_collide.Solid`, e.g. ``Solid(one_way=True)``) makes
                it block bodies; ``body=Body(...)`` (or ``True``) makes it a body that
                the step pushes out of solids and other bodies, sliding along them
                (:mod:`arcade_collide.ecs.response`): its resolved pose is written
                back to the sprite before the callbacks run, and its resolved velocity
                (px/s) is what :meth:`velocity` reads. ``platformer=True`` (or a
                :class:`~arcade_collide.Platformer`) makes it a body steered by its
                input (:meth:`platformer`); ``ladder=True`` a ladder platformers climb.

        Returns:
            The sprite's entity id in this world's esper world.

        Raises:
            TypeError: ``sprite`` is not an :class:`arcade.Sprite`, ``kind`` is not
                hashable, or a number is not a real number.
            ValueError: the sprite is already registered, ``velocity`` is not a
                pair, a pose or velocity value is not finite, ``layer`` has no bit
                set, a static sprite is given a velocity or made a body, or a sprite
                is made both solid and a body.
            RuntimeError: the world was closed.
        """
        self._check_open()
        if not isinstance(sprite, arcade.Sprite):
            raise TypeError(f"sprite must be an arcade.Sprite, got {type(sprite).__name__}")
        if sprite in self._bodies.row_of:
            raise ValueError("sprite is already in this CollisionWorld")
        options = sprite_options(
            shape, velocity=velocity, angular=angular, kind=kind, hull=hull, static=static,
            **shape_options,
        )
        entity = self._add(sprite, options, pinned=True)
        self._memberships.listen(sprite)
        return entity

    def add_sprite_list(
        self, sprite_list: arcade.SpriteList[Any], shape: AnyShape | None = None, **options: Any
    ) -> None:
        """Register every sprite of ``sprite_list`` now and every sprite it gets later.

        Each sprite gets the options given here, as :meth:`add_sprite` gives them (an
        explicit ``shape`` is shared by all). A sprite leaves the world when it leaves
        the list by any means (``remove``, ``pop``, ``clear``, ``kill()``,
        ``remove_from_sprite_lists()``, item assignment) unless another registered
        list holds it; a sprite already in the world keeps its entity and options
        (:mod:`.sprite_lists` states the rules).

        Args:
            sprite_list: An :class:`arcade.SpriteList`, not yet registered here.
            shape: As for :meth:`add_sprite`.
            **options: The keyword options of :meth:`add_sprite` (``velocity``,
                ``angular``, ``kind``, ``hull``, ``static``, ``solid``, ``body``,
                ``layer``, ``mask``, ``sensor``): ``static=True, solid=True`` for walls.

        Raises:
            TypeError: ``sprite_list`` is not an :class:`arcade.SpriteList`, or an
                option is refused as :meth:`add_sprite` refuses it.
            ValueError: the list is already registered, an option is refused as
                :meth:`add_sprite` refuses it, or a sprite cannot be added (none is
                then added; the error names the sprite's index). Appending such a
                sprite later raises from ``append`` and leaves the list as it was.
            RuntimeError: the world was closed.
        """
        self._check_open()
        if not isinstance(sprite_list, arcade.SpriteList):
            raise TypeError(
                f"sprite_list must be an arcade.SpriteList, got {type(sprite_list).__name__}"
            )
        self._memberships.register(self, sprite_list, sprite_options(shape, **options))

    def _add(self, sprite: arcade.Sprite, options: dict[str, Any], pinned: bool) -> int:
        """Register ``sprite`` with checked ``options`` (see :func:`sprite_options`)."""
        made = self._prepare(sprite, options, pinned)
        self._admit([made])
        return made[0].entity

    def _prepare(
        self, sprite: arcade.Sprite, options: dict[str, Any], pinned: bool
    ) -> tuple[Body, int, bool]:
        """``sprite``'s entity, and its body, Position row, derived-shape flag (:meth:`_admit`)."""
        shape, hull = options["shape"], options["hull"]
        geometry = shape if shape is not None else self._bodies.derived.shape_for(sprite, hull)
        x, y = sprite.position
        shape_options = options["shape_options"]
        self._sweeping = self._sweeping or bool(shape_options.get("swept"))
        with self._in_world():
            position = Position(float(x), float(y), angle=float(sprite.angle))
            component = Shape(geometry, **shape_options)
            component._watch_edits(self._bodies.shape_edits)
            components: list[Any] = [position, component]
            if options["velocity"] is not None:
                vx, vy, angular = options["velocity"]
                components.append(Velocity(vx, vy, angular=angular))
            if options["static"]:
                components.append(Static())
            blocking = [c for c in (options["solid"], options["body"]) if c is not None]
            if blocking and self._response is None:
                self._response = ResponseSystem(self._collisions, on_moved=weakly(self._stopped))
            components.extend(blocking)
            controls = [c for c in (options["platformer"], options["ladder"]) if c is not None]
            if options["platformer"] is not None:
                self._control()
            components.extend(controls)
            entity = int(esper.create_entity(*components))
        body = Body(
            sprite, entity, position, options["kind"], geometry, hull, dict(shape_options),
            sprite_method(sprite, "on_collision_start"),
            sprite_method(sprite, "on_collision_end"), component, component.layer, pinned,
        )
        return body, position.pool_row, shape is None

    def _admit(self, made: list[tuple[Body, int, bool]]) -> None:
        """Put prepared bodies in the world's rows, all in one pass."""
        self._bodies.extend([m[0] for m in made], [m[1] for m in made], [m[2] for m in made])
        for body, _, _ in made:
            self._hook.attach(body.sprite)

    def _discard(self, made: list[tuple[Body, int, bool]]) -> None:
        """Delete the entities of prepared bodies that will not be admitted."""
        with self._in_world():
            for body, _, _ in made:
                esper.delete_entity(body.entity, immediate=True)

    def remove_sprite(self, sprite: arcade.Sprite) -> None:
        """Take ``sprite`` out of the world, ending its contacts.

        Called automatically by ``sprite.remove_from_sprite_lists()`` (the world
        registers a hook with ``sprite.register_physics_engine``, which this takes
        out again). Both sprites of every pair it was touching get their end events
        at once (after the current event, when called from a collision handler).
        Removing a sprite that is not in the world does nothing.

        Args:
            sprite: The sprite to remove.
        """
        body = self._bodies.pop(sprite)
        if body is None:
            return
        self._hook.detach(sprite)
        self._memberships.unlisten(sprite)
        with self._in_world():
            esper.delete_entity(body.entity)
            self._dead += 1
            if self._dead >= DEAD_KEPT and self._owns_world and not self._stepping:
                esper.clear_dead_entities()  # as the next step would first
                self._dead = 0
        self._router.end_removed(body.entity, body)

    def __contains__(self, sprite: object) -> bool:
        return sprite in self._bodies.row_of

    def __len__(self) -> int:
        return len(self._bodies.list)

    def entity(self, sprite: arcade.Sprite) -> int:
        """The esper entity id of a registered sprite.

        Raises:
            KeyError: the sprite is not in this world.
        """
        return self._bodies.list[self._bodies.row(sprite)].entity

    def sprites(self) -> list[arcade.Sprite]:
        """The registered sprites, in row order (the order of :meth:`poses`)."""
        return list(self._bodies.mirror.sprites)

    def poses(self) -> tuple[FloatArray, FloatArray]:
        """Copies of the poses written at the last step: ``(N, 2)`` xy and ``(N,)`` angles.

        Rows follow :meth:`sprites`, so a game can find sprites to act on with
        numpy (off-screen, say) instead of a Python loop over every sprite.
        """
        mirror = self._bodies.mirror
        return mirror.xy.copy(), mirror.angle.copy()

    def shapes(self) -> list[AnyShape]:
        """The local-frame collision shapes, in the order of :meth:`sprites`."""
        return [body.geometry for body in self._bodies.list]

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
            ValueError: a value is not finite (the velocity is then unchanged), or
                the sprite is static.
        """
        entity = self.entity(sprite)
        require_real(vx, "vx")
        require_real(vy, "vy")
        if angular is not None:
            require_real(angular, "angular")
        with self._in_world():
            if esper.has_component(entity, Static):
                raise ValueError(STATIC_MOVES)
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
        require_hashable(kind_a, "kind_a")
        require_hashable(kind_b, "kind_b")
        require_callable(start=start, end=end)
        self._router.add_pair(kind_a, kind_b, start, end)

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
        bits_a = require_layer(layer_a, "layer_a")
        bits_b = require_layer(layer_b, "layer_b")
        require_callable(start=start, end=end)
        self._router.layers.append((bits_a, bits_b, start, end))

    def set_layers(
        self, sprite: arcade.Sprite, *, layer: int | None = None, mask: int | None = None
    ) -> None:
        """Change a sprite's collision ``layer`` and/or ``mask`` bits (None: keep).

        Raises:
            KeyError: the sprite is not in this world.
            TypeError: a value is not an int.
            ValueError: ``layer`` has no bit set, or a value is outside 32 bits.
        """
        body = self._bodies.list[self._bodies.row(sprite)]
        if layer is not None:
            layer = require_layer(layer, "layer")
        if mask is not None:
            body.shape.mask = mask
            body.shape_options["mask"] = body.shape.mask
        if layer is not None:
            body.shape.layer = body.layer = body.shape_options["layer"] = layer

    # --- drawing and lifetime -----------------------------------------------------------

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

    def close(self) -> None:
        """End every contact, take every sprite out and unsubscribe.

        The end events come in the order removing the sprites one by one would give
        them; the world still holds its sprites while they are delivered. A world of
        its own is then deleted; a joined esper world (``name`` given) is kept, with
        this world's entities and processors taken out of it. An end callback that
        raises does not stop the closing: the first exception is re-raised after it.
        A closed world refuses new sprites and steps; closing it again does nothing.
        Closed from a collision callback, the esper world goes once the step is over.
        """
        if self._closed:
            return
        self._closed = True
        closing = Delivery("end callback")
        closing.call(self._router.end_all, self._bodies.list)
        self._memberships.close()
        # The sprites keep the world's hook in their physics_engines: it does nothing
        # now, and the next world a sprite joins drops it (not one list per sprite here).
        bodies = self._bodies.clear()
        self._subscription.unsubscribe()
        if not self._owns_world:
            with self._in_world():
                for body in bodies:
                    esper.delete_entity(body.entity)
            self._remove_tile_layers()
        if not self._stepping:
            self._release_esper_world()
        closing.raise_first()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def _release_esper_world(self) -> None:
        if not self._owns_world:
            with self._in_world():
                for kind in (MovementSystem, WriteBack, CollisionSystem):
                    esper.remove_processor(kind)
            return
        if self._forget is not None:
            self._forget.detach()
        delete_own_world(self.name)

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError(f"CollisionWorld {self.name!r} was closed")

    def _in_world(self) -> AbstractContextManager[None]:
        return in_world(self.name)

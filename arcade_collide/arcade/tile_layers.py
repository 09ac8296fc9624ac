"""Tiled levels: the layers of an :class:`arcade.TileMap` as static colliders.

:class:`TileLayers` is a mixin of :class:`~arcade_collide.arcade.world.CollisionWorld`
giving :meth:`~TileLayers.add_tile_layer`. The colliders are plain entities of the
world's esper world (``Position``, ``Shape``, ``Static`` and a role marker), not
sprites: the game keeps drawing the layer's ``SpriteList`` as before, and the
colliders follow the map as it was loaded (moving a tile sprite afterwards does not
move its collider). The world's CollisionSystem sees them in every tick, query, ray
and cast; the sprite queries of ``CollisionWorld`` (which return sprites) and the
collision callbacks, which are per sprite, leave them out. What each tile or object
becomes:

- A tile whose hit box is its whole tile, unrotated and on the layer's grid, is a
  cell; the cells of one role and one tile size are merged into as few rectangles as
  :func:`~arcade_collide.geometry.tile_merge.merge_cells` finds (a floor is one
  ``Rect``, so a body sliding on it meets no inner edges).
- Any other tile is its hit box (the polygon Arcade made or the one drawn in Tiled's
  collision editor), cut into convex pieces when concave
  (:func:`~arcade_collide.geometry.convex_pieces.convex_pieces`); a full hit box off
  the grid or rotated is one ``Rect``.
- In an object layer, a rectangle is a ``Rect``, a polygon its convex pieces, an
  ellipse a ``Circle`` when round and otherwise a convex polygon inscribed in it
  (:func:`~arcade_collide.geometry.convex_pieces.ellipse_outline`: its sides at most
  half a pixel inside, with 8 to 64 of them); rotations are kept. Points, polylines,
  text and objects without area are no colliders. Tile objects are the layer's
  sprites, as above.

Roles: a tile or object whose ``one_way`` property is true becomes a
``Solid(one_way=True)`` (a platform jumped onto from below), one whose ``ladder``
property is true a ``Ladder`` (a sensor shape, no ``Solid``); the property names are
options. Without either property the layer's own Tiled properties decide, then the
``one_way`` / ``ladders`` arguments; every other collider is a ``Solid()``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, NamedTuple

import arcade
import esper
import numpy as np
import pytiled_parser
from pytiled_parser import tiled_object

from arcade_collide.arcade.validation import require_layer
from arcade_collide.ecs import ALL_LAYERS, Position, Shape, Static
from arcade_collide.ecs.solids import Ladder, Solid
from arcade_collide.geometry.convex_pieces import convex_pieces, ellipse_outline
from arcade_collide.geometry.pose import Vec2
from arcade_collide.geometry.shapes import AnyShape, Circle, Polygon, Rect, Triangle
from arcade_collide.geometry.tile_merge import merge_cells

SOLID, ONE_WAY, LADDER = "solid", "one_way", "ladder"
"""The roles of a collider."""

_FULL_TOLERANCE = 1e-6
"""How far (a share of the tile size) a hit box corner or a tile's place may be from
the tile's corner or its grid cell and still count as on it."""


@dataclass(frozen=True)
class TileColliders:
    """What :meth:`TileLayers.add_tile_layer` made of a layer.

    Attributes:
        layer_name: The layer read.
        tiles: How many tiles and objects of the layer were read.
        solids: The entity ids of the ``Solid()`` colliders (block from every side).
        one_way: The entity ids of the ``Solid(one_way=True)`` colliders.
        ladders: The entity ids of the ``Ladder()`` colliders.

    >>> from arcade_collide.arcade import CollisionWorld
    >>> tile_map = arcade.load_tilemap(":resources:tiled_maps/map_with_ladders.json")
    >>> world = CollisionWorld()
    >>> made = world.add_tile_layer(tile_map, "Ladders", ladders=True)
    >>> made.layer_name, made.tiles, len(made.ladders), made.solids
    ('Ladders', 6, 2, ())
    >>> made.entities == made.ladders
    True
    >>> world.close()
    """

    layer_name: str
    tiles: int
    solids: tuple[int, ...]
    one_way: tuple[int, ...]
    ladders: tuple[int, ...]

    @property
    def entities(self) -> tuple[int, ...]:
        """Every entity made: solids, then one-way solids, then ladders."""
        return self.solids + self.one_way + self.ladders


class _Piece(NamedTuple):
    """One collider to make: its shape, pose and role."""

    shape: AnyShape
    x: float
    y: float
    angle: float
    role: str


class _Roles:
    """Which role a tile or object has, from its properties, the layer's, the defaults."""

    def __init__(
        self, one_way_property: str, ladder_property: str, default: str, layer: Mapping[str, Any]
    ) -> None:
        self.names = ((one_way_property, ONE_WAY), (ladder_property, LADDER))
        self.layer = self._own(layer, "the layer") or default

    def _own(self, properties: Mapping[str, Any] | None, what: str) -> str | None:
        one_way, ladder = self.names[0][0], self.names[1][0]
        if not properties or (one_way not in properties and ladder not in properties):
            return None
        found = [role for name, role in self.names if properties and _flag(properties.get(name))]
        if len(found) > 1:
            raise ValueError(
                f"{what} is marked both one-way and ladder ({self.names[0][0]!r} and "
                f"{self.names[1][0]!r} are both true)"
            )
        return found[0] if found else None

    def of(self, properties: Mapping[str, Any] | None, what: str) -> str:
        return self._own(properties, what) or self.layer


def _flag(value: object) -> bool:
    """Whether a Tiled property value means true (a bool, ``"true"``, a non-zero number)."""
    if isinstance(value, str):
        return value.strip().lower() in ("true", "yes", "1")
    if isinstance(value, numbers.Real):
        return bool(value)
    return False


class TileLayers:
    """:meth:`add_tile_layer` and :meth:`remove_tile_layer` of a ``CollisionWorld``."""

    _check_open: Callable[[], None]
    _in_world: Callable[[], AbstractContextManager[None]]
    _tile_layers: list[TileColliders]
    """What :meth:`add_tile_layer` made and is not removed yet (made on first use)."""

    def add_tile_layer(
        self,
        tile_map: arcade.TileMap,
        layer_name: str,
        *,
        one_way: bool = False,
        ladders: bool = False,
        one_way_property: str = "one_way",
        ladder_property: str = "ladder",
        use_hit_boxes: bool = True,
        layer: int = 1,
        mask: int = ALL_LAYERS,
    ) -> TileColliders:
        """Make static colliders of a layer of ``tile_map`` (the module docstring
        states what each tile and object becomes).

        Call it once per layer that blocks or can be climbed, e.g.::

            tile_map = arcade.load_tilemap(":resources:tiled_maps/map_with_ladders.json")
            world.add_tile_layer(tile_map, "Platforms")
            world.add_tile_layer(tile_map, "Ladders", ladders=True)

        Args:
            tile_map: The map, as :func:`arcade.load_tilemap` loaded it.
            layer_name: A tile layer (a key of ``tile_map.sprite_lists``) or an object
                layer (of ``tile_map.object_lists``).
            one_way: Every tile of the layer without a role property of its own is a
                one-way platform.
            ladders: Every tile of the layer without a role property of its own is a
                ladder.
            one_way_property: The tile or object property (Tiled "Custom Properties")
                that marks a one-way platform when true.
            ladder_property: The property that marks a ladder when true.
            use_hit_boxes: Build each tile from its hit box. ``False`` makes every
                tile its whole rectangle, as if all hit boxes were full: use it for
                art whose transparent edges shrank Arcade's hit boxes.
            layer: The collision layer bits of the colliders (as for ``Shape``): a
                ``Body`` is blocked by them when its ``blocked_by`` mask shares a bit.
            mask: The layer bits they collide with (as for ``Shape``; static
                colliders are never tested against each other).

        Returns:
            The entity ids made, by role (:class:`TileColliders`).

        Raises:
            TypeError: ``tile_map`` is not an :class:`arcade.TileMap`, ``layer_name``
                or a property name is not a string, a flag is not a bool, or
                ``layer``/``mask`` not an int.
            ValueError: the map has no layer ``layer_name`` (the message lists its
                layers), both ``one_way`` and ``ladders`` are set, a tile or object is
                marked both one-way and ladder, a hit box or polygon crosses itself or
                has no area (the message names the tile), or ``layer``/``mask`` is
                outside 32 bits. Nothing is made then.
            RuntimeError: the world was closed.
        """
        self._check_open()
        layer = _check_arguments(
            tile_map, layer, mask, layer_name=layer_name, one_way_property=one_way_property,
            ladder_property=ladder_property, one_way=one_way, ladders=ladders,
            use_hit_boxes=use_hit_boxes,
        )
        sprites = tile_map.sprite_lists.get(layer_name)
        objects = tile_map.object_lists.get(layer_name)
        if sprites is None and objects is None:
            layers = dict.fromkeys([*tile_map.sprite_lists, *tile_map.object_lists])
            known = ", ".join(repr(n) for n in layers)
            raise ValueError(f"tile_map has no layer {layer_name!r}; its layers: {known}")
        raw = _find_layer(tile_map.tiled_map.layers, layer_name)
        default = ONE_WAY if one_way else LADDER if ladders else SOLID
        roles = _Roles(one_way_property, ladder_property, default,
                       (raw.properties if raw is not None else None) or {})
        pieces: list[_Piece] = []
        tiles = 0
        if sprites is not None:
            pieces += _tile_pieces(list(sprites), roles, use_hit_boxes, layer_name)
            tiles += len(sprites)
        if isinstance(raw, pytiled_parser.ObjectLayer):
            shapes = [o for o in raw.tiled_objects if not isinstance(o, tiled_object.Tile)]
            pieces += _object_pieces(tile_map, shapes, roles, layer_name)
            tiles += len(shapes)
        return self._make(layer_name, tiles, pieces, layer, mask)

    def _make(
        self, layer_name: str, tiles: int, pieces: list[_Piece], layer: int, mask: int
    ) -> TileColliders:
        """Create the entities of ``pieces``; all components are built (and checked)
        before the first entity is made."""
        made: dict[str, list[int]] = {SOLID: [], ONE_WAY: [], LADDER: []}
        marker = {SOLID: Solid(), ONE_WAY: Solid(one_way=True), LADDER: Ladder()}
        with self._in_world():
            parts = [
                (piece.role, Position(piece.x, piece.y, angle=piece.angle),
                 Shape(piece.shape, layer=layer, mask=mask, sensor=piece.role == LADDER))
                for piece in pieces
            ]
            for role, position, shape in parts:
                entity = esper.create_entity(position, shape, Static(), marker[role])
                made[role].append(int(entity))
        colliders = TileColliders(
            layer_name, tiles, tuple(made[SOLID]), tuple(made[ONE_WAY]), tuple(made[LADDER])
        )
        self._made().append(colliders)
        return colliders

    def _made(self) -> list[TileColliders]:
        made: list[TileColliders] | None = getattr(self, "_tile_layers", None)
        if made is None:
            made = self._tile_layers = []
        return made

    def remove_tile_layer(self, colliders: TileColliders) -> None:
        """Delete the colliders :meth:`add_tile_layer` made (say, when the level
        changes in a world that lives on). Entities already deleted are skipped.

        Args:
            colliders: What :meth:`add_tile_layer` returned.

        Raises:
            TypeError: ``colliders`` is not a :class:`TileColliders`.
        """
        if not isinstance(colliders, TileColliders):
            raise TypeError(
                f"colliders must be a TileColliders, got {type(colliders).__name__}"
            )
        made = self._made()
        if colliders in made:
            made.remove(colliders)
        with self._in_world():
            for entity in colliders.entities:
                if esper.entity_exists(entity):
                    esper.delete_entity(entity)

    def _remove_tile_layers(self) -> None:
        """Delete every collider :meth:`add_tile_layer` made (a joined world's close)."""
        for colliders in list(self._made()):
            self.remove_tile_layer(colliders)


def _check_arguments(tile_map: object, layer: object, mask: object, **options: object) -> int:
    """Check :meth:`TileLayers.add_tile_layer`'s arguments; return ``layer`` as an int."""
    if not isinstance(tile_map, arcade.TileMap):
        raise TypeError(f"tile_map must be an arcade.TileMap, got {type(tile_map).__name__}")
    for name in ("layer_name", "one_way_property", "ladder_property"):
        if not isinstance(options[name], str):
            raise TypeError(f"{name} must be a str, got {type(options[name]).__name__}")
    for name in ("one_way", "ladders", "use_hit_boxes"):
        if not isinstance(options[name], bool):
            raise TypeError(f"{name} must be a bool, got {type(options[name]).__name__}")
    if options["one_way"] and options["ladders"]:
        raise ValueError("one_way and ladders cannot both be set: a tile has one role")
    bits = require_layer(layer, "layer")
    Shape(Circle(1.0), layer=bits, mask=mask)  # type: ignore[arg-type]  # checks mask
    return bits


def _find_layer(
    layers: Iterable[pytiled_parser.Layer], name: str
) -> pytiled_parser.Layer | None:
    """The Tiled layer named ``name``, inside groups too (as Arcade names its lists)."""
    for layer in layers:
        if isinstance(layer, pytiled_parser.LayerGroup):
            found = _find_layer(layer.layers or [], name)
            if found is not None:
                return found
        elif layer.name == name:
            return layer
    return None


def _tile_pieces(
    sprites: list[arcade.Sprite], roles: _Roles, use_hit_boxes: bool, layer_name: str
) -> list[_Piece]:
    """The colliders of a layer's tile sprites: full cells merged per role and size."""
    cells: dict[tuple[str, float, float], list[tuple[float, float]]] = {}
    pieces: list[_Piece] = []
    full: dict[tuple[int, float, float, float, float], bool] = {}
    """Whether a hit box is full, by its points and size: tiles share their texture's."""
    for index, sprite in enumerate(sprites):
        what = f"tile {index} of layer {layer_name!r}"
        role = roles.of(sprite.properties, what)
        width, height = float(sprite.width), float(sprite.height)
        x, y, angle = float(sprite.center_x), float(sprite.center_y), float(sprite.angle)
        # The sprites hold their points alive for the whole loop: their ids stay theirs.
        box = (id(sprite.hit_box.points), sprite.scale_x, sprite.scale_y, width, height)
        if box not in full:
            full[box] = _full_hit_box(sprite, width, height)
        if not use_hit_boxes or full[box]:
            if angle % 360.0 == 0.0:
                key = (role, width, height)
                cells.setdefault(key, []).append((x - 0.5 * width, y - 0.5 * height))
            else:
                pieces.append(_Piece(Rect(width, height), x, y, angle, role))
            continue
        adjusted = sprite.hit_box.get_adjusted_points()
        outline = [(px - x, py - y) for px, py in adjusted]
        pieces += [_Piece(shape, x, y, 0.0, role) for shape in _convex_shapes(outline, what)]
    for (role, width, height), corners in cells.items():
        pieces += _merged(role, width, height, corners)
    return pieces


def _full_hit_box(sprite: arcade.Sprite, width: float, height: float) -> bool:
    """Whether the sprite's hit box is its whole (unrotated) rectangle."""
    points = sprite.hit_box.points
    if len(points) != 4 or width <= 0.0 or height <= 0.0:
        return False
    sx, sy = sprite.scale_x, sprite.scale_y
    hw, hh = 0.5 * width, 0.5 * height
    found = {(round(px * sx / hw), round(py * sy / hh)) for px, py in points}
    close = all(
        abs(abs(px * sx) - hw) <= _FULL_TOLERANCE * hw
        and abs(abs(py * sy) - hh) <= _FULL_TOLERANCE * hh
        for px, py in points
    )
    return close and found == {(-1, -1), (1, -1), (1, 1), (-1, 1)}


def _merged(
    role: str, width: float, height: float, corners: list[tuple[float, float]]
) -> list[_Piece]:
    """Full tiles of one role and size: those on a common grid merged into rectangles,
    those off it one ``Rect`` each."""
    xy = np.array(corners, dtype=np.float64)
    origin = xy.min(axis=0)
    size = np.array([width, height])
    steps = (xy - origin) / size
    cell = np.rint(steps)
    on_grid = (np.abs(steps - cell) <= _FULL_TOLERANCE).all(axis=1)
    pieces = [
        _Piece(Rect(width, height), float(left + 0.5 * width), float(bottom + 0.5 * height),
               0.0, role)
        for left, bottom in xy[~on_grid].tolist()
    ]
    columns, rows = cell[on_grid].astype(np.intp).T
    if columns.size:
        grid = np.zeros((int(rows.max()) + 1, int(columns.max()) + 1), dtype=np.bool_)
        grid[rows, columns] = True
        for rect in merge_cells(grid):
            w, h = rect.columns * width, rect.rows * height
            left = float(origin[0]) + rect.column * width
            bottom = float(origin[1]) + rect.row * height
            pieces.append(_Piece(Rect(w, h), left + 0.5 * w, bottom + 0.5 * h, 0.0, role))
    return pieces


def _convex_shapes(outline: list[Vec2], what: str) -> list[AnyShape]:
    """``outline`` (local, either winding) as convex shapes, or an error naming ``what``."""
    try:
        pieces = convex_pieces(outline)
    except ValueError as error:
        raise ValueError(f"{what}: {error}") from None
    return [Triangle(*piece) if len(piece) == 3 else Polygon(piece) for piece in pieces]


def _object_pieces(
    tile_map: arcade.TileMap,
    objects: Iterable[tiled_object.TiledObject],
    roles: _Roles,
    layer_name: str,
) -> list[_Piece]:
    """The colliders of an object layer's rectangles, ellipses and polygons.

    Tiled places an object by its top-left corner (y down) and turns it clockwise
    about that corner; the map's ``scaling`` and ``offset`` apply as they do to tiles.
    """
    scale = float(tile_map.scaling)
    offset_x, offset_y = (float(v) for v in tile_map.offset)
    map_height = float(tile_map.tiled_map.map_size.height * tile_map.tiled_map.tile_size.height)
    pieces: list[_Piece] = []
    for index, thing in enumerate(objects):
        what = f"object {index} ({thing.name or type(thing).__name__}) of layer {layer_name!r}"
        role = roles.of(thing.properties, what)
        angle = float(thing.rotation or 0.0)
        x = thing.coordinates.x * scale + offset_x
        y = (map_height - thing.coordinates.y) * scale + offset_y
        width, height = thing.size.width * scale, thing.size.height * scale
        if isinstance(thing, tiled_object.Polygon):
            local = [(p.x * scale, -p.y * scale) for p in thing.points]
            pieces += [_Piece(s, x, y, angle, role) for s in _convex_shapes(local, what)]
            continue
        if not isinstance(thing, (tiled_object.Rectangle, tiled_object.Ellipse)):
            continue
        if width <= 0.0 or height <= 0.0:
            continue
        # The centre: half the size from the corner, turned with the object.
        turn = math.radians(angle)
        cx, cy = 0.5 * width, -0.5 * height
        x += cx * math.cos(turn) + cy * math.sin(turn)
        y += -cx * math.sin(turn) + cy * math.cos(turn)
        shape: AnyShape
        if isinstance(thing, tiled_object.Rectangle):
            shape = Rect(width, height)
        elif width == height:
            shape = Circle(0.5 * width)
        else:
            shape = Polygon(ellipse_outline(width, height))
        pieces.append(_Piece(shape, x, y, angle, role))
    return pieces

"""CollisionWorld.add_tile_layer: Tiled layers as static colliders.

Arcade's resource maps and tiny generated maps: the colliders cover exactly what the
tile sprites' hit boxes cover (shapely), full tiles are merged per role, custom hit
boxes and polygons are convex pieces, round ellipses are circles, properties give
the roles, the world's queries see the colliders, and bad input names what is wrong.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import arcade
import esper
import pytest
import shapely
from shapely import affinity
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry import Polygon as ShapelyPolygon

from arcade_collide.arcade import CollisionWorld, TileColliders
from arcade_collide.ecs import Position, Shape, Static
from arcade_collide.ecs.solids import Ladder, Solid
from arcade_collide.geometry.shapes import Circle, Polygon, Rect

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from tiled_json import TILE, object_layer, tile_layer, write_map

RESOURCE_MAPS = ["level_1.json", "map.json", "map_with_ladders.json", "pymunk_test_map.json"]


@pytest.fixture
def world() -> Iterator[CollisionWorld]:
    made = CollisionWorld()
    yield made
    made.close()


def _load(path: str | Path, **options: Any) -> arcade.TileMap:
    return arcade.load_tilemap(path, **options)


def _colliders(world: CollisionWorld, entities: tuple[int, ...]) -> list[tuple[Any, ...]]:
    """``(entity, shape component, position, role markers)`` of each entity."""
    found = []
    with world._in_world():
        for entity in entities:
            shape = esper.component_for_entity(entity, Shape)
            position = esper.component_for_entity(entity, Position)
            assert esper.has_component(entity, Static)
            roles = (esper.try_component(entity, Solid), esper.try_component(entity, Ladder))
            found.append((entity, shape, (position.x, position.y, position.angle), roles))
    return found


def _world_shape(shape: Any, pose: tuple[float, float, float]) -> Any:
    """A collider in world space, as shapely geometry."""
    geometry = shape.geometry
    if isinstance(geometry, Circle):
        local = ShapelyPoint(0, 0).buffer(geometry.radius, quad_segs=256)
    else:
        local = ShapelyPolygon(geometry.local_vertices())
    x, y, angle = pose
    # Poses turn clockwise (like Sprite.angle); shapely's rotate is counter-clockwise.
    turned = affinity.rotate(local, -angle, origin=(0, 0))
    return affinity.translate(turned, x, y)


def _union(world: CollisionWorld, colliders: TileColliders) -> Any:
    return shapely.union_all(
        [_world_shape(shape, pose) for _, shape, pose, _ in _colliders(world, colliders.entities)]
    )


def _hit_box_union(sprites: arcade.SpriteList[Any]) -> Any:
    return shapely.union_all(
        [ShapelyPolygon(s.hit_box.get_adjusted_points()).buffer(0) for s in sprites]
    )


def _same_area(a: Any, b: Any, scale: float) -> None:
    assert a.symmetric_difference(b).area <= 1e-6 * scale


@pytest.mark.parametrize("name", RESOURCE_MAPS)
def test_resource_maps_cover_the_hit_boxes_with_fewer_shapes(
    world: CollisionWorld, name: str
) -> None:
    tile_map = _load(f":resources:tiled_maps/{name}")
    sprites = tile_map.sprite_lists["Platforms"]
    colliders = world.add_tile_layer(tile_map, "Platforms")
    assert colliders.tiles == len(sprites)
    assert len(colliders.entities) < len(sprites)
    assert colliders.solids == colliders.entities
    _same_area(_union(world, colliders), _hit_box_union(sprites), _hit_box_union(sprites).area)


def test_ladders_layer_of_the_ladder_map(world: CollisionWorld) -> None:
    tile_map = _load(":resources:tiled_maps/map_with_ladders.json")
    ladders = world.add_tile_layer(tile_map, "Ladders", ladders=True)
    assert ladders.ladders and not ladders.solids and not ladders.one_way
    for _, shape, _, (solid, ladder) in _colliders(world, ladders.entities):
        assert solid is None and ladder == Ladder() and shape.sensor


def test_full_tiles_merge_into_rectangles(world: CollisionWorld, tmp_path: Path) -> None:
    rows = ["#......#", "#..###.#", "#......#", "########"]
    tile_map = _load(write_map(tmp_path, [tile_layer("Walls", rows)], 8, 4))
    colliders = world.add_tile_layer(tile_map, "Walls")
    # The floor is one rectangle, each wall one column above it, the platform one.
    found = sorted(
        (pose, (shape.geometry.width, shape.geometry.height))
        for _, shape, pose, _ in _colliders(world, colliders.entities)
    )
    t = TILE
    assert found == sorted([
        ((4 * t, 0.5 * t, 0.0), (8 * t, t)),
        ((0.5 * t, 2.5 * t, 0.0), (t, 3 * t)),
        ((7.5 * t, 2.5 * t, 0.0), (t, 3 * t)),
        ((4.5 * t, 2.5 * t, 0.0), (3 * t, t)),
    ])
    sprites = tile_map.sprite_lists["Walls"]
    _same_area(_union(world, colliders), _hit_box_union(sprites), 20 * t * t)


def test_roles_merge_only_with_their_own_role(world: CollisionWorld, tmp_path: Path) -> None:
    rows = ["..H.", "..H.", "##==#", "#####"]
    rows = [r.ljust(5, ".") for r in rows]
    tile_map = _load(write_map(tmp_path, [tile_layer("Level", rows)], 5, 4))
    made = world.add_tile_layer(tile_map, "Level")
    assert len(made.one_way) == 1 and len(made.ladders) == 1
    by_entity = {e: (s, p, r) for e, s, p, r in _colliders(world, made.entities)}
    shape, pose, (solid, ladder) = by_entity[made.one_way[0]]
    assert solid == Solid(one_way=True) and ladder is None
    assert (shape.geometry.width, shape.geometry.height) == (2 * TILE, TILE)
    assert pose[:2] == (3 * TILE, 1.5 * TILE)
    shape, pose, (solid, ladder) = by_entity[made.ladders[0]]
    assert solid is None and ladder == Ladder() and shape.sensor
    assert (shape.geometry.width, shape.geometry.height) == (TILE, 2 * TILE)
    for entity in made.solids:
        assert by_entity[entity][2] == (Solid(), None)
    # The solids: the bottom row, then the two runs of the row above it.
    assert len(made.solids) == 3


def test_layer_properties_and_keywords_give_the_default_role(
    world: CollisionWorld, tmp_path: Path
) -> None:
    layers = [tile_layer("Bridges", ["##=#"], {"one_way": True}),
              tile_layer("Vines", ["#=#."]), tile_layer("Walls", ["H.##"])]
    tile_map = _load(write_map(tmp_path, layers, 4, 1))
    bridges = world.add_tile_layer(tile_map, "Bridges")
    assert len(bridges.one_way) == 1 and not bridges.solids  # one role: merged in one
    vines = world.add_tile_layer(tile_map, "Vines", ladders=True)
    assert len(vines.ladders) == 2 and len(vines.one_way) == 1
    walls = world.add_tile_layer(tile_map, "Walls", one_way=True)
    assert len(walls.ladders) == 1 and len(walls.one_way) == 1
    renamed = world.add_tile_layer(tile_map, "Vines", one_way_property="oneway")
    assert len(renamed.solids) == 1 and not renamed.one_way  # '#=#' is one solid run


def test_custom_hit_boxes_are_convex_pieces(world: CollisionWorld, tmp_path: Path) -> None:
    tile_map = _load(write_map(tmp_path, [tile_layer("Odd", ["L_", "##"])], 2, 2))
    sprites = tile_map.sprite_lists["Odd"]
    made = world.add_tile_layer(tile_map, "Odd")
    found = _colliders(world, made.entities)
    assert sum(isinstance(s.geometry, Rect) for _, s, _, _ in found) == 1  # the merged row
    # The L is two convex pieces, the half tile one.
    assert len(found) == 4
    _same_area(_union(world, made), _hit_box_union(sprites), 4 * TILE * TILE)
    # Without hit boxes every tile is its whole cell: three rectangles become one.
    whole = world.add_tile_layer(tile_map, "Odd", use_hit_boxes=False)
    assert len(whole.entities) == 1
    _same_area(_union(world, whole), shapely.box(0, 0, 2 * TILE, 2 * TILE), 4 * TILE * TILE)


def test_objects_rectangles_ellipses_polygons(world: CollisionWorld, tmp_path: Path) -> None:
    objects = [
        {"x": 16, "y": 16, "width": 32, "height": 16},
        {"x": 64, "y": 16, "width": 20, "height": 20, "ellipse": True},
        {"x": 96, "y": 16, "width": 40, "height": 20, "ellipse": True},
        {"x": 16, "y": 64, "polygon": [(0, 0), (32, 0), (32, 16), (16, 16), (16, 32), (0, 32)]},
        {"x": 80, "y": 64, "width": 32, "height": 16, "rotation": 30,
         "properties": {"one_way": True}},
        {"x": 5, "y": 5, "point": True},
    ]
    tile_map = _load(write_map(tmp_path, [object_layer("Shapes", objects)], 10, 10))
    made = world.add_tile_layer(tile_map, "Shapes")
    assert made.tiles == 6
    top = 10 * TILE
    found = {e: (s.geometry, p) for e, s, p, _ in _colliders(world, made.entities)}
    shapes = list(found.values())
    assert (Rect(32, 16), (32.0, top - 24.0, 0.0)) in shapes
    assert (Circle(10), (74.0, top - 26.0, 0.0)) in shapes
    ellipse = [(g, p) for g, p in shapes if isinstance(g, Polygon) and len(g.points) >= 8]
    assert len(ellipse) == 1 and ellipse[0][1] == (116.0, top - 26.0, 0.0)
    # The rotated rectangle turns about its top-left corner, clockwise.
    (one_way,) = made.one_way
    geometry, pose = found[one_way]
    expected = affinity.rotate(shapely.box(80, top - 80, 112, top - 64), -30, origin=(80, top - 64))
    _same_area(_world_shape_of(geometry, pose), expected, 512)
    polygon = ShapelyPolygon([(16, top - 64), (48, top - 64), (48, top - 80), (32, top - 80),
                              (32, top - 96), (16, top - 96)])
    pieces = [_world_shape_of(g, p) for g, p in shapes if p[:2] == (16.0, top - 64.0)]
    assert len(pieces) == 2
    _same_area(shapely.union_all(pieces), polygon, polygon.area)


def _world_shape_of(geometry: Any, pose: tuple[float, float, float]) -> Any:
    return _world_shape(Shape(geometry), pose)


def test_queries_and_rays_see_the_colliders(world: CollisionWorld, tmp_path: Path) -> None:
    rows = ["#......#", "########"]
    tile_map = _load(write_map(tmp_path, [tile_layer("Walls", rows)], 8, 2))
    made = world.add_tile_layer(tile_map, "Walls", layer=0b10)
    floor = next(e for e, s, p, _ in _colliders(world, made.entities) if p[1] == 0.5 * TILE)
    system = world._collisions
    with world._in_world():
        assert system.point_query((40, 8)) == [floor]
        assert system.point_query((40, 8), mask=0b01) == []
        assert system.point_query((40, 40)) == []
        assert floor in system.shape_query(Circle(4), (40, 20))  # touches the floor's top
        hit = system.ray_cast((40, 100), (0, -1))
        assert hit is not None and hit[0] == floor and hit[1].distance == pytest.approx(84)
    # A sprite resting on the floor: the step runs with the colliders in the world.
    player = arcade.SpriteSolidColor(8, 8, center_x=40, center_y=36)
    world.add_sprite(player)
    world.step(1 / 60)
    assert world.point_query((40, 8)) == []  # bridge queries report sprites only
    assert world.point_query((40, 36)) == [player]


def test_remove_and_close_of_a_joined_world(tmp_path: Path) -> None:
    tile_map = _load(write_map(tmp_path, [tile_layer("Walls", ["##", "#."])], 2, 2))
    esper.switch_world("tiles-joined")
    try:
        world = CollisionWorld("tiles-joined")
        first = world.add_tile_layer(tile_map, "Walls")
        second = world.add_tile_layer(tile_map, "Walls")
        world.remove_tile_layer(first)
        esper.process(0.0)
        assert not any(esper.entity_exists(e) for e in first.entities)
        assert all(esper.entity_exists(e) for e in second.entities)
        world.close()
        esper.process(0.0)
        assert not any(esper.entity_exists(e) for e in second.entities)
    finally:
        esper.switch_world("default")
        esper.delete_world("tiles-joined")


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda w, m: w.add_tile_layer("map.json", "Walls"), TypeError,
         "tile_map must be an arcade.TileMap, got str"),
        (lambda w, m: w.add_tile_layer(m, "Wall"), ValueError,
         "tile_map has no layer 'Wall'; its layers: 'Walls', 'Both', 'Shapes'"),
        (lambda w, m: w.add_tile_layer(m, 3), TypeError, "layer_name must be a str, got int"),
        (lambda w, m: w.add_tile_layer(m, "Walls", one_way=True, ladders=True), ValueError,
         "one_way and ladders cannot both be set: a tile has one role"),
        (lambda w, m: w.add_tile_layer(m, "Walls", one_way=1), TypeError,
         "one_way must be a bool, got int"),
        (lambda w, m: w.add_tile_layer(m, "Both"), ValueError,
         "tile 0 of layer 'Both' is marked both one-way and ladder ('one_way' and 'ladder' "
         "are both true)"),
        (lambda w, m: w.add_tile_layer(m, "Shapes"), ValueError,
         "object 1 (Polygon) of layer 'Shapes': outline touches or crosses itself "
         "(sides 0 and 2)"),
        (lambda w, m: w.add_tile_layer(m, "Walls", mask=-1), ValueError,
         "mask must be a 32-bit mask in [0, 0xFFFFFFFF], got -1"),
        (lambda w, m: w.add_tile_layer(m, "Walls", layer=0), ValueError,
         "layer must be a 32-bit mask in [1, 0xFFFFFFFF], got 0"),
        (lambda w, m: w.remove_tile_layer((1, 2)), TypeError,
         "colliders must be a TileColliders, got tuple"),
    ],
)
def test_bad_input_makes_nothing(
    world: CollisionWorld, tmp_path: Path, call: Any, error: type[Exception], message: str
) -> None:
    both = tile_layer("Both", ["=#"])
    objects = [{"x": 0, "y": 0, "width": 16, "height": 16},
               {"x": 0, "y": 0, "polygon": [(0, 0), (16, 16), (16, 0), (0, 16)]}]
    layers = [tile_layer("Walls", ["##"]), both, object_layer("Shapes", objects)]
    tile_map = _load(write_map(tmp_path, layers, 2, 1))
    tile_map.sprite_lists["Both"][0].properties["ladder"] = True
    with world._in_world():
        before = len(esper.get_component(Shape))
    with pytest.raises(error) as raised:
        call(world, tile_map)
    assert str(raised.value) == message
    with world._in_world():
        assert len(esper.get_component(Shape)) == before


def test_closed_world_refuses(tmp_path: Path) -> None:
    tile_map = _load(write_map(tmp_path, [tile_layer("Walls", ["#"])], 1, 1))
    world = CollisionWorld()
    world.close()
    with pytest.raises(RuntimeError, match="was closed"):
        world.add_tile_layer(tile_map, "Walls")


def test_many_tiles_stay_exact(world: CollisionWorld, tmp_path: Path) -> None:
    rows = ["".join("#" if (x * 7 + y * 13) % 5 else "." for x in range(60)) for y in range(40)]
    tile_map = _load(write_map(tmp_path, [tile_layer("Noise", rows)], 60, 40))
    made = world.add_tile_layer(tile_map, "Noise")
    sprites = tile_map.sprite_lists["Noise"]
    assert len(made.entities) < len(sprites)
    _same_area(_union(world, made), _hit_box_union(sprites), 2400 * TILE * TILE)
    assert math.isclose(_union(world, made).area, len(sprites) * TILE * TILE)


def test_resource_object_layers(world: CollisionWorld) -> None:
    tile_map = _load(":resources:tiled_maps/test_objects.json")
    shapes = world.add_tile_layer(tile_map, "Shapes")
    # A rectangle, two points (no colliders), an ellipse that is not round, a triangle.
    assert shapes.tiles == 5
    kinds = sorted(type(s.geometry).__name__ for _, s, _, _ in _colliders(world, shapes.entities))
    assert kinds == ["Polygon", "Rect", "Triangle"]
    # Tile objects in a layer inside a group, one turned 45 degrees: their hit boxes.
    grouped = world.add_tile_layer(tile_map, "GroupTiles")
    sprites = tile_map.sprite_lists["GroupTiles"]
    assert grouped.tiles == 2
    reference = _hit_box_union(sprites)
    _same_area(_union(world, grouped), reference, reference.area)
    # A concave polygon of ten vertices from the ladder map: its convex pieces.
    ladder_map = _load(":resources:tiled_maps/map_with_ladders.json")
    zone = world.add_tile_layer(ladder_map, "Player Death Zones")
    (raw,) = [layer for layer in ladder_map.tiled_map.layers if layer.name == "Player Death Zones"]
    (polygon,) = raw.tiled_objects
    top = ladder_map.height * ladder_map.tile_height
    outline = ShapelyPolygon([
        (polygon.coordinates.x + p.x, top - polygon.coordinates.y - p.y) for p in polygon.points
    ])
    assert len(zone.entities) > 1
    _same_area(_union(world, zone), outline, outline.area)

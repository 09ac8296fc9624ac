"""CollisionWorld rays, casts and line of sight (arcade_collide.arcade.sprite_rays):
sprites for entities, the kind/where filters, and has_line_of_sight exact against
shapely where Arcade's own samples the segment."""

from __future__ import annotations

import math
import random

import arcade
import pytest
from shapely.geometry import LineString, Polygon

from arcade_collide import Circle
from arcade_collide.arcade import CollisionWorld


def _level(seed: int, walls: int = 40) -> tuple[CollisionWorld, arcade.SpriteList]:
    rng = random.Random(seed)
    world = CollisionWorld()
    wall_list: arcade.SpriteList = arcade.SpriteList(use_spatial_hash=True)
    for _ in range(walls):
        wall = arcade.SpriteSolidColor(
            rng.choice([1, 4, 16, 32]), rng.choice([1, 4, 16, 32, 64]),
            rng.uniform(0, 400), rng.uniform(0, 400),
        )  # fmt: skip
        wall_list.append(wall)
        world.add_sprite(wall, static=True, kind="wall")
    return world, wall_list


def _exact_sight(a: tuple[float, float], b: tuple[float, float], walls: arcade.SpriteList) -> bool:
    segment = LineString([a, b])
    outlines = [Polygon(wall.hit_box.get_adjusted_points()) for wall in walls]
    return not any(segment.intersects(outline) for outline in outlines)


def test_line_of_sight_is_exact_where_arcade_samples() -> None:
    world, walls = _level(1)
    rng = random.Random(2)
    misses = 0
    for _ in range(300):
        a = (rng.uniform(-20, 420), rng.uniform(-20, 420))
        b = (rng.uniform(-20, 420), rng.uniform(-20, 420))
        ours = world.has_line_of_sight(a, b, walls)
        assert ours == _exact_sight(a, b, walls)
        theirs = arcade.has_line_of_sight(a, b, walls)
        if theirs != ours:
            # Arcade only misses walls between its samples: it never sees a block we do not.
            assert theirs and not ours
            misses += 1
    assert misses > 0  # 1 px walls between 2 px samples do occur in this level
    world.close()


def test_line_of_sight_distance_rules_and_errors() -> None:
    world, walls = _level(3, walls=0)
    assert world.has_line_of_sight((0, 0), (0, 0), walls)
    assert world.has_line_of_sight((0, 0), (30, 40), walls, max_distance=50)
    assert not world.has_line_of_sight((0, 0), (30, 40), walls, max_distance=49.9)
    with pytest.raises(ValueError, match="max_distance must be greater than zero"):
        world.has_line_of_sight((0, 0), (1, 0), walls, max_distance=0)
    with pytest.raises(ValueError, match="check_resolution must be greater than zero"):
        world.has_line_of_sight((0, 0), (1, 0), walls, check_resolution=0)
    with pytest.raises(ValueError, match="observer"):
        world.has_line_of_sight((math.nan, 0), (1, 0), walls)
    stranger: arcade.SpriteList = arcade.SpriteList()
    stranger.append(arcade.SpriteSolidColor(10, 10, 5, 0))
    with pytest.raises(ValueError, match="not a sprite of this CollisionWorld"):
        world.has_line_of_sight((0, 0), (10, 0), stranger)
    world.close()


def test_line_of_sight_follows_walls_moved_and_added() -> None:
    world = CollisionWorld()
    walls: arcade.SpriteList = arcade.SpriteList()
    door = arcade.SpriteSolidColor(10, 100, 50, 0)
    walls.append(door)
    world.add_sprite(door)  # not static: the game moves it
    assert not world.has_line_of_sight((0, 0), (100, 0), walls)
    door.center_y = 200  # the door opens, without a step
    assert world.has_line_of_sight((0, 0), (100, 0), walls)
    extra = arcade.SpriteSolidColor(10, 10, 80, 0)
    walls.append(extra)
    world.add_sprite(extra, static=True)
    assert not world.has_line_of_sight((0, 0), (100, 0), walls)
    world.close()


def test_rays_and_casts_name_sprites_and_filter_by_kind() -> None:
    world, _ = _level(4, walls=0)
    near = arcade.SpriteSolidColor(10, 10, 20, 0)
    far = arcade.SpriteSolidColor(10, 10, 60, 0)
    world.add_sprite(near, kind="crate")
    world.add_sprite(far, static=True, kind="wall")
    sprite, hit = world.ray_cast((0, 0), (1, 0)) or (None, None)
    assert sprite is near and hit is not None and hit.distance == 15.0
    assert [s for s, _ in world.ray_cast_all((0, 0), (1, 0))] == [near, far]
    found = world.ray_cast((0, 0), (1, 0), kind="wall")
    assert found is not None and found[0] is far and found[1].point == (55.0, 0.0)
    assert world.ray_cast((0, 0), (1, 0), where=lambda s: s is far) == found
    assert world.ray_cast((0, 20), (1, 0)) is None
    cast = world.shape_cast(Circle(2), (0, 0), (100, 0))
    assert cast is not None and cast[0] is near and cast[1].fraction == pytest.approx(0.13)
    cast = world.shape_cast(Circle(2), (0, 0), (100, 0), kind="wall")
    assert cast is not None and cast[0] is far
    world.close()

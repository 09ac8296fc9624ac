"""Shapes derived from sprites: the hit-box hull by default (a Rect when it is a centred
axis-aligned rectangle), or the texture's rectangle or circle, at the sprite's scale."""

import math

import arcade
import pytest
from arcade.hitbox import RotatableHitBox
from PIL import Image, ImageDraw

from arcade_collide.arcade import CollisionWorld
from arcade_collide.arcade.shapes_from_sprites import convex_hull, shape_for_sprite
from arcade_collide.geometry.shapes import Circle, Polygon, Rect


def test_circle_sprite_gives_arcades_octagon_or_on_request_its_circle() -> None:
    sprite = arcade.SpriteCircle(12, (255, 0, 0))
    octagon = shape_for_sprite(sprite)
    assert isinstance(octagon, Polygon) and len(octagon.points) == 8
    assert sorted(octagon.points) == sorted(sprite.hit_box.points)
    assert shape_for_sprite(sprite, hull=False) == Circle(12)


def test_solid_color_sprite_gives_its_rect_and_follows_scale() -> None:
    sprite = arcade.SpriteSolidColor(40, 10)
    assert shape_for_sprite(sprite) == Rect(40, 10)
    sprite.scale = 2.0
    assert shape_for_sprite(sprite) == Rect(80, 20)
    sprite.scale = (-1.0, 0.5)  # a mirrored sprite keeps a positive size
    assert shape_for_sprite(sprite) == Rect(40, 5)


def test_circle_sprite_scaled_non_uniformly_takes_the_larger_axis() -> None:
    sprite = arcade.SpriteCircle(10, (0, 0, 255))
    sprite.scale = (1.0, 3.0)
    assert shape_for_sprite(sprite, hull=False) == Circle(30)


def test_textured_sprite_follows_its_hit_box_not_its_texture_rectangle() -> None:
    sprite = arcade.Sprite(":resources:images/space_shooter/meteorGrey_big1.png", scale=0.5)
    shape = shape_for_sprite(sprite)
    assert isinstance(shape, Polygon)
    scaled = [(x * 0.5, y * 0.5) for x, y in sprite.hit_box.points]
    assert sorted(shape.points) == sorted(scaled)
    assert shape.area < 0.9 * sprite.width * sprite.height  # the corners are cut
    assert shape_for_sprite(sprite, hull=False) == Rect(sprite.width, sprite.height)


def test_a_rectangular_hit_box_gives_a_rect_only_when_centred() -> None:
    sprite = arcade.Sprite(arcade.make_soft_square_texture(20, (0, 0, 255), 255, 255))
    sprite.hit_box = arcade.hitbox.HitBox([(-8, -5), (8, -5), (8, 5), (-8, 5)])
    sprite.scale = (2.0, -1.0)  # a mirrored sprite keeps a positive size
    assert shape_for_sprite(sprite) == Rect(32, 10)
    sprite.hit_box = arcade.hitbox.HitBox([(-8, -5), (9, -5), (9, 5), (-8, 5)])
    off_centre = shape_for_sprite(sprite)
    assert isinstance(off_centre, Polygon) and len(off_centre.points) == 4


def _triangle_texture() -> arcade.Texture:
    image = Image.new("RGBA", (40, 40), (0, 0, 0, 0))
    ImageDraw.Draw(image).polygon([(20, 0), (39, 39), (0, 39)], fill=(255, 255, 255, 255))
    detailed = arcade.hitbox.algo_detailed
    return arcade.Texture(image, hash="test-triangle", hit_box_algorithm=detailed)


def test_hull_follows_the_hit_box_and_scale() -> None:
    sprite = arcade.Sprite(_triangle_texture(), scale=2.0)
    shape = shape_for_sprite(sprite, hull=True)
    assert isinstance(shape, Polygon)
    xs = [p[0] for p in shape.points]
    ys = [p[1] for p in shape.points]
    # The texture spans 40 px: scaled by 2 the hull spans about 80 px, apex on top.
    assert max(xs) - min(xs) == pytest.approx(80, abs=6)
    assert max(ys) - min(ys) == pytest.approx(80, abs=6)
    apex = max(shape.points, key=lambda p: p[1])
    assert abs(apex[0]) < 6
    # Triangular, so clearly smaller than the 80 x 80 box.
    assert shape.area < 0.7 * 80 * 80


def test_hull_of_a_degenerate_hit_box_falls_back_to_the_rect() -> None:
    sprite = arcade.SpriteSolidColor(30, 20)
    sprite.hit_box = arcade.hitbox.HitBox([(0, 0), (1, 1), (2, 2)])
    assert shape_for_sprite(sprite, hull=True) == Rect(30, 20)


def test_zero_size_sprite_is_refused() -> None:
    sprite = arcade.SpriteSolidColor(30, 20)
    sprite.scale = 0.0
    with pytest.raises(ValueError, match="zero size"):
        shape_for_sprite(sprite)


def test_convex_hull_is_ccw_and_drops_interior_and_collinear_points() -> None:
    points = [(math.cos(a) * 5, math.sin(a) * 5) for a in (0.1, 1.3, 2.9, 4.0, 5.5)]
    hull = convex_hull([*points, (0.0, 0.0), (1.0, 1.0)])
    assert len(hull) == 5
    assert Polygon(tuple(hull)).points == tuple(hull)  # already counter-clockwise
    square = convex_hull([(0, 0), (1, 0), (2, 0), (2, 2), (0, 2)])
    assert square == [(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)]


def _squares(world: CollisionWorld, count: int) -> list[arcade.Sprite]:
    """``count`` 10 px squares in a row, added to ``world`` and stepped once."""
    sprites = [arcade.SpriteSolidColor(10, 10, center_x=30 * i) for i in range(count)]
    for sprite in sprites:
        world.add_sprite(sprite)
    world.step(1 / 60)
    return sprites


def _box(half_width: float) -> RotatableHitBox:
    """A hit box ``2 * half_width`` wide and 10 tall, centred."""
    w = half_width
    return RotatableHitBox([(-w, -5), (w, -5), (w, 5), (-w, 5)])


def test_a_hit_box_the_game_keeps_alive_is_followed_within_the_check_stride() -> None:
    """A box swapped out but kept alive frees nothing: the in-turn check finds it."""
    from arcade_collide.arcade.derived_shapes import HULL_CHECK_STRIDE

    world = CollisionWorld()
    try:
        sprites = _squares(world, 40)
        wide = _box(20)
        kept = [sprites[7].hit_box, wide]  # the game holds both boxes
        sprites[7].hit_box = kept[1]
        steps = 0
        while world.shapes()[7] != Rect(40, 10):
            world.step(1 / 60)
            steps += 1
            assert steps <= HULL_CHECK_STRIDE
        sprites[7].hit_box = kept[0]
        for _ in range(HULL_CHECK_STRIDE):
            world.step(1 / 60)
        assert world.shapes()[7] == Rect(10, 10)
    finally:
        world.close()


def test_the_in_turn_hull_check_has_a_budget_and_still_reaches_every_hull() -> None:
    """In a world of more than STRIDE * BUDGET hulls a read compares BUDGET of them, and
    a box the game keeps alive is still found within hulls / BUDGET reads; sprites
    removed meanwhile (swap-removed from the turn order) do not stop it."""
    from arcade_collide.arcade.derived_shapes import HULL_CHECK_BUDGET, HULL_CHECK_STRIDE

    count = HULL_CHECK_STRIDE * HULL_CHECK_BUDGET + 500
    world = CollisionWorld()
    try:
        tiles = arcade.SpriteList()
        for i in range(count):
            x, y = 12 * (i % 200), 12 * (i // 200)
            tiles.append(arcade.SpriteSolidColor(10, 10, center_x=x, center_y=y))
        world.add_sprite_list(tiles, static=True)
        world.step(1 / 60)
        derived = world._bodies.derived
        compared: list[int] = []
        original = derived._new_hit_boxes

        def counting() -> list[object]:
            start = derived._turn
            found = original()
            compared.append(derived._turn - start)
            return found

        derived._new_hit_boxes = counting  # type: ignore[method-assign]
        world.step(1 / 60)
        assert compared == [HULL_CHECK_BUDGET]
        target = tiles[-1]
        kept = [target.hit_box, _box(20)]
        target.hit_box = kept[1]
        for sprite in list(tiles[:300]):
            sprite.remove_from_sprite_lists()
        reads = 0
        while world.shapes()[world.sprites().index(target)] != Rect(40, 10):
            world.step(1 / 60)
            reads += 1
            assert reads <= -(-count // HULL_CHECK_BUDGET) + 1
    finally:
        world.close()


def test_every_freed_hit_box_is_noticed_at_the_next_step() -> None:
    """A hull follows a replaced (freed) hit box at the next step, the second time too:
    each freed box is noted, also after an earlier one was."""
    world = CollisionWorld()
    try:
        sprites = _squares(world, 40)
        for k, row in enumerate((7, 20, 33)):
            half = 10 + 5 * k
            sprites[row].hit_box = _box(half)  # the old box is freed: nothing else holds it
            world.step(1 / 60)
            assert world.shapes()[row] == Rect(2 * half, 10), row
    finally:
        world.close()

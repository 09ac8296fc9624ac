"""CollisionWorld queries with sprites: against brute force and Arcade's own functions."""

from __future__ import annotations

import math
import random

import arcade
import pytest
from arcade.types import LBWH, LRBT
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.arcade import CollisionWorld
from arcade_collide.arcade.queries import ANY_KIND
from arcade_collide.geometry.query.dispatch import intersects
from arcade_collide.geometry.shapes import AnyShape, Circle, Point, Polygon, Rect, Triangle

DT = 1.0 / 60.0


@pytest.fixture
def world() -> CollisionWorld:
    created = CollisionWorld()
    yield created
    created.close()


def add_random(world: CollisionWorld, rng: random.Random) -> arcade.Sprite:
    sprite = arcade.SpriteSolidColor(
        rng.choice((4, 8, 10)),
        rng.choice((4, 6, 10)),
        center_x=rng.randrange(-30, 31),
        center_y=rng.randrange(-30, 31),
        angle=rng.choice((0, 90, 30)),
    )
    shape = rng.choice((None, None, Circle(rng.choice((3, 5))), Triangle((0, 0), (6, 0), (0, 6))))
    velocity = rng.choice((None, (60.0, 0.0)))
    world.add_sprite(
        sprite, shape, velocity=velocity, kind=rng.choice(("a", "b")), layer=rng.choice((1, 2))
    )
    return sprite


def brute(
    world: CollisionWorld, shape: AnyShape, pose: object, mask: int = 0xFFFF_FFFF
) -> list[arcade.Sprite]:
    """Every sprite whose collision shape touches ``shape`` at ``pose``, pairwise."""
    found = []
    for sprite, geometry in zip(world.sprites(), world.shapes(), strict=True):
        layer = world._bodies.list[world._bodies.row(sprite)].layer
        pose_now = (sprite.center_x, sprite.center_y, sprite.angle)
        if layer & mask and intersects(shape, pose, geometry, pose_now):
            found.append(sprite)
    return sorted(found, key=world.entity)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_queries_equal_brute_force_with_sprites_moved_added_and_removed_since_the_step(
    rng: random.Random,
) -> None:
    world = CollisionWorld()
    try:
        sprites = [add_random(world, rng) for _ in range(rng.randrange(1, 16))]
        world.step(DT)
        for _ in range(rng.randrange(0, 6)):
            op = rng.randrange(4)
            if op == 0 or not sprites:
                sprites.append(add_random(world, rng))
            elif op == 1:
                world.remove_sprite(sprites.pop(rng.randrange(len(sprites))))
            else:
                sprite = rng.choice(sprites)
                sprite.position = (rng.randrange(-30, 31), rng.randrange(-30, 31))
                sprite.angle = rng.choice((0, 45, 90))
        for _ in range(4):
            mask = rng.choice((0xFFFF_FFFF, 1, 2))
            x, y = rng.randrange(-32, 33), rng.randrange(-32, 33)
            assert world.point_query((x, y), mask) == brute(world, Point(), (x, y), mask)
            w, h = rng.randrange(1, 12), rng.randrange(1, 12)
            box = Polygon([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
            assert world.aabb_query(x, y, x + w, y + h, mask) == brute(world, box, (0, 0), mask)
            assert world.sprites_in_rect(LRBT(x, x + w, y, y + h)) == brute(world, box, (0, 0))
            shape = rng.choice((Circle(4), Rect(6, 2), Point()))
            assert world.shape_query(shape, (x, y, 30), mask) == brute(
                world, shape, (x, y, 30), mask
            )
            if sprites:
                sprite = rng.choice(sprites)
                own = world.shapes()[world._bodies.row(sprite)]
                pose = (sprite.center_x, sprite.center_y, sprite.angle)
                others = [s for s in brute(world, own, pose) if s is not sprite]
                assert world.overlapping(sprite) == others
                assert world.overlapping(sprite, kind="a") == [
                    s for s in others if world.kind(s) == "a"
                ]
    finally:
        world.close()


def test_sprites_at_and_in_rect_agree_with_arcade(world: CollisionWorld) -> None:
    rng = random.Random(5)
    sprites = arcade.SpriteList()
    for _ in range(60):
        sprite = arcade.SpriteSolidColor(
            rng.uniform(5, 30), rng.uniform(5, 30), center_x=rng.uniform(0, 200),
            center_y=rng.uniform(0, 200), angle=rng.choice((0, 90, 180)),
        )  # fmt: skip
        sprites.append(sprite)
    world.add_sprite_list(sprites)
    world.step(DT)
    for sprite in sprites[:10]:
        sprite.center_x += 7  # moved since the step: both see it
    order = {sprite: k for k, sprite in enumerate(sprites)}
    hits = 0
    for _ in range(200):
        point = (rng.uniform(0, 200), rng.uniform(0, 200))
        expected = sorted(arcade.get_sprites_at_point(point, sprites), key=order.__getitem__)
        assert world.sprites_at(point) == expected
        hits += bool(expected)
        rect = LBWH(
            rng.uniform(0, 200), rng.uniform(0, 200), rng.uniform(1, 40), rng.uniform(1, 40)
        )
        expected = sorted(arcade.get_sprites_in_rect(rect, sprites), key=order.__getitem__)
        assert world.sprites_in_rect(rect) == expected
    assert 0 < hits < 200  # both outcomes occurred
    for sprite in sprites[:20]:
        expected = sorted(
            arcade.check_for_collision_with_list(sprite, sprites), key=order.__getitem__
        )
        assert world.overlapping(sprite) == expected


def test_kind_touching_by_kind_and_filters(world: CollisionWorld) -> None:
    player = arcade.SpriteSolidColor(10, 10, center_x=0, center_y=0)
    coin = arcade.SpriteSolidColor(10, 10, center_x=8, center_y=0)
    wall = arcade.SpriteSolidColor(10, 10, center_x=-8, center_y=0)
    plain = arcade.SpriteSolidColor(10, 10, center_x=0, center_y=8)
    world.add_sprite(player, kind="player")
    world.add_sprite(coin, kind="coin", layer=2)
    world.add_sprite(wall, kind="wall", static=True)
    world.add_sprite(plain)
    assert [world.kind(s) for s in (player, coin, wall, plain)] == ["player", "coin", "wall", None]
    world.step(DT)
    assert set(world.touching(player)) == {coin, wall, plain}
    assert world.touching(player, kind="coin") == [coin]
    assert world.touching(player, kind=None) == [plain]
    assert world.touching(player, kind=ANY_KIND) == world.touching(player)
    assert world.overlapping(player, kind="wall") == [wall]
    assert world.overlapping(player, mask=2) == [coin]
    assert world.sprites_at((4, 0), kind="coin") == [coin]
    assert world.point_query((4, 0), where=lambda s: s is not player) == [coin]
    with pytest.raises(TypeError, match="kind must be hashable"):
        world.touching(player, kind=[])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"rect must be an arcade\.types\.Rect"):
        world.sprites_in_rect((0, 0, 1, 1))
    stranger = arcade.SpriteSolidColor(10, 10)
    for call in (world.kind, world.overlapping, world.touching):
        with pytest.raises(KeyError):
            call(stranger)


def test_explain_with_sprites(world: CollisionWorld) -> None:
    a = arcade.SpriteSolidColor(10, 10, center_x=0, center_y=0)
    b = arcade.SpriteSolidColor(10, 10, center_x=30, center_y=0)
    world.add_sprite(a, layer=1, mask=1)
    world.add_sprite(b, Circle(5), layer=2)
    world.step(DT)
    why = world.explain(a, b)
    assert why.a is a and why.b is b and not why.filter_passes and not why.boxes_overlap
    assert why.separating_axis == (1.0, 0.0) and why.gap == pytest.approx(20.0)
    b.center_x = 10  # moved since the step, now touching a: seen at once
    why = world.explain(a, b)
    assert why.touching and not why.collides and why.contact is not None
    assert why.contact.normal == (1.0, 0.0) and why.contact.depth == pytest.approx(0.0)
    with pytest.raises(KeyError):
        world.explain(a, arcade.SpriteSolidColor(4, 4))
    with pytest.raises(ValueError, match="two different entities"):
        world.explain(a, a)


def test_queries_see_sprites_scaled_since_the_step_and_refuse_a_closed_world() -> None:
    world = CollisionWorld()
    sprite = arcade.SpriteSolidColor(10, 10, center_x=0, center_y=0)
    world.add_sprite(sprite)
    world.step(DT)
    assert world.sprites_at((8, 0)) == []
    sprite.scale = 2.0  # the derived rectangle follows before the query
    assert world.sprites_at((8, 0)) == [sprite]
    world.close()
    with pytest.raises(RuntimeError, match="was closed"):
        world.sprites_at((0, 0))


def test_queries_from_a_collision_callback_see_the_moves_of_the_callback(
    world: CollisionWorld,
) -> None:
    a = arcade.SpriteSolidColor(10, 10, center_x=0, center_y=0)
    b = arcade.SpriteSolidColor(10, 10, center_x=9, center_y=0)
    far = arcade.SpriteSolidColor(10, 10, center_x=100, center_y=0)
    for sprite, kind in ((a, "a"), (b, "b"), (far, "far")):
        world.add_sprite(sprite, kind=kind)
    seen: list[list[arcade.Sprite]] = []

    def start(first: arcade.Sprite, second: arcade.Sprite, contact: object) -> None:
        second.center_x = 100  # pushed onto far
        seen.append(world.overlapping(second))

    world.on_collision("a", "b", start=start)
    world.step(DT)
    assert seen == [[far]]
    world.step(DT)
    assert world.touching(b) == [far]


def test_contacts_are_at_the_sprites_poses_now(world: CollisionWorld) -> None:
    player = arcade.SpriteSolidColor(10, 10, center_x=0, center_y=20)
    floor = arcade.SpriteSolidColor(100, 32, center_x=0, center_y=0)
    world.add_sprite(player, kind="player")
    world.add_sprite(floor, kind="floor", static=True)
    world.step(DT)
    [(first, second, contact)] = world.contacts()
    assert (first, second) == (player, floor) and contact.depth == pytest.approx(1.0)
    player.center_y -= 10  # pushed 10 px deeper since the step
    [(_, _, contact)] = world.contacts()
    assert contact.depth == pytest.approx(11.0) and contact.normal == (0.0, -1.0)
    world.step(DT)
    assert world.contacts()[0][2].depth == pytest.approx(11.0)
    player.center_y = 200  # apart since the step: the pair stays until the next step
    assert world.contacts()[0][2].depth == pytest.approx(11.0)
    world.step(DT)
    assert world.contacts() == []


def test_overlapping_between_queries_sees_every_change_of_the_world(world: CollisionWorld) -> None:
    """The bounding circles that answer most overlapping() calls follow hand moves,
    steps, additions, removals, new sizes and Shape edits between two queries."""
    bullet = arcade.SpriteSolidColor(4, 10, center_x=0, center_y=0)
    rock = arcade.SpriteSolidColor(20, 20, center_x=100, center_y=0)
    world.add_sprite(bullet, kind="bullet")
    world.add_sprite(rock, kind="rock")
    assert world.overlapping(bullet, kind="rock") == []
    rock.center_x = 12.0  # by hand: left side on the bullet's right side (touching)
    assert world.overlapping(bullet, kind="rock") == [rock]
    assert world.overlapping(rock, kind="bullet") == [bullet]
    rock.center_x = 12.5
    assert world.overlapping(bullet, kind="rock") == []
    rock.width = 22.0  # grown by hand: its shape is rebuilt
    assert world.overlapping(bullet, kind="rock") == [rock]
    world.set_velocity(rock, 60.0, 0.0)
    world.step(DT)  # moved by the world, one px away
    assert world.overlapping(bullet, kind="rock") == []
    other = arcade.SpriteSolidColor(2, 2, center_x=0, center_y=6)
    world.add_sprite(other, kind="rock")
    assert world.overlapping(bullet, kind="rock") == [other]
    assert world.overlapping(bullet) == [other]
    world.remove_sprite(other)
    assert world.overlapping(bullet, kind="rock") == []
    shape = world._bodies.list[world._bodies.row(bullet)].shape
    shape.geometry = Circle(40.0)  # a Shape edited through the ECS
    assert world.overlapping(bullet, kind="rock") == [rock]
    with pytest.raises(ValueError, match="mask"):
        world.overlapping(bullet, kind="rock", mask=-1)


def test_overlapping_per_sprite_each_tick_while_every_sprite_moves(world: CollisionWorld) -> None:
    """A game that moves every sprite, then asks about each (queries between moves
    keep the pose mirror's log in use), gets the brute-force answer every time."""
    rng = random.Random(5)
    sprites = [add_random(world, rng) for _ in range(24)]
    found = empty = 0
    for _ in range(12):
        for sprite in sprites:
            sprite.center_x += rng.choice((-3, 0, 3))
            sprite.center_y += rng.choice((-3, 3))
        for sprite in sprites:
            own = world.shapes()[world._bodies.row(sprite)]
            pose = (sprite.center_x, sprite.center_y, sprite.angle)
            expected = [s for s in brute(world, own, pose) if s is not sprite]
            assert world.overlapping(sprite) == expected
            found += len(expected)
            empty += not expected
    assert found and empty  # both outcomes occur


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False))
def test_overlapping_and_overlapping_many_equal_brute_force_by_kind_and_mask(
    rng: random.Random,
) -> None:
    """The bounding circles and the pair-by-pair exact test give the brute-force answer,
    for every kind and mask, one sprite at a time or all at once."""
    world = CollisionWorld()
    try:
        sprites = [add_random(world, rng) for _ in range(rng.randrange(1, 20))]
        for sprite in rng.sample(sprites, k=len(sprites) // 2):
            sprite.center_x += rng.choice((-4, 0, 4))
            sprite.angle += rng.choice((0, 15, 90))
        kind = rng.choice((ANY_KIND, "a", "b"))
        mask = rng.choice((0xFFFF_FFFF, 1, 2))
        expected = {}
        for sprite in sprites:
            own = world.shapes()[world._bodies.row(sprite)]
            pose = (sprite.center_x, sprite.center_y, sprite.angle)
            expected[sprite] = [
                other for other in brute(world, own, pose, mask)
                if other is not sprite and (kind is ANY_KIND or world.kind(other) == kind)
            ]  # fmt: skip
        many = world.overlapping_many(sprites, kind=kind, mask=mask)
        assert list(many) == sprites and len(many) == len(sprites)
        for sprite in sprites:
            assert world.overlapping(sprite, kind=kind, mask=mask) == expected[sprite]
            assert many[sprite] == expected[sprite]
    finally:
        world.close()


def test_overlapping_many_answers_as_overlapping_would_when_looked_up(
    world: CollisionWorld,
) -> None:
    """Sprites removed after the batch are left out; after a sprite of the kind joined
    or a sprite moved, the answer is asked afresh."""
    rocks, bullets = arcade.SpriteList(), arcade.SpriteList()
    world.add_sprite_list(rocks, kind="rock")
    world.add_sprite_list(bullets, kind="bullet")
    rocks.extend([arcade.SpriteSolidColor(20, 20, center_x=x, center_y=0) for x in (0, 100)])
    bullets.extend([arcade.SpriteSolidColor(4, 4, center_x=x, center_y=0)
                    for x in (5, 8, 50, 100, 150)])  # fmt: skip
    hits = world.overlapping_many(bullets, kind="rock")
    assert hits[bullets[0]] == hits[bullets[1]] == [rocks[0]]
    assert hits[bullets[2]] == []
    first_rock = rocks[0]
    first_rock.remove_from_sprite_lists()  # hit by the first bullet
    assert hits[bullets[1]] == []
    rocks.append(arcade.SpriteSolidColor(20, 20, center_x=50, center_y=0))  # split off
    assert hits[bullets[2]] == [rocks[-1]]
    rocks[0].center_x = 150.0  # moved by hand after the batch
    assert hits[bullets[3]] == []
    assert hits[bullets[4]] == [rocks[0]]
    bullet = bullets[4]
    bullet.remove_from_sprite_lists()
    with pytest.raises(KeyError, match="not in this CollisionWorld"):
        hits[bullet]
    with pytest.raises(KeyError):
        hits[first_rock]  # not asked about
    world.close()
    with pytest.raises(RuntimeError, match="closed"):
        hits[bullets[0]]


def test_overlapping_many_answers_afresh_after_a_layer_change_or_a_read(
    world: CollisionWorld,
) -> None:
    """A layer set through the world, or a shape rebuilt by a read that another question
    made, changes what an answer given before says."""
    rocks, bullets = arcade.SpriteList(), arcade.SpriteList()
    world.add_sprite_list(rocks, kind="rock")
    world.add_sprite_list(bullets, kind="bullet")
    rocks.extend([arcade.SpriteSolidColor(20, 20, center_x=x, center_y=0) for x in (0, 100)])
    bullets.extend([arcade.SpriteSolidColor(4, 4, center_x=x, center_y=0) for x in (5, 89)])
    hits = world.overlapping_many(bullets, kind="rock", mask=1)
    assert hits[bullets[0]] == [rocks[0]]
    world.set_layers(rocks[0], layer=2)  # no step has placed its shape yet
    assert hits[bullets[0]] == []
    hits = world.overlapping_many(bullets, kind="rock")
    assert hits[bullets[1]] == [rocks[1]]
    rocks[1].scale = 0.5  # 10 x 10 now: apart from the second bullet
    assert world.overlapping(bullets[0], kind="rock") == [rocks[0]]  # reads the world
    assert hits[bullets[1]] == []


def test_overlapping_many_refuses_what_overlapping_refuses(world: CollisionWorld) -> None:
    sprite = arcade.SpriteSolidColor(4, 4)
    world.add_sprite(sprite, kind="ship")
    with pytest.raises(KeyError, match="not in this CollisionWorld"):
        world.overlapping_many([sprite, arcade.SpriteSolidColor(4, 4)])
    with pytest.raises(TypeError, match="kind must be hashable"):
        world.overlapping_many([sprite], kind=["ship"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="mask"):
        world.overlapping_many([sprite], mask=-1)
    assert dict(world.overlapping_many([])) == {}
    sprite.center_x = math.nan
    with pytest.raises(ValueError, match="non-finite"):
        world.overlapping_many([sprite])
    world.close()
    with pytest.raises(RuntimeError, match="closed"):
        world.overlapping_many([sprite])

"""A small world answers ``overlapping`` and ``overlapping_many`` from its sprites'
poses read straight from them (``KindCircles.now``): the answers must be the ones the
world gives once it has read the sprites, whatever the game did in between, and the
world must read them first whenever the poses or shapes it holds may differ."""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator

import arcade
import esper
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arcade_collide.arcade import CollisionWorld, kind_circles, overlap_batches, pose_mirror
from arcade_collide.arcade.arcade_internals import PRIVATE
from arcade_collide.arcade.kind_circles import KindCircles
from arcade_collide.arcade.queries import ANY_KIND
from arcade_collide.ecs import ALL_LAYERS, Position
from arcade_collide.geometry.shapes import Circle, Triangle

DT = 1.0 / 60.0


@pytest.fixture
def world() -> Iterator[CollisionWorld]:
    created = CollisionWorld()
    yield created
    created.close()


def _add(world: CollisionWorld, rng: random.Random, sprites: list[arcade.Sprite]) -> None:
    sprite = arcade.SpriteSolidColor(
        rng.choice((4, 8, 10)), rng.choice((4, 6, 10)),
        center_x=rng.randrange(-30, 31), center_y=rng.randrange(-30, 31),
        angle=rng.choice((0, 90, 30)),
    )  # fmt: skip
    shape = rng.choice((None, None, Circle(rng.choice((3, 5))), Triangle((0, 0), (6, 0), (0, 6))))
    static = rng.random() < 0.2
    velocity = None if static else rng.choice((None, (60.0, 0.0)))
    world.add_sprite(sprite, shape, velocity=velocity, static=static,
                     kind=rng.choice(("a", "b")), layer=rng.choice((1, 2)))  # fmt: skip
    sprites.append(sprite)


def _act(world: CollisionWorld, rng: random.Random, sprites: list[arcade.Sprite]) -> None:
    """One thing a game does between questions."""
    op = rng.randrange(9)
    sprite = rng.choice(sprites)
    if op == 0:
        _add(world, rng, sprites)
    elif op == 1 and len(sprites) > 1:
        sprites.remove(sprite)
        sprite.remove_from_sprite_lists()
        world.remove_sprite(sprite)
    elif op == 2:
        sprite.position = (rng.randrange(-30, 31), rng.randrange(-30, 31) + 0.5)
    elif op == 3:
        sprite.angle = rng.choice((0, 45, 90, 12.5))
    elif op == 4 and PRIVATE:
        sprite._position = (float(rng.randrange(-30, 31)), 0.25)  # no setter called
    elif op == 5:
        sprite.scale = rng.choice((0.5, 1.0, 2.0))
    elif op == 6:
        world.set_layers(sprite, layer=rng.choice((1, 2, 3)))
    elif op == 7:
        world.step(DT)
    else:
        with world._in_world():  # the game's own system moves a Position
            esper.component_for_entity(world.entity(sprite), Position).x += 3.0


def _questions(
    world: CollisionWorld, rng: random.Random, sprites: list[arcade.Sprite], count: int, acts: int
) -> Iterator[tuple[Hashable, int]]:
    """Add ``count`` sprites, then ``acts`` times act and give a kind and mask to ask."""
    for _ in range(count):
        _add(world, rng, sprites)
    for _ in range(acts):
        _act(world, rng, sprites)
        yield rng.choice((ANY_KIND, "a", "b")), rng.choice((0xFFFF_FFFF, 1, 2))


@pytest.mark.parametrize("pairs", [0, 10_000])  # near pairs found by numpy, by a loop
@settings(max_examples=40, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_answers_from_the_sprites_equal_the_worlds_after_a_read(
    rng: random.Random, pairs: int
) -> None:
    world = CollisionWorld()
    kept, kind_circles.PYTHON_PAIRS = kind_circles.PYTHON_PAIRS, pairs
    try:
        sprites: list[arcade.Sprite] = []
        for kind, mask in _questions(world, rng, sprites, rng.randrange(2, 14), 12):
            asked = rng.sample(sprites, k=min(len(sprites), 5))
            many = world.overlapping_many(asked, kind=kind, mask=mask)
            one = {sprite: world.overlapping(sprite, kind=kind, mask=mask) for sprite in asked}
            world._sync()  # now the world holds what it read: its own answers
            circles = world._circles
            for sprite in asked:
                body = world._bodies.list[world._bodies.row(sprite)]
                expected = [b.sprite for b in circles.touching(body, kind, mask) or []]
                assert one[sprite] == expected
                assert many[sprite] == expected
    finally:
        kind_circles.PYTHON_PAIRS = kept
        world.close()


def _rocks(world: CollisionWorld, count: int) -> arcade.SpriteList:
    rocks = arcade.SpriteList()
    world.add_sprite_list(rocks, kind="rock")
    rocks.extend(arcade.SpriteSolidColor(10, 10, center_x=k * 20.0, center_y=0)
                 for k in range(count))  # fmt: skip
    return rocks


def test_a_small_world_answers_from_the_sprites_until_they_change_shape(
    world: CollisionWorld,
) -> None:
    rocks = _rocks(world, 4)
    first, second = rocks[0], rocks[1]
    assert world.overlapping(first) == []  # the first question reads the sprites
    circles = world._circles
    first.center_x = 10.0
    assert circles.now() is not None
    assert world.overlapping(first) == [second]
    assert circles.now() is not None  # answered without a read: still from the sprites
    first.width = 12.0  # its derived shape must be rebuilt: the world reads first
    assert circles.now() is None
    assert world.overlapping(first) == [second]
    assert circles.now() is not None


def test_positions_edited_in_the_ecs_make_the_world_read(world: CollisionWorld) -> None:
    rocks = _rocks(world, 2)
    first, second = rocks
    assert world.overlapping(first) == []
    with world._in_world():
        esper.component_for_entity(world.entity(first), Position).x = 10.0
    assert world._circles.now() is None  # the Position table no longer holds the poses
    assert world.overlapping(first) == [second]  # the Position's pose, as before a step
    world.step(DT)  # the sprite gets its Position's pose
    assert first.center_x == 10.0
    assert world._circles.now() is not None
    assert world.overlapping(first) == [second]


def test_large_worlds_lists_and_bad_poses_are_read_first(
    world: CollisionWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    rocks = _rocks(world, 4)
    world.overlapping(rocks[0])
    assert world._circles.now() is not None
    rocks[1].position = [10.0, 0.0]  # type: ignore[assignment]  # a list: changed in place?
    assert world._circles.now() is None
    assert world.overlapping(rocks[0]) == [rocks[1]]
    rocks[1].position = (float("nan"), 0.0)
    assert world._circles.now() is None
    with pytest.raises(ValueError, match="non-finite"):
        world.overlapping(rocks[0])
    rocks[1].position = (40.0, 0.0)
    world.overlapping(rocks[0])
    monkeypatch.setattr(pose_mirror, "SMALL_WORLD", 3)
    assert world._circles.now() is None


def test_the_same_answers_with_and_without_reading_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both ports' kind of scene, answered from the sprites and by reading them first."""
    traces = []
    for direct in (True, False):
        if not direct:
            monkeypatch.setattr(KindCircles, "now", lambda self: None)
        world = CollisionWorld()
        rng = random.Random(5)
        rocks, bullets = _rocks(world, 12), arcade.SpriteList()
        world.add_sprite_list(bullets, kind="bullet")
        trace = []
        for tick in range(120):
            for rock in rocks:
                rock.center_x = (rock.center_x + rng.uniform(-3, 3)) % 240.0
                rock.angle += rng.uniform(-5, 5)
            if tick % 4 == 0:
                bullets.append(arcade.SpriteSolidColor(2, 6, center_x=rng.uniform(0, 240),
                                                       center_y=-20))  # fmt: skip
            for bullet in bullets:
                bullet.center_y += 2.0
            hits = world.overlapping_many(bullets, kind="rock")
            for bullet in list(bullets):
                for rock in hits[bullet]:
                    trace.append((tick, bullet.center_x, rock.center_x))
                    rock.center_y = -100.0 if rng.random() < 0.5 else rock.center_y
                    bullet.remove_from_sprite_lists()
        world.close()
        traces.append(trace)
    assert traces[0] == traces[1]
    assert traces[0]  # hits happen


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_world_answers_many_sprites_in_one_pass_as_one_by_one(rng: random.Random) -> None:
    """After a read, many sprites asked at once get the answers asked one by one."""
    world = CollisionWorld()
    kept = overlap_batches.BATCH_ASKED, overlap_batches.BATCH_MOVED, KindCircles.now
    KindCircles.now = lambda self: None  # type: ignore[method-assign]  # read first
    try:
        sprites: list[arcade.Sprite] = []
        for kind, mask in _questions(world, rng, sprites, rng.randrange(8, 30), 6):
            answers = []
            for batch in (1, 10_000):  # the grid however the members moved; the walk
                overlap_batches.BATCH_ASKED = overlap_batches.BATCH_MOVED = batch
                many = world.overlapping_many(sprites, kind=kind, mask=mask)
                answers.append([many[sprite] for sprite in sprites])
            assert answers[0] == answers[1]
            assert answers[0] == [world.overlapping(s, kind=kind, mask=mask) for s in sprites]
    finally:
        (overlap_batches.BATCH_ASKED, overlap_batches.BATCH_MOVED,
         KindCircles.now) = kept  # type: ignore[method-assign]  # fmt: skip
        world.close()


def test_a_kinds_circles_are_sorted_again_only_when_a_member_moved(world: CollisionWorld) -> None:
    rocks = _rocks(world, 4)
    bullet = arcade.SpriteSolidColor(4, 4, center_x=0, center_y=50)
    world.add_sprite(bullet, kind="bullet")
    world._sync()
    circles = world._circles
    before = circles.circles("rock")
    bullet.center_y = 40.0  # another kind moved: the Position table was written
    world._sync()
    kept = circles.circles("rock")
    assert kept.version != before.version
    assert kept.xs is before.xs and kept.bodies is before.bodies
    rocks[0].center_x = 100.0  # a member moved: sorted again
    world._sync()
    moved = circles.circles("rock")
    assert moved.xs == sorted([20.0, 40.0, 60.0, 100.0])
    assert moved.bodies[-1].sprite is rocks[0]


def test_a_kinds_grid_is_kept_while_its_members_stay(world: CollisionWorld) -> None:
    rocks = _rocks(world, 4)
    bullets = arcade.SpriteList()
    world.add_sprite_list(bullets, kind="bullet")
    bullets.extend(arcade.SpriteSolidColor(4, 4, center_x=20.0 * k, center_y=50) for k in range(9))
    world._sync()
    circles = world._circles
    asked = [world._bodies.list[world._bodies.row(b)] for b in bullets]
    circles.touching_batch(asked, "rock", ALL_LAYERS)
    grid = circles._grids["rock"][2]
    for bullet in bullets:
        bullet.center_y = 0.0  # the bullets moved onto the rocks, the rocks did not
    world._sync()
    found = circles.touching_batch(asked, "rock", ALL_LAYERS)
    assert circles._grids["rock"][2] is grid

    def one_by_one() -> list[list[object]]:
        bodies = world._bodies
        return [
            [bodies.list[bodies.row(rock)] for rock in world.overlapping(b, kind="rock")]
            for b in bullets
        ]

    assert found == one_by_one()
    assert any(found)
    rocks[0].center_x = 200.0  # a member moved: no grid for it, unless asked for anyway
    world._sync()
    assert circles.touching_batch(asked, "rock", ALL_LAYERS) is None
    assert circles._grids["rock"][2] is None
    world._sync()  # still at the next question: made again
    assert circles.touching_batch(asked, "rock", ALL_LAYERS) == one_by_one()
    made = circles._grids["rock"][2]
    assert made is not None and made is not grid
    rocks[0].center_x = 0.0
    world._sync()
    assert circles.touching_batch(asked, "rock", ALL_LAYERS, moved_too=True) == one_by_one()
    assert circles._grids["rock"][2] not in (None, made)

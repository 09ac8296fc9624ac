"""A small world answers ``overlapping`` and ``overlapping_many`` from its sprites'
poses read straight from them (``KindCircles.touching_direct``), and a larger one a
batch question from its touch log (``KindCircles.touching_logged``): the answers must
be the ones the world gives once it has read the sprites, whatever the game did in
between, and the world must read them first whenever the poses or shapes it holds may
differ."""

from __future__ import annotations

import os
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
from arcade_collide.ecs import ALL_LAYERS, Position, Shape
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


PRIVATE_WRITE, ECS_EDIT = 4, 8
"""Two of :func:`_act`'s acts: a pose written to a sprite's private field (a world using
its touch log does not see it), and a Position moved in the ECS (the sprite's next
hand move, when the world reads it, replaces that pose)."""


def _act(
    world: CollisionWorld,
    rng: random.Random,
    sprites: list[arcade.Sprite],
    skip: frozenset[int] = frozenset(),
) -> None:
    """One thing a game does between questions (none of the acts numbered in ``skip``)."""
    op = rng.randrange(10)
    sprite = rng.choice(sprites)
    if op in skip:
        pass
    elif op == 0:
        _add(world, rng, sprites)
    elif op == 1 and len(sprites) > 1:
        sprites.remove(sprite)
        sprite.remove_from_sprite_lists()
        world.remove_sprite(sprite)
    elif op == 2:
        sprite.position = (rng.randrange(-30, 31), rng.randrange(-30, 31) + 0.5)
    elif op == 3:
        sprite.angle = rng.choice((0, 45, 90, 12.5))
    elif op == PRIVATE_WRITE and PRIVATE:
        sprite._position = (float(rng.randrange(-30, 31)), 0.25)  # no setter called
    elif op == 5:
        sprite.scale = rng.choice((0.5, 1.0, 2.0))
    elif op == 6:
        world.set_layers(sprite, layer=rng.choice((1, 2, 3)))
    elif op == 7:
        world.step(DT)
    elif op == 9:
        with world._in_world():  # the game's own code edits a Shape, placed by a tick or not
            esper.component_for_entity(world.entity(sprite), Shape).layer = rng.choice((1, 2, 3))
    elif ECS_EDIT not in skip:  # op 8, and ops 1 and 4 when they cannot be done
        with world._in_world():  # the game's own system moves a Position
            esper.component_for_entity(world.entity(sprite), Position).x += 3.0


def _questions(
    world: CollisionWorld,
    rng: random.Random,
    sprites: list[arcade.Sprite],
    count: int,
    acts: int,
    skip: frozenset[int] = frozenset(),
) -> Iterator[tuple[Hashable, int]]:
    """Add ``count`` sprites, then ``acts`` times act (see :func:`_act`) and give a kind
    and mask to ask."""
    for _ in range(count):
        _add(world, rng, sprites)
    for _ in range(acts):
        _act(world, rng, sprites, skip)
        yield rng.choice((ANY_KIND, "a", "b")), rng.choice((0xFFFF_FFFF, 1, 2))


@settings(max_examples=80, deadline=None)
@given(rng=st.randoms(use_true_random=False))
def test_answers_from_the_sprites_equal_the_worlds_after_a_read(rng: random.Random) -> None:
    world = CollisionWorld()
    try:
        sprites: list[arcade.Sprite] = []
        for kind, mask in _questions(world, rng, sprites, rng.randrange(2, 14), 12):
            asked = rng.sample(sprites, k=min(len(sprites), 5))
            many = dict(world.overlapping_many(asked, kind=kind, mask=mask))  # looked up now
            one = {sprite: world.overlapping(sprite, kind=kind, mask=mask) for sprite in asked}
            world._sync()  # now the world holds what it read: its own answers
            circles = world._circles
            for sprite in asked:
                body = world._bodies.list[world._bodies.row(sprite)]
                expected = [b.sprite for b in circles.touching(body, kind, mask) or []]
                assert one[sprite] == expected
                assert many[sprite] == expected
    finally:
        world.close()


def _rocks(world: CollisionWorld, count: int) -> arcade.SpriteList:
    rocks = arcade.SpriteList()
    world.add_sprite_list(rocks, kind="rock")
    rocks.extend(arcade.SpriteSolidColor(10, 10, center_x=k * 20.0, center_y=0)
                 for k in range(count))  # fmt: skip
    return rocks


def _direct(world: CollisionWorld, sprite: arcade.Sprite) -> list[arcade.Sprite] | None:
    """``sprite``'s answer from the sprites' poses (any kind), or None: read first."""
    row = world._bodies.row(sprite)
    found = world._circles.touching_direct(world._bodies.list[row], row, ANY_KIND, ALL_LAYERS)
    return None if found is None else [body.sprite for body in found]


def test_a_small_world_answers_from_the_sprites_until_they_change_shape(
    world: CollisionWorld,
) -> None:
    rocks = _rocks(world, 4)
    first, second, third = rocks[0], rocks[1], rocks[2]
    assert world.overlapping(first) == []  # the first question reads the sprites
    first.center_x = 10.0
    assert _direct(world, first) == [second]
    assert world.overlapping(first) == [second]
    reads = world._bodies.mirror.reads
    assert _direct(world, first) == [second]  # answered without a read: still from the sprites
    assert world._bodies.mirror.reads == reads
    first.width = 12.0  # its derived shape must be rebuilt: the world reads first
    assert _direct(world, first) is None
    assert world.overlapping(first) == [second]
    assert _direct(world, first) == [second]
    third.height = 30.0  # a member's derived shape, too
    assert _direct(world, first) is None
    assert world.overlapping(first) == [second]
    assert _direct(world, first) == [second]


def test_positions_edited_in_the_ecs_make_the_world_read(world: CollisionWorld) -> None:
    rocks = _rocks(world, 2)
    first, second = rocks
    assert world.overlapping(first) == []
    with world._in_world():
        esper.component_for_entity(world.entity(first), Position).x = 10.0
    assert _direct(world, first) is None  # the Position table no longer holds the poses
    assert world.overlapping(first) == [second]  # the Position's pose, as before a step
    world.step(DT)  # the sprite gets its Position's pose
    assert first.center_x == 10.0
    assert _direct(world, first) == [second]
    assert world.overlapping(first) == [second]


def test_large_worlds_and_bad_poses_are_read_first(
    world: CollisionWorld, monkeypatch: pytest.MonkeyPatch
) -> None:
    rocks = _rocks(world, 4)
    world.overlapping(rocks[0])
    assert _direct(world, rocks[0]) == []
    rocks[1].position = [10.0, 0.0]  # type: ignore[assignment]  # a list: read as it is now
    assert _direct(world, rocks[0]) == [rocks[1]]
    assert world.overlapping(rocks[0]) == [rocks[1]]
    rocks[1].position = (float("nan"), 0.0)
    assert _direct(world, rocks[0]) is None
    with pytest.raises(ValueError, match="non-finite"):
        world.overlapping(rocks[0])
    rocks[1].position = (40.0, 0.0)
    rocks[0].angle = float("inf")
    assert _direct(world, rocks[0]) is None
    with pytest.raises(ValueError, match="non-finite"):
        world.overlapping(rocks[0])
    rocks[0].angle = 0.0
    world.overlapping(rocks[0])
    assert _direct(world, rocks[0]) == []
    monkeypatch.setattr(pose_mirror, "SMALL_WORLD", 3)
    assert _direct(world, rocks[0]) is None


def test_a_small_worlds_batch_answers_each_sprite_when_it_is_looked_up(
    world: CollisionWorld,
) -> None:
    rocks = _rocks(world, 4)
    bullets = arcade.SpriteList()
    world.add_sprite_list(bullets, kind="bullet")
    bullets.extend(arcade.SpriteSolidColor(2, 2, center_x=x, center_y=0) for x in (0.0, 50.0))
    world._sync()
    hits = world.overlapping_many(bullets, kind="rock")
    reads = world._bodies.mirror.reads
    rocks[2].center_x = 50.0  # moved after the question, before the lookup
    assert hits[bullets[1]] == [rocks[2]]
    assert hits[bullets[0]] == [rocks[0]]
    assert world._bodies.mirror.reads == reads  # answered from the sprites
    bullets[0].center_x = float("nan")
    with pytest.raises(ValueError, match="non-finite"):
        world.overlapping_many(bullets, kind="rock")  # an asked sprite's pose: at once


def test_the_same_answers_with_and_without_reading_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both ports' kind of scene, answered from the sprites and by reading them first."""
    traces = []
    for direct in (True, False):
        if not direct:
            monkeypatch.setattr(KindCircles, "touching_direct", lambda self, *args: None)
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
    kept = (overlap_batches.BATCH_ASKED, overlap_batches.BATCH_MOVED, pose_mirror.SMALL_WORLD,
            KindCircles.touching_logged)  # fmt: skip
    pose_mirror.SMALL_WORLD = 0  # no answer from the sprites: the batch reads first
    KindCircles.touching_logged = lambda self, *args: None  # type: ignore[method-assign]
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
        (overlap_batches.BATCH_ASKED, overlap_batches.BATCH_MOVED, pose_mirror.SMALL_WORLD,
         KindCircles.touching_logged) = kept  # type: ignore[method-assign]  # fmt: skip
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


# --- a larger world: answers read from the asked sprites while the log shows the rest ---


def _logged_world(monkeypatch: pytest.MonkeyPatch) -> CollisionWorld:
    """A world whose pose mirror uses the touch log however few its sprites."""
    monkeypatch.setattr(pose_mirror, "SMALL_WORLD", 0)
    return CollisionWorld()


def _shooter(world: CollisionWorld) -> tuple[arcade.SpriteList, arcade.SpriteList]:
    rocks, bullets = _rocks(world, 4), arcade.SpriteList()
    world.add_sprite_list(bullets, kind="bullet")
    bullets.extend(arcade.SpriteSolidColor(4, 4, center_x=20.0 * k, center_y=30.0)
                   for k in range(5))  # fmt: skip
    world._sync()
    world._circles.batch_done()  # as if a batch question had followed the read
    return rocks, bullets


def test_moved_bullets_are_answered_from_their_sprites_while_the_rocks_stay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world = _logged_world(monkeypatch)
    rocks, bullets = _shooter(world)
    circles, mirror = world._circles, world._bodies.mirror
    for bullet in bullets:
        bullet.center_y = 4.0  # onto the rocks' tops (5 px up): overlapping
    asked = [world._bodies.list[world._bodies.row(b)] for b in bullets]
    mine = [world._bodies.row(b) for b in bullets]
    found = circles.touching_logged(asked, mine, "rock", ALL_LAYERS)
    assert found is not None
    hit = [[other.sprite for other in found[0][bullet]] for bullet in bullets]
    assert hit == [[rocks[k]] for k in range(4)] + [[]]
    assert mirror.logged_any()  # nothing was read into the world
    bullets[0].center_y = 7.0  # touching the rock's top
    bullets[1].center_y = 7.5  # apart
    hits = world.overlapping_many(bullets, kind="rock")
    assert [hits[b] for b in bullets] == [[rocks[0]], [], [rocks[2]], [rocks[3]], []]
    assert mirror.logged_any()
    rocks[0].center_x = 3.0  # a rock moved: the world reads first
    assert circles.touching_logged(asked, mine, "rock", ALL_LAYERS) is None
    assert world.overlapping_many(bullets, kind="rock")[bullets[0]] == [rocks[0]]
    assert not mirror.logged_any()
    world.close()


def test_the_same_bullets_asked_again_are_checked_once_and_their_shapes_followed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world = _logged_world(monkeypatch)
    rocks, bullets = _shooter(world)
    circles = world._circles
    for bullet in bullets:
        bullet.center_y = 20.0  # above the rocks (their tops at 5)
    hits = world.overlapping_many(bullets, kind="rock")
    assert [hits[b] for b in bullets] == [[]] * 5
    kept = circles._asked
    assert kept is not None
    for bullet in bullets:
        bullet.center_y = 19.0
    hits = world.overlapping_many(bullets, kind="rock")
    assert circles._asked is kept  # the same sprites, sizes and shapes: not checked again
    with world._in_world():  # a bullet's Shape given a larger circle through esper
        esper.component_for_entity(world.entity(bullets[0]), Shape).geometry = Circle(16.0)
    hits = world.overlapping_many(bullets, kind="rock")
    assert circles._asked is not kept
    assert [hits[b] for b in bullets] == [[rocks[0]]] + [[]] * 4
    assert world.overlapping(bullets[0], kind="rock") == [rocks[0]]
    world.close()


@pytest.mark.parametrize("logged", [True, False])
def test_a_shape_edited_through_esper_before_any_tick_is_seen_by_answers_given_before(
    monkeypatch: pytest.MonkeyPatch, logged: bool
) -> None:
    """No tick has placed the shapes, so the table's edit count does not see these."""
    world = _logged_world(monkeypatch) if logged else CollisionWorld()
    rocks, bullets = _shooter(world)
    for bullet in bullets:
        bullet.center_y = 4.0  # onto the rocks' tops
    hits = world.overlapping_many(bullets, kind="rock", mask=1)
    with world._in_world():
        esper.component_for_entity(world.entity(rocks[0]), Shape).layer = 2
    assert hits[bullets[0]] == []  # looked up after the edit: the rock is on layer 2
    assert hits[bullets[2]] == [rocks[2]]
    hits = world.overlapping_many(bullets, kind="rock")
    with world._in_world():  # a rock given a smaller circle: the kind's radii change
        esper.component_for_entity(world.entity(rocks[2]), Shape).geometry = Circle(1.0)
    assert hits[bullets[2]] == []
    assert world.overlapping_many(bullets, kind="rock")[bullets[3]] == [rocks[3]]
    assert world.overlapping(bullets[2], kind="rock") == []
    world.close()


@pytest.mark.parametrize("brute", [kind_circles.BRUTE_PAIRS, 0])
def test_what_makes_the_world_read_before_answering(
    monkeypatch: pytest.MonkeyPatch, brute: int
) -> None:
    monkeypatch.setattr(kind_circles, "BRUTE_PAIRS", brute)  # every pair tested, or a grid
    world = _logged_world(monkeypatch)
    rocks, bullets = _shooter(world)
    circles = world._circles
    asked = [world._bodies.list[world._bodies.row(b)] for b in bullets]
    mine = [world._bodies.row(b) for b in bullets]
    assert circles.touching_logged(asked, mine, "rock", ALL_LAYERS) is None  # nothing logged
    bullets[0].center_y = 4.0
    assert circles.touching_logged(asked, mine, "rock", ALL_LAYERS) is not None
    assert circles.touching_logged(asked, mine, "bullet", ALL_LAYERS) is None  # a member logged
    assert circles.touching_logged(asked, mine, ANY_KIND, ALL_LAYERS) is None
    bullets[1].width = 6.0  # its derived shape must be rebuilt
    assert circles.touching_logged(asked, mine, "rock", ALL_LAYERS) is None
    world._sync()
    circles.batch_done()  # (no read between batches: only the pose stops the answer)
    bullets[1].position = (20.0, float("inf"))
    assert circles.touching_logged(asked, mine, "rock", ALL_LAYERS) is None
    with pytest.raises(ValueError, match="non-finite"):
        world.overlapping_many(bullets, kind="rock")
    bullets[1].position = [20.0, 4.0]  # type: ignore[assignment]  # a list
    assert circles.touching_logged(asked, mine, "rock", ALL_LAYERS) is None
    bullets[1].position = (20.0, 30.0)
    world._sync()
    with world._in_world():  # the game's own system moves an asked sprite's Position
        esper.component_for_entity(world.entity(bullets[2]), Position).y = 4.0
    bullets[0].center_y = 5.0
    assert circles.touching_logged(asked, mine, "rock", ALL_LAYERS) is None
    assert world.overlapping_many(bullets, kind="rock")[bullets[2]] == [rocks[2]]
    world.close()


def test_a_large_world_compares_the_asked_rows_with_the_position_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    world = _logged_world(monkeypatch)
    monkeypatch.setattr(kind_circles, "FULL_POSE_CHECK", 0)
    _, bullets = _shooter(world)
    circles = world._circles
    asked = [world._bodies.list[world._bodies.row(b)] for b in bullets[:2]]
    mine = [world._bodies.row(b) for b in bullets[:2]]
    with world._in_world():  # the game's own system moves a Position: a bullet not asked
        esper.component_for_entity(world.entity(bullets[4]), Position).y = 4.0
    bullets[0].center_y = 5.0
    assert circles.touching_logged(asked, mine, "rock", ALL_LAYERS) is not None
    with world._in_world():  # and one that is
        esper.component_for_entity(world.entity(bullets[1]), Position).y = 4.0
    assert circles.touching_logged(asked, mine, "rock", ALL_LAYERS) is None
    world.close()


def test_a_game_that_steps_between_its_questions_has_the_moves_read_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The step would read the moves anyway: the question reads them, the step need not."""
    world = _logged_world(monkeypatch)
    rocks, bullets = _shooter(world)
    ways, answers = [], []
    for tick in range(6):
        for bullet in bullets:
            bullet.center_y -= 5.0  # 25, 20, 15, 10, then onto the rocks: 5, 0
        hits = world.overlapping_many(bullets, kind="rock")
        ways.append("sprites" if isinstance(hits, overlap_batches.LoggedOverlaps) else "read")
        answers.append([hits[bullet] for bullet in bullets])
        if tick >= 3:
            world.step(DT)
    # Questions with no read between them are answered from the sprites once the log
    # is in use; the fifth and sixth follow a step each.
    assert ways[2:] == ["sprites", "sprites", "read", "read"]
    on_rocks = [[rocks[0]], [rocks[1]], [rocks[2]], [rocks[3]], []]
    assert answers == [[[]] * 5] * 4 + [on_rocks] * 2
    world.close()


def _shooter_trace(rng: random.Random, lookups: bool) -> list[object]:
    """A random game that asks about some sprites with ``overlapping_many``
    (``lookups``) or ``overlapping``, acting between answers. Its acts leave out the
    two whose outcome depends on when the world reads the sprites (see
    :data:`PRIVATE_WRITE`), which the two ways of asking do at different moments."""
    world = CollisionWorld()
    sprites: list[arcade.Sprite] = []
    trace: list[object] = []
    skip = frozenset({PRIVATE_WRITE, ECS_EDIT})
    try:
        for kind, mask in _questions(world, rng, sprites, rng.randrange(4, 14), 8, skip):
            asked = rng.sample(sprites, k=min(len(sprites), 6))
            many = world.overlapping_many(asked, kind=kind, mask=mask) if lookups else None
            for sprite in asked:
                if rng.random() < 0.3:
                    _act(world, rng, sprites, skip)
                try:
                    answer = (many[sprite] if many is not None
                              else world.overlapping(sprite, kind=kind, mask=mask))  # fmt: skip
                except KeyError:
                    answer = None
                trace.append(None if answer is None else [sprites.index(s) for s in answer])
            for sprite in sprites:  # the bullets fly on
                sprite.center_y += rng.choice((0.0, 2.0, 4.5))
    finally:
        world.close()
    return trace


@pytest.mark.parametrize("small", [pose_mirror.SMALL_WORLD, 0])
@settings(max_examples=int(os.environ.get("REPLAY_EXAMPLES", "30")), deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_each_looked_up_answer_is_the_one_overlapping_gives_then(seed: int, small: int) -> None:
    """The same game played twice: each answer of ``overlapping_many``, looked up after
    the game acted, equals ``overlapping``'s at that moment (small world or log)."""
    kept, pose_mirror.SMALL_WORLD = pose_mirror.SMALL_WORLD, small
    try:
        batched = _shooter_trace(random.Random(seed), lookups=True)
        one_by_one = _shooter_trace(random.Random(seed), lookups=False)
    finally:
        pose_mirror.SMALL_WORLD = kept
    assert batched == one_by_one


def _bullets_trace(seed: int, lookups: bool) -> list[object]:
    """A shooter: rocks that mostly stay, bullets flying up through them; each hit
    removes the bullet and sometimes the rock, moves it or splits off another, asked
    with ``overlapping_many`` (``lookups``) or ``overlapping``."""
    rng = random.Random(seed)
    world = CollisionWorld()
    rocks, bullets = arcade.SpriteList(), arcade.SpriteList()
    world.add_sprite_list(rocks, kind="rock")
    world.add_sprite_list(bullets, kind="bullet")
    rocks.extend(
        arcade.SpriteSolidColor(12, 12, center_x=rng.uniform(0, 200), center_y=rng.uniform(40, 120))
        for _ in range(20)
    )
    trace: list[object] = []
    try:
        for tick in range(60):
            if tick % 3 == 0:
                bullets.append(arcade.SpriteSolidColor(2, 6, center_x=rng.uniform(0, 200),
                                                       center_y=0.0))  # fmt: skip
            for bullet in bullets:
                bullet.center_y += 3.0
            if rng.random() < 0.1:
                rng.choice(rocks).angle += 30.0  # a rock turns between questions
            hits = world.overlapping_many(bullets, kind="rock") if lookups else None
            for bullet in list(bullets):
                found = hits[bullet] if hits is not None else world.overlapping(bullet, "rock")
                trace.append((tick, bullets.index(bullet), sorted(rocks.index(r) for r in found)))
                for rock in found:
                    bullet.remove_from_sprite_lists()
                    act = rng.randrange(3)
                    if act == 0:
                        rock.remove_from_sprite_lists()
                    elif act == 1:
                        rock.center_x += 7.0
                    else:
                        rocks.append(arcade.SpriteSolidColor(6, 6, center_x=rock.center_x,
                                                             center_y=rock.center_y))  # fmt: skip
                    break
    finally:
        world.close()
    return trace


@pytest.mark.parametrize("brute", [kind_circles.BRUTE_PAIRS, 0])
@pytest.mark.parametrize("small", [pose_mirror.SMALL_WORLD, 0])
@pytest.mark.parametrize("seed", range(6))
def test_a_shooters_answers_are_the_ones_overlapping_gives_then(
    seed: int, small: int, brute: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batch answers near-paired by testing every pair, or by a grid of the rocks."""
    monkeypatch.setattr(kind_circles, "BRUTE_PAIRS", brute)
    kept, pose_mirror.SMALL_WORLD = pose_mirror.SMALL_WORLD, small
    try:
        batched = _bullets_trace(seed, lookups=True)
        one_by_one = _bullets_trace(seed, lookups=False)
    finally:
        pose_mirror.SMALL_WORLD = kept
    assert batched == one_by_one
    assert any(found for _, _, found in batched)  # hits happen

"""CollisionWorld without a window: pose round trips, sprite events, removal, scale, pairs."""

from __future__ import annotations

import gc
import subprocess
import sys

import arcade
import esper
import pytest

from arcade_collide.arcade import CollisionWorld
from arcade_collide.arcade.world import DEAD_KEPT
from arcade_collide.ecs import CollisionSystem, Position
from arcade_collide.ecs.world_state import world_pools
from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.shapes import Circle, Polygon, Rect, Triangle

DT = 1.0 / 60.0


class Recorder(arcade.SpriteSolidColor):
    """A sprite that records the events it receives."""

    def __init__(self, width: float, height: float, **kwargs: float) -> None:
        super().__init__(width, height, **kwargs)
        self.started: list[tuple[arcade.Sprite, Contact]] = []
        self.ended: list[arcade.Sprite] = []

    def on_collision_start(self, other: arcade.Sprite, contact: Contact) -> None:
        self.started.append((other, contact))

    def on_collision_end(self, other: arcade.Sprite) -> None:
        self.ended.append(other)


@pytest.fixture
def world() -> CollisionWorld:
    created = CollisionWorld()
    yield created
    created.close()


def test_importing_the_package_does_not_import_arcade() -> None:
    code = "import sys, arcade_collide; sys.exit('arcade' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_moving_sprite_writes_back_position_and_clockwise_angle(world: CollisionWorld) -> None:
    sprite = arcade.SpriteSolidColor(10, 10, center_x=100, center_y=50, angle=10)
    world.add_sprite(sprite, velocity=(60, -30), angular=90)
    for _ in range(60):
        world.step(DT)
    assert sprite.position == pytest.approx((160.0, 20.0))
    assert sprite.angle == pytest.approx(100.0)
    assert world.ticks == 60


def test_game_moves_are_read_into_the_components(world: CollisionWorld) -> None:
    sprite = arcade.SpriteSolidColor(10, 10, center_x=0, center_y=0)
    world.add_sprite(sprite, velocity=(60, 0))
    world.step(DT)
    sprite.position = (500.0, 300.0)
    sprite.angle = 45.0
    world.step(DT)
    assert sprite.position == pytest.approx((501.0, 300.0))
    assert sprite.angle == pytest.approx(45.0)
    xy, angle = world.poses()
    assert xy.tolist() == [list(sprite.position)]
    assert angle.tolist() == [sprite.angle]


def test_a_static_sprite_is_not_written(world: CollisionWorld) -> None:
    sprite = arcade.SpriteSolidColor(10, 10, center_x=3, center_y=4, angle=7)
    world.add_sprite(sprite)
    world.step(DT)
    assert (sprite.position, sprite.angle) == ((3, 4), 7)
    assert world.velocity(sprite) == (0.0, 0.0, 0.0)
    world.set_velocity(sprite, 60, 0)
    world.step(DT)
    assert sprite.position == pytest.approx((4.0, 4.0))


def test_callbacks_fire_once_per_start_and_end_with_normals_towards_the_other(
    world: CollisionWorld,
) -> None:
    left = Recorder(20, 20, center_x=0, center_y=0)
    right = Recorder(20, 20, center_x=40, center_y=0)
    world.add_sprite(left, velocity=(600, 0))
    world.add_sprite(right)
    for _ in range(12):  # passes right through in 0.2 s
        world.step(DT)
    assert [other for other, _ in left.started] == [right]
    assert [other for other, _ in right.started] == [left]
    assert left.started[0][1].normal == pytest.approx((1.0, 0.0))
    assert right.started[0][1].normal == pytest.approx((-1.0, 0.0))
    assert left.ended == [right] and right.ended == [left]
    assert world.contacts() == []


def test_touching_counts(world: CollisionWorld) -> None:
    a = Recorder(20, 20, center_x=0, center_y=0)
    b = Recorder(20, 20, center_x=20, center_y=0)
    world.add_sprite(a)
    world.add_sprite(b)
    world.step(DT)
    assert len(a.started) == 1
    assert world.touching(a) == [b]


def test_removed_sprite_leaves_the_world_and_ends_its_contacts(world: CollisionWorld) -> None:
    sprites = arcade.SpriteList()
    a = Recorder(20, 20, center_x=0, center_y=0)
    b = Recorder(20, 20, center_x=10, center_y=0)
    sprites.extend([a, b])
    world.add_sprite(a)
    world.add_sprite(b)
    world.step(DT)
    assert len(world.contacts()) == 1
    b.remove_from_sprite_lists()
    assert b not in world and len(world) == 1
    assert a.ended == [b] and b.ended == [a]
    world.step(DT)
    world.step(DT)
    assert len(a.ended) == 1 and world.contacts() == []


def test_a_world_only_asked_questions_does_not_keep_its_removed_sprites(
    world: CollisionWorld,
) -> None:
    """A game that never steps (it only asks overlap questions) still lets esper drop
    the entities of the sprites it removed, and their Position rows."""
    bullets = arcade.SpriteList()
    world.add_sprite_list(bullets, kind="bullet")
    rock = arcade.SpriteSolidColor(10, 10)
    world.add_sprite(rock, kind="rock")
    for k in range(1_000):
        bullet = arcade.SpriteSolidColor(2, 2, center_x=float(k % 7), center_y=0.0)
        bullets.append(bullet)
        assert world.overlapping_many(bullets, kind="rock")[bullet] == [rock]
        bullet.remove_from_sprite_lists()
    gc.collect()
    with world._in_world():
        kept = len(esper.get_component(Position))  # (the entities deleted but not cleared too)
        rows = world_pools().positions.live
    assert kept <= 1 + DEAD_KEPT
    assert rows <= 1 + DEAD_KEPT
    hit = arcade.SpriteSolidColor(2, 2)
    bullets.append(hit)
    world.step(1 / 60)  # the step after the early clearing sees the same world
    assert world.touching(hit) == [rock]


def test_removal_inside_a_handler_ends_every_contact_once(world: CollisionWorld) -> None:
    bullet = Recorder(4, 4, center_x=0, center_y=0)
    rocks = [Recorder(20, 20, center_x=0, center_y=y) for y in (5, -5)]
    world.add_sprite(bullet, kind="bullet")
    for rock in rocks:
        world.add_sprite(rock, kind="rock")
    hits: list[arcade.Sprite] = []

    def hit(b: arcade.Sprite, rock: arcade.Sprite, contact: Contact) -> None:
        hits.append(rock)
        world.remove_sprite(b)

    world.on_collision("bullet", "rock", start=hit)
    world.step(DT)
    world.step(DT)
    assert len(hits) == 1
    assert bullet.ended == [hits[0]] and hits[0].ended == [bullet]
    assert [len(rock.started) for rock in rocks].count(1) == 1


def test_a_scaled_sprite_collides_at_its_new_size(world: CollisionWorld) -> None:
    a = Recorder(20, 20, center_x=0, center_y=0)
    b = Recorder(20, 20, center_x=30, center_y=0)
    world.add_sprite(a)
    world.add_sprite(b)
    world.step(DT)
    assert a.started == []
    a.scale = 2.0  # now 40 x 40: its right side reaches x = 20, b's left side
    world.step(DT)
    assert [other for other, _ in a.started] == [b]
    assert world.shapes()[0] == Rect(40, 40)
    a.scale = 1.0
    world.step(DT)
    assert a.ended == [b]


def test_shapes_follow_the_sprite_kind_and_explicit_shapes_are_kept(
    world: CollisionWorld,
) -> None:
    ball = arcade.SpriteCircle(8, arcade.color.RED)
    coin = arcade.SpriteCircle(8, arcade.color.RED)
    ship = arcade.SpriteSolidColor(30, 30)
    world.add_sprite(ball)
    world.add_sprite(coin, hull=False)
    world.add_sprite(ship, Triangle((15, 0), (-10, 10), (-10, -10)))
    ship.scale = 2.0
    world.step(DT)
    octagon, *rest = world.shapes()
    # By default Arcade's octagon hit box; hull=False: the circle the texture shows.
    assert isinstance(octagon, Polygon) and sorted(octagon.points) == sorted(ball.hit_box.points)
    assert rest == [Circle(8), Triangle((15, 0), (-10, 10), (-10, -10))]


def test_pair_handlers_get_their_kinds_in_order(world: CollisionWorld) -> None:
    rock = Recorder(20, 20, center_x=0, center_y=0)
    bullet = Recorder(4, 4, center_x=-11, center_y=0)
    world.add_sprite(rock, kind="rock")
    world.add_sprite(bullet, velocity=(600, 0), kind="bullet")
    calls: list[tuple[str, arcade.Sprite, arcade.Sprite, tuple[float, float] | None]] = []
    world.on_collision(
        "bullet", "rock",
        start=lambda b, r, c: calls.append(("start", b, r, c.normal)),
        end=lambda b, r: calls.append(("end", b, r, None)),
    )
    world.on_collision("rock", "ship", start=lambda *_: calls.append(("x", rock, rock, None)))
    for _ in range(10):
        world.step(DT)
    assert [c[0] for c in calls] == ["start", "end"]
    assert all(c[1] is bullet and c[2] is rock for c in calls)
    assert calls[0][3] == pytest.approx((1.0, 0.0))


def test_layers_and_masks_filter_pairs(world: CollisionWorld) -> None:
    a = Recorder(20, 20)
    b = Recorder(20, 20)
    world.add_sprite(a, layer=0b01, mask=0b01)
    world.add_sprite(b, layer=0b10, mask=0b10)
    world.step(DT)
    assert a.started == [] and b.started == []


def test_two_worlds_and_the_game_esper_world_stay_apart() -> None:
    esper.switch_world("game")
    first, second = CollisionWorld(), CollisionWorld()
    try:
        for w in (first, second):
            w.add_sprite(Recorder(20, 20))
            w.add_sprite(Recorder(20, 20))
            w.step(DT)
            assert len(w.contacts()) == 1
        assert esper.current_world == "game"
    finally:
        first.close()
        second.close()
        esper.switch_world("default")
        esper.delete_world("game")


def test_bad_input_is_refused(world: CollisionWorld) -> None:
    sprite = arcade.SpriteSolidColor(4, 4)
    with pytest.raises(TypeError, match="sprite"):
        world.add_sprite("not a sprite")  # type: ignore[arg-type]
    world.add_sprite(sprite)
    with pytest.raises(ValueError, match="already"):
        world.add_sprite(sprite)
    with pytest.raises(ValueError, match="delta_time"):
        world.step(-1.0)
    sprite.center_x = float("nan")
    with pytest.raises(ValueError, match="non-finite"):
        world.step(DT)


def test_a_raising_handler_does_not_lose_the_other_events(world: CollisionWorld) -> None:
    class Fragile(Recorder):
        def on_collision_start(self, other: arcade.Sprite, contact: Contact) -> None:
            super().on_collision_start(other, contact)
            raise RuntimeError("boom")

    fragile = Fragile(20, 20, center_x=0, center_y=0)
    others = [Recorder(20, 20, center_x=x, center_y=0) for x in (-15, 15)]
    world.add_sprite(fragile)
    for other in others:
        world.add_sprite(other)
    with pytest.raises(RuntimeError, match="boom"):
        world.step(DT)
    assert len(fragile.started) == 2
    assert all(other.started == [(fragile, other.started[0][1])] for other in others)
    fragile.remove_from_sprite_lists()
    assert all(other.ended == [fragile] for other in others)
    assert world.contacts() == []


def test_callbacks_see_the_new_poses_in_the_callers_esper_world() -> None:
    seen: list[tuple[tuple[float, float], str, int]] = []

    class Looker(Recorder):
        def on_collision_start(self, other: arcade.Sprite, contact: Contact) -> None:
            seen.append((self.position, esper.current_world, world.ticks))

    esper.switch_world("caller")
    world = CollisionWorld()
    try:
        mover = Looker(10, 10, center_x=0, center_y=0)
        world.add_sprite(mover, velocity=(600, 0))
        world.add_sprite(Recorder(10, 10, center_x=35, center_y=0))
        world.on_collision(None, None, start=lambda a, b, c: seen.append(
            (a.position, esper.current_world, world.ticks)))
        world.step(DT)
        world.step(DT)
        assert seen == []  # 10 px a tick: they meet in the third
        world.step(DT)
        (x, y), caller, ticks = seen[0]
        assert (x, y) == pytest.approx((30.0, 0.0)) and caller == "caller" and ticks == 3
        assert len(seen) == 2 and seen[1][1:] == ("caller", 3)
        assert esper.current_world == "caller"
    finally:
        world.close()
        esper.switch_world("default")
        esper.delete_world("caller")


def test_a_world_closed_by_its_own_callback_goes_after_the_step() -> None:
    world = CollisionWorld()
    a, b = Recorder(20, 20), Recorder(20, 20, center_x=10)
    world.add_sprite(a)
    world.add_sprite(b)
    world.on_collision(None, None, start=lambda *_: world.close())
    world.step(DT)
    assert world.name not in esper.list_worlds() and esper.current_world == "default"
    assert len(a.started) == 1 and a.ended == [b] and b.ended == [a]
    with pytest.raises(RuntimeError, match="was closed"):
        world.step(DT)


def test_a_raising_callback_keeps_the_removal_ends_and_the_first_error() -> None:
    world = CollisionWorld()
    try:
        bullet = Recorder(4, 4)
        rock = Recorder(20, 20)
        world.add_sprite(bullet, kind="bullet")
        world.add_sprite(rock, kind="rock")

        def hit(b: arcade.Sprite, r: arcade.Sprite, contact: Contact) -> None:
            world.remove_sprite(b)
            raise KeyError("first")

        world.on_collision("bullet", "rock", start=hit)
        world.on_collision("rock", "bullet", start=lambda *_: 1 / 0)
        with pytest.raises(KeyError, match="first") as caught:
            world.step(DT)
        assert any("ZeroDivisionError" in note for note in caught.value.__notes__)
        assert bullet.ended == [rock] and rock.ended == [bullet]
        assert bullet not in world and world.contacts() == []
    finally:
        world.close()


def test_hooks_and_sensors(world: CollisionWorld) -> None:
    trigger = Recorder(40, 40, center_x=0, center_y=0)
    walker = Recorder(10, 10, center_x=100, center_y=0)
    world.add_sprite(trigger, sensor=True)
    world.add_sprite(walker, velocity=(-6000, 0))
    world.step(DT)
    assert [other for other, _ in walker.started] == [trigger]


def test_layer_handlers_get_the_layer_a_sprite_first(world: CollisionWorld) -> None:
    PLAYER, ENEMY = 0b01, 0b10
    enemy = Recorder(20, 20, center_x=0, center_y=0)
    player = Recorder(20, 20, center_x=-25, center_y=0)
    world.add_sprite(enemy, layer=ENEMY)
    world.add_sprite(player, velocity=(600, 0), layer=PLAYER)
    calls: list[tuple[str, arcade.Sprite, arcade.Sprite]] = []
    world.on_layers(PLAYER, ENEMY, start=lambda p, e, c: calls.append(("start", p, e)),
                    end=lambda p, e: calls.append(("end", p, e)))
    world.on_layers(ENEMY, ENEMY, start=lambda *_: calls.append(("never", enemy, enemy)))
    for _ in range(12):
        world.step(DT)
    assert calls == [("start", player, enemy), ("end", player, enemy)]
    with pytest.raises(TypeError, match="layer_b must be an int"):
        world.on_layers(1, "enemy")  # type: ignore[arg-type]


def test_a_texture_change_rebuilds_the_derived_shape(world: CollisionWorld) -> None:
    """The texture's rectangle (hull=False) follows a new texture; the default hull
    keeps the hit box, as Arcade does when the texture changes."""
    sprite = arcade.Sprite(arcade.make_soft_square_texture(20, arcade.color.RED, name="a"))
    hull = arcade.Sprite(sprite.texture, center_x=100)
    world.add_sprite(sprite, hull=False)
    world.add_sprite(hull)
    world.step(DT)
    before = world.shapes()[1]
    assert world.shapes()[0] == Rect(20, 20)
    big = arcade.make_soft_square_texture(50, arcade.color.RED, name="b")
    sprite.texture = hull.texture = big
    world.step(DT)
    assert world.shapes() == [Rect(50, 50), before]


def test_size_changes_are_found_whether_few_or_many_sprites_were_moved(
    world: CollisionWorld,
) -> None:
    """Few hand moves: only touched sprites are read; many: every size is compared."""
    sprites = [arcade.SpriteSolidColor(10, 10, center_x=40 * i, center_y=0) for i in range(12)]
    for sprite in sprites:
        world.add_sprite(sprite)
    world.step(DT)
    sprites[3].width = 30  # alone: read through the touch log
    world.step(DT)
    assert world.shapes()[3] == Rect(30, 10)
    for sprite in sprites:
        sprite.center_y = 5.0  # every sprite moved by hand
    sprites[5].scale = 2.0
    world.step(DT)
    for sprite in sprites:
        sprite.center_y = 9.0
    sprites[7].height = 4  # in a tick where every pose is read
    world.step(DT)
    world.step(DT)
    sprites[3].width = 10
    world.step(DT)
    assert [world.shapes()[i] for i in (3, 5, 7)] == [Rect(10, 10), Rect(20, 20), Rect(10, 4)]
    assert world.shapes().count(Rect(10, 10)) == 10


def test_hull_follows_the_hit_box(world: CollisionWorld) -> None:
    from arcade_collide.arcade import sprite_for_shape

    triangle = Triangle((15, 0), (-10, 10), (-10, -10))
    sprite = sprite_for_shape(triangle, (255, 255, 255, 255))
    world.add_sprite(sprite, hull=True)
    sprite.scale = 2.0
    world.step(DT)
    (shape,) = world.shapes()
    assert sorted(shape.local_vertices()) == sorted([(30, 0), (-20, 20), (-20, -20)])


@pytest.mark.parametrize("how", ["hit_box setter", "sync_hit_box_to_texture"])
def test_hull_follows_a_new_hit_box(world: CollisionWorld, how: str) -> None:
    """A new hit box changes no size and reports to no setter, in a later tick than
    the texture swap, which kept the old box: the hull must still follow it."""
    from arcade.hitbox import HitBox

    small = arcade.make_soft_square_texture(16, arcade.color.WHITE, name="hull-small")
    corners = [(-30.0, -30.0), (30.0, -30.0), (30.0, 30.0), (-30.0, 30.0)]
    big = arcade.Texture(small.image, hit_box_points=corners, hash="hull-big-box")
    ship = arcade.Sprite(small)
    rock = arcade.SpriteSolidColor(10, 10, center_x=15)
    world.add_sprite(ship, hull=True)
    world.add_sprite(rock)
    world.step(DT)
    assert not world.contacts()
    if how == "hit_box setter":
        ship.hit_box = HitBox(corners, ship.position)
    else:
        ship.texture = big  # same size, and Arcade keeps the old hit box
        world.step(DT)
        assert not world.contacts()
        ship.sync_hit_box_to_texture()
    world.step(DT)
    assert sorted(world.shapes()[0].local_vertices()) == sorted(corners)
    assert len(world.contacts()) == 1
    world.remove_sprite(ship)  # the world forgets the hull with the sprite
    ship.hit_box = HitBox(corners[:3], ship.position)
    world.step(DT)
    assert world.shapes() == [Rect(10, 10)]


def test_joining_a_game_esper_world_runs_its_processors_and_keeps_it() -> None:
    class Counter(esper.Processor):
        ticks = 0

        def process(self, *args: object) -> None:
            Counter.ticks += 1

    esper.switch_world("joined")
    esper.add_processor(Counter())
    esper.switch_world("default")
    world = CollisionWorld("joined")
    try:
        world.add_sprite(Recorder(20, 20))
        world.step(DT)
        world.step(DT)
        assert Counter.ticks == 2
    finally:
        world.close()
    assert "joined" in esper.list_worlds()
    esper.switch_world("joined")
    assert esper.get_processor(Counter) is not None
    assert esper.get_processor(CollisionSystem) is None
    esper.switch_world("default")
    esper.delete_world("joined")


def test_a_step_that_fails_on_a_zero_size_sprite_stores_no_new_shape(
    world: CollisionWorld,
) -> None:
    shrinking = arcade.SpriteSolidColor(20, 20, center_x=0)
    neighbour = arcade.SpriteSolidColor(20, 20, center_x=100)
    growing = arcade.SpriteSolidColor(20, 20, center_x=150)
    for sprite in (shrinking, neighbour, growing):
        world.add_sprite(sprite)
    world.step(DT)
    shrinking.scale = 0
    growing.scale = 5  # 100 x 100 now: it reaches the neighbour at x = 110
    for _ in range(2):  # the failed step kept nothing, so the next one fails the same way
        with pytest.raises(ValueError, match=r"^a sprite \(entity 1\): sprite has zero size"):
            world.step(DT)
    assert world.shapes() == [Rect(20, 20)] * 3
    shrinking.scale = 1
    world.step(DT)
    assert world.shapes() == [Rect(20, 20), Rect(20, 20), Rect(100, 100)]
    assert world.touching(neighbour) == [growing]


def test_close_finishes_when_an_end_callback_raises() -> None:
    class Fragile(arcade.SpriteSolidColor):
        def on_collision_end(self, other: arcade.Sprite) -> None:
            raise RuntimeError("torn down")

    world = CollisionWorld()
    sprites = [Fragile(20, 20, center_x=10 * k) for k in range(4)]
    for sprite in sprites:
        world.add_sprite(sprite)
    world.step(DT)
    with pytest.raises(RuntimeError, match="torn down"):
        world.close()
    assert len(world) == 0
    assert world.name not in esper.list_worlds()


def test_a_dropped_world_takes_its_esper_world_with_it() -> None:
    world = CollisionWorld()
    world.add_sprite(arcade.SpriteSolidColor(20, 20), velocity=(10, 0))
    world.step(DT)
    name = world.name
    assert name in esper.list_worlds()
    del world
    gc.collect()
    CollisionWorld().close()  # the next world created deletes the dropped one's
    assert name not in esper.list_worlds()


def test_joining_an_esper_world_that_has_its_own_systems_is_refused() -> None:
    esper.switch_world("joined-twice")
    esper.switch_world("default")
    first = CollisionWorld("joined-twice")
    try:
        with pytest.raises(ValueError, match="already has a MovementSystem and a CollisionSystem"):
            CollisionWorld("joined-twice")
    finally:
        first.close()
    second = CollisionWorld("joined-twice")  # the first one's systems left with it
    second.close()
    esper.delete_world("joined-twice")


def test_a_sprite_that_outlives_its_level_does_not_keep_the_world() -> None:
    player = arcade.SpriteSolidColor(20, 20)
    hud = CollisionWorld()
    level = CollisionWorld()
    level.add_sprite(player, velocity=(10, 0))
    level.step(DT)
    name = level.name
    del level
    gc.collect()
    assert name in esper.list_worlds()
    hud.step(DT)  # the next step of any CollisionWorld deletes the dropped one's
    assert name not in esper.list_worlds()
    hud.close()
    player.remove_from_sprite_lists()  # the dead world's hook does nothing
    assert player.physics_engines == []


def test_removing_a_sprite_by_hand_unregisters_the_world_from_it(world: CollisionWorld) -> None:
    sprite = arcade.SpriteSolidColor(20, 20)
    world.add_sprite(sprite)
    assert len(sprite.physics_engines) == 1
    world.remove_sprite(sprite)
    assert sprite.physics_engines == []
    world.add_sprite(sprite)
    assert len(sprite.physics_engines) == 1


@pytest.mark.parametrize("in_list", [False, True], ids=["no-list", "in-a-list"])
def test_a_raising_end_callback_does_not_keep_the_sprite_in_a_second_world(in_list: bool) -> None:
    class Fragile(arcade.SpriteSolidColor):
        def on_collision_end(self, other: arcade.Sprite) -> None:
            raise RuntimeError("torn down")

    first, second = CollisionWorld(), CollisionWorld()
    try:
        leaving = Fragile(20, 20)
        if in_list:  # the list's remove takes it out of both worlds, then raises
            arcade.SpriteList().append(leaving)
        for world in (first, second):
            world.add_sprite(leaving)
            world.add_sprite(Fragile(20, 20, center_x=10))
            world.step(DT)
        with pytest.raises(RuntimeError, match="torn down"):
            leaving.remove_from_sprite_lists()
        assert leaving not in first and leaving not in second
        assert leaving.physics_engines == [] and leaving.sprite_lists == []
        assert first.contacts() == [] and second.contacts() == []
    finally:
        first.close()
        second.close()


def test_a_closed_world_refuses_sprites_and_steps_and_closes_once() -> None:
    world = CollisionWorld()
    world.add_sprite(arcade.SpriteSolidColor(10, 10))
    world.close()
    with pytest.raises(RuntimeError, match="was closed"):
        world.add_sprite(arcade.SpriteSolidColor(10, 10))
    with pytest.raises(RuntimeError, match="was closed"):
        world.step(DT)
    world.close()  # does nothing
    assert world.name not in esper.list_worlds()



def test_a_world_made_and_stepped_from_a_game_world_reads_and_writes_poses() -> None:
    esper.switch_world("game")
    # The game's own Positions take rows in the game world's pool first, so a bridge
    # that wrote the wrong world's pool would move these or miss its sprites.
    game_positions = [Position(float(i), -1.0) for i in range(4)]
    world = CollisionWorld()
    try:
        mover = Recorder(10, 10, center_x=0, center_y=0)
        other = Recorder(10, 10, center_x=100, center_y=0)
        world.add_sprite(mover, velocity=(60, 0), angular=90)
        world.add_sprite(other)
        world.step(DT)
        assert mover.position == pytest.approx((1.0, 0.0))
        assert mover.angle == pytest.approx(1.5)
        other.position = (9.0, 0.0)  # a hand move, read at the next step
        world.step(DT)
        assert mover.position == pytest.approx((2.0, 0.0))
        assert other.position == (9.0, 0.0) and mover.started and other.started
        assert world.poses()[0].ravel().tolist() == pytest.approx([2.0, 0.0, 9.0, 0.0])
        esper.switch_world(world.name)
        held = [esper.component_for_entity(world.entity(s), Position) for s in (mover, other)]
        esper.switch_world("game")
        assert [(p.x, p.y) for p in held] == [pytest.approx((2.0, 0.0)), (9.0, 0.0)]
        assert [(p.x, p.y) for p in game_positions] == [(float(i), -1.0) for i in range(4)]
        assert esper.current_world == "game"
    finally:
        world.close()
        esper.switch_world("default")
        esper.delete_world("game")


def test_sprites_of_one_hit_box_scale_and_size_share_one_hull(world: CollisionWorld) -> None:
    texture = ":resources:images/space_shooter/meteorGrey_med1.png"
    a, b = arcade.Sprite(texture, scale=0.75), arcade.Sprite(texture, scale=0.75)
    bigger = arcade.Sprite(texture, scale=1.5)
    for sprite in (a, b, bigger):
        world.add_sprite(sprite)
    shapes = world.shapes()
    assert isinstance(shapes[0], Polygon) and shapes[0] is shapes[1]
    assert shapes[2] is not shapes[0] and shapes[2] != shapes[0]
    b.scale = 1.5  # rebuilt at the new scale: the bigger sprite's shape
    world.step(DT)
    assert world.shapes()[1] is world.shapes()[2] and world.shapes()[0] is shapes[0]
    b.hit_box = arcade.hitbox.RotatableHitBox(
        [(-2.0, -2.0), (2.0, -2.0), (2.0, 2.0), (-2.0, 2.0)], position=b.position
    )
    world.step(DT)
    assert world.shapes()[1] == Rect(6.0, 6.0)  # the new box, at scale 1.5


class Logged(arcade.SpriteSolidColor):
    """A sprite that logs the ends it receives in one shared log, as index pairs."""

    def __init__(self, index: int, log: list[tuple[int, int]], x: float, y: float) -> None:
        super().__init__(20, 20, center_x=x, center_y=y)
        self.index, self.log = index, log

    def on_collision_end(self, other: arcade.Sprite) -> None:
        assert isinstance(other, Logged)
        self.log.append((self.index, other.index))


def _crowd(log: list[tuple[int, int]]) -> tuple[CollisionWorld, list[Logged]]:
    """A world of 14 overlapping sprites whose pairs started in several steps, one sprite
    removed (so rows are no longer in the order the sprites were added)."""
    world = CollisionWorld()
    sprites = [Logged(k, log, 15 * (k % 5), 12 * (k // 5)) for k in range(15)]
    for sprite in sprites:
        world.add_sprite(sprite)
    world.step(DT)
    for sprite in sprites[::3]:
        sprite.center_x += 500
    world.step(DT)
    for sprite in sprites[::3]:
        sprite.center_x -= 500
    world.step(DT)
    world.remove_sprite(sprites[4])
    world.step(DT)
    log.clear()
    return world, sprites


def test_close_ends_pairs_as_removing_the_sprites_one_by_one_would() -> None:
    closed_log: list[tuple[int, int]] = []
    closed, _ = _crowd(closed_log)
    removed_log: list[tuple[int, int]] = []
    emptied, _ = _crowd(removed_log)
    try:
        assert len(closed.contacts()) > 20
        closed.close()
        for sprite in emptied.sprites():
            emptied.remove_sprite(sprite)
        assert closed_log == removed_log
        assert len(closed_log) == 2 * len({frozenset(pair) for pair in closed_log})
    finally:
        emptied.close()

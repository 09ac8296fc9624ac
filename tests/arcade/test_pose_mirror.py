"""The per-tick pose sync of CollisionWorld (PoseMirror): hand moves found, only changes written.

Each test compares the world's fast write-back with what Arcade's public setters give.
"""

from __future__ import annotations

import math

import arcade
import esper
import numpy as np
import pytest

from arcade_collide import Position
from arcade_collide.arcade import CollisionWorld, pose_mirror
from arcade_collide.arcade.pose_mirror import PoseMirror

DT = 1.0 / 60.0


@pytest.fixture
def world() -> CollisionWorld:
    created = CollisionWorld()
    yield created
    created.close()


def _buffer(sprite_list: arcade.SpriteList, sprite: arcade.Sprite) -> tuple[float, ...]:
    data = np.frombuffer(sprite_list._sprite_pos_angle_data, dtype=np.float32).reshape(-1, 4)
    return tuple(data[sprite_list.sprite_slot[sprite]].tolist())


def _expected_buffer(sprite: arcade.Sprite, depth: float = 0.0) -> tuple[float, ...]:
    x, y = sprite.position
    return tuple(np.array([x, y, depth, sprite.angle], dtype=np.float32).tolist())


def test_hand_moves_after_a_fast_write_back_are_picked_up(world: CollisionWorld) -> None:
    sprite = arcade.SpriteSolidColor(10, 10, center_x=0, center_y=0)
    world.add_sprite(sprite, velocity=(60, 0), angular=60)
    world.step(DT)
    sprite.center_x = 100.0  # replaces the position the world wrote
    world.step(DT)
    assert sprite.position == pytest.approx((101.0, 0.0))
    sprite.angle = 45.0  # only the angle, by hand
    world.step(DT)
    assert sprite.angle == pytest.approx(46.0)
    assert sprite.position == pytest.approx((102.0, 0.0))
    sprite.position = (7.0, 8.0)
    sprite.angle = -3.0
    world.step(DT)
    assert (*sprite.position, sprite.angle) == pytest.approx((8.0, 8.0, -2.0))
    xy, angle = world.poses()
    assert xy.tolist() == [list(sprite.position)] and angle.tolist() == [sprite.angle]


def test_a_hand_move_of_one_sprite_among_many(world: CollisionWorld) -> None:
    sprites = [arcade.SpriteSolidColor(4, 4, center_x=20.0 * i, center_y=0) for i in range(50)]
    for sprite in sprites:
        world.add_sprite(sprite, velocity=(0, 60))
    for _ in range(3):
        world.step(DT)
    sprites[17].center_y = -500.0
    world.step(DT)
    assert sprites[17].center_y == pytest.approx(-499.0)
    assert all(s.center_y == pytest.approx(4.0) for i, s in enumerate(sprites) if i != 17)


def test_a_hand_move_to_the_same_value_is_no_move(world: CollisionWorld) -> None:
    sprite = arcade.SpriteSolidColor(10, 10, center_x=5, center_y=5)
    world.add_sprite(sprite, velocity=(60, 0))
    world.step(DT)
    x, y = sprite.position
    sprite._position = (x, y)  # an equal tuple that is not the one the world wrote
    world.step(DT)
    assert sprite.position == pytest.approx((7.0, 5.0))


def test_static_sprites_and_unturned_angles_are_left_alone(world: CollisionWorld) -> None:
    drawn = arcade.SpriteList()
    static = arcade.SpriteSolidColor(10, 10, center_x=300, center_y=300, angle=30)
    mover = arcade.SpriteSolidColor(10, 10, center_x=0, center_y=0, angle=10)
    drawn.extend([static, mover])
    world.add_sprite(static)
    world.add_sprite(mover, velocity=(60, 0))
    position, angle, box = static._position, static._angle, static.hit_box
    box.get_adjusted_points()
    mover_angle = mover._angle
    for _ in range(5):
        world.step(DT)
    # Not one field of the static sprite was written, nor the mover's angle.
    assert static._position is position and static._angle is angle
    assert not box._adjusted_cache_dirty
    assert mover._angle is mover_angle
    assert _buffer(drawn, static) == _expected_buffer(static)
    assert _buffer(drawn, mover) == _expected_buffer(mover)


def test_write_back_matches_the_public_setters(world: CollisionWorld) -> None:
    """Hit boxes, sprite-list buffers, spatial hashes and Arcade's collision checks."""
    rng = np.random.default_rng(3)
    drawn = arcade.SpriteList()
    hashed = arcade.SpriteList(use_spatial_hash=True)
    moved: list[arcade.Sprite] = []
    for i in range(40):
        sprite = arcade.SpriteSolidColor(12, 6, *rng.uniform(0, 200, 2), angle=float(i))
        drawn.append(sprite)
        if i % 2:
            hashed.append(sprite)
        velocity = tuple(rng.uniform(-90, 90, 2)) if i % 4 else None
        world.add_sprite(sprite, velocity=velocity, angular=float(i % 3) * 40.0)
        moved.append(sprite)
    twins = arcade.SpriteList(use_spatial_hash=True)
    twins.extend(arcade.SpriteSolidColor(12, 6, 0, 0) for _ in moved)
    for _ in range(20):
        world.step(DT)
    for sprite, twin in zip(moved, twins, strict=True):
        twin.position = sprite.position
        twin.angle = sprite.angle
        assert sprite.hit_box.get_adjusted_points() == twin.hit_box.get_adjusted_points()
        assert _buffer(drawn, sprite) == _expected_buffer(sprite)
    for sprite in hashed:
        assert _buffer(hashed, sprite) == _expected_buffer(sprite)
        probe = arcade.SpriteSolidColor(3, 3, *sprite.position)
        assert sprite in arcade.check_for_collision_with_list(probe, hashed)
    for i, sprite in enumerate(moved):
        for j, other in enumerate(moved):
            assert arcade.check_for_collision(sprite, other) == arcade.check_for_collision(
                twins[i], twins[j]
            )


def test_sprite_list_changes_between_steps_are_followed(world: CollisionWorld) -> None:
    first = arcade.SpriteList()
    a = arcade.SpriteSolidColor(4, 4, center_x=0, center_y=0)
    b = arcade.SpriteSolidColor(4, 4, center_x=50, center_y=0)
    first.extend([a, b])
    keeper = arcade.SpriteList()
    keeper.append(b)  # holds b in the world while it leaves the first list
    world.add_sprite(a, velocity=(60, 0))
    world.add_sprite(b, velocity=(0, 60))
    world.step(DT)
    second = arcade.SpriteList()
    second.append(a)  # a joins a list the world has not seen; nothing else changes
    world.step(DT)
    assert _buffer(second, a) == _expected_buffer(a)
    # b leaves the first list and a sprite outside the world takes its slot.
    slot = first.sprite_slot[b]
    first.remove(b)
    outsider = arcade.SpriteSolidColor(4, 4, center_x=-77, center_y=-77)
    first.append(outsider)
    assert first.sprite_slot[outsider] == slot
    for _ in range(2):
        world.step(DT)
    assert _buffer(second, a) == _expected_buffer(a) and _buffer(first, a) == _expected_buffer(a)
    assert _buffer(first, outsider) == _expected_buffer(outsider)
    first.append(b)
    world.step(DT)
    assert _buffer(first, b) == _expected_buffer(b)
    first.clear(deep=False)  # a and b still name the list but have no slot in it
    newcomer = arcade.SpriteSolidColor(4, 4, center_x=-5, center_y=-5)
    first.append(newcomer)  # takes a slot a or b had before the clear
    world.step(DT)
    assert _buffer(first, newcomer) == _expected_buffer(newcomer)
    assert a.center_x == pytest.approx(6.0) and b.center_y == pytest.approx(6.0)


class _Snapping(arcade.SpriteSolidColor):
    """Stores its position floored to whole pixels: not what it was given."""

    @property
    def position(self) -> tuple[float, float]:
        return self._position

    @position.setter
    def position(self, value: tuple[float, float]) -> None:
        snapped = (float(math.floor(value[0])), float(math.floor(value[1])))
        arcade.SpriteSolidColor.position.fset(self, snapped)  # type: ignore[attr-defined]


def test_a_sprite_whose_setter_changes_the_value_is_read_back(world: CollisionWorld) -> None:
    snapping = _Snapping(4, 4, center_x=0, center_y=0)
    world.add_sprite(snapping, velocity=(30, 0))  # half a pixel a tick
    for _ in range(6):
        world.step(DT)
    # Every tick the world writes 0.5 through the setter, which keeps 0.0; the world
    # takes 0.0 at once, so its poses and the Position component agree with the sprite.
    assert snapping.position == (0.0, 0.0)
    xy, _ = world.poses()
    assert xy.tolist() == [[0.0, 0.0]]
    previous = esper.current_world
    esper.switch_world(world.name)
    position = esper.component_for_entity(world.entity(snapping), Position)
    esper.switch_world(previous)
    assert (position.x, position.y) == (0.0, 0.0)


def test_the_mirror_reports_only_real_moves() -> None:
    mirror = PoseMirror()
    sprites = [arcade.SpriteSolidColor(4, 4, center_x=i, center_y=0) for i in range(5)]
    for sprite in sprites:
        mirror.add([sprite])
    assert mirror.hand_moves().rows.size == 0
    sprites[3].angle = 90.0
    sprites[1].position = (1.0, 0.0)  # the same value: Arcade keeps the old tuple
    moves = mirror.hand_moves()
    assert moves.rows.tolist() == [3] and moves.angle.tolist() == [90.0]
    assert mirror.hand_moves().rows.tolist() == [3]  # nothing taken in yet
    mirror.accept(moves)
    assert mirror.hand_moves().rows.size == 0
    mirror.write(mirror.xy + np.array([0.0, 1.0]), mirror.angle.copy())
    assert [s.center_y for s in sprites] == [1.0] * 5
    assert mirror.hand_moves().rows.size == 0
    mirror.remove(0)
    assert mirror.sprites[0] is sprites[4] and mirror.xy[0].tolist() == [4.0, 1.0]


def test_a_sprite_given_a_new_lists_record_is_still_followed(world: CollisionWorld) -> None:
    first = arcade.SpriteList()
    sprite = arcade.SpriteSolidColor(4, 4, center_x=0, center_y=0)
    first.append(sprite)
    world.add_sprite(sprite, velocity=(60, 0))
    world.step(DT)
    assert isinstance(sprite.sprite_lists, list) and sprite.sprite_lists == [first]
    # Game code replacing the record: later joins go to a plain list the world did not set up.
    sprite.sprite_lists = list(sprite.sprite_lists)
    world.step(DT)
    second = arcade.SpriteList()
    second.append(sprite)
    for _ in range(2):
        world.step(DT)
    assert sprite.center_x == pytest.approx(4.0)
    assert _buffer(second, sprite) == _expected_buffer(sprite)
    assert _buffer(first, sprite) == _expected_buffer(sprite)


def test_a_position_list_changed_in_place_is_a_move(world: CollisionWorld) -> None:
    sprite = arcade.SpriteSolidColor(4, 4, center_x=0, center_y=0)
    world.add_sprite(sprite)  # static: the world never writes its position
    sprite.position = [10.0, 0.0]  # Arcade keeps the list it is given
    world.step(DT)
    sprite.position[0] = 20.0  # changed in place: no new object to notice
    world.step(DT)
    assert world.poses()[0].tolist() == [[20.0, 0.0]]


def test_a_new_lists_record_is_noticed_after_a_tick_without_writes(
    world: CollisionWorld,
) -> None:
    first = arcade.SpriteList()
    sprite = arcade.SpriteSolidColor(4, 4, center_x=0, center_y=0)
    first.append(sprite)
    world.add_sprite(sprite, velocity=(60, 0))
    world.step(DT)  # writes: the sprite lists' rows are cached
    world.set_velocity(sprite, 0, 0)
    world.step(DT)  # writes nothing
    sprite.sprite_lists = list(sprite.sprite_lists)
    second = arcade.SpriteList()
    second.append(sprite)  # not counted: the record is a plain list now
    world.set_velocity(sprite, 60, 0)
    world.step(DT)
    assert sprite.center_x == pytest.approx(2.0)
    assert _buffer(second, sprite) == _expected_buffer(sprite)


def test_many_hand_moves_switch_to_reading_everything_and_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past a quarter of the sprites moved by hand, every pose is read; then the log again
    (the touch log's rule: here even 40 sprites use it)."""
    monkeypatch.setattr(pose_mirror, "SMALL_WORLD", 0)
    mirror = PoseMirror()
    sprites = [arcade.SpriteSolidColor(4, 4, center_x=i, center_y=0) for i in range(40)]
    for sprite in sprites:
        mirror.add([sprite])
    for tick in range(1, 6):
        movers = sprites if tick < 3 else sprites[:3]
        for sprite in movers:
            sprite.center_y = float(tick)
        moves = mirror.hand_moves()
        assert moves.rows.tolist() == [sprites.index(s) for s in movers], tick
        # Ticks 1 and 2 moved all 40: tick 2 reads every pose, tick 3 too (3 moves).
        assert (moves.read is None) == (tick in (2, 3)), tick
        mirror.accept(moves)
        assert [s.center_y for s in sprites] == mirror.xy[:, 1].tolist()
    assert mirror.hand_moves().rows.size == 0


def test_logged_moves_and_rows_read_every_time_are_read_together(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A slow sprite (its class's own setter) is read at every read, besides the rows
    the log reports: moved alone, with fast ones, or not at all."""
    monkeypatch.setattr(pose_mirror, "SMALL_WORLD", 0)
    mirror = PoseMirror()
    sprites = [arcade.SpriteSolidColor(4, 4, center_x=i, center_y=0) for i in range(12)]
    slow = _Snapping(4, 4, center_x=20, center_y=0)
    sprites.insert(5, slow)
    mirror.add(sprites)
    mirror.accept(mirror.hand_moves())
    for tick, movers in enumerate(([sprites[1], sprites[9]], [slow], [slow, sprites[0]], []), 1):
        for sprite in movers:
            sprite.center_y = float(tick) + 0.5
        moves = mirror.hand_moves()
        assert moves.read is not None and 5 in moves.read.tolist(), tick
        assert moves.rows.tolist() == sorted(sprites.index(s) for s in movers), tick
        mirror.accept(moves)
        assert mirror.xy.tolist() == [list(s.position) for s in sprites], tick
        assert not mirror._log, tick


def test_a_sprite_in_two_worlds_reports_its_hand_moves_to_both() -> None:
    first, second = CollisionWorld(), CollisionWorld()
    try:
        sprite = arcade.SpriteSolidColor(4, 4, center_x=0, center_y=0)
        first.add_sprite(sprite)
        second.add_sprite(sprite)
        first.step(DT)
        second.step(DT)
        sprite.position = (10.0, 20.0)
        first.step(DT)
        sprite.angle = 30.0  # the record was re-armed by the first world's read
        second.step(DT)
        first.step(DT)
        assert first.poses()[0].tolist() == [[10.0, 20.0]] == second.poses()[0].tolist()
        assert first.poses()[1].tolist() == [30.0] == second.poses()[1].tolist()
        first.remove_sprite(sprite)
        sprite.center_x = 50.0
        second.step(DT)
        assert second.poses()[0].tolist() == [[50.0, 20.0]]
    finally:
        first.close()
        second.close()


def test_a_sprite_moved_by_one_world_is_seen_moving_by_another() -> None:
    mover, hits = CollisionWorld(), CollisionWorld()
    try:
        ship = arcade.SpriteSolidColor(10, 10, center_x=0, center_y=0)
        wall = arcade.SpriteSolidColor(10, 10, center_x=100, center_y=0)
        mover.add_sprite(ship, velocity=(60, 0), angular=30)
        hits.add_sprite(ship)
        hits.add_sprite(wall)
        for _ in range(100):
            mover.step(DT)
            hits.step(DT)
            assert hits.poses()[0][0].tolist() == list(ship.position)
            assert hits.poses()[1][0] == ship.angle
        assert [(a, b) for a, b, _ in hits.contacts()] == [(ship, wall)]
    finally:
        mover.close()
        hits.close()


def test_a_hand_move_made_in_a_collision_handler_is_taken_in(world: CollisionWorld) -> None:
    class Bouncer(arcade.SpriteSolidColor):
        def on_collision_start(self, other: arcade.Sprite, contact: object) -> None:
            self.position = (-100.0, 0.0)

    bouncer = Bouncer(4, 4, center_x=0, center_y=0)
    wall = arcade.SpriteSolidColor(4, 4, center_x=10, center_y=0)
    world.add_sprite(bouncer, velocity=(240, 0))
    world.add_sprite(wall)
    for _ in range(3):
        world.step(DT)
    # Moved back by its handler on the tick it hit, then 4 px per tick from there.
    assert bouncer.position == pytest.approx((-96.0, 0.0))
    assert world.poses()[0][0].tolist() == pytest.approx([-96.0, 0.0])


class _Silent(arcade.SpriteSolidColor):
    """Overrides the position setter without telling its sprite lists."""

    @property
    def position(self) -> tuple[float, float]:
        return self._position

    @position.setter
    def position(self, value: tuple[float, float]) -> None:
        self._position = value
        self._hit_box.position = value


def test_a_sprite_whose_setter_skips_its_lists_is_still_read(world: CollisionWorld) -> None:
    silent = _Silent(4, 4, center_x=0, center_y=0)
    world.add_sprite(silent)
    world.step(DT)
    silent.position = (30.0, 40.0)
    world.step(DT)
    assert world.poses()[0].tolist() == [[30.0, 40.0]]


def test_a_record_replaced_without_being_read_is_noticed_when_freed(
    world: CollisionWorld,
) -> None:
    first = arcade.SpriteList()
    sprite = arcade.SpriteSolidColor(4, 4, center_x=0, center_y=0)
    first.append(sprite)
    world.add_sprite(sprite)  # static: only the game moves it
    world.step(DT)
    sprite.sprite_lists = [first]  # a new record; the old one was never iterated
    sprite.position = (25.0, 5.0)  # reports nowhere: the new record is a plain list
    second = arcade.SpriteList()
    second.append(sprite)  # not counted either
    world.step(DT)
    assert world.poses()[0].tolist() == [[25.0, 5.0]]
    world.set_velocity(sprite, 60, 0)
    world.step(DT)
    assert sprite.position == pytest.approx((26.0, 5.0))
    assert _buffer(second, sprite) == _expected_buffer(sprite)
    sprite.position = (0.0, 0.0)  # the world watches the new record from now on
    world.step(DT)
    assert sprite.position == pytest.approx((1.0, 0.0))


def _hit_box_matches_setters(sprite: arcade.Sprite) -> bool:
    twin = arcade.SpriteSolidColor(int(sprite.width), int(sprite.height))
    twin.hit_box = arcade.hitbox.RotatableHitBox(sprite.hit_box.points, scale=sprite.scale)
    twin.position = sprite.position
    twin.angle = sprite.angle
    return sprite.hit_box.get_adjusted_points() == twin.hit_box.get_adjusted_points()


def test_hit_boxes_follow_their_sprites_and_new_ones_are_taken_up(world: CollisionWorld) -> None:
    from arcade_collide.arcade.following_boxes import FollowingHitBox

    sprite = arcade.SpriteSolidColor(10, 6, center_x=0, center_y=0)
    world.add_sprite(sprite, velocity=(60, 0), angular=30)
    # Arcade's own box until the world first writes poses back (queries only: never).
    assert type(sprite.hit_box) is arcade.hitbox.RotatableHitBox
    world.overlapping(sprite)
    assert type(sprite.hit_box) is arcade.hitbox.RotatableHitBox
    world.step(DT)
    assert type(sprite.hit_box) is FollowingHitBox
    later = arcade.SpriteSolidColor(4, 4, center_x=50, center_y=0)
    world.add_sprite(later)  # added after the first write: follows at once
    assert type(later.hit_box) is FollowingHitBox
    for _ in range(3):
        world.step(DT)
        assert _hit_box_matches_setters(sprite)
    # The game gives the sprite a new box: it is written, kept (same object), then follows.
    own = arcade.hitbox.RotatableHitBox(
        [(-2.0, -2.0), (2.0, -2.0), (2.0, 2.0), (-2.0, 2.0)],
        position=sprite.position, angle=sprite.angle,
    )
    sprite.hit_box = own
    world.step(DT)
    assert sprite.hit_box is own and type(own) is FollowingHitBox
    assert _hit_box_matches_setters(sprite)
    world.step(DT)
    assert _hit_box_matches_setters(sprite)
    del own  # nothing else holds the box, so replacing it frees it: noticed at once
    sprite.sync_hit_box_to_texture()
    world.step(DT)
    assert _hit_box_matches_setters(sprite)
    # A replaced box the game keeps alive is found by the turn-by-turn check.
    kept = sprite.hit_box
    sprite.sync_hit_box_to_texture()
    for _ in range(32):
        world.step(DT)
    assert kept is not sprite.hit_box and _hit_box_matches_setters(sprite)
    # Out of the world the box still shows the sprite's pose, moved by its setters.
    world.remove_sprite(sprite)
    sprite.position = (300.0, -40.0)
    sprite.angle = 75.0
    assert _hit_box_matches_setters(sprite)


class _OwnHitBox(arcade.hitbox.RotatableHitBox):
    """A game's own hit box class: not switched, written every tick."""


def test_a_hit_box_of_the_games_own_class_is_written_each_tick(world: CollisionWorld) -> None:
    sprite = arcade.SpriteSolidColor(10, 6, center_x=0, center_y=0)
    sprite.hit_box = _OwnHitBox(sprite.hit_box.points, position=sprite.position)
    world.add_sprite(sprite, velocity=(60, 30), angular=45)
    for _ in range(4):
        world.step(DT)
        assert type(sprite.hit_box) is _OwnHitBox
        assert _hit_box_matches_setters(sprite)
    probe = arcade.SpriteSolidColor(2, 2, *sprite.position)
    assert arcade.check_for_collision(probe, sprite)
    # Given a plain box instead, the sprite's box is written until the check finds it.
    sprite.hit_box = arcade.hitbox.RotatableHitBox(
        sprite.hit_box.points, position=sprite.position, angle=sprite.angle
    )
    for _ in range(32):
        world.step(DT)
        assert _hit_box_matches_setters(sprite)
    assert type(sprite.hit_box).__name__ == "FollowingHitBox"


def test_removing_sprites_leaves_no_bookkeeping_behind() -> None:
    mirror = PoseMirror()
    sprites = [arcade.SpriteSolidColor(4, 4, center_x=i, center_y=0) for i in range(6)]
    for sprite in sprites:
        mirror.add([sprite])
    for row in (5, 0, 2, 2, 1, 0):  # the last row, then swap-removes, down to none
        mirror.remove(row)
    assert len(mirror.sprites) == 0
    assert mirror._box_rows == {} and mirror._row_of_watcher == {} and mirror._log == {}

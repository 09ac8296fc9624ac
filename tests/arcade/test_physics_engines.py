"""The drop-in engines: Arcade 3.3's API, exact stops, Arcade's collision rule
(touching is not a collision), list following, jumps, ladders, platforms, ramps."""

from __future__ import annotations

import inspect
import math
import random
from typing import Any

import arcade
import PIL.Image
import pytest

from arcade_collide.arcade import PhysicsEnginePlatformer, PhysicsEngineSimple, engine_world
from arcade_collide.geometry.query.dispatch import contact

PAIRS = [
    (arcade.PhysicsEngineSimple, PhysicsEngineSimple),
    (arcade.PhysicsEnginePlatformer, PhysicsEnginePlatformer),
]


def box(x: float, y: float, w: float = 32, h: float = 32) -> arcade.SpriteSolidColor:
    return arcade.SpriteSolidColor(int(w), int(h), center_x=x, center_y=y)


def floor(*sprites: arcade.Sprite, count: int = 20) -> arcade.SpriteList[Any]:
    """A row of 32 px tiles with their tops at y = 0, from x = 0, and ``sprites``."""
    walls: arcade.SpriteList[Any] = arcade.SpriteList(use_spatial_hash=True)
    walls.extend([box(32 * i, -16) for i in range(count)])
    walls.extend(sprites)
    return walls


def ramp(x: float, y: float) -> arcade.Sprite:
    """A 64 px tile whose hit box is a 45 degree slope rising to the right."""
    texture = arcade.Texture(
        PIL.Image.new("RGBA", (64, 64), (200, 120, 40, 255)),
        hit_box_points=((-32.0, -32.0), (32.0, -32.0), (32.0, 32.0)),
    )
    return arcade.Sprite(texture, center_x=x, center_y=y)


def test_same_public_names_and_signatures_as_arcade() -> None:
    for theirs, ours in PAIRS:
        names = {n for n in dir(theirs) if not n.startswith("_")}
        assert names <= set(dir(ours))
        assert inspect.signature(ours.__init__).parameters.keys() == (
            inspect.signature(theirs.__init__).parameters.keys()
        )
        for name in names:
            a, b = inspect.getattr_static(theirs, name), inspect.getattr_static(ours, name)
            if isinstance(a, property):
                assert isinstance(b, property) and (b.fset, b.fdel) != (None, None), name
            elif callable(a):
                pa, pb = inspect.signature(a).parameters, inspect.signature(b).parameters
                assert [(p.name, p.default) for p in pa.values()] == [
                    (p.name, p.default) for p in pb.values()
                ], name
    engine = PhysicsEnginePlatformer(box(0, 100))
    assert (engine.gravity_constant, engine.jumps_since_ground) == (0.5, 0)
    assert (engine.allowed_jumps, engine.allow_multi_jump) == (1, False)


def test_list_properties_add_clear_and_delete_as_arcade() -> None:
    a, b = floor(), floor()
    for engine_type in (arcade.PhysicsEnginePlatformer, PhysicsEnginePlatformer):
        engine = engine_type(box(0, 100))
        for name in ("walls", "platforms", "ladders"):
            setattr(engine, name, a)
            setattr(engine, name, [b])
            assert getattr(engine, name) == [a, b]
            setattr(engine, name, None)
            assert getattr(engine, name) == []
            setattr(engine, name, a)
            delattr(engine, name)
            assert getattr(engine, name) == []


def test_resting_flush_is_not_a_collision_but_gravity_into_the_floor_is() -> None:
    player = box(100, 16)  # bottom flush on the floor's top
    engine = PhysicsEnginePlatformer(player, walls=floor(), gravity_constant=1)
    assert not engine.can_jump(0)
    assert engine.can_jump()
    for _ in range(100):
        hits = engine.update()
        assert player.bottom == 0.0 and player.center_x == 100
        assert sorted(s.center_x for s in hits) == [96, 128]  # pushed into, held flush
        assert player.change_y == 0.0
    assert not engine.can_jump(0) and engine.can_jump(1e-3)


def test_falling_lands_flush_where_arcade_lands_a_step_above() -> None:
    ours, theirs = box(100, 200.3), box(100, 200.3)
    engines = [PhysicsEnginePlatformer(ours, walls=floor()),
               arcade.PhysicsEnginePlatformer(theirs, walls=floor())]  # fmt: skip
    for _ in range(60):
        hits = [len(e.update()) for e in engines]
        assert hits[0] == hits[1]
    assert ours.bottom == pytest.approx(0.0, abs=1e-9)
    assert 0.0 <= theirs.bottom - ours.bottom <= 0.25


def test_walls_stop_the_player_flush_and_let_it_slide_along() -> None:
    wall = box(200, 100, 32, 200)
    walls: arcade.SpriteList[Any] = arcade.SpriteList()
    walls.append(wall)
    player = box(165.4, 100)
    engine = PhysicsEngineSimple(player, walls)
    player.change_x = 7
    assert engine.update() == [wall]
    assert player.right == pytest.approx(wall.left, abs=1e-9)
    player.change_x, player.change_y = 0, 5  # flush beside the wall: slides freely
    for _ in range(5):
        assert engine.update() == []
    assert player.center_y == 125 and player.right == pytest.approx(wall.left, abs=1e-9)


def test_walking_over_a_flush_row_of_tiles_never_catches() -> None:
    player = box(40, 16)
    engine = PhysicsEnginePlatformer(player, walls=floor(count=40), gravity_constant=1)
    player.change_x = 5
    for tick in range(200):
        engine.update()
        assert player.center_x == 40 + 5 * (tick + 1) and player.bottom == 0.0


def test_the_game_adds_removes_and_replaces_walls() -> None:
    walls = floor()
    player = box(100, 16)
    engine = PhysicsEnginePlatformer(player, walls=walls, gravity_constant=1)
    engine.update()
    for sprite in [s for s in walls if 64 <= s.center_x <= 128]:
        sprite.remove_from_sprite_lists()
    engine.update()
    assert player.bottom < 0  # fell through the gap
    walls.append(box(100, player.bottom - 50))
    player.change_y = 0
    for _ in range(30):
        engine.update()
    assert player.bottom == pytest.approx(walls[-1].top, abs=1e-9)
    other = floor()
    engine.walls = None
    engine.walls.append(other)  # the game mutates the list of lists
    player.position = (300, 16)
    assert engine.update() != [] and player.bottom == pytest.approx(0.0, abs=1e-9)
    del engine.walls
    engine.update()
    assert player.bottom < 0


def test_multi_jump_counts_as_arcade() -> None:
    for engine_type in (arcade.PhysicsEnginePlatformer, PhysicsEnginePlatformer):
        player = box(100, 16)
        engine = engine_type(player, walls=floor())
        engine.enable_multi_jump(2)
        assert engine.can_jump()
        engine.jump(10)
        engine.update()
        assert engine.jumps_since_ground == 1 and engine.can_jump()
        engine.jump(10)
        engine.update()
        assert engine.jumps_since_ground == 2 and not engine.can_jump()
        engine.disable_multi_jump()
        assert (engine.allowed_jumps, engine.jumps_since_ground) == (1, 0)
        engine.increment_jump_counter()
        assert engine.jumps_since_ground == 0


def test_ladders_hold_the_player_and_are_never_hit() -> None:
    ladders: arcade.SpriteList[Any] = arcade.SpriteList()
    ladders.append(box(100, 100, 32, 200))
    player = box(100, 100)
    engine = PhysicsEnginePlatformer(player, walls=floor(), ladders=ladders)
    assert engine.is_on_ladder()
    for _ in range(10):
        assert engine.update() == []
    assert player.center_y == 100
    player.change_y = -5
    for _ in range(30):
        engine.update()
    assert player.bottom == pytest.approx(0.0, abs=1e-9) and engine.is_on_ladder()
    player.center_x = 300
    assert not engine.is_on_ladder()


def test_moving_platforms_bounce_and_carry_the_player_as_arcade() -> None:
    def scene(engine_type: Any) -> tuple[Any, arcade.Sprite, arcade.Sprite]:
        platform = box(100, 50, 96, 16)
        platform.change_x, platform.boundary_left, platform.boundary_right = 2, 40, 200
        platforms: arcade.SpriteList[Any] = arcade.SpriteList()
        platforms.append(platform)
        player = box(100, 74.0)
        return engine_type(player, platforms=platforms, walls=floor()), player, platform

    (ours, player, platform), (theirs, their_player, their_platform) = (
        scene(PhysicsEnginePlatformer), scene(arcade.PhysicsEnginePlatformer))  # fmt: skip
    speeds = set()
    for _ in range(150):
        assert len(ours.update()) == len(theirs.update())
        speeds.add(platform.change_x)
        assert platform.position == their_platform.position
        assert player.center_x == their_player.center_x
        assert 0 <= their_player.bottom - player.bottom <= 0.25
    assert player.bottom == pytest.approx(platform.top, abs=1e-9)
    assert speeds == {2, -2}  # bounced off its boundaries


def test_a_slope_lifts_the_player_by_the_exact_amount() -> None:
    slope = ramp(200, 32)  # rises from (168, 0) to (232, 64)
    player = box(140, 16)
    engine = PhysicsEnginePlatformer(player, walls=floor(slope), gravity_constant=1)
    player.change_x = 5
    heights = []
    for _ in range(14):
        engine.update()
        heights.append(player.bottom)
    on_slope = [(x, h) for x, h in zip(range(145, 215, 5), heights, strict=True) if x > 152]
    for x, h in on_slope:  # the player's right-bottom corner rides the slope
        assert h == pytest.approx(x + 16 - 168, abs=1e-6)


def test_rotation_into_a_wall_pushes_out() -> None:
    walls: arcade.SpriteList[Any] = arcade.SpriteList()
    walls.append(box(100, 100, 32, 200))
    player = box(125, 100, 10, 40)  # 4 px right of the wall; 40 px wide once turned
    engine = PhysicsEngineSimple(player, walls)
    player.change_angle = 90
    hits = engine.update()
    assert hits == [walls[0]]
    assert player.angle == 90 and player.center_y == 100
    assert player.center_x == pytest.approx(walls[0].right + 20, abs=1e-6)


@pytest.mark.parametrize("bad", [None, "player", arcade.SpriteList()])
def test_bad_player_sprite(bad: object) -> None:
    for engine_type in (PhysicsEngineSimple, PhysicsEnginePlatformer):
        with pytest.raises(TypeError, match=r"^player_sprite must be an arcade\.Sprite"):
            engine_type(bad)  # type: ignore[arg-type]


def test_bad_lists_name_the_argument_and_index() -> None:
    player = box(0, 0)
    with pytest.raises(TypeError, match=r"^walls\[1\] must be an arcade.SpriteList, got list$"):
        PhysicsEngineSimple(player, [floor(), [box(0, 0)]])  # type: ignore[list-item]
    engine = PhysicsEnginePlatformer(player)
    engine.ladders.append(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"^ladders\[0\] must be an arcade.SpriteList, got int$"):
        engine.update()
    with pytest.raises(ValueError, match="y_distance"):
        engine.can_jump(math.nan)
    with pytest.raises(TypeError, match="gravity_constant"):
        PhysicsEnginePlatformer(player, gravity_constant="1")  # type: ignore[arg-type]


def test_overlap_tests_agree_with_contact_at_random_poses() -> None:
    """The engine's bounds filter and packed poses give what ``contact`` gives, at
    poses on a 0.5 px grid (so many touch flush) and at every quarter turn and more."""
    walls = floor(ramp(200, 32), box(100, 40, 16, 48), count=10)
    world = engine_world.EngineWorld()
    world.sync([("walls", "wall", [walls])])
    player = box(0, 0, 24, 48)
    rng = random.Random(17)
    outcomes = set()
    for _ in range(400):
        player.angle = rng.choice([0, 0, 90, 180, 30, -45])
        player.position = (rng.randrange(120, 500) / 2, rng.randrange(-20, 200) / 2)
        shape = world.player_shape(player)
        pose = engine_world.pose_of(player)
        near = world.near(-100.0, -100.0, 400.0, 200.0)
        expected = []
        for other in near:
            found = contact(shape.shape, pose, other.shape, engine_world.pose_of(other.sprite))
            if found is not None and found.depth > engine_world.TOUCH:
                expected.append(other)
        assert engine_world.overlapping(shape, pose, near) == expected
        outcomes.add(bool(expected))
    assert outcomes == {True, False}
    world.close()


def test_a_tick_on_a_floor_tests_only_the_tiles_the_move_reaches(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = {"contact": 0, "cast": 0}

    def counted(name: str, kernel: Any) -> Any:
        def call(*args: Any) -> Any:
            calls[name] += 1
            return kernel(*args)

        return call

    monkeypatch.setattr(engine_world, "one_pair", counted("contact", engine_world.one_pair))
    monkeypatch.setattr(engine_world, "one_cast", counted("cast", engine_world.one_cast))
    walls = floor(*[box(32 * i, 16 + 32 * j) for i in (0, 5) for j in range(3)], count=6)
    player = box(64, 24, 24, 48)  # resting on one floor tile between two columns of tiles
    engine = PhysicsEnginePlatformer(player, walls=walls, gravity_constant=1)
    engine.update()
    calls.update(contact=0, cast=0)
    for _ in range(10):
        assert engine.update() == [walls[2]]  # gravity presses it into one floor tile
        assert player.bottom == pytest.approx(0.0, abs=1e-9)
    assert calls == {"contact": 10 * 3, "cast": 10 * 1}

"""Sprite lists and the world: every way a sprite leaves a list, registered lists,
static sprites, layers, and what a dropped level leaves behind."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable, Iterator
from typing import Any

import arcade
import esper
import pytest

from arcade_collide.arcade import CollisionWorld
from arcade_collide.arcade import arcade_internals as internals
from arcade_collide.ecs import Shape, Static
from arcade_collide.geometry.contact import Contact

DT = 1.0 / 60.0


class Recorder(arcade.SpriteSolidColor):
    """A sprite that records the events it receives."""

    def __init__(self, width: float, height: float, **kwargs: float) -> None:
        super().__init__(width, height, **kwargs)
        self.started: list[arcade.Sprite] = []
        self.ended: list[arcade.Sprite] = []

    def on_collision_start(self, other: arcade.Sprite, contact: Contact) -> None:
        self.started.append(other)

    def on_collision_end(self, other: arcade.Sprite) -> None:
        self.ended.append(other)


@pytest.fixture
def world() -> Iterator[CollisionWorld]:
    created = CollisionWorld()
    yield created
    created.close()


def _pile(count: int) -> tuple[arcade.SpriteList[Recorder], list[Recorder]]:
    """``count`` sprites all overlapping, in one list."""
    sprites = [Recorder(20, 20, center_x=2.0 * k) for k in range(count)]
    sprite_list: arcade.SpriteList[Recorder] = arcade.SpriteList()
    sprite_list.extend(sprites)
    return sprite_list, sprites


REMOVALS: dict[str, Callable[[arcade.SpriteList[Any], list[Recorder]], list[Recorder]]] = {
    "remove": lambda sl, s: [sl.remove(s[0]) or s[0]],
    "pop": lambda sl, s: [sl.pop(0)],
    "pop-last": lambda sl, s: [sl.pop()],
    "clear": lambda sl, s: [sl.clear() or sprite for sprite in s],
    "clear-shallow": lambda sl, s: [sl.clear(deep=False) or sprite for sprite in s],
    "kill": lambda sl, s: [s[1].kill() or s[1]],
    "remove-from-sprite-lists": lambda sl, s: [s[2].remove_from_sprite_lists() or s[2]],
    "item-assignment": lambda sl, s: [sl.__setitem__(0, Recorder(20, 20, center_x=900)) or s[0]],
}


@pytest.mark.parametrize("registered", [False, True], ids=["add_sprite", "add_sprite_list"])
@pytest.mark.parametrize("how", list(REMOVALS))
def test_each_way_of_leaving_a_list_takes_the_sprite_out(
    world: CollisionWorld, how: str, registered: bool
) -> None:
    sprite_list, sprites = _pile(10)
    if registered:
        world.add_sprite_list(sprite_list)
    else:
        for sprite in sprites:
            world.add_sprite(sprite)
    world.step(DT)
    assert len(world.contacts()) == 45
    gone = REMOVALS[how](sprite_list, sprites)
    stay = [s for s in sprites if s not in gone]
    assert all(s not in world for s in gone) and all(s in world for s in stay)
    assert len(world) == len(stay) + (how == "item-assignment" and registered)
    for sprite in gone:
        assert sorted(map(id, sprite.ended)) == sorted(id(s) for s in sprites if s is not sprite)
    assert len(world.contacts()) == len(stay) * (len(stay) - 1) // 2
    world.step(DT)
    assert all(not sprite.started[9:] for sprite in sprites)  # no new starts
    assert all(world.touching(s) == [o for o in stay if o is not s] for s in stay)


def test_after_clear_no_sprite_collides(world: CollisionWorld) -> None:
    sprite_list, sprites = _pile(10)
    for sprite in sprites:
        world.add_sprite(sprite)
    world.step(DT)
    sprite_list.clear()
    world.step(DT)
    assert len(world) == 0 and world.contacts() == []


def test_a_sprite_added_by_hand_stays_while_another_list_holds_it(world: CollisionWorld) -> None:
    drawn, enemies = arcade.SpriteList(), arcade.SpriteList()
    enemy = Recorder(20, 20)
    drawn.append(enemy)
    enemies.append(enemy)
    world.add_sprite(enemy)
    loner = Recorder(20, 20)  # in no list: only remove_sprite or kill() take it out
    world.add_sprite(loner)
    enemies.remove(enemy)
    assert enemy in world
    drawn.pop()
    assert enemy not in world and loner in world
    loner.kill()
    assert loner not in world


def test_a_registered_list_registers_its_sprites_now_and_later(world: CollisionWorld) -> None:
    rocks: arcade.SpriteList[Recorder] = arcade.SpriteList()
    rocks.append(Recorder(20, 20))
    world.add_sprite_list(rocks, kind="rock", velocity=(60, 0))
    ship = Recorder(20, 20, center_x=15)
    world.add_sprite(ship, kind="ship")
    hits: list[tuple[arcade.Sprite, arcade.Sprite]] = []
    world.on_collision("ship", "rock", start=lambda s, r, c: hits.append((s, r)))
    late = [Recorder(20, 20, center_x=x) for x in (200, 300, 400)]
    rocks.append(late[0])
    rocks.insert(0, late[1])
    rocks.extend([late[2]])
    assert all(sprite in world for sprite in late) and len(world) == 5
    assert world.velocity(late[1]) == (60.0, 0.0, 0.0)
    world.step(DT)
    assert hits == [(ship, rocks[1])]


def test_two_registered_lists_and_add_sprite(world: CollisionWorld) -> None:
    first, second = arcade.SpriteList(), arcade.SpriteList()
    both, by_hand = Recorder(20, 20), Recorder(20, 20, center_x=100)
    first.extend([both, by_hand])
    second.append(both)
    entity = world.add_sprite(by_hand, kind="hand")
    world.add_sprite_list(first, kind="first")
    world.add_sprite_list(second, kind="second")
    assert world.entity(by_hand) == entity  # kept its entity and options
    first.remove(both)
    assert both in world  # the second list still holds it
    second.remove(both)
    assert both not in world
    first.remove(by_hand)  # in no list any more: it leaves, like remove_from_sprite_lists
    assert by_hand not in world
    with pytest.raises(ValueError, match="already registered"):
        world.add_sprite_list(first)


def test_a_watched_list_keeps_its_class_and_attributes_and_closing_stops_the_watch() -> None:
    """A class switch or a new attribute would turn the list's attribute storage into a
    dictionary, which slows every Arcade setter call of its sprites."""
    world = CollisionWorld()
    sprite_list: arcade.SpriteList[Recorder] = arcade.SpriteList()
    sprite_list.append(Recorder(10, 10))
    attributes = set(vars(sprite_list))
    world.add_sprite_list(sprite_list)
    assert type(sprite_list) is arcade.SpriteList
    assert set(vars(sprite_list)) == attributes
    sprite_list.append(Recorder(10, 10))
    assert len(world) == 2
    world.close()
    sprite_list.append(Recorder(10, 10))
    assert len(world) == 0


def test_a_subclass_of_sprite_list_is_heard_through_its_super_calls() -> None:
    class Counting(arcade.SpriteList[Recorder]):
        def __init__(self) -> None:
            super().__init__()
            self.appended = 0

        def append(self, sprite: Recorder) -> None:
            self.appended += 1
            super().append(sprite)

    world = CollisionWorld()
    first, second = Counting(), Counting()
    world.add_sprite_list(first, kind="first")
    world.add_sprite_list(second, kind="second")
    sprite = Recorder(10, 10)
    first.append(sprite)
    second.append(sprite)
    assert type(first) is Counting and first.appended == 1
    assert sprite in world
    first.remove(sprite)
    assert sprite in world  # still in the second list
    second.pop()
    assert sprite not in world
    world.close()


def test_a_list_closed_or_freed_leaves_no_entry_behind() -> None:
    world = CollisionWorld()
    sprite_list: arcade.SpriteList[Recorder] = arcade.SpriteList()
    world.add_sprite_list(sprite_list)
    key = id(sprite_list)
    assert key in internals._LIST_LISTENERS
    world.close()
    assert key not in internals._LIST_LISTENERS

    class Listener:
        def joined_list(self, sprite_list: object) -> None:
            pass

        def list_changed(self, sprite_list: object, left: list[Any], joined: list[Any]) -> None:
            pass

    freed: arcade.SpriteList[Recorder] = arcade.SpriteList()
    internals.watch_list(freed, Listener())
    key = id(freed)
    del freed
    gc.collect()
    assert key not in internals._LIST_LISTENERS


def test_a_sprite_that_cannot_be_added_leaves_the_list_as_it_was(world: CollisionWorld) -> None:
    sprite_list: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
    world.add_sprite_list(sprite_list)
    with pytest.raises(ValueError, match="zero size"):
        sprite_list.append(arcade.SpriteSolidColor(0, 0))
    assert len(sprite_list) == 0 and len(world) == 0
    sprite_list.append(arcade.SpriteSolidColor(4, 4))
    assert len(world) == 1


def test_static_sprites_never_meet_each_other(world: CollisionWorld) -> None:
    tiles = [Recorder(32, 32, center_x=30.0 * k) for k in range(4)]
    for tile in tiles:
        world.add_sprite(tile, static=True)
    mover = Recorder(10, 10, center_x=15, center_y=40)
    world.add_sprite(mover, velocity=(0, -600))
    world.step(DT)
    world.step(DT)
    assert all(not tile.started or tile.started == [mover] for tile in tiles)
    assert sorted(map(id, mover.started)) == sorted(map(id, tiles[:2]))
    with esper_world(world):
        assert all(esper.has_component(world.entity(t), Static) for t in tiles)
    # A static sprite moved by hand collides where it is now.
    tiles[3].position = (15.0, 200.0)
    lone = Recorder(10, 10, center_x=15, center_y=210)
    world.add_sprite(lone)
    world.step(DT)
    assert world.touching(lone) == [tiles[3]]
    tiles[3].position = (500.0, 500.0)
    world.step(DT)
    assert lone.ended == [tiles[3]]
    with pytest.raises(ValueError, match="static sprite cannot have a velocity"):
        world.set_velocity(tiles[0], 1, 0)


def esper_world(world: CollisionWorld) -> Any:
    return world._in_world()


def test_set_layers_filters_pairs(world: CollisionWorld) -> None:
    a, b = Recorder(20, 20), Recorder(20, 20, center_x=5)
    world.add_sprite(a, layer=0b01)
    world.add_sprite(b, layer=0b10)
    world.step(DT)
    assert world.touching(a) == [b]
    world.set_layers(b, mask=0b10)
    world.step(DT)
    assert a.ended == [b]
    world.set_layers(b, layer=0b01, mask=0b01)
    world.step(DT)
    assert len(a.started) == 2
    layers: list[int] = []
    world.on_layers(0b01, 0b01, end=lambda x, y: layers.append(1))
    world.set_layers(a, layer=0b100)
    world.step(DT)
    assert a.ended == [b, b] and layers == []  # a is no longer on layer 1


def test_a_same_size_texture_swap_rebuilds_nothing(world: CollisionWorld) -> None:
    sprite = arcade.Sprite(arcade.make_soft_square_texture(16, (255, 0, 0)))
    other = arcade.make_soft_square_texture(16, (0, 255, 0), name="b14-other")
    world.add_sprite(sprite, hull=False)
    hull = arcade.Sprite(arcade.make_soft_square_texture(16, (0, 0, 255)), center_x=100)
    world.add_sprite(hull, hull=True)
    world.step(DT)
    with esper_world(world):
        shapes = [esper.component_for_entity(world.entity(s), Shape) for s in (sprite, hull)]
    geometries = [shape.geometry for shape in shapes]
    sprite.texture = other
    hull.texture = other  # Arcade keeps the hit box: the hull stays
    world.step(DT)
    assert [shape.geometry for shape in shapes] == geometries
    assert all(new is old for new, old in zip(world.shapes(), geometries, strict=True))
    sprite.scale = 2.0
    world.step(DT)
    with esper_world(world):
        assert esper.component_for_entity(world.entity(sprite), Shape) is shapes[0]
    assert shapes[0].geometry.width == 32.0  # type: ignore[union-attr]


def test_touching_follows_starts_ends_and_removals(world: CollisionWorld) -> None:
    sprite_list, sprites = _pile(5)
    world.add_sprite_list(sprite_list)
    world.step(DT)
    assert world.touching(sprites[0]) == sprites[1:]
    sprites[2].position = (1000.0, 0.0)
    world.step(DT)
    assert world.touching(sprites[0]) == [sprites[1], sprites[3], sprites[4]]
    sprites[3].kill()
    assert world.touching(sprites[0]) == [sprites[1], sprites[4]]
    assert world.touching(sprites[2]) == []


def _level(player: arcade.Sprite, size: int) -> tuple[CollisionWorld, list[weakref.ref[Any]]]:
    """A level of ``size`` sprites around ``player``, stepped a few times."""
    world = CollisionWorld()
    world.add_sprite(player, velocity=(30, 0))
    tiles: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
    for k in range(size):
        tiles.append(arcade.SpriteSolidColor(8, 8, center_x=4.0 * (k % 50), center_y=k // 50))
    world.add_sprite_list(tiles, static=True)
    for _ in range(3):
        player.center_y += 1
        world.step(DT)
    # Hand moves after the last step: the level's touch log holds their records (and so
    # their lists and every tile) and the player's record names that log.
    player.center_y += 1
    tiles[0].center_x += 1
    return world, [weakref.ref(tile) for tile in tiles]


def test_a_dropped_level_frees_its_sprites_while_the_player_lives_on() -> None:
    player = arcade.SpriteSolidColor(20, 20)
    players: arcade.SpriteList[arcade.Sprite] = arcade.SpriteList()
    players.append(player)
    kept = []
    for _ in range(5):
        world, refs = _level(player, 300)
        assert world.touching(player)
        del world
        kept.append(refs)
    gc.collect()
    assert sum(ref() is not None for refs in kept for ref in refs) == 0
    CollisionWorld().close()  # deletes the dropped worlds' esper worlds
    assert len(player.physics_engines) <= 1


@pytest.mark.parametrize("private", [True, False], ids=["private-fields", "public-api-only"])
def test_list_removals_work_with_and_without_private_fields(private: bool) -> None:
    from arcade_collide.arcade import arcade_internals as internals

    internals.use_private_fields(private and internals.version_tested(arcade.version.VERSION))
    try:
        world = CollisionWorld()
        sprite_list, sprites = _pile(4)
        world.add_sprite(sprites[0])
        world.add_sprite_list(sprite_list)
        world.step(DT)
        sprite_list.pop()
        sprite_list.remove(sprites[0])
        world.step(DT)
        assert set(world.sprites()) == set(sprites[1:3]) and len(world.contacts()) == 1
        world.close()
    finally:
        internals.use_private_fields(internals.version_tested(arcade.version.VERSION))


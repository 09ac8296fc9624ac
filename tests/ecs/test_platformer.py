"""The Platformer component and PlatformerSystem: fields, errors, and what the system
reads and writes (supports and ladders from stand-ins of the response and collisions)."""

from __future__ import annotations

import math
from typing import NamedTuple

import esper
import numpy as np
import pytest

from arcade_collide import Ladder, Platformer, PlatformerSystem, Position, Rect, Shape, Velocity

DT = 1 / 64


class Supports(NamedTuple):
    entity: np.ndarray
    normal: np.ndarray
    velocity: np.ndarray


class StandIn:
    """Supports and touching pairs the test sets, as the response and collisions give."""

    def __init__(self) -> None:
        self.floor: dict[int, tuple[int, tuple[float, float], tuple[float, float]]] = {}
        self.pairs: list[tuple[int, int]] = []
        self.asked: list[list[int]] = []

    def supports(self, entities: object) -> Supports:
        wanted = np.asarray(entities).tolist()
        self.asked.append(wanted)
        rows = [self.floor.get(e, (-1, (0.0, 0.0), (0.0, 0.0))) for e in wanted]
        return Supports(
            np.array([r[0] for r in rows], dtype=np.int64),
            np.array([r[1] for r in rows], dtype=np.float64).reshape(-1, 2),
            np.array([r[2] for r in rows], dtype=np.float64).reshape(-1, 2),
        )

    def touching(self) -> list[tuple[int, int]]:
        return list(self.pairs)


def character(**tuning: float) -> tuple[int, Platformer, Velocity]:
    control, speed = Platformer(**tuning), Velocity(0, 0)
    entity = esper.create_entity(Position(0, 0), speed, Shape(Rect(20, 40)), control)
    return entity, control, speed


def system() -> tuple[StandIn, PlatformerSystem]:
    stand_in = StandIn()
    processor = PlatformerSystem(stand_in, stand_in)
    esper.add_processor(processor)
    return stand_in, processor


def test_defaults_are_the_arcade_tutorial_values_at_60_ticks_a_second() -> None:
    control = Platformer()
    assert repr(control) == (
        "Platformer(gravity=3600.0, run_speed=300.0, jump_speed=1200.0, coyote_time=0.1, "
        "jump_buffer=0.1, max_jumps=1, ladder_speed=300.0, max_floor_angle=46.0)"
    )
    assert (control.move, control.jump, control.climb) == (0.0, False, 0.0)
    assert (control.on_ground, control.on_ladder, control.jumps_used) == (False, False, 0)
    assert control.air_time == 0.0 and control.jump_press_age == math.inf
    assert control.can_jump


@pytest.mark.parametrize(
    ("field", "value", "error", "message"),
    [
        ("gravity", -1.0, ValueError, "Platformer.gravity must be at least 0, got -1.0"),
        ("run_speed", "fast", TypeError, "Platformer.run_speed must be a real number"),
        ("jump_speed", math.nan, ValueError, "Platformer.jump_speed must be finite"),
        ("max_jumps", 1.5, TypeError, "Platformer.max_jumps must be an int, got float"),
        ("max_jumps", -1, ValueError, "Platformer.max_jumps must be at least 0, got -1"),
        ("max_floor_angle", 90, ValueError, "Platformer.max_floor_angle must be at least 0 "
                                            "and below 90 degrees, got 90"),
        ("move", 1.5, ValueError, "Platformer.move must be between -1 and 1, got 1.5"),
        ("climb", -2, ValueError, "Platformer.climb must be between -1 and 1, got -2"),
        ("jump", 1, TypeError, "Platformer.jump must be a bool, got int"),
    ],
)  # fmt: skip
def test_bad_values_raise_naming_the_field(
    field: str, value: object, error: type[Exception], message: str
) -> None:
    control = Platformer()
    with pytest.raises(error, match=message.replace("(", r"\(")):
        setattr(control, field, value)
    if field not in ("move", "climb", "jump"):
        with pytest.raises(error, match=message.replace("(", r"\(")):
            Platformer(**{field: value})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "field", ["on_ground", "on_ladder", "jumps_used", "air_time", "jump_press_age"]
)
def test_state_is_read_only(field: str) -> None:
    with pytest.raises(AttributeError, match=f"Platformer.{field} is state the "):
        setattr(Platformer(), field, 0)


def test_the_system_turns_input_and_supports_into_velocity() -> None:
    stand_in, _ = system()
    entity, control, speed = character(gravity=2048.0, run_speed=128.0, jump_speed=640.0)
    other, _, still = character(gravity=2048.0)
    stand_in.floor[entity] = (99, (0.0, 1.0), (10.0, 0.0))
    control.move = 1.0
    esper.process(DT)
    assert (speed.x, speed.y) == (138.0, -32.0)
    assert (still.x, still.y) == (0.0, -32.0)  # no support: falls
    assert control.on_ground and control.can_jump
    assert stand_in.asked == [[entity, other]]
    control.jump = True
    esper.process(DT)
    assert (speed.x, speed.y) == (128.0, 640.0) and not control.jump
    assert control.jumps_used == 1 and not control.can_jump and not control.on_ground


def test_ladders_are_read_from_the_touching_pairs() -> None:
    stand_in, _ = system()
    entity, control, speed = character(gravity=2048.0, ladder_speed=64.0)
    ladder = esper.create_entity(Position(0, 0), Shape(Rect(10, 100)), Ladder())
    far, far_control, _ = character()
    control.climb = far_control.climb = 1.0
    stand_in.pairs = [(entity, ladder), (entity, far)]
    esper.process(DT)
    assert control.on_ladder and (speed.x, speed.y) == (0.0, 64.0)
    assert not far_control.on_ladder
    stand_in.pairs = [(far, ladder)]
    esper.process(DT)
    assert not control.on_ladder and far_control.on_ladder


def test_a_platformer_without_velocity_raises_naming_the_entity() -> None:
    system()
    character()
    lonely = esper.create_entity(Position(0, 0), Platformer())
    with pytest.raises(ValueError, match=f"entity {lonely}: a Platformer needs a Velocity"):
        esper.process(DT)


def test_one_platformer_on_two_entities_raises_naming_the_second() -> None:
    system()
    first, control, _ = character()
    second = esper.create_entity(Position(0, 0), Velocity(0, 0), control)
    with pytest.raises(ValueError, match=f"entity {second}: its Platformer is also entity {first}"):
        esper.process(DT)


def test_bad_systems_and_dt_raise() -> None:
    stand_in = StandIn()
    with pytest.raises(TypeError, match="response must have a supports"):
        PlatformerSystem(object(), stand_in)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="collisions must have a touching"):
        PlatformerSystem(stand_in, object())  # type: ignore[arg-type]
    processor = PlatformerSystem(stand_in, stand_in)
    with pytest.raises(TypeError, match="dt"):
        processor.process("1")  # type: ignore[arg-type]


def test_components_made_in_several_worlds_keep_their_own_rows() -> None:
    system()
    _, control, speed = character(gravity=2048.0)
    current = esper.current_world
    esper.switch_world("platformer-other")
    try:
        elsewhere = Platformer(gravity=1.0)
    finally:
        esper.switch_world(current)
        esper.delete_world("platformer-other")
    moved = esper.create_entity(Position(0, 0), Velocity(0, 0), elsewhere)
    esper.process(DT)
    assert speed.y == -32.0
    assert esper.component_for_entity(moved, Velocity).y == -1.0 / 64
    assert control.gravity == 2048.0 and elsewhere.gravity == 1.0

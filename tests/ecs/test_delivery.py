"""Delivery's count of the events handed, and its drop check, with one handler and with
several (each has its own loop)."""

from __future__ import annotations

from typing import NamedTuple

import esper
import pytest

from arcade_collide.ecs.delivery import Delivery, Handler, HandlerChanges
from arcade_collide.ecs.esper_internals import PairGone, WorldWatch, pair_gone_check


class Pair(NamedTuple):
    a: int
    b: int


class Stop(BaseException):
    """Like KeyboardInterrupt: not caught by ``except Exception``."""


def _always() -> bool:
    return True


@pytest.mark.parametrize("handlers", [1, 2])
@pytest.mark.parametrize("stop_at", [0, 3, 9])
def test_a_base_exception_stops_the_run_and_handed_counts_the_events_begun(
    handlers: int, stop_at: int
) -> None:
    seen: list[int] = []

    def handler(event: int) -> None:
        seen.append(event)
        if event == stop_at:
            raise Stop

    delivery = Delivery()
    with pytest.raises(Stop):
        delivery.run(list(range(10)), [Handler(handler, _always)] * handlers, HandlerChanges())
    assert delivery.handed == stop_at + 1
    # The raise cuts the event's delivery short too: the later handlers miss it.
    assert seen == [k for k in range(stop_at) for _ in range(handlers)] + [stop_at]


@pytest.mark.parametrize("handlers", [1, 2])
def test_a_whole_run_hands_every_event_and_an_empty_one_none(handlers: int) -> None:
    delivery = Delivery()
    seen: list[int] = []
    delivery.run([4, 5, 6], [Handler(seen.append, _always)] * handlers, HandlerChanges())
    assert delivery.handed == 3
    delivery.run([], [Handler(seen.append, _always)] * handlers, HandlerChanges())
    assert delivery.handed == 0


@pytest.mark.parametrize("handlers", [1, 2])
def test_the_run_stops_after_the_call_that_ended_the_world(handlers: int) -> None:
    namespace: dict[str, object] = {"world": "kept"}
    watch = WorldWatch(namespace, "world", "kept", lambda: True)
    seen: list[int] = []

    def handler(event: int) -> None:
        seen.append(event)
        if event == 2:
            namespace["world"] = "replaced"

    delivery = Delivery()
    delivery.run(list(range(6)), [Handler(handler, _always)] * handlers, HandlerChanges(),
                 None, watch)
    assert delivery.world_ended and delivery.handed == 3
    # Not even the later handlers' calls for the event 2.
    assert seen == [k for k in range(2) for _ in range(handlers)] + [2]


@pytest.mark.parametrize("handlers", [1, 2])
@pytest.mark.parametrize("immediate", [False, True])
def test_an_event_naming_an_entity_a_handler_deleted_goes_to_no_handler(
    handlers: int, immediate: bool
) -> None:
    ids = [esper.create_entity() for _ in range(4)]
    events = [Pair(ids[0], ids[1]), Pair(ids[1], ids[2]), Pair(ids[2], ids[3])]
    seen: list[Pair] = []

    def handler(event: Pair) -> None:
        seen.append(event)
        if event == events[0] and len(seen) == 1:
            esper.delete_entity(ids[2], immediate=immediate)

    delivery = Delivery()
    delivery.run(events, [Handler(handler, _always)] * handlers, HandlerChanges(),
                 pair_gone_check())
    assert seen == [events[0]] * handlers
    assert delivery.dropped == events[1:] and delivery.handed == 3


def test_the_drop_check_without_esper_s_sets_asks_esper() -> None:
    ids = [esper.create_entity() for _ in range(2)]
    esper.delete_entity(ids[1], immediate=True)
    public = PairGone(esper.current_world, None, ())
    seen: list[Pair] = []
    delivery = Delivery()
    delivery.run([Pair(ids[0], ids[1]), Pair(ids[0], ids[0])], [Handler(seen.append, _always)],
                 HandlerChanges(), public)
    assert seen == [Pair(ids[0], ids[0])] and delivery.dropped == [Pair(ids[0], ids[1])]

"""The thin-walls shooter, played headless: swept bullets against a sub-stepped reference.

The scripted run (the example's own seed) is played twice, with swept bullets and
without. Each bullet flies a straight line from where it was fired until it stops at a
wall, so the reference re-simulates that line alone: it walks it in steps of
:data:`STEP` px (1/20 of the thinnest strip) with shapely, and the first step at which
the bullet's disc touches a wall is the wall it hits; every trigger it touched before
then is a crossing. The walls' polygons are built here from the example's strip list,
not taken from the world.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

import arcade
import numpy as np
import pytest
import shapely
from example_loader import load_example
from shapely.geometry import LineString, Point, Polygon

from arcade_collide.arcade import HeadlessRun, pixel_at
from arcade_collide.geometry.pose import Vec2

walls = load_example("thin_walls")

STEP = 0.05
"""Sub-step of the reference walk, px."""
RADIUS = walls.BULLET.radius
TICK = 1.0 / 60.0
SECONDS = 4.0


class Played(NamedTuple):
    game: Any
    run: HeadlessRun
    ends: dict[tuple[int, int], Vec2]
    """``(shot, tick) -> (x, y)``: where each bullet was at the end of each tick it
    flew (the impact point on the tick it hit a wall)."""
    left: list[tuple[int, int, int]]
    """``(shot, trigger, tick)``: each bullet-trigger end event."""


class Reference(NamedTuple):
    wall: int | None
    """The wall the bullet first touches within the run (None: still flying)."""
    distance: float
    """How far along its line it is then, px (the first touching sub-step)."""
    triggers: set[int]
    """The triggers it touches before that."""
    ambiguous: bool
    """The first touch is within a sub-step of the run's end or of a trigger's touch."""


def polygon(strip: Any) -> Polygon:
    """The strip's rectangle in the world, turned clockwise by its angle."""
    c, s = math.cos(math.radians(strip.angle)), math.sin(math.radians(strip.angle))
    hl, ht = strip.length / 2, strip.thickness / 2
    corners = [(-hl, -ht), (hl, -ht), (hl, ht), (-hl, ht)]
    return Polygon([(strip.x + lx * c + ly * s, strip.y - lx * s + ly * c) for lx, ly in corners])


WALLS = [polygon(strip) for strip in walls.WALLS]
TRIGGERS = [polygon(strip) for strip in walls.TRIGGERS]


def first_touch(start: np.ndarray, direction: np.ndarray, length: float,
                strip: Polygon) -> float | None:
    """The first sub-step (distance along the line) at which the bullet touches
    ``strip``, walking ``length`` px from ``start``; None if it never does."""
    line = LineString([start, start + direction * length])
    if line.distance(strip) > RADIUS + STEP:
        return None
    s = np.arange(0.0, length + STEP / 2, STEP)
    points = start + s[:, None] * direction
    x0, y0, x1, y1 = strip.bounds
    pad = RADIUS + STEP
    near = ((points[:, 0] >= x0 - pad) & (points[:, 0] <= x1 + pad)
            & (points[:, 1] >= y0 - pad) & (points[:, 1] <= y1 + pad))
    touching = np.flatnonzero(near)[shapely.distance(shapely.points(points[near]), strip)
                                    <= RADIUS]
    return float(s[touching[0]]) if len(touching) else None


def reference(shot: Any, ticks: int) -> Reference:
    """Walk a shot's line for as many ticks as it flew in a run of ``ticks``."""
    speed = math.hypot(shot.vx, shot.vy)
    direction = np.array([shot.vx, shot.vy]) / speed
    start = np.array([shot.x, shot.y])
    length = (ticks - shot.tick) * speed * TICK
    hits = [(d, i) for i, strip in enumerate(WALLS)
            if (d := first_touch(start, direction, length, strip)) is not None]
    distance, wall = min(hits) if hits else (length, None)
    ambiguous = wall is not None and distance > length - 2 * STEP
    triggers = set()
    for i, strip in enumerate(TRIGGERS):
        d = first_touch(start, direction, distance, strip)
        if d is not None:
            triggers.add(i)
            ambiguous |= abs(d - distance) < 2 * STEP
    return Reference(wall, distance, triggers, ambiguous)


def play(window: arcade.Window, swept: bool) -> Played:
    ends: dict[tuple[int, int], Vec2] = {}
    left: list[tuple[int, int, int]] = []

    def make() -> Any:
        game = walls.ThinWalls(swept=swept)
        game.world.on_collision("bullet", "trigger", end=lambda bullet, trigger: left.append(
            (int(bullet.properties["shot"]), int(trigger.properties["index"]), game.tick)
        ))
        return game

    def script(game: Any, tick: int) -> None:
        # The bullets' poses at the end of the last tick (the new tick fires next).
        ends.update(((int(b.properties["shot"]), tick - 1), b.position) for b in game.bullets)
        game.autopilot()

    game, run = walls.run_view(
        make, round(SECONDS * 60), window=window,
        before_tick=script, capture=swept, draw_every=round(SECONDS * 60),
    )
    ends.update(((int(b.properties["shot"]), run.ticks - 1), b.position) for b in game.bullets)
    ends.update(((hit.shot, hit.tick), hit.position) for hit in game.hits)
    return Played(game, run, ends, left)


@pytest.fixture(scope="module")
def swept(window: arcade.Window) -> Played:
    return play(window, swept=True)


@pytest.fixture(scope="module")
def plain(window: arcade.Window) -> Played:
    return play(window, swept=False)


def test_swept_bullets_report_every_hit_and_crossing_the_reference_finds(
    swept: Played,
) -> None:
    game = swept.game
    ticks = swept.run.ticks
    hits = {hit.shot: hit for hit in game.hits}
    assert len(hits) == len(game.hits)  # a bullet hits one wall and is gone
    crossed: dict[int, list[int]] = {}
    for crossing in game.crossings:
        crossed.setdefault(crossing.shot, []).append(crossing.trigger)
    checked = ambiguous = 0
    for number, shot in enumerate(game.shots):
        ref = reference(shot, ticks)
        if ref.ambiguous:
            ambiguous += 1
            continue
        checked += 1
        hit = hits.get(number)
        assert (hit.wall if hit else None) == ref.wall, number
        # Each trigger crossed exactly once (one start per crossing).
        assert sorted(crossed.get(number, [])) == sorted(ref.triggers), number
        if hit is None:
            continue
        # The tick of the hit holds the reference's first touch.
        per_tick = math.hypot(shot.vx, shot.vy) * TICK
        flown = hit.tick - shot.tick
        assert flown * per_tick <= ref.distance + STEP and ref.distance <= (flown + 1) * per_tick
        # Where the bullet stopped: on its line, at most one sub-step before the
        # reference's first touching sub-step.
        dx, dy = np.subtract(hit.position, (shot.x, shot.y))
        along = (dx * shot.vx + dy * shot.vy) / math.hypot(shot.vx, shot.vy)
        across = (dy * shot.vx - dx * shot.vy) / math.hypot(shot.vx, shot.vy)
        assert ref.distance - STEP - 1e-6 <= along <= ref.distance + 1e-6
        assert abs(across) <= 1e-6
    assert ambiguous <= 3 and checked >= 100
    assert len(game.hits) >= 100 and len(game.crossings) >= 50


def test_each_crossing_ends_once_in_its_tick_unless_the_bullet_stays_on(swept: Played) -> None:
    ends = {(shot, trigger): tick for shot, trigger, tick in swept.left}
    assert len(ends) == len(swept.left) == len(swept.game.crossings)
    same_tick = 0
    for crossing in swept.game.crossings:
        # A bullet still touching the trigger at the end of the tick leaves it the next
        # (it flies at least 33 px a tick); otherwise the end follows in the same tick.
        x, y = swept.ends[crossing.shot, crossing.tick]
        gap = TRIGGERS[crossing.trigger].distance(Point(x, y)) - RADIUS
        assert abs(gap) > 1e-6
        assert ends[crossing.shot, crossing.trigger] == crossing.tick + (gap < 0)
        same_tick += gap > 0
    assert same_tick >= len(swept.game.crossings) // 2


def test_impact_marks_are_where_the_bullets_touched_the_walls(swept: Played) -> None:
    game = swept.game
    assert [mark.position for mark in game.marks] == [hit.position for hit in game.hits]
    for hit in game.hits:
        wall = WALLS[hit.wall]
        # The mark is the bullet's centre: one radius from the wall's outline, which
        # holds the contact point.
        assert abs(wall.distance(Point(hit.position)) - RADIUS) <= 1e-6
        assert wall.exterior.distance(Point(hit.contact.point)) <= 1e-6
        assert hit.contact.depth == 0.0


def test_bullets_never_end_a_tick_beyond_a_wall(swept: Played) -> None:
    game = swept.game
    segments = shapely.linestrings(
        [[(game.shots[n].x, game.shots[n].y), end] for (n, _), end in swept.ends.items()]
    )
    assert len(segments) > 2 * len(game.shots)
    for wall in WALLS:
        assert shapely.distance(segments, wall).min() >= RADIUS - 1e-6


def test_without_sweeping_the_same_bullets_tunnel(swept: Played, plain: Played) -> None:
    assert [shot._replace(swept=True) for shot in plain.game.shots] == swept.game.shots
    seen = walls.compare(swept.game, plain.game)
    assert seen.wall_hits == len(swept.game.hits) and seen.crossings == len(swept.game.crossings)
    assert seen.wall_hits_seen < seen.wall_hits
    assert seen.crossings_seen < seen.crossings
    # Bullets that were not swept ended ticks beyond a wall, flying on.
    shots, hits = plain.game.shots, {(hit.shot, hit.tick) for hit in plain.game.hits}
    flown = shapely.linestrings([[(shots[n].x, shots[n].y), end]
                                 for (n, tick), end in plain.ends.items() if (n, tick) not in hits])
    assert sum(int(shapely.intersects(flown, wall).sum()) for wall in WALLS) > 0


def test_a_wall_and_impact_marks_are_drawn(swept: Played) -> None:
    game, image = swept.game, swept.run.image
    assert image is not None
    marks = [hit.position for hit in game.hits]
    # The bullets in flight and their streaks (drawn over the marks).
    streaks = [LineString([start, bullet.position]) for bullet, start in game.trail.items()]

    def clear(x: float, y: float, of: list[Vec2], gap: float) -> bool:
        return all(math.hypot(x - px, y - py) > gap for px, py in of)

    def unstreaked(x: float, y: float) -> bool:
        return all(streak.distance(Point(x, y)) > 8.0 for streak in streaks)

    # The 4 px wall along y = 150: its middle row, away from marks.
    strip = walls.WALLS[7]
    assert (strip.thickness, strip.angle) == (4, 0)
    wall_pixels = [(x, strip.y) for x in range(int(strip.x - 80), int(strip.x + 80), 5)
                   if clear(x, strip.y, marks, 6.0)]
    assert len(wall_pixels) >= 10
    for x, y in wall_pixels:
        assert pixel_at(image, x, y) == walls.WALL_COLOR[:3]
    # Marks drawn alone: the soft edge of an overlapping mark would tint the pixel.
    drawn = [(x, y) for i, (x, y) in enumerate(marks)
             if unstreaked(x, y) and clear(x, y, marks[:i] + marks[i + 1:], 7.0)]
    assert len(drawn) >= 30
    for x, y in drawn:
        assert pixel_at(image, x, y) == walls.MARK_COLOR[:3]


def test_the_mouse_aims_and_fires_and_s_turns_sweeping_off(window: arcade.Window) -> None:
    def player(game: Any, tick: int) -> None:
        if tick == 0:
            game.on_mouse_motion(400, 100, 0, 0)  # straight down: 15 ticks' turn
        if tick == 20:
            game.on_mouse_press(400, 100, arcade.MOUSE_BUTTON_LEFT, 0)
        if tick == 30:
            game.on_key_press(arcade.key.S, 0)
        if tick == 50:
            game.on_mouse_release(400, 100, arcade.MOUSE_BUTTON_LEFT, 0)

    game, _ = walls.run_view(walls.ThinWalls, 70, window=window, before_tick=player,
                             capture=False)
    assert game.turret.angle == 90.0  # clockwise: down
    fired = range(20, 50, walls.FIRE_TICKS)
    assert [shot.tick for shot in game.shots] == list(fired)
    assert [shot.swept for shot in game.shots] == [tick < 30 for tick in fired]
    assert all(shot.vx == 0.0 and shot.vy < 0.0 for shot in game.shots)
    # Straight down from the turret: the 3 px wall at y = 85 (turned 15 degrees), then
    # the frame. Every swept bullet hits the first; most of the others miss both.
    hits = [hit.wall for hit in game.hits]
    assert hits[:5] == [11] * 5 and set(hits) <= {0, 11}
    assert len(hits) < len(game.shots)

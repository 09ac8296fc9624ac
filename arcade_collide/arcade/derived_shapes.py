"""Derived collision shapes that follow their sprites' size and hit box.

A sprite added without an explicit shape gets one from
:func:`~.shapes_from_sprites.shape_for_sprite`, rebuilt when the sprite's width or
height changes, and for a hull (the default) also when the sprite is given a new hit
box or scale. A texture rectangle or circle (``hull=False``) depends on the size only,
and a hull on the hit box and scale (Arcade keeps the hit box when the texture
changes), so a texture swap that keeps the size rebuilds nothing. An explicit shape
is kept as given, so a game of explicit shapes pays nothing here.

A new hit box reports to no setter. It is found when the old box is freed (a weak
reference's callback: how ``hit_box = ...`` and ``sync_hit_box_to_texture()`` show
in CPython) and, for a game that keeps old boxes alive, by checking a few hulls in
turn each time the sprites are read (at each step, and at each world query that finds
some sprite touched since the last read): one in :data:`HULL_CHECK_STRIDE`, at most
:data:`HULL_CHECK_BUDGET`, so a read costs the same in a level of 100,000 tiles.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import arcade
import numpy as np
from numpy.typing import NDArray

from arcade_collide.arcade.arcade_internals import read_sizes, size_marks, size_of
from arcade_collide.arcade.handlers import Body
from arcade_collide.arcade.row_buffers import LISTED_ROWS, appended, swap_removed
from arcade_collide.arcade.shapes_from_sprites import shape_for_sprite
from arcade_collide.geometry.shapes import AnyShape

_Sizes = tuple[NDArray[np.intp], NDArray[np.float64], Any]
"""Rows read for a size check, their sizes, and the size marks."""

_MAX_SHAPES = 256
"""Hull shapes :meth:`DerivedShapes.shape_for` keeps before it starts afresh."""

HULL_CHECK_STRIDE = 32
"""Each read of the sprites (a step, or a query after a touch) compares the hit box of
one hull in this many (up to :data:`HULL_CHECK_BUDGET`) with the one its shape was built
from, so a replaced box that stays alive is found within this many reads in a world of
up to ``HULL_CHECK_STRIDE * HULL_CHECK_BUDGET`` hulls."""

HULL_CHECK_BUDGET = 64
"""The most hulls one read compares: in a larger world a replaced box that stays alive
is found within ``hulls / HULL_CHECK_BUDGET`` reads."""


class DerivedShapes:
    """The size each row's derived shape was built for, row for row with a world's
    bodies (swap-removed like them)."""

    def __init__(self) -> None:
        self._size: NDArray[np.float64] = np.zeros((0, 2))
        self._derived: NDArray[np.bool_] = np.zeros(0, dtype=np.bool_)
        self._hulls: list[Body] = []
        """Bodies with a derived hull shape, in the order the in-turn check visits."""
        self._hull_slot: dict[int, int] = {}
        """Each hull body's index in :attr:`_hulls`, by entity."""
        self._boxes: dict[int, weakref.ref[Any]] = {}
        """A weak reference to the hit box each hull was built from, by entity."""
        self._freed: list[int] = []
        """Entities whose hull's hit box was freed (appended by the weak references'
        callback, which holds this very list: it is emptied in place, never replaced)."""
        self._note_freed = _noting(self._freed)
        """The callback of every hit-box reference (one for all: a callback made per
        reference would be one more object per sprite for the garbage collector)."""
        self._turn = 0
        """Where in :attr:`_hulls` the next in-turn check starts."""
        self._marks: list[tuple[Any, Any]] | None = None
        """:func:`size_marks` of every row at the last size check (None: check in full)."""
        self._shapes: dict[tuple[Any, ...], tuple[Any, AnyShape]] = {}
        """Hull shapes by hit-box points (``id``, the points kept with the shape), scale
        and size: see :meth:`shape_for`."""

    def shape_for(self, sprite: arcade.Sprite, hull: bool) -> AnyShape:
        """``shape_for_sprite(sprite, hull=hull)``; for a hull, the one shape object of
        every sprite with the same hit-box points (Arcade shares them by texture),
        scale and size, built once (a shooter's bullets and rocks).

        Raises:
            ValueError: as :func:`~.shapes_from_sprites.shape_for_sprite`.
        """
        if not hull:
            return shape_for_sprite(sprite, hull=False)
        points = sprite.hit_box.points
        key = (id(points), sprite.scale, sprite.width, sprite.height)
        known = self._shapes.get(key)
        if known is not None and known[0] is points:
            return known[1]
        shape = shape_for_sprite(sprite, hull=True)
        if len(self._shapes) >= _MAX_SHAPES:
            self._shapes.clear()
        self._shapes[key] = (points, shape)
        return shape

    def add(self, bodies: list[Body], derived: list[bool]) -> None:
        """Append ``bodies`` as the last rows; ``derived[k]``: body ``k``'s shape
        follows its sprite."""
        for body, follows in zip(bodies, derived, strict=True):
            if body.hull and follows:
                self._watch(body)
                self._hull_slot[body.entity] = len(self._hulls)
                self._hulls.append(body)
        sprites = [body.sprite for body in bodies]
        # A few rows' sizes go in as a list (the float conversion is numpy's).
        sizes = list(map(size_of, sprites)) if len(sprites) <= LISTED_ROWS else read_sizes(sprites)
        self._size = appended(self._size, sizes)
        self._derived = appended(self._derived, derived)
        self._marks = None

    def remove(self, row: int, body: Body) -> None:
        """Drop ``row`` (of ``body``); the last row takes its place."""
        self._size = swap_removed(self._size, row)
        self._derived = swap_removed(self._derived, row)
        slot = self._hull_slot.pop(body.entity, None)
        if slot is not None:
            last = self._hulls.pop()
            if slot < len(self._hulls):
                self._hulls[slot] = last
                self._hull_slot[last.entity] = slot
        self._boxes.pop(body.entity, None)
        self._marks = None

    def refresh(
        self,
        bodies: list[Body],
        sprites: list[arcade.Sprite],
        touched: NDArray[np.intp] | None,
        row_of: dict[arcade.Sprite, int],
    ) -> list[Body]:
        """Rebuild the derived shapes of sprites whose size or hull hit box changed.

        Sizes are read for the ``touched`` rows (reported by Arcade's setters), or, when
        ``touched`` is None, if :func:`~.arcade_internals.size_marks` changed. All new
        shapes are built before any is stored, so a failed step keeps nothing.

        Returns:
            The bodies given a new ``geometry`` (one that differs from the old);
            their Shape components are the caller's.

        Raises:
            ValueError: a sprite has zero size (naming its entity).
        """
        rows: set[int] = set()
        sizes = None
        if touched is None or touched.size:
            rows, sizes = self._resized_rows(sprites, touched)
        if self._hulls:
            rows.update(row_of[body.sprite] for body in self._new_hit_boxes())
        if not rows and sizes is None:
            return []
        changed = [bodies[row] for row in sorted(rows)]
        geometries: list[AnyShape] = []
        for body in changed:
            try:
                geometries.append(self.shape_for(body.sprite, body.hull))
            except ValueError as error:
                raise ValueError(f"a sprite (entity {body.entity}): {error}") from None
        if sizes is not None:
            read, size, self._marks = sizes
            self._size[read] = size
        rebuilt = []
        for body, geometry in zip(changed, geometries, strict=True):
            if body.entity in self._hull_slot:
                self._watch(body)
            if geometry != body.geometry:
                body.geometry = geometry
                rebuilt.append(body)
        return rebuilt

    def sizes_held(self, rows: NDArray[np.intp], sizes: NDArray[np.float64]) -> bool:
        """Whether the derived shapes among ``rows`` were built for ``sizes`` (``(N, 2)``
        widths and heights, row for row): no :meth:`refresh` would rebuild them for a
        new size."""
        derived = self._derived.take(rows)
        old = self._size.take(rows, axis=0)
        if derived.all():
            return bool((old == sizes).all())
        return bool(((old == sizes).all(axis=1) | ~derived).all())

    def boxes_freed(self) -> bool:
        """Whether the hit box of some hull was freed since the last :meth:`refresh`."""
        return bool(self._freed)

    def _watch(self, body: Body) -> None:
        """Remember what ``body``'s hull is built from, and note when its box is freed."""
        sprite = body.sprite
        body.hull_points = _hull_key(sprite)
        try:
            box = _BoxRef(sprite.hit_box, self._note_freed)
        except TypeError:  # a game's box class without weak references: checked in turn
            self._boxes.pop(body.entity, None)
            return
        box.entity = body.entity
        self._boxes[body.entity] = box

    def _new_hit_boxes(self) -> list[Body]:
        """Hull bodies whose sprite holds another hit box or scale than their shape's:
        those whose box was freed, and the next few in turn (see :data:`HULL_CHECK_STRIDE`)."""
        hulls, count = self._hulls, len(self._hulls)
        take = min(-(-count // HULL_CHECK_STRIDE), HULL_CHECK_BUDGET)
        start = self._turn % count if count else 0
        suspects = hulls[start : start + take] + hulls[: max(0, start + take - count)]
        self._turn = start + take
        if self._freed:
            freed = self._freed[:]
            del self._freed[: len(freed)]  # (a box freed meanwhile stays listed)
            slot = self._hull_slot
            suspects.extend(hulls[slot[e]] for e in freed if e in slot)
        return [body for body in suspects if _hull_changed(body)]

    def _resized_rows(
        self, sprites: list[arcade.Sprite], touched: NDArray[np.intp] | None
    ) -> tuple[set[int], _Sizes | None]:
        """Rows of derived shapes whose sprite's size changed, and what to record once
        their shapes are built: the rows read, their sizes, and the new size marks."""
        if touched is not None:
            derived = touched[self._derived[touched]]
            if derived.size == 0:
                return set(), None
            marks = None
        else:
            derived = np.flatnonzero(self._derived)
            if derived.size == 0:
                return set(), None
            marks = size_marks(sprites)
            if marks == self._marks:
                return set(), None
        everyone = derived.size == len(sprites)
        size = read_sizes(sprites if everyone else [sprites[i] for i in derived.tolist()])
        old = self._size.take(derived, axis=0)  # quicker than fancy indexing for a few rows
        changed = (size[:, 0] != old[:, 0]) | (size[:, 1] != old[:, 1])
        if marks is None and not np.count_nonzero(changed):
            return set(), None  # the touched rows kept their sizes: nothing to record
        return set(derived[changed].tolist()), (derived, size, marks)


def _hull_key(sprite: arcade.Sprite) -> tuple[Any, Any]:
    """What a hull shape is built from: the hit box points (Arcade replaces, never
    edits them) and the scale."""
    return sprite.hit_box.points, sprite.scale


class _BoxRef(weakref.ref[Any]):
    """A weak reference to the hit box a hull was built from, with the hull's entity."""

    __slots__ = ("entity",)
    entity: int


def _noting(freed: list[int]) -> Callable[[_BoxRef], None]:
    """The weak-reference callback that appends a freed box's entity to ``freed`` (it
    holds no reference to the :class:`DerivedShapes`, so it keeps no world alive)."""

    def note(ref: _BoxRef) -> None:
        freed.append(ref.entity)

    return note


def _hull_changed(body: Body) -> bool:
    points, scale = body.hull_points
    sprite = body.sprite
    return sprite.hit_box.points is not points or sprite.scale != scale

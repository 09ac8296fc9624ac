"""Derived collision shapes that follow their sprites' size, texture and hull hit box.

A sprite added without an explicit shape gets one from
:func:`~.shapes_from_sprites.shape_for_sprite`, rebuilt when the sprite's width,
height or texture changes, and for ``hull=True`` also when the sprite is given a new
hit box. An explicit shape is kept as given, so a game of explicit shapes pays
nothing here.
"""

from __future__ import annotations

from typing import Any

import arcade
import numpy as np
from numpy.typing import NDArray

from arcade_collide.arcade.arcade_internals import read_sizes, size_marks
from arcade_collide.arcade.handlers import Body
from arcade_collide.arcade.pose_mirror import swap_removed
from arcade_collide.arcade.shapes_from_sprites import shape_for_sprite
from arcade_collide.geometry.shapes import AnyShape

_Sizes = tuple[NDArray[np.intp], NDArray[np.float64], NDArray[np.int64], Any]
"""Rows read for a size check, their sizes and textures, and the size marks."""


class DerivedShapes:
    """The size and texture each row's derived shape was built for, row for row with a
    world's bodies (swap-removed like them)."""

    def __init__(self) -> None:
        self._size: NDArray[np.float64] = np.zeros((0, 2))
        self._texture: NDArray[np.int64] = np.zeros(0, dtype=np.int64)
        self._derived: NDArray[np.bool_] = np.zeros(0, dtype=np.bool_)
        self._hulls: dict[int, Body] = {}
        """Bodies with a derived hull shape, by entity."""
        self._marks: list[tuple[Any, Any, Any]] | None = None
        """:func:`size_marks` of every row at the last size check (None: check in full)."""

    def add(self, body: Body, derived: bool) -> None:
        """Append ``body`` as the last row; ``derived``: its shape follows the sprite."""
        if body.hull and derived:
            body.hull_points = body.sprite.hit_box.points
            self._hulls[body.entity] = body
        size, texture = read_sizes([body.sprite])
        self._size = np.concatenate([self._size, size])
        self._texture = np.concatenate([self._texture, texture])
        self._derived = np.append(self._derived, derived)
        self._marks = None

    def remove(self, row: int, body: Body) -> None:
        """Drop ``row`` (of ``body``); the last row takes its place."""
        self._size = swap_removed(self._size, row)
        self._texture = swap_removed(self._texture, row)
        self._derived = swap_removed(self._derived, row)
        self._hulls.pop(body.entity, None)
        self._marks = None

    def refresh(
        self,
        bodies: list[Body],
        sprites: list[arcade.Sprite],
        touched: NDArray[np.intp] | None,
        row_of: dict[arcade.Sprite, int],
    ) -> list[Body]:
        """Rebuild the derived shapes of sprites whose size, texture or hull hit box changed.

        Sizes are read for the ``touched`` rows (reported by Arcade's setters), or, when
        ``touched`` is None, if :func:`~.arcade_internals.size_marks` changed. All new
        shapes are built before any is stored, so a failed step keeps nothing.

        Returns:
            The bodies given a new ``geometry``; their Shape components are the caller's.

        Raises:
            ValueError: a sprite has zero size (naming its entity).
        """
        rows, sizes = self._resized_rows(sprites, touched)
        if self._hulls:
            rows.update(
                row_of[body.sprite]
                for body in self._hulls.values()
                if body.sprite.hit_box.points is not body.hull_points
            )
        changed = [bodies[row] for row in sorted(rows)]
        geometries: list[AnyShape] = []
        for body in changed:
            try:
                geometries.append(shape_for_sprite(body.sprite, hull=body.hull))
            except ValueError as error:
                raise ValueError(f"a sprite (entity {body.entity}): {error}") from None
        if sizes is not None:
            read, size, texture, self._marks = sizes
            self._size[read] = size
            self._texture[read] = texture
        for body, geometry in zip(changed, geometries, strict=True):
            body.geometry = geometry
            if body.entity in self._hulls:
                body.hull_points = body.sprite.hit_box.points
        return changed

    def _resized_rows(
        self, sprites: list[arcade.Sprite], touched: NDArray[np.intp] | None
    ) -> tuple[set[int], _Sizes | None]:
        """Rows of derived shapes whose sprite's size or texture changed, and what to
        record once their shapes are built: the rows read, their sizes and textures,
        and the new size marks."""
        derived = np.flatnonzero(self._derived)
        if derived.size == 0:
            return set(), None
        if touched is not None:
            derived = touched[self._derived[touched]]
            if derived.size == 0:
                return set(), None
            marks = None
        else:
            marks = size_marks(sprites)
            if marks == self._marks:
                return set(), None
        everyone = derived.size == len(sprites)
        size, texture = read_sizes(
            sprites if everyone else [sprites[i] for i in derived.tolist()]
        )
        changed = (size != self._size[derived]).any(axis=1) | (texture != self._texture[derived])
        return set(derived[changed].tolist()), (derived, size, texture, marks)

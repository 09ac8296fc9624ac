"""Which rows of a pose mirror each sprite list holds, and their slots in its buffer,
kept up to date from the sprites that joined or left lists (cost: what changed).

Arcade 3.3 gives a sprite a slot in a list's buffers when it joins (``append``,
``insert``, item assignment) and frees that slot when it leaves; no other sprite's slot
moves. ``clear(deep=False)`` replaces the list's slot dict, which :meth:`ListSlots.current`
notices. So a row's slots change only when its sprite's ``sprite_lists`` changes, which
the sprite's record reports (:class:`~.arcade_internals.Record`).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, repeat
from operator import attrgetter
from typing import Any, NamedTuple

import arcade
import numpy as np
from numpy.typing import NDArray

IntArray = NDArray[np.intp]

_NO_ROWS: IntArray = np.zeros(0, dtype=np.intp)
_sprite_lists = attrgetter("sprite_lists")


def lists_of(sprites: Sequence[arcade.Sprite]) -> list[arcade.SpriteList[Any]]:
    """The sprite lists holding any of ``sprites``, each once, in first-seen order.

    >>> first, second = arcade.SpriteList(), arcade.SpriteList()
    >>> sprites = [arcade.SpriteSolidColor(2, 2) for _ in range(2)]
    >>> first.append(sprites[0]); second.append(sprites[1]); second.append(sprites[0])
    >>> lists_of(sprites) == [first, second], lists_of([])
    (True, [])
    """
    # list.copy reads watched records without iterating them (which would report touches).
    return list(dict.fromkeys(chain.from_iterable(map(list.copy, map(_sprite_lists, sprites)))))


class ListSlots(NamedTuple):
    """The rows of a pose mirror's sprites that one sprite list holds, and their slots."""

    sprite_list: arcade.SpriteList[Any]
    slot_dict: dict[Any, int]
    """The list's ``sprite_slot`` dict when the rows were found (replaced by a shallow clear)."""
    rows: IntArray
    """Ascending."""
    slots: IntArray
    """``slots[k]`` is the list's slot of the sprite of row ``rows[k]``."""
    row_span: IntArray | slice
    """:attr:`rows`, or the slice standing for them when they are consecutive."""
    block_rows: slice
    """A run of :attr:`rows` whose slots are consecutive too (:attr:`block_slots`): the
    longest when the rows were found, kept by later edits outside it."""
    block_slots: slice
    rest_rows: IntArray
    """The rows outside the block, and their slots (:attr:`rest_slots`)."""
    rest_slots: IntArray

    def current(self) -> bool:
        """Whether the list still has the slot dict the rows were found with."""
        return self.sprite_list.sprite_slot is self.slot_dict


def list_slots(
    sprite_list: arcade.SpriteList[Any], slot_dict: dict[Any, int], rows: IntArray,
    slots: IntArray, scratch: IntArray | None = None,
) -> ListSlots:  # fmt: skip
    """The :class:`ListSlots` of ``rows`` (ascending, each once) and their ``slots``
    (``scratch``: at least ``len(rows)`` integers it may overwrite).

    >>> found = list_slots(arcade.SpriteList(), {}, np.arange(5), np.array([7, 2, 3, 4, 0]))
    >>> found.row_span, found.block_rows, found.block_slots
    (slice(0, 5, None), slice(1, 4, None), slice(2, 5, None))
    >>> found.rest_rows.tolist(), found.rest_slots.tolist()
    ([0, 4], [7, 0])
    """
    n = len(rows)
    # Runs break where the row or the slot does not step by one. The steps go to
    # scratch: a world-sized temporary per change costs more than the arithmetic.
    step = (np.empty(n, dtype=np.intp) if scratch is None else scratch)[: max(n - 1, 0)]
    gap = np.not_equal(np.subtract(rows[1:], rows[:-1], out=step), 1)
    gap |= np.not_equal(np.subtract(slots[1:], slots[:-1], out=step), 1)
    breaks = np.flatnonzero(gap) + 1
    starts = np.concatenate([[0], breaks])
    ends = np.concatenate([breaks, [n]])
    longest = int(np.argmax(ends - starts))
    first, last = int(starts[longest]), int(ends[longest])
    row, slot = (int(rows[first]), int(slots[first])) if last else (0, 0)
    block_rows, block_slots = slice(row, row + last - first), slice(slot, slot + last - first)
    rest = np.r_[0:first, last:n]
    # Ascending rows, each once, are consecutive exactly when they span their count.
    low = int(rows[0]) if n else 0
    row_span = slice(low, low + n) if n and int(rows[-1]) - low == n - 1 else rows
    return ListSlots(
        sprite_list, slot_dict, rows, slots, row_span, block_rows, block_slots,
        rows[rest], slots[rest],
    )  # fmt: skip


def slots_in(
    sprite_list: arcade.SpriteList[Any],
    sprites: Sequence[arcade.Sprite],
    eligible: NDArray[np.bool_],
) -> ListSlots:
    """The rows of ``sprites`` held by ``sprite_list`` (among ``eligible`` ones), and their slots.

    A sprite can name a list that no longer holds it (after ``clear(deep=False)``):
    it has no slot there and is left out.

    >>> held = arcade.SpriteList()
    >>> sprites = [arcade.SpriteSolidColor(2, 2) for _ in range(3)]
    >>> held.append(sprites[2]); held.append(sprites[0])
    >>> found = slots_in(held, sprites, np.ones(3, dtype=np.bool_))
    >>> found.rows.tolist(), found.slots.tolist()
    ([0, 2], [1, 0])
    """
    slot_of = sprite_list.sprite_slot.get
    slots = np.fromiter(map(slot_of, sprites, repeat(-1)), np.intp, count=len(sprites))
    rows = np.flatnonzero((slots >= 0) & eligible)
    return list_slots(sprite_list, sprite_list.sprite_slot, rows, slots[rows])


class _Column:
    """One list's :class:`ListSlots`, and the rows to take out and put in before it is read."""

    __slots__ = ("dropped", "entry", "put", "spare", "used")

    def __init__(self, entry: ListSlots) -> None:
        self.entry = entry
        self.dropped: list[int] = []
        """Rows whose sprite left the list or the mirror (or that now hold another sprite)."""
        self.put: list[tuple[int, int]] = []
        """``(row, slot)`` of rows joining (after :attr:`dropped` are taken out)."""
        self.spare = self.used = np.zeros((3, 0), dtype=np.intp)
        """Room for rows, slots and scratch (a line each): :attr:`entry`
        views :attr:`used`, the next one is made in :attr:`spare`, and they swap, so
        no world-sized array is allocated while the list keeps its size."""

    def settled(self) -> ListSlots:
        """The entry with :attr:`dropped` taken out and :attr:`put` put in (rows ascending)."""
        entry = self._edited_in_place()
        if entry is not None:
            self.dropped, self.put = [], []
            return entry
        sprite_list, slot_dict, rows, slots = self.entry[:4]
        # (position in rows, 0, row, slot): insert there; (position, 1, 0, 0): drop.
        cuts: list[tuple[int, int, int, int]] = []
        if self.dropped:
            dropped = np.array(self.dropped, dtype=np.intp)
            at = np.searchsorted(rows, dropped)
            held = at < len(rows)
            held[held] = rows[at[held]] == dropped[held]
            cuts.extend((position, 1, 0, 0) for position in set(at[held].tolist()))
        if self.put:
            new = sorted(self.put)
            at = np.searchsorted(rows, np.array([row for row, _ in new], dtype=np.intp))
            cuts.extend((position, 0, row, slot) for position, (row, slot) in zip(
                at.tolist(), new, strict=True))  # fmt: skip
        n = len(rows) + sum(1 if kind == 0 else -1 for _, kind, _, _ in cuts)
        if self.spare.shape[1] < n:
            self.spare = np.empty((3, max(2 * n, 16)), dtype=np.intp)
        buffer, self.spare, self.used = self.spare, self.used, self.spare
        out_rows, out_slots, scratch = buffer[0, :n], buffer[1, :n], buffer[2]
        done = taken = 0
        for position, kind, row, slot in sorted(cuts):
            count = position - taken
            out_rows[done : done + count] = rows[taken:position]
            out_slots[done : done + count] = slots[taken:position]
            done, taken = done + count, position
            if kind:
                taken += 1
            else:
                out_rows[done], out_slots[done] = row, slot
                done += 1
        out_rows[done:] = rows[taken:]
        out_slots[done:] = slots[taken:]
        self.dropped, self.put = [], []
        return list_slots(sprite_list, slot_dict, out_rows, out_slots, scratch)

    def _edited_in_place(self) -> ListSlots | None:
        """The entry with the changes written where they fall, at the cost of the rows
        outside its block, when no row has to shift: each dropped row is either put
        back (a swap-remove gave it another sprite) or among the last rows, the other
        rows put come after every kept row, the block keeps its rows and still covers
        most rows. None otherwise (nothing was written).

        Bullets fired and removed every tick change only such rows: the newest rows of
        the mirror, outside the block of the sprites that stay.
        """
        entry = self.entry
        rows, slots, n = entry.rows, entry.slots, len(entry.rows)
        buffer = self.used
        if not n or rows.base is not buffer or slots.base is not buffer:
            return None
        put = dict(self.put)
        if len(put) != len(self.put):
            return None
        # (Lists: a numpy call costs more than these few numbers.)
        dropped = sorted(set(self.dropped))
        replaced: list[tuple[int, int]] = []
        removed: list[int] = []
        for p, row in zip(np.searchsorted(rows, dropped).tolist(), dropped, strict=True):
            if p == n or int(rows[p]) != row:
                continue  # not held
            if row in put:
                replaced.append((p, put.pop(row)))
            else:
                removed.append(p)
        kept = n - len(removed)
        if not kept or (removed and removed[0] < kept):
            return None  # a row left from the middle: the rows after it shift
        if put and min(put) <= int(rows[kept - 1]):
            return None  # a row joins between kept rows
        start, size = entry.block_rows.start, entry.block_rows.stop - entry.block_rows.start
        first = 0 if int(rows[0]) == start else int(np.searchsorted(rows, start))
        n_new = kept + len(put)
        if first + size > kept or 2 * size < n_new or n_new > buffer.shape[1]:
            return None
        if any(first <= p < first + size for p, _ in replaced):
            return None
        for p, slot in replaced:
            buffer[1, p] = slot
        if put:
            buffer[0:2, kept:n_new] = np.array(sorted(put.items()), dtype=np.intp).T
        rows, slots = buffer[0, :n_new], buffer[1, :n_new]
        low = int(rows[0])
        row_span = slice(low, low + n_new) if int(rows[-1]) - low == n_new - 1 else rows
        rest_rows, rest_slots = rows[size:], slots[size:]  # views: the block comes first
        if first:
            rest_rows = np.concatenate((rows[:first], rest_rows[first:]))
            rest_slots = np.concatenate((slots[:first], rest_slots[first:]))
        return ListSlots(
            entry.sprite_list, entry.slot_dict, rows, slots, row_span, entry.block_rows,
            entry.block_slots, rest_rows, rest_slots,
        )  # fmt: skip


class SlotTable:
    """For each sprite list holding some of a mirror's sprites (the ``eligible`` rows),
    their rows and slots; the mirror reports the rows it adds and removes, and names
    the rows whose sprites joined or left lists (:meth:`entries`)."""

    def __init__(self) -> None:
        self._columns: dict[int, _Column] = {}
        """By ``id`` of the list (each column holds its list, so ids stay unique)."""
        self._in: list[tuple[int, ...]] = []
        """Per row, the keys of the columns holding it once pending changes are settled."""
        self._whole = True
        """Whether every column is to be found anew at the next :meth:`entries`."""
        self._touched: set[int] = set()
        """Keys of the columns with rows to take out (:meth:`remove`)."""
        self._entries: list[ListSlots] = []

    def invalidate(self) -> None:
        """Find every list's rows and slots anew at the next :meth:`entries`."""
        self._whole = True

    def grow(self, count: int) -> None:
        """``count`` rows were added at the end (name them in the next :meth:`entries`'
        ``changed``)."""
        self._in.extend(repeat((), count))

    def remove(self, row: int) -> None:
        """``row`` was dropped and the last row took its place (name ``row`` in the next
        :meth:`entries`' ``changed``, if a row still stands there)."""
        last = len(self._in) - 1
        if not self._whole:
            columns = self._columns
            for each in {row, last}:
                for key in self._in[each]:
                    columns[key].dropped.append(each)
                self._touched.update(self._in[each])
        self._in[row] = ()
        self._in.pop()

    def settled(self) -> bool:
        """Whether :meth:`entries` with no changed rows would just return the entries."""
        return not (self._whole or self._touched) and all(
            column.entry.current() for column in self._columns.values()
        )

    def entries(
        self, sprites: Sequence[arcade.Sprite], ineligible: NDArray[np.bool_], changed: list[int]
    ) -> list[ListSlots]:
        """Each list's rows (of ``sprites``, leaving out the ``ineligible`` ones) and
        slots, with the ``changed`` rows (whose memberships or sprite changed) looked up
        again."""
        columns = self._columns
        if not (changed or self._whole or self._touched) and self.settled():
            return self._entries
        if not self._whole and 8 * len(changed) > len(sprites) + 64:
            self._whole = True  # many changes: one pass over every row costs less
        if self._whole or not all(column.entry.current() for column in columns.values()):
            self._find_all(sprites, ~ineligible)
            return self._entries
        touched, self._touched = self._touched, set()
        for row in changed:
            touched.update(self._in[row])
            for key in self._in[row]:
                columns[key].dropped.append(row)
            self._in[row] = () if ineligible[row] else self._join(row, sprites[row], touched)
        for key in touched:
            entry = columns[key].settled()
            if len(entry.rows):
                columns[key].entry = entry
            else:
                del columns[key]
        self._entries = [column.entry for column in columns.values()]
        return self._entries

    def _join(self, row: int, sprite: arcade.Sprite, touched: set[int]) -> tuple[int, ...]:
        """Put ``row`` into the column of every list ``sprite`` has a slot in; their keys."""
        keys = []
        for sprite_list in list.copy(sprite.sprite_lists):
            slot = sprite_list.sprite_slot.get(sprite)
            if slot is None:
                continue  # named by a list cleared with deep=False
            key = id(sprite_list)
            column = self._columns.get(key)
            if column is None:
                empty = list_slots(sprite_list, sprite_list.sprite_slot, _NO_ROWS, _NO_ROWS)
                column = self._columns[key] = _Column(empty)
            column.put.append((row, slot))
            keys.append(key)
        touched.update(keys)
        return tuple(keys)

    def _find_all(self, sprites: Sequence[arcade.Sprite], eligible: NDArray[np.bool_]) -> None:
        """Find every list's rows and slots with one pass per list over all rows."""
        held = [sprites[row] for row in np.flatnonzero(eligible).tolist()]
        found = [slots_in(each, sprites, eligible) for each in lists_of(held)]
        self._columns = {id(each.sprite_list): _Column(each) for each in found if len(each.rows)}
        memberships: list[list[int]] = [[] for _ in sprites]
        for key, column in self._columns.items():
            for row in column.entry.rows.tolist():
                memberships[row].append(key)
        self._in = list(map(tuple, memberships))
        self._entries = [column.entry for column in self._columns.values()]
        self._whole = False
        self._touched = set()

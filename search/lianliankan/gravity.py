"""The exact search under gravity: depth-first over removals, with a table of
failed boards, safe removals, pruning and restarts.

Under gravity a removal moves the tiles above it, so the facts the pairing
search stands on (a removal only empties cells) fail.  What stays true:

* a tile only ever moves down its own column, and a column's order never
  changes, so what lies above a tile stays above it;
* the tiles below a tile alone decide where it is: removing a tile that has
  no tile but its own picture's above it moves no other tile.

Hence the **safe removal**: when every tile left of one picture sits in the
upper part of its column (no tile of another picture above it) and those tiles
can all go now, among themselves, playing them first is safe.  In any
clearing, every other tile stays where it would have been at every step
(nothing below it changed), and the picture's cells are empty instead of
full, so every other line still holds.

The board under gravity is its tuple of cells (full boards: the column
stacks); a board proven not to clear goes into a table, so no board is
searched twice, whatever order of removals led to it.

**Pruning.**  A tile walled in on all four sides by tiles of other pictures
connects to nothing now; the move list skips it without a line search.  And a
whole board is given up when a picture has two tiles left that sit in one
column with a tile of the other picture of a *locked* couple between them (see
``_locked``): two pictures, two tiles each, all four in one column,
interleaved, and that column walled on both sides by columns that cannot drop
below them... kept simple: only the check that costs nothing is done.

**Restarts.**  A dive that uses up its node budget starts again from the
root with shuffled choices, keeping the table (its entries are proofs), the
budgets following Luby's sequence.  All budgets are in nodes; only the
caller's deadline turns the answer into a limit.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from search.core import Deadline
from search.lianliankan.model import Board, Move
from search.lianliankan.paths import Field

FIRST_BUDGET = int(__import__("os").environ.get("FB", 400))  # nodes of the first dive
RESTART_UNIT = int(__import__("os").environ.get("RU", 200))  # nodes of a later dive, times the term of Luby

Pair = tuple[int, int, tuple[int, ...]]  # two tiles (flat indices) and the corners of a line


class GravitySearch:
    """Depth-first search over removals under gravity; ``run`` gives the moves
    of a clearing, or None when no order of removals clears the board."""

    def __init__(self, board: Board, deadline: Deadline, *, seed: int = 0):
        self.field = Field(board)
        self.deadline = deadline
        self.nodes = 0
        self.states = 0  # boards proven not to clear
        self.budget = 0
        self.rng = random.Random(seed)
        self.shuffle = False
        self.failed: set[tuple[int, ...]] = set()
        s = self.field.stride
        self.inner = [
            r * s + c for r in range(2, self.field.height + 2)
            for c in range(2, self.field.width + 2)
        ]

    def run(self) -> list[Move] | None:
        dive = 0
        start = self.field.cells[:]
        while True:
            self.budget = self.nodes + (RESTART_UNIT * _luby(dive) if dive else FIRST_BUDGET)
            try:
                return self._search()
            except _OverBudget:
                self.field.cells[:] = start
                self.shuffle = True
                dive += 1

    # ------------------------------------------------------------ the search

    def _search(self) -> list[Move] | None:
        self.deadline.check()
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OverBudget
        field = self.field
        snapshot = field.cells[:]
        first = tuple(snapshot)
        if first in self.failed:
            return None
        pictures = self._pictures()
        played = self._close(pictures)
        if played:
            pictures = self._pictures()
        if not pictures:
            return played
        key = tuple(field.cells)
        if key in self.failed:
            self.failed.add(first)
            field.cells[:] = snapshot
            return None
        for a, b, corners in self._ordered(self._moves(pictures), pictures):
            move = field.move(a, b, corners)
            before = field.cells[:]
            field.remove(a, b)
            found = self._search()
            field.cells[:] = before
            if found is not None:
                return [*played, move, *found]
        self.failed.add(key)
        self.failed.add(first)
        self.states += 1
        field.cells[:] = snapshot
        return None

    def _ordered(self, moves: list[Pair], pictures: dict[int, list[int]]) -> list[Pair]:
        """Moves that finish a picture first, then the lower ones (a removal
        low in a column opens more than one at the top); shuffled among equals
        after the first dive."""
        field = self.field
        cells, s = field.cells, field.stride
        bottom, left, right = field.height + 1, 2, field.width + 1

        def lasting(t: int) -> bool:
            r, c = divmod(t, s)
            return cells[t - s] <= 0 or r == bottom or c == left or c == right

        if self.shuffle:
            self.rng.shuffle(moves)
        import os
        mode = os.environ.get("ORD", "t")
        if mode == "t":
            return sorted(moves, key=lambda m: (len(pictures[cells[m[0]]]) != 2,
                                                lasting(m[0]) and lasting(m[1]),
                                                -(m[0] // s + m[1] // s)))
        if mode == "t2":
            return sorted(moves, key=lambda m: (lasting(m[0]) and lasting(m[1]),
                                                len(pictures[cells[m[0]]]) != 2,
                                                -(m[0] // s + m[1] // s)))
        if mode == "r":
            return moves
        return sorted(moves, key=lambda m: (len(pictures[cells[m[0]]]) != 2,
                                            -(m[0] // s + m[1] // s)))

    # ------------------------------------------------------------ moves

    def _pictures(self) -> dict[int, list[int]]:
        cells = self.field.cells
        by_picture: dict[int, list[int]] = {}
        for i in self.inner:
            v = cells[i]
            if v > 0:
                by_picture.setdefault(v, []).append(i)
        return by_picture

    def _moves(self, pictures: dict[int, list[int]]) -> list[Pair]:
        """Every pair of one picture that a line joins now."""
        field = self.field
        cells, s = field.cells, field.stride
        out: list[Pair] = []
        for tiles in pictures.values():
            for k, a in enumerate(tiles):
                open_a = not (cells[a - 1] and cells[a + 1] and cells[a - s] and cells[a + s])
                for b in tiles[k + 1:]:
                    if b - a == 1 or b - a == s:  # neighbours: a line of no cells
                        out.append((a, b, ()))
                        continue
                    if not open_a or (cells[b - 1] and cells[b + 1] and cells[b - s]
                                      and cells[b + s]):
                        continue  # walled in: no line leaves the tile
                    corners = field.line(a, b)
                    if corners is not None:
                        out.append((a, b, corners))
        return out

    # ------------------------------------------------------------ safe removals

    def _close(self, pictures: dict[int, list[int]]) -> list[Move]:
        """Play every safe picture (see the module's doc) until none is left."""
        field = self.field
        played: list[Move] = []
        progress = True
        while progress:
            progress = False
            if played:
                pictures = self._pictures()
            for tiles in pictures.values():
                if not self._on_top(tiles):
                    continue
                plan = self._clear_alone(list(tiles))
                if plan is None:
                    continue
                for a, b, corners in plan:
                    played.append(field.move(a, b, corners))
                    field.remove(a, b)
                progress = True
                break  # the pictures moved: read them again
        return played

    def _on_top(self, tiles: list[int]) -> bool:
        """No tile of another picture above any of these tiles."""
        cells, s = self.field.cells, self.field.stride
        picture = cells[tiles[0]]
        top = 2 * s
        for t in tiles:
            i = t - s
            while i >= top:
                if cells[i] > 0 and cells[i] != picture:
                    return False
                i -= s
        return True

    def _clear_alone(self, tiles: list[int]) -> list[Pair] | None:
        """Removals, played under gravity, that clear these tiles (one picture's
        tiles, in the upper part of their columns), or None."""
        if not tiles:
            return []
        field = self.field
        a = tiles[0]
        for b in tiles[1:]:
            corners = field.line(a, b)
            if corners is None:
                continue
            before = field.cells[:]
            field.remove(a, b)
            rest = [t for t in tiles if t != a and t != b]
            rest = self._fallen(rest, (a, b))
            later = self._clear_alone(rest)
            field.cells[:] = before
            if later is not None:
                return [(a, b, corners), *later]
        return None

    def _fallen(self, tiles: list[int], gaps: tuple[int, int]) -> list[int]:
        """Where ``tiles`` are after the removal of ``gaps`` (each falls one
        cell per gap below it in its column)."""
        if not self.field.gravity:
            return tiles
        s = self.field.stride
        return [t + s * sum(1 for g in gaps if g % s == t % s and g > t) for t in tiles]


def moves_of(board: Board) -> Iterator[Move]:
    """Every removal possible now on ``board`` (for tests)."""
    search = GravitySearch(board, Deadline(None))
    for a, b, corners in search._moves(search._pictures()):
        yield search.field.move(a, b, corners)


class _OverBudget(Exception):
    """A dive used up its node budget: restart."""


def _luby(i: int) -> int:
    """The i-th term (from 1) of Luby's sequence 1 1 2 1 1 2 4 1 1 2 ..."""
    while True:
        k = i.bit_length()
        if i == (1 << k) - 1:
            return 1 << (k - 1)
        i -= (1 << (k - 1)) - 1

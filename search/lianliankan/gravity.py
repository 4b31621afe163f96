"""The exact search under gravity: depth-first over removals, with a table of
failed boards, safe removals, dead-end pruning and restarts.

Under gravity a removal moves the tiles above it, so the facts the pairing
search stands on (a removal only empties cells) fail.  What stays true:

* a tile only ever moves down its own column, and a column's order never
  changes, so what lies above a tile stays above it;
* the tiles below a tile alone decide where it is: removing tiles that have
  nothing but one another above them moves no other tile.

Hence the **safe removal**: when every tile left of one picture sits in the
upper part of its column (no tile of another picture above it) and those tiles
can all go now, among themselves, playing them first is safe.  In any
clearing, every other tile stays where it would have been at every step
(nothing below it changed), and the picture's cells are empty instead of
full, so every other line still holds.

**The table.**  The board under gravity is its tuple of cells (on full
boards: the column stacks); a board proven not to clear goes into a table,
before and after its safe removals, so no board is searched twice, whatever
order of removals led to it.

**Pruning.**  A tile walled in on all four sides by other tiles connects to
nothing but a neighbour; the move list skips it without a line search.  Each
child is read before any is searched: a child in the table, or with tiles
and no move, is dropped at once (and a dead child enters the table).

**Order and restarts.**  Children that leave the most mobile board go first
(a board with few moves is near a dead end): the most moves, and in every
other dive the most tiles that have a move (each measure clears boards the
other takes long on).  A dive that uses up its node budget starts again from
the root, keeping the table (its entries are proofs); budgets follow Luby's
sequence, and later dives break ties at random.  (A plain random order in
every other dive, cheaper per node, needed 2 to 8 times the nodes on the
hard boards.)  All budgets are in nodes; only the caller's deadline turns
the answer into a limit.

**The dead-end test** (``deadend.never_cleared``: a tile no play can ever
remove) runs once, at the root; ``GravitySearch._walled`` says why not deeper.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from search.core.contract import Deadline
from search.lianliankan.deadend import never_cleared
from search.lianliankan.model import Board, Move
from search.lianliankan.paths import Field
from search.lianliankan.restarts import Dives, OverBudget, dive_budget

FIRST_BUDGET = 200  # nodes of the first dive
RESTART_UNIT = 400  # nodes of a later dive, times the term of Luby's sequence

Pair = tuple[int, int, tuple[int, ...]]  # two tiles (flat indices) and the corners of a line


class GravitySearch(Dives):
    """Depth-first search over removals under gravity; ``run`` gives the moves
    of a clearing, or None when no order of removals clears the board."""

    def __init__(self, board: Board, deadline: Deadline, *, seed: int = 0,
                 node_limit: int | None = None, deadends: bool = True):
        self.field = Field(board)
        self.deadends = deadends  # refute walled-in boards (search.lianliankan.deadend)
        self.deadline = deadline
        self.node_limit = node_limit  # an internal budget: past it, LimitReached
        self.nodes = 0
        self.states = 0  # boards proven not to clear
        self.budget = 0
        self.rng = random.Random(seed)
        self.shuffle = False
        self.by_tiles = False
        self.failed: set[tuple[int, ...]] = set()
        self.tests = 0  # dead-end tests run
        s = self.field.stride
        self.inner = [
            r * s + c for r in range(2, self.field.height + 2)
            for c in range(2, self.field.width + 2)
        ]

    def effort(self) -> dict[str, int]:
        """Nodes searched, and the boards proven not to clear."""
        return {"nodes": self.nodes, "states": self.states}

    def run(self) -> list[Move] | None:
        dive = 0
        start = self.field.cells[:]
        while True:
            self.budget = self.nodes + dive_budget(dive, FIRST_BUDGET, RESTART_UNIT)
            try:
                return self._search()
            except OverBudget:
                self.field.cells[:] = start
                self.shuffle = True
                dive += 1
                self.by_tiles = dive % 2 == 1  # alternate the two measures

    # ------------------------------------------------------------ the search

    def _search(self, known: tuple[dict[int, list[int]], list[Pair]] | None = None
                ) -> list[Move] | None:
        """``known``: the pictures and moves of this board, when the parent
        has read them already (to order its children)."""
        self.enter()
        field = self.field
        snapshot = field.cells[:]
        first = tuple(snapshot)
        if first in self.failed:
            return None
        pictures = known[0] if known else self._pictures()
        played = self._close(pictures)
        if played:
            pictures = self._pictures()
            known = None
        if not pictures:
            return played
        key = tuple(field.cells) if played else first
        if key in self.failed:
            self.failed.add(first)
            field.cells[:] = snapshot
            return None
        moves = known[1] if known else self._moves(pictures)
        if self._walled(moves):
            self.failed.add(key)
            self.failed.add(first)
            self.states += 1
            field.cells[:] = snapshot
            return None
        for a, b, corners, child in self._children(moves):
            move = field.move(a, b, corners)
            before = field.cells[:]
            field.remove(a, b)
            found = self._search(child)
            field.cells[:] = before
            if found is not None:
                return [*played, move, *found]
        self.failed.add(key)
        self.failed.add(first)
        self.states += 1
        field.cells[:] = snapshot
        return None

    def _walled(self, moves: list[Pair]) -> bool:
        """The dead-end test (``deadend.never_cleared``), on the root alone: it
        costs some 40 nodes, and deeper in the tree it saved fewer nodes than
        that (on full 18 x 8 boards it cut 4 times the nodes at 40 times the
        cost of a node); at the root it refutes many full 16 x 9 boards at once."""
        if not self.deadends or self.tests:
            return False
        self.tests += 1
        return never_cleared(self.field, {t for m in moves for t in m[:2]})

    def _children(self, moves: list[Pair]):
        """The moves worth trying, those that leave the most mobile board first
        (the most moves, or in every other dive the most tiles that have a
        move; after the first dive with random tie-breaks of up to two), each
        with the board's pictures and moves after it.  A move to a board in the
        table, or to a board with tiles and no move, is dropped: that board
        fails."""
        field = self.field
        cells = field.cells
        scored = []
        for a, b, corners in moves:
            before = cells[:]
            field.remove(a, b)
            if tuple(cells) not in self.failed:
                pictures = self._pictures()
                after = self._moves(pictures)
                if after or not pictures:
                    noise = 2 * self.rng.random() if self.shuffle else 0.0
                    score = len({t for m in after for t in m[:2]}) if self.by_tiles else len(after)
                    scored.append((-score - noise, len(scored),
                                   (a, b, corners, (pictures, after))))
                else:
                    self.failed.add(tuple(cells))
                    self.states += 1
            cells[:] = before
        scored.sort()
        return [item for _, _, item in scored]

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
        """Every pair of one picture that a line joins now, each picture's
        pairs in scan order.  A tile walled in on all four sides joins only a
        neighbour, the one to its right or below it among later tiles, so its
        pairs need no loop (most tiles of a full board are walled in)."""
        field = self.field
        cells, s, line = field.cells, field.stride, field.line
        out: list[Pair] = []
        for v, tiles in pictures.items():
            for k, a in enumerate(tiles):
                if cells[a - 1] and cells[a + 1] and cells[a - s] and cells[a + s]:
                    if cells[a + 1] == v:
                        out.append((a, a + 1, ()))
                    if cells[a + s] == v:
                        out.append((a, a + s, ()))
                    continue
                for b in tiles[k + 1:]:
                    if b - a == 1 or b - a == s:  # neighbours: a line of no cells
                        out.append((a, b, ()))
                    elif cells[b - 1] and cells[b + 1] and cells[b - s] and cells[b + s]:
                        continue  # walled in: no line leaves the tile
                    else:
                        corners = line(a, b)
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


def safe_removals(board: Board) -> tuple[list[Move], Board]:
    """The safe pictures played in turn (see the module's doc), and the board after."""
    search = GravitySearch(board, Deadline(None))
    moves = search._close(search._pictures())
    return moves, search.field.board(board)


def moves_of(board: Board) -> Iterator[Move]:
    """Every removal possible now on ``board`` (for tests)."""
    search = GravitySearch(board, Deadline(None))
    for a, b, corners in search._moves(search._pictures()):
        yield search.field.move(a, b, corners)



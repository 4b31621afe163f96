"""The exact search under gravity: depth-first over removals, with a table of
failed boards, dead-end pruning and restarts; its hot loop is
``gravity_kernel`` (flat integer buffers, undo instead of copies, no move
list kept per child).

Under gravity a removal moves the tiles above it, so the facts the pairing
search stands on (a removal only empties cells) fail.  What stays true:

* a tile only ever moves down its own column, and a column's order never
  changes, so what lies above a tile stays above it;
* the tiles below a tile alone decide where it is: removing tiles that have
  nothing but one another above them moves no other tile.

Hence the **safe removal** (``safe.safe_removals``, which CP-SAT plays
before its model; the kernel's ``safe_move`` plays it in the search): when
every tile left of one picture sits in the upper part of its column (no tile
of another picture above it) and those tiles can all go now, among
themselves, playing them first is safe.  In any clearing, every other tile
stays where it would have been at every step (nothing below it changed), and
the picture's cells are empty instead of full, so every other line still
holds.

**The table.**  A board proven not to clear goes into a table keyed by two
64-bit Zobrist hashes of its cells, so no board is searched twice, whatever
order of removals led to it.  (Two boards share both keys with odds of about
one in 2**128 per pair: a wrong UNSAT by collision is not a practical risk.)

**Order and restarts.**  Children that leave the most mobile board go first
(a board with few moves is near a dead end): the most moves, and in every
other dive the most tiles that have a move (each measure clears boards the
other takes long on).  A child in the table, or with tiles and no move, is
dropped before any is searched.  A dive that uses up its node budget starts
again from the root, keeping the table (its entries are proofs); budgets
follow Luby's sequence, and later dives break ties at random.  All budgets
are in nodes; only the caller's deadline turns the answer into a limit.

**The dead-end test** (``deadend.never_cleared``: a tile no play can ever
remove) runs once, at the root: it costs about what 40 nodes of the Python
search did, and deeper in the tree it saved fewer nodes than that.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Iterator

from search.core.compiled import load
from search.core.contract import Deadline, LimitReached
from search.lianliankan.deadend import never_cleared
from search.lianliankan.model import Board, Move
from search.lianliankan.paths import Field
from search.lianliankan.restarts import dive_budget

FIRST_BUDGET = 200  # nodes of the first dive
RESTART_UNIT = 400  # nodes of a later dive, times the term of Luby's sequence
SLICE = 256  # nodes between two looks at the clock
FIRST_MOVES = 4096  # room on the move stack at first (it doubles when full)
FIRST_TABLE = 1 << 14  # slots of the table at first (it doubles when half full)
MAX_TABLE = 1 << 22  # slots at most (64 MB; then a new failure replaces an old one)
ZOBRIST_SEED = 0x5EED

# the search's hot loop: compiled where built (search.core.compiled)
kernel = load("search.lianliankan.gravity_kernel")

def _zeros(n: int) -> array:
    return array("q", bytes(8 * n))


class GravitySearch:
    """Depth-first search over removals under gravity; ``run`` gives the moves
    of a clearing, or None when no order of removals clears the board."""

    def __init__(self, board: Board, deadline: Deadline, *, seed: int = 0,
                 node_limit: int | None = None, deadends: bool = True):
        self.field = field = Field(board)
        self.deadends = deadends  # refute walled-in boards (search.lianliankan.deadend)
        self.deadline = deadline
        self.node_limit = node_limit  # an internal budget: past it, LimitReached
        # the kernel's board: the field's frame, pictures renumbered 1..P
        names = sorted({v for v in field.cells if v > 0})
        number = {v: k + 1 for k, v in enumerate(names)}
        self.pictures = len(names)
        self.cells = array("q", [number.get(v, v) for v in field.cells])
        n = len(self.cells)
        tiles = sum(1 for v in field.cells if v > 0)
        depth = tiles // 2 + 2
        self.st = _zeros(kernel.ST_SIZE)
        self.st[kernel.TILES] = tiles
        self.st[kernel.RNG] = (seed * 2654435761 + 1) & 0x7FFFFFFF
        self.zobrist = _zeros(0)  # drawn by run (pairs needs none)
        self.table = _zeros(2 * FIRST_TABLE)
        self.mv = _zeros(2 * FIRST_MOVES)
        self.score = _zeros(FIRST_MOVES)
        self.stack = [_zeros(depth) for _ in range(6)]  # mstart mnext mend ua ub uv
        self.count = _zeros(self.pictures + 2)
        self.tiles = _zeros(n)
        self.seen = _zeros(n)
        self.mark = _zeros(n)
        self.queue = _zeros(n)
        self.keys = _zeros(2)
        self.work = _zeros(kernel.WORK)
        self.moved = _zeros(n)

    @property
    def nodes(self) -> int:
        return self.st[kernel.NODES]

    @property
    def states(self) -> int:
        """Boards proven not to clear."""
        return self.st[kernel.STATES]

    def effort(self) -> dict[str, int]:
        """Nodes searched, and the boards proven not to clear."""
        return {"nodes": self.nodes, "states": self.states}

    def run(self) -> list[Move] | None:
        if self._walled():
            self.st[kernel.NODES] = self.st[kernel.STATES] = 1
            return None
        st, root = self.st, self.cells[:]
        self.zobrist = array("q")
        self.zobrist.frombytes(random.Random(ZOBRIST_SEED).randbytes(
            16 * len(root) * (self.pictures + 1)))
        dive = 0
        while True:
            st[kernel.BUDGET] = st[kernel.NODES] + dive_budget(dive, FIRST_BUDGET, RESTART_UNIT)
            st[kernel.DEPTH] = 0
            st[kernel.MODE] = kernel.ENTER
            f = self.field
            for half in (0, 1):
                self.keys[half] = kernel.board_key(self.cells, f.stride, f.height, f.width,
                                                   self.pictures, self.zobrist, half)
            self.stack[0][0] = 0
            code = self._dive()
            if code == kernel.FOUND:
                return self._clearing()
            if code == kernel.EXHAUSTED:
                return None
            self.cells[:] = root  # OVER_BUDGET: again from the root
            st[kernel.TILES] = sum(1 for v in root if v > 0)
            dive += 1
            st[kernel.SHUFFLE] = 1
            st[kernel.BY_TILES] = dive % 2  # alternate the two measures

    def _dive(self) -> int:
        st = self.st
        while True:
            self.deadline.check()
            pause = st[kernel.NODES] + SLICE
            if self.node_limit is not None:
                if st[kernel.NODES] >= self.node_limit:
                    pause = st[kernel.NODES]
                pause = min(pause, self.node_limit)
            st[kernel.PAUSE] = pause
            code = kernel.run(self.cells, self.field.stride, self.field.height,
                              self.field.width, self.field.turns, self.field.gravity,
                              self.pictures, st, self.zobrist, self.table, self.mv,
                              self.score, *self.stack, self.count, self.tiles, self.seen,
                              self.mark, self.queue, self.keys, self.work, self.moved)
            if code == kernel.PAUSED:
                if self.node_limit is not None and st[kernel.NODES] >= self.node_limit:
                    raise LimitReached
                self._grow_table()
            elif code == kernel.NO_SPACE:
                self.mv.extend(_zeros(len(self.mv)))
                self.score.extend(_zeros(len(self.score)))
            else:
                return code

    def _grow_table(self) -> None:
        """Double the table when half full (up to MAX_TABLE slots)."""
        size = len(self.table) // 2
        if 2 * self.st[kernel.TT_COUNT] <= size or size >= MAX_TABLE:
            return
        old = self.table
        self.table = _zeros(4 * size)
        self.st[kernel.TT_COUNT] = 0
        for i in range(0, len(old), 2):
            if old[i]:
                kernel.table_add(self.table, old[i], old[i + 1], self.st)

    def _clearing(self) -> list[Move]:
        """The moves of the path the kernel found, each with a line on the
        board as it is played."""
        field = self.field
        ua, ub = self.stack[3], self.stack[4]
        out = []
        for d in range(self.st[kernel.DEPTH]):
            a, b = ua[d], ub[d]
            corners = field.line(a, b)
            if corners is None:  # the kernel joined them: a bug, never a user's error
                raise AssertionError(f"no line for {field.cell(a)}-{field.cell(b)}")
            out.append(field.move(a, b, corners))
            field.remove(a, b)
        return out

    def _walled(self) -> bool:
        """The dead-end test (``deadend.never_cleared``) at the root."""
        if not self.deadends:
            return False
        return never_cleared(self.field, {t for m in self.pairs() for t in m})

    def pairs(self) -> list[tuple[int, int]]:
        """Every pair of one picture that a line joins now (flat indices)."""
        f = self.field
        while True:
            n = kernel.generate(self.cells, f.stride, f.height, f.width, f.turns, f.gravity,
                                self.pictures, self.count, self.tiles, self.moved, self.mv,
                                0, len(self.score), True, self.seen, self.mark, self.queue,
                                self.st)
            if n >= 0:
                return [(self.mv[2 * j], self.mv[2 * j + 1]) for j in range(n)]
            self.mv.extend(_zeros(len(self.mv)))
            self.score.extend(_zeros(len(self.score)))


def moves_of(board: Board) -> Iterator[Move]:
    """Every removal possible now on ``board`` (for tests)."""
    search = GravitySearch(board, Deadline(None))
    field = search.field
    for a, b in search.pairs():
        yield field.move(a, b, field.line(a, b) or ())



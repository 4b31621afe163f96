"""The board as the frontier programme (``frontier_np``) sees it, and the
rebuilding of solutions from its per-cell actions.

Cells are processed in row-major order on a board turned, if need be, so
that it is no wider than tall.  A *state* describes the frontier between the
processed cells and the rest: one value per column (what crosses below the
last processed cell of that column) and one for the edge leaving the last
processed cell to the right.  Following Yoshinaka et al., "Finding all
solutions and instances of Numberlink and Slitherlink by ZDDs" (Algorithms
5(2), 2012), a crossing edge ("plug") carries either the pair whose end it
already reaches (a *colour*) or, for a piece of path not yet tied to an end,
the position of the piece's other plug (its *mate*).  Mates are positions, so
the encoding is canonical without renumbering and equal states merge.  An
*action* is what a cell sends on: the bits RIGHT and DOWN.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from search.core.contract import Deadline, LimitReached
from search.numberlink.model import Cell, Numberlink, Solution

RIGHT, DOWN = 1, 2  # the edges a cell sends on, as bits of an action


class TooWide(Exception):
    """The frontier would hold more states than the memory bound allows."""


@dataclass(frozen=True)
class Board:
    """The puzzle as the programme sees it: turned to be no wider than tall.

    Of the turns that keep the frontier narrowest (transposing, mirroring the
    rows, mirroring the columns), the one that meets the ends of the pairs
    earliest on average, the first end of each pair counting double, is taken:
    on lenient boards, rows processed before any end breed pieces of path that
    have yet to find their pairs, and the number of states differs tenfold
    between turns of one board.
    """

    height: int
    width: int
    kinds: tuple[int, ...]  # per cell, row-major: -1 blocked, 0 free, 1 + k end of pair k
    pairs: int
    lenient: bool
    transposed: bool
    second_end: tuple[bool, ...] = ()  # per cell: the later end of its pair in this order
    flip_rows: bool = False
    flip_cols: bool = False

    @classmethod
    def of(cls, puzzle: Numberlink, *, turn: bool = True) -> Board:
        return cls.ranked(puzzle)[0] if turn else cls.turns(puzzle)[0]

    @classmethod
    def turns(cls, puzzle: Numberlink) -> list[Board]:
        """The turns that keep the frontier narrowest, the untouched board first."""
        ways = [(t, fr, fc) for t in (False, True) for fr in (False, True)
                for fc in (False, True)]
        narrow = min(puzzle.width, puzzle.height)
        boards = [cls._turned(puzzle, *way) for way in ways]
        return [b for b in boards if b.width == narrow]  # eight on a square, four oblong

    @classmethod
    def ranked(cls, puzzle: Numberlink) -> list[Board]:
        """The narrow turns, the likeliest cheap one (earliest ends) first."""
        return sorted(cls.turns(puzzle), key=cls._lateness)

    @staticmethod
    def _lateness(board: Board) -> int:
        """Where the ends come in the order, first ends weighing twice as much as
        second ones.  On the Flow Free levels from 11 x 11 and five Janko 14 x 14
        boards (no-touch lenient passes) its turns cost 1.8 times the work of the
        best turn, the plain sum's 1.9 times; jumbo_14x14_21: 8 times less."""
        return sum(i if board.second_end[i] else 2 * i
                   for i, kind in enumerate(board.kinds) if kind > 0)

    @classmethod
    def _turned(cls, puzzle: Numberlink, transposed: bool, flip_rows: bool,
                flip_cols: bool) -> Board:
        height, width = (puzzle.width, puzzle.height) if transposed else (
            puzzle.height, puzzle.width)
        board = cls(height, width, (), len(puzzle.pairs), not puzzle.full_cover, transposed,
                    (), flip_rows, flip_cols)
        ends = puzzle.endpoint
        kinds = []
        for r in range(height):
            for c in range(width):
                cell = board.cell(r, c)
                if cell in puzzle.blocked:
                    kinds.append(-1)
                else:
                    kinds.append(1 + ends[cell] if cell in ends else 0)
        last = {}
        for i, kind in enumerate(kinds):
            if kind > 0:
                last[kind] = i
        second = tuple(kind > 0 and last[kind] == i and kinds.index(kind) < i
                       for i, kind in enumerate(kinds))
        return cls(height, width, tuple(kinds), len(puzzle.pairs), not puzzle.full_cover,
                   transposed, second, flip_rows, flip_cols)

    def cell(self, r: int, c: int) -> Cell:
        """The puzzle's cell at (r, c) of this board."""
        if self.flip_rows:
            r = self.height - 1 - r
        if self.flip_cols:
            c = self.width - 1 - c
        return (c, r) if self.transposed else (r, c)


def encoding_fits(pairs: int, width: int) -> bool:
    return 2 * pairs + 2 * (width + 1) + 1 <= 256


# ---------------------------------------------------------------- solutions


def scan(kinds: list[int], H: int, W: int, deadline: Deadline
         ) -> Iterator[tuple[int, int, int, bool, bool]]:
    """The cells in row-major order: (row, column, kind, a path may go right,
    a path may go down); LimitReached when the deadline passes."""
    for r in range(H):
        for c in range(W):
            if deadline.expired():
                raise LimitReached
            yield (r, c, kinds[r * W + c], c + 1 < W and kinds[r * W + c + 1] >= 0,
                   r + 1 < H and kinds[(r + 1) * W + c] >= 0)


def solution_of(board: Board, puzzle: Numberlink, actions: tuple[int, ...]) -> Solution:
    """Turn per-cell actions into one path per pair, from ``a`` to ``b``."""
    W = board.width
    steps: dict[Cell, list[Cell]] = {}

    def link(x: Cell, y: Cell) -> None:
        steps.setdefault(x, []).append(y)
        steps.setdefault(y, []).append(x)

    for i, action in enumerate(actions):
        r, c = divmod(i, W)
        if action & RIGHT:
            link(board.cell(r, c), board.cell(r, c + 1))
        if action & DOWN:
            link(board.cell(r, c), board.cell(r + 1, c))
    paths = []
    for pair in puzzle.pairs:
        path, previous = [pair.a], None
        while path[-1] != pair.b:
            here = path[-1]
            following = [x for x in steps[here] if x != previous]
            previous = here
            path.append(following[0])
        paths.append(tuple(path))
    return Solution(tuple(paths))

"""Lianliankan under gravity as CP-SAT, for boards whose columns are stacks.

A board is *packed* when no column has an empty cell below a tile (every
full board is, and gravity keeps it so).  Then a column at any moment is a
stack on the bottom row, and everything a line needs is a count:

* tile a sits on row ``H - 1 - B(a)``, where ``B(a)`` is the number of
  tiles below it in its column not yet removed;
* cell (r, c) of another column is empty exactly when that column holds at
  most ``H - 1 - r`` tiles; on a's row: at most ``B(a)``;
* the cells above a are empty exactly when every tile above it is gone
  ("a is on top"), the cells below a never are (the ring below the board
  is reached only when a is at the bottom: every tile below it gone).

So the model needs no time expansion: one step ``s[t]`` per tile (two mates
share one, every other two tiles are strictly ordered), and a literal
``prec[u, t]`` for "u goes before t" where a count or a "top" needs it.
Per pair of one picture, ``mate[a, b]`` and one literal per kind of line:

* different columns (a left of b): straight (``B(a) = B(b)``, the columns
  between hold at most ``B(a)``); the corner above b (a higher, b on top,
  the columns between at most ``B(a)``) and the corner above a; through a
  column c between (at most ``B(a)`` tiles between a and c, at most ``B(b)``
  between c and b, both at c); up and over (both on top; the columns
  between not full, or nothing at all with the ring); down and under (ring:
  both at the bottom).  Lines through a column outside the two are never
  needed: they cross the cell above a (or b), and then the corner line is
  open too;
* one column (a above b): straight (every tile between gone), or around
  through the next column on either side (it holds at most ``B(b)``; the
  ring on that side needs nothing).

Each pair's steps are read back in order and replayed on the board, where
each move's line is found by the board's own path finder.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from ortools.sat.python import cp_model

from search.core.contract import Deadline
from search.lianliankan.model import Board, Cell, Move, Solution
from search.lianliankan.paths import Field


def packed(board: Board) -> bool:
    """No column has an empty cell below a tile."""
    return not any(
        board.grid[r][c] and not board.grid[r + 1][c]
        for r in range(board.height - 1) for c in range(board.width)
    )


class StackModel:
    """The order model of a packed board under gravity (see the module's doc)."""

    def __init__(self, board: Board, deadline: Deadline | None = None, layers: bool = False):
        """``layers``: pairs that share no column may share a step (see the
        module's doc); else every two pairs are strictly ordered."""
        deadline = deadline or Deadline(None)
        self.board = board
        self.layers = layers
        self.model = m = cp_model.CpModel()
        self.tiles = tiles = list(board.tiles)
        self.steps = steps = len(tiles) // 2
        self.column: dict[int, list[Cell]] = defaultdict(list)  # top to bottom
        for t in tiles:
            self.column[t[1]].append(t)
        self.step = {t: m.new_int_var(0, max(steps - 1, 0), f"s{t}") for t in tiles}
        self._prec: dict[tuple[Cell, Cell], Any] = {}
        self._cells: dict[tuple[str, int, Cell], Any] = {}  # low and open literals
        self.mate: dict[tuple[Cell, Cell], Any] = {}
        by_picture: dict[int, list[Cell]] = defaultdict(list)
        for t in tiles:
            by_picture[board.at(t)].append(t)
        mates_of: dict[Cell, list] = defaultdict(list)
        for group in by_picture.values():
            for i, a in enumerate(group):
                for b in group[i + 1:]:
                    deadline.check()
                    mate = m.new_bool_var(f"mate{a}{b}")
                    self.mate[a, b] = mate
                    mates_of[a].append(mate)
                    mates_of[b].append(mate)
                    m.add(self.step[a] == self.step[b]).only_enforce_if(mate)
                    if self._strict(a, b):  # two tiles: mates, or one strictly first
                        m.add_exactly_one(mate, self.prec(a, b), self.prec(b, a))
                    else:  # or, in other columns, in one layer with other mates
                        m.add_at_most_one(mate, self.prec(a, b), self.prec(b, a))
                    m.add_bool_or(self._lines(a, b)).only_enforce_if(mate)
        for t in tiles:
            m.add_exactly_one(mates_of[t])
        for column in self.column.values():  # a column's removals are strictly ordered
            for i, u in enumerate(column):
                for t in column[i + 1:]:
                    self.prec(u, t)

    # ------------------------------------------------------------ order

    def prec(self, u: Cell, t: Cell) -> Any:
        """The literal: u is removed at an earlier step than t."""
        key = (u, t)
        if key not in self._prec:
            m, s = self.model, self.step
            lit = m.new_bool_var(f"prec{u}{t}")
            m.add(s[u] + 1 <= s[t]).only_enforce_if(lit)
            if self.board.at(u) == self.board.at(t) or not self._strict(u, t):
                m.add(s[t] <= s[u]).only_enforce_if(~lit)
                self._prec[key] = lit
                self._prec[t, u] = other = m.new_bool_var(f"prec{t}{u}")
                m.add(s[t] + 1 <= s[u]).only_enforce_if(other)
                m.add(s[u] <= s[t]).only_enforce_if(~other)
            else:  # never mates, never in one step: one of them goes first
                m.add(s[t] + 1 <= s[u]).only_enforce_if(~lit)
                self._prec[key], self._prec[t, u] = lit, ~lit
        return self._prec[key]

    def _strict(self, u: Cell, t: Cell) -> bool:
        """Whether u and t, unless mates, are at different steps: always
        without layers, else when they share a column."""
        return not self.layers or u[1] == t[1]

    def _left(self, cells: Iterable[Cell], t: Cell) -> Any:
        """The number of ``cells`` still on the board when t goes."""
        return sum(1 - self.prec(u, t) for u in cells)

    def _above(self, t: Cell) -> list[Cell]:
        return [u for u in self.column[t[1]] if u[0] < t[0]]

    def _below(self, t: Cell) -> list[Cell]:
        return [u for u in self.column[t[1]] if u[0] > t[0]]

    # ------------------------------------------------------------ lines

    def _lines(self, a: Cell, b: Cell) -> list:
        """One literal per kind of line that can join a and b; each implies
        a and b are mates and what its cells need to be empty."""
        m, board, mate = self.model, self.board, self.mate[a, b]
        lines = []

        def line(*needs: Any) -> None:
            lit = m.new_bool_var("line")
            m.add_implication(lit, mate)
            for need in needs:
                if isinstance(need, bool):  # a comparison of two constants
                    if not need:
                        m.add(lit == 0)
                elif isinstance(need, cp_model.BoundedLinearExpression):
                    m.add(need).only_enforce_if(lit)
                else:
                    m.add_implication(lit, need)
            lines.append(lit)

        if a[1] == b[1]:
            upper, lower = sorted((a, b))
            line(*(self.prec(u, upper) for u in self.column[a[1]] if upper[0] < u[0] < lower[0]))
            if board.turns >= 2:
                for c in (a[1] - 1, a[1] + 1):
                    if 0 <= c < board.width:  # its cell beside the lower tile is empty
                        line(self._low(c, lower))
                    elif board.border:
                        line()  # round through the ring
            return lines
        if a[1] > b[1]:
            a, b = b, a
        between = range(a[1] + 1, b[1])
        depth_a, depth_b = self._left(self._below(a), a), self._left(self._below(b), b)
        top_a = [self.prec(u, a) for u in self._above(a)]
        top_b = [self.prec(u, b) for u in self._above(b)]
        line(depth_a == depth_b, *(self._low(c, a) for c in between))
        if board.turns >= 1:  # a higher, turn above b; b higher, turn above a
            line(depth_a >= depth_b + 1, *top_b, *(self._low(c, a) for c in between))
            line(depth_b >= depth_a + 1, *top_a, *(self._low(c, b) for c in between))
        if board.turns >= 2:
            ring = 1 if board.border else 0
            for c in range(-ring, board.width + ring):
                if c in (a[1], b[1]):
                    continue
                # along a's row to column c, down or up c, along b's row to b
                line(*(self._low(x, a) for x in _span(a[1], c)),
                     *(self._low(x, b) for x in _span(b[1], c)))
            if board.border:
                line(*top_a, *top_b)  # over the top through the ring
                line(*(self.prec(u, a) for u in self._below(a)),
                     *(self.prec(u, b) for u in self._below(b)))  # under, through the ring
            else:  # along row 0 (or a shorter line when a tile is already there)
                line(*top_a, *top_b, *(self._open(c, a) for c in between))
        return lines

    def _low(self, c: int, t: Cell) -> Any:
        """The literal: when t goes, column c (not t's) holds at most as many
        tiles as are left below t, so its cell on t's row is empty."""
        key = ("low", c, t)
        if key not in self._cells:
            lit = self._cells[key] = self.model.new_bool_var(f"low{c}{t}")
            column = self.column.get(c, [])
            if column:
                self.model.add(
                    self._left(column, t) <= self._left(self._below(t), t)
                ).only_enforce_if(lit)
        return self._cells[key]

    def _open(self, c: int, t: Cell) -> Any:
        """The literal: when t goes, column c is not full (its top cell is empty)."""
        key = ("open", c, t)
        if key not in self._cells:
            lit = self._cells[key] = self.model.new_bool_var(f"open{c}{t}")
            column = self.column.get(c, [])
            if len(column) == self.board.height:
                self.model.add_bool_or([self.prec(u, t) for u in column]).only_enforce_if(lit)
        return self._cells[key]

    # ------------------------------------------------------------ answers

    def hint(self, moves: list[Move]) -> None:
        """Hint the clearing ``moves`` (cells as played): each tile's step and mate."""
        where = {t: t for t in self.tiles}  # tile (by first cell) -> cell now
        removed: dict[Cell, int] = {}
        for k, move in enumerate(moves):
            here = {cell: t for t, cell in where.items() if t not in removed}
            a, b = here[move.a], here[move.b]
            removed[a] = removed[b] = k
            for t, cell in where.items():
                if t not in removed:
                    drop = sum(1 for g in (move.a, move.b) if g[1] == cell[1] and g[0] > cell[0])
                    where[t] = (cell[0] + drop, cell[1])
        m = self.model
        for t, var in self.step.items():
            m.add_hint(var, removed[t])
        for (a, b), lit in self.mate.items():
            m.add_hint(lit, removed[a] == removed[b])
        for (u, t), lit in self._prec.items():
            if isinstance(lit, cp_model.IntVar):  # the negations follow
                m.add_hint(lit, removed[u] < removed[t])

    def solution(self, value) -> Solution:
        """The pairs in the order of their steps, each line found on the board as it is."""
        pairs = sorted((value(self.step[a]), a, b) for (a, b), lit in self.mate.items()
                       if value(lit))
        field = Field(self.board)
        where = {t: field.index(t) for t in self.tiles}
        moves = []
        for _, a, b in pairs:
            ia, ib = where.pop(a), where.pop(b)
            corners = field.line(ia, ib)
            if corners is None:
                raise AssertionError(f"the stack model joined {a} and {b}, but no line does")
            moves.append(field.move(ia, ib, corners))
            field.remove(ia, ib)
            for t, i in where.items():  # the fall: one row per removal below, same column
                drop = sum(1 for g in (ia, ib) if g % field.stride == i % field.stride and g > i)
                where[t] = i + drop * field.stride
        return Solution(tuple(moves))


def _span(c: int, d: int) -> range:
    """The columns from c to d, c excluded and d included (d may be the ring)."""
    return range(c + 1, d + 1) if d > c else range(d, c)

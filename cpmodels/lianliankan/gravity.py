"""Lianliankan with gravity as CP-SAT: a time-expanded model of the columns.

Under gravity a removal deletes a tile from its column and the part above
slides down one cell, empty cells included.  So every element of a column
(tile or empty cell) sits, at step ``k``, at its first row plus the number of
tiles below it removed before ``k``: a tile's position is a function of the
removals below it in its column, and a column's order never changes.

Variables, per tile ``t`` and step ``k`` (one pair goes per step):

* ``rem[t, k]``: t goes at step k (exactly one k per tile);
* ``at[t, k, r]``: t is still on the board before step k, on row r (only the
  rows it can reach by then: its first row plus at most the tiles below it,
  and at most two per step);
* ``pair[a, b, k]``: the pair (a, b) of one picture goes at step k (exactly
  one pair per step); ``rem[t, k]`` is the sum of t's pairs at k;
* ``line[...]``: a pair at step k, its two rows, and one line between those
  cells; a line holds only if every board cell on it is empty before step k.

A cell (r, c) is full before step k exactly when some tile of column c is
there (``sum at[u, k, r]`` over the column's tiles); a cell on a line is never
a tile that cannot reach it, so of the lines of one pair, step and rows only
those whose cells that may be full are minimal by inclusion are kept.

Safe pictures (``gravity.GravitySearch``'s closure) are played first.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ortools.sat.python import cp_model

from cpmodels.lianliankan.lines import corner_choices, line_cells
from search.core.contract import Deadline
from search.lianliankan.model import Board, Cell, Move, Solution


class GravityModel:
    """The time-expanded CP-SAT model of one board under gravity."""

    def __init__(self, board: Board, deadline: Deadline | None = None):
        deadline = deadline or Deadline(None)  # LimitReached when it passes mid-build
        self.board = board
        self.model = m = cp_model.CpModel()
        self._shapes: dict[tuple[Cell, Cell], list] = {}
        self._cells: dict[tuple[int, int, int], cp_model.IntVar] = {}
        self._options: dict[tuple[Cell, Cell, int], list] = {}
        tiles = list(board.tiles)
        self.steps = steps = len(tiles) // 2
        below = {t: [u for u in tiles if u[1] == t[1] and u[0] > t[0]] for t in tiles}
        # the first step by which every tile can have reached every row it ever can
        self.settled = max(((len(b) + 1) // 2 for b in below.values()), default=0)
        self.rows = rows = {
            (t, k): range(t[0], t[0] + min(len(below[t]), 2 * k) + 1)
            for t in tiles for k in range(steps)
        }
        self.rem = {(t, k): m.new_bool_var(f"rem{t}{k}") for t in tiles for k in range(steps)}
        for t in tiles:
            m.add_exactly_one(self.rem[t, k] for k in range(steps))
        # gone[t][k] = removed before step k; alive = 1 - gone
        gone: dict[tuple[Cell, int], Any] = {}
        for t in tiles:
            total: Any = 0
            for k in range(steps):
                gone[t, k] = total
                total = total + self.rem[t, k]
        self.at: dict[tuple[Cell, int, int], cp_model.IntVar] = {}
        for t in tiles:
            for k in range(steps):
                lits = []
                position = t[0] + sum(gone[u, k] for u in below[t])
                for r in rows[t, k]:
                    lit = m.new_bool_var(f"at{t}{k}_{r}")
                    self.at[t, k, r] = lit
                    m.add(position == r).only_enforce_if(lit)
                    lits.append(lit)
                m.add(sum(lits) == 1 - gone[t, k])
        # the tiles that may be on a cell before step k
        occupants: dict[tuple[int, int, int], list] = defaultdict(list)
        for (t, k, r), lit in self.at.items():
            occupants[r, t[1], k].append(lit)
        by_picture: dict[int, list[Cell]] = defaultdict(list)
        for t in tiles:
            by_picture[board.at(t)].append(t)
        self.pairs: dict[tuple[Cell, Cell, int], cp_model.IntVar] = {}
        self.lines: list[tuple[Cell, Cell, int, Cell, Cell, tuple[Cell, ...], Any]] = []
        of_tile: dict[tuple[Cell, int], list] = defaultdict(list)
        for group in by_picture.values():
            for i, a in enumerate(group):
                for b in group[i + 1:]:
                    for k in range(steps):
                        deadline.check()
                        p = m.new_bool_var(f"pair{a}{b}{k}")
                        self.pairs[a, b, k] = p
                        of_tile[a, k].append(p)
                        of_tile[b, k].append(p)
                        options = self._lines(a, b, k, occupants)
                        if not options:
                            m.add(p == 0)
                            continue
                        ways = []
                        for ca, cb, corners, full in options:
                            lit = m.new_bool_var("line")
                            m.add_bool_and([p, self.at[a, k, ca[0]], self.at[b, k, cb[0]],
                                            *(~self._full(cell, k, occupants) for cell in full)
                                            ]).only_enforce_if(lit)
                            ways.append(lit)
                            self.lines.append((a, b, k, ca, cb, corners, lit))
                        m.add_bool_or(ways).only_enforce_if(p)
        for k in range(steps):
            m.add_exactly_one(p for (_, _, j), p in self.pairs.items() if j == k)
            for t in tiles:
                m.add(self.rem[t, k] == sum(of_tile[t, k]))

    def _full(self, cell: Cell, k: int, occupants) -> cp_model.IntVar:
        """The literal: cell is full before step k (one of its possible tiles is there)."""
        key = (*cell, k)
        if key not in self._cells:
            lit = self._cells[key] = self.model.new_bool_var(f"full{key}")
            self.model.add(sum(occupants[key]) == lit)
        return self._cells[key]

    def _geometry(self, ca: Cell, cb: Cell) -> list[tuple[tuple[Cell, ...], tuple[Cell, ...]]]:
        """Every line from cell ca to cell cb: its corners and the board cells
        it crosses (the ring is always empty), computed once per two cells."""
        key = (ca, cb)
        if key not in self._shapes:
            board = self.board
            self._shapes[key] = [
                (corners, tuple(cell for cell in line_cells(ca, corners, cb)
                                if 0 <= cell[0] < board.height and 0 <= cell[1] < board.width))
                for corners in corner_choices(board, ca, cb)
            ]
        return self._shapes[key]

    def _lines(self, a: Cell, b: Cell, k: int, occupants) -> list:
        """Per rows of a and b before step k, the lines whose cells that may be
        full are minimal; each as (cell of a, cell of b, corners, cells that may be full).

        From the step on which no tile can reach a new row (``settled``), the
        answer is the same at every step: it is computed once."""
        key = (a, b, min(k, self.settled))
        if key not in self._options:
            self._options[key] = self._lines_at(a, b, min(k, self.settled), occupants)
        return self._options[key]

    def _lines_at(self, a: Cell, b: Cell, k: int, occupants) -> list:
        out = []
        for ra in self.rows[a, k]:
            for rb in self.rows[b, k]:
                ca, cb = (ra, a[1]), (rb, b[1])
                if ca == cb:
                    continue
                found: dict[frozenset[Cell], tuple[Cell, ...]] = {}
                for corners, cells in self._geometry(ca, cb):
                    full = frozenset(cell for cell in cells if occupants.get((*cell, k)))
                    if full not in found:
                        found[full] = corners
                for full, corners in found.items():
                    if not any(other < full for other in found):
                        out.append((ca, cb, corners, full))
        return out

    def hint(self, moves: list[Move]) -> None:
        """Hint the clearing ``moves`` (cells as played): each tile's step and
        row at every step, and each step's pair; the lines are left to CP-SAT."""
        rows = {t: t for t in self.board.tiles}  # where each tile (by first cell) is now
        removed: dict[Cell, int] = {}
        m = self.model
        for k, move in enumerate(moves):
            for (t, j, r), lit in self.at.items():
                if j == k:
                    m.add_hint(lit, t not in removed and rows[t][0] == r)
            here = {cell: t for t, cell in rows.items() if t not in removed}
            a, b = here[move.a], here[move.b]
            removed[a] = removed[b] = k
            for (x, y, j), lit in self.pairs.items():
                if j == k:
                    m.add_hint(lit, {x, y} == {a, b})
            for t, cell in rows.items():  # the fall: one row per removal below
                if t not in removed:
                    drop = sum(1 for g in (move.a, move.b) if g[1] == cell[1] and g[0] > cell[0])
                    rows[t] = (cell[0] + drop, cell[1])
        for (t, k), lit in self.rem.items():
            m.add_hint(lit, removed.get(t) == k)

    def solution(self, value) -> Solution:
        chosen: dict[int, Move] = {}
        for _, _, k, ca, cb, corners, lit in self.lines:
            if k not in chosen and value(lit):  # one line per step (several may hold)
                chosen[k] = Move(ca, cb, corners)
        return Solution(tuple(chosen[k] for k in sorted(chosen)))

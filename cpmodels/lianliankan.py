"""Lianliankan as CP-SAT: which tiles pair up, which line each pair draws, and
in what order the pairs go.

For every two tiles of one picture the model lists the lines of at most
``board.turns`` turns (a straight line, the two one-turn lines through the
rectangle's other corners, the two-turn lines through every row and column,
the border ring included when the board allows it).  A line only needs the
tiles on it gone, so of the lines of one pair only those whose set of blocking
tiles is minimal (by inclusion) are kept: any other line is blocked by a
superset of tiles and never helps.

Variables: ``use[p]`` (pair p is removed together; every tile is in exactly
one used pair), ``draw[p, l]`` (pair p uses line l; exactly one when used) and
an integer ``turn[t]`` per tile, the step in which it goes (both tiles of a
used pair share it).  Drawing a line makes every tile on it go strictly
earlier.  Without gravity a removal only empties cells, so pairs with equal
steps never block each other and any order of them plays.

Redundant facts that help the proofs of unsolvable boards:
- some used pair draws a line with no tile on it (the first move);
- a picture's tiles go in a chain of steps, and with exactly two tiles of a
  picture left ... (see ``_add_redundant``).
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from cpmodels.common import effort, make_solver
from search.core import Backend, SolveResult, Status, Unsupported
from search.lianliankan.model import Board, Cell, Move, Solution


@dataclass(frozen=True)
class Line:
    """One way to join a pair: its turning cells and the tiles in its way."""

    corners: tuple[Cell, ...]
    blockers: frozenset[Cell]


# ---------------------------------------------------------------- geometry


def _segment(p: Cell, q: Cell) -> list[Cell]:
    """The cells from p to q (same row or column), both ends included."""
    (r1, c1), (r2, c2) = p, q
    if r1 == r2:
        step = 1 if c2 >= c1 else -1
        return [(r1, c) for c in range(c1, c2 + step, step)]
    step = 1 if r2 >= r1 else -1
    return [(r, c1) for r in range(r1, r2 + step, step)]


def _corner_choices(board: Board, a: Cell, b: Cell) -> list[tuple[Cell, ...]]:
    """The turning cells of every line of at most ``board.turns`` turns from a to b."""
    (r1, c1), (r2, c2) = a, b
    ring = 1 if board.border else 0
    rows = range(-ring, board.height + ring)
    cols = range(-ring, board.width + ring)
    found: list[tuple[Cell, ...]] = []
    if r1 == r2 or c1 == c2:
        found.append(())
    elif board.turns >= 1:
        found += [((r1, c2),), ((r2, c1),)]
    if board.turns >= 2:
        if r1 != r2:  # horizontal, vertical through column c, horizontal
            found += [((r1, c), (r2, c)) for c in cols if c not in (c1, c2)]
        if c1 != c2:  # vertical, horizontal through row r, vertical
            found += [((r, c1), (r, c2)) for r in rows if r not in (r1, r2)]
    return found


def candidate_lines(board: Board, a: Cell, b: Cell) -> list[Line]:
    """The lines from a to b that no other line of the pair beats.

    A line is beaten when another one is blocked by a subset of its tiles; of
    lines blocked by the same tiles the one with fewer turns is kept.
    """
    lines: dict[frozenset[Cell], Line] = {}
    for corners in _corner_choices(board, a, b):
        points = (a, *corners, b)
        cells: set[Cell] = set()
        for p, q in zip(points, points[1:], strict=False):
            cells.update(_segment(p, q))
        cells -= {a, b}
        blockers = frozenset(
            cell for cell in cells
            if 0 <= cell[0] < board.height and 0 <= cell[1] < board.width and board.at(cell)
        )
        if blockers not in lines:
            lines[blockers] = Line(corners, blockers)
    return [
        line for line in lines.values()
        if not any(other < line.blockers for other in lines)
    ]


# ---------------------------------------------------------------- the model


class _Model:
    """The CP-SAT model of one board and the way back from its solution."""

    def __init__(self, board: Board, relax: bool = True, prec: bool = True, clause: bool = False):
        self.board = board
        self.model = m = cp_model.CpModel()
        tiles = board.tiles
        steps = len(tiles) // 2
        self.turn = turn = {t: m.new_int_var(0, max(steps - 1, 0), f"turn{t}") for t in tiles}
        self.pairs: list[tuple[Cell, Cell, list[Line]]] = []
        self.use: list[cp_model.IntVar] = []
        self.draw: list[list[cp_model.IntVar]] = []
        pairs_of: dict[Cell, list[cp_model.IntVar]] = defaultdict(list)
        # per tile: (draw literal, the earliest step its line allows)
        options_of: dict[Cell, list[tuple[cp_model.IntVar, Any]]] = defaultdict(list)
        free_draws: list[cp_model.IntVar] = []
        for a, b in _same_picture_pairs(board):
            lines = candidate_lines(board, a, b)
            if not lines:
                continue
            k = len(self.pairs)
            use = m.new_bool_var(f"use{k}")
            draws = [m.new_bool_var(f"draw{k}_{j}") for j in range(len(lines))]
            m.add(sum(draws) == use)
            m.add(turn[a] == turn[b]).only_enforce_if(use)
            for j, (draw, line) in enumerate(zip(draws, lines, strict=True)):
                if not line.blockers:
                    free_draws.append(draw)
                    ready: Any = 0
                else:
                    ready = m.new_int_var(1, steps, f"ready{k}_{j}")
                    for t in line.blockers:
                        m.add(ready >= turn[t] + 1)
                        if prec:
                            m.add(turn[t] < turn[a]).only_enforce_if(draw)
                    m.add(turn[a] >= ready).only_enforce_if(draw)
                options_of[a].append((draw, ready))
                options_of[b].append((draw, ready))
            self.pairs.append((a, b, lines))
            self.use.append(use)
            self.draw.append(draws)
            pairs_of[a].append(use)
            pairs_of[b].append(use)
        for t in tiles:
            m.add_exactly_one(pairs_of[t])
            if relax:
                self._earliest(t, options_of[t], steps)
            if clause:
                m.add_exactly_one([d for d, _ in options_of[t]])
        if tiles:  # redundant: the first move needs a line with no tile in its way
            m.add_bool_or(free_draws)

    def _earliest(self, t: Cell, options: list[tuple[Any, Any]], steps: int) -> None:
        """Redundant: a tile goes no earlier than the earliest of its remaining lines allows.

        ``at[i]`` is the tile's step when option i is drawn and ``steps`` (past
        the end) when not, so ``turn = min(at)`` bounds the step from below by
        every option still open, which the per-line implications alone do not.
        """
        m = self.model
        at = []
        for i, (draw, ready) in enumerate(options):
            x = m.new_int_var(0, steps, f"at{t}_{i}")
            m.add(x == self.turn[t]).only_enforce_if(draw)
            m.add(x == steps).only_enforce_if(~draw)
            m.add(x >= ready)
            at.append(x)
        m.add_min_equality(self.turn[t], at)

    def solution(self, value: Any) -> Solution:
        chosen = []
        for (a, b, lines), use, draws in zip(self.pairs, self.use, self.draw, strict=True):
            if value(use):
                line = next(line for line, d in zip(lines, draws, strict=True) if value(d))
                chosen.append((value(self.turn[a]), a, b, line.corners))
        chosen.sort()
        return Solution(tuple(Move(a, b, corners) for _, a, b, corners in chosen))


# ---------------------------------------------------------------- the backend


class CpSatBackend(Backend[Board, Solution]):
    """Finds a clearing sequence with CP-SAT, or proves that none exists.

    Options: ``workers`` (CP-SAT search workers, default 1), ``seed``.
    Only ``solve``: clearing sequences differ by the order of independent
    removals, so counting them or asking for a unique one says little.
    """

    name = "cpsat"
    tasks = frozenset({"solve"})

    def solve(self, puzzle: Board, *, time_limit: float | None = None) -> SolveResult[Solution]:
        start = time.perf_counter()
        _check_rules(puzzle)
        self.effort = {}
        odd = _odd_pictures(puzzle)
        if odd:
            message = f"picture {odd[0]} occurs an odd number of times"
            return SolveResult(Status.UNSAT, None, time.perf_counter() - start, {}, message)
        built = _Model(puzzle, **{k: v for k, v in self.options.items() if k in ('relax', 'prec', 'clause')})
        left = None if time_limit is None else time_limit - (time.perf_counter() - start)
        if left is not None and left <= 0:
            return SolveResult(Status.LIMIT, None, time.perf_counter() - start, {})
        solver = make_solver(
            time_limit=left,
            workers=int(self.options.get("workers", 1)),
            seed=self.options.get("seed"),
        )
        status = solver.solve(built.model)
        self.effort = effort(solver)
        wall = time.perf_counter() - start
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            solution = built.solution(solver.value)
            return SolveResult(Status.SOLVED, solution, wall, dict(self.effort))
        if status == cp_model.INFEASIBLE:
            return SolveResult(Status.UNSAT, None, wall, dict(self.effort))
        if status == cp_model.UNKNOWN:
            return SolveResult(Status.LIMIT, None, wall, dict(self.effort))
        message = f"CP-SAT returned {solver.status_name(status)}"
        return SolveResult(Status.ERROR, None, wall, dict(self.effort), message)

    def solutions(self, puzzle: Board, *, time_limit: float | None = None):
        raise Unsupported(_NO_ENUMERATION)

    def count(self, puzzle: Board, *, limit: int | None = None, time_limit: float | None = None):
        raise Unsupported(_NO_ENUMERATION)

    def unique(self, puzzle: Board, *, time_limit: float | None = None):
        raise Unsupported(_NO_ENUMERATION)


_NO_ENUMERATION = (
    "lianliankan backend 'cpsat' only solves: clearing sequences differ by the order of "
    "independent removals, so it neither counts them nor tells a unique one"
)


def _same_picture_pairs(board: Board) -> list[tuple[Cell, Cell]]:
    by_picture: dict[int, list[Cell]] = defaultdict(list)
    for t in board.tiles:
        by_picture[board.at(t)].append(t)
    return [
        (a, b) for group in by_picture.values() for i, a in enumerate(group) for b in group[i + 1:]
    ]


def _check_rules(board: Board) -> None:
    if board.gravity:
        raise Unsupported(
            "lianliankan backend 'cpsat' does not model gravity (tiles falling after a "
            "removal); use --backend search"
        )
    if not 0 <= board.turns <= 2:
        raise Unsupported(
            f"lianliankan backend 'cpsat' models lines of at most 2 turns, not {board.turns}"
        )


def _odd_pictures(board: Board) -> list[int]:
    seen: dict[int, int] = defaultdict(int)
    for t in board.tiles:
        seen[board.at(t)] += 1
    return sorted(p for p, n in seen.items() if n % 2)

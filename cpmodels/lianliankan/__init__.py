"""Lianliankan as CP-SAT: which tiles pair up, which line each pair draws, and
in what order the pairs go.  (With gravity: ``gravity`` and ``stacks``; the lines
of a pair: ``lines``.)

For every two tiles of one picture the model lists the lines of at most
``board.turns`` turns: a straight line, the two one-turn lines through the
rectangle's other corners, the two-turn lines through every row and column
(the border ring included when the board allows it).  A line needs only the
tiles on it gone, so of one pair's lines only those whose set of blocking
tiles is minimal by inclusion are kept: any other is blocked by a superset of
tiles and never helps.

Variables, per candidate line ``d``: ``draw[d]``, the pair is removed using
this line, and ``at[d]``, the step of that removal, or ``steps`` (past the
end) when the line is not drawn; per tile ``turn[t]``, the step it goes.

Constraints: every tile has exactly one drawn line; ``turn[t]`` is the
minimum of ``at`` over the tile's lines, so both tiles of a drawn pair share
its step; and ``at[d] > turn[x]`` for every tile ``x`` in the way of ``d``,
"every tile on the chosen line is removed before this pair".  Without
gravity a removal only empties cells, so pairs of equal steps never block
each other and the moves play in the order of their steps, ties in any order.

The precedences hold unconditionally (an undrawn line sits at ``steps``, after
everything), which makes the minimum a reachability argument CP-SAT can
propagate: a tile goes no earlier than the earliest of its lines still open,
and a line blocked by tiles that can never go is closed.  The same argument
runs once before the model is built (``earliest_steps``): a tile it never
reaches makes the board unclearable at once, and its layers bound the steps
from below.  Before that, ``safe_moves`` plays the pictures that can go
entirely now.  One redundant clause says that some drawn line has no tile in
its way (the first move).
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from cpmodels.common import effort, make_solver, solve
from cpmodels.lianliankan.cores import Lines, Pair, deadlock_cores
from cpmodels.lianliankan.gravity import GravityModel
from cpmodels.lianliankan.lines import Line, candidate_lines
from cpmodels.lianliankan.stacks import StackModel, packed
from search.core.contract import Deadline, LimitReached, SolveResult, Status, Unsupported
from search.lianliankan.backend import LianliankanBackend
from search.lianliankan.deadend import removable
from search.lianliankan.model import Board, Cell, Move, Solution
from search.lianliankan.paths import Field
from search.lianliankan.safe import safe_removals
from search.lianliankan.solver import clearing, dead_pairs

# ---------------------------------------------------------------- safe moves


def safe_moves(
    board: Board, largest: int = 8, deadline: Deadline | None = None
) -> tuple[list[Move], Board]:
    """Removals that every clearable board allows first, and the board after them.

    When all the tiles of one picture can go now by moves among themselves,
    playing those moves first is safe: in any clearing sequence, moving them to
    the front only empties cells earlier for the other pictures' lines (without
    gravity nothing else changes), so the board is clearable iff the rest is.
    Repeated until no picture qualifies; pictures with more than ``largest``
    tiles are not tried.  Stops early, still safe, when ``deadline`` passes.
    """
    moves: list[Move] = []
    progress = True
    while progress and not (deadline and deadline.expired()):
        progress = False
        for cells in _pictures(board).values():
            plan = _clear_alone(board, cells) if len(cells) <= largest else None
            if plan:
                for move in plan:
                    board = board.removed(move.a, move.b)
                moves += plan
                progress = True
    return moves, board


def _clear_alone(board: Board, cells: list[Cell]) -> list[Move] | None:
    """Moves that remove all of ``cells`` (one picture) with nothing else gone, if any."""
    lines = {(a, b): candidate_lines(board, a, b) for a, b in _pairs(cells)}
    dead: set[frozenset[Cell]] = set()

    def clear(left: frozenset[Cell]) -> list[Move] | None:
        if not left:
            return []
        if left in dead:
            return None
        gone = frozenset(cells) - left
        for (a, b), options in lines.items():
            if a in left and b in left:
                line = next((line for line in options if line.blockers <= gone), None)
                rest = None if line is None else clear(left - {a, b})
                if rest is not None:
                    return [Move(a, b, line.corners), *rest]
        dead.add(left)
        return None

    return clear(frozenset(cells))


# ---------------------------------------------------------------- the model


def reached(lines: Lines) -> set[Cell]:
    """The tiles ``earliest_steps`` reaches over these lines (pair: blocker sets)."""
    return set(earliest_steps([(a, b, Line((), blockers))
                               for (a, b), sets in lines.items() for blockers in sets]))


def earliest_steps(lines: list[tuple[Cell, Cell, Line]]) -> dict[Cell, int]:
    """A lower bound on the step of every tile that can go at all.

    The relaxation that forgets that a tile goes only once: a line is ready
    one step after the last of its blockers, a tile at the earliest of its
    lines; tiles missing from the answer can never go.  Computed layer by
    layer, counting for each line the blockers not yet placed.
    """
    waiting = [len(line.blockers) for _, _, line in lines]
    blocks: dict[Cell, list[int]] = defaultdict(list)
    for i, (_, _, line) in enumerate(lines):
        for t in line.blockers:
            blocks[t].append(i)
    earliest: dict[Cell, int] = {}
    ready = [i for i, n in enumerate(waiting) if n == 0]
    step = 0
    while ready:
        placed = []
        for i in ready:
            for t in lines[i][:2]:
                if t not in earliest:
                    earliest[t] = step
                    placed.append(t)
        ready = []
        for t in placed:
            for i in blocks[t]:
                waiting[i] -= 1
                if waiting[i] == 0:
                    ready.append(i)
        step += 1
    return earliest


class _Model:
    """The CP-SAT model of one board and the way back from its solution.

    Per candidate line ``d`` of a pair: a literal ``draw[d]`` and the step
    ``at[d]`` of the pair when drawn, ``steps`` (past the end) when not.  A
    tile goes at the earliest step of its options, exactly one of which is
    drawn; a line's step comes after the steps of the tiles in its way.
    """

    def __init__(self, board: Board, deadline: Deadline | None = None,
                 apart: set[tuple[Cell, Cell]] = frozenset()):
        """``apart``: pairs of tiles known never to go together (no lines)."""
        deadline = deadline or Deadline(None)  # LimitReached when it passes mid-build
        self.board = board
        self.model = m = cp_model.CpModel()
        tiles = board.tiles
        steps = len(tiles) // 2
        lines = []
        for a, b in _same_picture_pairs(board):  # quadratic in a picture's tiles
            deadline.check()
            if (a, b) in apart or (b, a) in apart:
                continue
            lines += [(a, b, line) for line in candidate_lines(board, a, b)]
        earliest = earliest_steps(lines)
        # Tiles that can never go, even if every other removal came first.
        self.stuck = [t for t in tiles if earliest.get(t, steps) >= steps]
        self.turn = {
            t: m.new_int_var(min(earliest.get(t, 0), steps - 1), steps - 1, f"turn{t}")
            for t in tiles
        }
        self.options: list[tuple[Cell, Cell, Line, cp_model.IntVar]] = []
        self.at: list[cp_model.IntVar] = []
        self.steps = steps
        options_of: dict[Cell, list[tuple[cp_model.IntVar, cp_model.IntVar]]] = defaultdict(list)
        first_moves = []
        for a, b, line in lines:
            deadline.check()
            ready = max((earliest.get(t, steps) + 1 for t in line.blockers), default=0)
            if ready >= steps:
                continue  # a line whose blockers cannot all go first
            k = len(self.options)
            draw = m.new_bool_var(f"draw{k}")
            at = m.new_int_var(ready, steps, f"at{k}")
            m.add(at < steps).only_enforce_if(draw)
            m.add(at == steps).only_enforce_if(~draw)
            for t in line.blockers:
                m.add(at >= self.turn[t] + 1)
            if not line.blockers:
                first_moves.append(draw)
            self.options.append((a, b, line, draw))
            self.at.append(at)
            options_of[a].append((draw, at))
            options_of[b].append((draw, at))
        for t in tiles:
            deadline.check()
            m.add_exactly_one([draw for draw, _ in options_of[t]])
            m.add_min_equality(self.turn[t], [at for _, at in options_of[t]])
        if tiles:  # redundant: the first move needs a line with no tile in its way
            m.add_bool_or(first_moves)

    def add_cores(self, budget: int, deadline: Deadline | None = None) -> int:
        """Redundant: per deadlock core (``lianliankan_cores``, ``budget`` runs
        of its pairing search) over the lines kept, "one of its escape pairs is
        chosen", when the search closes every branch; the number of clauses."""
        draws: dict[Pair, list[cp_model.IntVar]] = defaultdict(list)
        blockers: dict[Pair, list[frozenset[Cell]]] = defaultdict(list)
        for a, b, line, draw in self.options:
            draws[a, b].append(draw)
            blockers[a, b].append(line.blockers)
        closed, found = deadlock_cores(blockers, reached, budget, deadline)
        if not closed:  # a closed search is a whole refutation; a part of one only
            # steers CP-SAT, as likely away from its own proof as towards it
            return 0
        # A literal per pair, exactly one per tile: the clauses then propagate
        # to the partners of a tile, which the lines' draws alone do not.
        chosen = {p: self.model.new_bool_var(f"pair{p}") for p in draws}
        by_tile: dict[Cell, list[cp_model.IntVar]] = defaultdict(list)
        for p, var in chosen.items():
            self.model.add(sum(draws[p]) == var)  # at most one line of a pair is drawn
            for t in p:
                by_tile[t].append(var)
        for vars_ in by_tile.values():
            self.model.add_exactly_one(vars_)
        for core in found:
            self.model.add_bool_or([chosen[p] for p in core])
        return len(found)

    def hint(self, moves: list[Move]) -> None:
        """Hint the clearing ``moves``: each pair's step, and per pair the first
        candidate line whose blockers all went before it."""
        step = {t: k for k, move in enumerate(moves) for t in (move.a, move.b)}
        m = self.model
        for t, var in self.turn.items():
            m.add_hint(var, step[t])
        drawn: set[frozenset[Cell]] = set()
        for (a, b, line, draw), at in zip(self.options, self.at, strict=True):
            k = step[a]
            pair = frozenset((a, b))
            use = (step[b] == k and pair not in drawn
                   and all(step[x] < k for x in line.blockers))
            if use:
                drawn.add(pair)
            m.add_hint(draw, use)
            m.add_hint(at, k if use else self.steps)

    def solution(self, value: Any) -> Solution:
        chosen = sorted(
            (value(self.turn[a]), a, b, line.corners)
            for a, b, line, draw in self.options
            if value(draw)
        )
        return Solution(tuple(Move(a, b, corners) for _, a, b, corners in chosen))


# ---------------------------------------------------------------- the backend


class CpSatBackend(LianliankanBackend):
    """Finds a clearing sequence with CP-SAT, or proves that none exists.

    Options: ``workers`` (CP-SAT search workers, default 1), ``seed``, and
    ``presolve`` (default True: play the safe moves of ``safe_moves`` first and
    model only the rest).
    Only ``solve``: clearing sequences differ by the order of independent
    removals, so counting them or asking for a unique one says little.
    """

    @dataclass(frozen=True)
    class Options:
        workers: int = 1  # CP-SAT search workers
        seed: int | None = None
        presolve: bool = True  # play the safe moves first, model only the rest
        hint: bool = True  # hint the search's clearing (found within HINT_NODES nodes)
        stacks: bool = True  # gravity on packed boards: the order model of the stacks
        layers: bool = False  # the stack model: pairs that share no column may share a step
        apart: bool = False  # no gravity: leave out pairs the relaxation keeps apart
        cores: int = 2000  # no gravity, no hint: relaxation runs of the search for deadlock cores
        dtime: float | None = None  # CP-SAT's max_deterministic_time (work, not seconds)

    name = "cpsat"
    rules = frozenset({"border", "gravity", "turns"})

    def solve(self, puzzle: Board, *, time_limit: float | None = None) -> SolveResult[Solution]:
        start = time.perf_counter()
        _check_rules(puzzle)
        self.effort = {}
        odd = _odd_pictures(puzzle)
        if odd:
            message = f"picture {odd[0]} occurs an odd number of times"
            return SolveResult(Status.UNSAT, None, time.perf_counter() - start, {}, message)
        deadline = Deadline(time_limit)
        first: list[Move] = []
        if self.opts.presolve:
            first, puzzle = (safe_removals(puzzle) if puzzle.gravity
                             else safe_moves(puzzle, deadline=deadline))
        walled = _walled_in(puzzle) if puzzle.gravity else []
        if walled:
            message = (f"{len(walled)} tiles can never be removed under gravity, whatever "
                       f"goes first (one at {walled[0]})")
            return SolveResult(Status.UNSAT, None, time.perf_counter() - start,
                               {"safe_moves": len(first)}, message)
        try:
            built = None if deadline.expired() else self._build(puzzle, deadline)
        except LimitReached:
            built = None
        if built is _REFUTED:
            message = "the relaxation keeps every partner away from some tile"
            return SolveResult(Status.UNSAT, None, time.perf_counter() - start,
                               {"safe_moves": len(first)}, message)

        if built is None or deadline.expired():
            return SolveResult(Status.LIMIT, None, time.perf_counter() - start,
                               {"safe_moves": len(first)}, "time limit reached")
        if getattr(built, "stuck", None):
            self.effort = {"safe_moves": len(first)}
            message = (
                f"{len(built.stuck)} tiles can never be removed, whatever goes first "
                f"(one at {built.stuck[0]})"
            )
            return SolveResult(Status.UNSAT, None, time.perf_counter() - start,
                               dict(self.effort), message)
        self.effort = {"safe_moves": len(first)}
        hinted = self.opts.hint and _hint(built, puzzle, deadline, self.effort)
        cores = None
        if not hinted and self.opts.cores and isinstance(built, _Model):
            cores = built.add_cores(self.opts.cores, deadline)  # cheap beside CP-SAT unhinted
            self.effort["cores"] = cores
        left = deadline.remaining()
        if left == 0:  # the search's figures for the hint stay in the answer
            return SolveResult(Status.LIMIT, None, time.perf_counter() - start,
                               dict(self.effort), "time limit reached")
        solver = make_solver(
            time_limit=left,
            workers=self.opts.workers,
            seed=self.opts.seed,
        )
        # Probing in presolve costs more than it finds here: the reachability
        # argument already refutes most boards, and probing every draw literal
        # took most of the wall time on 84-tile boards.
        solver.parameters.cp_model_probing_level = 0
        if self.opts.dtime is not None:
            solver.parameters.max_deterministic_time = self.opts.dtime
        if isinstance(built, GravityModel):  # presolve took 18 of 19 s on a 6 x 4 board
            solver.parameters.cp_model_presolve = False
        try:
            status = solve(solver, built.model)
        except BaseException:  # stopped from outside: the counts so far stay readable
            self.effort = {**effort(solver), **self.effort, "hinted": int(hinted)}
            raise
        self.effort = {**effort(solver), **self.effort, "hinted": int(hinted)}
        wall = time.perf_counter() - start
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            solution = Solution((*first, *built.solution(solver.value).moves))
            return SolveResult(Status.SOLVED, solution, wall, dict(self.effort))
        if status == cp_model.INFEASIBLE:
            return SolveResult(Status.UNSAT, None, wall, dict(self.effort))
        if status == cp_model.UNKNOWN:
            return SolveResult(Status.LIMIT, None, wall, dict(self.effort))
        message = f"CP-SAT returned {solver.status_name(status)}"
        return SolveResult(Status.ERROR, None, wall, dict(self.effort), message)

    def _build(self, board: Board, deadline: Deadline) -> Any:
        """The model of ``board``, or ``_REFUTED`` when the pairs kept apart leave
        some tile no partner."""
        if board.gravity:  # columns as stacks when they are; else time-expanded
            if self.opts.stacks and packed(board):
                return StackModel(board, deadline, layers=self.opts.layers)
            return GravityModel(board, deadline)
        apart: set | None = set()
        if self.opts.apart:
            apart = dead_pairs(board, deadline)
        return _REFUTED if apart is None else _Model(board, deadline, apart)

    def solutions(self, puzzle: Board, *, time_limit: float | None = None):
        raise Unsupported(_NO_ENUMERATION)

    def count(self, puzzle: Board, *, limit: int | None = None, time_limit: float | None = None):
        raise Unsupported(_NO_ENUMERATION)

    def unique(self, puzzle: Board, *, time_limit: float | None = None):
        raise Unsupported(_NO_ENUMERATION)


_REFUTED = "refuted"  # what _build answers for a board the pairs kept apart refute


def _walled_in(board: Board) -> list[Cell]:
    """The tiles of a packed gravity board that no order of removals can take
    (``search.lianliankan.deadend``: the stacks' bounds, grown to a fixpoint),
    in scan order; none on a board that is not packed.  The gravity
    counterpart of the reachability check: the stack model alone did not
    prove such full 16 x 9 boards in 60 s."""
    field = Field(board)
    inside = removable(field)
    return [] if inside is None else [field.cell(t) for t in field.tiles() if t not in inside]
HINT_NODES = 20_000  # the search's budget for a clearing to hint (nodes, not seconds)


def _hint(built: Any, board: Board, deadline: Deadline, figures: dict[str, float]) -> bool:
    """Hint a clearing found by the exact search (within ``HINT_NODES``) to
    CP-SAT, as the model's values; whether one was found.  The hint only
    guides CP-SAT's first dives: the verdict is still CP-SAT's, and a board
    the search cannot clear in the budget is solved without one."""
    moves = clearing(board, HINT_NODES, deadline, figures)
    if moves is None:
        return False
    built.hint(moves)
    return True


_NO_ENUMERATION = (
    "lianliankan backend 'cpsat' only solves: clearing sequences differ by the order of "
    "independent removals, so it neither counts them nor tells a unique one"
)


def _pictures(board: Board) -> dict[int, list[Cell]]:
    by_picture: dict[int, list[Cell]] = defaultdict(list)
    for t in board.tiles:
        by_picture[board.at(t)].append(t)
    return by_picture


def _pairs(cells: list[Cell]) -> Iterator[tuple[Cell, Cell]]:
    return ((a, b) for i, a in enumerate(cells) for b in cells[i + 1:])


def _same_picture_pairs(board: Board) -> Iterator[tuple[Cell, Cell]]:
    """Lazily: a big board has billions of them, and the model's loop checks its deadline."""
    return (pair for cells in _pictures(board).values() for pair in _pairs(cells))


def _check_rules(board: Board) -> None:
    if not 0 <= board.turns <= 2:
        raise Unsupported(
            f"lianliankan backend 'cpsat' models lines of at most 2 turns, not {board.turns}"
        )


def _odd_pictures(board: Board) -> list[int]:
    seen: dict[int, int] = defaultdict(int)
    for t in board.tiles:
        seen[board.at(t)] += 1
    return sorted(p for p, n in seen.items() if n % 2)

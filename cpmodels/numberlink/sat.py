"""Numberlink as a lean SAT model for CP-SAT: Boolean links, one-hot colours,
clauses only (the backend ``sat``).

The encoding of the contest SAT solvers, with no circuit and no order
variables:

- a Boolean per link (a step between neighbouring open cells), a one-hot
  colour per cell (the pair whose path runs through it) and, under the
  lenient rule, an ``empty`` literal; a cell takes only the colours of pairs
  that can reach it from both ends without crossing another label, and
  keeps only those whose cells still have two such neighbours (``colours``);
- degree: an end has exactly one link, another cell none (empty) or two;
- a link joins cells of one colour;
- no self-touch: two neighbours of one colour are linked, and a 2 x 2 square
  holds at most two links;
- canonical (lenient rule): no path makes a detour of ``DETOUR`` cells or
  fewer around a straight row of empty cells (``a b1 .. bn+2 d`` beside
  ``a e1 .. en d``: a shortcut), nor turns a corner whose opposite corner is
  empty and earlier (``cpmodels.numberlink.late_corners``).

Closed loops are not forbidden.  A path leaves an end along one colour and
can only stop at a cell of that colour with one link, the pair's other end;
what else is linked are loops.  Under the lenient rule a loop is simply left
out of the answer (its cells stay empty), so the model is exact: every
lenient solution shortens (each step lowers the length, or keeps it and lowers
the sum of the cells' row-major indices) to one that obeys every rule above,
and every model solution less its loops is a lenient solution.  Under full
cover a loop is cut lazily: solve, add a clause against each loop found,
solve again (few rounds: a loop is rare once every cell needs two links of
one colour).  There no self-touch is only a convention, tried first; a
second pass without it keeps the answer complete.

Every budget is work: CP-SAT's deterministic time with one worker and a fixed
seed (``work``), in runs that restart with the next seed after budgets that
follow Luby's sequence (``restart``); only the caller's time limit is a clock.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

from ortools.sat.python import cp_model

from cpmodels.common import effort, make_solver, solve
from cpmodels.numberlink import detours, late_corners
from search.core.contract import Deadline, LimitReached, SolveResult, Status, add_effort
from search.core.luby import luby
from search.numberlink.backend import NumberlinkBackend
from search.numberlink.model import Cell, Numberlink, Solution

# The longest row of empty cells a detour may not go around (canonical).  Two
# to three cells more than the one-cell bump halve the work on ADC 2015 Q15.
DETOUR = 3
# Search without the LP (the model is pure clauses) and with a light presolve:
# symmetry detection and repeated presolve cost seconds of wall time on a
# 30 x 30 board and find nothing the search needs.
# the unit of the restart budgets (``SatBackend.Options.restart``): about what
# a 30 x 30 board's presolve and first descents take; not tuned
RESTART_WORK = 2.0
PARAMETERS = {"linearization_level": 0, "symmetry_level": 0, "max_presolve_iterations": 1}


def colours(puzzle: Numberlink) -> dict[Cell, frozenset[int]]:
    """The pairs whose path may pass each open cell: reachable from both ends
    over cells free of other labels, among cells that keep two neighbours
    that may carry the pair (a path passes a cell between two of them)."""
    ends = puzzle.endpoint
    near = {cell: puzzle.neighbours(cell) for cell in puzzle.open_cells}
    out: dict[Cell, set[int]] = {cell: set() for cell in puzzle.open_cells}
    for k, pair in enumerate(puzzle.pairs):
        def reach(start: Cell, k: int = k) -> set[Cell]:
            seen, todo = {start}, [start]
            while todo:
                for n in near[todo.pop()]:
                    if n not in seen and ends.get(n, k) == k:
                        seen.add(n)
                        if n not in ends:
                            todo.append(n)
            return seen

        room = reach(pair.a)
        room &= reach(pair.b) if pair.b in room else set()
        todo = [cell for cell in room if cell not in ends]
        while todo:
            cell = todo.pop()
            if cell in room and sum(n in room for n in near[cell]) < 2:
                room.discard(cell)
                todo.extend(n for n in near[cell] if n in room and n not in ends)
        for cell in room:
            out[cell].add(k)
    for cell, k in ends.items():
        out[cell] = {k}
    return {cell: frozenset(ks) for cell, ks in out.items()}


class LinkModel:
    """The model (see the module) and its literals."""

    def __init__(self, puzzle: Numberlink, *, touching: bool = False, canonical: bool = True,
                 deadline: Deadline | None = None):
        deadline = deadline or Deadline(None)  # LimitReached when it passes mid-build
        self.puzzle = puzzle
        model = self.model = cp_model.CpModel()
        ends = puzzle.endpoint
        allowed = colours(puzzle)
        self.colour = {cell: {k: model.new_bool_var("") for k in sorted(ks)}
                       for cell, ks in allowed.items()}
        self.empty: dict[Cell, cp_model.IntVar] = {}
        for cell, one_hot in self.colour.items():
            if cell in ends:
                model.add_bool_or([one_hot[ends[cell]]])
                continue
            options = list(one_hot.values())
            if not puzzle.full_cover:
                options.append(self.empty.setdefault(cell, model.new_bool_var("")))
            model.add_exactly_one(options)
        self.link: dict[tuple[Cell, Cell], cp_model.IntVar] = {
            (u, v): model.new_bool_var("")
            for u in puzzle.open_cells for v in puzzle.neighbours(u)
            if u < v and allowed[u] & allowed[v]}
        deadline.check()
        self._degrees()
        deadline.check()
        clause = model.add_bool_or
        for (u, v), lit in self.link.items():
            # one way is enough: with one colour per cell, unit propagation
            # draws the other way from these clauses' contrapositives
            for k, is_k in self.colour[u].items():
                clause([~lit, ~is_k] + ([self.colour[v][k]] if k in self.colour[v] else []))
            if not touching:
                for k in allowed[u] & allowed[v]:
                    clause([~self.colour[u][k], ~self.colour[v][k], lit])
        deadline.check()
        # a 2 x 2 square: four links close a loop; three (a U) touch themselves
        most = 3 if touching else 2
        for r, c in itertools.product(range(puzzle.height - 1), range(puzzle.width - 1)):
            square = ((r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c))
            inside = [lit for lit in (self.at(square[i - 1], square[i]) for i in range(4))
                      if lit is not None]
            for three in itertools.combinations(inside, most + 1):
                clause([~lit for lit in three])
        if canonical and not touching and not puzzle.full_cover:
            deadline.check()
            self._canonical()

    def at(self, u: Cell, v: Cell) -> cp_model.IntVar | None:
        """The link between neighbours ``u`` and ``v`` (None: it cannot be laid)."""
        return self.link.get((u, v) if u < v else (v, u))

    def _degrees(self) -> None:
        """An end has one link; another cell none (empty) or two."""
        clause, ends = self.model.add_bool_or, self.puzzle.endpoint
        for cell in self.puzzle.open_cells:
            links = [lit for lit in (self.at(cell, n) for n in self.puzzle.neighbours(cell))
                     if lit is not None]
            if cell in ends:
                self.model.add_exactly_one(links)
                continue
            for three in itertools.combinations(links, 3):
                clause([~lit for lit in three])
            for lit in links:
                clause([~lit] + [other for other in links if other is not lit])
            if cell in self.empty:
                for lit in links:
                    self.model.add_implication(lit, ~self.empty[cell])
                clause(links + [self.empty[cell]])
            else:
                clause(links)

    def _canonical(self) -> None:
        """No detour around empty cells, no late corner (see the module)."""
        height, width = self.puzzle.height, self.puzzle.width
        corners = [(pattern, (empty,)) for pattern, empty in late_corners(height, width)
                   if pattern[0] < pattern[-1]]  # late_corners gives both directions
        for pattern, empty in detours(height, width, DETOUR) + corners:
            steps = [self.at(u, v) for u, v in zip(pattern, pattern[1:])]
            if all(cell in self.empty for cell in empty) and all(s is not None for s in steps):
                self.model.add_bool_or([~lit for lit in steps]
                                       + [~self.empty[cell] for cell in empty])

    def cut(self, loop: list[Cell]) -> None:
        """Forbid this closed loop (not all of its links again)."""
        self.model.add_bool_or([~self.at(u, v) for u, v in zip(loop, loop[1:] + loop[:1])])

    def read(self, solver: cp_model.CpSolver) -> tuple[Solution, list[list[Cell]]]:
        """The paths from each pair's ``a`` end, and the loops besides them."""
        linked: dict[Cell, list[Cell]] = {}
        for (u, v), lit in self.link.items():
            if solver.boolean_value(lit):
                linked.setdefault(u, []).append(v)
                linked.setdefault(v, []).append(u)
        seen: set[Cell] = set()
        paths = [self._walk(pair.a, linked, seen) for pair in self.puzzle.pairs]
        loops = [self._walk(cell, linked, seen) for cell in linked if cell not in seen]
        return Solution(tuple(tuple(path) for path in paths)), loops

    @staticmethod
    def _walk(start: Cell, linked: dict[Cell, list[Cell]], seen: set[Cell]) -> list[Cell]:
        """The cells from ``start`` along the links until a dead end or back at
        ``start`` (each cell has one or two links)."""
        walk, previous = [start], None
        seen.add(start)
        while True:
            step = [n for n in linked[walk[-1]] if n != previous and n not in seen]
            if not step:
                return walk
            previous = walk[-1]
            walk.append(step[0])
            seen.add(step[0])


class SatBackend(NumberlinkBackend):
    """The lean SAT model (see the module): ``solve`` under both rules."""

    name = "sat"
    calls = frozenset({"solve"})

    @dataclass(frozen=True)
    class Options:
        # deterministic seconds for the whole solve (None: until the time limit)
        work: float | None = None
        canonical: bool = True  # the detour and corner rules (lenient rule)
        workers: int = 1
        seed: int = 0  # of the first run; each restart takes the next
        # deterministic seconds of the first run; run i gets this times the
        # i-th term of Luby's sequence (1 1 2 1 1 2 4 ..), each with another
        # seed: the work a run needs varies wildly with the seed (ADC Q17: 1.7
        # deterministic s with seed 0, none in 12 with seed 1).  0: no restarts
        restart: float = RESTART_WORK

    def solve(self, puzzle: Numberlink, *, time_limit: float | None = None) -> SolveResult:
        start, deadline = time.perf_counter(), Deadline(time_limit)
        total: dict[str, float] = {}
        self.effort = total
        status, found = Status.UNSAT, None
        if not puzzle.pairs:
            found = Solution(()) if not (puzzle.full_cover and puzzle.open_cells) else None
            status = Status.SOLVED if found else Status.UNSAT
        # full cover: self-avoiding paths first, then any (no self-touch is a convention there)
        for touching in ([False] if not puzzle.full_cover else [False, True]):
            if found is not None:
                break
            try:
                status, found = self._pass(puzzle, touching, deadline, total)
            except LimitReached:
                status = Status.LIMIT
            if status is not Status.UNSAT:
                break
        return SolveResult(status, found, time.perf_counter() - start, dict(total))

    def _pass(self, puzzle: Numberlink, touching: bool, deadline: Deadline,
              total: dict[str, float]) -> tuple[Status, Solution | None]:
        """One model: solved with restarts, loops cut (full cover)."""
        built = LinkModel(puzzle, touching=touching, canonical=self.opts.canonical,
                          deadline=deadline)
        run = 0
        while True:
            left = self.opts.work
            if left is not None:
                left -= total.get("deterministic_time", 0.0)
                if left <= 0:
                    return Status.LIMIT, None
            run += 1
            budget = self.opts.restart * luby(run) if self.opts.restart else None
            last = budget is None or (left is not None and left <= budget)
            solver = make_solver(time_limit=deadline.remaining(), workers=self.opts.workers,
                                 seed=self.opts.seed + run - 1)
            for name, value in PARAMETERS.items():
                setattr(solver.parameters, name, value)
            if budget is not None or left is not None:
                solver.parameters.max_deterministic_time = min(
                    x for x in (budget, left) if x is not None)
            outcome = solve(solver, built.model)
            add_effort(total, effort(solver))
            if outcome == cp_model.INFEASIBLE:
                return Status.UNSAT, None
            if outcome == cp_model.UNKNOWN and not (last or deadline.expired()):
                add_effort(total, {"restarts": 1})
                continue  # this run's budget is spent: again with another seed
            if outcome not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return (Status.LIMIT if outcome == cp_model.UNKNOWN else Status.ERROR), None
            solution, loops = built.read(solver)
            if not puzzle.full_cover or not loops:
                return Status.SOLVED, solution  # lenient: the loops' cells stay empty
            for loop in loops:
                built.cut(loop)
            add_effort(total, {"cuts": len(loops)})

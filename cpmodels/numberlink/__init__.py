"""Numberlink as one CP-SAT circuit.

The open cells are the nodes of a single ``add_circuit``.  Each path runs
from its pair's ``a`` end to its ``b`` end along directed grid arcs, and a
constant arc closes ``b`` of one pair onto ``a`` of the next, so the circuit
threads every path in turn.  A colour per cell, equal along every arc, keeps
each path between its own ends.  Under the lenient rule a cell may take its
self-loop (it stays empty, colour 0).  Every variable is a function of the
arcs, so solutions are counted once.

``no_self_touch``: two grid-neighbours of one colour must be joined by an arc.
Every lenient solution shortcuts to one that obeys it, so ``solve`` uses it
under the lenient rule and tries it first under full cover.  Under the lenient
rule ``solve`` first asks a router (``search.numberlink.route``) for paths that share
no cell and gives them to CP-SAT as a hint: sparse contest boards that CP-SAT
alone does not decide in minutes are then confirmed without branching.

``canonical`` (lenient rule only): besides, no path makes a three-cell detour
around an empty cell (a bump: ``a b m g d`` where ``a e d`` would do) or turns
a corner at a cell ``b`` whose opposite corner ``e`` in their 2 x 2 square is
empty and comes first in row-major order.  Each such step shortens a solution,
or keeps its length and lowers the sum of its cells' row-major indices, so
every lenient solution turns into one that obeys the rules (and
``no_self_touch``) in finitely many steps; and as long as a solution leaves a
cell empty, so does the result, which therefore differs from any full cover.
Hence a puzzle with a self-avoiding full cover S (canonical itself) has a
lenient solution other than S iff it has a canonical one other than S: the
well-designed check asks only for those.  On Janko
17x17 #103 that question takes 4 s instead of 21 s, and 14x14 #268 is
decided in 6 s instead of none in 60 s.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ortools.sat.python import cp_model

from cpmodels.common import effort, enumerate_solutions, make_solver, solve
from search.core.contract import (
    CountResult,
    Deadline,
    LimitReached,
    SolveResult,
    Status,
    UniqueResult,
    add_effort,
)
from search.numberlink.backend import NumberlinkBackend
from search.numberlink.model import Cell, Numberlink, Solution
from search.numberlink.route import route
from search.numberlink.verify import covers, touches_itself, verify

# The LP relaxation of the circuit (level 2: with cuts) guides the search on
# large boards: the 7 Janko 25x25 and 36x20 puzzles that reached 20 s at the
# default level take 2-18 s.
LINEARIZATION = 2
# blocking under the lenient rule: each short look for a first solution, in
# CP-SAT's deterministic seconds (work, not time: the same look on any machine)
FIRST_LOOK_WORK = 1.0


class CircuitModel:
    """The model and the literals needed to read a solution back."""

    def __init__(self, puzzle: Numberlink, *, no_self_touch: bool, canonical: bool = False,
                 deadline: Deadline | None = None):
        deadline = deadline or Deadline(None)  # LimitReached when it passes mid-build
        self.puzzle = puzzle
        model = self.model = cp_model.CpModel()
        k = len(puzzle.pairs)
        cells = puzzle.open_cells
        node = {cell: i for i, cell in enumerate(cells)}
        starts = {p.a for p in puzzle.pairs}
        goals = {p.b for p in puzzle.pairs}
        low = 0 if not puzzle.full_cover else 1
        self.colour = {}
        for cell in cells:
            if cell in puzzle.endpoint:
                self.colour[cell] = model.new_constant(puzzle.endpoint[cell] + 1)
            else:
                self.colour[cell] = model.new_int_var(low, k, f"colour{cell}")
        self.arc: dict[tuple[Cell, Cell], cp_model.IntVar] = {}
        circuit = []
        for u in cells:
            deadline.check()
            if u in goals:
                continue  # a path leaves its b end only by the closing arc
            for v in puzzle.neighbours(u):
                if v in starts:
                    continue  # ... and enters its a end only by the closing arc
                lit = model.new_bool_var(f"arc{u}{v}")
                self.arc[(u, v)] = lit
                circuit.append((node[u], node[v], lit))
                model.add(self.colour[u] == self.colour[v]).only_enforce_if(lit)
        true = model.new_constant(1)
        for i, pair in enumerate(puzzle.pairs):
            following = puzzle.pairs[(i + 1) % k]
            circuit.append((node[pair.b], node[following.a], true))
        self.empty = {}
        if not puzzle.full_cover:
            for cell in cells:
                if cell not in puzzle.endpoint:
                    lit = self.empty[cell] = model.new_bool_var(f"empty{cell}")
                    circuit.append((node[cell], node[cell], lit))
                    model.add(self.colour[cell] == 0).only_enforce_if(lit)
                    model.add(self.colour[cell] >= 1).only_enforce_if(~lit)
        model.add_circuit(circuit)
        deadline.check()
        if no_self_touch:
            self._forbid_touching()
        if canonical and not puzzle.full_cover:
            self._forbid_bumps_and_late_corners()

    def _forbid_touching(self) -> None:
        """Two neighbours on one path are consecutive on it.

        Neighbours with no arc either way are two different pairs' ends, whose
        colours differ already.
        """
        for (u, v), lit in self.arc.items():
            if (v, u) in self.arc and v < u:
                continue  # each neighbour pair once
            unjoined = [~lit] + ([~self.arc[(v, u)]] if (v, u) in self.arc else [])
            used = [~self.empty[c] for c in (u, v) if c in self.empty]
            self.model.add(self.colour[u] != self.colour[v]).only_enforce_if(unjoined + used)
        # Implied, and a stronger propagator: three steps inside a 2 x 2 square
        # would make a U whose ends touch.
        for r in range(self.puzzle.height - 1):
            for c in range(self.puzzle.width - 1):
                square = ((r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c))
                inside = [self.arc[step] for i, u in enumerate(square)
                          for step in ((u, square[i - 1]), (square[i - 1], u))
                          if step in self.arc]
                if len(inside) > 2:
                    self.model.add(sum(inside) <= 2)

    def _forbid_bumps_and_late_corners(self) -> None:
        """The ``canonical`` rules: each pattern is a set of arcs that may not
        all be taken while one cell is empty."""
        height, width = self.puzzle.height, self.puzzle.width
        for pattern, empty in _bumps(height, width) + late_corners(height, width):
            steps = list(zip(pattern, pattern[1:]))
            if empty in self.empty and all(step in self.arc for step in steps):
                self.model.add_bool_or([~self.arc[step] for step in steps]
                                       + [~self.empty[empty]])

    def hint(self, solution: Solution) -> None:
        """Start the search from ``solution`` (every other cell empty)."""
        steps = {step for path in solution.paths for step in zip(path, path[1:])}
        colour = {cell: k + 1 for k, path in enumerate(solution.paths) for cell in path}
        for step, lit in self.arc.items():
            self.model.add_hint(lit, step in steps)
        for cell, lit in self.empty.items():
            self.model.add_hint(lit, cell not in colour)
            self.model.add_hint(self.colour[cell], colour.get(cell, 0))

    def forbid(self, solution: Solution) -> None:
        """Exclude ``solution``: not every one of its arcs again.  A solution
        whose arcs include all of these is this one (its paths run from end
        to end, and every other cell is empty), so nothing else is lost."""
        steps = [step for path in solution.paths for step in zip(path, path[1:])]
        self.model.add_bool_or([~self.arc[step] for step in steps])

    def reader(self) -> Callable[[cp_model.CpSolverSolutionCallback | cp_model.CpSolver],
                                 Solution]:
        arcs = list(self.arc.items())
        pairs = self.puzzle.pairs

        def read(source) -> Solution:
            successor = {u: v for (u, v), lit in arcs if source.boolean_value(lit)}
            paths = []
            for pair in pairs:
                path = [pair.a]
                while path[-1] != pair.b:
                    path.append(successor[path[-1]])
                paths.append(tuple(path))
            return Solution(tuple(paths))

        return read


def _bumps(height: int, width: int) -> list[tuple[tuple[Cell, ...], Cell]]:
    """(a b m g d, e): a path around e, which is beside both a and d, both ways."""
    return [(way, e) for path, (e,) in detours(height, width, 1) for way in (path, path[::-1])]


Detour = tuple[tuple[Cell, ...], tuple[Cell, ...]]  # (the path's cells, the empty row)


def detours(height: int, width: int, longest: int) -> list[Detour]:
    """(a b1 .. bn+2 d, e1 .. en): a path around a row of n <= ``longest``
    cells, where ``a e1 .. en d`` is n + 1 steps and the detour n + 3."""
    out = []
    for n in range(1, longest + 1):
        for r, c in itertools.product(range(height), range(width)):
            for dr, dc in ((0, 1), (1, 0)):
                line = [(r + i * dr, c + i * dc) for i in range(n + 2)]
                if line[-1][0] >= height or line[-1][1] >= width:
                    continue
                for side in (1, -1):
                    beside = [(x + side * dc, y + side * dr) for x, y in line]
                    if all(0 <= x < height and 0 <= y < width for x, y in beside):
                        out.append(((line[0], *beside, line[-1]), tuple(line[1:-1])))
    return out


def late_corners(height: int, width: int) -> list[tuple[tuple[Cell, ...], Cell]]:
    """(x b y, e): a turn at b, whose opposite corner e comes first, both ways."""
    out = []
    for r in range(height - 1):
        for c in range(width - 1):
            square = [(r, c), (r, c + 1), (r + 1, c + 1), (r + 1, c)]
            for i, b in enumerate(square):
                e, x, y = square[i - 2], square[i - 1], square[(i + 1) % 4]
                if e < b:
                    out += [((x, b, y), e), ((y, b, x), e)]
    return out


class CpSatBackend(NumberlinkBackend):
    """CP-SAT circuit model; options ``no_self_touch``, ``canonical``,
    ``workers``, ``seed``, ``block``."""

    @dataclass(frozen=True)
    class Options:
        no_self_touch: bool = False
        canonical: bool = False
        # a solution that solving and blocking forbids first instead of
        # searching for one, where it solves the puzzle asked (the check
        # passes the full cover it has found: canonical and self-avoiding)
        known: Solution | None = None
        workers: int = 1
        seed: int | None = None
        # Counts up to 2 and ``unique`` by solving and blocking (``_first``)
        # instead of enumerating: far faster on some boards, far slower on
        # others (Flow Free jumbo_14x14_19: a second full-cover solution in
        # 3 s by enumeration, none in 10 s this way).
        block: bool = False

    name = "cpsat"

    def __init__(self, **options):
        super().__init__(**options)
        o = self.opts
        self.no_self_touch, self.canonical, self.known = o.no_self_touch, o.canonical, o.known
        self.workers, self.seed, self.block = o.workers, o.seed, o.block

    def solutions(self, puzzle: Numberlink, *, time_limit: float | None = None
                  ) -> Iterator[Solution]:
        if not puzzle.pairs:
            yield from _pairless(puzzle)
            return
        built = CircuitModel(puzzle, no_self_touch=self.no_self_touch,
                             canonical=self.canonical, deadline=Deadline(time_limit))
        self.effort = {}
        yield from enumerate_solutions(built.model, built.reader(), time_limit=time_limit,
                                       effort_out=self.effort)

    def solve(self, puzzle: Numberlink, *, time_limit: float | None = None) -> SolveResult:
        """Paths that never touch themselves first (complete under the lenient
        rule, there hinted by the router); under full cover, the plain model
        when that finds nothing."""
        return self._solve(puzzle, Deadline(time_limit))

    def _solve(self, puzzle: Numberlink, deadline: Deadline,
               work: float | None = None) -> SolveResult:
        """``solve`` before ``deadline``, each model within ``work``
        deterministic seconds (None: no bound; LIMIT when it runs out)."""
        start = time.perf_counter()
        if not puzzle.pairs:
            found = next(_pairless(puzzle), None)
            return SolveResult(Status.UNSAT if found is None else Status.SOLVED, found,
                               time.perf_counter() - start)
        passes = [True] if self.no_self_touch or not puzzle.full_cover else [True, False]
        total: dict[str, float] = {}
        result = Status.UNSAT, None
        routed = None
        if not puzzle.full_cover:
            routed = route(puzzle, deadline=deadline)
            if routed is not None and verify(puzzle, routed):
                routed = None  # cannot happen: the router's paths share no cell
        for nst in passes:
            try:
                built = CircuitModel(puzzle, no_self_touch=nst, canonical=self.canonical,
                                     deadline=deadline)
            except LimitReached:
                result = Status.LIMIT, None
                break
            if routed is not None:
                built.hint(routed)
            status, solver = self._solve_model(built, deadline.remaining(), total, work)
            if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                result = Status.SOLVED, built.reader()(solver)
                break
            if status != cp_model.INFEASIBLE:
                result = (Status.LIMIT if status == cp_model.UNKNOWN else Status.ERROR), None
                break
        self.effort = total
        return SolveResult(result[0], result[1], time.perf_counter() - start, dict(total))

    def _solve_model(self, built: CircuitModel, time_limit: float | None,
                     total: dict[str, float], work: float | None = None
                     ) -> tuple[int, cp_model.CpSolver]:
        """One solve of ``built`` within ``work`` deterministic seconds, its
        effort added to ``total``."""
        solver = make_solver(time_limit=time_limit, workers=self.workers, seed=self.seed)
        solver.parameters.linearization_level = LINEARIZATION
        if work is not None:
            solver.parameters.max_deterministic_time = work
        status = solve(solver, built.model)
        add_effort(total, effort(solver))
        return status, solver

    def count(self, puzzle: Numberlink, *, limit: int | None = None,
              time_limit: float | None = None) -> CountResult:
        """With ``block``, up to two by solving and blocking (``_first``)."""
        if not self.block or limit is None or not 0 < limit <= 2:
            return super().count(puzzle, limit=limit, time_limit=time_limit)
        found = self._first(puzzle, limit, time_limit)
        n = len(found.solutions)
        status = Status.LIMIT if found.status is Status.LIMIT or n >= limit else Status.COUNTED
        return CountResult(status, n, found.wall, found.effort, found.message)

    def unique(self, puzzle: Numberlink, *, time_limit: float | None = None) -> UniqueResult:
        if not self.block:
            return super().unique(puzzle, time_limit=time_limit)
        return self._first(puzzle, 2, time_limit)

    def _first(self, puzzle: Numberlink, how_many: int,
               time_limit: float | None) -> UniqueResult:
        """Up to ``how_many`` solutions, each found by a solve of the model
        with the earlier ones forbidden.  Enumeration (``solutions``) has
        CP-SAT's presolve off; a fresh solve keeps it, and finds a second
        solution or proves there is none far sooner: a 17 x 17 board whose
        enumeration finds no solution in 10 s takes a second."""
        start, deadline = time.perf_counter(), Deadline(time_limit)
        found: list[Solution] = []
        if not puzzle.pairs:
            found = list(_pairless(puzzle))
            return UniqueResult((Status.UNSAT, Status.UNIQUE)[len(found)], tuple(found),
                                time.perf_counter() - start)
        total: dict[str, float] = {}
        if self.known is not None and self._obeys(puzzle, self.known):
            first = SolveResult(Status.SOLVED, self.known, 0.0)
        else:
            first = self._first_solution(puzzle, deadline, total)
        status = first.status  # UNSAT, LIMIT or ERROR, unless it found one
        if first.solution is not None:
            found.append(first.solution)
            status = Status.UNIQUE
            try:
                built = CircuitModel(puzzle, no_self_touch=self.no_self_touch,
                                     canonical=self.canonical, deadline=deadline)
            except LimitReached:
                built, status = None, Status.LIMIT
            while built is not None and len(found) < how_many:
                built.forbid(found[-1])
                built.hint(found[-1])  # a second solution is often close to the first
                outcome, solver = self._solve_model(built, deadline.remaining(), total)
                built.model.clear_hints()
                if outcome == cp_model.INFEASIBLE:
                    break
                if outcome not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                    status = Status.LIMIT
                    break
                found.append(built.reader()(solver))
                status = Status.MULTIPLE
        self.effort = total
        return UniqueResult(status, tuple(found), time.perf_counter() - start, dict(total))

    def _obeys(self, puzzle: Numberlink, solution: Solution) -> bool:
        """Is ``solution`` one of the model's?  (Canonical is only checked
        the easy way: a self-avoiding full cover is canonical.)"""
        if verify(puzzle, solution):
            return False
        if self.no_self_touch and touches_itself(puzzle, solution):
            return False
        return not self.canonical or puzzle.full_cover or covers(puzzle, solution)

    def _first_solution(self, puzzle: Numberlink, deadline: Deadline,
                        total: dict[str, float]) -> SolveResult:
        """A solution to block.  Under the lenient rule, looks in turn: a
        short one with the lenient model, whose solutions mostly leave cells
        empty and then have a second one close by; a short one with the
        full-cover model (a full cover is a lenient solution, and CP-SAT
        finds one in 0.1 s on Janko 17 x 17 boards where the lenient model
        finds none in 10 s); then the lenient model in the time left."""
        looks = [(puzzle, FIRST_LOOK_WORK), (puzzle.covering(), FIRST_LOOK_WORK),
                 (puzzle, None)] if not puzzle.full_cover else [(puzzle, None)]
        for rules, work in looks:
            found = self._solve(rules, deadline, work)
            add_effort(total, found.effort)
            if found.solution is not None or work is None:
                return found
            if found.status is not Status.LIMIT and rules is puzzle:
                return found  # no solution at all (or an error)
        raise AssertionError("the last look has no time bound")


def _pairless(puzzle: Numberlink) -> Iterator[Solution]:
    """A board without pairs: solved by drawing nothing, if nothing must be covered."""
    if not (puzzle.full_cover and puzzle.open_cells):
        yield Solution(())

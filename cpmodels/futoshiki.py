"""The Futoshiki CP-SAT model: AllDifferent on rows and columns, the givens,
and one strict inequality per relation.  Every variable is a puzzle cell, so
CP-SAT's solution count is the puzzle's."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from ortools.sat.python import cp_model

from cpmodels.common import effort, enumerate_solutions, make_solver, solve, status_of
from search.core.contract import Deadline, LimitReached, SolveResult, Status
from search.futoshiki.backend import FutoshikiBackend
from search.futoshiki.model import Futoshiki, Solution
from search.futoshiki.verify import classify


def build(puzzle: Futoshiki, deadline: Deadline | None = None
          ) -> tuple[cp_model.CpModel, list[list[cp_model.IntVar]]]:
    """The model; ``LimitReached`` when ``deadline`` passes while building it
    (a 1000 x 1000 square takes seconds)."""
    deadline = deadline or Deadline(None)
    n = puzzle.n
    model = cp_model.CpModel()
    x = []
    for r in range(n):
        deadline.check()
        x.append([model.new_int_var(1, n, f"x{r}_{c}") for c in range(n)])
    for i in range(n):
        deadline.check()
        model.add_all_different(x[i])
        model.add_all_different([x[r][i] for r in range(n)])
    for r, c in puzzle.cells:
        if puzzle.givens[r][c]:
            model.add(x[r][c] == puzzle.givens[r][c])
    for (ra, ca), (rb, cb) in puzzle.less:
        model.add(x[ra][ca] < x[rb][cb])
    if puzzle.adjacent:  # Adjacent mode: a bar iff the values differ by 1
        for (ra, ca), (rb, cb), bar in puzzle.adjacency():
            a, b = x[ra][ca], x[rb][cb]
            if bar:
                up = model.new_bool_var(f"up{ra}_{ca}_{rb}_{cb}")
                model.add(b == a + 1).only_enforce_if(up)
                model.add(a == b + 1).only_enforce_if(~up)
            else:
                model.add(b != a + 1)
                model.add(a != b + 1)
    return model, x


class CpSatBackend(FutoshikiBackend):
    """``cpsat``: OR-Tools CP-SAT; ``workers`` (default 1) for solve and unique."""

    @dataclass(frozen=True)
    class Options:
        workers: int = 1  # CP-SAT search workers for solve and unique
        seed: int | None = None

    name = "cpsat"

    def solve(self, puzzle: Futoshiki, *, time_limit: float | None = None) -> SolveResult:
        start = time.perf_counter()
        if not classify(puzzle).valid:
            return SolveResult(Status.UNSAT, None, time.perf_counter() - start)
        deadline = Deadline(time_limit)
        try:
            model, x = build(puzzle, deadline)
        except LimitReached:
            return SolveResult(Status.LIMIT, None, time.perf_counter() - start)
        solver = make_solver(time_limit=deadline.remaining(), workers=self.opts.workers,
                             seed=self.opts.seed)
        status = Status(status_of(solve(solver, model)))
        self.effort = effort(solver)
        solution = None
        if status is Status.SOLVED:
            solution = Solution(tuple(tuple(solver.value(v) for v in row) for row in x))
        return SolveResult(status, solution, time.perf_counter() - start, dict(self.effort))

    def solutions(self, puzzle: Futoshiki, *, time_limit: float | None = None
                  ) -> Iterator[Solution]:
        self.effort = {}
        if not classify(puzzle).valid:
            return iter(())
        deadline = Deadline(time_limit)
        model, x = build(puzzle, deadline)  # LimitReached: the caller's LIMIT
        flat = [v for row in x for v in row]
        n = puzzle.n

        def read(callback: cp_model.CpSolverSolutionCallback) -> Solution:
            values = [callback.value(v) for v in flat]
            return Solution(tuple(tuple(values[r * n:(r + 1) * n]) for r in range(n)))

        return enumerate_solutions(model, read, time_limit=deadline.remaining(),
                                   effort_out=self.effort)

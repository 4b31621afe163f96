"""The seed's Futoshiki search, faithful: depth-first over the cells in
row-major order, values 1..n in increasing order, per-row and per-column
counters, and each value checked against its left and upper relations (the
right and lower ones are checked when the search reaches those cells).

It runs as an explicit-stack loop so that counting visits solutions without
storing them (the seed kept every solution in a list).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from search.core.contract import Deadline, SolveResult, Status
from search.futoshiki.backend import FutoshikiBackend
from search.futoshiki.io import format_square
from search.futoshiki.model import Futoshiki, Solution
from search.futoshiki.verify import classify

_CHECK_EVERY = 1 << 12  # nodes between deadline checks


def search(puzzle: Futoshiki, deadline: Deadline, effort: dict[str, float]) -> Iterator[Solution]:
    """Every solution, in the seed's order.  Assumes the givens are valid."""
    n, size = puzzle.n, puzzle.n * puzzle.n
    values = [v for row in puzzle.givens for v in row]
    fixed = [v != 0 for v in values]
    in_row = [[False] * (n + 1) for _ in range(n)]
    in_col = [[False] * (n + 1) for _ in range(n)]
    for i, v in enumerate(values):
        if v:
            in_row[i // n][v] = in_col[i % n][v] = True
    # left[i] / up[i]: sign of the left / upper neighbour against cell i (-1 means smaller).
    left = [puzzle.sign((i // n, i % n - 1), (i // n, i % n)) if i % n else 0 for i in range(size)]
    up = [puzzle.sign((i // n - 1, i % n), (i // n, i % n)) if i >= n else 0 for i in range(size)]

    def inequalities_hold(i: int, k: int) -> bool:
        s = left[i]
        if s and (values[i - 1] < k) != (s < 0):
            return False
        s = up[i]
        return not (s and (values[i - n] < k) != (s < 0))

    # Adjacent mode: a bar to the left / above iff the values differ by 1.
    bars = puzzle.bar_set
    left_bar = [i % n > 0 and ((i // n, i % n - 1), (i // n, i % n)) in bars
                for i in range(size)]
    up_bar = [i >= n and ((i // n - 1, i % n), (i // n, i % n)) in bars for i in range(size)]

    def bars_hold(i: int, k: int) -> bool:
        if i % n and (abs(values[i - 1] - k) == 1) != left_bar[i]:
            return False
        return not (i >= n and (abs(values[i - n] - k) == 1) != up_bar[i])

    relations_hold = bars_hold if puzzle.adjacent else inequalities_hold

    nodes, i, backtracking = 0, 0, False
    while True:
        if i == size:
            effort["nodes"] = nodes
            yield Solution(tuple(tuple(values[r * n:(r + 1) * n]) for r in range(n)))
            i, backtracking = size - 1, True
        if i < 0:
            effort["nodes"] = nodes
            return
        if fixed[i]:
            if not backtracking and relations_hold(i, values[i]):
                i += 1
            else:
                i, backtracking = i - 1, True
            continue
        r, c, k = i // n, i % n, values[i]
        if k:  # coming back: take the value out before trying the next one
            in_row[r][k] = in_col[c][k] = False
        row, col = in_row[r], in_col[c]
        k += 1
        while k <= n and (row[k] or col[k] or not relations_hold(i, k)):
            k += 1
        if k <= n:
            values[i] = k
            row[k] = col[k] = True
            i, backtracking = i + 1, False
            nodes += 1
            if not nodes % _CHECK_EVERY:
                effort["nodes"] = nodes
                deadline.check()
        else:
            values[i] = 0
            i, backtracking = i - 1, True


class SearchBackend(FutoshikiBackend):
    """``search``: the seed's row-major depth-first search.

    ``method="seed"`` makes ``solve`` print what the seed program prints: the
    classification, the first solution and the number of solutions.
    """

    @dataclass(frozen=True)
    class Options:
        method: str | None = None  # "seed": print the seed program's transcript

    name = "search"
    methods = ("seed",)

    def solutions(self, puzzle: Futoshiki, *, time_limit: float | None = None
                  ) -> Iterator[Solution]:
        self.effort = {"nodes": 0}
        if not classify(puzzle).valid:
            return iter(())
        return search(puzzle, Deadline(time_limit), self.effort)

    def solve(self, puzzle: Futoshiki, *, time_limit: float | None = None) -> SolveResult:
        result = super().solve(puzzle, time_limit=time_limit)
        if self.opts.method != "seed":
            return result
        return _with_seed_transcript(self, puzzle, result, time_limit)


def _with_seed_transcript(backend: SearchBackend, puzzle: Futoshiki, result: SolveResult,
                          time_limit: float | None) -> SolveResult:
    """The seed program's printout: classification, first solution, then the count."""
    start = time.perf_counter()
    found = classify(puzzle)
    lines = ["Complete scheme." if found.complete else "Incomplete scheme."]
    if found.complete:
        lines.append("Valid solution." if found.valid else "Invalid solution.")
        lines.append(str(int(found.valid)))
    elif result.solution is None and result.status is Status.LIMIT:
        lines.append("(stopped at the time limit)")
    elif result.solution is None:
        lines += ["A solution does not exist.", "0"]
    else:
        left = None if time_limit is None else max(0.0, time_limit - result.wall)
        counted = backend.count(puzzle, time_limit=left)
        total = str(counted.count) + ("" if counted.complete else " (at least; time limit)")
        lines += ["Solution:", format_square(puzzle, result.solution.grid), total]
    transcript = "\n".join(lines) + "\n"
    return SolveResult(result.status, result.solution, result.wall + time.perf_counter() - start,
                       result.effort, result.message, transcript)

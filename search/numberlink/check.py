"""Is a Numberlink puzzle well-designed?

Well-designed: exactly one solution under the lenient rule, and that solution
covers every open cell.  The report gives the solution counts behind the
verdict under both rule sets, capped at 2.

The shortcut lemma makes the check fast.  A path that touches itself (two
grid-neighbours on it that are not consecutive) can be shortcut into another
lenient solution with fewer cells.  Hence (1) a puzzle has a lenient solution
iff it has one that never touches itself, and (2) when such a solution S
covers every cell, any other lenient solution shortcuts to a self-avoiding
one different from S (it cannot shrink back onto S, which uses every cell).
So a puzzle is well-designed iff it has exactly one lenient solution that
never touches itself and that solution covers every cell.
"""

from __future__ import annotations

import time

from search.core import CheckReport, CountResult, Deadline, Status
from search.numberlink.model import Numberlink, Solution

CAP = 2  # counts are capped: 2 means "two or more"

REASONS = {
    "unsat": "no solution",
    "lenient": "several lenient solutions",
    "full": "several full-cover solutions",
    "empty": "the only solution leaves cells empty",
}


class _Undecided(Exception):
    """A limit stopped one of the counts."""


def covers(puzzle: Numberlink, solution: Solution) -> bool:
    return sum(len(path) for path in solution.paths) == len(puzzle.open_cells)


def check(puzzle: Numberlink, *, backend: str | None = None,
          time_limit: float | None = None) -> CheckReport:
    """The verdict, the capped counts under both rule sets, and the solution if unique."""
    from search.numberlink import KIND  # the registry loads backends on demand

    start = time.perf_counter()
    name = backend or KIND.default_backend("check")
    deadline = Deadline(time_limit)
    effort: dict[str, float] = {}

    def counted(result: CountResult) -> int:
        for key, value in result.effort.items():
            effort[key] = effort.get(key, 0) + value
        if result.status is Status.LIMIT and result.count < CAP:
            raise _Undecided
        return min(result.count, CAP)

    def count(rules: Numberlink, **options) -> int:
        engine = KIND.backend(name, **options)
        return counted(engine.count(rules, limit=CAP, time_limit=deadline.remaining()))

    lenient, full = puzzle.lenient(), puzzle.covering()
    solution = None
    try:
        engine = KIND.backend(name, no_self_touch=True)
        if getattr(engine, "no_self_touch", False):
            found = engine.unique(lenient, time_limit=deadline.remaining())
            for key, value in found.effort.items():
                effort[key] = effort.get(key, 0) + value
            if found.status is Status.LIMIT:
                raise _Undecided
            self_avoiding = list(found.solutions)
        else:
            self_avoiding = None  # the backend cannot restrict: count plainly
        if self_avoiding is not None and len(self_avoiding) == 0:
            n_lenient = n_full = 0
        elif self_avoiding is not None and len(self_avoiding) == 1 and covers(
                puzzle, self_avoiding[0]):
            n_lenient = n_full = 1
            solution = self_avoiding[0]
        else:
            if self_avoiding is not None and len(self_avoiding) == CAP:
                n_lenient = CAP
            else:
                n_lenient = count(lenient)
            if n_lenient == 1:
                # The one solution: any full-cover solution would be it.
                solution = self_avoiding[0] if self_avoiding else next(
                    iter(KIND.backend(name).solutions(lenient,
                                                      time_limit=deadline.remaining())))
                n_full = 1 if covers(puzzle, solution) else 0
            else:
                n_full = count(full) if n_lenient else 0
    except _Undecided:
        return CheckReport(None, "UNDECIDED (a limit stopped the count)", Status.LIMIT,
                           {"limit_s": time_limit}, None, time.perf_counter() - start, effort)

    reasons = []
    if n_lenient == 0:
        reasons.append(REASONS["unsat"])
    if n_lenient >= CAP:
        reasons.append(REASONS["lenient"])
    if n_full >= CAP:
        reasons.append(REASONS["full"])
    if n_lenient == 1 and not covers(puzzle, solution):
        reasons.append(REASONS["empty"])
    ok = not reasons
    verdict = "WELL-DESIGNED" if ok else "NOT WELL-DESIGNED: " + "; ".join(reasons)
    status = (Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[n_lenient]
    details = {"lenient_solutions": n_lenient, "full_cover_solutions": n_full,
               "counts_capped_at": CAP, "backend": name}
    return CheckReport(ok, verdict, status, details, solution, time.perf_counter() - start,
                       effort)

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

When no backend is named, CP-SAT looks for two full-cover solutions (which
are two lenient ones) where the default engine struggles: for at most
3 s before it on boards of 14 x 14 cells and more, and with the time left
after it when it stopped undecided (out of states or out of its share of the
time).  CP-SAT finds two in seconds on boards that have many
(``jumbo_14x14_19``: 1,670), which is where the frontier's states outgrow
memory.  Failing that, CP-SAT takes the whole question (the self-avoiding
lenient solutions, capped at 2) in the time left: it proves some 17 x 17
boards well-designed whose frontier outgrows memory.
"""

from __future__ import annotations

import time
from typing import Any

from search.core import CheckReport, CountResult, Deadline, Status
from search.numberlink.model import Numberlink, Solution

CAP = 2  # counts are capped: 2 means "two or more"
FALLBACK = "cpsat"  # looks for two full-cover solutions when the default engine cannot
DEFAULT_SHARE = 0.75  # of the time limit, for the default engine before the fallback
PROBE_CELLS = 196  # boards this large get a short look for two full-cover solutions first...
PROBE_SECONDS = 3.0  # ... for at most this long (it stops sooner once it has counted)

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
    fallback = backend is None and name != FALLBACK
    effort: dict[str, float] = {}

    def left(at_most: float | None = None) -> float | None:
        if time_limit is None:
            return at_most
        rest = max(0.0, time_limit - (time.perf_counter() - start))
        return rest if at_most is None else min(at_most, rest)

    def two_full_covers(seconds: float | None) -> CountResult:
        # Two full-cover solutions are two lenient ones: not well-designed.
        found = KIND.backend(FALLBACK).count(puzzle.covering(), limit=CAP, time_limit=seconds)
        _add(effort, found.effort)
        return found

    try:
        probe = None
        if fallback and len(puzzle.open_cells) >= PROBE_CELLS:
            probe = two_full_covers(left(PROBE_SECONDS))
        if probe is not None and probe.count >= CAP:
            n_lenient = n_full = CAP
            solution, name = None, f"{name} + {FALLBACK}"
        else:
            try:
                share = DEFAULT_SHARE if fallback and time_limit is not None else 1.0
                n_lenient, n_full, solution = _decide(
                    KIND, puzzle, name, Deadline(left() and left() * share), effort)
            except _Undecided:
                if not fallback:
                    raise
                if probe is None or probe.status is not Status.COUNTED:
                    probe = two_full_covers(left())
                if probe.count >= CAP:
                    n_lenient = n_full = CAP
                    solution = None
                else:  # the whole question, under the shortcut lemma, in the time left
                    n_lenient, n_full, solution = _decide(
                        KIND, puzzle, FALLBACK, Deadline(left()), effort, block=True)
                name = f"{name} + {FALLBACK}"
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


def _add(effort: dict[str, float], more) -> None:
    for key, value in more.items():
        effort[key] = effort.get(key, 0) + value


def _decide(kind_, puzzle: Numberlink, name: str, deadline: Deadline,
            effort: dict[str, float], **options: Any) -> tuple[int, int, Solution | None]:
    """(lenient count, full-cover count, the solution if unique) by backend
    ``name`` with ``options``; _Undecided when a limit stops it."""

    def count(rules: Numberlink) -> int:
        result = kind_.backend(name, **options).count(rules, limit=CAP,
                                                      time_limit=deadline.remaining())
        _add(effort, result.effort)
        if result.status is Status.LIMIT and result.count < CAP:
            raise _Undecided
        return min(result.count, CAP)

    lenient, full = puzzle.lenient(), puzzle.covering()
    engine = kind_.backend(name, no_self_touch=True, **options)
    if not getattr(engine, "no_self_touch", False):
        self_avoiding = None  # the backend cannot restrict: count plainly
    else:
        found = engine.unique(lenient, time_limit=deadline.remaining())
        _add(effort, found.effort)
        if found.status is Status.LIMIT:
            raise _Undecided
        self_avoiding = list(found.solutions)
        if not self_avoiding:
            return 0, 0, None
        if len(self_avoiding) == 1 and covers(puzzle, self_avoiding[0]):
            return 1, 1, self_avoiding[0]
    several = self_avoiding is not None and len(self_avoiding) == CAP
    n_lenient = CAP if several else count(lenient)
    if n_lenient != 1:
        return n_lenient, count(full) if n_lenient else 0, None
    # The one solution: any full-cover solution would be it.
    solution = self_avoiding[0] if self_avoiding else next(
        iter(kind_.backend(name, **options).solutions(lenient,
                                                      time_limit=deadline.remaining())))
    return 1, int(covers(puzzle, solution)), solution

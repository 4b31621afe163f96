"""The base of every Futoshiki backend: what ``check`` means for Futoshiki.

A Futoshiki is well-made when it has exactly one solution, so a backend's
check is its own ``unique``, with the solutions found as evidence; a unique
puzzle's details also give its grade, the weakest of Simon Tatham's levels of
reasoning that solves it (``grade.py``).
"""

from __future__ import annotations

import time
from typing import ClassVar

from search.core.contract import CALLS, Backend, CheckReport, Status, Unsupported, load, since
from search.futoshiki.model import Futoshiki, Solution

# Reached by name: the grader runs the ``propagate`` engine, a backend built on this base.
GRADE = "search.futoshiki.grade:grade"

VERDICTS = {Status.UNIQUE: (True, "UNIQUE"), Status.MULTIPLE: (False, "MULTIPLE"),
            Status.UNSAT: (False, "NO SOLUTION"), Status.LIMIT: (None, "UNDECIDED")}


class FutoshikiBackend(Backend[Futoshiki, Solution]):
    calls: ClassVar[frozenset[str]] = frozenset(CALLS)
    rules: ClassVar[frozenset[str]] = frozenset({"adjacent"})

    def refuse_undeclared_rules(self, puzzle: Futoshiki) -> None:
        """Raise ``Unsupported`` for a puzzle under a rule this backend does not take."""
        if puzzle.adjacent and "adjacent" not in self.rules:
            raise Unsupported(f"backend {self.name!r} does not take Adjacent mode (bars)")

    def check(self, puzzle: Futoshiki, *, time_limit: float | None = None) -> CheckReport:
        """UNIQUE with the solution and the grade, MULTIPLE with two solutions,
        NO SOLUTION, or UNDECIDED."""
        self.offers("check")
        start = time.perf_counter()
        found = self.unique(puzzle, time_limit=time_limit)
        ok, verdict = VERDICTS.get(found.status, (None, str(found.status)))
        kept = found.solutions if ok is not None else ()
        details = {"message": found.message} if found.message else {}
        if found.status is Status.UNIQUE:
            details["grade"] = load(GRADE)(puzzle, unique=True)
        return CheckReport(ok=ok, verdict=verdict, status=found.status, details=details,
                           solutions=tuple(kept), engine=self.name, wall=since(start),
                           effort=dict(found.effort))

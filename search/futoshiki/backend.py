"""The base of every Futoshiki backend: what ``check`` means for Futoshiki.

A Futoshiki is well-made when it has exactly one solution, so a backend's
check is its own ``unique``, with the solutions found as evidence.
"""

from __future__ import annotations

from typing import ClassVar

from search.core import CALLS, Backend, CheckReport, Status
from search.futoshiki.model import Futoshiki, Solution

VERDICTS = {Status.UNIQUE: (True, "UNIQUE"), Status.MULTIPLE: (False, "MULTIPLE"),
            Status.UNSAT: (False, "NO SOLUTION"), Status.LIMIT: (None, "UNDECIDED")}


class FutoshikiBackend(Backend[Futoshiki, Solution]):
    calls: ClassVar[frozenset[str]] = frozenset(CALLS)

    def check(self, puzzle: Futoshiki, *, time_limit: float | None = None) -> CheckReport:
        """UNIQUE with the solution, MULTIPLE with two, NO SOLUTION, or UNDECIDED."""
        self.offers("check")
        found = self.unique(puzzle, time_limit=time_limit)
        ok, verdict = VERDICTS.get(found.status, (None, str(found.status)))
        kept = found.solutions if ok is not None else ()
        return CheckReport(ok=ok, verdict=verdict, status=found.status,
                           details={"message": found.message} if found.message else {},
                           solutions=tuple(kept), engine=self.name, wall=found.wall,
                           effort=dict(found.effort))

"""The base of every Lianliankan backend: what ``check`` means for Lianliankan.

A deal is good when the board can be cleared, so a backend's check is its own
``solve``, with the clearing as evidence.
"""

from __future__ import annotations

from typing import ClassVar

from search.core.contract import Backend, CheckReport, Status
from search.lianliankan.model import Board, Solution

VERDICTS = {Status.SOLVED: (True, "SOLVABLE"), Status.UNSAT: (False, "UNSOLVABLE")}


class LianliankanBackend(Backend[Board, Solution]):
    calls: ClassVar[frozenset[str]] = frozenset({"solve", "check"})

    def check(self, puzzle: Board, *, time_limit: float | None = None) -> CheckReport:
        """SOLVABLE (with a clearing sequence), UNSOLVABLE, or UNDECIDED at a limit."""
        self.offers("check")
        result = self.solve(puzzle, time_limit=time_limit)
        ok, verdict = VERDICTS.get(result.status, (None, "UNDECIDED"))
        details: dict[str, object] = {"tiles": len(puzzle.tiles)}
        if result.message:
            details["note"] = result.message
        status = result.status if ok is not None else Status.LIMIT
        solutions = (result.solution,) if result.solution is not None else ()
        return CheckReport(ok=ok, verdict=verdict, status=status, details=details,
                           solutions=solutions, engine=self.name, wall=result.wall,
                           effort=dict(result.effort))

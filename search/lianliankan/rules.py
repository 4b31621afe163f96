"""Rule variants from the command line, and ``check``: can the board be cleared?"""

from __future__ import annotations

import dataclasses
from typing import Any

from search.core import CheckReport, InputError, Status
from search.lianliankan.model import Board

VERDICTS = {Status.SOLVED: (True, "SOLVABLE"), Status.UNSAT: (False, "UNSOLVABLE")}


def apply_options(board: Board, options: dict[str, Any]) -> Board:
    """The board under the chosen variants (``border``, ``gravity``, ``turns``)."""
    turns = options.get("turns")
    if turns is not None and turns < 0:
        raise InputError(f"--turns must be 0 or more, not {turns}")
    return dataclasses.replace(
        board,
        border=bool(options.get("border", board.border)),
        gravity=bool(options.get("gravity", board.gravity)),
        turns=board.turns if turns is None else turns,
    )


def check(board: Board, *, backend: str | None = None,
          time_limit: float | None = None) -> CheckReport:
    """SOLVABLE (with a clearing sequence), UNSOLVABLE, or UNDECIDED at a limit."""
    from search.lianliankan import KIND

    name = backend or KIND.default_backend("check")
    result = KIND.backend(name).solve(board, time_limit=time_limit)
    ok, verdict = VERDICTS.get(result.status, (None, "UNDECIDED"))
    details = {"backend": name, "tiles": len(board.tiles)}
    if result.message:
        details["note"] = result.message
    status = result.status if ok is not None else Status.LIMIT
    return CheckReport(ok, verdict, status, details, result.solution, result.wall,
                       dict(result.effort))

"""``gridcp check`` on a Futoshiki: exactly one solution, and Tatham's grade.

The verdict comes from the backend's ``unique``; a unique puzzle is then graded
(``grade.py``) and the grade goes in the report's ``details["grade"]``.
"""

from __future__ import annotations

import time

from search.core import CheckReport, Status
from search.futoshiki.model import Futoshiki

OK = {Status.UNIQUE: True, Status.MULTIPLE: False, Status.UNSAT: False}


def check(puzzle: Futoshiki, *, backend: str | None = None,
          time_limit: float | None = None) -> CheckReport:
    from search.futoshiki import KIND
    from search.futoshiki.grade import grade

    start = time.perf_counter()
    engine = KIND.backend(backend or KIND.default_backend("unique"))
    result = engine.unique(puzzle, time_limit=time_limit)
    details = {}
    solution = None
    if result.status is Status.UNIQUE:
        solution = result.solutions[0]
        details["grade"] = grade(puzzle, unique=True)
    return CheckReport(OK.get(result.status), str(result.status), result.status, details,
                       solution, time.perf_counter() - start, dict(result.effort))

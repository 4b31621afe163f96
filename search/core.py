"""The vocabulary every puzzle and backend shares: status words, results, limits,
errors and the backend contract.

A backend offers four calls (``solve``, ``solutions``, ``count``, ``unique``);
the base class derives the last three from ``solutions`` so that a new engine
only has to write what it does natively.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Generic, TypeVar

P = TypeVar("P")  # a puzzle
S = TypeVar("S")  # a solution


class Status(StrEnum):
    SOLVED = "SOLVED"
    UNSAT = "UNSAT"
    UNIQUE = "UNIQUE"
    MULTIPLE = "MULTIPLE"
    COUNTED = "COUNTED"
    LIMIT = "LIMIT"
    INVALID = "INVALID"  # the input breaks the rules before any search
    ERROR = "ERROR"


# ---------------------------------------------------------------- errors


class GridcpError(Exception):
    """Base of the errors gridcp reports to a user without a traceback."""


class InputError(GridcpError):
    """A file that cannot be read as a puzzle: names the file and the line."""

    def __init__(self, message: str, source: str = "<input>", line: int | None = None):
        self.message, self.source, self.line = message, source, line
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")


class Unsupported(GridcpError):
    """A backend asked for a call or a rule variant it does not implement."""


class LimitReached(Exception):
    """Raised inside a search when its deadline passes; callers turn it into LIMIT."""


# ---------------------------------------------------------------- limits


class Deadline:
    """A wall-clock budget. ``Deadline(None)`` never expires."""

    __slots__ = ("end",)

    def __init__(self, seconds: float | None):
        self.end = None if seconds is None else time.perf_counter() + seconds

    def expired(self) -> bool:
        return self.end is not None and time.perf_counter() >= self.end

    def check(self) -> None:
        if self.end is not None and time.perf_counter() >= self.end:
            raise LimitReached

    def remaining(self, at_most: float | None = None) -> float | None:
        """Seconds left (None: no limit), and no more than ``at_most``."""
        if self.end is None:
            return at_most
        left = max(0.0, self.end - time.perf_counter())
        return left if at_most is None else min(at_most, left)


def add_effort(total: dict[str, float], more: Mapping[str, float]) -> None:
    """Add the effort figures ``more`` into ``total`` (a backend that runs
    several searches reports their sum)."""
    for name, value in more.items():
        total[name] = total.get(name, 0) + value


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class SolveResult(Generic[S]):
    """SOLVED with a solution, UNSAT, LIMIT, INVALID or ERROR.

    ``transcript`` is what a seed-faithful method prints as the seed program
    does (the readable output shows it instead of the board).
    """

    status: Status
    solution: S | None = None
    wall: float = 0.0
    effort: Mapping[str, float] = field(default_factory=dict)
    message: str = ""
    transcript: str = ""


@dataclass(frozen=True)
class CountResult:
    """COUNTED (``count`` is exact) or LIMIT (``count`` is a lower bound)."""

    status: Status
    count: int
    wall: float = 0.0
    effort: Mapping[str, float] = field(default_factory=dict)
    message: str = ""

    @property
    def complete(self) -> bool:
        return self.status is Status.COUNTED


@dataclass(frozen=True)
class UniqueResult(Generic[S]):
    """UNSAT, UNIQUE (with the solution), MULTIPLE (with two solutions) or LIMIT."""

    status: Status
    solutions: tuple[S, ...] = ()
    wall: float = 0.0
    effort: Mapping[str, float] = field(default_factory=dict)
    message: str = ""


# ---------------------------------------------------------------- the contract


class Backend(Generic[P, S]):
    """The contract of every backend.

    Subclasses implement ``solutions`` (raising ``LimitReached`` when the
    deadline passes) and override the other calls where they can do better.
    ``effort`` collects counters (nodes, branches, ...) of the last call.
    """

    name: ClassVar[str] = "?"
    tasks: ClassVar[frozenset[str]] = frozenset({"solve", "solutions", "count", "unique"})
    methods: ClassVar[tuple[str, ...]] = ()  # variants of the algorithm (``--method``)

    def __init__(self, **options: Any):
        self.options = options
        self.effort: dict[str, float] = {}

    def solutions(self, puzzle: P, *, time_limit: float | None = None) -> Iterator[S]:
        raise Unsupported(f"backend {self.name!r} cannot enumerate solutions")

    def solve(self, puzzle: P, *, time_limit: float | None = None) -> SolveResult[S]:
        start = time.perf_counter()
        try:
            solution = next(iter(self.solutions(puzzle, time_limit=time_limit)), None)
        except LimitReached:
            return SolveResult(Status.LIMIT, None, _since(start), dict(self.effort))
        status = Status.UNSAT if solution is None else Status.SOLVED
        return SolveResult(status, solution, _since(start), dict(self.effort))

    def count(
        self, puzzle: P, *, limit: int | None = None, time_limit: float | None = None
    ) -> CountResult:
        start, n = time.perf_counter(), 0
        if limit is not None and limit <= 0:
            return CountResult(Status.LIMIT, 0, 0.0)
        try:
            for _ in self.solutions(puzzle, time_limit=time_limit):
                n += 1
                if limit is not None and n >= limit:
                    return CountResult(Status.LIMIT, n, _since(start), dict(self.effort))
        except LimitReached:
            return CountResult(Status.LIMIT, n, _since(start), dict(self.effort))
        return CountResult(Status.COUNTED, n, _since(start), dict(self.effort))

    def unique(self, puzzle: P, *, time_limit: float | None = None) -> UniqueResult[S]:
        start, found = time.perf_counter(), []
        try:
            for solution in self.solutions(puzzle, time_limit=time_limit):
                found.append(solution)
                if len(found) == 2:
                    break
        except LimitReached:
            return UniqueResult(Status.LIMIT, tuple(found), _since(start), dict(self.effort))
        status = (Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[len(found)]
        return UniqueResult(status, tuple(found), _since(start), dict(self.effort))


def _since(start: float) -> float:
    return time.perf_counter() - start


def count_limit_reached(n: int, limit: int | None) -> bool:
    """True once ``n`` solutions meet a solution cap (None = no cap)."""
    return limit is not None and n >= limit


@dataclass(frozen=True)
class CheckReport:
    """The answer of ``gridcp check``: is the puzzle well-designed?

    ``ok`` is True (yes), False (no) or None (a limit stopped it undecided);
    ``verdict`` is the one-line word for people (WELL-DESIGNED, UNIQUE, ...),
    ``details`` the figures behind it (capped counts per rule set, ...).
    """

    ok: bool | None
    verdict: str
    status: Status
    details: Mapping[str, Any] = field(default_factory=dict)
    solution: Any = None
    wall: float = 0.0
    effort: Mapping[str, float] = field(default_factory=dict)

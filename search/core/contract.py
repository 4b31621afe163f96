"""The vocabulary every puzzle and backend shares: status words, results, limits,
errors and the backend contract.

A backend declares the calls it offers (``CALLS``: ``solve``, ``solutions``,
``count``, ``unique``, ``check``), the rule variants it takes and a frozen
dataclass of typed options; the base class derives ``solve``, ``count`` and
``unique`` from ``solutions`` so that a new engine only has to write what it
does natively, and a call a backend does not declare raises ``Unsupported``.
"""

from __future__ import annotations

import contextlib
import importlib
import time
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field, fields
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


MAX_MESSAGE = 400  # characters of an error message: what a reader reads on one line


def printable(text: str) -> str:
    """``text`` safe for a terminal: each non-printable character (an escape, a
    bidirectional override, a line break) shown as its escape, ``\\x1b``;
    printable text, spaces included, unchanged."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


class GridcpError(Exception):
    """Base of the errors gridcp reports to a user without a traceback.  Shown
    (``str``), the message is one line of printable characters, cut at
    ``MAX_MESSAGE``: file names and labels from the input cannot drive a terminal."""

    def __str__(self) -> str:
        text = printable(super().__str__())
        return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 3] + "..."


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
    clock = staticmethod(time.perf_counter)  # what it counts (a benchmark's counts CPU)

    def __init__(self, seconds: float | None):
        self.end = None if seconds is None else self.clock() + seconds

    def expired(self) -> bool:
        return self.end is not None and self.clock() >= self.end

    def check(self) -> None:
        if self.end is not None and self.clock() >= self.end:
            raise LimitReached

    def remaining(self, at_most: float | None = None) -> float | None:
        """Seconds left (None: no limit), and no more than ``at_most``."""
        if self.end is None:
            return at_most
        left = max(0.0, self.end - self.clock())
        return left if at_most is None else min(at_most, left)


def since(start: float) -> float:
    """Seconds since ``start`` (a ``time.perf_counter()`` reading)."""
    return time.perf_counter() - start


def add_effort(total: dict[str, float], more: Mapping[str, float]) -> None:
    """Add the effort figures ``more`` into ``total`` (a backend that runs
    several searches reports their sum)."""
    for name, value in more.items():
        total[name] = total.get(name, 0) + value


def effort_of(engines: list[Any]) -> dict[str, float]:
    """The sum of the effort figures the ``engines`` hold now (``add_effort``)."""
    total: dict[str, float] = {}
    for engine in engines:
        add_effort(total, {k: v for k, v in engine.effort.items()
                           if isinstance(v, (int, float)) and not isinstance(v, bool)})
    return total


_running: ContextVar[list[Any] | None] = ContextVar("running", default=None)


@contextlib.contextmanager
def engines_run() -> Iterator[list[Any]]:
    """The backends made in the block, in order: a task stopped from outside
    (the watchdog's ``Overtime``) still reports the counts they hold so far
    (``effort_of``), where its result, which carries them, never came back."""
    made: list[Any] = []
    token = _running.set(made)
    try:
        yield made
    finally:
        _running.reset(token)


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class SolveResult(Generic[S]):
    """SOLVED with a solution, UNSAT, LIMIT, INVALID or ERROR.

    ``transcript`` is what a seed-faithful method prints as the seed program
    does (the readable output shows it instead of the board).  ``engine``
    names the engine that answered, where a backend picks one (``auto``).
    """

    status: Status
    solution: S | None = None
    wall: float = 0.0
    effort: Mapping[str, float] = field(default_factory=dict)
    message: str = ""
    transcript: str = ""
    engine: str = ""


@dataclass(frozen=True)
class CountResult:
    """COUNTED (``count`` is exact) or LIMIT (``count`` is a lower bound).

    A count found by enumeration keeps its first two solutions as evidence
    (``solutions``); a count by other means (dynamic programming) has none.
    """

    status: Status
    count: int
    wall: float = 0.0
    effort: Mapping[str, float] = field(default_factory=dict)
    message: str = ""
    solutions: tuple[Any, ...] = ()

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


@dataclass(frozen=True, kw_only=True)
class CheckReport:
    """The answer of ``gridcp check``: is the puzzle well-designed?

    ``ok`` is True (yes), False (no) or None (a limit stopped it undecided);
    ``verdict`` is the one-line word for people (WELL-DESIGNED, UNIQUE, ...),
    ``details`` the figures behind it (capped counts per rule set, ...).

    ``solutions`` is the evidence, which the command line verifies before it
    shows the verdict: two distinct solutions for a "no" by multiplicity, the
    one solution for a "yes" (or for "the only solution leaves cells empty"),
    none for a "no solution" or a limit.  They satisfy ``rules`` (the puzzle
    under the rule set the verdict is about; None: the puzzle checked).
    ``engine`` names what proved the verdict.
    """

    ok: bool | None
    verdict: str
    status: Status
    details: Mapping[str, Any] = field(default_factory=dict)
    solutions: tuple[Any, ...] = ()
    engine: str = ""
    rules: Any = None
    wall: float = 0.0
    effort: Mapping[str, float] = field(default_factory=dict)

    @property
    def solution(self) -> Any:
        """The one solution behind a verdict that has one, else None."""
        return self.solutions[0] if len(self.solutions) == 1 else None


# ---------------------------------------------------------------- the contract

CALLS = ("solve", "solutions", "count", "unique", "check")


@dataclass(frozen=True)
class NoOptions:
    """The options of a backend that takes none."""


def load(dotted: str) -> Any:
    """``"package.module:attribute"`` -> the attribute, importing on first use."""
    module, _, attribute = dotted.partition(":")
    return getattr(importlib.import_module(module), attribute)


class Backend(Generic[P, S]):
    """The contract of every backend.

    A backend declares ``calls`` (a subset of ``CALLS``), ``rules`` (the
    puzzle's rule-variant flags it takes, e.g. ``lenient``), ``methods``
    (variants of its algorithm, ``--method``) and ``Options``, a frozen
    dataclass of typed options with defaults: ``Backend(**options)`` builds
    ``self.opts`` from them, and an unknown option is an error.

    Subclasses implement ``solutions`` (raising ``LimitReached`` when the
    deadline passes) and override the other calls where they can do better;
    each puzzle's base backend gives ``check`` its meaning.  ``effort``
    collects counters (nodes, branches, ...) of the last call.
    """

    name: ClassVar[str] = "?"
    calls: ClassVar[frozenset[str]] = frozenset({"solve", "solutions", "count", "unique"})
    rules: ClassVar[frozenset[str]] = frozenset()
    methods: ClassVar[tuple[str, ...]] = ()
    Options: ClassVar[type] = NoOptions

    def __init__(self, **options: Any):
        known = [f.name for f in fields(self.Options)]
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise GridcpError(f"backend {self.name!r} has no option {unknown[0]!r} "
                              f"(its options: {', '.join(known) or 'none'})")
        self.opts = self.Options(**options)
        self.effort: dict[str, float] = {}
        made = _running.get()
        if made is not None:  # a task that may be stopped from outside: engines_run
            made.append(self)

    def offers(self, call: str) -> None:
        """Raise ``Unsupported`` unless this backend declares ``call``."""
        if call not in self.calls:
            offered = ", ".join(c for c in CALLS if c in self.calls)
            raise Unsupported(f"backend {self.name!r} does not offer {call} "
                              f"(it offers: {offered})")

    def solutions(self, puzzle: P, *, time_limit: float | None = None) -> Iterator[S]:
        self.offers("solutions")
        raise Unsupported(f"backend {self.name!r} cannot enumerate solutions")

    def solve(self, puzzle: P, *, time_limit: float | None = None) -> SolveResult[S]:
        self.offers("solve")
        start = time.perf_counter()
        try:
            solution = next(iter(self.solutions(puzzle, time_limit=time_limit)), None)
        except LimitReached:
            return SolveResult(Status.LIMIT, None, since(start), dict(self.effort))
        status = Status.UNSAT if solution is None else Status.SOLVED
        return SolveResult(status, solution, since(start), dict(self.effort))

    def count(
        self, puzzle: P, *, limit: int | None = None, time_limit: float | None = None
    ) -> CountResult:
        self.offers("count")
        start, n, first = time.perf_counter(), 0, []
        if limit is not None and limit <= 0:
            return CountResult(Status.LIMIT, 0, 0.0)

        def counted(status: Status) -> CountResult:
            return CountResult(status, n, since(start), dict(self.effort),
                               solutions=tuple(first))

        try:
            for solution in self.solutions(puzzle, time_limit=time_limit):
                n += 1
                if len(first) < 2:
                    first.append(solution)
                if limit is not None and n >= limit:
                    return counted(Status.LIMIT)
        except LimitReached:
            return counted(Status.LIMIT)
        return counted(Status.COUNTED)

    def unique(self, puzzle: P, *, time_limit: float | None = None) -> UniqueResult[S]:
        self.offers("unique")
        start, found = time.perf_counter(), []
        try:
            for solution in self.solutions(puzzle, time_limit=time_limit):
                found.append(solution)
                if len(found) == 2:
                    break
        except LimitReached:
            return UniqueResult(Status.LIMIT, tuple(found), since(start), dict(self.effort))
        status = (Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[len(found)]
        return UniqueResult(status, tuple(found), since(start), dict(self.effort))

    def check(self, puzzle: P, *, time_limit: float | None = None) -> CheckReport:
        """The puzzle's verdict by this backend (each puzzle's base backend
        says what it means)."""
        self.offers("check")
        raise Unsupported(f"backend {self.name!r} has no check")

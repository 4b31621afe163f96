"""The ``count-dp`` backend: counting without visiting solutions one by one.

Two exact plans, chosen by the puzzle's shape (``plans``):

* ``rows`` (``search.futoshiki.countdp.rows``): dynamic programming over Latin
  rectangles, an upper part (the rows with clues) and a lower part (the free
  rows) met in the middle, columns sorted wherever the puzzle is symmetric.
  Strong on the empty square and where the clues sit in at most half of the
  rows of one orientation (the free rows are a kept table); its states carry
  the values of linked cells, so clues spread over more rows widen them.
* ``layers`` (``search.futoshiki.countdp.layers``): the values placed one by one,
  the state the set of filled cells; inequalities and givens remove states.
  Strong where the clues are spread.

The plan that fits is tried first under the state budget (option
``max_states``, states kept after a step), then the other; past the budget in
both the backend falls back to the ``propagate`` backend's streaming count and
says so in the result's message.  ``solve`` and ``unique`` are delegated to
``propagate``: a count of one says nothing about the solution itself.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from search.core.contract import (
    CountResult,
    Deadline,
    LimitReached,
    SolveResult,
    Status,
    UniqueResult,
    since,
)
from search.futoshiki.backend import FutoshikiBackend
from search.futoshiki.countdp import layers as layerdp
from search.futoshiki.countdp import rows as rowdp
from search.futoshiki.countdp.rows import DEFAULT_MAX_STATES, StateSpaceTooLarge
from search.futoshiki.model import Futoshiki
from search.futoshiki.propagate import PropagateBackend, Search

QUICK_ORDER = 7  # from this order on, a puzzle with few solutions is propagate's
QUICK_NODES = 5_000  # propagate's nodes before the DP, on puzzles that may have few solutions


class NodeBudget:
    """Stands in for a search's deadline: gives up after ``nodes`` checks (the
    search checks once per node), or at the user's deadline."""

    def __init__(self, nodes: int, deadline: Deadline):
        self.left, self.deadline = nodes, deadline

    def check(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise BudgetSpent
        self.deadline.check()

    def remaining(self, at_most: float | None = None) -> float | None:
        return self.deadline.remaining(at_most)

    def expired(self) -> bool:
        return self.left < 0 or self.deadline.expired()


class BudgetSpent(Exception):
    """The quick search used up its nodes."""


def quick_count(puzzle: Futoshiki, nodes: int, deadline: Deadline) -> tuple[int, int] | None:
    """(count, nodes) when propagate counts ``puzzle`` within ``nodes`` nodes;
    None when it does not (a puzzle with many solutions: the DP's case)."""
    search = Search(puzzle, None)
    search.deadline = NodeBudget(nodes, deadline)  # type: ignore[assignment]
    try:
        return search.count(None, False), search.nodes
    except BudgetSpent:
        return None


COUNTERS = {"rows": rowdp.count, "layers": layerdp.count}  # the exact plans by name


def plans(puzzle: Futoshiki) -> tuple[str, ...]:
    """The plans to try, in order (a structural test, not a measurement).

    ``rows`` first on the empty square, where some orientation leaves more
    than half of the rows free of clues (its free rows below are a kept table:
    a 7x7 with clues in three rows is counted in a second, with clues in four
    it passes millions of states), and from order 8 on (the layers' masks of a
    sparse 8x8 are far too many); ``layers`` first otherwise.  Orders past
    ``layerdp.MAX_ORDER`` only rows.
    """
    n = puzzle.n
    if n > layerdp.MAX_ORDER:
        return ("rows",)
    free = max(len(layerdp.free_rows(puzzle)), len(layerdp.free_rows(rowdp.transpose(puzzle))))
    if free == n or free > n // 2 or n >= 8:
        return ("rows", "layers")
    return ("layers", "rows")


def count_dp(puzzle: Futoshiki, *, max_states: int = DEFAULT_MAX_STATES,
             deadline: Deadline | None = None, stats: dict[str, Any] | None = None,
             plan: str = "auto") -> int:
    """The exact number of solutions of ``puzzle``: the plans of ``plans`` (or
    ``plan`` alone) in turn, each under ``max_states``; ``stats["plan"]`` says
    which one counted.  Raises ``StateSpaceTooLarge`` when every plan passes
    the budget."""
    stats = stats if stats is not None else {}
    if plan != "auto" and plan not in COUNTERS:
        raise ValueError(f"count-dp: plan {plan!r} is not auto, rows or layers")
    order = plans(puzzle) if plan == "auto" else (plan,)
    for i, name in enumerate(order):
        tried: dict[str, Any] = {}
        try:
            total = COUNTERS[name](puzzle, max_states=max_states, deadline=deadline,
                                   stats=tried)
        except StateSpaceTooLarge:
            stats[f"{name}_over_budget"] = 1
            if i == len(order) - 1:
                raise
            continue
        stats.update(tried)
        stats["plan"] = name
        return total
    raise AssertionError("no plan")  # (order is never empty)


class CountDPBackend(FutoshikiBackend):
    """Counts by dynamic programming over Latin rectangles; solve/unique via propagate.

    Options: ``max_states`` (default 16 million states kept after a step)
    bounds the work; past it the count falls back to ``propagate``.  From
    order 7 on, a puzzle with clues is first counted by ``propagate`` for at
    most ``quick_nodes`` search nodes (default 5,000): a puzzle with few
    solutions (a setter's 9x9) is counted there at once, while its DP states
    would be many.  ``fallback=False`` makes a count past ``max_states`` LIMIT.
    ``plans`` chooses the exact plan to try first and the other past the
    budget (``count_dp(plan=...)`` forces one).
    """

    @dataclass(frozen=True)
    class Options:
        max_states: int = DEFAULT_MAX_STATES
        quick_nodes: int = QUICK_NODES
        fallback: bool = True  # past max_states, count with propagate (else LIMIT)
        progress: bool = True  # propagate's progress lines (its fallback count)

    name = "count-dp"
    calls = frozenset({"count", "solve", "unique", "check"})
    rules = frozenset()  # its states have no room for Adjacent mode's bars

    def __init__(self, **options: Any):
        super().__init__(**options)
        self.helper = PropagateBackend(progress=self.opts.progress)

    def solve(self, puzzle: Futoshiki, *, time_limit: float | None = None) -> SolveResult:
        self.refuse_undeclared_rules(puzzle)
        result = self.helper.solve(puzzle, time_limit=time_limit)
        self.effort = dict(self.helper.effort)
        return result

    def unique(self, puzzle: Futoshiki, *, time_limit: float | None = None) -> UniqueResult:
        self.refuse_undeclared_rules(puzzle)
        result = self.helper.unique(puzzle, time_limit=time_limit)
        self.effort = dict(self.helper.effort)
        return result

    def count(
        self, puzzle: Futoshiki, *, limit: int | None = None, time_limit: float | None = None
    ) -> CountResult:
        self.refuse_undeclared_rules(puzzle)
        start = time.perf_counter()
        if limit is not None and limit <= 0:
            return CountResult(Status.LIMIT, 0, 0.0)
        deadline = Deadline(time_limit)
        stats: dict[str, Any] = {}
        try:
            quick = None
            if puzzle.n >= QUICK_ORDER and (puzzle.less or any(any(r) for r in puzzle.givens)):
                quick = quick_count(puzzle, self.opts.quick_nodes, deadline)
            if quick is not None:
                total, nodes = quick
                stats = {"nodes": nodes, "propagate": 1}
            else:
                total = count_dp(puzzle, max_states=self.opts.max_states, deadline=deadline,
                                 stats=stats)
        except LimitReached:
            self.effort = stats
            return CountResult(Status.LIMIT, 0, since(start), stats, "time limit")
        except KeyboardInterrupt:
            self.effort = stats
            return CountResult(Status.LIMIT, 0, since(start), stats, "interrupted")
        except StateSpaceTooLarge as error:
            if not self.opts.fallback:
                self.effort = stats
                return CountResult(Status.LIMIT, 0, since(start), stats,
                                   f"count-dp: {error}; --option max_states=N raises it")
            result = self.helper.count(puzzle, limit=limit, time_limit=deadline.remaining())
            self.effort = {**self.helper.effort, "fallback": 1}
            message = f"count-dp: {error}; counted with propagate instead"
            if result.message:
                message += f" ({result.message})"
            return CountResult(result.status, result.count, since(start), self.effort, message)
        self.effort = stats
        if limit is not None and total >= limit:
            # Same answer as every backend at a cap (LIMIT, count = the cap); the
            # exact number goes to the message.
            return CountResult(Status.LIMIT, limit, since(start), stats, f"exact count {total}")
        return CountResult(Status.COUNTED, total, since(start), stats)


"""The ``count-dp`` backend: counting without visiting solutions one by one.

Three exact plans, chosen by the puzzle's shape (``plans``):

* ``rows`` (``search.futoshiki.countdp.rows``): dynamic programming over Latin
  rectangles, an upper part (the rows with clues) and a lower part (the free
  rows) met in the middle, columns sorted wherever the puzzle is symmetric.
  Strong on the empty square and where the clues sit in at most half of the
  rows of one orientation (the free rows are a kept table); its states carry
  the values of linked cells, so clues spread over more rows widen them.
* ``layers`` (``search.futoshiki.countdp.layers``): the values placed one by one,
  the state the set of filled cells; inequalities and givens remove states,
  and at every layer's end the states whose futures are alike (the same
  empty cells up to moves of the lines no open clue touches) are merged.
  Strong where the clues are spread.
* ``ranks`` (``search.futoshiki.countdp.ranks``): rows again, but the values
  anonymous until a clued cell takes one, then named by their rank among
  the values named so far, and folded back into the count after the last
  clue; every value and every free column alike in between.  Strong where
  the clues sit in few rows (an 8x8 with clues in three rows: thousands of
  states where the rows plan has tens of millions); tried first on order 8,
  it gives way where its states pile up.

Before any, an inequality that holds in half the solutions of the rest
(``halves``: the swap of its two lines fixes every other clue) is taken out
and the count halved.

**Memory.** Every count runs under a memory budget (option ``memory_mb``; by
default the ``--memory-limit`` the user gave less 256 MB, else
``DEFAULT_MEMORY_MB``; never above the process's address-space cap less
256 MB).  The plans get it less ``BASE_MB`` (the interpreter and its
modules) as bytes for their tables, and estimate each step's bytes from its
input before they allocate: past it a plan raises ``StateSpaceTooLarge``
(the layers plan first cuts a layer into smaller pieces), the next plan is
tried, and past all the answer is LIMIT with the reasons and the best lower
bound known, never a process killed for its memory.

**Past the plans** the backend estimates (Knuth's random probes, seeded)
the nodes ``propagate``'s streaming count would visit: above
``fallback_nodes`` it answers LIMIT at once (the empty 9x9, 5.5e27 squares),
else it counts there within that many nodes.

**Evidence.** A count of two or more keeps two solutions and a count of one
its solution, whichever plan counted (``evidence``): the first ones
``propagate`` finds within ``evidence_nodes`` nodes, else solutions rebuilt
cell by cell from exact counts of the puzzle with more givens.  ``solve``
and ``unique`` are delegated to ``propagate``.
"""

from __future__ import annotations

import math
import random
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
from search.core.limits import memory_budget
from search.futoshiki.backend import FutoshikiBackend
from search.futoshiki.countdp import halves
from search.futoshiki.countdp import layers as layerdp
from search.futoshiki.countdp import ranks as rankdp
from search.futoshiki.countdp import rows as rowdp
from search.futoshiki.countdp.rows import MB, StateSpaceTooLarge
from search.futoshiki.model import Futoshiki, Solution
from search.futoshiki.propagate import Engine, PropagateBackend, Search
from search.futoshiki.verify import verify

QUICK_ORDER = 7  # from this order on, a puzzle with few solutions is propagate's
RANKS_ORDER = 8  # from this order on the ranks plan goes first (see plans)
QUICK_NODES = 5_000  # propagate's nodes before the DP, on puzzles that may have few solutions
DEFAULT_MEMORY_MB = 640  # the memory budget of a count, resident, when none is given
BASE_MB = 64  # what the interpreter, numpy and gridcp hold before any table
TABLES = 0.85  # the share of the rest the tables' estimates may take (the allocator's slack)
FALLBACK_NODES = 2_000_000  # propagate's nodes for a count past the plans
EVIDENCE_NODES = 200_000  # propagate's nodes to find the solutions a count keeps
PROBES = 16  # Knuth's probes to estimate the fallback's nodes


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


def quick_count(puzzle: Futoshiki, nodes: int, deadline: Deadline) -> tuple[int, int, bool]:
    """(count, nodes, complete): ``propagate``'s count of ``puzzle`` within
    ``nodes`` nodes; not complete (the count a lower bound) when it needs more
    (a puzzle with many solutions: the DP's case)."""
    search = Search(puzzle, None)
    search.deadline = NodeBudget(nodes, deadline)  # type: ignore[assignment]
    try:
        return search.count(None, False), search.nodes, True
    except BudgetSpent:
        return search.found, search.nodes, False


def first_solutions(puzzle: Futoshiki, want: int, nodes: int,
                    deadline: Deadline) -> list[Solution]:
    """Up to ``want`` solutions that ``propagate`` finds within ``nodes`` nodes."""
    search = Search(puzzle, None)
    search.deadline = NodeBudget(nodes, deadline)  # type: ignore[assignment]
    found: list[Solution] = []
    try:
        for solution in search.solutions():
            found.append(solution)
            if len(found) == want:
                break
    except BudgetSpent:
        pass
    return found


def estimate_nodes(puzzle: Futoshiki, probes: int, stop: float, deadline: Deadline) -> float:
    """Knuth's estimate of the nodes of ``propagate``'s count (the mean over
    ``probes`` random paths of the sum, over depths, of the product of the
    branching factors met), from a seeded generator: the same on every run.
    Stops as soon as the mean passes ``stop``."""
    rng = random.Random(0)
    total = 0.0
    for _ in range(probes):
        engine = Engine(puzzle)
        if not engine.ok:
            return 0.0
        weight = 1.0
        while True:
            deadline.check()
            total += weight
            if total / probes > stop:
                return total / probes
            if engine.open_rest() is not None:
                break  # the search counts what is left at once
            i = engine.choose()
            if i < 0:
                break
            alive, d = [], engine.dom[i]
            while d:
                bit = d & -d
                d ^= bit
                mark = engine.mark()
                if engine.assign(i, bit):
                    alive.append(bit)
                engine.undo(mark)
            if not alive:
                break
            weight *= len(alive)
            engine.assign(i, rng.choice(alive))
    return total / probes


def latin_lower_bound(puzzle: Futoshiki) -> int:
    """A lower bound on the count known without search: on the empty square
    ``1! 2! ... n!`` (each row of a Latin rectangle of ``k`` rows extends in at
    least ``(n - k)!`` ways, a permanent bound), else 0."""
    if puzzle.less or any(any(row) for row in puzzle.givens):
        return 0
    return math.prod(math.factorial(k) for k in range(1, puzzle.n + 1))


COUNTERS = {"rows": rowdp.count, "layers": layerdp.count, "ranks": rankdp.count}  # by name


def plans(puzzle: Futoshiki) -> tuple[str, ...]:
    """The plans to try, in order (a structural test, not a measurement).

    ``rows`` first on the empty square, where some orientation leaves at most
    two rows with a clue and more than half of them free (its free rows below
    are a kept table: counted in a fraction of a second), and from order 8 on
    (the layers' masks of a sparse 8x8 are far too many); ``layers`` first
    otherwise.  With clues in three rows of a 7x7 the rows plan is often the
    faster but its worst case is not: on 39 such puzzles the rows plan took
    up to 7.4 s and the folded layers at most 3.3 s.  Orders past
    ``layerdp.MAX_ORDER`` have no layers plan.

    From order 8 (``RANKS_ORDER``) on, ``ranks`` goes first where its kernel
    is compiled: it counts 195 of the benchmark's 200 random 8x8s (the
    hardest in 74 s) and the empty 8x8 in 0.25 s, where the rows plan takes
    5 s.  Interpreted, it goes first on a clued 8x8 only (the empty square's
    rows are faster there) and last past order 8.  On a 7x7 its labels pile
    up where clues are many (half of thirty random 7x7s passed 600 MB), so
    the rows and layers plans keep it.
    """
    n = puzzle.n
    clued = bool(puzzle.less) or any(any(row) for row in puzzle.givens)
    if n > layerdp.MAX_ORDER:
        if rankdp.COMPILED:
            return ("ranks", "rows")
        return ("rows", "ranks") if clued else ("rows",)
    ranked = n >= RANKS_ORDER and (rankdp.COMPILED or clued)
    first = ("ranks",) if ranked else ()
    free = max(len(layerdp.free_rows(puzzle)), len(layerdp.free_rows(rowdp.transpose(puzzle))))
    if free >= max(n // 2 + 1, n - 2) or n >= 8:  # (the empty square: free == n)
        return (*first, "rows", "layers")
    return ("layers", "rows")


def count_dp(puzzle: Futoshiki, *, max_states: int | None = None,
             deadline: Deadline | None = None, stats: dict[str, Any] | None = None,
             plan: str = "auto", max_bytes: int = rowdp.DEFAULT_MAX_BYTES) -> int:
    """The exact number of solutions of ``puzzle``: the plans of ``plans`` (or
    ``plan`` alone) in turn, each under ``max_states`` (None: none) and
    ``max_bytes``; ``stats["plan"]`` says which one counted.  The plans count
    the puzzle less the inequalities that hold in half the solutions of the
    rest (``halves``; ``stats["halved"]``: how many), and the count is halved
    as often.  Raises ``StateSpaceTooLarge`` when every plan passes the
    budget, with every plan's reason."""
    stats = stats if stats is not None else {}
    if plan != "auto" and plan not in COUNTERS:
        raise ValueError(f"count-dp: plan {plan!r} is not auto, {', '.join(COUNTERS)}")
    taken = 0  # inequalities that hold in half the solutions of the rest
    if not puzzle.adjacent:  # (Adjacent mode's bars tie every pair: the plans refuse it)
        puzzle, taken = halves.halved(puzzle)
        if taken:
            stats["halved"] = taken
    order = plans(puzzle) if plan == "auto" else (plan,)
    reasons = []
    for name in order:
        tried: dict[str, Any] = {}
        try:
            total = COUNTERS[name](puzzle, max_states=max_states, deadline=deadline,
                                   stats=tried, max_bytes=max_bytes)
        except StateSpaceTooLarge as error:
            stats[f"{name}_over_budget"] = 1
            reasons.append(f"{name} plan: {error}")
            continue
        stats.update(tried)
        stats["plan"] = name
        whole, odd = divmod(total, 1 << taken)
        if odd:
            raise RuntimeError(f"count-dp: {total:,} solutions less {taken} relations, "
                               f"not a multiple of 2**{taken}")
        return whole
    raise StateSpaceTooLarge("; ".join(reasons))


class CountDPBackend(FutoshikiBackend):
    """Counts by dynamic programming over Latin rectangles; solve/unique via propagate.

    Options: ``memory_mb`` (the memory budget of a count, resident MB; default:
    the ``--memory-limit`` given less 256 MB, else 640 MB) bounds the tables,
    ``max_states`` (default none) the states after a step; past them in both
    plans ``propagate`` counts when its estimated nodes are at most
    ``fallback_nodes`` (``fallback=False``: never), else the answer is LIMIT.
    From order 7 on, a puzzle with clues is first counted by ``propagate`` for
    at most ``quick_nodes`` search nodes (default 5,000): a puzzle with few
    solutions (a setter's 9x9) is counted there at once, while its DP states
    would be many.  ``evidence_nodes``: ``propagate``'s nodes to find the
    solutions a count keeps (then they are rebuilt from counts).
    """

    @dataclass(frozen=True)
    class Options:
        memory_mb: float | None = None  # None: --memory-limit less 256 MB, else 640 MB
        max_states: int | None = None  # states after a step (None: the memory alone)
        quick_nodes: int = QUICK_NODES
        fallback: bool = True  # past the plans, count with propagate (else LIMIT)
        fallback_nodes: int = FALLBACK_NODES
        evidence_nodes: int = EVIDENCE_NODES
        progress: bool = True  # (kept for the command line; the fallback is quiet)

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

    def budget_mb(self) -> float:
        """The memory budget of a count (resident MB)."""
        return memory_budget(self.opts.memory_mb, DEFAULT_MEMORY_MB)[0]

    def budget_text(self) -> str:
        mb, source = memory_budget(self.opts.memory_mb, DEFAULT_MEMORY_MB)
        return f"count-dp: memory budget {mb:,.0f} MB ({source})"

    def exact(self, puzzle: Futoshiki, deadline: Deadline, stats: dict[str, Any]
              ) -> tuple[int, int]:
        """(count, lower bound so far): ``propagate``'s quick count where it may
        finish, else the plans; ``StateSpaceTooLarge`` (with the lower bound in
        ``stats["lower_bound"]``) past them."""
        n, lower = puzzle.n, 0
        if n >= QUICK_ORDER and (puzzle.less or any(any(r) for r in puzzle.givens)):
            found, nodes, complete = quick_count(puzzle, self.opts.quick_nodes, deadline)
            stats["quick_nodes"] = nodes
            if complete:
                stats.update({"nodes": nodes, "plan": "propagate"})
                return found, found
            lower = found
        stats["lower_bound"] = lower
        max_bytes = int((self.budget_mb() - BASE_MB) * TABLES * MB)
        if max_bytes <= 0:
            raise StateSpaceTooLarge(f"a memory budget of {self.budget_mb():,.0f} MB leaves "
                                     f"nothing for tables above the {BASE_MB} MB base")
        total = count_dp(puzzle, max_states=self.opts.max_states, deadline=deadline,
                         stats=stats, max_bytes=max_bytes)
        return total, total

    def count(
        self, puzzle: Futoshiki, *, limit: int | None = None, time_limit: float | None = None
    ) -> CountResult:
        self.refuse_undeclared_rules(puzzle)
        start = time.perf_counter()
        if limit is not None and limit <= 0:
            return CountResult(Status.LIMIT, 0, 0.0)
        deadline = Deadline(time_limit)
        stats: dict[str, Any] = {}  # the work; the budget is a setting (LIMIT names it)
        self.effort = stats
        try:
            try:
                total, _ = self.exact(puzzle, deadline, stats)
            except StateSpaceTooLarge as error:
                return self.past_plans(puzzle, limit, deadline, stats, str(error), start)
            solutions = self.evidence(puzzle, total, deadline)
        except LimitReached:
            return CountResult(Status.LIMIT, stats.get("lower_bound", 0), since(start), stats,
                               "time limit")
        except KeyboardInterrupt:
            return CountResult(Status.LIMIT, stats.get("lower_bound", 0), since(start), stats,
                               "interrupted")
        stats.pop("lower_bound", None)
        if limit is not None and total >= limit:
            # Same answer as every backend at a cap (LIMIT, count = the cap); the
            # exact number goes to the message.
            return CountResult(Status.LIMIT, limit, since(start), stats, f"exact count {total}",
                               solutions)
        return CountResult(Status.COUNTED, total, since(start), stats, "", solutions)

    def past_plans(self, puzzle: Futoshiki, limit: int | None, deadline: Deadline,
                   stats: dict[str, Any], reason: str, start: float) -> CountResult:
        """Both plans passed the budget: ``propagate``'s count when its estimated
        nodes fit ``fallback_nodes``, else LIMIT at once with the reasons."""
        lower = stats.pop("lower_bound", 0)
        budget = f"{self.budget_text()}: {reason}"
        if not self.opts.fallback:
            return CountResult(Status.LIMIT, lower, since(start), stats,
                               f"{budget}; the count is a lower bound (--option max_states=N "
                               "or --option memory_mb=N raises the budgets)")
        nodes = self.opts.fallback_nodes
        guess = estimate_nodes(puzzle, PROBES, nodes, deadline)
        stats["estimated_nodes"] = float(f"{guess:.3g}")
        if guess > nodes:
            found = tuple(first_solutions(puzzle, 2, self.opts.evidence_nodes, deadline))
            lower = max(lower, len(found), latin_lower_bound(puzzle))
            return CountResult(Status.LIMIT, lower, since(start), stats,
                               f"{budget}; enumeration by propagate would visit about "
                               f"{guess:.1e} nodes or more (Knuth's estimate, {PROBES} probes), "
                               f"past its budget of {nodes:,}: it cannot finish, stopped at "
                               f"once; the count is a lower bound", found)
        search = Search(puzzle, None)
        search.deadline = NodeBudget(nodes, deadline)  # type: ignore[assignment]
        try:
            total = search.count(limit, False)
        except BudgetSpent:
            stats.update({"nodes": search.nodes, "fallback": 1})
            return CountResult(Status.LIMIT, max(lower, search.found), since(start), stats,
                               f"{budget}; propagate passed its budget of {nodes:,} nodes; "
                               "the count is a lower bound")
        except LimitReached:
            stats.update({"nodes": search.nodes, "fallback": 1})
            capped = limit is not None and search.found >= limit
            return CountResult(Status.LIMIT, max(lower, search.found), since(start), stats,
                               "" if capped else "time limit")
        stats.update({"nodes": search.nodes, "fallback": 1, "plan": "propagate"})
        solutions = self.evidence(puzzle, total, deadline)
        return CountResult(Status.COUNTED, total, since(start), stats,
                           f"{budget}; counted with propagate instead", solutions)

    def evidence(self, puzzle: Futoshiki, total: int, deadline: Deadline
                 ) -> tuple[Solution, ...]:
        """Two verified solutions for a count of two or more, the solution for a
        count of one: ``propagate``'s first ones within ``evidence_nodes``,
        else rebuilt from exact counts (``rebuild``)."""
        want = min(total, 2)
        if not want:
            return ()
        found = first_solutions(puzzle, want, self.opts.evidence_nodes, deadline)
        if len(found) < want:
            found = self.rebuild(puzzle, want, found, deadline)
        for solution in found:
            problems = verify(puzzle, solution)
            if problems:
                raise AssertionError(f"count-dp's evidence fails verification: {problems[0]}")
        return tuple(found)

    def rebuild(self, puzzle: Futoshiki, want: int, found: list[Solution],
                deadline: Deadline) -> list[Solution]:
        """Solutions by self-reduction: cells fixed one by one to a value whose
        puzzle still has solutions (counted exactly); the second one differs
        from the first at the first cell where another value keeps solutions.
        Gives what it has if a count passes the budget."""
        n = puzzle.n
        grid = [list(row) for row in puzzle.givens]

        def alive(cells: list[list[int]]) -> bool:
            trial = Futoshiki(n, tuple(map(tuple, cells)), puzzle.less)
            return self.exact(trial, deadline, {})[0] > 0

        def complete(cells: list[list[int]], start: int) -> Solution:
            for i in range(start, n * n):
                r, c = divmod(i, n)
                if cells[r][c]:
                    continue
                for v in range(1, n + 1):
                    cells[r][c] = v
                    if alive(cells):
                        break
            return Solution(tuple(map(tuple, cells)))

        try:
            if not found:
                found = [complete([row[:] for row in grid], 0)]
            if want == 2 and len(found) < 2:
                first = found[0].grid
                for i in range(n * n):
                    r, c = divmod(i, n)
                    if grid[r][c]:
                        continue
                    cells = [row[:] for row in grid]
                    for j in range(i):
                        cells[j // n][j % n] = first[j // n][j % n]
                    for v in range(1, n + 1):
                        if v == first[r][c]:
                            continue
                        cells[r][c] = v
                        if alive(cells):
                            return [found[0], complete(cells, i + 1)]
        except StateSpaceTooLarge:
            pass
        return found

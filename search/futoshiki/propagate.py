"""The ``propagate`` backend: constraint propagation with an undo trail.

Domains are bitsets (bit ``v - 1`` stands for value ``v``).  After every
decision the engine reaches a fixpoint of, cheapest first:

* forward checking: an assigned value leaves the domains of its row and column;
* arc consistency on every inequality ``a < b`` (bounds: ``b`` above ``min a``,
  ``a`` below ``max b``), which carries bounds along inequality chains;
* hidden singles: a value with one place left in a row or column goes there;
* all-different matching reasoning (Hall sets) on every row and column whose
  domains changed: a perfect matching of cells to values, then the strongly
  connected components of its alternating graph show which values no perfect
  matching can give a cell (Regin's filtering); this subsumes naked pairs,
  triples, ... and hidden ones;
* the same filtering on each value's plane: a value sits once in every row and
  column, so its open rows are matched to its open columns (X-wings, ...).

Before the search, static chain bounds tighten the domains once: a cell with
``k`` cells transitively below it that must all differ (one chain, or ``k``
cells in one row or column) is at least ``k + 1``, and symmetrically.

At every search node, singleton consistency by the cheap rules (``probe``):
each value of each open cell of at most 5 values is tried with forward
checking, bounds and hidden singles, and a value that fails there goes (about
20 times fewer nodes on relation-only 9x9s, at about 10 times the cost per node).

The search branches on the cell with the smallest domain per weight
(dom/wdeg, last conflict first), binary (``x = v``, then ``x != v`` propagated), and undoes its
changes from the trail instead of copying the state per node.  Counting
streams: it never stores solutions; near the leaves, when few open cells are
left and no inequality links two of them, it counts their completions by
merging partial fillings that used the same values in every row and column.
"""

from __future__ import annotations

import sys
import time
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from search.core.compiled import is_compiled, load, source
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
from search.futoshiki.model import Futoshiki, Solution

KERNEL_NAME = "search.futoshiki.kernel"
KERNEL = load(KERNEL_NAME)  # the cheap rules: compiled where built (search.core.compiled)

# Nodes between two looks at the clock: every node, since a node's propagation
# grows as n^3 (the value planes) and 256 nodes of a 40 x 40 square took 16 s
# past a 1 s limit; one clock read is far below one propagation even at n = 4.
CHECK_EVERY = 1
REST_CELLS = 20  # a count finishes the last open cells by merging states...
REST_STATES = 100_000  # ... unless that needs more states than this
PROGRESS_AFTER = 5.0  # seconds of counting before the first progress line on stderr
PROBE_VALUES = 5  # probing skips wider cells: they seldom lose a value and cost most
PROBE_CELLS = 81  # cells probed between two looks at the clock, a row at least (a 9x9 in one call)


class Contradiction(Exception):
    """The inequalities form a cycle: the puzzle has no solution."""


# ---------------------------------------------------------------- static analysis


def chain_bounds(puzzle: Futoshiki) -> list[tuple[int, int]]:
    """(lowest, highest) possible value of each cell from the inequalities alone
    (the kernel's ``chains``); a Contradiction if they form a cycle."""
    state = Engine(puzzle, ()).state
    if not state.chains():
        raise Contradiction("the inequalities form a cycle")
    return [(state.low[i], state.high[i]) for i in range(puzzle.n * puzzle.n)]


# ---------------------------------------------------------------- the engine

CELL, LINES, BOARD = "cell", "lines", "board"  # where a deduction looks (``Deduction.stage``)


@dataclass(frozen=True)
class Deduction:
    """One rule of the engine, named as in Tatham's solver (``unequal.c``'s
    table of solvers by difficulty): the grade that adds it, where it looks,
    and how it runs.

    ``stage`` CELL: on each cell whose domain changed; LINES: over the rows and
    columns once no cell waits.  These are the cheap rules, which ``probe``
    tries values with: the kernel (``kernel.py``) applies them, in the order of
    ``DEDUCTIONS``, and ``switch`` names its switch for the rule.  BOARD: over
    the board once the cheap rules are at their fixpoint, as ``run(engine)``
    (False on a contradiction).  A rule that narrows a domain sends the engine
    back to the cheapest ones.
    """

    name: str
    grade: str
    stage: str
    switch: str = ""  # CELL and LINES: the kernel's switch that turns the rule on
    run: Callable[..., bool] | None = None  # BOARD: the rule
    wanted: Callable[[Engine], bool] | None = None  # None: always; else whether it can act


# Every rule's switches and the board's rules, per (all rules, inequalities, bars):
# an engine with every rule of DEDUCTIONS starts from these without working them out.
_RULES: dict[tuple[bool, bool, bool], tuple[tuple[tuple[str, bool], ...], tuple]] = {}


_ZERO = array("q", [0])


def _int64(size: int) -> array[int]:
    return _ZERO * size  # a repeat in C: about twice as fast as from bytes


def _zeros(size: int) -> list[int]:
    return [0] * size


class Engine:
    """Domains, trail and propagation for one puzzle; the search drives it.

    The node's state (domains, trail, weights), the rules and the set-up of the
    root live in the kernel's ``State``: compiled over int64 buffers where the extension is built
    and the square is at most ``kernel.LIMIT`` wide, else the same source
    interpreted over lists.  ``dom``, ``weight`` and ``dirty`` are its buffers,
    read (and the last two written) here too.

    ``deductions`` None runs every rule of ``DEDUCTIONS`` (and the static chain
    bounds).  The grader (``grade.py``) runs those of one of Tatham's levels
    and the levels below instead; ``use`` changes them mid-run.
    """

    def __init__(self, puzzle: Futoshiki, deductions: Iterable[Deduction] | None = None):
        n = self.n = puzzle.n
        less = [x for (ar, ac), (br, bc) in puzzle.less for x in (ar * n + ac, br * n + bc)]
        self.related = bool(less)
        # Adjacent mode: each pair of neighbours, and whether a bar joins them.
        self.adjacent = puzzle.adjacent
        bars = [x for (ar, ac), (br, bc), bar in (puzzle.adjacency() if self.adjacent else ())
                for x in (ar * n + ac, br * n + bc, int(bar))]
        kernel = KERNEL
        if n > kernel.LIMIT and is_compiled(kernel):  # domains wider than 64 bits
            kernel = source(KERNEL_NAME)
        self.compiled = is_compiled(kernel)
        new = _int64 if self.compiled else _zeros
        if self.compiled:
            less, bars = array("q", less), array("q", bars)
        self.dom, self.weight, self.dirty = new(n * n), new(n * n), new(2 * n)
        state = self.state = kernel.State(n, self.dom, self.weight, self.dirty, new, less, bars)
        self.narrow, self.undo, self.choose = state.narrow, state.undo, state.choose
        self.graded = deductions is not None  # Tatham's rules only: no chain bounds
        self.use(DEDUCTIONS if deductions is None else deductions, start=False)
        self.ok = self._start(puzzle)

    def use(self, deductions: Iterable[Deduction], start: bool = True) -> None:
        """Run ``deductions`` from now on; ``start`` queues every cell, row, column
        and plane again, so that new rules see them."""
        key = (deductions is DEDUCTIONS, self.related, self.adjacent)
        found = _RULES.get(key) if key[0] else None
        if found is None:
            deductions = tuple(d for d in deductions if d.wanted is None or d.wanted(self))
            # the board's rules as plain functions of the engine (bound methods kept
            # here would make a cycle, and an engine would wait for the collector)
            found = (tuple((rule.switch, rule in deductions) for rule in DEDUCTIONS
                           if rule.switch),
                     tuple(d.run for d in deductions if d.stage == BOARD and d.run is not None))
            if key[0]:
                _RULES[key] = found
        for switch, on in found[0]:
            setattr(self.state, switch, on)
        self.on_board = found[1]
        if start:
            self.state.requeue()

    def _start(self, puzzle: Futoshiki) -> bool:
        return self.state.start(puzzle.givens, not self.graded) and self.propagate()

    # -- changes and undo (``narrow``, ``undo``: the kernel's)

    def mark(self) -> int:
        """Where the trail stands: ``undo(engine.mark())`` comes back to this state
        (the trail itself is the kernel's)."""
        return self.state.ttop

    # -- propagation

    def propagate(self) -> bool:
        """Reach the fixpoint of all rules, cheapest first; False on a contradiction.

        As in Tatham's solver, after any deduction that narrows a domain the
        rules start again from the cheapest."""
        state = self.state
        while True:
            if not state.fixpoint():
                return False
            for run in self.on_board:
                if not run(self):
                    return False
                if state.qtop:
                    break
            else:
                return True

    def _matching(self) -> bool:
        """Régin's all-different filtering on every changed row and column (the
        kernel's ``lines``)."""
        return self.state.lines()

    def _planes(self) -> bool:
        """The same filtering on each changed value's plane (the kernel's ``planes``)."""
        return self.state.planes()

    # -- reading the state

    def solution(self) -> Solution:
        return Solution(self.state.grid())

    # ``choose``, the kernel's: the open cell with the smallest domain per weight
    # (dom/wdeg), -1 if none.  A cell's weight is the number of contradictions met
    # at it, plus its values that failed outright when tried, plus its inequalities
    # to open cells, so the search first settles the cells where the puzzle is
    # tight.  Last-conflict first (Lecoutre et al. 2009): while the cell whose value
    # last failed outright is open, it is chosen again, so the search keeps at the
    # cause of the failure (a third fewer nodes on relation-only 9x9s).

    def probe(self, check: Callable[[], None]) -> bool:
        """Singleton consistency by the cheap rules: each value of each open cell
        of at most PROBE_VALUES values is tried with forward checking, bounds
        and hidden singles; a value that fails there is in no solution and goes.
        False on a contradiction.

        The domains are a fixpoint of every rule when this starts, so a trial
        only looks at the rows and columns it changes.  ``check`` (the
        deadline) is called every PROBE_CELLS cells, a row at least: a pass
        over a large square takes a while, and the compiled probe answers no
        signal.
        """
        state, n, cells = self.state, self.n, self.n * self.n
        start = 0
        while start < cells:
            check()
            end = min(cells, start + max(n, PROBE_CELLS))
            i = state.probe(start, end, PROBE_VALUES)
            if i == -1:
                start = end
            elif i < -1 or not self.propagate():
                return False
            else:
                start = i + 1
        return True

    def open_rest(self) -> list[tuple[int, int, int]] | None:
        """The open cells as (row, column, domain) when few are left and no
        inequality links two of them (so only rows and columns tie them); else None."""
        dom, n = self.dom, self.n
        rest = []
        for i, d in enumerate(dom):
            if d & (d - 1):
                if len(rest) == REST_CELLS:
                    return None
                if self.state.tied(i):
                    return None
                rest.append((i // n, i % n, d))
        return rest

    def assign(self, i: int, value_bit: int) -> bool:
        return self.narrow(i, value_bit) and self.propagate()

    def branches(self, i: int) -> Iterator[None]:
        """Binary branching on cell ``i``: yields in the state ``i = v`` for each
        value ``v`` in turn, after ``i != v`` of the earlier ones has been
        propagated; restores the state when done."""
        state = self.state
        top = state.ttop
        while True:
            d = self.dom[i]
            low = d & -d
            mark = state.ttop
            if self.assign(i, low):
                yield
            else:
                state.last_conflict = i
                self.weight[i] += 1  # and it weighs more in dom/wdeg
            self.undo(mark)
            if d == low or not self.assign(i, d ^ low):
                break
        self.undo(top)


def _count_rest(rest: list[tuple[int, int, int]], n: int, deadline: Deadline) -> int | None:
    """Completions of the last few open cells, tied only by their rows and columns.

    Counts without listing them: the cells are filled in order, and partial
    fillings that used the same values in every row and column are merged
    (their completions are the same), adding their counts.  None if that
    needs more than REST_STATES states (the search then branches instead).
    """
    states = {0: 1}  # packed (row, value) and (column, value) bits used -> count
    for r, c, d in rest:
        deadline.check()
        row, column = 2 * r * n, (2 * c + 1) * n
        after: dict[int, int] = {}
        for used, ways in states.items():
            free = d & ~(used >> row) & ~(used >> column)
            while free:
                low = free & -free
                free ^= low
                key = used | (low << row) | (low << column)
                after[key] = after.get(key, 0) + ways
        if len(after) > REST_STATES:
            return None
        states = after
    return sum(states.values())


# Every rule of the engine, by Tatham's grades (forcing chains, Extreme, are the
# grader's: ``grade.py``).  In each stage the rules run in this order.
DEDUCTIONS: tuple[Deduction, ...] = (
    Deduction("forward checking", "trivial", CELL, "forward"),
    Deduction("hidden singles", "trivial", LINES, "singles"),
    Deduction("inequalities", "easy", CELL, "bounds", wanted=lambda e: e.related),
    Deduction("adjacent", "easy", CELL, "bars", wanted=lambda e: e.adjacent),
    Deduction("adjacent sets", "tricky", CELL, "bar_sets", wanted=lambda e: e.adjacent),
    Deduction("line sets", "tricky", BOARD, run=Engine._matching),
    Deduction("plane sets", "extreme", BOARD, run=Engine._planes),
)


# ---------------------------------------------------------------- the search


class Search:
    """Depth-first search over an Engine, with limits and effort counters."""

    def __init__(self, puzzle: Futoshiki, time_limit: float | None):
        self.engine = Engine(puzzle)
        self.deadline = Deadline(time_limit)
        self.nodes = 0
        self.found = 0  # solutions counted so far
        self.merged = 0  # subtrees counted by merging states

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0:
            self.deadline.check()

    def solutions(self) -> Iterator[Solution]:
        if self.engine.ok:
            yield from self._solutions()

    def _solutions(self) -> Iterator[Solution]:
        engine = self.engine
        self._tick()
        if not engine.probe(self.deadline.check):
            return
        i = engine.choose()
        if i < 0:
            yield engine.solution()
            return
        for _ in engine.branches(i):
            yield from self._solutions()

    def count(self, limit: int | None, progress: bool) -> int:
        """Solutions below the current node, streaming; LimitReached past the cap."""
        self.limit = limit
        self.progress = progress
        self.started = self.next_report = time.perf_counter() + PROGRESS_AFTER
        self.started -= PROGRESS_AFTER
        if self.engine.ok:
            self._count()
        return self.found

    def _count(self) -> None:
        engine = self.engine
        self.nodes += 1
        self.deadline.check()  # every node: a merged subtree can take a while
        if self.progress and time.perf_counter() >= self.next_report:
            self._report()
        rest = engine.open_rest()
        if rest is not None:
            found = _count_rest(rest, engine.n, self.deadline)
            if found is not None:
                self.found += found
                self.merged += 1
                if self.limit is not None and self.found >= self.limit:
                    self.found = self.limit
                    raise LimitReached
                return
        i = engine.choose()
        for _ in engine.branches(i):
            self._count()

    def _report(self) -> None:
        now = time.perf_counter()
        self.next_report = now + PROGRESS_AFTER
        print(
            f"counting: {self.found:,} solutions, {self.nodes:,} nodes, "
            f"{now - self.started:.0f} s",
            file=sys.stderr,
            flush=True,
        )


class PropagateBackend(FutoshikiBackend):
    """Propagation (forward checking, chain bounds, singles, Hall sets) and search.

    Options: ``progress`` (default True) prints a line on stderr every few
    seconds of a long count.
    """

    @dataclass(frozen=True)
    class Options:
        progress: bool = True  # a line on stderr every few seconds of a long count

    name = "propagate"

    def solutions(
        self, puzzle: Futoshiki, *, time_limit: float | None = None
    ) -> Iterator[Solution]:
        search = Search(puzzle, time_limit)
        try:
            yield from search.solutions()
        finally:
            self.effort = {"nodes": search.nodes}

    def solve(self, puzzle: Futoshiki, *, time_limit: float | None = None) -> SolveResult:
        start, search = time.perf_counter(), Search(puzzle, time_limit)
        status, solution, message = Status.UNSAT, None, ""
        try:
            solution = next(search.solutions(), None)
            if solution is not None:
                status = Status.SOLVED
        except LimitReached:
            status = Status.LIMIT
        except KeyboardInterrupt:
            status, message = Status.LIMIT, "interrupted"
        self.effort = {"nodes": search.nodes}
        return SolveResult(status, solution, since(start), dict(self.effort), message)

    def unique(self, puzzle: Futoshiki, *, time_limit: float | None = None) -> UniqueResult:
        start, search = time.perf_counter(), Search(puzzle, time_limit)
        found: list[Solution] = []
        status, message = Status.UNSAT, ""
        try:
            for solution in search.solutions():
                found.append(solution)
                if len(found) == 2:
                    break
            status = (Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[len(found)]
        except LimitReached:
            status = Status.LIMIT
        except KeyboardInterrupt:
            status, message = Status.LIMIT, "interrupted"
        self.effort = {"nodes": search.nodes}
        return UniqueResult(status, tuple(found), since(start), dict(self.effort), message)

    def count(
        self, puzzle: Futoshiki, *, limit: int | None = None, time_limit: float | None = None
    ) -> CountResult:
        start = time.perf_counter()
        if limit is not None and limit <= 0:
            return CountResult(Status.LIMIT, 0, 0.0)
        search = Search(puzzle, time_limit)
        status, message = Status.COUNTED, ""
        try:
            search.count(limit, self.opts.progress)
        except LimitReached:
            status = Status.LIMIT
        except KeyboardInterrupt:
            status, message = Status.LIMIT, "interrupted: the count is a lower bound"
        self.effort = {"nodes": search.nodes, "merged": search.merged}
        return CountResult(status, search.found, since(start), dict(self.effort), message)


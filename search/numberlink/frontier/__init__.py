"""The ``frontier`` Numberlink backend: frontier-based counting.

Dynamic programming over the cells in row-major order (the board transposed
when wider than tall), whose state is the frontier: for each column, whether a
path crosses below the last processed cell and, if so, which pair it already
reaches or where the other end of its piece lies (a mate).  Equal states merge,
so the work grows with the number of distinct frontiers, not of solutions:
counts reach 10^22 on 14 x 14 boards.  After Yoshinaka, Saitoh, Kawahara,
Tsuruma, Iwashita and Minato, "Finding All Solutions and Instances of Numberlink
and Slitherlink by ZDDs", Algorithms 5(2), 2012.

Both rule sets (``puzzle.full_cover``), blocked cells, exact counts (int64
limbs, any size), counts capped at ``limit`` (saturated, so states keep merging), one
or two solutions rebuilt from back-pointers, and enumeration of all solutions.

Options: ``max_states`` (default 4,000,000 states in one level; more stops the
call with LIMIT and a message instead of exhausting memory), ``max_stored``
(back-pointers kept for ``solve``/``unique``/``solutions``), ``probe``,
``beam`` and ``beam_from`` (default 50,000, 20,000 and 100: a call with a cap
on a board of at least 100 cells pauses its exact pass when a level outgrows
50,000 states for a pass that keeps 2,000 seeded random states per level, and
again past 200,000 states for one that keeps 20,000, before finishing the
exact pass from where it paused; ``beam=0`` turns them off).  Every bound is
in states, so a call gives the same answer and effort on any machine; only
``time_limit`` turns it into LIMIT.

``count``, ``solutions``, ``unique`` and ``solve`` always answer under the
puzzle's rule: ``count`` is the number of solutions, ``len(solutions())``.

``self_avoiding_bound`` is the well-designed check's question, under the
lenient rule.  Call a solution *self-avoiding* when no path touches itself
(two grid-neighbours on one path that are not consecutive on it).  The pass
drops self-touching solutions wherever its state shows the touch, so it
counts a set B with  self-avoiding lenient solutions <= B <= lenient
solutions,  capped, with that many members of B rebuilt.  The shortcut lemma
(``docs/numberlink.md``) makes B decisive: B is empty iff there is no lenient
solution, two members of B are two lenient solutions, and a lone member of
B that covers every cell is the only lenient solution.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
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
from search.numberlink.backend import NumberlinkBackend
from search.numberlink.frontier import kernel as frontier_np
from search.numberlink.frontier.board import Board, TooWide, solution_of
from search.numberlink.model import Numberlink, Solution

MAX_STATES = 4_000_000  # states in one level before a call stops with LIMIT
PAUSE_GROWTH = 4  # the exact pass pauses for the larger beam at this many times ``probe``


@dataclass(frozen=True)
class Bound:
    """``self_avoiding_bound``'s answer: min(|B|, cap) and that many members of B."""

    count: int
    solutions: tuple[Solution, ...]
    effort: Mapping[str, float]


class FrontierBackend(NumberlinkBackend):
    @dataclass(frozen=True)
    class Options:
        max_states: int | None = None  # None: MAX_STATES
        max_stored: int = 40_000_000
        beam: int = 20_000
        beam_from: int = 100
        probe: int = 50_000

    name = "frontier"

    def __init__(self, **options: Any):
        super().__init__(**options)
        o = self.opts
        self.max_states = MAX_STATES if o.max_states is None else o.max_states
        self.max_stored = o.max_stored
        self.beam, self.beam_from, self.probe = o.beam, o.beam_from, o.probe

    # ------------------------------------------------------------ the programme

    def _run(self, puzzle: Numberlink, *, cap: int | None, record: bool,
             deadline: Deadline, no_touch: bool = False, board: Board | None = None,
             max_states: int | None = None) -> tuple[Board, frontier_np.Result]:
        """The exact pass; with a cap on a large board, beam passes may cut it short.

        A call with a cap runs the exact pass until a level outgrows ``probe``
        states, then pauses it for a pass that keeps at most 2,000 random
        states per level; the solutions a beam finds are real, so reaching the
        cap settles the call (boards with many solutions).  Otherwise the exact
        pass goes on from where it paused, up to ``PAUSE_GROWTH`` times
        ``probe`` states, then pauses for a beam of ``beam`` states, then
        runs to the end.  Boards whose exact pass stays small never pay for
        the larger beam; one that stops at a memory bound still gets its beams.
        """
        board = board or Board.of(puzzle)
        self.effort = {"states": 0, "cells": 0, "transitions": 0}

        def run(**options: Any) -> frontier_np.Result:
            return frontier_np.run(
                board, cap=cap, record=record, no_touch=no_touch,
                max_states=max_states or self.max_states, max_stored=self.max_stored,
                deadline=deadline, effort=self.effort, **options)

        schedule: list[tuple[int, int]] = []  # (pause the exact pass above, then this beam)
        if cap is not None and self.beam and board.height * board.width >= self.beam_from:
            beams = sorted({min(self.beam, 2_000), self.beam})
            schedule = [(self.probe * PAUSE_GROWTH ** i, beam) for i, beam in enumerate(beams)]
        progress, stopped = None, None
        for pause, beam in schedule:
            if stopped is None:
                try:
                    result = run(pause=pause, resume=progress)
                except TooWide as error:  # out of memory: the beams may still settle it
                    stopped = error
                else:
                    if result.paused is None:
                        return board, result
                    progress = result.paused
            try:
                found = run(beam=beam)
            except TooWide:
                continue
            if found.count >= cap:
                return board, found
        if stopped is not None:
            raise stopped
        return board, run(resume=progress)

    def _solutions(self, puzzle: Numberlink, how_many: int, deadline: Deadline,
                   no_touch: bool = False) -> tuple[int, list[Solution]]:
        """The count capped at ``how_many`` and that many solutions."""
        board, result = self._run(puzzle, cap=how_many, record=True, deadline=deadline,
                                  no_touch=no_touch)
        if not result.count:
            return 0, []
        chains = frontier_np.action_chains(result.levels, result.final, how_many)
        return result.count, [solution_of(board, puzzle, a) for a in chains]

    def self_avoiding_bound(self, puzzle: Numberlink, *, cap: int = 2,
                            deadline: Deadline | None = None) -> Bound:
        """min(|B|, cap) and that many members of B, under the lenient rule
        (B: see the module text).  Raises ``TooWide`` past ``max_states``
        states in a level (or ``max_stored`` back-pointers) and
        ``LimitReached`` at the deadline."""
        count, found = self._solutions(puzzle.lenient(), cap, deadline or Deadline(None),
                                       no_touch=True)
        return Bound(count, tuple(found), dict(self.effort))

    # ------------------------------------------------------------ the contract

    def solve(self, puzzle: Numberlink, *, time_limit: float | None = None) -> SolveResult:
        start = time.perf_counter()
        try:
            count, found = self._solutions(puzzle, 1, Deadline(time_limit))
        except LimitReached:
            return SolveResult(Status.LIMIT, None, since(start), dict(self.effort),
                               "time limit")
        except TooWide as error:
            return SolveResult(Status.LIMIT, None, since(start), dict(self.effort), str(error))
        status = Status.SOLVED if found else Status.UNSAT
        return SolveResult(status, found[0] if found else None, since(start),
                           dict(self.effort))

    def count(self, puzzle: Numberlink, *, limit: int | None = None,
              time_limit: float | None = None) -> CountResult:
        start = time.perf_counter()
        if limit is not None and limit <= 0:
            return CountResult(Status.LIMIT, 0, 0.0)
        try:
            result = self._count_turns(puzzle, limit, Deadline(time_limit))
        except LimitReached:
            return CountResult(Status.LIMIT, 0, since(start), dict(self.effort), "time limit")
        except TooWide as error:
            return CountResult(Status.LIMIT, 0, since(start), dict(self.effort), str(error))
        if limit is not None and result.count >= limit:
            return CountResult(Status.LIMIT, limit, since(start), dict(self.effort),
                               f"stopped at {limit} solutions")
        return CountResult(Status.COUNTED, result.count, since(start), dict(self.effort))

    def unique(self, puzzle: Numberlink, *, time_limit: float | None = None) -> UniqueResult:
        start = time.perf_counter()
        try:
            count, found = self._solutions(puzzle, 2, Deadline(time_limit))
        except LimitReached:
            return UniqueResult(Status.LIMIT, (), since(start), dict(self.effort),
                                "time limit")
        except TooWide as error:
            return UniqueResult(Status.LIMIT, (), since(start), dict(self.effort), str(error))
        status = (Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[count]
        return UniqueResult(status, tuple(found), since(start), dict(self.effort))

    def _count_turns(self, puzzle: Numberlink, limit: int | None,
                     deadline: Deadline) -> frontier_np.Result:
        """Count under the best-ranked turn; past ``max_states``, under the next.

        How wide the frontier grows depends on the turn a hundredfold, and no
        cheap measure ranks the turns well (docs/numberlink-frontier.md).  A
        board the first turn counts costs what it did; one whose first turn
        passes the bound is tried by the others in rank order before the call
        gives up (Flow Free ``jumbo_14x14_19`` lenient: the first turn passes
        4 M states, the second counts it).  The bound is in states, so a board
        takes the same turn on any machine.
        """
        spent: dict[str, int] = {}  # the effort of the turns that passed the bound
        error: TooWide | None = None
        for tried, board in enumerate(Board.ranked(puzzle), 1):
            try:
                _, result = self._run(puzzle, cap=limit, record=False, deadline=deadline,
                                      board=board)
            except TooWide as stopped:
                error = stopped
                spent = {k: spent.get(k, 0) + v for k, v in self.effort.items()}
                continue
            self.effort = {k: spent.get(k, 0) + v for k, v in self.effort.items()}
            self.effort["turns"] = tried
            return result
        self.effort = {**spent, "turns": tried}
        assert error is not None
        raise error

    def solutions(self, puzzle: Numberlink, *,
                  time_limit: float | None = None) -> Iterator[Solution]:
        """Every solution once: one pass keeps all back-pointers, then walks them."""
        board = Board.of(puzzle)
        self.effort = {"states": 0, "cells": 0, "transitions": 0}
        try:
            result = frontier_np.run(board, record="all", max_states=self.max_states,
                                     max_stored=self.max_stored,
                                     deadline=Deadline(time_limit), effort=self.effort)
        except TooWide as error:
            raise LimitReached(str(error)) from None
        for actions in frontier_np.action_chains(result.levels or [], result.final):
            yield solution_of(board, puzzle, actions)

"""The default Numberlink solver: the engine picked by the size of the board.

Under the lenient rule the quick answers come first: a full cover by
``links``, then the router's paths (``_lenient_shortcuts``).  Then small boards go to
the hand-written ``search`` within a node budget (it starts in a blink and
OR-Tools' import alone costs about 1.5 s); narrow boards, or small ones that
search leaves undecided, to the frontier within a state budget (its states
grow with the width, not the length: ADC Q08, 11 x 12 with 8 pairs and wide
empty regions, defeats search and takes the frontier 50 k states); larger
full-cover ones to ``links``, the
link-propagation search with the corner spikes of self-avoiding full covers,
within a node budget that grows with the board, and what it leaves undecided
to CP-SAT; larger lenient ones to the lean SAT model (``sat``, within a
budget of deterministic time: it decides the nested spirals ADC 2015 Q15 and
Q17 that the circuit model does not), then to the circuit model (``links``
barely prunes when cells may stay empty: ADC 2015, 2 of 17 in 100 k nodes).
Every budget is in work (cells, nodes, rounds, CP-SAT's deterministic
seconds), so the engine that answers does not depend on the load; the answer
names it (``engine``, and the prefixes of ``effort``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from search.core.contract import Deadline, SolveResult, Status, add_effort
from search.numberlink import KIND
from search.numberlink.backend import NumberlinkBackend
from search.numberlink.model import Numberlink
from search.numberlink.route import ROUNDS, route
from search.numberlink.verify import verify

SMALL_CELLS = 144  # up to 12 x 12: the plain search answers before CP-SAT has loaded...
SMALL_NODES = 50_000  # ... mostly within a few hundred nodes; past this many,
NARROW = 14  # a board this narrow goes to the frontier (its states grow with the width)
FRONTIER_STATES = 1_000_000  # within this many states in a level (ADC Q08, 12 wide: 50 k)
LINKS_NODES = 30_000  # then CP-SAT (a generated 40 x 40 board needs 0.2-5 k, a 50 x 50 one 3-20 k)
LINKS_NODES_PER_CELL = 25  # ... or this many per open cell, if more (50 x 50: 62.5 k)
COVER_NODES = 10_000  # links looking for a full cover of a lenient board (ADC Q07: 6.7 k)
SAT_WORK = 20.0  # deterministic seconds of the lean SAT model (ADC Q15: 0.7, Q17: 1.7; Q18: 7.3)


class AutoBackend(NumberlinkBackend):
    """``solve`` by the engine that suits the board (see the module)."""

    name = "auto"
    calls = frozenset({"solve"})

    @dataclass(frozen=True)
    class Options:
        small_cells: int = SMALL_CELLS
        small_nodes: int = SMALL_NODES
        narrow: int = NARROW
        frontier_states: int = FRONTIER_STATES
        links_nodes: int = LINKS_NODES
        route_rounds: int = ROUNDS  # the router's, under the lenient rule
        cover_nodes: int = COVER_NODES
        sat_work: float = SAT_WORK

    def solve(self, puzzle: Numberlink, *, time_limit: float | None = None) -> SolveResult:
        started, deadline = time.perf_counter(), Deadline(time_limit)
        total: dict[str, float] = {}
        if not puzzle.full_cover and puzzle.pairs:
            found = self._lenient_shortcuts(puzzle, deadline, total)
            if found is not None:
                return self._named(*found, total, started)
        if len(puzzle.open_cells) <= self.opts.small_cells:
            found = KIND.backend("search", max_nodes=self.opts.small_nodes).solve(
                puzzle, time_limit=deadline.remaining())
            if found.status is not Status.LIMIT or deadline.expired():
                return self._named(found, "search", total, started)
            add_effort(total, {f"search_{k}": v for k, v in found.effort.items()})
        if min(puzzle.height, puzzle.width) <= self.opts.narrow:
            found = KIND.backend("frontier", max_states=self.opts.frontier_states).solve(
                puzzle, time_limit=deadline.remaining())
            if found.status is not Status.LIMIT or deadline.expired():
                return self._named(found, "frontier", total, started)
            add_effort(total, {f"frontier_{k}": v for k, v in found.effort.items()})
        if not puzzle.full_cover:
            found = KIND.backend("sat", work=self.opts.sat_work).solve(
                puzzle, time_limit=deadline.remaining())
            if found.status is not Status.LIMIT or deadline.expired():
                return self._named(found, "sat", total, started)
            add_effort(total, {f"sat_{k}": v for k, v in found.effort.items()})
        if puzzle.full_cover:
            budget = max(self.opts.links_nodes, LINKS_NODES_PER_CELL * len(puzzle.open_cells))
            found = KIND.backend("links", max_nodes=budget).solve(
                puzzle, time_limit=deadline.remaining())
            if found.status is not Status.LIMIT or deadline.expired():
                return self._named(found, "links", total, started)
            add_effort(total, {f"links_{k}": v for k, v in found.effort.items()})
        return self._named(KIND.backend("cpsat").solve(puzzle, time_limit=deadline.remaining()),
                           "cpsat", total, started)

    def _lenient_shortcuts(self, puzzle: Numberlink, deadline: Deadline,
                           total: dict[str, float]) -> tuple[SolveResult, str] | None:
        """Lenient rule: answers found fast or not at all.  A full cover by
        ``links`` within its node budget (a full cover obeys the lenient rule
        too, and the contest boards often have one: 12 of the 17 ADC 2015
        boards, within 135 nodes); else the router's paths when they share no
        cell (the router spends all its rounds where it fails, so it comes
        second).  None when neither finds one; neither can prove there is
        none."""
        covered = KIND.backend("links", max_nodes=self.opts.cover_nodes).solve(
            puzzle.covering(), time_limit=deadline.remaining())
        add_effort(total, {f"links_{k}": v for k, v in covered.effort.items()})
        if covered.solution is not None and not verify(puzzle, covered.solution):
            return SolveResult(Status.SOLVED, covered.solution), "links (a full cover)"
        routed = route(puzzle, rounds=self.opts.route_rounds, deadline=deadline)
        if routed is not None and not verify(puzzle, routed):
            return SolveResult(Status.SOLVED, routed), "router"
        return None

    def _named(self, result: SolveResult, engine: str, total: dict[str, float],
               started: float) -> SolveResult:
        add_effort(total, result.effort)
        self.effort = total
        return SolveResult(result.status, result.solution, time.perf_counter() - started,
                           dict(total), result.message, result.transcript, engine)

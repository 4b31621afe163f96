"""A Numberlink solver for large boards: a search over links with propagation.

Each step between two neighbouring cells is a link, on, off or open.  A
solution is a set of links where every label has one link and every other
cell two (full cover) or none or two (lenient), that closes no loop and joins
no two labels.  That is all, so the search decides one open link at a time
and lets the rules propagate, kept as bit masks per cell and undone from a
trail:

- degree: a cell with all the links it needs turns its open links off; one
  with just as many open links as it still needs turns them all on (forced
  moves, and the dead ends of full cover: a cell short of links fails);
- chains: the links laid form chains whose two ends know each other
  (``mate``), so a link that would close a loop or join two labels fails at
  once, and the open link between the two ends of one chain is turned off;
- no self-touch, tried first (``nst``): three links in a 2 x 2 square make a
  U whose ends touch, so a square with two links turns its others off.  Under
  the lenient rule this is complete for existence (a touching path shortcuts
  to one that does not touch); under full cover it is a convention of
  generated boards, so a second pass without it keeps the search complete;
- corner spikes (full cover without self-touch; ``spikes``): a corner makes
  the cell diagonally inside it turn the same corner, and so on until a label
  or a blocked cell, so a cell may only turn the corners whose diagonal walk
  meets one; each cell keeps the corners it may still turn, one table look-up
  (``SHAPES``) applies them with the degree rule, and a cell that loses a
  corner takes it from the cells up its spike (``lose_corners``);
- regions, every ``REGION_EVERY`` nodes: the cells joined by links not yet off form
  regions; both ends of every unfinished pair must share one, and under full
  cover every region must hold a label (a region without one could only be
  filled by loops).

The choice: the first cell in board order (anti-diagonals from the top left)
with the fewest open links beyond its needs, usually a chain end or label
with two ways to go (the most constrained head); its link towards the
neighbour with the most open links goes first (into open space).
Effort is counted in nodes (decisions); ``max_nodes`` bounds it.

Backjumping (``descend``): every decided link keeps the set of decisions it
follows from (a bit per depth, in a Python int), and every rule above
passes on the union of what it read, so a contradiction names the
decisions behind it.  When the first branch of a decision fails without
it, the second would fail alike, and the search returns straight to the
deepest decision the failure names (conflict-directed backjumping); the
search far from a failure, which plain backtracking re-decides in vain, is
skipped.  It explores the same tree minus subtrees proved empty, so it finds
the same first solution as plain backtracking (``backjump=False``, kept to
test that); on generated 40x40 and 50x50 boards it needs 30-45 % fewer nodes,
each about 25 % dearer.

``Links`` is also the ``search`` backend's link propagator: that search lays
its paths' steps here (``link``, undone to ``mark()``) and reads, after
``propagate``, the moves each path's head has left.

``Links`` and its rules are the compiled kernel ``links_kernel`` (C types in
its ``.pxd``; the same ``.py`` interpreted where it was not built, or under
``GRIDCP_PURE=1``): the same nodes and solutions either way.  This module is
the backend.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from search.core.compiled import load
from search.core.contract import Deadline, LimitReached, SolveResult, Status
from search.core.limits import allow_recursion
from search.numberlink.backend import NumberlinkBackend
from search.numberlink.model import Numberlink

# the state, the rules and the node loop: compiled where built (search.core.compiled)
kernel = load("search.numberlink.links_kernel")
Links, Exhausted = kernel.Links, kernel.Exhausted
POP, BITS, NONE = kernel.POP, kernel.BITS, kernel.NONE


class LinksBackend(NumberlinkBackend):
    """Depth-first search over links with propagation, for large boards;
    ``solve`` only.  Options: ``max_nodes`` (None: no bound)."""

    name = "links"
    calls = frozenset({"solve"})

    @dataclass(frozen=True)
    class Options:
        max_nodes: int | None = None
        backjump: bool = True  # False: chronological backtracking (same tree, same answer)

    def solve(self, puzzle: Numberlink, *, time_limit: float | None = None) -> SolveResult:
        """No self-touch first: under the lenient rule that is complete;
        under full cover, a second pass allows every path."""
        started = time.perf_counter()
        deadline = Deadline(time_limit)
        allow_recursion(4 * len(puzzle.open_cells))
        passes = (True, False) if puzzle.full_cover else (True,)
        nodes, status, found = 0, Status.UNSAT, None
        budget = self.opts.max_nodes
        for nst in passes:
            board = None  # (a deadline can pass while the board is laid out)
            try:
                board = kernel.Links(puzzle, nst=nst, backjump=self.opts.backjump,
                                     deadline=deadline)
                if board.start() and board.search(deadline, budget):
                    status, found = Status.SOLVED, board.solution()
            except (LimitReached, kernel.Exhausted):
                status = Status.LIMIT
            used = 0 if board is None else board.nodes
            nodes += used
            if budget is not None:
                budget = max(0, budget - used)
            if status is not Status.UNSAT:
                break
        self.effort = {"nodes": nodes}
        return SolveResult(status, found, time.perf_counter() - started, dict(self.effort))

"""Numberlink grades and hints: the work a human-style deduction needs.

A deduction works on links (a step between two neighbouring cells: on, off
or open) with the rules a solver applies without guessing, to their
fixpoint (the *forced moves*):

- degree: a label takes one link and any other cell two (full cover) or
  none or two (lenient); a cell with all its links turns the rest off, one
  with just as many open links as it still needs turns them all on (an end
  with one free neighbour, a cell with one way to go on);
- chains: a link may not close a loop, nor join the chains of two labels
  (the open links between two such chains are off);
- no self-touch (``nst``): a path never runs beside itself, so a 2 x 2
  square holding two links has its other links off (no U-turn), and two
  neighbouring cells on chains of one label are linked.

Level 0 (``easy``): the forced moves alone fill the board.  Level 1
(``medium``): with a lookahead at the heads (a label without a link, or the
end of a chain: where a path goes next), a link whose one value makes the
forced moves fail takes the other (failed-literal probing, round after round
until nothing changes), and that fills the board.  Level 2 (``hard``): it takes search.
Every rule is monotone (more links known only forces more), so each level's
fixpoint does not depend on the order of the deductions: an independent
implementation reaches the same grade (tests/numberlink/grade_reference.py).

The grade is for well-designed puzzles: their one lenient solution covers
every cell and never touches itself (a touching path shortcuts to a second
solution), so full cover and no self-touch hold and every deduction is sound.
The forced moves are the ``links`` backend's propagation (``Links``) without
its corner spikes (a lookahead in disguise), plus the label rule of the
chains above.

A hint (``forced_link``) deduces under the puzzle's own rule and without the
no-self-touch convention unless asked, so a hinted link lies in every
solution: the first link the forced moves lay, or else the first one a
lookahead forces.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from search.core.limits import allow_recursion
from search.numberlink.links import BITS, NONE, POP, Links
from search.numberlink.model import Cell, Numberlink, Solution
from search.numberlink.verify import verify

GRADES = ("easy", "medium", "hard")  # levels 0, 1, 2
PROBES = 200_000  # lookahead probes before a grade is given up (work, not time)


class Deduction(Links):
    """The forced moves on one board: ``Links`` without corner spikes, plus
    the label rule; ``laid`` records each link turned on with its reason."""

    def __init__(self, puzzle: Numberlink, *, nst: bool):
        super().__init__(puzzle, nst=nst, spiky=False)  # spikes are a lookahead, not a forced move
        self.laid: list[tuple[int, int, str]] = []
        self._painting = False

    def link(self, i: int, d: int, why: int = 0) -> bool:
        if not (self.on[i] | self.off[i]) >> d & 1:
            self.laid.append((i, d, self._reason(i)))
        return super().link(i, d, why)

    def paint(self, start: int, came: int, c: int, why: int) -> bool:
        self._painting, before = True, self._painting
        try:
            return super().paint(start, came, c, why)
        finally:
            self._painting = before

    def _reason(self, i: int) -> str:
        """Why a link from cell i is forced now (the rule that lays it)."""
        if self._painting:
            return "no self-touch: two cells of one path side by side are consecutive on it"
        if self.label[i] != NONE:
            return "the end has one way left"
        if POP[self.on[i]]:
            return "the path through this cell has one way left to go on"
        return "the cell has just two ways left, and a path must pass through it"

    def closure(self) -> bool:
        """The forced moves to their fixpoint; False on a contradiction."""
        on, off, colour, step = self.on, self.off, self.colour, self.step
        while True:
            if not self.propagate():
                return False
            cuts = [(i, d) for i in self.inside if colour[i] != NONE
                    for d in BITS[15 & ~(on[i] | off[i])]
                    if colour[i + step[d]] not in (NONE, colour[i])]
            if not cuts:
                return True
            for i, d in cuts:
                if not self.cut(i, d):
                    return False

    def open_links(self) -> list[tuple[int, int]]:
        """Every open link once (from its upper or left cell), in board order."""
        on, off = self.on, self.off
        return [(i, d) for i in self.inside for d in (1, 2) if not (on[i] | off[i]) >> d & 1]

    def head_links(self) -> list[tuple[int, int]]:
        """The open links at a head (a label, or the end of a chain: a cell
        with links but fewer than it needs), each once, in board order: the
        choices of where a path goes next."""
        on, off, need, step = self.on, self.off, self.need, self.step
        seen: set[tuple[int, int]] = set()
        out = []
        for i in self.inside:
            if not 0 < POP[on[i]] < need[i] and not (self.label[i] != NONE and not on[i]):
                continue
            for d in BITS[15 & ~(on[i] | off[i])]:
                key = (i, d) if d in (1, 2) else (i + step[d], d ^ 2)
                if key not in seen:
                    seen.add(key)
                    out.append(key)
        return out

    def complete(self) -> bool:
        return not self.open_links()

    def fails(self, i: int, d: int, turn_on: bool) -> bool:
        """Does setting link (i, d) make the forced moves fail?  The state is
        left as it was."""
        mark, laid = self.mark(), len(self.laid)
        self.clear_queue()
        failed = not ((self.link(i, d) if turn_on else self.cut(i, d)) and self.closure())
        self.undo(mark)
        self.clear_queue()
        del self.laid[laid:]
        return failed

    def settle(self, i: int, d: int, turn_on: bool) -> bool:
        """Set link (i, d) for good and close; False on a contradiction."""
        self.clear_queue()
        return (self.link(i, d) if turn_on else self.cut(i, d)) and self.closure()

    def cell(self, i: int) -> Cell:
        return self.cell_of[i]

    def solution_or_none(self) -> Solution | None:
        """The solution the links hold once complete (checked by ``verify``)."""
        if not self.complete():
            return None
        found = self.solution()
        return None if verify(self.puzzle, found) else found


@dataclass(frozen=True)
class Grade:
    """A puzzle's grade: ``level`` 0, 1 or 2 (``name`` easy, medium, hard);
    None when the deductions meet a contradiction (no self-avoiding full
    cover) or the lookahead ran past its probes.  ``effort``: the work
    (probes, rounds of lookahead, links laid by forced moves alone)."""

    level: int | None
    effort: dict[str, int] = field(default_factory=dict)
    solution: Solution | None = None  # the deduced solution (levels 0 and 1)
    message: str = ""

    @property
    def name(self) -> str | None:
        return None if self.level is None else GRADES[self.level]


def grade(puzzle: Numberlink, probes: int = PROBES) -> Grade:
    """The grade of a well-designed puzzle (see the module text)."""
    board = Deduction(puzzle.covering(), nst=True)
    if not (board.start() and board.closure()):
        return Grade(None, message="the forced moves meet a contradiction")
    effort = {"forced_links": len(board.laid), "probes": 0, "rounds": 0}
    if board.complete():
        return Grade(0, effort, board.solution_or_none())
    outcome = lookahead(board, probes, effort)
    if outcome is None:
        return Grade(None, effort, message=f"the lookahead ran past {probes} probes")
    if not outcome:
        return Grade(None, effort, message="the lookahead meets a contradiction")
    if board.complete():
        return Grade(1, effort, board.solution_or_none())
    return Grade(2, effort)


def lookahead(board: Deduction, probes: int, effort: dict[str, int],
              settled: list[tuple[int, int, bool]] | None = None) -> bool | None:
    """Failed-literal probing to its fixpoint: each open link at a head, on then off;
    a value that fails sets the other.  False on a contradiction, None past
    ``probes``.  With ``settled`` (a list), each link set is appended there
    (cell, direction, on) and the probing stops at the first link laid."""
    changed = True
    while changed:
        changed = False
        effort["rounds"] += 1
        for i, d in board.head_links():
            for turn_on in (True, False):
                if (board.on[i] | board.off[i]) >> d & 1:
                    break
                effort["probes"] += 1
                if effort["probes"] > probes:
                    return None
                if board.fails(i, d, turn_on):
                    laid = len(board.laid)
                    if not board.settle(i, d, not turn_on):
                        return False
                    changed = True
                    if settled is not None:
                        settled.append((i, d, not turn_on))
                        if len(board.laid) > laid:
                            return True
    return True


def guesses(puzzle: Numberlink, max_nodes: int = 1_000_000) -> int | None:
    """The solve effort a solver with the forced moves alone feels: the nodes
    (guesses) of a depth-first search that sets the first open link at a head
    (board order), on then off, closing the forced moves after each, until
    the board is filled (full cover, no self-touch).  0 for an easy board;
    None past ``max_nodes`` or with no solution."""
    board = Deduction(puzzle.covering(), nst=True)
    if not (board.start() and board.closure()):
        return None
    allow_recursion(4 * len(puzzle.open_cells))
    nodes = 0

    def search() -> bool:
        nonlocal nodes
        heads = board.head_links() or board.open_links()
        if not heads:
            return True
        nodes += 1
        if nodes > max_nodes:
            raise OutOfGuesses
        i, d = heads[0]
        for turn_on in (True, False):
            mark, laid = board.mark(), len(board.laid)
            if board.settle(i, d, turn_on) and search():
                return True
            board.undo(mark)
            board.clear_queue()
            del board.laid[laid:]
        return False

    try:
        return nodes if search() else None
    except OutOfGuesses:
        return None


class OutOfGuesses(Exception):
    """The guesses ran past their budget."""


# ---------------------------------------------------------------- hints


@dataclass(frozen=True)
class LinkHint:
    """A forced link: from ``cell`` one step to ``next``, on the path of
    ``label`` when the deduction knows it, with the ``level`` (0 forced moves,
    1 lookahead) and the ``reason``."""

    cell: Cell
    next: Cell
    label: str | None
    level: int
    reason: str

    @property
    def rule(self) -> str:
        return ("forced moves", "lookahead")[self.level]


def forced_link(puzzle: Numberlink, nst: bool = False, probes: int = PROBES
                ) -> LinkHint | None:
    """A link every solution of ``puzzle`` holds, by the cheapest deduction
    (``nst``: every self-avoiding solution); None when neither the forced
    moves nor the lookahead find one (or there is no solution)."""
    board = Deduction(puzzle, nst=nst)
    if not (board.start() and board.closure()):
        return None
    if board.laid:
        return _hint(board, board.laid[0], 0)
    settled: list[tuple[int, int, bool]] = []
    if not lookahead(board, probes, {"probes": 0, "rounds": 0}, settled) or not board.laid:
        return None
    i, d, turn_on = settled[-1]
    step = f"{board.cell(i)}-{board.cell(i + board.step[d])}"
    if turn_on:
        why = f"lookahead: without the step {step} the forced moves fail"
        return _hint(board, (i, d, why), 1)
    first = board.laid[0]
    why = (f"lookahead: the step {step} makes the forced moves fail, and without it "
           + first[2])
    return _hint(board, (first[0], first[1], why), 1)


def _hint(board: Deduction, laid: tuple[int, int, str], level: int) -> LinkHint:
    i, d, reason = laid
    j = i + board.step[d]
    c = board.colour[i]
    label = board.puzzle.pairs[c].label if c != NONE else None
    return LinkHint(board.cell(i), board.cell(j), label, level, reason)

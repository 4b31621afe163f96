"""A hint for a Futoshiki player: a cell value that follows from the clues.

The deductions of Tatham's grades (``grade.TATHAM``: forward checking, hidden
singles, inequalities, ... forcing chains), cheapest first.  The hint runs the
propagation engine with the first rule alone, then the first two, and so on,
and stops at the first set of rules that places a value in an empty cell: that
cell (the first in row-major order), its value, and the name of the last rule
added (the cheapest rule that places a value).  Every rule only removes values
no solution gives a cell, so a hinted value is the cell's value in every
solution.  None: no rule places a value (the puzzle takes guessing, or it has
no solution).
"""

from __future__ import annotations

from dataclasses import dataclass

from search.futoshiki.grade import TATHAM
from search.futoshiki.model import Futoshiki
from search.futoshiki.propagate import Engine


@dataclass(frozen=True)
class CellHint:
    """``cell`` (row, column, 0-based) holds ``value``, by ``rule`` (a rule of
    Tatham's ``grade``)."""

    cell: tuple[int, int]
    value: int
    rule: str
    grade: str


def forced_value(puzzle: Futoshiki) -> CellHint | None:
    """The first empty cell the cheapest rules fill, or None (see the module text)."""
    n = puzzle.n
    empty = [i for i in range(n * n) if not puzzle.givens[i // n][i % n]]
    for k in range(1, len(TATHAM) + 1):
        rules = TATHAM[:k]
        if rules[-1].wanted is not None and not _wanted(puzzle, rules[-1]):
            continue  # the rule cannot act on this puzzle (no inequalities, no bars)
        engine = Engine(puzzle, rules)
        if not engine.ok or not engine.propagate():
            return None  # a contradiction: no solution
        for i in empty:
            d = engine.dom[i]
            if d & (d - 1) == 0:
                return CellHint((i // n, i % n), d.bit_length(), rules[-1].name, rules[-1].grade)
    return None


def _wanted(puzzle: Futoshiki, rule) -> bool:
    engine = Engine(puzzle, ())
    return bool(rule.wanted(engine))

"""Inequalities that hold in exactly half of the solutions of the rest, taken
out before a count.

Let ``e`` be ``a < b`` with ``a`` and ``b`` in columns ``c`` and ``c + 1`` (rows
for a vertical one), and ``S`` the puzzle's other clues. Swapping the two
columns of every square is a bijection on Latin squares. When it maps ``S``
onto itself (no other clue in those two columns, or clues that trade places
exactly), it maps the solutions of ``S`` with ``a < b`` onto those with
``a > b``; since ``a`` and ``b`` share a row they never hold the same value, so
each kind is half the solutions of ``S``: ``count(S + e) = count(S) / 2``.

Taken out one at a time (each test on the clues left), ``k`` such inequalities
give ``count = count(rest) / 2**k``. A clue taken out frees its lines, which
is where the plans are strong: of twenty random 8x8s with 1-6 inequalities,
eleven lose one to three, and five of them keep clues in two lines of one
orientation at most (the rows plan's easy case) where they had three to five.
"""

from __future__ import annotations

from search.futoshiki.model import Cell, Futoshiki


def halved(puzzle: Futoshiki) -> tuple[Futoshiki, int]:
    """(the puzzle less every such inequality, how many were taken out)."""
    taken = 0
    while True:
        for e in puzzle.less:
            rest = Futoshiki(puzzle.n, puzzle.givens, tuple(x for x in puzzle.less if x != e))
            if _swap_fixes(rest, e):
                puzzle, taken = rest, taken + 1
                break
        else:
            return puzzle, taken


def _swap_fixes(rest: Futoshiki, e: tuple[Cell, Cell]) -> bool:
    """Does swapping the two lines that ``e`` crosses map the clues of ``rest``
    onto themselves?"""
    axis = 1 if e[0][0] == e[1][0] else 0  # a horizontal relation swaps columns, a vertical rows
    first = min(e[0][axis], e[1][axis])

    def moved(cell: Cell) -> Cell:
        line = cell[axis]
        line = first + 1 if line == first else first if line == first + 1 else line
        return (cell[0], line) if axis else (line, cell[1])

    given = {(r, c): v for r, row in enumerate(rest.givens) for c, v in enumerate(row) if v}
    return ({moved(cell): v for cell, v in given.items()} == given
            and {(moved(a), moved(b)) for a, b in rest.less} == set(rest.less))

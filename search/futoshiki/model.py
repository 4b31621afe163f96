"""Futoshiki vocabulary: an n x n square, givens and strict inequalities.

Cells are ``(row, col)``, 0-based.  Values run 1..n; 0 marks an empty cell.
An inequality ``(a, b)`` in ``less`` means value(a) < value(b) for two
orthogonally neighbouring cells.

In Adjacent mode (``adjacent``, the second mode of Tatham's Unequal) there are
no inequalities: a bar ``(a, b)`` in ``bars`` (``a`` before ``b`` in row-major
order) means the two neighbours' values differ by exactly 1, and two
neighbours without a bar must not differ by 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from search.core.contract import load

# The pictures sit above the puzzles (they draw every kind): a model reaches them by name,
# so the drawing code loads on first use.
SVG, SOLUTION_SVG = "search.draw:svg", "search.draw:solution_svg"

Cell = tuple[int, int]
Grid = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Futoshiki:
    n: int
    givens: Grid
    less: tuple[tuple[Cell, Cell], ...] = ()
    adjacent: bool = False
    bars: tuple[tuple[Cell, Cell], ...] = ()

    @staticmethod
    def empty(n: int, adjacent: bool = False) -> Futoshiki:
        return Futoshiki(n, tuple((0,) * n for _ in range(n)), adjacent=adjacent)

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        return tuple((r, c) for r in range(self.n) for c in range(self.n))

    def given(self, cell: Cell) -> int:
        return self.givens[cell[0]][cell[1]]

    @cached_property
    def relation(self) -> dict[tuple[Cell, Cell], int]:
        """(a, b) -> -1 if value(a) < value(b), +1 if value(a) > value(b); both orders."""
        out: dict[tuple[Cell, Cell], int] = {}
        for a, b in self.less:
            out[a, b], out[b, a] = -1, 1
        return out

    def sign(self, a: Cell, b: Cell) -> int:
        """-1 (a < b), +1 (a > b) or 0 (no relation) between neighbours a and b."""
        return self.relation.get((a, b), 0)

    @cached_property
    def bar_set(self) -> frozenset[tuple[Cell, Cell]]:
        """The bars in both orders."""
        return frozenset(self.bars) | frozenset((b, a) for a, b in self.bars)

    def neighbour_pairs(self) -> list[tuple[Cell, Cell]]:
        """Every two orthogonal neighbours (a, b), a before b in row-major order."""
        n = self.n
        return [((r, c), (r + dr, c + dc)) for r in range(n) for c in range(n)
                for dr, dc in ((0, 1), (1, 0)) if r + dr < n and c + dc < n]

    def adjacency(self) -> list[tuple[Cell, Cell, bool]]:
        """Adjacent mode: every neighbour pair and whether a bar joins it."""
        return [(a, b, (a, b) in self.bar_set) for a, b in self.neighbour_pairs()]

    @property
    def complete(self) -> bool:
        return all(v for row in self.givens for v in row)

    def _repr_svg_(self) -> str:
        """A picture for Jupyter."""
        return load(SVG)(self)


@dataclass(frozen=True)
class Solution:
    grid: Grid

    def value(self, cell: Cell) -> int:
        return self.grid[cell[0]][cell[1]]

    def _repr_svg_(self) -> str:
        """A picture for Jupyter, on a stand-in board (a solution does not hold its puzzle)."""
        return load(SOLUTION_SVG)(self)

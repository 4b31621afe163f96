"""Lianliankan (Shisen-Sho, Onet) vocabulary: a board of tiles and removals.

Cells are ``(row, col)``, 0-based; with ``border`` the ring just outside the
board (row -1 or height, col -1 or width) is empty and lines may use it.
A tile is a picture number >= 1; 0 is an empty cell.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property

from search.core.contract import load

# The pictures sit above the puzzles (they draw every kind): a model reaches them by name,
# so the drawing code loads on first use.
SVG, SOLUTION_SVG = "search.draw:svg", "search.draw:solution_svg"

Cell = tuple[int, int]
Grid = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Board:
    grid: Grid
    border: bool = False  # lines may run through one empty ring outside the board
    gravity: bool = False  # after a removal the tiles above fall into the gap
    turns: int = 2  # the most turns a connecting line may make
    # the rules come from the file (a game in progress, or a 'rules:' line):
    # rule flags may not change them, since the moves played were played under them
    fixed_rules: bool = field(default=False, compare=False)

    @property
    def height(self) -> int:
        return len(self.grid)

    @property
    def width(self) -> int:
        return len(self.grid[0]) if self.grid else 0

    def at(self, cell: Cell) -> int:
        return self.grid[cell[0]][cell[1]]

    @cached_property
    def tiles(self) -> tuple[Cell, ...]:
        return tuple(
            (r, c) for r, row in enumerate(self.grid) for c, v in enumerate(row) if v
        )

    def removed(self, a: Cell, b: Cell) -> Board:
        """The board after tiles ``a`` and ``b`` go (the rules' definition of a removal).

        With gravity, the part of each column above a removed tile slides down
        one cell into the gap (the top cell of the column becomes empty).
        """
        if not self.gravity:  # only the rows of a and b change: copy those alone
            grid = list(self.grid)
            for r in {a[0], b[0]}:
                row = list(grid[r])
                for cell in (a, b):
                    if cell[0] == r:
                        row[cell[1]] = 0
                grid[r] = tuple(row)
            return replace(self, grid=tuple(grid))
        rows = [list(row) for row in self.grid]
        for r, c in (a, b):
            rows[r][c] = 0
        if self.gravity:
            for c in {a[1], b[1]}:
                gaps = sorted(r for r, cc in (a, b) if cc == c)
                column = [rows[r][c] for r in range(self.height) if r not in gaps]
                column = [0] * len(gaps) + column
                for r in range(self.height):
                    rows[r][c] = column[r]
        return replace(self, grid=tuple(tuple(row) for row in rows))

    def _repr_svg_(self) -> str:
        """A picture for Jupyter."""
        return load(SVG)(self)


@dataclass(frozen=True)
class Move:
    """Remove tiles ``a`` and ``b``; ``corners`` are the turning cells of the line (0-2)."""

    a: Cell
    b: Cell
    corners: tuple[Cell, ...] = ()

    def line(self) -> tuple[Cell, ...]:
        return (self.a, *self.corners, self.b)


@dataclass(frozen=True)
class Solution:
    """A clearing sequence: the moves in the order they are played."""

    moves: tuple[Move, ...]

    def _repr_svg_(self) -> str:
        """A picture for Jupyter, on a stand-in board (a solution does not hold its puzzle)."""
        return load(SOLUTION_SVG)(self)

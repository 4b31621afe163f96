"""Numberlink vocabulary: a board of empty, blocked and labelled cells.

Cells are ``(row, col)``, 0-based.  Each label marks exactly two cells (the
ends of its path).  ``full_cover`` is the rule set: True (the seed's rule,
Flow Free) demands every non-blocked cell on a path, False (lenient; Nikoli,
the DA Symposium contest) lets cells stay empty.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

from search.core.contract import load

# The pictures sit above the puzzles (they draw every kind): a model reaches them by name,
# so the drawing code loads on first use.
SVG, SOLUTION_SVG = "search.draw:svg", "search.draw:solution_svg"

Cell = tuple[int, int]
Edge = frozenset[Cell]  # an undirected step between two neighbouring cells


@dataclass(frozen=True)
class Pair:
    label: str
    a: Cell
    b: Cell


@dataclass(frozen=True)
class Numberlink:
    height: int
    width: int
    pairs: tuple[Pair, ...]
    blocked: frozenset[Cell] = frozenset()
    full_cover: bool = True

    def lenient(self) -> Numberlink:
        return replace(self, full_cover=False)

    def covering(self) -> Numberlink:
        return replace(self, full_cover=True)

    @cached_property
    def endpoint(self) -> dict[Cell, int]:
        """Cell -> index of the pair it ends."""
        return {cell: i for i, p in enumerate(self.pairs) for cell in (p.a, p.b)}

    def inside(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.height and 0 <= cell[1] < self.width

    def neighbours(self, cell: Cell) -> list[Cell]:
        r, c = cell
        steps = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        return [n for n in steps if self.inside(n) and n not in self.blocked]

    @cached_property
    def open_cells(self) -> tuple[Cell, ...]:
        return tuple(
            (r, c)
            for r in range(self.height)
            for c in range(self.width)
            if (r, c) not in self.blocked
        )

    def _repr_svg_(self) -> str:
        """A picture for Jupyter."""
        return load(SVG)(self)


@dataclass(frozen=True)
class Solution:
    """One path per pair, in the order of ``Numberlink.pairs``, from ``a`` to ``b``."""

    paths: tuple[tuple[Cell, ...], ...]

    @cached_property
    def edges(self) -> frozenset[Edge]:
        """The canonical key: the set of undirected path steps."""
        return frozenset(
            frozenset(step) for path in self.paths for step in zip(path, path[1:])
        )

    def cover(self) -> dict[Cell, int]:
        """Cell -> index of the path through it."""
        return {cell: i for i, path in enumerate(self.paths) for cell in path}

    def _repr_svg_(self) -> str:
        """A picture for Jupyter, on a stand-in board (a solution does not hold its puzzle)."""
        return load(SOLUTION_SVG)(self)

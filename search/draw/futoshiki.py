"""Futoshiki pictures: the square, givens bold, solved values in blue, the
inequality signs in the gaps between cells, and Adjacent bars where given."""

from __future__ import annotations

from collections.abc import Iterable

from search.draw.svg import INK, MARK, Picture, group, points, shape, text
from search.futoshiki.model import Cell, Futoshiki, Solution

CELL = 44.0
GAP = 18.0  # between cells, where the signs go
MARGIN = 8.0
SOLVED = "#1f5fbf"
DIFFERS = "#ffd9de"

Pair = tuple[Cell, Cell]


def bars(puzzle: Futoshiki) -> tuple[Pair, ...]:
    """The Adjacent bars of a puzzle: pairs of neighbours whose values differ by one."""
    return puzzle.bars


def draw(puzzle: Futoshiki, solution: Solution | None = None, *,
         marked: Iterable[Cell] = (), steps: bool = False) -> Picture:
    """The puzzle, filled in with ``solution`` if given; ``marked`` cells shaded.
    (``steps`` is for puzzles whose solution is a sequence; a square has none.)"""
    n, marked = puzzle.n, frozenset(marked)
    side = 2 * MARGIN + n * CELL + (n - 1) * GAP
    root = group(class_="futoshiki")
    for cell in puzzle.cells:
        x, y = _corner(cell)
        shape("rect", root, x=x, y=y, width=CELL, height=CELL, rx=3,
              fill=DIFFERS if cell in marked else "#ffffff",
              stroke=MARK if cell in marked else INK, stroke_width=2 if cell in marked else 1.5,
              class_="cell differs" if cell in marked else "cell")
        given = puzzle.given(cell)
        value = given or (solution.value(cell) if solution is not None else 0)
        if value:
            text(root, x + CELL / 2, y + CELL / 2 + 1, str(value), CELL * 0.52,
                 font_weight="bold" if given else "normal", fill=INK if given else SOLVED,
                 class_="given" if given else "value")
    for smaller, larger in puzzle.less:
        _sign(root, smaller, larger)
    for a, b in bars(puzzle):
        _bar(root, a, b)
    return Picture(side, side, root)


def alone(solution: Solution) -> Picture:
    """A solution on its own: its square, without givens or signs."""
    return draw(Futoshiki.empty(len(solution.grid)), solution)


def _corner(cell: Cell) -> tuple[float, float]:
    r, c = cell
    return MARGIN + c * (CELL + GAP), MARGIN + r * (CELL + GAP)


def _between(a: Cell, b: Cell) -> tuple[float, float]:
    """The centre of the gap between neighbouring cells a and b."""
    (xa, ya), (xb, yb) = _corner(a), _corner(b)
    return (xa + xb) / 2 + CELL / 2, (ya + yb) / 2 + CELL / 2


def _sign(root, smaller: Cell, larger: Cell) -> None:
    """A chevron in the gap whose point faces the smaller cell ('<', '>', '^', 'v')."""
    x, y = _between(smaller, larger)
    dr, dc = smaller[0] - larger[0], smaller[1] - larger[1]  # towards the smaller cell
    h = GAP * 0.32
    tip = (x + dc * h, y + dr * h)
    arms = [(x - dc * h + dr * h * 1.6, y - dr * h + dc * h * 1.6),
            (x - dc * h - dr * h * 1.6, y - dr * h - dc * h * 1.6)]
    shape("polyline", root, points=points([arms[0], tip, arms[1]]), fill="none", stroke=INK,
          stroke_width=2.2, stroke_linecap="round", stroke_linejoin="round", class_="sign")


def _bar(root, a: Cell, b: Cell) -> None:
    """A bar across the gap, parallel to the common edge."""
    x, y = _between(a, b)
    dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
    half = CELL * 0.3
    shape("line", root, x1=x - dr * half, y1=y - dc * half, x2=x + dr * half, y2=y + dc * half,
          stroke=INK, stroke_width=4, stroke_linecap="round", class_="bar")

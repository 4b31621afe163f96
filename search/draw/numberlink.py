"""Numberlink pictures: blocked cells dark, each path a coloured line through
the cell centres, the labels on its ends."""

from __future__ import annotations

from collections.abc import Iterable

from search.draw.colours import colour, ink_on
from search.draw.svg import INK, MARK, Picture, group, points, shape, text
from search.numberlink.model import Cell, Numberlink, Pair, Solution

CELL = 36.0
MARGIN = 6.0
FLOOR = "#f4f3ef"
WALL = "#2e2e2e"
GRID = "#cfcdc6"


def draw(puzzle: Numberlink, solution: Solution | None = None, *,
         marked: Iterable[Cell] = (), steps: bool = False) -> Picture:
    """The board, with ``solution``'s paths if given; ``marked`` cells outlined.
    (``steps`` is for puzzles whose solution is a sequence; paths have none.)"""
    width = 2 * MARGIN + puzzle.width * CELL
    height = 2 * MARGIN + puzzle.height * CELL
    root = group(class_="numberlink")
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            blocked = (r, c) in puzzle.blocked
            shape("rect", root, x=_x(c), y=_y(r), width=CELL, height=CELL,
                  fill=WALL if blocked else FLOOR, stroke=WALL if blocked else GRID,
                  stroke_width=1, class_="blocked" if blocked else "cell")
    shape("rect", root, x=MARGIN, y=MARGIN, width=puzzle.width * CELL,
          height=puzzle.height * CELL, fill="none", stroke=INK, stroke_width=2, class_="frame")
    for cell in sorted(marked):  # under the paths, so that both stay readable
        shape("rect", root, x=_x(cell[1]), y=_y(cell[0]), width=CELL, height=CELL, fill=MARK,
              opacity=0.2, stroke="none", class_="differs")
    if solution is not None:
        for index, path in enumerate(solution.paths):
            shape("polyline", root, points=points(_centre(cell) for cell in path),
                  fill="none", stroke=colour(index), stroke_width=CELL * 0.34,
                  stroke_linecap="round", stroke_linejoin="round", class_="path",
                  data_label=puzzle.pairs[index].label)
    for index, pair in enumerate(puzzle.pairs):
        _ends(root, index, pair)
    return Picture(width, height, root)


def alone(solution: Solution) -> Picture:
    """A solution on its own: its paths on a board just large enough, their
    ends labelled 1, 2, ... (blocked cells unknown)."""
    cells = [cell for path in solution.paths for cell in path]
    height = max((r for r, _ in cells), default=0) + 1
    width = max((c for _, c in cells), default=0) + 1
    pairs = tuple(Pair(str(i + 1), path[0], path[-1]) for i, path in enumerate(solution.paths))
    return draw(Numberlink(height, width, pairs), solution)


def _ends(root, index: int, pair: Pair) -> None:
    size = CELL * (0.5 if len(pair.label) == 1 else 0.42 if len(pair.label) == 2 else 0.3)
    for cell in (pair.a, pair.b):
        x, y = _centre(cell)
        end = group(root, class_="end", data_label=pair.label)
        shape("circle", end, cx=x, cy=y, r=CELL * 0.38, fill=colour(index), stroke=INK,
              stroke_width=1)
        text(end, x, y + 1, pair.label, size, font_weight="bold", fill=ink_on(index))


def _x(c: int) -> float:
    return MARGIN + c * CELL


def _y(r: int) -> float:
    return MARGIN + r * CELL


def _centre(cell: Cell) -> tuple[float, float]:
    return _x(cell[1]) + CELL / 2, _y(cell[0]) + CELL / 2

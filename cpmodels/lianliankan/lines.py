"""The lines of a Lianliankan pair: the geometry both CP-SAT models share.

A line from tile a to tile b has at most ``board.turns`` turns; it is named by
its turning cells (none for a straight line, the rectangle's other corners for
one turn, a row or column crossed for two, the border ring included when the
board allows it).
"""

from __future__ import annotations

from dataclasses import dataclass

from search.lianliankan.model import Board, Cell


@dataclass(frozen=True)
class Line:
    """One way to join a pair: its turning cells and the tiles in its way."""

    corners: tuple[Cell, ...]
    blockers: frozenset[Cell]


def segment(p: Cell, q: Cell) -> list[Cell]:
    """The cells from p to q (same row or column), both ends included."""
    (r1, c1), (r2, c2) = p, q
    if r1 == r2:
        step = 1 if c2 >= c1 else -1
        return [(r1, c) for c in range(c1, c2 + step, step)]
    step = 1 if r2 >= r1 else -1
    return [(r, c1) for r in range(r1, r2 + step, step)]


def corner_choices(board: Board, a: Cell, b: Cell) -> list[tuple[Cell, ...]]:
    """The turning cells of every line of at most ``board.turns`` turns from a to b."""
    (r1, c1), (r2, c2) = a, b
    ring = 1 if board.border else 0
    rows = range(-ring, board.height + ring)
    cols = range(-ring, board.width + ring)
    found: list[tuple[Cell, ...]] = []
    if r1 == r2 or c1 == c2:
        found.append(())
    elif board.turns >= 1:
        found += [((r1, c2),), ((r2, c1),)]
    if board.turns >= 2:
        if r1 != r2:  # horizontal, vertical through column c, horizontal
            found += [((r1, c), (r2, c)) for c in cols if c not in (c1, c2)]
        if c1 != c2:  # vertical, horizontal through row r, vertical
            found += [((r, c1), (r, c2)) for r in rows if r not in (r1, r2)]
    return found


def line_cells(a: Cell, corners: tuple[Cell, ...], b: Cell) -> set[Cell]:
    """The cells a line from a to b through ``corners`` crosses, a and b left out."""
    points = (a, *corners, b)
    cells: set[Cell] = set()
    for p, q in zip(points, points[1:], strict=False):
        cells.update(segment(p, q))
    return cells - {a, b}


def candidate_lines(board: Board, a: Cell, b: Cell) -> list[Line]:
    """The lines from a to b that no other line of the pair beats.

    A line is beaten when another one is blocked by a subset of its tiles; of
    lines blocked by the same tiles the one with fewer turns is kept.
    """
    lines: dict[frozenset[Cell], Line] = {}
    for corners in corner_choices(board, a, b):
        blockers = frozenset(
            cell for cell in line_cells(a, corners, b)
            if 0 <= cell[0] < board.height and 0 <= cell[1] < board.width and board.at(cell)
        )
        if blockers not in lines:
            lines[blockers] = Line(corners, blockers)
    return [
        line for line in lines.values()
        if not any(other < line.blockers for other in lines)
    ]

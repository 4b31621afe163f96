"""Lianliankan pictures: the board of numbered tiles (each picture its own
colour), the ring outside the board when lines may use it, and a clearing.

A clearing is drawn two ways.  As a still (SVG, PNG): every tile carries the
number of the move that removes it and, without gravity, the lines run under
the tiles (a line crosses cells emptied by earlier moves, where the still
shows their tiles; under gravity the cells of a move are not the first
board's, so the lines are left out).
As steps (``steps=True``, for the HTML page): state s is the board after s
moves with the line of move s + 1 and its two tiles highlighted.  An element
that belongs to some states only carries ``data-show="a-b"`` (shown in
states a..b); a tile that falls under gravity carries
``data-at="s:dx,dy;..."`` (its offset from state s on); the page's script
applies both.  The boards of the states come from the rules
(``Board.removed``), never from a copy of them here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from search.draw.colours import colour, ink_on
from search.draw.svg import INK, Picture, group, points, shape, text
from search.lianliankan.model import Board, Cell, Move, Solution

CELL = 34.0
MARGIN = 6.0
CAPTION = 30.0  # room under the board for the caption of each state
FLOOR = "#f4f3ef"
RING = "#fbfaf7"
LINE = "#d62728"


@dataclass(frozen=True)
class Tile:
    """One tile through a clearing: its picture, its cell in each state until
    it goes (a tile falls under gravity), and the move that removes it (0: none)."""

    picture: int
    cells: tuple[Cell, ...]
    removed_by: int


def draw(board: Board, solution: Solution | None = None, *,
         marked: Iterable[Cell] = (), steps: bool = False) -> Picture:
    """The board, and ``solution``'s clearing as a still or, with ``steps``, as
    states for the page to step through.  (``marked``: a clearing has no cells
    two solutions share, so nothing is marked.)"""
    moves = solution.moves if solution is not None else ()
    ring = 1 if board.border else 0
    width = 2 * MARGIN + (board.width + 2 * ring) * CELL
    height = 2 * MARGIN + (board.height + 2 * ring) * CELL
    root = group(class_="lianliankan")
    if ring:
        shape("rect", root, x=MARGIN, y=MARGIN, width=width - 2 * MARGIN,
              height=height - 2 * MARGIN, fill=RING, stroke="#9a9a9a", stroke_width=1.2,
              stroke_dasharray="4,4", class_="ring")
    shape("rect", root, x=_x(board, 0), y=_y(board, 0), width=board.width * CELL,
          height=board.height * CELL, fill=FLOOR, stroke=INK, stroke_width=1.5, class_="floor")
    if not (steps or board.gravity):  # under gravity a move's cells are not the first board's
        for number, move in enumerate(moves, start=1):
            shape("polyline", root, points=points(_centre(board, c) for c in move.line()),
                  fill="none", stroke=LINE, stroke_width=2, opacity=0.7,
                  stroke_linejoin="round", class_="move", data_step=number)
    for tile in tiles(board, moves):
        _tile(root, board, tile, steps)
    if steps:
        for number, move in enumerate(moves, start=1):
            _step(root, board, move, number)
        root.set("data-steps", str(len(moves)))
        boards = states(board, moves)
        for state in range(len(moves) + 1):
            _caption(root, boards, moves, state, width, height)
        height += CAPTION
    return Picture(width, height, root)


def states(board: Board, moves: Iterable[Move]) -> list[Board]:
    """The board before the first move and after each, by the rules."""
    boards = [board]
    for move in moves:
        boards.append(boards[-1].removed(move.a, move.b))
    return boards


def tiles(board: Board, moves: tuple[Move, ...]) -> list[Tile]:
    """Each tile of the first board followed through the moves.

    Which tile is which after a move comes from the boards the rules give:
    in a column the tiles keep their order (they only fall), so the tiles
    left in a column of the board before are, top to bottom, those of the
    board after.
    """
    boards = states(board, moves)
    where: dict[Cell, int] = {cell: i for i, cell in enumerate(board.tiles)}
    cells: list[list[Cell]] = [[cell] for cell in board.tiles]
    gone = [0] * len(board.tiles)
    for number, (move, before, after) in enumerate(zip(moves, boards, boards[1:]), start=1):
        for cell in (move.a, move.b):
            gone[where.pop(cell)] = number
        for c in {move.a[1], move.b[1]}:
            old = [where.pop((r, c)) for r in range(before.height) if (r, c) in where]
            new = [(r, c) for r in range(after.height) if after.at((r, c))]
            where.update(zip(new, old))
        for cell, i in where.items():
            cells[i].append(cell)
    return [Tile(board.at(first[0]), tuple(first), removed)
            for first, removed in zip(cells, gone)]


def alone(solution: Solution) -> Picture:
    """A clearing on its own: a board just large enough for its tiles (with the
    ring if a line uses it), each tile showing the number of its move, for
    lack of its picture."""
    cells = [cell for move in solution.moves for cell in (move.a, move.b)]
    height = max((r for r, _ in cells), default=0) + 1
    width = max((c for _, c in cells), default=0) + 1
    grid = [[0] * width for _ in range(height)]
    for number, move in enumerate(solution.moves, start=1):
        for r, c in (move.a, move.b):  # under gravity a cell may come again: keep the first
            grid[r][c] = grid[r][c] or number
    outside = any(not (0 <= r < height and 0 <= c < width)
                  for move in solution.moves for r, c in move.line())
    return draw(Board(tuple(map(tuple, grid)), border=outside))


def _tile(root, board: Board, tile: Tile, steps: bool) -> None:
    x, y = _x(board, tile.cells[0][1]), _y(board, tile.cells[0][0])
    node = group(root, class_="tile", data_picture=tile.picture)
    if steps:
        node.set("data-show", f"0-{len(tile.cells) - 1}")  # a cell per state it is on
        moves = [(s, cell) for s, cell in enumerate(tile.cells) if s and cell != tile.cells[s - 1]]
        if moves:
            node.set("data-at", ";".join(
                f"{s}:{(c - tile.cells[0][1]) * CELL:g},{(r - tile.cells[0][0]) * CELL:g}"
                for s, (r, c) in moves))
    shape("rect", node, x=x + 1.5, y=y + 1.5, width=CELL - 3, height=CELL - 3, rx=5,
          fill=colour(tile.picture - 1), stroke="#555555", stroke_width=0.8)
    text(node, x + CELL / 2, y + CELL / 2 + 1, str(tile.picture), CELL * 0.42,
         font_weight="bold", fill=ink_on(tile.picture - 1))
    if tile.removed_by and not steps:
        number = str(tile.removed_by)  # in the top right corner, inside the tile
        text(node, x + CELL - 4 - 2.6 * len(number), y + 7, number, 8, fill=INK, class_="order",
             paint_order="stroke", stroke="#ffffff", stroke_width=2)


def _step(root, board: Board, move: Move, number: int) -> None:
    """Move ``number``'s line and its two tiles, shown in the state before it."""
    node = group(root, class_="move", data_step=number, data_show=f"{number - 1}-{number - 1}")
    if number != 1:
        node.set("display", "none")
    for cell in (move.a, move.b):
        shape("rect", node, x=_x(board, cell[1]) + 0.5, y=_y(board, cell[0]) + 0.5,
              width=CELL - 1, height=CELL - 1, rx=6, fill="none", stroke=LINE, stroke_width=3,
              class_="pick")
    shape("polyline", node, points=points(_centre(board, c) for c in move.line()), fill="none",
          stroke=LINE, stroke_width=3.5, stroke_linejoin="round", stroke_linecap="round",
          opacity=0.9)
    for cell in move.corners:
        x, y = _centre(board, cell)
        shape("circle", node, cx=x, cy=y, r=4.5, fill=LINE, class_="turn")


def _caption(root, boards: list[Board], moves: tuple[Move, ...], state: int,
             width: float, height: float) -> None:
    if state < len(moves):
        move = moves[state]
        turns = len(move.corners)
        words = (f"move {state + 1} of {len(moves)}: picture {boards[state].at(move.a)}, "
                 f"{move.a} to {move.b}, {turns} turn{'' if turns == 1 else 's'}")
    else:
        left = len(boards[state].tiles)
        words = (f"after {len(moves)} moves: cleared" if not left
                 else f"after {len(moves)} moves: {left} tiles left")
    node = text(root, width / 2, height + CAPTION / 2, words, 14, fill=INK,
                class_="step-caption", data_show=f"{state}-{state}")
    if state:
        node.set("display", "none")


def _x(board: Board, c: int) -> float:
    return MARGIN + (c + (1 if board.border else 0)) * CELL


def _y(board: Board, r: int) -> float:
    return MARGIN + (r + (1 if board.border else 0)) * CELL


def _centre(board: Board, cell: Cell) -> tuple[float, float]:
    return _x(board, cell[1]) + CELL / 2, _y(board, cell[0]) + CELL / 2

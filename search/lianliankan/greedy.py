"""The seed's auto-player (``searchAllMap``): greedy removals, never undone.

Passes over the board in row-major order; for each tile, the later cells of
the same picture are tried in scan order (``searchMap``: the rest of the
tile's row, then the rows below) and the first pair that connects is removed.
A pass that removes nothing ends the game: the board is cleared, or play is
stuck with tiles left, which proves nothing about the board.
"""

from __future__ import annotations

from dataclasses import dataclass

from search.core.contract import Deadline
from search.lianliankan.io import format_seed
from search.lianliankan.model import Board, Move
from search.lianliankan.paths import Field


@dataclass(frozen=True)
class Game:
    moves: tuple[Move, ...]
    left: int  # tiles on the board when play stopped
    pass_ends: tuple[int, ...]  # the number of moves made when each pass ended

    @property
    def passes(self) -> int:
        return len(self.pass_ends)


def play(board: Board, deadline: Deadline | None = None) -> Game:
    """Play the seed's greedy game to its end."""
    field = Field(board)
    moves: list[Move] = []
    pass_ends: list[int] = []
    removed_any = True
    while removed_any:
        removed_any = False
        s = field.stride
        for r in range(2, field.height + 2):
            for p in range(r * s + 2, r * s + field.width + 2):
                if deadline is not None:
                    deadline.check()
                if field.cells[p] > 0 and _search_map(field, p, moves):
                    removed_any = True
        pass_ends.append(len(moves))
    return Game(tuple(moves), len(field.tiles()), tuple(pass_ends))


def _search_map(field: Field, p: int, moves: list[Move]) -> bool:
    """searchMap: remove p with the first later tile of its picture that connects."""
    cells, picture = field.cells, field.cells[p]
    s, end = field.stride, (field.height + 2) * field.stride
    for q in range(p + 1, end):
        if cells[q] == picture and 2 <= q % s < field.width + 2:
            corners = field.path(p, q)
            if corners is not None:
                moves.append(field.move(p, q, corners))
                field.remove(p, q)
                return True
    return False


def transcript(board: Board, game: Game) -> str:
    """What the seed's program prints: the board, then per removal the line found
    and the board before it (the seed marks the pair in red; plain text here),
    and ``next loop...`` after each pass.  Coordinates are [x,y] = [column,row]."""
    out = [format_seed(board)]
    done = 0
    for end in game.pass_ends:
        for move in game.moves[done:end]:
            out.append(path_message(move) + "\n" + format_seed(board))
            board = board.removed(move.a, move.b)
        out.append("next loop...\n")
        done = end
    return "".join(out)


def path_message(move: Move) -> str:
    """The seed's sentence for one removal."""

    def xy(cell: tuple[int, int]) -> str:
        return f"[{cell[1]},{cell[0]}]"

    a, b, corners = xy(move.a), xy(move.b), [xy(c) for c in move.corners]
    if not corners:
        return f"{a} to {b} have a direct path."
    if len(corners) == 1:
        return f"{a} to {b} have a 1 cornor path throught {corners[0]}."
    return f"{a} to {b} have a {len(corners)} cornor path throught {' and '.join(corners)}."

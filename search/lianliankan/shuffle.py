"""Reshuffle the tiles left into a position that can be cleared, or prove none exists.

The tiles keep their cells (under gravity too: only the pictures move).  Which
arrangements clear depends on the cells alone: a clearing of any arrangement
is a clearing of the *blank* board (every tile the same picture), and a
clearing of the blank board, its pairs painted with the pictures (two tiles of
one picture a pair, in any order), is a clearing of that arrangement.  So:

* a few random blank games (``played_fill`` on the cells, seeded) give a
  random arrangement that clears in the order played;
* when they all get stuck, the exact search decides the blank board: a
  clearing is painted the same way, and a proof that it cannot clear proves
  that no arrangement of these tiles clears.

Every arrangement returned comes with the clearing it was painted from,
checked by ``verify``.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field, replace

from search.core.contract import Backend, Status
from search.lianliankan.generate import clearing_of, played_fill
from search.lianliankan.model import Board, Cell, Solution
from search.lianliankan.verify import verify

BLANK_GAMES = 20  # random blank games before the exact search decides the blank board


@dataclass(frozen=True)
class Shuffled:
    """SOLVED (``board`` clears by ``clearing``), UNSAT (no arrangement of these
    tiles clears, proven by ``engine``), LIMIT or ERROR."""

    status: Status
    board: Board | None
    clearing: Solution | None = None
    engine: str = ""
    wall: float = 0.0
    effort: dict[str, float] = field(default_factory=dict)
    message: str = ""


def shuffle(board: Board, seed: int, backend: Backend,
            time_limit: float | None = None) -> Shuffled:
    """The tiles of ``board`` reshuffled (``seed``) into a position that clears."""
    start = time.perf_counter()
    rng = random.Random(seed)
    cells = list(board.tiles)
    counts = Counter(board.at(cell) for cell in cells)
    pictures = [p for p in sorted(counts) for _ in range(counts[p])]  # pairs side by side
    for game in range(1, BLANK_GAMES + 1):
        order: list[tuple[Cell, Cell]] = []
        grid = played_fill(board.width, board.height, pictures, board.border, board.turns,
                           rng, board.gravity, occupied=list(cells), order=order)
        if grid is not None:
            return _checked(replace(board, grid=grid), order, "blank game", start,
                            {"blank_games": game})
    blank = replace(board, grid=tuple(tuple(1 if v else 0 for v in row) for row in board.grid))
    result = backend.solve(blank, time_limit=time_limit)
    effort = {"blank_games": BLANK_GAMES, **result.effort}
    if result.status is Status.UNSAT:
        return Shuffled(Status.UNSAT, None, None, backend.name, time.perf_counter() - start,
                        effort, "no arrangement of these tiles clears: the board with every "
                        "tile one picture cannot be cleared")
    if result.status is not Status.SOLVED or result.solution is None:
        return Shuffled(Status.LIMIT, None, None, backend.name, time.perf_counter() - start,
                        effort, result.message or "undecided")
    pairs = _painted(blank, result.solution, pictures[::2], rng)
    return _checked(pairs[0], pairs[1], backend.name, start, effort)


def _painted(blank: Board, clearing: Solution, pairs: list[int],
             rng: random.Random) -> tuple[Board, list[tuple[Cell, Cell]]]:
    """The blank board painted along ``clearing``: each removed pair gets a
    picture (``pairs`` shuffled) on the cells its tiles started on."""
    pairs = pairs[:]
    rng.shuffle(pairs)
    origin = {cell: k + 1 for k, cell in enumerate(blank.tiles)}
    where = replace(blank, grid=tuple(tuple(origin.get((r, c), 0) for c in range(blank.width))
                                      for r in range(blank.height)))  # which tile is where
    grid = [list(row) for row in blank.grid]
    cells = blank.tiles
    for move, picture in zip(clearing.moves, pairs, strict=True):
        for tile in (where.at(move.a), where.at(move.b)):
            r, c = cells[tile - 1]
            grid[r][c] = picture
        where = where.removed(move.a, move.b)
    return replace(blank, grid=tuple(map(tuple, grid))), [(m.a, m.b) for m in clearing.moves]


def _checked(board: Board, order: list[tuple[Cell, Cell]], engine: str, start: float,
             effort: dict[str, float]) -> Shuffled:
    clearing = clearing_of(board, order)
    problems = verify(board, clearing)
    wall = time.perf_counter() - start
    if problems:
        return Shuffled(Status.ERROR, None, None, engine, wall, effort,
                        "the reshuffled board fails its clearing: " + "; ".join(problems))
    return Shuffled(Status.SOLVED, board, clearing, engine, wall, effort,
                    "the tiles reshuffled into a position that clears")

"""Hints for a player: the legal moves now, and a move that keeps the deal clearable.

The legal moves are every pair of tiles of one picture a line joins now (the
seed's line, fewest turns first), in scan order of their first tile: cheap,
no search.  The safe move is the first move of a clearing found by a backend's
``solve``: a clearing is its own proof that the position after its first move
still clears.  When the backend proves that no clearing exists, every legal
move loses (and a position with tiles and no legal move is lost at once).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from search.core.contract import Backend, SolveResult, Status
from search.lianliankan.model import Board, Move, Solution
from search.lianliankan.paths import Field
from search.lianliankan.verify import verify


@dataclass(frozen=True)
class Hint:
    """What a hint says: SOLVED (``move`` keeps the deal clearable, ``clearing``
    the proof), UNSAT (every move loses, proven by ``engine``), LIMIT (only
    the legal moves are known) or ERROR (a backend's clearing failed verify)."""

    status: Status
    legal: tuple[Move, ...]
    clearing: Solution | None = None
    engine: str = ""
    wall: float = 0.0
    effort: dict[str, float] = field(default_factory=dict)
    message: str = ""

    @property
    def move(self) -> Move | None:
        return self.clearing.moves[0] if self.clearing and self.clearing.moves else None


def legal_moves(board: Board) -> tuple[Move, ...]:
    """Every removal the rules allow now, each with the seed's line."""
    f = Field(board)
    by_picture = f.pictures()
    tiles = f.tiles()
    moves = []
    for a in tiles:
        for b in by_picture[f.cells[a]]:
            if b > a:
                corners = f.path(a, b)
                if corners is not None:
                    moves.append(f.move(a, b, corners))
    return tuple(moves)


def hint(board: Board, backend: Backend, time_limit: float | None = None) -> Hint:
    """The legal moves and, by ``backend``'s solve, a safe move or a proof that
    there is none (LIMIT when ``time_limit`` passes first)."""
    start = time.perf_counter()
    legal = legal_moves(board)
    if not board.tiles:
        return Hint(Status.SOLVED, legal, Solution(()), "-", time.perf_counter() - start,
                    message="the board is clear")
    if not legal:
        return Hint(Status.UNSAT, legal, None, "no legal move", time.perf_counter() - start,
                    message="no two tiles of one picture can be joined now: every move loses")
    result: SolveResult[Any] = backend.solve(board, time_limit=time_limit)
    effort = dict(result.effort)
    wall = time.perf_counter() - start
    if result.status is Status.SOLVED and result.solution is not None:
        problems = verify(board, result.solution)
        if problems:
            return Hint(Status.ERROR, legal, None, backend.name, wall, effort,
                        "the backend's clearing fails verification: " + "; ".join(problems))
        return Hint(Status.SOLVED, legal, result.solution, backend.name, wall, effort,
                    "this move keeps the deal clearable")
    if result.status is Status.UNSAT:
        return Hint(Status.UNSAT, legal, None, backend.name, wall, effort,
                    "every move loses: no order of removals clears the board")
    why = result.message or "undecided"
    return Hint(Status.LIMIT, legal, None, backend.name, wall, effort,
                f"no safe move found ({why}); the legal moves are listed")

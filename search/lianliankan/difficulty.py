"""How hard a deal that clears feels to a player, by two measures a test can repeat.

* Does the seed's greedy scan (``greedy.play``) clear it?  A deal the scan
  clears forgives a player who takes the first pair in sight.
* How often does a random player win?  ``RANDOM_GAMES`` games, each move drawn
  uniformly among the legal ones (seeded): the share of wins is the share of
  paths through the deal that stay clearable, so it falls with the number of
  losing moves met along the way.

Grades: ``easy`` the scan clears it and a random player wins at least half
the games; ``hard`` the scan gets stuck and a random player wins at most one
game in eight; ``medium`` the rest.  The exact search's nodes are reported
beside them (on deals that clear they say little: most take a few dozen).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from search.core.contract import Status
from search.lianliankan.greedy import play
from search.lianliankan.hint import legal_moves
from search.lianliankan.model import Board, Move
from search.lianliankan.solver import SearchBackend

GRADES = ("easy", "medium", "hard")
RANDOM_GAMES = 8


@dataclass(frozen=True)
class Grade:
    name: str  # easy, medium or hard
    greedy: bool  # the seed's greedy scan clears the deal
    random_wins: int  # of RANDOM_GAMES random games
    nodes: int | None  # the exact search's nodes (None: not searched)

    def as_json(self) -> dict[str, object]:
        return {"grade": self.name, "greedy_clears": self.greedy,
                "random_wins": self.random_wins, "random_games": RANDOM_GAMES,
                "nodes": self.nodes}


def random_game(board: Board, rng: random.Random) -> list[Move]:
    """A game of uniformly random legal moves, to its end (cleared or stuck)."""
    moves = []
    while options := legal_moves(board):
        move = rng.choice(options)
        moves.append(move)
        board = board.removed(move.a, move.b)
    return moves


def random_wins(board: Board, seed: int, games: int = RANDOM_GAMES) -> int:
    rng = random.Random(seed)
    return sum(len(random_game(board, rng)) * 2 == len(board.tiles) for _ in range(games))


def grade(board: Board, seed: int, nodes: int | None = None) -> Grade:
    """The grade of a deal that clears (``seed`` draws the random games;
    ``nodes``: the exact search's effort, when known)."""
    greedy = play(board).left == 0
    wins = random_wins(board, seed)
    if greedy and 2 * wins >= RANDOM_GAMES:
        name = "easy"
    elif not greedy and 8 * wins <= RANDOM_GAMES:
        name = "hard"
    else:
        name = "medium"
    return Grade(name, greedy, wins, nodes)


def searched(board: Board, node_limit: int) -> tuple[Status, list[Move] | None, int]:
    """The exact search's verdict within ``node_limit``, its clearing, its nodes."""
    result = SearchBackend(max_nodes=node_limit).solve(board)
    moves = list(result.solution.moves) if result.solution is not None else None
    return result.status, moves, int(result.effort.get("nodes", 0))

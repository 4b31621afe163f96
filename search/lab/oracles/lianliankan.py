"""A brute-force Lianliankan oracle for tests: try every removal order.

Connections come from the verifier's breadth-first search, not from the
seed's checks, and every board state is tried at most once.
"""

from __future__ import annotations

import random
from collections import Counter

from search.lianliankan.model import Board, Grid
from search.lianliankan.verify import fewest_turns


def clearable(board: Board) -> bool:
    """Can some order of removals clear the board?"""
    failed: set[Grid] = set()

    def search(board: Board) -> bool:
        tiles = board.tiles
        if not tiles:
            return True
        if board.grid in failed:
            return False
        for i, a in enumerate(tiles):
            for b in tiles[i + 1:]:
                if (board.at(a) == board.at(b) and fewest_turns(board, a, b) is not None
                        and search(board.removed(a, b))):
                    return True
        failed.add(board.grid)
        return False

    return search(board)


def random_board(rng: random.Random, max_side: int = 4) -> Board:
    """A random small board: 1..max_side per side, a few pictures, some empty cells."""
    height, width = rng.randint(1, max_side), rng.randint(1, max_side)
    cells = [(r, c) for r in range(height) for c in range(width)]
    rng.shuffle(cells)
    pairs = rng.randint(1, len(cells) // 2) if len(cells) >= 2 else 0
    pictures = rng.randint(1, 3)
    grid = [[0] * width for _ in range(height)]
    for k in range(pairs):
        picture = rng.randint(1, pictures)
        for r, c in cells[2 * k: 2 * k + 2]:
            grid[r][c] = picture
    board = Board(tuple(tuple(row) for row in grid), border=rng.random() < 0.5,
                  gravity=rng.random() < 0.25)
    assert all(n % 2 == 0 for n in Counter(v for row in grid for v in row if v).values())
    return board


def moves(board: Board) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The pairs of tiles a line joins now, by the verifier's search."""
    tiles = board.tiles
    return [(a, b) for i, a in enumerate(tiles) for b in tiles[i + 1:]
            if board.at(a) == board.at(b) and fewest_turns(board, a, b) is not None]


def random_deal(rng: random.Random, max_side: int = 6) -> Board:
    """A random full deal (one cell left empty on odd boards), about four tiles a
    picture; the ring one time in five, gravity three in ten."""
    height, width = rng.randint(2, max_side), rng.randint(2, max_side)
    cells = [(r, c) for r in range(height) for c in range(width)]
    rng.shuffle(cells)
    pairs = len(cells) // 2
    pictures = max(1, pairs // 2)
    tiles = [p for _ in range(pairs) for p in [rng.randint(1, pictures)] * 2]
    grid = [[0] * width for _ in range(height)]
    for (r, c), picture in zip(cells, tiles, strict=False):
        grid[r][c] = picture
    return Board(tuple(map(tuple, grid)), border=rng.random() < 0.2,
                 gravity=rng.random() < 0.3)


def played(rng: random.Random, board: Board) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """A random game on ``board`` to its end (cleared or stuck): the moves played."""
    game = []
    while options := moves(board):
        a, b = rng.choice(options)
        game.append((a, b))
        board = board.removed(a, b)
    return game


def random_position(rng: random.Random, max_side: int = 6) -> tuple[Board, list]:
    """A deal and the moves of a random game on it so far: one move before a
    stuck end (where lost positions with moves left are), else a random point
    of a game that cleared (never the empty board)."""
    deal = random_deal(rng, max_side)
    game = played(rng, deal)
    board = deal
    for a, b in game:
        board = board.removed(a, b)
    keep = len(game) - 1 if board.tiles else rng.randint(0, len(game) - 1)
    return deal, game[:max(0, keep)]


def reached(deal: Board, game: list) -> Board:
    """The board after the moves of ``game`` (pairs of cells) on ``deal``."""
    for a, b in game:
        deal = deal.removed(a, b)
    return deal

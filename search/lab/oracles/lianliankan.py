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

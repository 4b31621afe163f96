"""The brute-force Lianliankan oracle, and random instances.

``clearable`` tries every removal order (each board state at most once), and
finds connections by straight rays, not by the backends' or the verifier's
searches: the plainest reading of the rules.  It reads only the model.
"""

from __future__ import annotations

import random
from collections import Counter

from search.lianliankan.model import Board, Cell, Grid

DEFAULT_SIZE = (4, 3)  # crosscheck --random's (width, height)
STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def joined(board: Board, a: Cell, b: Cell) -> bool:
    """Can a line of at most ``board.turns`` turns join tiles a and b through
    empty cells (and the empty ring around the board, when it allows)?

    A line of k turns is k + 1 straight segments, so b is joined when a ray
    from a cell that a's lines reach in at most ``board.turns`` segments hits it.
    """
    ring = 1 if board.border else 0

    def empty(cell: Cell) -> bool:
        r, c = cell
        if not (-ring <= r < board.height + ring and -ring <= c < board.width + ring):
            return False
        return not (0 <= r < board.height and 0 <= c < board.width) or not board.at(cell)

    reached, frontier = {a}, [a]
    for _ in range(board.turns + 1):  # one more segment per round
        grown = []
        for start in frontier:
            for dr, dc in STEPS:
                cell = (start[0] + dr, start[1] + dc)
                while empty(cell):
                    if cell not in reached:
                        reached.add(cell)
                        grown.append(cell)
                    cell = (cell[0] + dr, cell[1] + dc)
                if cell == b:
                    return True
        frontier = grown
    return False


def clearable(board: Board) -> bool:
    """Can some order of removals clear the board?"""
    failed: set[Grid] = set()

    def search(board: Board) -> bool:
        tiles = board.tiles
        if not tiles:
            return True
        if board.grid in failed:
            return False
        if any(search(board.removed(a, b)) for a, b in moves(board)):
            return True
        failed.add(board.grid)
        return False

    return search(board)


def random_puzzle(width: int, height: int, rng: random.Random) -> Board:
    """Pairs of a few pictures dropped on a board, some cells left empty."""
    cells = width * height
    tiles = 2 * rng.randint(1, max(1, cells // 2))
    pictures = rng.randint(1, max(1, tiles // 4))
    faces = [1 + (i // 2) % pictures for i in range(tiles)] + [0] * (cells - tiles)
    rng.shuffle(faces)
    return Board(tuple(tuple(faces[r * width:(r + 1) * width]) for r in range(height)))


def random_instance(size: tuple[int, int], rng: random.Random) -> Board:
    """crosscheck --random's instance of a size (width, height)."""
    return random_puzzle(size[0], size[1], rng)


def random_board(rng: random.Random, max_side: int = 4) -> Board:
    """A random small board: 1..max_side per side, a few pictures, some empty
    cells, the border and gravity rules now and then."""
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
    """The pairs of tiles a line joins now."""
    tiles = board.tiles
    return [(a, b) for i, a in enumerate(tiles) for b in tiles[i + 1:]
            if board.at(a) == board.at(b) and joined(board, a, b)]


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

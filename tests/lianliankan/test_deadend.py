"""The dead-end test under gravity (``search.lianliankan.deadend``): it never
calls a clearable board dead (brute force on small packed boards, both ring
settings, and on every board a random play passes through), and it refutes
boards the search alone takes thousands of nodes on."""

from __future__ import annotations

import random

import pytest

from search.core.contract import Status
from search.lab.oracles.lianliankan import clearable
from search.lianliankan.deadend import never_cleared, removable
from search.lianliankan.generate import full_fill
from search.lianliankan.gravity import moves_of
from search.lianliankan.model import Board
from search.lianliankan.paths import Field
from search.lianliankan.solver import SearchBackend


def packed_board(rng: random.Random, border: bool) -> Board:
    """A random small board whose columns are stacks (tiles at the bottom,
    every picture an even number of times): the boards gravity leaves."""
    height, width = rng.randint(2, 5), rng.randint(2, 5)
    heights = [rng.randint(0, height) for _ in range(width)]
    pictures = rng.randint(2, 4)
    tiles: list[int] = []
    for _ in range(sum(heights) // 2):
        p = rng.randint(1, pictures)
        tiles += [p, p]
    rng.shuffle(tiles)
    grid = [[0] * width for _ in range(height)]
    it = iter(tiles)
    for c, n in enumerate(heights):
        for k in range(n):
            grid[height - 1 - k][c] = next(it, 0)
    return Board(tuple(map(tuple, grid)), border=border, gravity=True)


def _sound(boards: int, seed: int) -> int:
    rng = random.Random(seed)
    refuted = 0
    for k in range(boards):
        b = packed_board(rng, border=k % 2 == 0)
        if never_cleared(Field(b)):
            refuted += 1
            assert not clearable(b), b
    return refuted


def test_dead_boards_do_not_clear() -> None:
    assert _sound(600, 21) > 5


@pytest.mark.slow
def test_dead_boards_do_not_clear_many() -> None:
    assert _sound(10_000, 1021) > 100


def test_dead_on_the_way() -> None:
    """Along random plays of full boards, no board called dead is clearable
    by the search (the boards a search meets, not only fresh ones)."""
    rng = random.Random(4)
    for _ in range(30):
        b = Board(full_fill(4, 4, 4, rng), border=rng.random() < 0.5, gravity=True)
        while b.tiles:
            if never_cleared(Field(b)):
                assert not clearable(b), b
            moves = list(moves_of(b))
            if not moves:
                break
            move = rng.choice(moves)
            b = b.removed(move.a, move.b)


def test_holes_are_not_judged() -> None:
    """An empty cell under a tile: not a stack, no verdict."""
    b = Board(((1, 2), (0, 1), (2, 0)), gravity=True)
    assert removable(Field(b)) is None
    assert not never_cleared(Field(b))


def test_a_column_of_two_pictures_walled_in() -> None:
    """1 2 1 2 in one column, no ring: the 1s and the 2s each wait on the
    other (and with the ring they clear)."""
    column = ((1,), (2,), (1,), (2,))
    assert never_cleared(Field(Board(column, gravity=True)))
    assert not never_cleared(Field(Board(column, border=True, gravity=True)))


def test_refutes_a_full_board_at_the_root() -> None:
    """Full 16 x 9, 36 pictures x 4, seed 5: the search alone needed 5,753
    nodes to prove it; the test at the root settles it."""
    import random as r

    b = Board(full_fill(16, 9, 36, r.Random(5)), border=True, gravity=True)
    assert never_cleared(Field(b))
    result = SearchBackend().solve(b)
    assert result.status is Status.UNSAT
    assert result.effort["nodes"] <= 1

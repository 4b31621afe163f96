"""The brute-force Futoshiki oracle, and random instances.

Every Latin square built row by row from permutations, keeping the givens and
the inequalities: the plainest reading of the rules, sharing no code with any
backend (tiny means n <= 4; n = 5 takes seconds).  It reads only the model.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from search.futoshiki.model import Futoshiki, Solution

DEFAULT_SIZE = (4, 4)  # crosscheck --random's (width, height)


def tiny(puzzle: Futoshiki) -> bool:
    """Small enough for the brute force."""
    return puzzle.n <= 4


def solutions(puzzle: Futoshiki) -> Iterator[Solution]:
    """Every solution: rows are permutations fitting the givens and row relations,
    stacked when no column repeats and every vertical relation holds."""
    n = puzzle.n
    rows = list(itertools.permutations(range(1, n + 1)))

    def fits(r: int, row: tuple[int, ...]) -> bool:
        if any(g and g != v for g, v in zip(puzzle.givens[r], row)):
            return False
        return all(row[a[1]] < row[b[1]] for a, b in puzzle.less if a[0] == b[0] == r)

    candidates = [[row for row in rows if fits(r, row)] for r in range(n)]
    vertical = [(a, b) for a, b in puzzle.less if a[0] != b[0]]

    def extend(grid: list[tuple[int, ...]]) -> Iterator[Solution]:
        r = len(grid)
        if r == n:
            yield Solution(tuple(grid))
            return
        for row in candidates[r]:
            if any(grid[k][c] == row[c] for k in range(r) for c in range(n)):
                continue
            grid.append(row)
            if all(grid[a[0]][a[1]] < grid[b[0]][b[1]] for a, b in vertical
                   if max(a[0], b[0]) == r):
                yield from extend(grid)
            grid.pop()

    return extend([])


def count(puzzle: Futoshiki) -> int:
    return sum(1 for _ in solutions(puzzle))


def random_puzzle(n: int, rng: random.Random, givens: float = 0.2,
                  relations: float = 0.3) -> Futoshiki:
    """Random givens (possibly contradictory) and relations on an n x n square."""
    grid = tuple(
        tuple(rng.randint(1, n) if rng.random() < givens else 0 for _ in range(n))
        for _ in range(n)
    )
    less = []
    for r in range(n):
        for c in range(n):
            for nb in ((r, c + 1), (r + 1, c)):
                if nb[0] < n and nb[1] < n and rng.random() < relations:
                    less.append(((r, c), nb) if rng.random() < 0.5 else (nb, (r, c)))
    return Futoshiki(n, grid, tuple(sorted(less)))


def random_instance(size: tuple[int, int], rng: random.Random) -> Futoshiki:
    """crosscheck --random's instance of a size (width, height): the width's square."""
    return random_puzzle(size[0], rng, givens=rng.choice([0.0, 0.1, 0.25]),
                         relations=rng.choice([0.1, 0.3, 0.5]))

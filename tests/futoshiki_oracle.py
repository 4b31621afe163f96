"""A brute-force Futoshiki counter for tests: every Latin square by rows of
permutations, no pruning beyond the rules; independent of every backend."""

from __future__ import annotations

import itertools
import random

from search.futoshiki.model import Futoshiki


def brute_force_count(puzzle: Futoshiki) -> int:
    n = puzzle.n
    rows = list(itertools.permutations(range(1, n + 1)))

    def fits(r: int, row: tuple[int, ...]) -> bool:
        if any(g and g != v for g, v in zip(puzzle.givens[r], row)):
            return False
        return all(
            row[a[1]] < row[b[1]] for a, b in puzzle.less if a[0] == b[0] == r
        )

    candidates = [[row for row in rows if fits(r, row)] for r in range(n)]
    vertical = [(a, b) for a, b in puzzle.less if a[0] != b[0]]

    def extend(grid: list[tuple[int, ...]]) -> int:
        r = len(grid)
        if r == n:
            return 1
        total = 0
        for row in candidates[r]:
            if any(grid[k][c] == row[c] for k in range(r) for c in range(n)):
                continue
            grid.append(row)
            if all(grid[a[0]][a[1]] < grid[b[0]][b[1]] for a, b in vertical
                   if max(a[0], b[0]) == r):
                total += extend(grid)
            grid.pop()
        return total

    return extend([])


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

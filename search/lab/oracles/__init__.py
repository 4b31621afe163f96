"""Brute-force oracles and random tiny instances, for cross-checking backends.

An oracle enumerates the solutions of a tiny puzzle by the plainest means the
rules allow, sharing no code with any backend, so that ``gridcp crosscheck
--random`` can hold every backend against it.  ``ORACLES`` names what exists:

- Futoshiki: every Latin square built row by row from permutations, keeping
  the givens and the inequalities (tiny means n <= 4; n = 5 takes seconds).
- Numberlink: every choice of one simple path per pair, pair after pair, on
  the free cells, then the full-cover rule (tiny means at most 16 cells).

Lianliankan has random boards but no oracle yet: its backends are compared
with each other only.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from search.futoshiki.model import Futoshiki
from search.futoshiki.model import Solution as FutoshikiSolution
from search.lianliankan.model import Board
from search.numberlink.model import Cell, Numberlink, Pair
from search.numberlink.model import Solution as NumberlinkSolution

# ---------------------------------------------------------------- Futoshiki


def futoshiki_solutions(puzzle: Futoshiki) -> Iterator[FutoshikiSolution]:
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

    def extend(grid: list[tuple[int, ...]]) -> Iterator[FutoshikiSolution]:
        r = len(grid)
        if r == n:
            yield FutoshikiSolution(tuple(grid))
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


def futoshiki_count(puzzle: Futoshiki) -> int:
    return sum(1 for _ in futoshiki_solutions(puzzle))


def random_futoshiki(n: int, rng: random.Random, givens: float = 0.2,
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


def _futoshiki_instance(size: tuple[int, int], rng: random.Random) -> Futoshiki:
    return random_futoshiki(size[0], rng, givens=rng.choice([0.0, 0.1, 0.25]),
                            relations=rng.choice([0.1, 0.3, 0.5]))


# ---------------------------------------------------------------- Numberlink


def numberlink_solutions(puzzle: Numberlink) -> Iterator[NumberlinkSolution]:
    """Every solution: one simple path per pair through free cells, pair after
    pair; with ``full_cover`` the paths must use every open cell."""
    ends = set(puzzle.endpoint)
    used: set[Cell] = set()
    paths: list[tuple[Cell, ...]] = []

    def walk(i: int) -> Iterator[NumberlinkSolution]:
        if i == len(puzzle.pairs):
            if not puzzle.full_cover or len(used) == len(puzzle.open_cells):
                yield NumberlinkSolution(tuple(paths))
            return
        pair = puzzle.pairs[i]
        for path in _simple_paths(puzzle, pair.a, pair.b, ends, used):
            used.update(path)
            paths.append(path)
            yield from walk(i + 1)
            paths.pop()
            used.difference_update(path)

    return walk(0)


def _simple_paths(puzzle: Numberlink, a: Cell, b: Cell, ends: set[Cell], used: set[Cell]
                  ) -> Iterator[tuple[Cell, ...]]:
    path, seen = [a], {a}

    def extend(cell: Cell) -> Iterator[tuple[Cell, ...]]:
        for nb in puzzle.neighbours(cell):
            if nb == b:
                yield (*path, b)
            elif nb not in seen and nb not in used and nb not in ends:
                seen.add(nb)
                path.append(nb)
                yield from extend(nb)
                path.pop()
                seen.discard(nb)

    return extend(a)


def random_numberlink(height: int, width: int, rng: random.Random) -> Numberlink:
    """Random pairs: half of the time the ends of random walks (solvable at least
    under the lenient rule), else ends dropped anywhere; now and then a blocked cell."""
    cells = [(r, c) for r in range(height) for c in range(width)]
    rng.shuffle(cells)
    blocked = frozenset(cells[:1]) if rng.random() < 0.3 and len(cells) > 4 else frozenset()
    free = [cell for cell in cells if cell not in blocked]
    wanted = rng.randint(1, max(1, len(free) // 4))
    ends = _walk_ends(height, width, free, wanted, rng) if rng.random() < 0.5 else [
        (free[2 * i], free[2 * i + 1]) for i in range(wanted)]
    pairs = tuple(Pair(str(i + 1), a, b) for i, (a, b) in enumerate(ends))
    return Numberlink(height, width, pairs, blocked, full_cover=rng.random() < 0.6)


def _walk_ends(height: int, width: int, free: list[Cell], wanted: int, rng: random.Random
               ) -> list[tuple[Cell, Cell]]:
    left, ends = set(free), []
    for start in free:
        if len(ends) == wanted or start not in left:
            continue
        walk = [start]
        left.discard(start)
        for _ in range(rng.randint(1, height * width)):
            r, c = walk[-1]
            steps = [n for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if n in left]
            if not steps:
                break
            walk.append(rng.choice(steps))
            left.discard(walk[-1])
        if len(walk) >= 2:
            ends.append((walk[0], walk[-1]))
    return ends or [(free[0], free[1])]


def _numberlink_instance(size: tuple[int, int], rng: random.Random) -> Numberlink:
    return random_numberlink(size[1], size[0], rng)


# ---------------------------------------------------------------- Lianliankan


def random_lianliankan(width: int, height: int, rng: random.Random) -> Board:
    """Pairs of a few pictures dropped on a board, some cells left empty."""
    cells = width * height
    tiles = 2 * rng.randint(1, max(1, cells // 2))
    pictures = rng.randint(1, max(1, tiles // 4))
    faces = [1 + (i // 2) % pictures for i in range(tiles)] + [0] * (cells - tiles)
    rng.shuffle(faces)
    return Board(tuple(tuple(faces[r * width:(r + 1) * width]) for r in range(height)))


def _lianliankan_instance(size: tuple[int, int], rng: random.Random) -> Board:
    return random_lianliankan(size[0], size[1], rng)


# ---------------------------------------------------------------- the table


@dataclass(frozen=True)
class Oracle:
    """What ``crosscheck --random`` needs of a puzzle: a random instance of a
    size (width, height), whether it is tiny enough for brute force, and the
    brute-force enumeration (None: the backends are compared with each other)."""

    random_instance: Callable[[tuple[int, int], random.Random], Any]
    tiny: Callable[[Any], bool]
    solutions: Callable[[Any], Iterator[Any]] | None
    default_size: tuple[int, int]


ORACLES: dict[str, Oracle] = {
    "futoshiki": Oracle(_futoshiki_instance, lambda p: p.n <= 4, futoshiki_solutions, (4, 4)),
    "numberlink": Oracle(_numberlink_instance, lambda p: len(p.open_cells) <= 16,
                         numberlink_solutions, (4, 4)),
    "lianliankan": Oracle(_lianliankan_instance, lambda p: False, None, (4, 3)),
}

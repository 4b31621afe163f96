"""The seed article's Numberlink generator, and the puzzle of a set of paths.

``seed_board`` draws the solution first: union-find keeps the paths as sets of
cells; each new path starts at a random pair of free neighbours found by a scan
from a random cell, grows through free cells that touch no earlier cell of the
same path, and stops when it cannot grow.  Its two ends become the pair's
labels; cells left on no path become solid.  ``board_of_paths`` turns paths
into their puzzle and solution (this generator's, the large boards' of
``paths_gen``, and the well-designed generator's repairs in
``search.pipelines.numberlink_generate``).
"""

from __future__ import annotations

import random

from search.numberlink.io import make_puzzle
from search.numberlink.model import Cell, Numberlink, Solution

# The article's direction order: up, left, down, right; a scan starts at a random one.
DIRECTIONS = ((-1, 0), (0, -1), (1, 0), (0, 1))


class UnionFind:
    """Disjoint sets of cell numbers with path compression and union by rank
    (the article's ``findset`` climbed only one parent link)."""

    def __init__(self, size: int):
        self.parent = list(range(size))
        self.rank = [0] * size

    def find(self, x: int) -> int:
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, x: int, y: int) -> None:
        x, y = self.find(x), self.find(y)
        if x == y:
            return
        if self.rank[x] > self.rank[y]:
            self.parent[y] = x
        else:
            self.parent[x] = y
            if self.rank[x] == self.rank[y]:
                self.rank[y] += 1


class SeedGenerator:
    """The article's ``addpath`` loop on an h x w board (the article fixes 7 x 7)."""

    def __init__(self, height: int, width: int, rng: random.Random):
        self.h, self.w, self.rng = height, width, rng
        self.sets = UnionFind(height * width)
        self.path_number = [0] * (height * width)

    def _step(self, k: int, d: int) -> int | None:
        r, c = divmod(k, self.w)
        r, c = r + DIRECTIONS[d][0], c + DIRECTIONS[d][1]
        return r * self.w + c if 0 <= r < self.h and 0 <= c < self.w else None

    def start_pair(self) -> tuple[int, int] | None:
        """Scan from a random cell for a free cell with a free neighbour (``neighbour``)."""
        size = self.h * self.w
        k = self.rng.randrange(size)
        for _ in range(size):
            k %= size
            if self.path_number[k] == 0:
                first = self.rng.randrange(4)
                for turn in range(4):
                    n = self._step(k, (first + turn) % 4)
                    if n is not None and self.path_number[n] == 0:
                        return k, n
            k += 1
        return None

    def next_cell(self, k: int) -> int | None:
        """A free neighbour whose only neighbour on this path is ``k`` (``valid_next``)."""
        first = self.rng.randrange(4)
        own = self.sets.find(k)
        for turn in range(4):
            n = self._step(k, (first + turn) % 4)
            if n is None or self.path_number[n] != 0:
                continue
            beside = sum(
                1 for d in range(4)
                if (m := self._step(n, d)) is not None and self.sets.find(m) == own
            )
            if beside <= 1:
                return n
        return None

    def add_path(self, number: int) -> list[int] | None:
        """Grow path ``number``; None when no two free neighbours are left."""
        start = self.start_pair()
        if start is None:
            return None
        k, n = start
        self.path_number[k] = self.path_number[n] = number
        self.sets.union(k, n)
        path = [k, n]
        while (following := self.next_cell(path[-1])) is not None:
            self.path_number[following] = number
            self.sets.union(path[-1], following)
            path.append(following)
        return path

    def run(self) -> tuple[Numberlink, Solution]:
        paths = []
        while (path := self.add_path(len(paths) + 1)) is not None:
            paths.append([divmod(k, self.w) for k in path])
        solid = frozenset(divmod(k, self.w) for k, n in enumerate(self.path_number) if n == 0)
        return board_of_paths(self.h, self.w, paths, solid)


def board_of_paths(height: int, width: int, paths: list[list[Cell]],
                   blocked: frozenset[Cell]) -> tuple[Numberlink, Solution]:
    """The puzzle whose pairs are the paths' ends, and the paths as its solution."""
    ends = {str(i + 1): [path[0], path[-1]] for i, path in enumerate(paths)}
    puzzle = make_puzzle(height, width, ends, blocked, "<generated>")
    by_label = {str(i + 1): path for i, path in enumerate(paths)}
    ordered = []
    for pair in puzzle.pairs:
        path = by_label[pair.label]
        ordered.append(tuple(path if path[0] == pair.a else path[::-1]))
    return puzzle, Solution(tuple(ordered))


def cut_steps(solution: Solution) -> list[tuple[int, int, frozenset[Cell]]]:
    """The steps of ``solution`` a cut may take (path, index, step): both
    halves keep two cells or more."""
    return [(p, i, frozenset((path[i], path[i + 1]))) for p, path in enumerate(solution.paths)
            for i in range(1, len(path) - 2)]


def parted(solution: Solution, other: Solution) -> list[tuple[int, int]]:
    """(path, index) of the steps a cut may take where ``solution`` takes a step
    that ``other`` does not (a cut there rules ``other`` out)."""
    theirs = other.edges
    return [(p, i) for p, i, step in cut_steps(solution) if step not in theirs]


def cut(puzzle: Numberlink, solution: Solution, where: dict[int, int]
        ) -> tuple[Numberlink, Solution]:
    """The board with each path p of ``solution`` cut after its step ``where[p]``
    (two pairs out of one, in its place)."""
    paths = []
    for p, path in enumerate(solution.paths):
        i = where.get(p)
        paths += [list(path)] if i is None else [list(path[: i + 1]), list(path[i + 1:])]
    return board_of_paths(puzzle.height, puzzle.width, paths, puzzle.blocked)


def seed_board(height: int, width: int, seed: int) -> tuple[Numberlink, Solution]:
    """The seed article's generator on an h x w board with a reproducible seed."""
    return SeedGenerator(height, width, random.Random(seed)).run()

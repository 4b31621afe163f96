"""The brute-force Numberlink oracle, and random instances.

Every choice of one simple path per pair, pair after pair, on the free cells,
then the full-cover rule: the plainest reading of the rules, sharing no code
with any backend (tiny means at most 16 open cells).  It reads only the model.
``graph_problems`` is a second verifier on networkx's graphs, for the crosscheck
and the tests (networkx loads inside it: no command's start-up pays for it).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from search.numberlink.model import Cell, Numberlink, Pair, Solution

DEFAULT_SIZE = (4, 4)  # crosscheck --random's (width, height)


def tiny(puzzle: Numberlink) -> bool:
    """Small enough for the brute force."""
    return len(puzzle.open_cells) <= 16


def solutions(puzzle: Numberlink, *, self_avoiding: bool = False) -> Iterator[Solution]:
    """Every solution under the puzzle's rule (with ``full_cover`` the paths use
    every open cell); with ``self_avoiding`` only paths that never run beside
    themselves."""
    ends = set(puzzle.endpoint)
    used: set[Cell] = set()
    paths: list[tuple[Cell, ...]] = []

    def walk(i: int) -> Iterator[Solution]:
        if i == len(puzzle.pairs):
            if not puzzle.full_cover or len(used) == len(puzzle.open_cells):
                yield Solution(tuple(paths))
            return
        pair = puzzle.pairs[i]
        for path in _simple_paths(puzzle, pair.a, pair.b, ends, used, self_avoiding):
            used.update(path)
            paths.append(path)
            yield from walk(i + 1)
            paths.pop()
            used.difference_update(path)

    return walk(0)


def count(puzzle: Numberlink, *, self_avoiding: bool = False) -> int:
    return sum(1 for _ in solutions(puzzle, self_avoiding=self_avoiding))


def _simple_paths(puzzle: Numberlink, a: Cell, b: Cell, ends: set[Cell], used: set[Cell],
                  self_avoiding: bool) -> Iterator[tuple[Cell, ...]]:
    """Every simple path from a to b through cells no other path or end holds."""
    path, on = [a], {a}

    def extend(cell: Cell) -> Iterator[tuple[Cell, ...]]:
        for nb in puzzle.neighbours(cell):
            if nb in on or nb in used or (nb != b and nb in ends):
                continue
            if self_avoiding and any(m in on and m != cell for m in puzzle.neighbours(nb)):
                continue  # nb would run beside an earlier cell of the path
            if nb == b:
                yield (*path, b)
                continue
            on.add(nb)
            path.append(nb)
            yield from extend(nb)
            path.pop()
            on.discard(nb)

    return extend(a)


def graph_problems(puzzle: Numberlink, solution: Solution) -> list[str]:
    """Violations of the rules, found on networkx's grid graph of the open cells
    (empty list = valid solution): each pair's path is a simple path of that
    graph from one end to the other, the paths share no cell and cross no other
    pair's end, and under the full cover every open cell is on a path."""
    import networkx as nx  # optional (the test extra) and slow to import: only here

    grid = nx.grid_2d_graph(puzzle.height, puzzle.width)
    grid.remove_nodes_from(puzzle.blocked)
    if len(solution.paths) != len(puzzle.pairs):
        return [f"{len(solution.paths)} paths for {len(puzzle.pairs)} pairs"]
    problems: list[str] = []
    owner: dict[Cell, int] = {}
    for i, (pair, path) in enumerate(zip(puzzle.pairs, solution.paths)):
        if len(path) < 2 or (path[0], path[-1]) != (pair.a, pair.b):
            problems.append(f"path {pair.label} does not run from {pair.a} to {pair.b}")
        if not nx.is_simple_path(grid, list(path)):
            problems.append(f"path {pair.label} is no simple path of the open cells")
        for cell in path:
            if puzzle.endpoint.get(cell, i) != i:
                problems.append(f"path {pair.label} runs through another pair's end {cell}")
            if owner.setdefault(cell, i) != i:
                problems.append(f"paths {puzzle.pairs[owner[cell]].label} and {pair.label} "
                                f"share {cell}")
    if puzzle.full_cover and not problems and len(owner) != grid.number_of_nodes():
        problems.append(f"{grid.number_of_nodes() - len(owner)} open cells on no path")
    return problems


def random_puzzle(height: int, width: int, rng: random.Random) -> Numberlink:
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


def random_instance(size: tuple[int, int], rng: random.Random) -> Numberlink:
    """crosscheck --random's instance of a size (width, height)."""
    return random_puzzle(size[1], size[0], rng)


def random_board(rng: random.Random, largest: int = 5) -> Numberlink:
    """A full-cover board up to ``largest`` x ``largest`` with 1+ pairs and a few
    blocked cells (ends dropped anywhere)."""
    while True:
        h, w = rng.randint(1, largest), rng.randint(1, largest)
        cells = [(r, c) for r in range(h) for c in range(w)]
        if len(cells) < 2:
            continue
        rng.shuffle(cells)
        k = rng.randint(1, max(1, len(cells) // 4))
        blocked = rng.randint(0, (len(cells) - 2 * k) // 5)
        pairs = tuple(Pair(str(i + 1), *sorted(cells[2 * i: 2 * i + 2])) for i in range(k))
        return Numberlink(h, w, pairs, frozenset(cells[2 * k: 2 * k + blocked]))

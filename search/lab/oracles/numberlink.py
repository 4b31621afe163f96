"""A brute-force Numberlink counter for small boards, and random small boards.

Independent of every backend: it lists every simple path of each pair in
turn and keeps the combinations that share no cell.
"""

from __future__ import annotations

import random

from search.numberlink.model import Cell, Numberlink, Pair


def brute_count(puzzle: Numberlink, *, self_avoiding: bool = False) -> int:
    """Solutions under the puzzle's rule set (only paths that never run beside
    themselves when ``self_avoiding``)."""
    ends = set(puzzle.endpoint)
    total = 0

    def paths(a: Cell, b: Cell, used: set[Cell]):
        path, on = [a], {a}

        def extend(cell: Cell):
            if cell == b:
                yield list(path)
                return
            for n in puzzle.neighbours(cell):
                if n in on or n in used or (n != b and n in ends):
                    continue
                if self_avoiding and any(m in on and m != cell for m in puzzle.neighbours(n)):
                    continue
                path.append(n)
                on.add(n)
                yield from extend(n)
                path.pop()
                on.discard(n)

        yield from extend(a)

    def combine(i: int, used: set[Cell]) -> None:
        nonlocal total
        if i == len(puzzle.pairs):
            if not puzzle.full_cover or len(used) == len(puzzle.open_cells):
                total += 1
            return
        pair = puzzle.pairs[i]
        for path in paths(pair.a, pair.b, used):
            combine(i + 1, used | set(path))

    combine(0, set())
    return total


def random_board(rng: random.Random, largest: int = 5) -> Numberlink:
    """A board up to ``largest`` x ``largest`` with 1+ pairs and a few blocked cells."""
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

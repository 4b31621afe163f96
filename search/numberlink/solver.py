"""The hand-written Numberlink search: depth-first path extension.

Each pair grows one path from its more constrained end.  At every node the
pair with the fewest moves is extended (a pair with one move is a forced
move; with none, a dead end), and after each step the board is pruned:

- a pair whose head and goal lie in different regions of empty cells;
- under full cover, an empty cell with fewer than two ways in or out, and a
  region of empty cells that no unfinished pair can reach with both ends.

It enumerates every solution under either rule set, so it counts and decides
uniqueness.  ``no_self_touch=True`` keeps only paths that never run beside
themselves; under the lenient rule every solution shortcuts to such a one, so
``solve`` uses it there (and tries it first under full cover, falling back to
the plain search when it finds nothing).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator

from search.core import Backend, Deadline, LimitReached, SolveResult, Status
from search.numberlink.model import Numberlink, Solution

WALL, EMPTY = -2, -1


class Board:
    """Mutable search state on a grid padded with a ring of walls.

    ``cell[i]`` is WALL, EMPTY or the index of the pair whose path holds it.
    Each pair grows from both ends: head ``2p`` from ``a``, head ``2p + 1``
    from ``b``; the path is complete when the two heads join.
    """

    def __init__(self, puzzle: Numberlink, *, no_self_touch: bool):
        self.puzzle = puzzle
        self.full_cover = puzzle.full_cover
        self.no_self_touch = no_self_touch
        w = self.stride = puzzle.width + 2
        self.cell = [WALL] * (w * (puzzle.height + 2))
        for r, c in puzzle.open_cells:
            self.cell[self.index((r, c))] = EMPTY
        self.around = [() if v == WALL else (i - w, i + 1, i + w, i - 1)
                       for i, v in enumerate(self.cell)]
        self.empty = len(puzzle.open_cells) - 2 * len(puzzle.pairs)
        self.sides: list[list[int]] = []  # side 2p grows from a, side 2p + 1 from b
        for p, pair in enumerate(puzzle.pairs):
            a, b = self.index(pair.a), self.index(pair.b)
            self.cell[a] = self.cell[b] = p
            self.sides += [[a], [b]]
        self.heads = {side[0] for side in self.sides}
        self.open = set(range(len(puzzle.pairs)))
        self.nodes = 0

    def index(self, cell: tuple[int, int]) -> int:
        return (cell[0] + 1) * self.stride + cell[1] + 1

    def solution(self) -> Solution:
        w = self.stride
        paths = []
        for p in range(len(self.puzzle.pairs)):
            cells = self.sides[2 * p] + self.sides[2 * p + 1][::-1]
            paths.append(tuple((i // w - 1, i % w - 1) for i in cells if i >= 0))
        return Solution(tuple(paths))

    # ------------------------------------------------------------ moves

    def ways(self, i: int) -> int:
        """How many neighbours of an empty cell could join it to a path."""
        cell, heads, n = self.cell, self.heads, 0
        for j in self.around[i]:
            if cell[j] == EMPTY or j in heads:
                n += 1
        return n

    def moves(self, s: int) -> list[int]:
        """The next cells of side ``s``: empty neighbours, or the other head (join)."""
        cell, p = self.cell, s >> 1
        x, y = self.sides[s][-1], self.sides[s ^ 1][-1]
        out, forced = [], None
        for n in self.around[x]:
            if n == y:
                if self.no_self_touch:
                    return [n]  # beside its other end, a path that never touches itself ends
                out.append(n)
            elif cell[n] == EMPTY:
                if self.no_self_touch and self.touches(n, p, x, y):
                    continue
                if self.full_cover and self.ways(n) <= 2:
                    if forced is not None:
                        return []  # two cells that only this head can fill
                    forced = n
                out.append(n)
        if forced is not None:
            return [forced]
        if self.full_cover and len(out) > 1:
            out.sort(key=lambda n: n != y and self.ways(n))  # hug walls and other paths
        return out

    def touches(self, n: int, p: int, x: int, y: int) -> bool:
        """Would path ``p``, stepping from ``x`` to ``n``, run beside itself?"""
        cell = self.cell
        for m in self.around[n]:  # noqa: SIM110 (a loop is faster here)
            if cell[m] == p and m != x and m != y:
                return True
        return False

    def advance(self, s: int, n: int) -> None:
        side = self.sides[s]
        if n == self.sides[s ^ 1][-1]:
            self.open.discard(s >> 1)
            self.heads.discard(side[-1])
            self.heads.discard(n)
            side.append(-1)  # marks the join
        else:
            self.heads.discard(side[-1])
            self.heads.add(n)
            side.append(n)
            self.cell[n] = s >> 1
            self.empty -= 1

    def retreat(self, s: int) -> None:
        side = self.sides[s]
        n = side.pop()
        if n == -1:
            self.open.add(s >> 1)
            self.heads.add(side[-1])
            self.heads.add(self.sides[s ^ 1][-1])
        else:
            self.heads.discard(n)
            self.heads.add(side[-1])
            self.cell[n] = EMPTY
            self.empty += 1

    # ------------------------------------------------------------ pruning

    def dead_end_near(self, centres) -> bool:
        """Full cover: an empty cell near the last step with < 2 ways to join a path."""
        cell, around, ways = self.cell, self.around, self.ways
        for centre in centres:
            for i in around[centre]:
                if cell[i] == EMPTY and ways(i) < 2:
                    return True
        return False

    def regions_fail(self) -> bool:
        """A pair cut off from itself, or (full cover) a region no pair can fill."""
        cell, around = self.cell, self.around
        region = [-1] * len(cell)
        count = 0
        for start, value in enumerate(cell):
            if value != EMPTY or region[start] >= 0:
                continue
            region[start] = count
            stack = [start]
            while stack:
                for j in around[stack.pop()]:
                    if cell[j] == EMPTY and region[j] < 0:
                        region[j] = count
                        stack.append(j)
            count += 1
        filled = [False] * count
        sides = self.sides
        for p in self.open:
            x, y = sides[2 * p][-1], sides[2 * p + 1][-1]
            near_x = {region[j] for j in around[x]}
            shared = [r for r in {region[j] for j in around[y]} if r >= 0 and r in near_x]
            if not shared and y not in around[x]:
                return True
            for r in shared:
                filled[r] = True
        return self.full_cover and not all(filled)

    # ------------------------------------------------------------ search

    def search(self, deadline: Deadline) -> Iterator[Solution]:
        self.nodes += 1
        if not self.nodes & 1023:
            deadline.check()
        best, best_moves = -1, None
        for p in self.open:
            for s in (2 * p, 2 * p + 1):
                moves = self.moves(s)
                if not moves:
                    return
                if best_moves is None or len(moves) < len(best_moves):
                    best, best_moves = s, moves
                    if len(moves) == 1:
                        break
            if len(best_moves) == 1:
                break
        if best_moves is None:
            if not (self.full_cover and self.empty):
                yield self.solution()
            return
        # Regions are checked before branching only: a forced move cannot be
        # avoided, so the check waits until the next real choice.
        if len(best_moves) > 1 and self.regions_fail():
            return
        x, y = self.sides[best][-1], self.sides[best ^ 1][-1]
        for n in best_moves:
            self.advance(best, n)
            if not (self.full_cover and self.dead_end_near((x, n) if n != y else (x, y))):
                yield from self.search(deadline)
            self.retreat(best)

    def run(self, deadline: Deadline) -> Iterator[Solution]:
        """All solutions, after checking the start position itself."""
        depth = 4 * len(self.cell) + 1000
        if sys.getrecursionlimit() < depth:
            sys.setrecursionlimit(depth)
        inside = [self.index(c) for c in self.puzzle.open_cells]
        if self.full_cover and any(self.cell[i] == EMPTY and self.ways(i) < 2 for i in inside):
            return
        if self.regions_fail():
            return
        yield from self.search(deadline)


class SearchBackend(Backend):
    """Exhaustive depth-first search over path extensions; both rule sets.

    Option ``no_self_touch=True`` restricts every call to paths that never run
    beside themselves (the convention of Flow Free and of the well-designed check).
    """

    name = "search"

    def __init__(self, **options):
        super().__init__(**options)
        self.no_self_touch = bool(options.get("no_self_touch", False))

    def solutions(self, puzzle: Numberlink, *, time_limit: float | None = None,
                  no_self_touch: bool | None = None) -> Iterator[Solution]:
        nst = self.no_self_touch if no_self_touch is None else no_self_touch
        board = Board(puzzle, no_self_touch=nst)
        self.effort = {"nodes": 0}
        try:
            for solution in board.run(Deadline(time_limit)):
                self.effort["nodes"] = board.nodes
                yield solution
        finally:
            self.effort["nodes"] = board.nodes

    def solve(self, puzzle: Numberlink, *, time_limit: float | None = None) -> SolveResult:
        """Try paths that never touch themselves first: under the lenient rule
        that is complete; under full cover, fall back to every path."""
        start = time.perf_counter()
        deadline = Deadline(time_limit)
        passes = [True] if self.no_self_touch or not puzzle.full_cover else [True, False]
        nodes, status, found = 0, Status.UNSAT, None
        for nst in passes:
            search = self.solutions(puzzle, time_limit=deadline.remaining(), no_self_touch=nst)
            try:
                found = next(search, None)
            except LimitReached:
                status = Status.LIMIT
            finally:
                search.close()
                nodes += self.effort["nodes"]
            if found is not None:
                status = Status.SOLVED
            if status is not Status.UNSAT:
                break
        self.effort = {"nodes": nodes}
        return SolveResult(status, found, time.perf_counter() - start, dict(self.effort))

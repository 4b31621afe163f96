"""Large full-cover Numberlink boards: random space-filling paths, keep the ends.

The style of thomasahle's generators (written here from the idea, not their
code): cover the board with short paths, shake them, then glue paths end to
end until few are left.  Every cell stays on a path, and no path ever runs
beside itself, so the board has a known full-cover solution that obeys the
no-self-touch convention of Flow Free (the answer benchmarks check against).

1. Tile the board along a snake (boustrophedon) into pieces of two cells (one
   of three when the area is odd).
2. Shake: turn the two dominoes of a random 2 x 2 square that holds two of
   them, many times (a random walk on the domino tilings).
3. Glue: visit path ends in random order; join an end to a neighbouring end
   of another path when the joined path would touch itself nowhere else.
   Stop at ``pairs`` paths, or when no glue is left.

Everything draws from one ``random.Random(seed)``: same seed, same board.
"""

from __future__ import annotations

import math
import random

from search.core.contract import GridcpError
from search.numberlink.generate import board_of_paths
from search.numberlink.model import Cell, Numberlink, Solution

SHAKES_PER_CELL = 4  # 2 x 2 turns tried per cell: enough to forget the snake
WANDER_PER_CELL = 200  # end moves tried per cell before settling for more pairs


def default_pairs(height: int, width: int) -> int:
    """About sqrt(area) pairs, the middle of thomasahle's gen.py range."""
    return max(1, round(math.sqrt(height * width)))


def snake_pieces(height: int, width: int) -> list[list[Cell]]:
    """The board cut along a snake into paths of two cells (the last of three
    on an odd area)."""
    snake = [(r, c if r % 2 == 0 else width - 1 - c) for r in range(height) for c in range(width)]
    pieces = [snake[i:i + 2] for i in range(0, len(snake) - 1, 2)]
    if len(snake) % 2:
        if pieces:
            pieces[-1].append(snake[-1])
        else:
            pieces = [snake]
    return pieces


class Glue:
    """Paths as cell lists; ``owner`` maps each cell to the id of its path."""

    def __init__(self, height: int, width: int, pieces: list[list[Cell]]):
        self.h, self.w = height, width
        self.paths: dict[int, list[Cell]] = dict(enumerate(pieces))
        self.owner: dict[Cell, int] = {c: k for k, piece in self.paths.items() for c in piece}
        self.near = {(r, c): [(y, x) for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                              if 0 <= y < height and 0 <= x < width]
                     for r in range(height) for c in range(width)}

    def around(self, cell: Cell) -> list[Cell]:
        """The neighbours of a cell (a shared list: copy it before changing it)."""
        return self.near[cell]

    def shake(self, rng: random.Random, tries: int) -> None:
        """Turn pairs of parallel dominoes in random 2 x 2 squares."""
        if self.h < 2 or self.w < 2:
            return
        for _ in range(tries):
            r, c = rng.randrange(self.h - 1), rng.randrange(self.w - 1)
            a, b, d, e = (r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)
            pa, pb, pd, pe = (self.owner[x] for x in (a, b, d, e))
            if len(self.paths[pa]) != 2 or len(self.paths[pd]) != 2:
                continue
            if pa == pb and pd == pe and pa != pd:  # two across: make them two down
                self._set(pa, [a, d])
                self._set(pd, [b, e])
            elif pa == pd and pb == pe and pa != pb:  # two down: make them two across
                self._set(pa, [a, b])
                self._set(pb, [d, e])

    def _set(self, k: int, cells: list[Cell]) -> None:
        self.paths[k] = cells
        for c in cells:
            self.owner[c] = k

    def fits(self, k: int, end: Cell, j: int, start: Cell) -> bool:
        """Would path k (ending at ``end``) and path j (starting at ``start``),
        joined by that step, touch nowhere else?"""
        small, other = (k, j) if len(self.paths[k]) <= len(self.paths[j]) else (j, k)
        link = {end, start}
        owner = self.owner
        for cell in self.paths[small]:
            for n in self.around(cell):
                if owner[n] == other and not (cell in link and n in link):
                    return False
        return True

    def join(self, k: int, end: Cell, j: int, start: Cell) -> int:
        """Join path k's end to path j's start; the id that is gone."""
        a, b = self.paths[k], self.paths[j]
        if a[-1] != end:
            a.reverse()
        if b[0] != start:
            b.reverse()
        if len(a) < len(b):  # relabel the shorter path
            b[:0] = a
            keep, gone = j, k
        else:
            a.extend(b)
            keep, gone = k, j
        for c in self.paths[gone]:
            self.owner[c] = keep
        del self.paths[gone]
        return gone

    def wander(self, rng: random.Random, target: int, steps: int) -> None:
        """Glue, or else move an end: an end beside the inside of another path
        takes over that path's part beyond the cell it steps on (the rest of
        that path keeps at least two cells).  Moving ends keeps the number of
        paths and frees glue that the plain pass could not find."""
        owner, paths = self.owner, self.paths
        ids = list(paths)  # the paths' ids in the dict's order, kept through joins
        for _ in range(steps):
            if len(paths) <= target:
                return
            k = rng.choice(ids)
            a = paths[k]
            end = a[-1] if rng.random() < 0.5 else a[0]
            n = rng.choice(self.around(end))
            j = owner[n]
            if j == k:
                continue
            b = paths[j]
            if n == b[0] or n == b[-1]:
                if self.fits(k, end, j, n):
                    ids.remove(self.join(k, end, j, n))
                continue
            i = b.index(n)
            if rng.random() < 0.5:
                taken, rest = b[i:], b[:i]
            else:
                taken, rest = b[i::-1], b[i + 1:]
            if len(rest) < 2 or not self._apart(k, end, taken):
                continue
            if a[-1] != end:
                a.reverse()
            a.extend(taken)
            paths[j] = rest
            for c in taken:
                owner[c] = k

    def _apart(self, k: int, end: Cell, taken: list[Cell]) -> bool:
        """Does ``taken`` touch path k only by the step end -> taken[0]?"""
        owner, first = self.owner, taken[0]
        for cell in taken:
            for n in self.near[cell]:
                if owner[n] == k and not (cell == first and n == end):
                    return False
        return True

    def glue(self, rng: random.Random, target: int) -> None:
        """Join ends until ``target`` paths are left or no join fits."""
        while len(self.paths) > target:
            ends = [c for p in self.paths.values() for c in (p[0], p[-1])]
            rng.shuffle(ends)
            joined = False
            for end in ends:
                if len(self.paths) <= target:
                    return
                k = self.owner[end]
                path = self.paths[k]
                if end != path[0] and end != path[-1]:
                    continue  # no longer an end: glued earlier in this pass
                near = list(self.around(end))
                rng.shuffle(near)
                for n in near:
                    j = self.owner[n]
                    other = self.paths[j]
                    if j != k and (n == other[0] or n == other[-1]) and self.fits(k, end, j, n):
                        self.join(k, end, j, n)
                        joined = True
                        break
            if not joined:
                return


def large_board(height: int, width: int, seed: int, *, pairs: int | None = None
                ) -> tuple[Numberlink, Solution]:
    """A full-cover board from random space-filling paths, and its solution."""
    if height * width < 4:
        raise GridcpError(f"a {width}x{height} board is too small for space-filling paths")
    rng = random.Random(seed)
    glue = Glue(height, width, snake_pieces(height, width))
    glue.shake(rng, SHAKES_PER_CELL * height * width)
    target = pairs or default_pairs(height, width)
    glue.glue(rng, target)
    glue.wander(rng, target, WANDER_PER_CELL * height * width)
    return board_of_paths(height, width, list(glue.paths.values()), frozenset())

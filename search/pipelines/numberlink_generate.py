"""Numberlink generators: the seed article's, and one that only emits
well-designed puzzles.

The seed's generator (``seed_board``) draws the solution first: union-find
keeps the paths as sets of cells; each new path starts at a random pair of
free neighbours found by a scan from a random cell, grows through free cells
that touch no earlier cell of the same path, and stops when it cannot grow.
Its two ends become the pair's labels; cells left on no path become solid.

The guaranteed generator (``well_designed``) grows such a board and repairs
it: while some other self-avoiding lenient solution T exists, it cuts a path
of the board's solution at a step that T does not take, making two pairs out
of one.  More labels only remove solutions, so this ends; when no other
self-avoiding solution is left, the puzzle is well-designed (see check.py).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from search.core.contract import GridcpError
from search.core.limits import check_cells
from search.core.outputs import out_dir, write_file
from search.numberlink.io import format_puzzle, format_solution, make_puzzle
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


def seed_board(height: int, width: int, seed: int) -> tuple[Numberlink, Solution]:
    """The seed article's generator on an h x w board with a reproducible seed."""
    return SeedGenerator(height, width, random.Random(seed)).run()


# ---------------------------------------------------------------- well-designed


def _cuttable(solution: Solution, other: Solution) -> list[tuple[int, int]]:
    """(path, step) pairs where ``solution`` takes a step that ``other`` does not,
    leaving at least two cells on each side of the cut."""
    theirs = other.edges
    out = []
    for p, path in enumerate(solution.paths):
        for i in range(1, len(path) - 2):
            if frozenset((path[i], path[i + 1])) not in theirs:
                out.append((p, i))
    return out


def well_designed(height: int, width: int, seed: int, *, backend: str = "search",
                  time_limit: float | None = None) -> tuple[Numberlink, Solution, int]:
    """A well-designed puzzle, its solution, and how many boards were drawn."""
    from search.numberlink import KIND

    engine = KIND.backend(backend, no_self_touch=True)
    rng = random.Random(seed)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    boards = 0
    while True:
        if deadline is not None and time.perf_counter() > deadline:
            raise GridcpError(f"no well-designed {height}x{width} puzzle within {time_limit} s")
        boards += 1
        puzzle, solution = SeedGenerator(height, width, rng).run()
        while True:
            found = engine.unique(puzzle.lenient())
            others = [s for s in found.solutions if s.edges != solution.edges]
            if not others:
                if found.solutions:
                    return puzzle, solution, boards
                break  # cannot happen (the board's own solution exists); draw again
            cuts = _cuttable(solution, others[0])
            if not cuts:
                break
            p, i = rng.choice(cuts)
            paths = [list(path) for path in solution.paths]
            cut = paths.pop(p)
            paths += [cut[: i + 1], cut[i + 1:]]
            puzzle, solution = board_of_paths(height, width, paths, puzzle.blocked)


# ---------------------------------------------------------------- command line

METHODS = ("seed", "well-designed", "paths")


def parse_size(text: str | None, default: int = 7) -> tuple[int, int]:
    """(height, width) of ``"7"`` (7 x 7) or ``"12x10"`` (12 columns, 10 rows: WxH)."""
    if text is None:
        return default, default
    parts = text.lower().split("x")
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        raise GridcpError(f"bad size {text!r}: use N or WxH, e.g. 7 or 12x10") from None
    if len(numbers) == 1:
        numbers *= 2
    if len(numbers) != 2 or min(numbers) < 1:
        raise GridcpError(f"bad size {text!r}: use N or WxH, e.g. 7 or 12x10")
    check_cells(numbers[1], numbers[0], "--size")
    return numbers[1], numbers[0]


def add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--check", action="store_true",
                        help="with --method seed: check each puzzle and print the share "
                             "of well-designed ones")
    parser.add_argument("--check-backend", default=None, metavar="NAME",
                        help="backend for the well-designed check (default: search)")
    parser.add_argument("--pairs", type=int, default=None, metavar="N",
                        help="with --method paths: glue the paths down to N pairs "
                             "(default: about the square root of the area)")


def generate(args: argparse.Namespace) -> int:
    """``--method seed``: the article's generator; ``--method paths``: large
    full-cover boards from space-filling paths (paths_gen.py); default:
    well-designed puzzles only."""
    height, width = parse_size(args.size)
    method = args.method or "well-designed"
    if method not in METHODS:
        raise GridcpError(f"unknown method {method!r} (known: {', '.join(METHODS)})")
    pairs = getattr(args, "pairs", None)
    if pairs is not None and pairs < 1:
        raise GridcpError(f"--pairs {pairs}: a board needs at least one pair")
    count = 1 if args.count is None else args.count
    if count < 0:
        raise GridcpError(f"--count must be at least 0, not {count}")
    seed = 0 if args.seed is None else args.seed
    checker = args.check_backend or "search"
    out = out_dir(args.out) if args.out else None
    if method == "seed" and args.check:
        return _seed_share(height, width, seed, count, checker, args.json)
    start = time.perf_counter()
    for s in range(seed, seed + count):
        if method == "seed":
            puzzle, solution = seed_board(height, width, s)
        elif method == "paths":
            from search.numberlink.paths_gen import large_board

            puzzle, solution = large_board(height, width, s, pairs=pairs)
        else:
            puzzle, solution, _ = well_designed(height, width, s, backend=checker)
        _emit(puzzle, solution, s, out, args.json, method, getattr(args, "force", False))
    wall = time.perf_counter() - start
    print(f"{count} {method} {width}x{height} puzzle(s) in {wall:.2f} s "
          f"({count / max(wall, 1e-9):.1f}/s)", file=sys.stderr)
    return 0


def _emit(puzzle: Numberlink, solution: Solution, seed: int, out: Path | None,
          as_json: bool, method: str, force: bool = False) -> None:
    text = format_puzzle(puzzle) + "\n" + format_solution(puzzle, solution)
    name = f"numberlink_{puzzle.width}x{puzzle.height}_{method}_{seed}.nl"
    if out:
        write_file(out / name, text, force=force)
    if as_json:
        from search.numberlink.io import solution_json
        file = {"file": str(out / name)} if out else {}
        print(json.dumps({"seed": seed, "method": method, "puzzle": format_puzzle(puzzle),
                          **solution_json(puzzle, solution), **file}))
    elif out:
        print(out / name)
    else:
        print(text)


def _seed_share(height: int, width: int, seed: int, count: int, backend: str,
                as_json: bool) -> int:
    from search.pipelines.numberlink_check import check

    good, reasons = 0, {}
    start = time.perf_counter()
    for s in range(seed, seed + count):
        puzzle, _ = seed_board(height, width, s)
        report = check(puzzle, backend=backend)
        good += bool(report.ok)
        word = report.verdict.split(": ", 1)[-1]
        reasons[word] = reasons.get(word, 0) + 1
    wall = time.perf_counter() - start
    if as_json:
        print(json.dumps({"size": f"{width}x{height}", "seeds": [seed, seed + count - 1],
                          "well_designed": good, "puzzles": count, "verdicts": reasons,
                          "wall": round(wall, 3)}))
    else:
        print(f"well-designed: {good} of {count} ({100 * good / count:.1f}%) seed-generator "
              f"{width}x{height} puzzles, seeds {seed}..{seed + count - 1}")
        for word, n in sorted(reasons.items(), key=lambda kv: -kv[1]):
            print(f"  {n:6d}  {word}")
    return 0



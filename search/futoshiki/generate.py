"""Futoshiki generator: a random Latin square, clues added until it is the only
solution, then every clue dropped that the uniqueness does not need.

Every clue the square allows (its values as givens, the inequality between every
two neighbours) is put in a random order, and the shortest prefix of that order
that leaves the square as the only solution is found by bisection: adding clues
only removes solutions, so uniqueness is monotone along the order.  The final
pass visits the chosen clues from the last offered to the first and keeps a clue
only if removing it lets a second solution in; later removals only shrink the
puzzle, so every clue left is necessary: the puzzle is minimal.  (With
``--method relations`` the givens come last in the order, so they are the first
to go: as few givens as the inequalities allow.)

Only the verdicts steer the generator, never which solutions a backend finds,
so puzzle k (1-based) of ``--seed S``, drawn from ``random.Random(S + k - 1)``,
is the same whichever backend checks uniqueness.

Difficulty is Tatham's grade (``grade.py``: trivial, easy, tricky, extreme,
recursive), and ``--difficulty G`` builds puzzles for it as Tatham's generator
does: below ``recursive`` the test along the order and in the final pass is
"the rules of grade G fill the grid" instead of "exactly one solution" (so
every clue left is needed by a solver of that grade), and a puzzle that a
lower grade solves is drawn again; ``recursive`` keeps the uniqueness test and
draws again until no deductive level solves the puzzle.

In Adjacent mode (``--adjacent``) every bar of the square is shown, as in
Tatham's Adjacent puzzles, and only givens are offered as clues.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any

from search.core.contract import GridcpError, Status
from search.core.outputs import generated, out_dir, write_file
from search.futoshiki import KIND
from search.futoshiki.formats import format_tatham, format_tatham_text
from search.futoshiki.grade import GRADES, grade, solved_at
from search.futoshiki.io import format_seed
from search.futoshiki.model import Cell, Futoshiki, Solution

DEFAULT_SIZE = 5
MAX_ATTEMPTS = 1000  # puzzles drawn per requested one before a difficulty is given up
METHODS = ("mixed", "relations", "givens")
DIFFICULTIES = ("any", *GRADES)

Clue = tuple[str, Any]  # ("given", cell) or ("less", (smaller cell, larger cell))


# ---------------------------------------------------------------- the Latin square


def random_latin_square(n: int, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Rows drawn one at a time as random perfect matchings of columns to the values
    still free in each column.  A Latin rectangle always extends to a square (Hall's
    theorem), so no row ever fails; the squares are varied but not exactly uniform."""
    free = [set(range(1, n + 1)) for _ in range(n)]  # values column c may still take
    rows = []
    for _ in range(n):
        owner: dict[int, int] = {}  # value -> column
        for column in rng.sample(range(n), n):
            _augment(column, free, owner, set(), rng)
        row = [0] * n
        for value, column in owner.items():
            row[column] = value
            free[column].discard(value)
        rows.append(tuple(row))
    return tuple(rows)


def _augment(column: int, free: list[set[int]], owner: dict[int, int], seen: set[int],
             rng: random.Random) -> bool:
    """Kuhn's augmenting path from ``column``, trying its values in random order."""
    for value in rng.sample(sorted(free[column]), len(free[column])):
        if value in seen:
            continue
        seen.add(value)
        if value not in owner or _augment(owner[value], free, owner, seen, rng):
            owner[value] = column
            return True
    return False


# ---------------------------------------------------------------- clues


def puzzle_of(n: int, square: tuple[tuple[int, ...], ...], clues: set[Clue],
              adjacent: bool = False) -> Futoshiki:
    """The puzzle of the clues; in Adjacent mode with every bar of the square."""
    givens = [[0] * n for _ in range(n)]
    less = []
    for kind, what in clues:
        if kind == "given":
            givens[what[0]][what[1]] = square[what[0]][what[1]]
        else:
            less.append(what)
    grid = tuple(map(tuple, givens))
    if adjacent:
        empty = Futoshiki.empty(n, adjacent=True)
        bars = tuple((a, b) for a, b in empty.neighbour_pairs()
                     if abs(square[a[0]][a[1]] - square[b[0]][b[1]]) == 1)
        return Futoshiki(n, grid, adjacent=True, bars=bars)
    return Futoshiki(n, grid, tuple(sorted(less)))


def clue_order(square: tuple[tuple[int, ...], ...], method: str,
               rng: random.Random) -> list[Clue]:
    """Every clue the square allows, in the random order they are offered: ``mixed``
    shuffles givens and inequalities together, ``relations`` puts the givens after the
    inequalities (used only when inequalities alone cannot decide), ``givens`` has no
    inequalities (a Latin-square completion puzzle)."""
    n = len(square)
    givens: list[Clue] = [("given", cell) for cell in _cells(n)]
    relations: list[Clue] = [("less", _ordered(square, a, b)) for a in _cells(n)
                             for b in ((a[0], a[1] + 1), (a[0] + 1, a[1]))
                             if b[0] < n and b[1] < n]
    if method == "mixed":
        return rng.sample(givens + relations, len(givens) + len(relations))
    if method == "relations":
        return rng.sample(relations, len(relations)) + rng.sample(givens, len(givens))
    return rng.sample(givens, len(givens))


def _cells(n: int) -> list[Cell]:
    return [(r, c) for r in range(n) for c in range(n)]


def _ordered(square: tuple[tuple[int, ...], ...], a: Cell, b: Cell) -> tuple[Cell, Cell]:
    return (a, b) if square[a[0]][a[1]] < square[b[0]][b[1]] else (b, a)


# ---------------------------------------------------------------- the generator


def generate_puzzle(n: int, rng: random.Random, *, backend: str | None = None,
                    method: str = "mixed", adjacent: bool = False,
                    solvable_at: str | None = None) -> tuple[Futoshiki, Solution]:
    """A minimal puzzle with exactly one solution, and that solution.

    ``solvable_at`` (a grade below ``recursive``): minimal for the rules of that
    grade instead: they fill the grid, and without any one clue they do not.
    """
    if method not in METHODS:
        raise GridcpError(f"unknown method {method!r} (known: {', '.join(METHODS)})")
    engine = uniqueness_backend(backend)
    square = random_latin_square(n, rng)

    def unique(clues: set[Clue]) -> bool:
        result = engine.unique(puzzle_of(n, square, clues, adjacent))
        if result.status not in (Status.UNIQUE, Status.MULTIPLE):
            raise GridcpError(f"backend {engine.name!r} answered {result.status} while "
                              "generating (expected UNIQUE or MULTIPLE)")
        return result.status is Status.UNIQUE

    def solved(clues: set[Clue]) -> bool:
        found = solved_at(puzzle_of(n, square, clues, adjacent))
        return found is not None and GRADES.index(found) <= GRADES.index(solvable_at)

    holds = unique if solvable_at in (None, "recursive") else solved

    order = clue_order(square, "givens" if adjacent else method, rng)
    low, high = 0, len(order)  # the whole order (every given included) is unique
    while low < high:  # the shortest unique prefix
        middle = (low + high) // 2
        if holds(set(order[:middle])):
            high = middle
        else:
            low = middle + 1
    clues = set(order[:high])
    for clue in reversed(order[:high]):  # then drop every clue not needed, last offered first
        clues.discard(clue)
        if not holds(clues):
            clues.add(clue)
    return puzzle_of(n, square, clues, adjacent), Solution(square)


def uniqueness_backend(name: str | None = None):
    """The backend the generator asks: ``name``, else the fastest registered one."""
    if name is None:
        name = next(b for b in ("propagate", "cpsat", "search") if b in KIND.backends)
    quiet = {"progress": False} if name == "propagate" else {}  # no stderr lines mid-run
    return KIND.backend(name, **quiet)


def nodes_to_prove(puzzle: Futoshiki) -> int:
    """Search nodes the ``propagate`` backend needs to prove ``puzzle`` unique (1 = none
    beyond the root: propagation alone solves it)."""
    result = uniqueness_backend("propagate").unique(puzzle)
    return int(result.effort.get("nodes", 0))


def generate_graded(n: int, seed: int, *, backend: str | None = None, method: str = "mixed",
                    difficulty: str = "any", adjacent: bool = False
                    ) -> tuple[Futoshiki, Solution, str]:
    """The puzzle of ``seed``: the first one drawn from ``random.Random(seed)`` whose
    Tatham grade is ``difficulty`` (any grade for ``any``), its solution and grade."""
    if difficulty not in DIFFICULTIES:
        raise GridcpError(f"unknown difficulty {difficulty!r} (known: {', '.join(DIFFICULTIES)})")
    if difficulty == "easy" and method == "givens" and not adjacent:
        raise GridcpError("no easy puzzle has givens only: the easy rules act on "
                          "inequalities (use --method mixed or relations)")
    rng = random.Random(seed)
    target = None if difficulty == "any" else difficulty
    for _ in range(MAX_ATTEMPTS):
        puzzle, solution = generate_puzzle(n, rng, backend=backend, method=method,
                                           adjacent=adjacent, solvable_at=target)
        found = grade(puzzle, unique=True)
        if difficulty in ("any", found):
            return puzzle, solution, found
    raise GridcpError(f"no {difficulty} {n}x{n} puzzle in {MAX_ATTEMPTS} attempts "
                      f"(seed {seed}); try another size or difficulty")


# ---------------------------------------------------------------- the command


def add_generate_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--difficulty", choices=DIFFICULTIES, default="any",
                        help="Tatham's grade, the weakest reasoning that solves it: trivial "
                             "(singles), easy (inequalities), tricky (sets in lines), extreme "
                             "(sets in value planes, forcing chains), recursive (guessing); "
                             "default any")
    parser.add_argument("--adjacent", action="store_true",
                        help="Adjacent mode: bars join the neighbours that differ by 1 "
                             "(written as Tatham's text grid)")
    parser.add_argument("--backend", help="backend for the uniqueness checks "
                        "(default: propagate if registered, else cpsat)")
    parser.epilog = (f"--method: {', '.join(METHODS)} (default mixed: givens and "
                     "inequalities; relations: inequalities, givens only when needed)")


def parse_size(size: str | None) -> int:
    if size is None:
        return DEFAULT_SIZE
    text = size.lower()
    width, _, height = text.partition("x")
    if not (width.isascii() and width.isdigit() and len(width) <= 3) or \
            (height and height != width):
        raise GridcpError(f"--size must be N or NxN (a square), found {size!r}")
    n = int(width)
    if not 1 <= n <= 32:
        raise GridcpError(f"--size must be between 1 and 32, found {n}")
    return n


def generate(args: Any) -> int:
    """``gridcp generate futoshiki``: print the puzzles (seed format or JSON) or write
    ``futoshiki_<n>_<seed>_<k>.txt`` files into ``--out``."""
    try:
        n = parse_size(args.size)
        method = args.method or "mixed"
        if method not in METHODS:
            raise GridcpError(f"unknown --method {method!r} (known: {', '.join(METHODS)})")
        difficulty = getattr(args, "difficulty", "any") or "any"
        adjacent = bool(getattr(args, "adjacent", False))
        backend = getattr(args, "backend", None)
        if args.count < 0:
            raise GridcpError("--count must be at least 0")
        uniqueness_backend(backend)  # a bad name fails before any work
    except GridcpError as error:
        print(f"gridcp: {error}", file=sys.stderr)
        return 2
    out = out_dir(args.out) if args.out else None
    start = time.perf_counter()
    for k in range(1, args.count + 1):
        seed = args.seed + k - 1
        try:
            puzzle, solution, found = generate_graded(n, seed, backend=backend, method=method,
                                                      difficulty=difficulty, adjacent=adjacent)
        except GridcpError as error:
            print(f"gridcp: {error}", file=sys.stderr)
            return 1
        text = format_tatham_text(puzzle) if adjacent else format_seed(puzzle)
        givens = sum(1 for row in puzzle.givens for v in row if v)
        if args.json:
            record = {
                "puzzle": "futoshiki", "n": n, "seed": seed, "index": k,
                "method": "givens" if adjacent else method,
                "clues": {"givens": givens, "relations": len(puzzle.less)},
                "grid": [list(row) for row in puzzle.givens],
                "less": [[list(a), list(b)] for a, b in puzzle.less],
                "solution": [list(row) for row in solution.grid],
                "adjacent": adjacent, "bars": [[list(a), list(b)] for a, b in puzzle.bars],
                "difficulty": found, "nodes": nodes_to_prove(puzzle),
                "tatham": format_tatham(puzzle).strip(), "text": text,
            }
            line = json.dumps(record)
        if out:
            target = out / f"futoshiki_{n}_{args.seed}_{k}.txt"
            write_file(target, text, force=getattr(args, "force", False))
            between = f"{len(puzzle.bars)} bars" if adjacent else \
                f"{len(puzzle.less)} inequalities"
            print(f"{target}: {givens} givens, {between}",
                  file=sys.stderr)
            if args.json:
                print(line)
        elif args.json:
            print(line)
        else:
            print(text, end="\n" if k < args.count else "")
        sys.stdout.flush()
    wall = time.perf_counter() - start
    if args.count:
        print(generated(args.count, f"{n}x{n} puzzle", wall), file=sys.stderr)
    return 0

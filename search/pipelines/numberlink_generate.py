"""Numberlink generators: the seed article's (``search.numberlink.generate``),
large full-cover boards (``search.numberlink.paths_gen``), and one that only
emits well-designed puzzles, with the command that runs them.

The guaranteed generator (``well_designed``) grows a seed board and repairs
it: while some other self-avoiding lenient solution T exists, it cuts a path
of the board's solution at a step that T does not take, making two pairs out
of one.  More labels only remove solutions, so this ends; when no other
self-avoiding solution is left, the puzzle is well-designed (see
``numberlink_check``).
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
from search.numberlink import KIND
from search.numberlink.generate import SeedGenerator, board_of_paths, seed_board
from search.numberlink.io import format_puzzle, format_solution, solution_json
from search.numberlink.model import Numberlink, Solution
from search.numberlink.paths_gen import large_board

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
        file = {"file": str(out / name)} if out else {}
        print(json.dumps({"seed": seed, "method": method, "puzzle": format_puzzle(puzzle),
                          **solution_json(puzzle, solution), **file}))
    elif out:
        print(out / name)
    else:
        print(text)


def _seed_share(height: int, width: int, seed: int, count: int, backend: str,
                as_json: bool) -> int:
    good, reasons = 0, {}
    start = time.perf_counter()
    for s in range(seed, seed + count):
        puzzle, _ = seed_board(height, width, s)
        report = KIND.call("check", puzzle, backend=backend)
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



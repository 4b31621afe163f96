"""Numberlink grades: how often each comes out, what steering to one costs,
and how the grades differ in solve effort.

    python benchmarks/numberlink_grades.py --sizes 8 12 --boards 30 --steer 4 \
        [--grades easy medium hard] [--hard-size 14] [--janko PATH]

1. The grades of the well-designed generator's boards (seeds 1..boards).
2. ``generate --difficulty``'s steering at the first size (hard: at
   ``--hard-size``): per grade, how many seeds gave a board, boards drawn,
   cuts, kept slides and merges, CPU.
3. Solve effort by grade: ``guesses`` (the nodes of a search that has only
   the forced moves) and the ``search`` backend's nodes, medians, on the
   generated boards and on a file of published boards (``--janko``, e.g.
   thomasahle/numberlink's ``puzzles/janko``).

The figures are work (probes, guesses, nodes) except the CPU seconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from search.core.contract import GridcpError  # noqa: E402
from search.numberlink import KIND  # noqa: E402
from search.numberlink.grade import GRADES, grade, guesses  # noqa: E402
from search.numberlink.io import parse_many  # noqa: E402
from search.pipelines.numberlink_generate import _graded, well_designed  # noqa: E402


def median(values: list) -> str:
    return f"{statistics.median(values):g}" if values else "-"


def effort_table(title: str, puzzles: list) -> None:
    rows: dict[str, list[tuple[int, int]]] = {g: [] for g in GRADES}
    engine = KIND.backend("search")
    for puzzle in puzzles:
        name = grade(puzzle).name
        if name is None:
            continue
        found = guesses(puzzle, 1_000_000)
        nodes = int(engine.solve(puzzle).effort.get("nodes", 0))
        rows[name].append((found if found is not None else -1, nodes))
    print(f"\n{title}\n| grade | boards | median guesses | mean guesses | median search nodes |")
    print("|---|---|---|---|---|")
    for name, got in rows.items():
        g = [x for x, _ in got if x >= 0]
        mean = f"{statistics.mean(g):.1f}" if g else "-"
        print(f"| {name} | {len(got)} | {median(g)} | {mean} | {median([n for _, n in got])} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 12])
    parser.add_argument("--boards", type=int, default=30)
    parser.add_argument("--steer", type=int, default=10, help="seeds per grade to steer")
    parser.add_argument("--janko", type=Path, help="a file of published boards")
    parser.add_argument("--grades", nargs="+", default=list(GRADES), choices=GRADES,
                        help="the grades to steer to")
    parser.add_argument("--hard-size", type=int, default=None,
                        help="the size to steer to hard at (default: the first size)")
    args = parser.parse_args()
    generated = []
    print("| size | boards | easy | medium | hard | CPU s a board (generate + grade) |")
    print("|---|---|---|---|---|---|")
    for n in args.sizes:
        counts: Counter = Counter()
        start = time.process_time()
        for seed in range(1, args.boards + 1):
            puzzle = well_designed(n, n, seed).puzzle
            counts[grade(puzzle).name] += 1
            generated.append(puzzle)
        cpu = (time.process_time() - start) / args.boards
        print(f"| {n}x{n} | {args.boards} | {counts['easy']} | {counts['medium']} | "
              f"{counts['hard']} | {cpu:.2f} |")
    print(f"\n`generate numberlink --size N --difficulty G`, seeds 1..{args.steer}\n")
    print("| grade | size | made | boards drawn | cuts | slides and merges kept | CPU s a seed |")
    print("|---|---|---|---|---|---|---|")
    for name in args.grades:
        n = args.hard_size if name == "hard" and args.hard_size else args.sizes[0]
        made, drawn, cuts, moves = 0, [], [], []
        start = time.process_time()
        for seed in range(1, args.steer + 1):
            try:
                found = _graded(n, n, seed, name, None, None)
            except GridcpError:
                continue
            made += 1
            drawn.append(found.drawn)
            cuts.append(found.cuts)
            moves.append(found.moves)
        cpu = (time.process_time() - start) / args.steer
        print(f"| {name} | {n}x{n} | {made} of {args.steer} | {sum(drawn)} | {sum(cuts)} | "
              f"{sum(moves)} | {cpu:.2f} |")
    effort_table("Solve effort, the generated boards above", generated)
    if args.janko:
        effort_table(f"Solve effort, {args.janko.name}",
                     parse_many(args.janko.read_text(), str(args.janko)))


if __name__ == "__main__":
    main()

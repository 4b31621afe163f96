"""Lianliankan difficulty: the grades of random clearable deals and of the
generator's deals (docs/lianliankan.md, "Deals of a chosen difficulty").

Run as a script: ``python benchmarks/lianliankan_grades.py [--boards N]
[--size WxH] [--gravity] [--no-border]``.  Deal k is ``random.Random(k)``;
random deals the exact search leaves undecided within 50,000 nodes or proves
unclearable are left out.  Prints one JSON row per population: the grades,
the share the greedy scan clears, the random players' mean wins; the figures
are work, not time, so they do not depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter

from search.core.contract import Status
from search.lianliankan.difficulty import RANDOM_GAMES, grade, searched
from search.lianliankan.generate import full_fill, full_tiles, played_fill
from search.lianliankan.model import Board

NODES = 50_000


def population(name: str, boards: list[tuple[Board, int, int | None]]) -> dict:
    grades = [grade(board, seed, nodes) for board, seed, nodes in boards]
    count = Counter(g.name for g in grades)
    return {"population": name, "boards": len(grades),
            **{f"{g}": count[g] for g in ("easy", "medium", "hard")},
            "greedy_clears": sum(g.greedy for g in grades),
            "mean_random_wins": round(sum(g.random_wins for g in grades)
                                      / max(1, len(grades)), 2),
            "random_games": RANDOM_GAMES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--size", default="18x8")
    parser.add_argument("--gravity", action="store_true")
    parser.add_argument("--no-border", action="store_true")
    args = parser.parse_args()
    width, height = map(int, args.size.split("x"))
    rules = {"border": not args.no_border, "gravity": args.gravity}
    random_deals, played = [], []
    for k in range(args.boards):
        board = Board(full_fill(width, height, width * height // 4, random.Random(k)), **rules)
        status, _, nodes = searched(board, NODES)
        if status is Status.SOLVED:
            random_deals.append((board, k, nodes))
        rng = random.Random(k)
        grid = None
        while grid is None:
            grid = played_fill(width, height, full_tiles(width * height, width * height // 4),
                               rules["border"], 2, rng, rules["gravity"])
        played.append((Board(grid, **rules), k, None))
    label = f"{args.size}{' ring' * rules['border']}{' gravity' * rules['gravity']}"
    for name, boards in ((f"random clearable {label}", random_deals),
                         (f"generate --solvable (play) {label}", played)):
        print(json.dumps(population(name, boards)), flush=True)


if __name__ == "__main__":
    main()

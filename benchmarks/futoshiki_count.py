"""Benchmark of ``count-dp`` on random clue sets that no other tool counts.

    python benchmarks/futoshiki_count.py [--n 7] [--puzzles 30] [--seed 1]
        [--inequalities 1-14] [--givens 0-4] [--max-states 8000000]
        [--plan auto|rows|layers] [--json FILE]

Each puzzle is a seeded random clue set: ``k`` inequalities on distinct
neighbouring pairs (random directions) and ``g`` givens on distinct cells
(random values), ``k`` and ``g`` drawn from the given ranges; half of them are
read off a random Latin square (so they have solutions), half are not (they
may have none).  A count past ``--max-states`` states is LIMIT (no fallback to
``propagate``), so the figures are the DP's own.  Every count runs in this
process on a cold table cache (the free-row tables are built anew), one after
the other (one core).  Prints one
line per puzzle and a Markdown summary: status, count, wall and CPU seconds,
and the deterministic effort (the most states after a step, the sizes of the
two tables that are joined), and the plan that counted (``rows`` or
``layers``; ``auto`` tries the one that fits first, then the other, each under
the budget).  Never asserts a time: it reports.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from search.core.contract import CountResult, Deadline, Status  # noqa: E402
from search.futoshiki.countdp import CountDPBackend, count_dp  # noqa: E402
from search.futoshiki.countdp import rows as rowdp  # noqa: E402
from search.futoshiki.countdp.rows import StateSpaceTooLarge  # noqa: E402
from search.futoshiki.io import format_seed  # noqa: E402
from search.futoshiki.model import Futoshiki  # noqa: E402


def latin_square(n: int, rng: random.Random) -> list[list[int]]:
    """A random Latin square (a shuffled cyclic one)."""
    rows, columns, values = (rng.sample(range(n), n) for _ in range(3))
    return [[values[(rows[r] + columns[c]) % n] + 1 for c in range(n)] for r in range(n)]


def clue_set(n: int, inequalities: int, givens: int, rng: random.Random,
             consistent: bool) -> Futoshiki:
    """``inequalities`` relations on distinct neighbour pairs and ``givens``
    givens on distinct cells; read off a random square when ``consistent``."""
    square = latin_square(n, rng)
    pairs = [((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)]
    less = []
    for a, b in rng.sample(pairs, inequalities):
        if consistent:
            less.append((a, b) if square[a[0]][a[1]] < square[b[0]][b[1]] else (b, a))
        else:
            less.append((a, b) if rng.random() < 0.5 else (b, a))
    grid = [[0] * n for _ in range(n)]
    for i in rng.sample(range(n * n), givens):
        r, c = divmod(i, n)
        grid[r][c] = square[r][c] if consistent else rng.randint(1, n)
    return Futoshiki(n, tuple(map(tuple, grid)), tuple(sorted(less)))


def run_count(puzzle: Futoshiki, args: argparse.Namespace) -> CountResult:
    """The backend's count (``--plan auto``), or one plan alone without the
    backend's quick ``propagate`` count."""
    if args.plan == "auto":
        engine = CountDPBackend(progress=False, fallback=False, max_states=args.max_states)
        return engine.count(puzzle, time_limit=args.time_limit)
    stats: dict = {}
    try:
        total = count_dp(puzzle, max_states=args.max_states, stats=stats, plan=args.plan,
                         deadline=Deadline(args.time_limit))
    except StateSpaceTooLarge as error:
        return CountResult(Status.LIMIT, 0, 0.0, stats, str(error))
    return CountResult(Status.COUNTED, total, 0.0, stats)


def span(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    return int(low), int(high or low)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=7)
    parser.add_argument("--puzzles", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--inequalities", type=span, default=(1, 14), metavar="LOW-HIGH")
    parser.add_argument("--givens", type=span, default=(0, 4), metavar="LOW-HIGH")
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--max-states", type=int, default=8_000_000,
                        help="count-dp's state budget; past it the count is LIMIT")
    parser.add_argument("--plan", choices=("auto", "rows", "layers"), default="auto")
    parser.add_argument("--json", type=Path, help="write every record to this file")
    parser.add_argument("--show", action="store_true", help="print each puzzle")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    records = []
    print(f"# count-dp (plan {args.plan}) on {args.puzzles} random {args.n}x{args.n} clue sets "
          f"(seed {args.seed}, inequalities {args.inequalities}, givens {args.givens})")
    for i in range(args.puzzles):
        k, g = rng.randint(*args.inequalities), rng.randint(*args.givens)
        puzzle = clue_set(args.n, k, g, rng, consistent=i % 2 == 0)
        rowdp._TABLES.clear()
        wall, cpu = time.perf_counter(), time.process_time()
        result = run_count(puzzle, args)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        record = {"i": i, "n": args.n, "inequalities": k, "givens": g,
                  "consistent": i % 2 == 0, "status": str(result.status),
                  "count": result.count, "wall": round(wall, 3), "cpu": round(cpu, 3),
                  **{key: result.effort.get(key) for key in
                     ("plan", "states", "upper_states", "lower_states", "forward_states",
                      "backward_states", "rows_over_budget", "layers_over_budget",
                      "fallback")},
                  "message": result.message}
        records.append(record)
        print(json.dumps(record), flush=True)
        if args.show:
            print(format_seed(puzzle))
    done = [r for r in records if r["status"] == "COUNTED"]
    worst = max(records, key=lambda r: r["wall"])
    print("\n| n | seed | puzzles | counted | by rows | by layers | max wall s | max CPU s | "
          "median CPU s | max states |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    cpus = sorted(r["cpu"] for r in records)
    by = {plan: sum(1 for r in done if r["plan"] == plan) for plan in ("rows", "layers")}
    print(f"| {args.n} | {args.seed} | {len(records)} | {len(done)} | {by['rows']} | "
          f"{by['layers']} | {worst['wall']:.2f} | {cpus[-1]:.2f} | "
          f"{cpus[len(cpus) // 2]:.2f} | {max((r['states'] or 0) for r in records):,} |")
    print("\n| # | inequalities | givens | plan | status | count | CPU s | most states |")
    print("|---|---|---|---|---|---|---|---|")
    for r in records:
        count = f"{r['count']:,}" if r["status"] == "COUNTED" else "-"
        plan = r["plan"] or "-"
        states = f"{r['states']:,}" if r["states"] else "-"
        print(f"| {r['i']} | {r['inequalities']} | {r['givens']} | {plan} | {r['status']} | "
              f"{count} | {r['cpu']:.2f} | {states} |")
    if args.json:
        args.json.write_text(json.dumps(records, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

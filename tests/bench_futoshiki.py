"""Benchmark of the fast Futoshiki engines on the public instance sets.

    python tests/bench_futoshiki.py [--quick] [--repeat K] [--json FILE]

Prints a Markdown table per task: ``propagate`` proving every Tatham puzzle
unique (median and maximum per size), and ``count-dp`` counting the Latin
squares and the ``counting/`` instances (each count in its own process, so
that the peak memory is that count's).  Wall and CPU seconds are both shown:
on a shared machine the wall time includes waiting for a core.  Reads
``../shared/instances-public/futoshiki`` in place and exits cleanly when it
is absent.  With ``--repeat K`` each run is repeated and the least time is
kept (the least disturbed by other jobs).  Never asserts a time: it reports.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT.parent / "shared" / "instances-public" / "futoshiki"
sys.path.insert(0, str(ROOT))

from search.futoshiki.io import parse  # noqa: E402
from search.registry import kind  # noqa: E402


def index() -> list[dict[str, str]]:
    lines = (SETS / "index.tsv").read_text().splitlines()
    header = lines[0].split("\t")
    return [dict(zip(header, line.split("\t"))) for line in lines[1:]]


def load(path: str):
    file = SETS / path
    return parse(file.read_text(), str(file))


def timed(call):
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def child(backend: str, path: str, time_limit: float) -> None:
    """One count in this process; prints a JSON line with its figures."""
    puzzle = load(path)
    engine = kind("futoshiki").backend(backend, progress=False)
    result, wall, cpu = timed(lambda: engine.count(puzzle, time_limit=time_limit))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # MiB (Linux: KiB)
    print(json.dumps({
        "status": str(result.status), "count": result.count, "wall": wall, "cpu": cpu,
        "peak_mib": peak, "message": result.message, "effort": dict(result.effort),
    }))


def run_child(backend: str, path: str, time_limit: float) -> dict:
    command = [sys.executable, __file__, "--child", backend, path, str(time_limit)]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def least(runs: list[dict]) -> dict:
    """The first run with the least wall and CPU times of all (and the largest peak)."""
    best = dict(runs[0])
    best["wall"] = min(run["wall"] for run in runs)
    best["cpu"] = min(run["cpu"] for run in runs)
    if "peak_mib" in best:
        best["peak_mib"] = max(run["peak_mib"] for run in runs)
    return best


def bench_unique(rows: list[dict[str, str]], repeat: int, figures: list[dict]) -> None:
    engine = kind("futoshiki").backend("propagate")
    by_size: dict[int, list[tuple[float, float]]] = {}
    wrong = []
    for row in rows:
        if not row["path"].startswith("tatham-unequal/"):
            continue
        puzzle = load(row["path"])
        runs = [timed(lambda p=puzzle: engine.unique(p, time_limit=60)) for _ in range(repeat)]
        result = runs[0][0]
        wall, cpu = min(run[1] for run in runs), min(run[2] for run in runs)
        grid = ",".join(str(v) for line in result.solutions[0].grid for v in line) \
            if result.solutions else ""
        if str(result.status) != "UNIQUE" or grid != row["solution"]:
            wrong.append(row["path"])
        by_size.setdefault(puzzle.n, []).append((wall, cpu))
        figures.append({"task": "unique", "backend": "propagate", "path": row["path"],
                        "status": str(result.status), "wall": wall, "cpu": cpu,
                        "effort": dict(result.effort)})
    print("\n`propagate`: solve and prove unique, Tatham Unequal puzzles (all grades)\n")
    print("| n | puzzles | median wall ms | max wall ms | median CPU ms | max CPU ms |")
    print("|---|---|---|---|---|---|")
    for n, times in sorted(by_size.items()):
        walls, cpus = [w for w, _ in times], [c for _, c in times]
        print(f"| {n} | {len(times)} | {statistics.median(walls) * 1e3:.1f} | "
              f"{max(walls) * 1e3:.1f} | {statistics.median(cpus) * 1e3:.1f} | "
              f"{max(cpus) * 1e3:.1f} |")
    print(f"\nwrong or not unique: {wrong or 'none'}")


def bench_counts(
    rows: list[dict[str, str]], quick: bool, repeat: int, figures: list[dict]
) -> None:
    wanted = ["latin/empty_5.txt", "latin/empty_6.txt", "latin/reduced_7.txt"]
    wanted += sorted(r["path"] for r in rows if r["path"].startswith("counting/c6_"))
    runs = [("count-dp", path, 60.0) for path in wanted]
    if not quick:
        runs += [("count-dp", "latin/empty_7.txt", 600.0),
                 ("propagate", "latin/empty_5.txt", 120.0)]
    expected = {r["path"]: r["solutions"] for r in rows}
    print("\nCounting (each run in its own process)\n")
    print("| instance | backend | count | expected | status | wall s | CPU s | peak MiB |")
    print("|---|---|---|---|---|---|---|---|")
    for backend, path, limit in runs:
        got = least([run_child(backend, path, limit) for _ in range(repeat)])
        figures.append({"task": "count", "backend": backend, "path": path, **got})
        known = expected[path].split()[0]
        print(f"| {path} | {backend} | {got['count']:,} | {int(known):,} | {got['status']} | "
              f"{got['wall']:.3f} | {got['cpu']:.3f} | {got['peak_mib']:.0f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the empty 7x7 and the "
                        "streaming count of the empty 5x5")
    parser.add_argument("--repeat", type=int, default=1, metavar="K",
                        help="run each K times and keep the least time (default 1)")
    parser.add_argument("--json", help="also write every run as JSON Lines to this file")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child[0], args.child[1], float(args.child[2]))
        return 0
    if not SETS.exists():
        print(f"{SETS} is absent: nothing to measure", file=sys.stderr)
        return 0
    rows = index()
    figures: list[dict] = []
    bench_unique(rows, args.repeat, figures)
    bench_counts(rows, args.quick, args.repeat, figures)
    if args.json:
        with open(args.json, "w") as out:
            for figure in figures:
                out.write(json.dumps(figure) + "\n")
    return 0


@pytest.mark.bench
def test_bench_sample() -> None:
    assert main(["--quick"]) == 0


if __name__ == "__main__":
    sys.exit(main())

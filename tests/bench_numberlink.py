"""Numberlink benchmark: prints the figures of docs/numberlink.md.

    python tests/bench_numberlink.py [--only flow,janko,check,generate,io]
        [--backends cpsat,search] [--time-limit S] [--janko-backends cpsat]

Pytest: `python -m pytest -m bench tests/bench_numberlink.py` (a short run).
Reads the public sets in place from ../shared/instances-public/numberlink (any
folder of files works with --flow DIR); sections whose files are absent are
skipped.  Wall-clock figures, never asserted.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from search.numberlink import KIND  # noqa: E402
from search.numberlink.check import check  # noqa: E402
from search.numberlink.generate import seed_board, well_designed  # noqa: E402
from search.numberlink.io import format_solution, parse, parse_many, parse_solution  # noqa: E402
from search.numberlink.verify import verify  # noqa: E402

PUBLIC = ROOT.parent / "shared" / "instances-public" / "numberlink"


def _summary(label: str, times: list[float], solved: int, total: int) -> dict:
    out = {"set": label, "solved": solved, "of": total}
    if times:
        out.update(max_s=round(max(times), 3), median_s=round(statistics.median(times), 3),
                   total_s=round(sum(times), 2))
    print(json.dumps(out), flush=True)
    return out


def bench_solve(label: str, puzzles: list[tuple[str, object]], backend: str,
                time_limit: float) -> dict:
    engine = KIND.backend(backend)
    times, solved, slow = [], 0, []
    for name, puzzle in puzzles:
        result = engine.solve(puzzle, time_limit=time_limit)
        times.append(result.wall)
        if result.solution is not None and not verify(puzzle, result.solution):
            solved += 1
        if result.wall > 1:
            slow.append(f"{name}:{result.status}:{result.wall:.1f}s")
    out = _summary(f"{label} solve {backend}", times, solved, len(puzzles))
    if slow:
        print("  slowest:", " ".join(slow[:12]), flush=True)
    return out


def flow_levels(folder: Path) -> list[tuple[str, object]]:
    files = sorted(p for p in folder.glob("*.txt") if "unsolvable" not in p.name)
    return [(p.stem, parse(p.read_text(), str(p))) for p in files]


def janko() -> list[tuple[str, object]]:
    path = PUBLIC / "thomasahle-numberlink" / "puzzles" / "janko"
    return [(f"janko#{i}", p) for i, p in enumerate(parse_many(path.read_text(), str(path)))]


def bench_check(backend: str, time_limit: float, largest: int = 10) -> dict:
    """The verdict's capped counts against EXPECTED_COUNTS.csv, by board size."""
    cache: dict[str, list] = {}
    by_size: dict[str, list[float]] = {}
    wrong, undecided, total = [], 0, 0
    with open(PUBLIC / "EXPECTED_COUNTS.csv") as handle:
        for row in csv.DictReader(handle):
            w, h = int(row["width"]), int(row["height"])
            if w > largest or h > largest or not row["n_R1_lenient"].isdigit():
                continue
            if row["file"] not in cache:
                cache[row["file"]] = parse_many((PUBLIC / row["file"]).read_text(), row["file"])
            puzzle = cache[row["file"]][int(row["index"])]
            report = check(puzzle, backend=backend, time_limit=time_limit)
            total += 1
            by_size.setdefault(f"{w}x{h}", []).append(report.wall)
            expected = (min(int(row["n_R1_lenient"]), 2), min(int(row["n_R2_fullcover"]), 2))
            got = (report.details.get("lenient_solutions"),
                   report.details.get("full_cover_solutions"))
            if report.ok is None:
                undecided += 1
            elif got != expected:
                wrong.append(f"{row['file']}#{row['index']}: {got} != {expected}")
    sizes = {size: {"n": len(t), "max_s": round(max(t), 3),
                    "median_s": round(statistics.median(t), 3)}
             for size, t in sorted(by_size.items(), key=lambda kv: int(kv[0].split("x")[0]))}
    out = {"set": f"check {backend} (EXPECTED_COUNTS up to {largest}x{largest})",
           "puzzles": total, "mismatches": wrong, "undecided": undecided, "by_size": sizes}
    print(json.dumps(out), flush=True)
    return out


def bench_generate(size: int, count: int, backend: str = "search") -> dict:
    start = time.perf_counter()
    boards = 0
    for seed in range(1, count + 1):
        _, _, drawn = well_designed(size, size, seed, backend=backend)
        boards += drawn
    wall = time.perf_counter() - start
    out = {"set": f"well-designed generator {size}x{size}", "puzzles": count,
           "boards_drawn": boards, "per_second": round(count / wall, 1)}
    print(json.dumps(out), flush=True)
    return out


def bench_seed_share(size: int, count: int, backend: str = "search") -> dict:
    good = 0
    start = time.perf_counter()
    for seed in range(1, count + 1):
        puzzle, _ = seed_board(size, size, seed)
        good += bool(check(puzzle, backend=backend).ok)
    out = {"set": f"seed generator {size}x{size}, seeds 1..{count}", "well_designed": good,
           "share": round(good / count, 3), "wall_s": round(time.perf_counter() - start, 1)}
    print(json.dumps(out), flush=True)
    return out


def bench_io(size: int = 50, repeat: int = 5) -> dict:
    """Parse a puzzle and verify a solution; reading a solution grid is timed apart."""
    from search.numberlink.io import format_puzzle

    puzzle, solution = seed_board(size, size, 1)
    puzzle_text, solution_text = format_puzzle(puzzle), format_solution(puzzle, solution)
    best, best_grid = float("inf"), float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        read = parse(puzzle_text, "bench")
        assert verify(read, solution) == []
        middle = time.perf_counter()
        parse_solution(read, solution_text, "bench")
        best = min(best, middle - start)
        best_grid = min(best_grid, time.perf_counter() - middle)
    out = {"set": f"parse + verify, {size}x{size}", "best_ms": round(1000 * best, 1),
           "parse_solution_grid_ms": round(1000 * best_grid, 1)}
    print(json.dumps(out), flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="io,generate,flow,check,janko")
    parser.add_argument("--backends", default="cpsat,search")
    parser.add_argument("--janko-backends", default="cpsat")
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--flow", type=Path, default=PUBLIC / "mzucker-flow_solver" / "puzzles")
    parser.add_argument("--seeds", type=int, default=1000)
    args = parser.parse_args(argv)
    only = set(args.only.split(","))
    backends = args.backends.split(",")
    if "io" in only:
        bench_io()
    if "generate" in only:
        bench_generate(7, 100)
        bench_generate(10, 30)
        bench_seed_share(7, args.seeds)
        bench_seed_share(10, args.seeds // 4)
    if "flow" in only and args.flow.exists():
        levels = flow_levels(args.flow)
        for backend in backends:
            bench_solve("flow-free", levels, backend, args.time_limit)
    if "check" in only and PUBLIC.exists():
        for backend in backends:
            bench_check(backend, args.time_limit)
    if "janko" in only and PUBLIC.exists():
        puzzles = janko()
        for backend in args.janko_backends.split(","):
            bench_solve("janko", puzzles, backend, args.time_limit)
    return 0


@pytest.mark.bench
def test_bench_short():
    main(["--only", "io,flow", "--backends", "cpsat", "--time-limit", "5"])


if __name__ == "__main__":
    sys.exit(main())

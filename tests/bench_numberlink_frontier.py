"""Benchmark of the ``frontier`` Numberlink backend on the public instances.

    python tests/bench_numberlink_frontier.py [--flow] [--janko] [--exact]
        [--time-limit S] [--max-columns N] [--max-states N]

--flow   the well-designed verdict (``gridcp check``: frontier, then the CP-SAT
         second chance; "(cpsat)" marks a verdict that came from it) for each level
--exact  with --flow: also exact counts under both rules, against EXPECTED_COUNTS.csv
--janko  the verdict for every Janko puzzle whose frontier (the shorter side)
         has at most --max-columns columns (default 17)

Prints Markdown tables (one row per instance, then a summary line).  The
instances are read in place from ../shared/instances-public/numberlink.
Timings are wall-clock seconds on whatever machine runs it.
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from search.core import Status  # noqa: E402
from search.numberlink.check import check  # noqa: E402
from search.numberlink.frontier import FrontierBackend  # noqa: E402
from search.numberlink.io import parse, parse_many  # noqa: E402

PUBLIC = ROOT.parent / "shared" / "instances-public" / "numberlink"


def expected() -> dict[tuple[str, int], dict]:
    with (PUBLIC / "EXPECTED_COUNTS.csv").open() as handle:
        return {(row["file"], int(row["index"])): row for row in csv.DictReader(handle)}


def verdict(puzzle, time_limit: float, max_states: int) -> tuple[str, float, dict]:
    start = time.perf_counter()
    report = check(puzzle, time_limit=time_limit)  # as ``gridcp check``: frontier, then cpsat
    wall = time.perf_counter() - start
    word = {True: "WELL-DESIGNED", False: "not well-designed", None: "LIMIT"}[report.ok]
    if "+" in report.details.get("backend", ""):
        word += " (cpsat)"
    return word, wall, dict(report.details)


def expected_verdict(row: dict) -> str:
    if row["n_R1_lenient"] == "1" and row["n_R2_fullcover"] == "1":
        return "WELL-DESIGNED"
    if row["n_R1_lenient"].isdigit():
        return "not well-designed"
    return "?"


def exact(puzzle, time_limit: float, max_states: int) -> tuple[str, float, int]:
    backend = FrontierBackend(max_states=max_states)
    result = backend.count(puzzle, time_limit=time_limit)
    if result.status is Status.COUNTED:
        return str(result.count), result.wall, int(backend.effort.get("states", 0))
    reason = "memory bound" if "states" in result.message else "time limit"
    return f"LIMIT ({reason})", result.wall, int(backend.effort.get("states", 0))


def flow(args, table: dict) -> None:
    files = sorted((PUBLIC / "mzucker-flow_solver" / "puzzles").glob("*.txt"),
                   key=lambda p: (int(p.stem.split("_")[1].split("x")[0])
                                  if p.stem[0] != "u" else 0, p.stem))
    header = "| level | pairs | verdict | s |"
    if args.exact:
        header += (" full cover (R2) | s | max states | lenient (R1) | s | max states |"
                   " = expected |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    slow = 0
    for path in files:
        name = f"mzucker-flow_solver/puzzles/{path.name}"
        row = table[(name, 0)]
        puzzle = parse(path.read_text(), str(path))
        word, wall, _ = verdict(puzzle, args.time_limit, args.max_states)
        slow += wall >= 2
        want = expected_verdict(row)
        mark = "" if word.split(" (")[0] == want else f" (expected {want})"
        line = f"| {path.stem} | {len(puzzle.pairs)} | {word}{mark} | {wall:.2f} |"
        if args.exact:
            full, t_full, s_full = exact(puzzle.covering(), args.exact_limit, args.max_states)
            lenient, t_len, s_len = exact(puzzle.lenient(), args.exact_limit, args.max_states)
            agree = [full == row["n_R2_fullcover"] if full[0].isdigit() else None,
                     lenient == row["n_R1_lenient"] if lenient[0].isdigit() else None]
            same = "yes" if all(a is not False for a in agree) else "NO"
            line += (f" {full} | {t_full:.1f} | {s_full} | {lenient} | {t_len:.1f} | {s_len} |"
                     f" {same} |")
        print(line, flush=True)
    print(f"\n{len(files)} levels, {slow} verdicts took 2 s or more")


def janko(args, table: dict) -> None:
    path = PUBLIC / "thomasahle-numberlink" / "puzzles" / "janko"
    puzzles = parse_many(path.read_text(), str(path))
    print("| # | size | pairs | verdict | s | expected |")
    print("|---|---|---|---|---|---|")
    times, wrong, skipped, limits = [], 0, 0, 0
    for index, puzzle in enumerate(puzzles):
        if min(puzzle.width, puzzle.height) > args.max_columns:
            skipped += 1
            continue
        row = table[("thomasahle-numberlink/puzzles/janko", index)]
        word, wall, _ = verdict(puzzle, args.time_limit, args.max_states)
        times.append(wall)
        want = expected_verdict(row)
        limits += word == "LIMIT"
        wrong += want != "?" and word.split(" (")[0] not in (want, "LIMIT")
        print(f"| {index} | {puzzle.width}x{puzzle.height} | {len(puzzle.pairs)} | {word} |"
              f" {wall:.2f} | {want} |", flush=True)
    print(f"\n{len(times)} puzzles (skipped {skipped} with a frontier over {args.max_columns}"
          f" columns): max {max(times):.2f} s, mean {sum(times) / len(times):.2f} s,"
          f" {sum(t >= 10 for t in times)} took 10 s or more, {limits} LIMIT,"
          f" {wrong} disagree with EXPECTED_COUNTS.csv")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flow", action="store_true")
    parser.add_argument("--exact", action="store_true")
    parser.add_argument("--janko", action="store_true")
    parser.add_argument("--time-limit", type=float, default=60.0,
                        help="seconds per verdict (default 60)")
    parser.add_argument("--exact-limit", type=float, default=60.0,
                        help="seconds per exact count (default 60)")
    parser.add_argument("--max-columns", type=int, default=17)
    parser.add_argument("--max-states", type=int, default=4_000_000)
    args = parser.parse_args(argv)
    if not PUBLIC.exists():
        print(f"{PUBLIC} is not available", file=sys.stderr)
        return 0
    if not (args.flow or args.janko):
        args.flow = True
    table = expected()
    if args.flow:
        flow(args, table)
    if args.janko:
        janko(args, table)
    return 0


@pytest.mark.bench
def test_bench_sample() -> None:
    assert main(["--flow", "--time-limit", "10"]) == 0


if __name__ == "__main__":
    sys.exit(main())

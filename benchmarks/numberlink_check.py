"""Benchmark of the Numberlink well-designed check on the public instances.

    python benchmarks/numberlink_check.py [--janko] [--flow] [--runs 3]
        [--time-limit 10] [--busy 2] [--max-columns 17] [--out FILE.json]

Runs ``search.pipelines.numberlink_check.check`` (the pipeline, as ``gridcp check``) on
every Janko puzzle whose shorter side has at most --max-columns columns and
on every Flow Free level (both sets by default), --runs times, with --busy
processes spinning beside it (``python -c "while 1: pass"``, killed at the
end).  For each puzzle: the verdict against EXPECTED_COUNTS.csv, the step
and engine that proved it, and its certificates checked by ``verify`` under
the rule they solve (two distinct ones for every verdict by multiplicity).
Then per set: wrong, undecided, median and worst seconds per run, and
whether verdict, engine, certificates and effort figures are the same in
every run.  Prints Markdown; --out keeps every record as JSON.  Timings are
wall-clock seconds on whatever machine runs it: the load is printed.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from search.numberlink.io import parse, parse_many  # noqa: E402
from search.numberlink.verify import verify  # noqa: E402
from search.pipelines.numberlink_check import check  # noqa: E402

PUBLIC = ROOT.parent / "shared" / "instances-public" / "numberlink"  # beside the checkout
JANKO = "thomasahle-numberlink/puzzles/janko"


def expected() -> dict[tuple[str, int], str]:
    """(file, index) -> WELL-DESIGNED / NOT / ? (counts not known)."""
    out = {}
    with (PUBLIC / "EXPECTED_COUNTS.csv").open() as handle:
        for row in csv.DictReader(handle):
            lenient, full = row["n_R1_lenient"], row["n_R2_fullcover"]
            if lenient == "1" and full == "1":
                word = "WELL-DESIGNED"
            elif lenient.isdigit() or (full.isdigit() and int(full) >= 2):
                word = "NOT"
            else:
                word = "?"
            out[(row["file"], int(row["index"]))] = word
    return out


def instances(args) -> list[tuple[str, str, int, object]]:
    """(set, file, index, puzzle)."""
    out = []
    if args.flow:
        for path in sorted((PUBLIC / "mzucker-flow_solver" / "puzzles").glob("*.txt")):
            name = f"mzucker-flow_solver/puzzles/{path.name}"
            out.append(("flow", name, 0, parse(path.read_text(), str(path))))
    if args.janko:
        path = PUBLIC / JANKO
        for index, puzzle in enumerate(parse_many(path.read_text(), str(path))):
            if min(puzzle.width, puzzle.height) <= args.max_columns:
                out.append(("janko", JANKO, index, puzzle))
    return out


def one(puzzle, time_limit: float) -> dict:
    start = time.perf_counter()
    report = check(puzzle, time_limit=time_limit)
    wall = time.perf_counter() - start
    rules = report.rules if report.rules is not None else puzzle
    bad = [p for s in report.solutions for p in verify(rules, s)]
    multiple = report.details.get("lenient_solutions") == 2
    if multiple and len({s.edges for s in report.solutions}) != 2:
        bad.append("a verdict by multiplicity without two distinct certificates")
    word = {True: "WELL-DESIGNED", False: "NOT", None: "UNDECIDED"}[report.ok]
    steps = [{k: v for k, v in step.items()} for step in report.details.get("steps", [])]
    return {"verdict": report.verdict, "word": word, "engine": report.engine,
            "effort": dict(report.effort), "steps": steps, "seconds": round(wall, 3),
            "certificates": [sorted(map(sorted, s.edges)) for s in report.solutions],
            "rule": report.details.get("certificate_rule"), "verify_problems": bad}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--janko", action="store_true")
    parser.add_argument("--flow", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--busy", type=int, default=0, help="busy processes beside it")
    parser.add_argument("--max-columns", type=int, default=17)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if not (args.janko or args.flow):
        args.janko = args.flow = True
    if not PUBLIC.exists():
        print(f"{PUBLIC} is not available", file=sys.stderr)
        return 0
    want = expected()
    boards = instances(args)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # so that the busy ones die too
    busy = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(args.busy)]
    runs: list[list[dict]] = []
    try:
        print(f"load before: {os.getloadavg()}, {os.cpu_count()} CPUs, {args.busy} busy "
              f"processes beside it\n", flush=True)
        for run in range(args.runs):
            records = []
            for kind, file, index, puzzle in boards:
                record = one(puzzle, args.time_limit)
                record.update({"set": kind, "file": file, "index": index,
                               "size": f"{puzzle.width}x{puzzle.height}",
                               "expected": want.get((file, index), "?")})
                records.append(record)
                print(f"run {run + 1} | {kind} {Path(file).stem} #{index} | {record['size']} |"
                      f" {record['word']} | {record['engine']} | {record['seconds']:.2f} s |"
                      f" expected {record['expected']}", flush=True)
            runs.append(records)
            print(f"load after run {run + 1}: {os.getloadavg()}", flush=True)
    finally:
        for process in busy:
            process.kill()
            process.wait()
    summary(runs)
    if args.out:
        args.out.write_text(json.dumps(runs, indent=1))
    return 0


def summary(runs: list[list[dict]]) -> None:
    print("\n| set | run | puzzles | wrong | undecided | certificates failing verify |"
          " median s | worst s (puzzle) |")
    print("|---|---|---|---|---|---|---|---|")
    for kind in ("janko", "flow"):
        for n, records in enumerate(runs, 1):
            mine = [r for r in records if r["set"] == kind]
            if not mine:
                continue
            wrong = sum(r["expected"] != "?" and r["word"] not in (r["expected"], "UNDECIDED")
                        for r in mine)
            undecided = sum(r["word"] == "UNDECIDED" for r in mine)
            failing = sum(bool(r["verify_problems"]) for r in mine)
            times = [r["seconds"] for r in mine]
            worst = max(mine, key=lambda r: r["seconds"])
            print(f"| {kind} | {n} | {len(mine)} | {wrong} | {undecided} | {failing} |"
                  f" {statistics.median(times):.2f} | {worst['seconds']:.2f}"
                  f" (#{worst['index']} {Path(worst['file']).stem}) |")
    keys = ("verdict", "engine", "effort", "steps", "certificates")
    differ = [(r["file"], r["index"]) for i, r in enumerate(runs[0])
              if any(any(other[i][k] != r[k] for k in keys) for other in runs[1:])]
    print(f"\nidentical verdict, engine, certificates and effort in all {len(runs)} runs:"
          f" {len(runs[0]) - len(differ)} of {len(runs[0])}"
          + (f"; differ: {differ}" if differ else ""))
    by_step: dict[str, int] = {}
    for r in runs[0]:
        by_step[r["engine"]] = by_step.get(r["engine"], 0) + 1
    print("proved by (run 1): " + ", ".join(f"{k} {v}" for k, v in sorted(by_step.items())))


if __name__ == "__main__":
    sys.exit(main())

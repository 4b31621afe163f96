"""Benchmark: Numberlink at 20x20 to 50x50 and the ADC 2015 contest boards,
gridcp's default ``solve`` against thomasahle's Go solver, in one run.

    python benchmarks/numberlink_large.py [--sizes 20 30 40 50] [--seeds 5]
        [--first-seed 0] [--files gen_40.txt ...] [--adc]
        [--go PATH (default: $GRIDCP_PEER_THOMASAHLE, else numberlink on PATH)]
        [--time-limit 30] [--out results.jsonl]

Boards: ``large_board(n, n, seed)`` (``gridcp generate numberlink --method
paths --size N --seed S``) for seeds ``first-seed`` on, full cover; and every
board of each ``--files`` file (e.g. the output of thomasahle's ``gen.py``,
several boards a file), full cover.  Each board is solved in a fresh
process (``python -m search solve --json``: the whole process's CPU time,
from ``getrusage`` of the finished child, and its wall time, start-up
included) and by the Go binary on the same board, timed alike; every answer,
gridcp's and Go's, is checked by ``search.numberlink.verify.verify``.
``--adc``: the 17 ADC 2015 boards under the lenient rule with a 10 s limit
(the Go solver only knows full cover without self-touch: it is run for the
record, and an IMPOSSIBLE there is no wrong answer).  Prints Markdown tables
and a summary line per set.  Build the Go solver from its public sources
outside the checkout (docs/numberlink-large.md says how).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from search.core.processes import run_child  # noqa: E402
from search.numberlink.io import (  # noqa: E402
    BLOCK,
    Grid,
    format_puzzle,
    parse,
    parse_many,
    solution_of_labels,
)
from search.numberlink.model import Numberlink, Solution  # noqa: E402
from search.numberlink.paths_gen import large_board  # noqa: E402
from search.numberlink.verify import verify  # noqa: E402

ADC = ROOT / "instances" / "numberlink" / "adc2015"
GO = Path(os.environ.get("GRIDCP_PEER_THOMASAHLE", "numberlink"))
# one character per pair for the Go solver's letter format ('.' is empty, '#' a wall)
SIGMA = [chr(c) for c in range(0x21, 0x7F) if chr(c) not in ".#"] + \
        [chr(c) for c in range(0xC0, 0x2000)]


def go_text(puzzle: Numberlink) -> str:
    rows = [["#" if (r, c) in puzzle.blocked else "." for c in range(puzzle.width)]
            for r in range(puzzle.height)]
    for k, pair in enumerate(puzzle.pairs):
        for r, c in (pair.a, pair.b):
            rows[r][c] = SIGMA[k]
    return f"{puzzle.width} {puzzle.height}\n" + "\n".join(map("".join, rows)) + "\n"


def run_gridcp(file: Path, puzzle: Numberlink, time_limit: float, lenient: bool) -> dict:
    command = [sys.executable, "-m", "search", "solve", "--json", "--time-limit",
               str(time_limit), str(file)] + (["--lenient"] if lenient else [])
    done = run_child(command, "", None, cwd=str(ROOT))  # (the child has its own limit)
    wall, cpu = done.wall, done.cpu
    try:
        answer = json.loads(done.out.splitlines()[0])
    except (IndexError, json.JSONDecodeError):
        return {"status": "ERROR", "wall": wall, "cpu": cpu, "error": done.err[-300:]}
    row = {"status": answer["status"], "wall": wall, "cpu": cpu,
           "engine": answer.get("message", ""),
           "nodes": answer.get("effort", {}).get("nodes", answer.get("effort", {}).get(
               "links_nodes")), "effort": answer.get("effort", {})}
    if "solution" in answer:
        paths = tuple(tuple(tuple(c) for c in cells) for _, cells in answer["solution"]["paths"])
        row["verified"] = not verify(puzzle, Solution(paths))
    return row


def run_go(binary: Path, puzzle: Numberlink, time_limit: float) -> dict:
    done = run_child([str(binary), "-calls"], go_text(puzzle), time_limit)
    wall, cpu = done.wall, done.cpu
    if done.killed:
        return {"status": "LIMIT", "wall": wall, "cpu": cpu}
    lines = done.out.splitlines()
    calls = next((int(line.split()[1]) for line in lines if line.startswith("Called")), None)
    if any(line.startswith("IMPOSSIBLE") for line in lines):
        return {"status": "IMPOSSIBLE", "wall": wall, "cpu": cpu, "calls": calls}
    back = {SIGMA[k]: pair.label for k, pair in enumerate(puzzle.pairs)}
    body = lines[1:1 + puzzle.height]
    grid = Grid(tuple(tuple(BLOCK if ch == "#" else back.get(ch) for ch in line)
                      for line in body), tuple(range(1, len(body) + 1)))
    try:
        solution = solution_of_labels(puzzle, grid, "go")
    except Exception as error:  # noqa: BLE001 (a wrong answer is reported, not raised)
        return {"status": "ERROR", "wall": wall, "cpu": cpu, "calls": calls, "error": str(error)}
    return {"status": "SOLVED", "wall": wall, "cpu": cpu, "calls": calls,
            "verified": not verify(puzzle, solution)}


def summary(name: str, rows: list[dict], key: str) -> str:
    solved = [r for r in rows if r[key]["status"] == "SOLVED" and r[key].get("verified")]
    walls = [r[key]["wall"] for r in rows]
    cpus = [r[key]["cpu"] for r in rows]
    wrong = sum(1 for r in rows if r[key].get("verified") is False)
    work = [r[key]["nodes"] for r in rows if r[key].get("nodes") is not None]
    work_text = (f"; nodes median {statistics.median(work):.0f}, max {max(work)}"
                 if key == "gridcp" and work else "")
    return (f"{name}: {len(solved)} of {len(rows)} solved and verified, {wrong} wrong; "
            f"CPU median {statistics.median(cpus):.3f} s, max {max(cpus):.3f} s; "
            f"wall median {statistics.median(walls):.2f} s, max {max(walls):.2f} s{work_text}")


def run_set(name: str, boards: list[tuple[str, Numberlink]], folder: str, args,
            have_go: bool) -> list[dict]:
    """Each board in a fresh gridcp process and by the Go solver; a table and
    a summary line."""
    print(f"\n### {name}, full cover\n\n| board | pairs | gridcp (engine) | Go |\n"
          "|---|---|---|---|")
    batch = []
    for stem, puzzle in boards:
        file = Path(folder) / f"{stem}.nl"
        file.write_text(format_puzzle(puzzle))
        row = {"set": name, "board": file.name, "pairs": len(puzzle.pairs),
               "load": os.getloadavg()[0],
               "gridcp": run_gridcp(file, puzzle, args.time_limit, False)}
        if have_go:
            row["go"] = run_go(args.go, puzzle, args.time_limit)
        engine = row["gridcp"].get("engine", "").replace("engine: ", "")
        print(f"| {stem} | {row['pairs']} | {cell(row['gridcp'], 'nodes')} ({engine}) | "
              f"{cell(row['go'], 'calls') if have_go else '-'} |", flush=True)
        batch.append(row)
    loads = [r["load"] for r in batch]
    print("\n" + summary(f"gridcp {name}", batch, "gridcp")
          + f" (load average {min(loads):.1f}-{max(loads):.1f})")
    if have_go:
        print(summary(f"Go {name}", batch, "go"))
    return batch


def cell(entry: dict, effort: str) -> str:
    mark = "" if entry.get("verified", True) else " WRONG"
    return (f"{entry['status']}{mark} {entry['cpu']:.3f} s CPU ({entry['wall']:.2f} wall), "
            f"{effort} {entry.get(effort, '-')}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[20, 30, 40, 50])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--files", type=Path, nargs="*", default=[],
                        help="files of boards (any format gridcp reads; several a file)")
    parser.add_argument("--adc", action="store_true")
    parser.add_argument("--go", type=Path, default=GO)
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--out", type=Path, default=None, help="JSON Lines of every run")
    args = parser.parse_args()
    found = shutil.which(str(args.go))
    have_go = found is not None
    if found:
        args.go = Path(found)
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as folder:
        for n in args.sizes:
            boards = [(f"paths_{n}x{n}_{seed}", large_board(n, n, seed)[0])
                      for seed in range(args.first_seed, args.first_seed + args.seeds)]
            rows += run_set(f"{n}x{n} paths", boards, folder, args, have_go)
        for source in args.files:
            boards = [(f"{source.stem}_{k}", p.covering())
                      for k, p in enumerate(parse_many(source.read_text(), str(source)))]
            rows += run_set(source.name, boards, folder, args, have_go)
        if args.adc:
            print("\n### ADC 2015, lenient, 10 s\n\n"
                  "| board | size | pairs | gridcp (engine) | Go |\n|---|---|---|---|---|")
            batch = []
            for file in sorted(ADC.glob("Q*.txt")):
                puzzle = parse(file.read_text(), str(file)).lenient()
                row = {"set": "adc2015", "board": file.name, "pairs": len(puzzle.pairs),
                       "gridcp": run_gridcp(file, puzzle, 10.0, True)}
                if have_go:
                    row["go"] = run_go(args.go, puzzle, 10.0)
                engine = row["gridcp"].get("engine", "").replace("engine: ", "")
                print(f"| {file.stem} | {puzzle.width}x{puzzle.height} | {row['pairs']} | "
                      f"{cell(row['gridcp'], 'nodes')} ({engine}) | "
                      f"{cell(row['go'], 'calls') if have_go else '-'} |", flush=True)
                batch.append(row)
            rows += batch
            print("\n" + summary("gridcp ADC 2015 lenient", batch, "gridcp"))
    if args.out:
        with args.out.open("w") as handle:
            for row in rows:
                handle.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

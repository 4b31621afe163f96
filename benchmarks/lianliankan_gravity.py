"""Lianliankan with gravity: the figures of docs/lianliankan.md (gravity part).

Run as a script (``python benchmarks/lianliankan_gravity.py SECTION ...``;
``--boards 5`` for a small sample).
Prints one JSON row per section; with ``--out FILE`` appends them there.
Timings are wall-clock on whatever machine runs it; the rows also give the
search's nodes and states, which do not depend on the machine.

Sections:
  full      random full boards (pictures x 4), border ring, gravity, 18 x 8
            and 16 x 9: SOLVED / UNSAT / LIMIT, time and nodes (median, p99, max);
            full18 / full16 one size; ``--first`` the first seed, ``--max-nodes``
            a budget of nodes per board (with ``--time-limit 0``: a figure
            that does not depend on the machine or its load), ``--cpu-limit``
            a limit in CPU seconds of the process instead of wall-clock ones
            (on a loaded machine a process gets a share of a core)
  generate  ``generate --full --border --solvable --gravity``: the rate, and the
            search on every board
  kshisen   full 18 x 8 gravity boards: the search's verdict against KShisen's
            greedy filter (no gravity in its game) on the same boards
  cpsat     the CP-SAT backend with gravity on small full boards (and the
            search's verdict on each)
  cpsat-full  the CP-SAT backend without gravity on full 18 x 8 boards with the
            ring (with the search's hint, as by default, and the search's verdict)
Board k of a section is ``random.Random(k)`` (kshisen: the boards of full 18 x 8);
the full sections take k from ``--first`` on.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


import search.lianliankan.solver as solver_module  # noqa: E402
from cpmodels.lianliankan import CpSatBackend  # noqa: E402
from search.lab.cpu import CpuDeadline  # noqa: E402
from search.lianliankan.generate import full_fill  # noqa: E402
from search.lianliankan.kshisen import kshisen_solvable  # noqa: E402
from search.lianliankan.model import Board  # noqa: E402
from search.lianliankan.solver import SearchBackend  # noqa: E402
from search.lianliankan.verify import verify  # noqa: E402

SUMMARY = re.compile(r"\(([\d.]+) per second, (\d+) drawn")
SOLVABLE = ["--full", "--border", "--solvable", "--seed", "1"]  # 18 x 8, 36 pictures x 4


def _generate(options: list[str], boards: int) -> tuple[list[Board], dict]:
    """The boards of ``gridcp generate lianliankan OPTIONS --count N --json``,
    and the rate and draws of its summary line."""
    command = [sys.executable, "-m", "search", "generate", "lianliankan", *options,
               "--count", str(boards), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    grids = [json.loads(line) for line in done.stdout.splitlines()]
    found = SUMMARY.search(done.stderr)
    assert found, done.stderr
    summary = {"per_second": float(found.group(1)), "drawn": int(found.group(2))}
    return [Board(tuple(map(tuple, g["grid"])), border=g["border"]) for g in grids], summary


def _check(backend, board: Board, time_limit: float):
    result = backend.solve(board, time_limit=time_limit)
    if result.solution is not None:
        assert verify(board, result.solution) == [], "a solution failed verification"
    return result


def _spread(name: str, values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {f"{name}_median": statistics.median(values),
            f"{name}_p99": values[min(len(values) - 1, int(0.99 * len(values)))],
            f"{name}_max": values[-1]}


def _full(width: int, height: int, seed: int) -> Board:
    return Board(full_fill(width, height, width * height // 4, random.Random(seed)),
                 border=True, gravity=True)


PROGRESS: list[str] = []  # a file that gets one JSON line per board, if any


def _progress(**row) -> None:
    if PROGRESS:
        with open(PROGRESS[0], "a") as f:
            f.write(json.dumps(row) + "\n")


def bench_full(width: int, height: int, boards: int, time_limit: float | None, first: int = 0,
               max_nodes: int | None = None) -> dict:
    counts = {"SOLVED": 0, "UNSAT": 0, "LIMIT": 0}
    times, nodes, limits = [], [], []
    for seed in range(first, first + boards):
        cpu = time.process_time()
        result = _check(SearchBackend(max_nodes=max_nodes), _full(width, height, seed),
                        time_limit)
        _progress(size=f"{width}x{height}", seed=seed, status=str(result.status),
                  seconds=round(result.wall, 4), cpu=round(time.process_time() - cpu, 4),
                  **result.effort)
        counts[str(result.status)] += 1
        times.append(result.wall)
        nodes.append(result.effort.get("nodes", 0))
        if str(result.status) == "LIMIT":
            limits.append(seed)
    return {"section": "full", "size": f"{width}x{height}", "boards": boards,
            "time_limit": time_limit, "max_nodes": max_nodes, "first": first, **counts,
            **_spread("seconds", times), **_spread("nodes", nodes), "undecided_seeds": limits}


def bench_generate(boards: int, time_limit: float) -> dict:
    grids, summary = _generate([*SOLVABLE, "--gravity"], boards)
    counts = {"SOLVED": 0, "UNSAT": 0, "LIMIT": 0}
    nodes = []
    for board in grids:
        result = _check(SearchBackend(), dataclasses.replace(board, gravity=True), time_limit)
        counts[str(result.status)] += 1
        nodes.append(result.effort.get("nodes", 0))
    return {"section": "generate", "size": "18x8", "boards": boards,
            "per_second": summary["per_second"], "drawn": summary["drawn"], **counts,
            **_spread("nodes", nodes)}


def bench_kshisen(boards: int, time_limit: float) -> dict:
    table = {f"{search}/{filt}": 0 for search in ("SOLVED", "UNSAT", "LIMIT")
             for filt in ("accepts", "rejects")}
    for seed in range(boards):
        board = _full(18, 8, seed)
        verdict = str(_check(SearchBackend(), board, time_limit).status)
        table[f"{verdict}/{'accepts' if kshisen_solvable(board) else 'rejects'}"] += 1
    decided = boards - table["LIMIT/accepts"] - table["LIMIT/rejects"]
    solved = table["SOLVED/accepts"] + table["SOLVED/rejects"]
    return {"section": "kshisen", "size": "18x8", "boards": boards, **table,
            "clearable_share": solved / decided if decided else None,
            "filter_accepts": table["SOLVED/accepts"] + table["UNSAT/accepts"]
            + table["LIMIT/accepts"]}


CPSAT_SIZES = [(4, 4), (6, 4), (8, 4), (8, 6)]


def bench_cpsat(width: int, height: int, boards: int, time_limit: float) -> dict:
    counts = {"SOLVED": 0, "UNSAT": 0, "LIMIT": 0, "disagree": 0}
    times = []
    for seed in range(boards):
        board = _full(width, height, seed)
        result = _check(CpSatBackend(workers=1, seed=0), board, time_limit)
        counts[str(result.status)] += 1
        times.append(result.wall)
        if str(result.status) != "LIMIT":
            counts["disagree"] += result.status != SearchBackend().solve(board).status
    return {"section": "cpsat", "size": f"{width}x{height}", "tiles": width * height,
            "boards": boards, "time_limit": time_limit, **counts, **_spread("seconds", times)}


def bench_cpsat_full(boards: int, time_limit: float) -> dict:
    counts = {"SOLVED": 0, "UNSAT": 0, "LIMIT": 0, "disagree": 0, "hinted": 0}
    times, limits = [], []
    for seed in range(boards):
        board = dataclasses.replace(_full(18, 8, seed), gravity=False)
        result = _check(CpSatBackend(workers=1, seed=0), board, time_limit)
        counts[str(result.status)] += 1
        counts["hinted"] += int(result.effort.get("hinted", 0))
        times.append(result.wall)
        _progress(size="18x8", seed=seed, backend="cpsat", status=str(result.status),
                  seconds=round(result.wall, 4), **result.effort)
        if str(result.status) == "LIMIT":
            limits.append(seed)
        else:
            counts["disagree"] += result.status != SearchBackend().solve(board).status
    return {"section": "cpsat-full", "size": "18x8", "boards": boards,
            "time_limit": time_limit, **counts, **_spread("seconds", times),
            "undecided_seeds": limits}


def run(sections: list[str], boards: int, time_limit: float | None, out: str | None,
        first: int = 0, max_nodes: int | None = None) -> list[dict]:
    rows = []

    def emit(row: dict) -> None:
        rows.append(row)
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v
                          for k, v in row.items()}), flush=True)
        if out:
            with open(out, "a") as f:
                f.write(json.dumps(row) + "\n")

    if "full" in sections:
        emit(bench_full(18, 8, boards, time_limit, first, max_nodes))
        emit(bench_full(16, 9, boards, time_limit, first, max_nodes))
    if "full18" in sections:
        emit(bench_full(18, 8, boards, time_limit, first, max_nodes))
    if "full16" in sections:
        emit(bench_full(16, 9, boards, time_limit, first, max_nodes))
    if "generate" in sections:
        emit(bench_generate(boards, time_limit))
    if "kshisen" in sections:
        emit(bench_kshisen(boards, time_limit))
    if "cpsat-full" in sections:
        emit(bench_cpsat_full(boards, time_limit))
    if "cpsat" in sections:
        for width, height in CPSAT_SIZES:
            emit(bench_cpsat(width, height, boards, time_limit))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sections", nargs="*", default=["full", "generate", "kshisen", "cpsat"])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--first", type=int, default=0,
                        help="full sections: the first seed (fresh boards: a new range)")
    parser.add_argument("--max-nodes", type=int,
                        help="full sections: a budget of nodes per board (a figure that does "
                        "not depend on the machine; --time-limit 0 for none)")
    parser.add_argument("--cpu-limit", action="store_true",
                        help="full sections: --time-limit counts CPU seconds of the process")
    parser.add_argument("--out", help="append the rows as JSON lines to this file")
    parser.add_argument("--progress", help="append one JSON line per board to this file")
    args = parser.parse_args()
    if args.progress:
        PROGRESS.append(args.progress)
    if args.cpu_limit:
        solver_module.Deadline = CpuDeadline  # type: ignore[misc]
    run(args.sections, args.boards, args.time_limit or None, args.out, args.first, args.max_nodes)


if __name__ == "__main__":
    main()

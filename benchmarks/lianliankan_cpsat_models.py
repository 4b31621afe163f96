"""The CP-SAT Lianliankan models on fresh full boards: the figures of
docs/lianliankan-cpsat.md ("Gravity: the stack model", "Full 18 x 8 boards").

    python benchmarks/lianliankan_cpsat_models.py gravity --size 8x6 --boards 10
    python benchmarks/lianliankan_cpsat_models.py plain --size 18x8 --boards 100
    python benchmarks/lianliankan_cpsat_models.py gravity --size 16x9 --first 7000 --boards 30 \
        --no-hint --dtime 5

Board k is ``full_fill(width, height, width * height // 4, random.Random(first + k))``
with the border ring (``--no-ring`` without).  CP-SAT runs with one worker,
seed 0 and a budget of ``--dtime`` deterministic seconds (work, the same on
any machine); ``--time-limit`` (wall seconds) only guards against a stall.
Each board prints one JSON line: verdict, the search's verdict, CPU and wall
seconds of the whole call (hint, model, CP-SAT), the model's build time
(gravity), and CP-SAT's deterministic time; a summary line ends the run.
Every SOLVED answer is replayed by ``verify``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cpmodels.lianliankan import CpSatBackend  # noqa: E402
from cpmodels.lianliankan.stacks import StackModel  # noqa: E402
from search.lianliankan.generate import full_fill  # noqa: E402
from search.lianliankan.model import Board  # noqa: E402
from search.lianliankan.solver import SearchBackend  # noqa: E402
from search.lianliankan.verify import verify  # noqa: E402


def run(args: argparse.Namespace) -> None:
    width, height = map(int, args.size.split("x"))
    gravity = args.section == "gravity"
    rows = []
    for seed in range(args.first, args.first + args.boards):
        board = Board(full_fill(width, height, width * height // 4, random.Random(seed)),
                      border=not args.no_ring, gravity=gravity)
        build = None
        if gravity:
            clock = time.process_time()
            StackModel(board)
            build = round(time.process_time() - clock, 3)
        clock, wall = time.process_time(), time.perf_counter()
        backend = CpSatBackend(workers=1, seed=0, dtime=args.dtime, hint=not args.no_hint,
                               apart=args.apart)
        result = backend.solve(board, time_limit=args.time_limit)
        cpu, wall = time.process_time() - clock, time.perf_counter() - wall
        if result.solution is not None:
            assert verify(board, result.solution) == [], seed
        clock = time.process_time()
        searched = SearchBackend().solve(board, time_limit=120)
        search, search_cpu = searched.status, round(time.process_time() - clock, 3)
        row = {"seed": seed, "status": str(result.status), "search": str(search),
               "cpu": round(cpu, 3), "wall": round(wall, 3), "build_cpu": build,
               "dtime": result.effort.get("deterministic_time"),
               "hinted": result.effort.get("hinted"), "search_cpu": search_cpu,
               "search_nodes": searched.effort.get("nodes"), "message": result.message}
        if str(result.status) != "LIMIT" and str(search) != "LIMIT":
            assert result.status is search, (seed, result.status, search)
        rows.append(row)
        print(json.dumps(row), flush=True)
    decided = [r for r in rows if r["status"] != "LIMIT"]
    summary = {
        "section": args.section, "size": args.size, "ring": not args.no_ring,
        "boards": len(rows), "dtime_budget": args.dtime, "hint": not args.no_hint,
        "SOLVED": sum(r["status"] == "SOLVED" for r in rows),
        "UNSAT": sum(r["status"] == "UNSAT" for r in rows),
        "LIMIT": [r["seed"] for r in rows if r["status"] == "LIMIT"],
        "cpu_median": statistics.median(r["cpu"] for r in rows),
        "cpu_max": max(r["cpu"] for r in rows),
        "search_UNSAT": sum(r["search"] == "UNSAT" for r in rows),
        "search_cpu_median": statistics.median(r["search_cpu"] for r in rows),
        "search_cpu_max": max(r["search_cpu"] for r in rows),
        "dtime_median": statistics.median(r["dtime"] or 0 for r in decided) if decided else None,
        "dtime_max": max((r["dtime"] or 0 for r in decided), default=None),
    }
    if gravity:
        summary["build_cpu_max"] = max(r["build_cpu"] for r in rows)
    print(json.dumps(summary), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("section", choices=["gravity", "plain"])
    parser.add_argument("--size", default="8x6")
    parser.add_argument("--boards", type=int, default=10)
    parser.add_argument("--first", type=int, default=1000, help="the first seed (fresh boards)")
    parser.add_argument("--dtime", type=float, default=10.0)
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--no-ring", action="store_true")
    parser.add_argument("--no-hint", action="store_true")
    parser.add_argument("--apart", action="store_true")
    run(parser.parse_args())


if __name__ == "__main__":
    main()

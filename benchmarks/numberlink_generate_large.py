"""Benchmark of the well-designed Numberlink generator at 20x20 to 40x40.

    python benchmarks/numberlink_generate_large.py [--sizes 20 30] [--boards 20]
        [--first-seed 65001] [--recheck] [--time-limit 60] [--save DIR]
        [--ddnumlin PATH] [--out FILE.json]

For each size, ``--boards`` boards from seeds ``first-seed + 1000 * k`` on
(k the size's place in ``--sizes``), each made in this process by
``search.pipelines.numberlink_generate.well_designed`` (what ``gridcp generate
numberlink --size N --seed S`` runs): the CPU seconds of the process (they
depend on the machine and its load; the work does not), the check's step that
proved the board, its pairs, cuts, checks and boards drawn, and the work
(CP-SAT deterministic seconds, ``search`` nodes of the sweep, frontier
states).  The board's solution is checked by ``verify``; with ``--recheck``
the board is checked again by ``check`` with its default budget (as ``gridcp
check`` does, within ``--time-limit`` seconds), which must say WELL-DESIGNED
with the generator's solution.  With ``--ddnumlin`` (TdZdd's exact counter,
built from its public sources outside the checkout) every board up to 14 x 14
is counted under both rules, which must both give 1.  ``--save DIR`` writes
each board (puzzle and solution) for later runs.  Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from search.core.contract import Status  # noqa: E402
from search.lab.peers import DdNumlin, run_peer  # noqa: E402
from search.numberlink import KIND  # noqa: E402
from search.numberlink.io import format_puzzle, format_solution  # noqa: E402
from search.numberlink.verify import verify  # noqa: E402
from search.pipelines.numberlink_check import check  # noqa: E402
from search.pipelines.numberlink_generate import well_designed  # noqa: E402

DDNUMLIN_CELLS = 14 * 14  # TdZdd's exact counts up to 14 x 14


def ddnumlin_counts(exe: str, puzzle) -> str:
    """TdZdd's exact counts under both rules, "lenient/full"."""
    counts = []
    for rules in (puzzle.lenient(), puzzle.covering()):
        answer = run_peer({"name": DdNumlin.name, "command": exe}, KIND, rules, "count", 600)
        counts.append(str(answer["count"]) if answer.get("status") == str(Status.COUNTED)
                      else answer.get("status", "?"))
    return "/".join(counts)


def one(size: int, seed: int, recheck: bool, time_limit: float | None = None,
        ddnumlin: str | None = None, save: Path | None = None) -> dict:
    cpu = time.process_time()
    made = well_designed(size, size, seed)
    cpu = time.process_time() - cpu
    record = {"size": size, "seed": seed, "cpu": round(cpu, 3), "proved_by": made.proved_by,
              "pairs": len(made.puzzle.pairs), "cuts": made.cuts, "checks": made.checks,
              "boards": made.boards, "effort": made.effort,
              "verify": verify(made.puzzle, made.solution)}
    if recheck:
        again = time.process_time()
        report = check(made.puzzle, time_limit=time_limit)
        record["recheck"] = report.verdict
        record["recheck_by"] = report.engine
        record["recheck_cpu"] = round(time.process_time() - again, 3)
        record["recheck_same"] = bool(report.ok) and report.solution.edges == made.solution.edges
    if ddnumlin and size * size <= DDNUMLIN_CELLS:
        record["ddnumlin"] = ddnumlin_counts(ddnumlin, made.puzzle)
    if save is not None:
        save.mkdir(parents=True, exist_ok=True)
        (save / f"well-designed_{size}_{seed}.nl").write_text(
            format_puzzle(made.puzzle) + "\n" + format_solution(made.puzzle, made.solution))
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 30])
    parser.add_argument("--boards", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=65001)
    parser.add_argument("--recheck", action="store_true")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="the re-check's time limit in seconds (as gridcp check --time-limit)")
    parser.add_argument("--ddnumlin", default=None, metavar="PATH",
                        help="TdZdd's ddnumlin: exact counts of every board up to 14 x 14")
    parser.add_argument("--save", type=Path, default=None, metavar="DIR")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    counted = args.ddnumlin is not None and min(args.sizes) ** 2 <= DDNUMLIN_CELLS
    print(f"load before: {os.getloadavg()}, {os.cpu_count()} CPUs\n", flush=True)
    print("| size | seed | pairs | cuts | checks | proved by | det s | sweep nodes | CPU s |"
          + (" re-check |" if args.recheck else "")
          + (" ddnumlin lenient/full |" if counted else ""))
    print("|---|---|---|---|---|---|---|---|---|" + ("---|" if args.recheck else "")
          + ("---|" if counted else ""))
    records = []
    for k, size in enumerate(args.sizes):
        for b in range(args.boards):
            r = one(size, args.first_seed + 1000 * k + b, args.recheck, args.time_limit,
                    args.ddnumlin, args.save)
            records.append(r)
            effort = r["effort"]
            line = (f"| {size}x{size} | {r['seed']} | {r['pairs']} | {r['cuts']} | {r['checks']} |"
                    f" {r['proved_by']} | {effort.get('check.cpsat.deterministic_time', 0):.2f} |"
                    f" {int(effort.get('sweep.nodes', 0))} | {r['cpu']:.2f} |")
            if args.recheck:
                line += f" {r['recheck']} by {r['recheck_by']}, {r['recheck_cpu']:.2f} s |"
            if counted:
                line += f" {r.get('ddnumlin', '')} |"
            print(line + (" VERIFY FAILS" if r["verify"] else ""), flush=True)
    print(f"\nload after: {os.getloadavg()}\n")
    print("| size | boards | CPU s median / max | proved by |")
    print("|---|---|---|---|")
    for size in args.sizes:
        mine = [r for r in records if r["size"] == size]
        cpu = [r["cpu"] for r in mine]
        by: dict[str, int] = {}
        for r in mine:
            by[r["proved_by"]] = by.get(r["proved_by"], 0) + 1
        print(f"| {size}x{size} | {len(mine)} | {statistics.median(cpu):.2f} / {max(cpu):.2f} |"
              f" {', '.join(f'{k} {v}' for k, v in sorted(by.items(), key=lambda kv: -kv[1]))} |")
    if args.recheck:
        bad = [r for r in records if not r.get("recheck_same")]
        print(f"\nre-checked by `check` (default budget): {len(records) - len(bad)} of "
              f"{len(records)} WELL-DESIGNED with the generator's solution")
    if counted:
        small = [r for r in records if "ddnumlin" in r]
        print(f"\nTdZdd ddnumlin exact counts 1/1 (lenient/full cover): "
              f"{sum(r['ddnumlin'] == '1/1' for r in small)} of {len(small)} boards")
    if args.out:
        args.out.write_text(json.dumps(records, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Exact Numberlink counts side by side: gridcp's frontier against TdZdd's ddnumlin.

    python benchmarks/numberlink_ddnumlin.py [--runs 3] [--only NAME ...]
        [--ddnumlin PATH] [--no-process] [--out FILE.json]

Every Flow Free level of ``../shared/instances-public/numberlink/
mzucker-flow_solver/puzzles`` under both rules: full cover (ddnumlin ``-m 0
-a -k 0``: no blank cell) and lenient (``-m 0 -a``: blank cells allowed),
the commands behind EXPECTED_COUNTS.csv.  ddnumlin counts the edge sets in
which every number has degree 1, every other cell degree 0 or 2, and the
paths join equal numbers without cycles: gridcp's two rules exactly (a path
may touch itself under both), so like is compared with like; the counts must
agree with each other and with EXPECTED_COUNTS.csv, and any disagreement is
printed as one.

Three timings per board and rule, each the best of --runs (the machine may
be shared: CPU seconds are less disturbed by other processes than wall
seconds, and both are printed):

- ``gridcp in-process``: ``FrontierBackend().count`` called in this process
  (numpy imported once), wall and CPU seconds;
- ``gridcp process``: ``python -m search count --backend frontier FILE`` as a
  whole process (interpreter and imports included), wall and CPU seconds of
  the child;
- ``ddnumlin``: the whole process, wall and CPU seconds of the child.

Then per rule: the median and worst of each, the ratio gridcp / ddnumlin per
board (in-process CPU against ddnumlin's CPU, the engine against the tool;
and process against process), and the share of boards within 3x.  ddnumlin
is built from TdZdd's public sources outside the checkout
(docs/benchmarks.md); its path: --ddnumlin, else $GRIDCP_PEER_DDNUMLIN,
else the suite's ``../peers/tdzdd/apps/numberlink/ddnumlin``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from search.core.processes import Finished, run_child  # noqa: E402
from search.lab.peers import DdNumlin  # noqa: E402
from search.numberlink.frontier import FrontierBackend  # noqa: E402
from search.numberlink.io import parse  # noqa: E402

PUBLIC = ROOT.parent / "shared" / "instances-public" / "numberlink"  # beside the checkout
FLOW = "mzucker-flow_solver/puzzles"
PEER = ROOT.parent / "peers" / "tdzdd" / "apps" / "numberlink" / "ddnumlin"  # built by hand
RULES = ("full", "lenient")
COLUMN = {"full": "n_R2_fullcover", "lenient": "n_R1_lenient"}
COUNTED = re.compile(r"COUNTED (\d+)")


def expected() -> dict[str, dict[str, str]]:
    with (PUBLIC / "EXPECTED_COUNTS.csv").open() as handle:
        return {row["file"]: row for row in csv.DictReader(handle)
                if row["file"].startswith(FLOW)}


def child(command: list[str]) -> tuple[Finished, float, float]:
    """Run a whole process: (its result, wall seconds, its CPU seconds)."""
    done = run_child(command, "", None)
    return done, done.wall, done.cpu


def measure(path: Path, rule: str, runs: int, ddnumlin: str, process: bool) -> dict:
    puzzle = parse(path.read_text(), str(path))
    if rule == "lenient":
        puzzle = puzzle.lenient()
    peer = DdNumlin()
    record: dict = {"board": path.stem, "rule": rule}
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write(peer.write(puzzle))
    try:
        best = {}
        for _ in range(runs):
            start, cpu = time.perf_counter(), time.process_time()
            result = FrontierBackend().count(puzzle)
            timing = (time.perf_counter() - start, time.process_time() - cpu)
            best["in"] = min(best.get("in", timing), timing, key=lambda t: t[1])
            record["gridcp"] = result.count if result.status.name == "COUNTED" else None
            record["states"] = int(result.effort.get("states", 0))
            record["transitions"] = int(result.effort.get("transitions", 0))

            done, wall, used = child(peer.command(ddnumlin, puzzle, "count", handle.name))
            answer = peer.read(puzzle, "count", done.out, done.err, done.code)
            record["ddnumlin"] = answer.count
            best["dd"] = min(best.get("dd", (wall, used)), (wall, used), key=lambda t: t[1])

            if process:
                command = [sys.executable, "-m", "search", "count", "--backend", "frontier",
                           *(["--lenient"] if rule == "lenient" else []), str(path)]
                done, wall, used = child(command)
                found = COUNTED.search(done.out)
                record["process_count"] = int(found.group(1)) if found else None
                best["proc"] = min(best.get("proc", (wall, used)), (wall, used),
                                   key=lambda t: t[1])
    finally:
        os.unlink(handle.name)
    for key, (wall, cpu) in best.items():
        record[f"{key}_wall"], record[f"{key}_cpu"] = wall, cpu
    return record


def ratio(r: dict, key: str = "in_cpu") -> float:
    """gridcp's CPU seconds over ddnumlin's (at least 1 ms); infinite for a LIMIT."""
    return float("inf") if r["limit"] else r[key] / max(r["dd_cpu"], 1e-3)


def summary(records: list[dict], rule: str, process: bool) -> list[str]:
    rows = [r for r in records if r["rule"] == rule]

    def stat(key: str) -> str:
        values = [r[key] for r in rows]
        return f"{statistics.median(values):.3f} / {max(values):.3f}"

    ratios = [ratio(r) for r in rows]
    within = sum(x <= 3 for x in ratios)  # a LIMIT (no count) is never within
    lines = [f"| {rule} | {len(rows)} | {stat('in_cpu')} | {stat('in_wall')} | "
             f"{stat('dd_cpu')} | {stat('dd_wall')} | "
             f"{statistics.median(ratios):.2f} / {max(ratios):.2f} | {within} of {len(rows)} |"
             + (f" {stat('proc_cpu')} | {stat('proc_wall')} | "
                f"{sum(ratio(r, 'proc_cpu') <= 3 for r in rows)} of {len(rows)} |"
                if process else "")]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", nargs="*", help="board names (file stems)")
    parser.add_argument("--ddnumlin", default=os.environ.get("GRIDCP_PEER_DDNUMLIN", str(PEER)))
    parser.add_argument("--no-process", action="store_true",
                        help="skip the whole-process gridcp runs")
    parser.add_argument("--out", help="every record as JSON")
    parser.add_argument("--tables", metavar="FILE.json",
                        help="print the tables of the records of an earlier --out, no runs")
    args = parser.parse_args()
    if args.tables:
        records = json.loads(Path(args.tables).read_text())
        tables(records, all("proc_cpu" in r for r in records))
        return
    if not Path(args.ddnumlin).exists():
        sys.exit(f"no ddnumlin at {args.ddnumlin} (build it from TdZdd, docs/benchmarks.md)")
    table = expected()
    process = not args.no_process
    records = []
    print(f"load {os.getloadavg()[0]:.1f}; best of {args.runs} runs; seconds\n")
    print("| board | rule | count | in-process CPU | wall | states | ddnumlin CPU | wall | "
          "ratio (CPU) |" + (" process CPU | wall | ratio (process CPU) |" if process else ""))
    print("|---|---|---|---|---|---|---|---|---|" + ("---|---|---|" if process else ""))
    paths = sorted((PUBLIC / FLOW).glob("*.txt"), key=lambda p: (len(p.stem), p.stem))
    for path in paths:
        if args.only and path.stem not in args.only:
            continue
        for rule in RULES:
            r = measure(path, rule, args.runs, args.ddnumlin, process)
            known = table.get(f"{FLOW}/{path.name}", {}).get(COLUMN[rule])
            answers = {r["gridcp"], r["ddnumlin"], *([r["process_count"]] if process else [])}
            if known and known.isdigit():
                answers.add(int(known))
            r["limit"] = None in answers  # gridcp stopped at its state bound: no count
            r["agree"] = len(answers - {None}) == 1
            records.append(r)
            count = r["ddnumlin"] if r["agree"] else f"DISAGREE {sorted(answers, key=str)}"
            if r["limit"]:
                count = f"{count} (gridcp: LIMIT)"
            r["count"] = count
            print(row(r, process), flush=True)
    tables(records, process, rows=False)
    print(f"load {os.getloadavg()[0]:.1f} at the end")
    if args.out:
        Path(args.out).write_text(json.dumps(records, indent=1))


def row(r: dict, process: bool) -> str:
    line = (f"| {r['board']} | {r['rule']} | {r['count']} | {r['in_cpu']:.3f} | "
            f"{r['in_wall']:.3f} | {r['states']} | {r['dd_cpu']:.3f} | "
            f"{r['dd_wall']:.3f} | {ratio(r):.2f} |")
    if process:
        line += f" {r['proc_cpu']:.3f} | {r['proc_wall']:.3f} | {ratio(r, 'proc_cpu'):.1f} |"
    return line


def tables(records: list[dict], process: bool, rows: bool = True) -> None:
    if rows:
        print("| board | rule | count | in-process CPU | wall | states | ddnumlin CPU | wall | "
              "ratio (CPU) |" + (" process CPU | wall | ratio (process CPU) |" if process else ""))
        print("|---|---|---|---|---|---|---|---|---|" + ("---|---|---|" if process else ""))
        for r in records:
            print(row(r, process))
    print("\nmedian / worst seconds; ratio = gridcp in-process CPU / ddnumlin CPU "
          "(a ddnumlin time under 1 ms counts as 1 ms)\n")
    print("| rule | boards | gridcp in-process CPU | wall | ddnumlin CPU | wall | ratio | "
          "within 3x |" + (" gridcp process CPU | wall | within 3x |" if process else ""))
    print("|---|---|---|---|---|---|---|---|" + ("---|---|---|" if process else ""))
    for rule in RULES:
        print("\n".join(summary(records, rule, process)))
    wrong = [f"{r['board']} {r['rule']}" for r in records if not r["agree"]]
    print(f"\ndisagreements: {len(wrong)}" + (f" ({', '.join(wrong)})" if wrong else ""))
    stopped = [f"{r['board']} {r['rule']}" for r in records if r["limit"]]
    print(f"gridcp LIMIT (no count): {len(stopped)}"
          + (f" ({', '.join(stopped)})" if stopped else ""))


if __name__ == "__main__":
    main()

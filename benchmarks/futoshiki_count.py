"""Benchmark of ``count-dp`` on random clue sets that no other tool counts.

    python benchmarks/futoshiki_count.py [--n 7] [--puzzles 30] [--seed 1]
        [--inequalities 1-14] [--givens 0-4] [--memory-mb MB] [--max-states N]
        [--plan auto|rows|layers|ranks] [--time-limit S] [--cpu-limit S] [--json FILE]
        [--peers d4,ganak] [--peer-time-limit S] [--identities]

Each puzzle is a seeded random clue set: ``k`` inequalities on distinct
neighbouring pairs (random directions) and ``g`` givens on distinct cells
(random values), ``k`` and ``g`` drawn from the given ranges; half of them are
read off a random Latin square (so they have solutions), half are not (they
may have none).  A count past the memory budget (``--memory-mb``, default the
backend's 640 MB) or ``--max-states`` is LIMIT (no fallback to ``propagate``),
so the figures are the DP's own.  Every count runs in a process of its own
(a cold table cache), one after the other (one core), which reports its CPU
seconds and its peak resident memory (``VmHWM``, else ``ru_maxrss``).  Prints
one line per puzzle and a Markdown summary: status, count, CPU seconds, the
peak memory, the deterministic effort (the most states after a step), the
plan that counted (``rows``, ``layers``, ``ranks``, or ``propagate``'s quick count) and
the number of verified solutions kept as evidence.  A count of 0 for a clue
set read off a square (whose square is a solution) or evidence that fails
verification is a wrong answer: named at the end, exit status 1.  Never
asserts a time: it reports.

``--peers d4,ganak`` counts each puzzle also with those #SAT counters (the
peers of ``search.lab.peers``, on the puzzle's DIMACS CNF, each within
``--peer-time-limit`` wall-clock seconds), ``--identities`` counts its
transpose and its values reversed (``v`` read as ``n + 1 - v``, every
inequality turned) with ``count-dp``; a table gives, per counter, the counts
both finished and how many agree, and a count that differs from
``count-dp``'s is a wrong answer too.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from search.core.contract import CountResult, Deadline, Status  # noqa: E402
from search.core.registry import kind  # noqa: E402
from search.futoshiki.countdp import COUNTERS, CountDPBackend, count_dp  # noqa: E402
from search.futoshiki.countdp.layers import reversed_values  # noqa: E402
from search.futoshiki.countdp.rows import StateSpaceTooLarge, transpose  # noqa: E402
from search.futoshiki.io import format_seed, parse  # noqa: E402
from search.futoshiki.model import Futoshiki  # noqa: E402
from search.futoshiki.verify import verify  # noqa: E402
from search.lab.peers import PEERS, locate, run_peer  # noqa: E402


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
        engine = CountDPBackend(progress=False, fallback=False, max_states=args.max_states,
                                memory_mb=args.memory_mb)
        return engine.count(puzzle, time_limit=args.time_limit)
    stats: dict = {}
    memory = args.memory_mb or 640
    try:
        total = count_dp(puzzle, max_states=args.max_states, stats=stats, plan=args.plan,
                         deadline=Deadline(args.time_limit),
                         max_bytes=int((memory - 64) * 2**20))
    except StateSpaceTooLarge as error:
        return CountResult(Status.LIMIT, 0, 0.0, stats, str(error))
    except KeyboardInterrupt:
        return CountResult(Status.LIMIT, 0, 0.0, stats, "interrupted")
    return CountResult(Status.COUNTED, total, 0.0, stats)


def peak_mb() -> float:
    """This process's peak resident memory (``VmHWM``: ``ru_maxrss`` would keep
    the parent's peak from before the exec)."""
    try:
        with open("/proc/self/status") as status:
            return int(status.read().split("VmHWM:")[1].split()[0]) / 1024
    except (OSError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def stop_at_cpu(seconds: float) -> None:
    """After ``seconds`` of this process's CPU, interrupt the count (it answers
    LIMIT with its lower bound): on a shared machine the CPU, not the wall
    clock, says whether a count fits a budget of seconds."""
    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGXCPU, interrupt)
    whole = max(1, math.ceil(seconds))
    resource.setrlimit(resource.RLIMIT_CPU, (whole, whole + 30))


def child(args: argparse.Namespace) -> int:
    """One count, of the puzzle on stdin: one JSON line."""
    puzzle = parse(sys.stdin.read())
    if args.cpu_limit:
        stop_at_cpu(args.cpu_limit)
    wall, cpu = time.perf_counter(), time.process_time()
    result = run_count(puzzle, args)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    bad = [p for s in result.solutions for p in verify(puzzle, s)]
    print(json.dumps({"status": str(result.status), "count": result.count,
                      "wall": round(wall, 3), "cpu": round(cpu, 3), "peak_mb": round(peak_mb(), 1),
                      "evidence": len(result.solutions), "evidence_ok": not bad,
                      **{key: result.effort.get(key) for key in
                         ("plan", "states", "pieces", "upper_states", "lower_states",
                          "forward_states", "backward_states", "rows_over_budget",
                          "layers_over_budget", "halved")},
                      "message": result.message}))
    return 0


def in_child(puzzle: Futoshiki, argv: list[str]) -> dict:
    done = subprocess.run([sys.executable, __file__, "--child", *argv],
                          input=format_seed(puzzle), capture_output=True, text=True)
    if done.returncode:
        return {"status": "ERROR", "count": 0, "wall": 0.0, "cpu": 0.0, "peak_mb": 0.0,
                "evidence": 0, "plan": None, "states": None,
                "message": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout)


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
    parser.add_argument("--cpu-limit", type=float,
                        help="stop each count after this many CPU seconds (LIMIT)")
    parser.add_argument("--memory-mb", type=float,
                        help="count-dp's memory budget (default: the backend's, 640 MB)")
    parser.add_argument("--max-states", type=int,
                        help="count-dp's state budget (default: none, the memory alone)")
    parser.add_argument("--plan", choices=("auto", *COUNTERS), default="auto")
    parser.add_argument("--peers", type=lambda text: text.split(","), default=[],
                        metavar="NAME,...", help="also count with these #SAT peers (d4, ganak)")
    parser.add_argument("--peer-time-limit", type=float, default=60.0,
                        help="each peer's wall-clock seconds per puzzle")
    parser.add_argument("--identities", action="store_true",
                        help="also count the transpose and the values reversed (the same count)")
    parser.add_argument("--json", type=Path, help="write every record to this file")
    parser.add_argument("--show", action="store_true", help="print each puzzle")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(args)
    passed = [f"--time-limit={args.time_limit}", f"--plan={args.plan}"]
    passed += [f"--cpu-limit={args.cpu_limit}"] if args.cpu_limit else []
    passed += [f"--memory-mb={args.memory_mb}"] if args.memory_mb else []
    passed += [f"--max-states={args.max_states}"] if args.max_states else []
    peers = {}
    for name in args.peers:
        peer = PEERS.get(name)
        counts = peer is not None and peer.puzzle == "futoshiki" and "count" in peer.calls
        exe, where = locate(name, None) if counts else (None, "no peer that counts Futoshikis")
        if exe is None:
            print(f"futoshiki_count: peer {name}: {where}", file=sys.stderr)
            return 2
        peers[name] = exe
    rng = random.Random(args.seed)
    records = []
    print(f"# count-dp (plan {args.plan}) on {args.puzzles} random {args.n}x{args.n} clue sets "
          f"(seed {args.seed}, inequalities {args.inequalities}, givens {args.givens})")
    for i in range(args.puzzles):
        k, g = rng.randint(*args.inequalities), rng.randint(*args.givens)
        puzzle = clue_set(args.n, k, g, rng, consistent=i % 2 == 0)
        record = {"i": i, "n": args.n, "inequalities": k, "givens": g,
                  "consistent": i % 2 == 0, **in_child(puzzle, passed)}
        if args.identities and record["status"] == "COUNTED":
            record["identities"] = [counted(in_child(p, passed))
                                    for p in (transpose(puzzle), reversed_values(puzzle))]
        record["peers"] = {name: run_peer({"name": name, "command": exe}, kind("futoshiki"),
                                          puzzle, "count", args.peer_time_limit)
                           for name, exe in peers.items()}
        records.append(record)
        print(json.dumps(record), flush=True)
        if args.show:
            print(format_seed(puzzle))
    done = [r for r in records if r["status"] == "COUNTED"]
    print("\n| n | seed | puzzles | counted | by rows | by layers | by ranks | quick | "
          "max CPU s | median CPU s | max peak MB | max states |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    cpus = sorted(r["cpu"] for r in records)
    by = {plan: sum(1 for r in done if r["plan"] == plan) for plan in (*COUNTERS, "propagate")}
    print(f"| {args.n} | {args.seed} | {len(records)} | {len(done)} | {by['rows']} | "
          f"{by['layers']} | {by['ranks']} | {by['propagate']} | {cpus[-1]:.2f} | "
          f"{cpus[len(cpus) // 2]:.2f} | {max(r['peak_mb'] for r in records):.0f} | "
          f"{max((r['states'] or 0) for r in records):,} |")
    print("\n| # | inequalities | givens | plan | status | count | CPU s | peak MB | "
          "most states | evidence |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in records:
        count = f"{r['count']:,}" if r["status"] == "COUNTED" else "-"
        plan = r["plan"] or "-"
        states = f"{r['states']:,}" if r["states"] else "-"
        print(f"| {r['i']} | {r['inequalities']} | {r['givens']} | {plan} | {r['status']} | "
              f"{count} | {r['cpu']:.2f} | {r['peak_mb']:.0f} | {states} | {r['evidence']} |")
    if peers or args.identities:
        print_agreement(records, list(peers))
    if args.json:
        args.json.write_text(json.dumps(records, indent=1))
    wrong = [r["i"] for r in records if not r.get("evidence_ok", True) or (
        r["consistent"] and r["status"] == "COUNTED" and r["count"] == 0) or disagreements(r)]
    if wrong:
        print(f"\nWRONG: puzzles {wrong} (a square read off has no solution counted, "
              "evidence failed verification, a peer or an identity counts otherwise)")
        return 1
    return 0


def counted(record: dict) -> int | None:
    """The count of a record, or None where it is only a lower bound (LIMIT)."""
    return record["count"] if record["status"] == "COUNTED" else None


def disagreements(record: dict) -> list[str]:
    """Who counts otherwise than count-dp, where both counted."""
    if record["status"] != "COUNTED":
        return []
    out = [name for name, peer in record.get("peers", {}).items()
           if counted(peer) not in (None, record["count"])]
    return out + [what for what, count in zip(("transpose", "values reversed"),
                                              record.get("identities", []))
                  if count is not None and count != record["count"]]


def print_agreement(records: list[dict], peers: list[str]) -> None:
    """Per peer: the counts both finished and how many agree, the CPU side by side."""
    print("\n| counter | counted | both counted | agree | its CPU s, median (max) | "
          "count-dp's CPU s on those, median (max) |")
    print("|---|---|---|---|---|---|")
    for name in peers:
        mine = [r for r in records if r["peers"][name]["status"] == "COUNTED"]
        both = [r for r in mine if r["status"] == "COUNTED"]
        agree = sum(1 for r in both if r["peers"][name]["count"] == r["count"])
        print(f"| {name} | {len(mine)} of {len(records)} | {len(both)} | {agree} | "
              f"{_spread([r['peers'][name]['cpu_time'] for r in mine])} | "
              f"{_spread([r['cpu'] for r in both])} |")
    checked = [r for r in records if r.get("identities") and None not in r["identities"]]
    if checked:
        same = sum(1 for r in checked if r["identities"] == [r["count"]] * 2)
        print(f"| transpose, values reversed (count-dp) | {len(checked)} of {len(records)} | "
              f"{len(checked)} | {same} | - | - |")


def _spread(values: list[float]) -> str:
    if not values:
        return "-"
    values = sorted(values)
    return f"{values[len(values) // 2]:.2f} ({values[-1]:.2f})"


if __name__ == "__main__":
    sys.exit(main())

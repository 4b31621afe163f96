"""Benchmark of the Numberlink well-designed check on fresh boards of 20x20 to 40x40.

    python benchmarks/numberlink_check_large.py [--sizes 20 30 40] [--seeds 20 20 20]
        [--unique 3 2 2] [--gen-py PATH/gen.py] [--boards-dir DIR]
        [--generators paths gen.py unique] [--gen-py-min N] [--first-seed N]
        [--time-limit 60] [--runs 1]
        [--out FILE.json]

The boards, all fresh (seeds no engine was tuned on):

- ``paths``: gridcp's own generator (``generate numberlink --method paths``),
  seeds 31201.. at 20x20, 31301.. at 30x30, 31401.. at 40x40;
- ``gen.py``: thomasahle's generator, run from its public sources outside the
  checkout (``--gen-py``; skipped when absent) with ``random.seed`` fixed,
  seeds 32201.., 32301.., 32401.. (a 40x40 board takes it a minute or more
  of CPU: ``--boards-dir`` keeps each board made, as ``gen.py_SIZE_SEED.txt``,
  and reads it back in later runs);
- ``unique``: the well-designed generator's boards (seeds 9401.., 9501..,
  9601..), which the check must prove (the proofs these need are the hard
  part; ``numberlink_generate_large.py --recheck`` checks 20 a size).

For each board: ``search.pipelines.numberlink_check.check`` (the pipeline, as ``gridcp
check --time-limit S``) in this process, its verdict, the step that proved it, its
certificates checked by ``verify`` under the rule they obey (two distinct ones
for a verdict by multiplicity), the CPU seconds of this process and the wall
seconds (both depend on the machine and its load: printed with the load), and
the work, which does not (CP-SAT deterministic seconds, frontier states,
``links`` nodes).  With ``--runs 2`` or more it also says whether verdict,
certificates and work were the same in every run.  Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from search.numberlink.io import parse  # noqa: E402
from search.numberlink.paths_gen import large_board  # noqa: E402
from search.numberlink.verify import verify  # noqa: E402
from search.pipelines.numberlink_check import check  # noqa: E402
from search.pipelines.numberlink_generate import well_designed  # noqa: E402

GEN_PY = ROOT.parent / "peers" / "thomasahle-numberlink" / "gen" / "gen.py"
FIRST_SEED = {(generator, size): first + 100 * (size // 10)
              for generator, first in (("paths", 31001), ("gen.py", 32001), ("unique", 9201))
              for size in (20, 30, 40)}


def gen_py_board(gen_py: Path, size: int, seed: int, keep: Path | None = None,
                 least: int | None = None):
    """thomasahle's generator with its random module seeded (it takes no seed),
    run in ``keep`` (else a fresh temporary folder), never in the checkout;
    ``least``: its ``--min``, the pairs a board needs before its quality tests
    run (default two thirds of the square root of the area: at 40x40 it adds
    loops up to 26 pairs, and nearly every board it then tests has a stray
    loop, two ends side by side or a path that touches itself)."""
    tail = "" if least is None else f"_min{least}"
    kept = keep / f"gen.py_{size}_{seed}{tail}.txt" if keep is not None else None
    if kept is not None and kept.exists():
        return parse(kept.read_text(), str(kept))
    code = ("import random, sys; random.seed(int(sys.argv[1])); "
            f"sys.argv = ['gen.py', '{size}', '{size}', '1', '--no-colors', '--terminal-only']"
            + (f" + ['--min', '{least}']" if least is not None else "") + "; "
            f"sys.path.insert(0, {str(gen_py.parent)!r}); "
            f"exec(compile(open({str(gen_py)!r}).read(), 'gen.py', 'exec'))")
    with tempfile.TemporaryDirectory(prefix="gen.py-") as folder:
        text = subprocess.run([sys.executable, "-c", code, str(seed)], capture_output=True,
                              text=True, check=True, timeout=3600,
                              cwd=keep if keep is not None else folder).stdout
    if kept is not None:
        kept.write_text(text)
    return parse(text, f"gen.py {size}x{size} seed {seed}")


def unique_board(size: int, seed: int):
    """A well-designed board from the generator (``gridcp generate numberlink
    --size N --seed S``), and the cuts its repairs made."""
    made = well_designed(size, size, seed)
    return made.puzzle, made.cuts


def first_seed(args, generator: str, size: int) -> int:
    """The first seed of a generator at a size: ``--first-seed``, else the table's."""
    return FIRST_SEED[(generator, size)] if args.first_seed is None else args.first_seed


def boards(args) -> list[tuple[str, int, int, object, str]]:
    """(generator, size, seed, puzzle, note)."""
    out = []
    for size, count, unique in zip(args.sizes, args.seeds, args.unique):
        if "paths" in args.generators:
            for k in range(count):
                seed = first_seed(args, "paths", size) + k
                out.append(("paths", size, seed, large_board(size, size, seed)[0], ""))
        if "gen.py" in args.generators and not args.gen_py.exists():
            print(f"gen.py not found at {args.gen_py} (--gen-py): its boards are skipped",
                  file=sys.stderr)
        if "gen.py" in args.generators and args.gen_py.exists():
            for k in range(count):
                seed = first_seed(args, "gen.py", size) + k
                out.append(("gen.py", size, seed,
                            gen_py_board(args.gen_py, size, seed, args.boards_dir,
                                         args.gen_py_min),
                            "" if args.gen_py_min is None else f"--min {args.gen_py_min}"))
        if "unique" not in args.generators:
            unique = 0
        made, seed = 0, first_seed(args, "unique", size)
        while made < unique and seed < first_seed(args, "unique", size) + 4 * unique:
            puzzle, cuts = unique_board(size, seed)
            if puzzle is not None:
                out.append(("unique", size, seed, puzzle, f"{cuts} cuts"))
                made += 1
            seed += 1
        print(f"boards {size}x{size}: {sum(b[1] == size for b in out)}", file=sys.stderr,
              flush=True)
    return out


def work(effort: dict[str, float]) -> str:
    """The machine-independent effort, short."""
    parts = []
    for key, label in (("cpsat.deterministic_time", "det s"), ("frontier.states", "states"),
                       ("links.nodes", "nodes"), ("router.rounds", "rounds")):
        if effort.get(key):
            value = effort[key]
            parts.append(f"{value:.2f} {label}" if key.startswith("cpsat")
                         else f"{int(value)} {label}")
    return ", ".join(parts)


def one(puzzle, time_limit: float | None = None) -> dict:
    cpu, wall = time.process_time(), time.perf_counter()
    report = check(puzzle, time_limit=time_limit)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rules = report.rules if report.rules is not None else puzzle
    bad = [p for s in report.solutions for p in verify(rules, s)]
    if report.details.get("lenient_solutions") == 2 and len(
            {s.edges for s in report.solutions}) != 2:
        bad.append("a verdict by multiplicity without two distinct certificates")
    if report.ok and len(report.solutions) != 1:
        bad.append("WELL-DESIGNED without its solution")
    word = {True: "WELL-DESIGNED", False: "NOT", None: "UNDECIDED"}[report.ok]
    return {"verdict": report.verdict, "word": word, "engine": report.engine,
            "effort": dict(report.effort), "cpu": round(cpu, 3), "wall": round(wall, 3),
            "steps": report.details.get("steps", []),
            "stopped_by": report.details.get("stopped_by"),
            "certificates": [sorted(map(sorted, s.edges)) for s in report.solutions],
            "verify_problems": bad}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 30, 40])
    parser.add_argument("--seeds", type=int, nargs="+", default=[20, 20, 20],
                        help="boards per generator and size")
    parser.add_argument("--unique", type=int, nargs="+", default=[3, 2, 2],
                        help="boards cut to well-designed, per size")
    parser.add_argument("--generators", nargs="+", default=["paths", "gen.py", "unique"],
                        choices=["paths", "gen.py", "unique"])
    parser.add_argument("--gen-py", type=Path, default=GEN_PY)
    parser.add_argument("--gen-py-min", type=int, default=None, metavar="N",
                        help="gen.py's --min (the least pairs; default: its own)")
    parser.add_argument("--boards-dir", type=Path, default=None, metavar="DIR",
                        help="keep gen.py's boards here (and read them back)")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="each check's limit in wall seconds (as gridcp check "
                             "--time-limit; on a loaded machine it measures the load)")
    parser.add_argument("--first-seed", type=int, default=None, metavar="N",
                        help="the first seed of every generator and size (default: "
                             "the fixed fresh seeds above)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    print(f"load before: {os.getloadavg()}, {os.cpu_count()} CPUs\n", flush=True)
    made = time.perf_counter()
    todo = boards(args)
    print(f"boards made in {time.perf_counter() - made:.0f} s\n", flush=True)
    print("| run | generator | size | seed | pairs | verdict | proved by | work |"
          " CPU s | wall s | certificates |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    runs = []
    for run in range(args.runs):
        records = []
        for generator, size, seed, puzzle, note in todo:
            r = one(puzzle, args.time_limit)
            r.update({"generator": generator, "size": size, "seed": seed, "note": note})
            records.append(r)
            certificates = ("verified" if not r["verify_problems"]
                            else "FAIL: " + "; ".join(r["verify_problems"]))
            print(f"| {run + 1} | {generator}{' (' + note + ')' if note else ''} |"
                  f" {size}x{size} | {seed} | {len(puzzle.pairs)} | {r['verdict']} |"
                  f" {r['engine']} | {work(r['effort'])} | {r['cpu']:.2f} | {r['wall']:.2f} |"
                  f" {len(r['certificates'])} {certificates} |", flush=True)
        runs.append(records)
    print(f"\nload after: {os.getloadavg()}\n")
    summary(runs)
    if args.out:
        args.out.write_text(json.dumps(runs, indent=1))
    return 0


def summary(runs: list[list[dict]]) -> None:
    print("| size | boards | well-designed | not | undecided | certificates failing |"
          " CPU s median / max | wall s median / max |")
    print("|---|---|---|---|---|---|---|---|")
    first = runs[0]
    for size in sorted({r["size"] for r in first}):
        mine = [r for run in runs for r in run if r["size"] == size]
        words = [r["word"] for r in mine if r in first]
        cpu, wall = [r["cpu"] for r in mine], [r["wall"] for r in mine]
        print(f"| {size}x{size} | {len(words)} | {words.count('WELL-DESIGNED')} |"
              f" {words.count('NOT')} | {words.count('UNDECIDED')} |"
              f" {sum(bool(r['verify_problems']) for r in mine)} |"
              f" {statistics.median(cpu):.2f} / {max(cpu):.2f} |"
              f" {statistics.median(wall):.2f} / {max(wall):.2f} |")
    if len(runs) > 1:
        keys = ("verdict", "engine", "effort", "steps", "certificates")
        same = sum(all(all(run[i][k] == r[k] for k in keys) for run in runs[1:])
                   for i, r in enumerate(first))
        print(f"\nidentical verdict, engine, certificates and work in all {len(runs)} runs:"
              f" {same} of {len(first)}")


if __name__ == "__main__":
    sys.exit(main())

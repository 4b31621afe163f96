"""Benchmark: the lean SAT model (backend ``sat``) on lenient boards, in process.

    python benchmarks/numberlink_sat.py [--work 20] [--time-limit 60] FILE...
    python benchmarks/numberlink_sat.py --adc            # the 17 ADC 2015 boards
    python benchmarks/numberlink_sat.py --fresh 12 --out DIR   # fresh boards, below
    python benchmarks/numberlink_sat.py --auto --adc --time-limit 10  # the default solve

Each board is solved under the lenient rule by ``sat`` (one worker, seed 0,
within ``--work`` deterministic seconds) and its answer checked by
``search.numberlink.verify.verify``.  Prints a Markdown table: the status,
the wall time of the solve (model build included, process start-up not), the
deterministic time and CP-SAT's conflicts.

``--fresh N``: N contest-style lenient boards, made here and written to
``--out``: a full-cover board of gridcp's ``paths`` generator (20x20 to
30x30, seeds 0..), with every ``--blank``-th path (default 3) blanked out
(its two labels removed), so the remaining pairs have room to wander and a lenient solution
that leaves cells empty (the known one, less the blanked paths).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cpmodels.numberlink.sat import SatBackend  # noqa: E402
from search.core.processes import run_child  # noqa: E402
from search.numberlink.io import format_puzzle, parse  # noqa: E402
from search.numberlink.model import Numberlink, Solution  # noqa: E402
from search.numberlink.paths_gen import large_board  # noqa: E402
from search.numberlink.verify import verify  # noqa: E402

ADC = ROOT / "instances" / "numberlink" / "adc2015"
SIZES = (20, 24, 27, 30)


def fresh(count: int, out: Path, blank: int) -> list[Path]:
    """``count`` lenient boards from the ``paths`` generator, every ``blank``-th path blanked."""
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for seed in range(count):
        size = SIZES[seed % len(SIZES)]
        board, _ = large_board(size, size, seed)
        kept = tuple(pair for k, pair in enumerate(board.pairs) if k % blank != blank - 1)
        puzzle = Numberlink(size, size, kept, board.blocked, full_cover=False)
        file = out / f"lenient_{size}x{size}_seed{seed}_blank{blank}.txt"
        file.write_text(format_puzzle(puzzle))
        files.append(file)
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--adc", action="store_true")
    parser.add_argument("--auto", action="store_true", help="the default solve, in a process")
    parser.add_argument("--fresh", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("/tmp/nl-lenient"))
    parser.add_argument("--blank", type=int, default=3, help="blank every N-th path (--fresh)")
    parser.add_argument("--work", type=float, default=20.0)
    parser.add_argument("--time-limit", type=float, default=60.0)
    args = parser.parse_args()
    files = list(args.files)
    if args.adc:
        files += sorted(ADC.glob("Q*.txt"))
    if args.fresh:
        files += fresh(args.fresh, args.out, args.blank)
    print("| board | size | pairs | status | engine | wall s | CPU s | deterministic s "
          "| conflicts | verified |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    solved = 0
    for file in files:
        puzzle = parse(file.read_text(), str(file)).lenient()
        status, engine, wall, cpu, found, effort = (run_auto if args.auto else run_sat)(
            file, puzzle, args)
        checked = "-" if found is None else ("yes" if not verify(puzzle, found) else "NO")
        solved += status == "SOLVED" and checked == "yes"
        print(f"| {file.stem} | {puzzle.height}x{puzzle.width} | {len(puzzle.pairs)} | "
              f"{status} | {engine} | {wall:.2f} | {cpu:.2f} | "
              f"{effort.get('deterministic_time', 0):.2f} | "
              f"{int(effort.get('conflicts', 0))} | {checked} |", flush=True)
    print(f"\n{solved} of {len(files)} solved and verified")


def run_sat(file: Path, puzzle: Numberlink, args: argparse.Namespace) -> tuple:
    start, cpu = time.perf_counter(), time.process_time()
    found = SatBackend(work=args.work).solve(puzzle, time_limit=args.time_limit)
    return (found.status.name, "sat", time.perf_counter() - start, time.process_time() - cpu,
            found.solution, found.effort)


def run_auto(file: Path, puzzle: Numberlink, args: argparse.Namespace) -> tuple:
    command = [sys.executable, "-m", "search", "solve", "--json", "--lenient",
               "--time-limit", str(args.time_limit), str(file)]
    done = run_child(command, "", None, cwd=str(ROOT))  # (the child has its own limit)
    wall, cpu = done.wall, done.cpu
    answer = json.loads(done.out)
    found = None
    if answer.get("solution"):  # the paths in the order of the pairs, cell by cell
        found = Solution(tuple(tuple(map(tuple, path)) for _, path in answer["solution"]["paths"]))
    engine = answer.get("message", "").removeprefix("engine: ")
    return answer["status"], engine, wall, cpu, found, answer.get("effort", {})


if __name__ == "__main__":
    main()

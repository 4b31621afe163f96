"""Benchmark of the Lianliankan CP-SAT backend: the figures of docs/lianliankan-cpsat.md.

Run as a script (``python tests/bench_lianliankan_cpsat.py``) or with
``pytest -m bench tests/bench_lianliankan_cpsat.py`` (a small sample).  Prints
one table row per set; nothing here asserts wall-clock limits.

Sets:
  8x6          seeded random full 8 x 6 boards (12 pictures x 4), without and
               with the border ring; the verdicts are compared with the exact
               ``search`` backend's
  8x6 pairing  the 8 x 6 boards without the ring, among seeds 0-199, that are
               unsolvable although every tile passes the reachability check
               (seeds 125 and 134): refuted by the model's search, not by the
               quick check
  labelled     the labelled boards of instances/lianliankan/collections
               (SOLVABLE / UNSOLVABLE from an exact search),
               the first ``--labelled`` boards of each file, verdicts compared
               with the labels
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pytest  # noqa: E402

from cpmodels.lianliankan import CpSatBackend  # noqa: E402
from search.core import Status  # noqa: E402
from search.lianliankan.io import parse_many  # noqa: E402
from search.lianliankan.model import Board  # noqa: E402
from search.lianliankan.solver import SearchBackend  # noqa: E402
from search.lianliankan.verify import verify  # noqa: E402

LABELLED = (
    Path(__file__).resolve().parent.parent / "instances" / "lianliankan" / "collections"
)
LABELLED_FILES = {  # file -> does the border ring count
    "b14x6.txt": True, "b16x9.txt": True, "b18x8.txt": True, "b18x8_noborder.txt": False,
}
VERDICT = {"SOLVABLE": Status.SOLVED, "UNSOLVABLE": Status.UNSAT}


def full_board(seed: int, height: int = 6, width: int = 8, pictures: int = 12,
               border: bool = False) -> Board:
    """A full board: ``pictures`` pictures, each on ``height*width/pictures`` cells."""
    copies = height * width // pictures
    tiles = [p for p in range(1, pictures + 1) for _ in range(copies)]
    random.Random(seed).shuffle(tiles)
    grid = tuple(tuple(tiles[r * width:(r + 1) * width]) for r in range(height))
    return Board(grid, border=border)


Row = tuple[Status, float, float, "Status | None"]  # verdict, wall, CPU seconds, reference


def run(board: Board, time_limit: float) -> tuple[Status, float, float]:
    """Verdict, wall seconds and CPU seconds (the latter tell less of a busy machine)."""
    cpu = time.process_time()
    result = CpSatBackend().solve(board, time_limit=time_limit)
    cpu = time.process_time() - cpu
    if result.status is Status.SOLVED:
        problems = verify(board, result.solution)
        assert not problems, problems  # a wrong answer is a bug, never a figure
    return result.status, result.wall, cpu


def summary(name: str, rows: list[Row]) -> str:
    """One line: counts per verdict, wall and CPU time per verdict, agreement
    with the reference verdicts."""
    parts = [f"{name}: {len(rows)} boards"]
    for status in (Status.SOLVED, Status.UNSAT, Status.LIMIT):
        walls = [wall for got, wall, _, _ in rows if got is status]
        cpus = [cpu for got, _, cpu, _ in rows if got is status]
        if walls:
            parts.append(
                f"{status} {len(walls)} (wall median {statistics.median(walls):.2f} s, "
                f"max {max(walls):.2f} s; CPU median {statistics.median(cpus):.2f} s, "
                f"max {max(cpus):.2f} s)"
            )
    known = [(got, ref) for got, _, _, ref in rows if ref is not None and got is not Status.LIMIT]
    wrong = sum(got is not ref for got, ref in known)
    parts.append(f"agree {len(known) - wrong}/{len(known)} decided")
    return "; ".join(parts)


def bench_8x6(boards: int, time_limit: float, reference: bool = True) -> list[str]:
    lines = []
    for border in (False, True):
        rows = []
        for seed in range(boards):
            board = full_board(seed, border=border)
            ref = SearchBackend().solve(board, time_limit=60).status if reference else None
            rows.append((*run(board, time_limit), ref if ref is not Status.LIMIT else None))
        lines.append(summary(f"8x6 full, {'border' if border else 'no border'}", rows))
    return lines


PAIRING_SEEDS = (125, 134)


def bench_pairing(time_limit: float) -> list[str]:
    rows = [(*run(full_board(seed), time_limit), Status.UNSAT) for seed in PAIRING_SEEDS]
    return [summary("8x6 pairing (no border, seeds 125 134)", rows)]


def bench_labelled(per_file: int | None, time_limit: float) -> Iterator[str]:
    """One line per file, as each file is done."""
    if not LABELLED.is_dir():
        yield f"labelled: {LABELLED} is not available, skipped"
        return
    for name, border in LABELLED_FILES.items():
        path = LABELLED / name
        boards = parse_many(path.read_text(), str(path))[:per_file]
        rows = []
        for _, verdict, board in boards:
            rows.append((*run(Board(board.grid, border=border), time_limit),
                         VERDICT.get(verdict)))
        yield summary(f"{name} ({'border' if border else 'no border'})", rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=50, help="random 8x6 boards per rule")
    parser.add_argument("--labelled", type=int, default=10,
                        help="labelled boards per file (0: none, -1: all)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per board")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    for line in bench_8x6(args.boards, args.time_limit) + bench_pairing(args.time_limit):
        print(line, flush=True)
    if args.labelled:
        per_file = None if args.labelled < 0 else args.labelled
        for line in bench_labelled(per_file, args.time_limit):
            print(line, flush=True)
    print(f"total {time.perf_counter() - started:.1f} s", flush=True)


@pytest.mark.bench
def test_bench_sample() -> None:
    main(["--boards", "5", "--labelled", "2", "--time-limit", "30"])


if __name__ == "__main__":
    main()

"""Lianliankan benchmark: the figures of docs/lianliankan.md.

Run as a script (``python tests/bench_lianliankan.py --boards 1000``) or with
``pytest -m bench tests/bench_lianliankan.py`` (a small sample).  Prints one
table row per section and, with ``--out FILE``, writes the rows as JSON lines.
Timings are wall-clock on whatever machine runs it; nothing here asserts them.

Sections:
  full      random full boards (36 pictures x 4), border ring, no gravity:
            how many the exact search decides, and its time (median, p99, max)
  seed      seed-style 20 x 20 boards (20 pictures, 100 pairs): exact search
            time, and the share greedy play clears against the share that clears
  share     the share of random full boards that can be cleared, per size/rule
  generate  ``--solvable`` full 18 x 8 boards with the border (``--method
            play``): the command's rate, and the exact search on each board
  reject    the same boards by ``--method reject`` (``--board-limit`` = the
            time limit): rate, boards drawn, unsolvable and undecided draws
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402

from search.core import Status  # noqa: E402
from search.lianliankan.generate import full_fill, seed_fill  # noqa: E402
from search.lianliankan.greedy import play  # noqa: E402
from search.lianliankan.model import Board  # noqa: E402
from search.lianliankan.solver import SearchBackend  # noqa: E402
from search.lianliankan.verify import verify  # noqa: E402


def _solve(board: Board, time_limit: float):
    result = SearchBackend().solve(board, time_limit=time_limit)
    if result.solution is not None:
        assert verify(board, result.solution) == [], "a solution failed verification"
    return result


def _quantiles(times: list[float]) -> dict[str, float]:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    return {"median": statistics.median(times), "p99": p99, "max": times[-1]}


def bench_full(width: int, height: int, boards: int, time_limit: float) -> dict:
    times, counts = [], {"SOLVED": 0, "UNSAT": 0, "LIMIT": 0}
    for seed in range(boards):
        board = Board(full_fill(width, height, width * height // 4, random.Random(seed)),
                      border=True)
        result = _solve(board, time_limit)
        times.append(result.wall)
        counts[str(result.status)] += 1
    return {"section": "full", "size": f"{width}x{height}", "boards": boards, **counts,
            **_quantiles(times)}


def bench_seed(boards: int, time_limit: float) -> dict:
    times, greedy, clears, limits = [], 0, 0, 0
    for seed in range(boards):
        board = Board(seed_fill(20, 20, 20, 100, random.Random(seed)))
        greedy += play(board).left == 0
        result = _solve(board, time_limit)
        times.append(result.wall)
        clears += result.status is Status.SOLVED
        limits += result.status is Status.LIMIT
    return {"section": "seed", "size": "20x20", "boards": boards, "greedy_clears": greedy,
            "clears": clears, "LIMIT": limits, **_quantiles(times)}


SHARES = [(14, 6, True, False), (16, 9, True, False), (18, 8, True, False),
          (18, 8, False, False), (18, 8, True, True)]


def bench_share(width: int, height: int, border: bool, gravity: bool, boards: int,
                time_limit: float) -> dict:
    counts = {"SOLVED": 0, "UNSAT": 0, "LIMIT": 0}
    times = []
    pictures = 21 if (width, height) == (14, 6) else width * height // 4
    for seed in range(boards):
        grid = full_fill(width, height, pictures, random.Random(10_000 + seed))
        result = _solve(Board(grid, border=border, gravity=gravity), time_limit)
        counts[str(result.status)] += 1
        times.append(result.wall)
    decided = counts["SOLVED"] + counts["UNSAT"]
    return {"section": "share", "size": f"{width}x{height}", "border": border,
            "gravity": gravity, "boards": boards, **counts,
            "share": counts["SOLVED"] / decided if decided else None, **_quantiles(times)}


SUMMARY = re.compile(r"\(([\d.]+) per second, (\d+) drawn(?:, (\d+) undecided)?")
SOLVABLE = ["--full", "--border", "--solvable", "--seed", "1"]  # 18 x 8, 36 pictures x 4


def _generate(options: list[str], boards: int) -> tuple[list[Board], dict]:
    """The boards of ``gridcp generate lianliankan OPTIONS --count N --json``, and the
    rate, draws and undecided boards of its summary line."""
    command = [sys.executable, "-m", "search", "generate", "lianliankan", *options,
               "--count", str(boards), "--json"]
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=ROOT)
    grids = [json.loads(line) for line in done.stdout.splitlines()]
    found = SUMMARY.search(done.stderr)
    assert found, done.stderr
    rate, drawn, undecided = found.groups()
    summary = {"per_second": float(rate), "drawn": int(drawn), "undecided": int(undecided or 0)}
    return [Board(tuple(map(tuple, g["grid"])), border=g["border"]) for g in grids], summary


def bench_generate(boards: int, time_limit: float) -> dict:
    grids, summary = _generate(SOLVABLE, boards)
    counts = {"SOLVED": 0, "UNSAT": 0, "LIMIT": 0}
    for board in grids:
        counts[str(_solve(board, time_limit).status)] += 1
    return {"section": "generate", "size": "18x8", "boards": boards,
            "per_second": summary["per_second"], "drawn": summary["drawn"], **counts}


def bench_reject(boards: int, time_limit: float) -> dict:
    _, summary = _generate([*SOLVABLE, "--method", "reject", "--board-limit", str(time_limit)],
                           boards)
    unsat = summary["drawn"] - boards - summary["undecided"]
    return {"section": "reject", "size": "18x8", "boards": boards, "board_limit": time_limit,
            **summary, "UNSAT": unsat}


def run(sections: list[str], boards: int, time_limit: float, out: str | None) -> list[dict]:
    rows = []

    def emit(row: dict) -> None:
        rows.append(row)
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v
                          for k, v in row.items()}), flush=True)
        if out:
            with open(out, "a") as f:
                f.write(json.dumps(row) + "\n")

    if "full" in sections:
        emit(bench_full(18, 8, boards, time_limit))
        emit(bench_full(16, 9, boards, time_limit))
    if "seed" in sections:
        emit(bench_seed(boards, time_limit))
    if "share" in sections:
        for width, height, border, gravity in SHARES:
            emit(bench_share(width, height, border, gravity, boards, time_limit))
    if "generate" in sections:
        emit(bench_generate(boards, time_limit))
    if "reject" in sections:
        emit(bench_reject(boards, time_limit))
    return rows


@pytest.mark.bench
def test_bench_sample() -> None:
    rows = run(["full", "seed", "generate", "reject"], boards=10, time_limit=30, out=None)
    assert rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sections", nargs="*",
                        default=["full", "seed", "share", "generate", "reject"])
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--out", help="append the rows as JSON lines to this file")
    args = parser.parse_args()
    run(args.sections, args.boards, args.time_limit, args.out)


if __name__ == "__main__":
    main()

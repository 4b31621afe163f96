"""``count-dp`` under its memory budget: LIMIT with the reason (never a crash), the
known counts within it, the peak resident memory of a child process under it,
the evidence every count keeps, and the answer at once where nothing can finish."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from search.core.contract import Status
from search.core.limits import ADDRESS_HEADROOM_MB, memory_budget, memory_limit_given
from search.futoshiki.countdp import CountDPBackend
from search.futoshiki.countdp import layers as layerdp
from search.futoshiki.countdp import ranks as rankdp
from search.futoshiki.countdp import rows as rowdp
from search.futoshiki.countdp.rows import MB, StateSpaceTooLarge
from search.futoshiki.io import format_seed, parse
from search.futoshiki.model import Futoshiki
from search.futoshiki.verify import verify
from search.lab.oracles.futoshiki import count as brute_force_count
from tests.futoshiki.test_countdp_rows import LATIN, clues

ROOT = Path(__file__).resolve().parents[2]
INSTANCES = ROOT / "instances" / "futoshiki"


def _grid(rows: dict[tuple[int, int], int], n: int = 7) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(rows.get((r, c), 0) for c in range(n)) for r in range(n))


# Two random 7x7 clue sets of the benchmark (seed 1, #7 and #1): clues in
# every row and column of both orientations.
ELEVEN = Futoshiki(7, _grid({(2, 1): 4, (5, 3): 2, (6, 3): 5}), (
    ((0, 2), (1, 2)), ((1, 5), (2, 5)), ((1, 6), (0, 6)), ((2, 0), (2, 1)), ((2, 6), (3, 6)),
    ((4, 0), (5, 0)), ((4, 3), (4, 4)), ((4, 5), (3, 5)), ((4, 6), (5, 6)), ((5, 0), (5, 1)),
    ((5, 4), (5, 5))))
SEVEN = Futoshiki(7, _grid({(3, 4): 4}), (
    ((1, 0), (0, 0)), ((2, 5), (1, 5)), ((4, 1), (3, 1)), ((4, 1), (4, 0)), ((6, 0), (6, 1)),
    ((6, 2), (6, 3)), ((6, 5), (5, 5))))


def _in_child(puzzle: Futoshiki, memory_mb: float) -> dict:
    """The backend's count in a fresh process, with its peak resident memory."""
    code = (
        "import json, resource, sys\n"
        "from search.futoshiki.io import parse\n"
        "from search.futoshiki.countdp import CountDPBackend\n"
        "puzzle = parse(sys.stdin.read())\n"
        f"result = CountDPBackend(progress=False, memory_mb={memory_mb}).count(puzzle)\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
        "try:  # this process's own peak: ru_maxrss keeps the parent's from before exec\n"
        "    status = open('/proc/self/status').read().split('VmHWM:')[1]\n"
        "    peak = int(status.split()[0]) / 1024\n"
        "except (OSError, IndexError):\n"
        "    pass\n"
        "print(json.dumps({'status': str(result.status), 'count': result.count,\n"
        "                  'message': result.message, 'peak_mb': peak,\n"
        "                  'pieces': result.effort.get('pieces', 0)}))\n")
    done = subprocess.run([sys.executable, "-c", code], input=format_seed(puzzle),
                          capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(done.stdout)


# ---------------------------------------------------------------- the budget


def test_a_tiny_budget_is_a_limit_with_its_reason() -> None:
    result = CountDPBackend(progress=False, memory_mb=66, fallback=False).count(ELEVEN)
    assert result.status is Status.LIMIT
    assert "memory budget 66 MB (memory_mb option)" in result.message
    assert "above the 2 MB the memory budget leaves for tables" in result.message
    assert result.effort["layers_over_budget"] == result.effort["rows_over_budget"] == 1
    nothing = CountDPBackend(progress=False, memory_mb=10, fallback=False).count(ELEVEN)
    assert nothing.status is Status.LIMIT and "leaves nothing for tables" in nothing.message


def test_a_generous_budget_gives_the_known_counts() -> None:
    for n in range(1, 8):
        result = CountDPBackend(progress=False, memory_mb=400).count(Futoshiki.empty(n))
        assert (result.status, result.count) == (Status.COUNTED, LATIN[n])
    result = CountDPBackend(progress=False, memory_mb=400).count(ELEVEN)
    assert (result.status, result.count) == (Status.COUNTED, 45_125_264)


def test_past_both_plans_a_small_count_is_enumerated() -> None:
    puzzle = parse((INSTANCES / "counting" / "c6_noclues_easy_1.txt").read_text())
    result = CountDPBackend(progress=False, memory_mb=64.01).count(puzzle)
    assert (result.status, result.count) == (Status.COUNTED, 23_097)
    assert "counted with propagate instead" in result.message
    assert len(result.solutions) == 2


def test_peak_memory_stays_under_the_budget() -> None:
    for memory_mb in (120, 200):
        seen = _in_child(ELEVEN, memory_mb)
        assert (seen["status"], seen["count"]) == ("COUNTED", 45_125_264)
        assert seen["peak_mb"] <= memory_mb
    assert seen["pieces"] > 0  # the layers were cut to fit


@pytest.mark.slow
def test_peak_memory_of_a_hard_seven_by_seven() -> None:
    seen = _in_child(SEVEN, 640)
    assert (seen["status"], seen["count"]) == ("COUNTED", 109_002_511_440)
    assert seen["peak_mb"] <= 640


@pytest.mark.slow
def test_peak_memory_of_the_empty_eight_by_eight() -> None:
    # Whichever plan counts it (the ranks plan where compiled; interpreted,
    # the rows plan, reusing the heap's freed tables): under the budget.
    seen = _in_child(Futoshiki.empty(8), 640)
    assert (seen["status"], seen["count"]) == ("COUNTED", 108776032459082956800)
    assert seen["peak_mb"] <= 640


def test_the_rows_plan_gives_the_heap_back() -> None:
    # The heap kept by the rows plan (``rows.heap_reused``) does not count
    # against the plan after it: once the empty 8x8 has stopped at its byte
    # budget, the layers plan counts under 120 MB as in a fresh process.
    code = (
        "import json\n"
        "from search.futoshiki.countdp import CountDPBackend\n"
        "from search.futoshiki.countdp import rows\n"
        "from search.futoshiki.model import Futoshiki\n"
        "from tests.futoshiki.test_countdp_memory import ELEVEN\n"
        "try:\n"
        "    rows.count(Futoshiki.empty(8), max_bytes=96 * rows.MB)\n"
        "except rows.StateSpaceTooLarge:\n"
        "    pass\n"
        "open('/proc/self/clear_refs', 'w').write('5')  # the peak starts again here\n"
        "result = CountDPBackend(progress=False, memory_mb=120).count(ELEVEN)\n"
        "peak = int(open('/proc/self/status').read().split('VmHWM:')[1].split()[0]) / 1024\n"
        "print(json.dumps([str(result.status), result.count, peak]))\n")
    if not Path("/proc/self/clear_refs").exists():
        pytest.skip("needs Linux's /proc/self/clear_refs")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    status, count, peak = json.loads(done.stdout)
    assert (status, count) == ("COUNTED", 45_125_264)
    assert peak <= 120


def test_pieces_under_a_byte_budget_count_the_same() -> None:
    rng = random.Random(41)
    counted = {"layers": 0, "rows": 0}
    for n in (4, 5, 5, 6, 6):
        puzzle = clues(n, rng, rng.randint(1, n), rng.randint(0, 1))
        expected = layerdp.count(puzzle)
        if n < 6:
            assert expected == brute_force_count(puzzle)
        for budget in (400_000, 150_000):
            for name, plan in (("layers", layerdp.count), ("rows", rowdp.count)):
                try:
                    assert plan(puzzle, max_bytes=budget) == expected
                    counted[name] += 1
                except StateSpaceTooLarge as error:
                    assert "the memory budget leaves for tables" in str(error)
    assert min(counted.values()) >= 3, counted


def test_merge_by_key_ranges(monkeypatch) -> None:
    monkeypatch.setattr(layerdp, "RANGE", 50)
    rng = np.random.default_rng(3)
    tables = [layerdp.merge(rng.integers(0, 300, size=size, dtype=np.uint64),
                            rng.integers(1, 5, size=size, dtype=np.int64))
              for size in (120, 7, 0, 260)]
    expected = layerdp.merge(np.concatenate([k for k, _ in tables]),
                             np.concatenate([c for _, c in tables]))
    keys, counts = layerdp.merge_sorted([k for k, _ in tables], [c for _, c in tables])
    assert np.array_equal(keys, expected[0]) and np.array_equal(counts, expected[1])


def test_the_budget_follows_the_memory_limit_given() -> None:
    assert memory_budget(None, 640) == (640, "the default; --memory-limit M gives M - 256 MB")
    assert memory_budget(300, 640) == (300.0, "memory_mb option")
    with memory_limit_given(2000):
        budget, source = memory_budget(None, 640)
        assert budget == 2000 - ADDRESS_HEADROOM_MB and "--memory-limit 2000 MB" in source
        assert memory_budget(300, 640)[0] == 300
        assert CountDPBackend(progress=False).budget_mb() == 2000 - ADDRESS_HEADROOM_MB


def test_the_command_line_keeps_to_the_budget(tmp_path: Path) -> None:
    board = tmp_path / "e9.fut"
    board.write_text(format_seed(Futoshiki.empty(9)))
    done = subprocess.run([sys.executable, "-m", "search", "count", "--memory-limit", "600",
                           "--json", str(board)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 3, done.stderr
    answer = json.loads(done.stdout.splitlines()[0])
    assert answer["status"] == "LIMIT"
    assert "memory budget 344 MB (--memory-limit 600 MB less 256 MB)" in answer["message"]


# ---------------------------------------------------------------- nothing can finish


def test_the_empty_nine_by_nine_past_the_plans_is_a_limit_with_a_bound() -> None:
    # (the ranks plan counts it within about 2 GB; under 200 MB it gives way in seconds)
    engine = CountDPBackend(progress=False, memory_mb=200)
    result = engine.count(Futoshiki.empty(9))
    assert result.status is Status.LIMIT
    assert "cannot finish" in result.message and "rows plan" in result.message
    assert ("ranks plan" in result.message) is rankdp.COMPILED
    # 1! 2! ... 9! is a lower bound on the Latin squares of order 9.
    assert result.count == math.prod(math.factorial(k) for k in range(1, 10))
    assert len(result.solutions) == 2
    assert all(not verify(Futoshiki.empty(9), s) for s in result.solutions)


# ---------------------------------------------------------------- evidence


def _manifest_counts() -> list[tuple[str, int]]:
    rows = [line.split("\t") for line in (INSTANCES / "manifest.tsv").read_text().splitlines()]
    return [(row[0], int(row[3])) for row in rows[1:]
            if row[1] == "count" and row[0].split("/")[0] in ("counting", "latin")]


@pytest.mark.parametrize("name,expected", _manifest_counts(), ids=lambda v: str(v))
def test_every_count_keeps_its_evidence(name: str, expected: int) -> None:
    puzzle = parse((INSTANCES / name).read_text())
    result = CountDPBackend(progress=False).count(puzzle)
    assert (result.status, result.count) == (Status.COUNTED, expected)
    assert len(result.solutions) == min(expected, 2)
    assert all(not verify(puzzle, s) for s in result.solutions)
    assert len({s.grid for s in result.solutions}) == len(result.solutions)


@pytest.mark.parametrize("seed", range(4))
def test_evidence_rebuilt_from_counts(seed: int) -> None:
    rng = random.Random(seed)
    puzzle = clues(5, rng, rng.randint(2, 8), rng.randint(0, 4))
    total = brute_force_count(puzzle)
    engine = CountDPBackend(progress=False, evidence_nodes=0)  # propagate finds none
    result = engine.count(puzzle)
    assert result.count == total
    assert len(result.solutions) == min(total, 2)
    assert all(not verify(puzzle, s) for s in result.solutions)
    assert len({s.grid for s in result.solutions}) == len(result.solutions)


def test_the_memory_budget_is_a_setting_not_effort() -> None:
    result = CountDPBackend(progress=False, memory_mb=300).count(Futoshiki.empty(5))
    assert result.count == 161280 and "memory_mb" not in result.effort
    assert CountDPBackend(memory_mb=300).budget_mb() * MB == 300 * 2**20

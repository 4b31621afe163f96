"""``generate numberlink --difficulty hard``: the board is WELL-DESIGNED by
``check``, graded hard by ``grade``, its solution verifies, and a seed gives
the same board."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from search.core.contract import GridcpError
from search.numberlink.grade import grade
from search.numberlink.io import format_puzzle, parse
from search.numberlink.verify import verify
from search.pipelines import numberlink_difficulty
from search.pipelines.numberlink_check import check
from search.pipelines.numberlink_generate import Design

ROOT = Path(__file__).resolve().parents[2]


def gridcp(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "search", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=900,
                          env={"PYTHONPATH": str(ROOT), "PATH": ""})


def test_generate_hard_refuses_small_boards(tmp_path):
    # below 14 x 14 a hard board is rare: refused at once (exit 2), naming the least size
    made = gridcp("generate", "numberlink", "--size", "12", "--seed", "28",
                  "--difficulty", "hard", "-o", str(tmp_path))
    assert made.returncode == 2, made.stderr
    assert "too small for a hard puzzle: hard boards start at 196 cells (14x14)" in made.stderr
    assert "Traceback" not in made.stderr and not list(tmp_path.iterdir())
    with pytest.raises(GridcpError, match="hard boards start at 196 cells"):
        numberlink_difficulty.hard(13, 15, 1, budget=Design().check)


def test_hard_board_is_well_designed_and_hard(monkeypatch):
    # 12 x 12, seed 28 (under the floor, lowered here: a fast case): the seed's
    # first drawn board is hard, six cuts prove it
    monkeypatch.setattr(numberlink_difficulty, "HARD_MIN_CELLS", 0)
    made = _hard(12, 28)
    assert made.grade.level == 2 == grade(made.puzzle).level
    assert not verify(made.puzzle, made.solution)
    report = check(made.puzzle)
    assert report.ok and report.solutions[0].edges == made.solution.edges
    assert report.details["grade"] == "hard"


@pytest.mark.slow
def test_generate_hard_is_well_designed_and_hard(tmp_path):
    # 14 x 14, the least size made: seed 2 (a minute of CPU)
    made = gridcp("generate", "numberlink", "--size", "14", "--seed", "2",
                  "--difficulty", "hard", "-o", str(tmp_path))
    assert made.returncode == 0, made.stderr
    assert "seed 2: hard, WELL-DESIGNED" in made.stderr
    file = Path(made.stdout.strip())
    checked = gridcp("check", str(file))
    assert checked.returncode == 0 and "WELL-DESIGNED" in checked.stdout, checked.stdout
    assert "grade: hard" in checked.stdout
    puzzle = parse(file.read_text(), str(file))
    assert grade(puzzle).level == 2


def _hard(size: int, seed: int) -> numberlink_difficulty.Graded:
    return numberlink_difficulty.hard(size, size, seed, budget=Design().check)


@pytest.mark.slow
@pytest.mark.parametrize("size, seed", [(12, 28), (14, 2)])
def test_hard_boards_reproduce_and_hold(size, seed, monkeypatch):
    monkeypatch.setattr(numberlink_difficulty, "HARD_MIN_CELLS", 0)
    first, second = _hard(size, seed), _hard(size, seed)
    assert format_puzzle(first.puzzle) == format_puzzle(second.puzzle)
    assert first.solution.edges == second.solution.edges and first.effort == second.effort
    assert first.grade.level == 2 == grade(first.puzzle).level
    assert not verify(first.puzzle, first.solution)
    report = check(first.puzzle)
    assert report.ok and report.solutions[0].edges == first.solution.edges


def test_hard_gives_up_within_its_boards(monkeypatch):
    # 10 x 10, seed 1: its first drawn board is not hard, so one board is not enough
    monkeypatch.setattr(numberlink_difficulty, "HARD_BOARDS", 1)
    monkeypatch.setattr(numberlink_difficulty, "HARD_MIN_CELLS", 0)
    with pytest.raises(GridcpError, match="no hard well-designed puzzle from seed 1 within 1"):
        _hard(10, 1)

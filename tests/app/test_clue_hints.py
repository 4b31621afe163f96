"""``gridcp hint`` on Numberlink and Futoshiki files, ``generate numberlink
--difficulty``, and the grade in ``check``: exit codes, text and JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from search.app.clue_hints import Move, _json, _solver_move, _text
from search.core.contract import Status, UniqueResult
from search.core.registry import kind
from search.numberlink.grade import grade
from search.numberlink.io import parse
from search.numberlink.verify import verify

ROOT = Path(__file__).resolve().parents[2]
SEED_7X7 = ROOT / "instances" / "numberlink" / "seed-article" / "seed_7x7.nl"
FUTOSHIKI = ROOT / "instances" / "futoshiki" / "handmade" / "seed_example_3.txt"
OPEN = "| 1 || || || || 2 |\n| 1 || || || || 2 |\n"  # four full covers, nothing forced


def gridcp(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "search", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600,
                          env={"PYTHONPATH": str(ROOT), "PATH": ""})


def test_numberlink_hint_text_and_json():
    done = gridcp("hint", str(SEED_7X7))
    assert done.returncode == 0, done.stderr
    assert "FORCED LINK (forced moves" in done.stdout
    done = gridcp("hint", "--json", str(SEED_7X7))
    out = json.loads(done.stdout)
    assert out["status"] == "SOLVED" and out["rule"] == "forced moves"
    puzzle = parse(SEED_7X7.read_text(), str(SEED_7X7))
    solution = kind("numberlink").backend("frontier").unique(puzzle).solutions[0]
    step = frozenset((tuple(out["move"]["cell"]), tuple(out["move"]["next"])))
    assert step in solution.edges


def test_numberlink_no_forced_move_and_solve(tmp_path):
    board = tmp_path / "open.nl"
    board.write_text(OPEN)
    done = gridcp("hint", str(board))
    assert done.returncode == 3 and "NO FORCED MOVE" in done.stdout
    done = gridcp("hint", "--solve", str(board), "--json")
    out = json.loads(done.stdout)
    assert done.returncode == 1 and out["status"] == "MULTIPLE"


def test_solver_move_is_a_step_of_the_unique_solution():
    puzzle = parse(SEED_7X7.read_text(), str(SEED_7X7))
    args = SimpleNamespace(backend=None, time_limit=None)
    found = _solver_move(kind("numberlink"), puzzle, args)
    assert str(found.status) == "SOLVED"
    solution = kind("numberlink").backend("frontier").unique(puzzle).solutions[0]
    assert frozenset((tuple(found.move["cell"]), tuple(found.move["next"]))) in solution.edges


class _Liar:
    """A backend whose evidence is wrong: MULTIPLE with one solution twice."""

    def __init__(self, solution):
        self.solution = solution

    def unique(self, puzzle, *, time_limit=None):
        return UniqueResult(Status.MULTIPLE, (self.solution, self.solution))


def test_solver_move_refuses_evidence_that_does_not_hold():
    puzzle = parse(SEED_7X7.read_text(), str(SEED_7X7))
    solution = kind("numberlink").backend("frontier").unique(puzzle).solutions[0]
    numberlink = kind("numberlink")
    liar = SimpleNamespace(name=numberlink.name, differences=numberlink.differences,
                           call=numberlink.call, backend=lambda name: _Liar(solution))
    args = SimpleNamespace(backend="liar", time_limit=None)
    with pytest.raises(AssertionError, match="two solutions are the same"):
        _solver_move(liar, puzzle, args)
    broken = type(solution)(solution.paths[1:])  # a path missing: verify refuses it
    liar.backend = lambda name: _Liar(broken)
    with pytest.raises(AssertionError, match="fails verification"):
        _solver_move(liar, puzzle, args)


def test_futoshiki_hint():
    done = gridcp("hint", "--json", str(FUTOSHIKI))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["puzzle"] == "futoshiki" and out["rule"] and out["move"]["value"] >= 1
    done = gridcp("hint", str(FUTOSHIKI))
    assert "FORCED VALUE" in done.stdout


def test_generate_difficulty_reproduces_and_holds_its_grade(tmp_path):
    for difficulty in ("easy", "medium"):
        runs = [gridcp("generate", "numberlink", "--size", "8", "--seed", "3",
                       "--difficulty", difficulty, "--json") for _ in range(2)]
        assert runs[0].returncode == 0, runs[0].stderr
        assert runs[0].stdout == runs[1].stdout
        out = json.loads(runs[0].stdout)
        assert out["grade"] == difficulty
        puzzle = parse(out["puzzle"], "<json>")
        assert grade(puzzle).name == difficulty
        assert kind("numberlink").call("check", puzzle).ok
        paths = [tuple(map(tuple, cells)) for _, cells in out["paths"]]
        assert len(paths) == len(puzzle.pairs)


def test_difficulty_needs_the_well_designed_method():
    done = gridcp("generate", "numberlink", "--method", "seed", "--difficulty", "easy")
    assert done.returncode == 2 and "--difficulty" in done.stderr


def test_check_shows_the_grade():
    out = json.loads(gridcp("check", "--json", str(SEED_7X7)).stdout)
    assert out["grade"] == "easy"
    puzzle = parse(SEED_7X7.read_text(), str(SEED_7X7))
    assert not verify(puzzle, grade(puzzle).solution)


def test_hint_on_a_futoshiki_with_every_cell_given(tmp_path):
    board = tmp_path / "full.txt"
    board.write_text("3\n2 | 1 < 3\n- - ^ - -\n3 > 2 | 1\nv - - - -\n1 | 3 | 2\n")
    done = gridcp("hint", str(board))
    assert done.returncode == 0 and "NOTHING TO DO" in done.stdout, done.stdout
    done = gridcp("hint", "--solve", "--json", str(board))  # was an internal error
    out = json.loads(done.stdout)
    assert done.returncode == 0 and out["status"] == "SOLVED" and "move" not in out


def test_hint_on_an_invalid_futoshiki_says_so_as_solve_does(tmp_path):
    board = tmp_path / "inv.txt"
    board.write_text("3\n1 | 1 | 0\n- - - - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n")
    done = gridcp("hint", str(board))
    assert done.returncode == 1 and "INVALID" in done.stdout
    assert "row 1 repeats 1" in done.stdout
    out = json.loads(gridcp("hint", "--json", str(board)).stdout)
    assert out["status"] == "INVALID" and out["reasons"] == ["row 1 repeats 1"]


def test_hint_solve_on_a_numberlink_without_pairs(tmp_path):
    board = tmp_path / "open.dat"
    board.write_text("1 1\n-\n")
    done = gridcp("hint", "--solve", "--lenient", "--json", str(board))  # was an internal error
    out = json.loads(done.stdout)
    assert done.returncode == 0 and out["status"] == "SOLVED" and "move" not in out
    done = gridcp("hint", "--lenient", str(board))  # nothing to do, without --solve too
    assert done.returncode == 0 and "NOTHING TO DO" in done.stdout, done.stdout
    done = gridcp("hint", "--solve", str(board))  # full cover: the open cell stays open
    assert done.returncode == 1 and "NO SOLUTION" in done.stdout


def test_the_headline_and_the_key_come_from_the_move_not_its_words():
    """A rule whose reason speaks of a solution is still a rule (FORCED, "rule"
    in JSON), and a reason with "; " in it stays one line."""
    futoshiki = kind("futoshiki")
    forced = Move(Status.SOLVED, "FORCED VALUE", {"cell": [0, 0], "value": 1}, "pairs", True,
                  ("by pairs: every solution has it",))
    assert _text("f", futoshiki, forced).startswith("f: FORCED VALUE (pairs,")
    assert _json("f", futoshiki, forced)["rule"] == "pairs"
    solver = Move(Status.SOLVED, "SOLVER'S MOVE", {"cell": [0, 0], "value": 1}, "count-dp",
                  reasons=("a step; of the unique solution",))
    out = _json("f", futoshiki, solver)
    assert out["engine"] == "count-dp" and "rule" not in out
    assert _text("f", futoshiki, solver).splitlines()[-1] == "  a step; of the unique solution"
    invalid = Move(Status.INVALID, "INVALID", reasons=("row 1 repeats 1; twice", "column 2"))
    assert _json("f", futoshiki, invalid)["reasons"] == ["row 1 repeats 1; twice", "column 2"]
    assert _text("f", futoshiki, invalid).splitlines()[1:] == ["  row 1 repeats 1; twice",
                                                                "  column 2"]

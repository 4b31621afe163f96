"""gridcp crosscheck: agreement on real backends, and broken backends caught
(a wrong count, an invalid solution, an exception), undecided runs, random
instances against the brute-force oracles."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from search.app.cli import main
from search.core.contract import Status
from search.core.registry import kind, kinds
from search.futoshiki.model import Futoshiki
from search.lab.crosscheck import Outcome, compare, crosscheck, instance_files
from search.lab.oracles import ORACLES
from search.lab.oracles.futoshiki import count as futoshiki_count
from search.lab.oracles.futoshiki import solutions as futoshiki_solutions

FAKES = "tests.lab.broken_backends"
# One solution: 1 2 3 / 2 3 1 / 3 1 2 is forced by these givens.
UNIQUE_3 = "3\n1 | 0 | 0\n- - - - -\n0 | 3 | 0\n- - - - -\n0 | 0 | 2\n"
# Four solutions of the empty 3x3 square with (0,0) = 1: 12 Latin squares / 3.
FOUR_3 = "3\n1 | 0 | 0\n- - - - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name, text in {"unique.fut": UNIQUE_3, "four.fut": FOUR_3}.items():
        out[name] = tmp_path / name
        out[name].write_text(text)
    (tmp_path / "manifest.tsv").write_text("file\ttask\trules\texpected\n")
    (tmp_path / "SOURCES.md").write_text("# sources\n")
    return out


def fake(name: str, cls: str) -> str:
    return f"{name}={FAKES}:{cls}"


def check(text: str, backends: list[str]) -> object:
    futoshiki = kind("futoshiki")
    puzzle = futoshiki.call("parse", text, "<test>")
    return crosscheck(futoshiki, puzzle, "<test>", time_limit=5, backends=backends)


def test_real_backends_agree(files, capsys) -> None:
    assert main(["crosscheck", str(files["unique.fut"].parent)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and all(": agree" in line for line in out)
    assert "four.fut: agree (4 solutions" in out[0]
    assert "unique.fut: agree (1 solution" in out[1]


@pytest.mark.parametrize("text", [UNIQUE_3, FOUR_3])
def test_a_wrong_count_is_caught(text: str) -> None:
    verdict = check(text, ["search", fake("wrong", "WrongCount")])
    assert verdict.word == "disagree"
    assert any("search count" in p and "wrong count" in p for p in verdict.problems)


def test_an_invalid_solution_is_caught() -> None:
    verdict = check(FOUR_3, ["search", fake("bad", "InvalidSolution")])
    assert verdict.word == "disagree"
    assert verdict.problems == [
        "bad solve returns an invalid solution (cell (1,1) holds 2 but the given is 1)"]


def test_the_graph_check_fails_a_numberlink_backend(monkeypatch) -> None:
    """A problem the networkx verifier finds fails the backend as ``verify``
    would (a planted one: on a real answer both verifiers agree)."""
    pytest.importorskip("networkx")
    numberlink = kind("numberlink")
    puzzle = numberlink.call("parse", "3 3\n1 - 2\n- - -\n1 - 2\n", "<test>")
    verdict = crosscheck(numberlink, puzzle, "<test>", time_limit=5, backends=["search"])
    assert verdict.word == "agree"
    planted = replace(ORACLES["numberlink"], graph_problems=lambda rules, s: ["planted"])
    monkeypatch.setitem(ORACLES, "numberlink", planted)
    verdict = crosscheck(numberlink, puzzle, "<test>", time_limit=5, backends=["search"])
    assert verdict.word == "disagree"
    assert verdict.problems == ["search check returns an invalid solution (graph check: planted)"]


def test_an_exception_is_reported_not_raised() -> None:
    verdict = check(UNIQUE_3, ["search", fake("oops", "Raises")])
    assert verdict.word == "disagree"
    assert verdict.problems == ["oops solve ERROR raised ValueError: a bug"]


def test_different_solutions_of_a_unique_puzzle_disagree() -> None:
    a = Outcome("a", "unique", Status.UNIQUE, keys=("x",))
    b = Outcome("b", "solve", Status.SOLVED, keys=("y",))
    verdict = compare("f", "futoshiki", [a, b])
    assert verdict.word == "disagree"
    assert verdict.problems == ["one solution, but different ones: a unique | b solve"]


def test_a_certificate_is_compared_under_its_own_rules(capsys) -> None:
    """Numberlink's check answers "the only solution leaves cells empty" with the
    one lenient solution: not the full-cover solution solve finds, and no
    disagreement (README example, instance #3)."""
    code = main(["crosscheck", "--random", "4", "--puzzle", "numberlink", "--size", "4,5x3",
                 "--json"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0 and [line["verdict"] for line in lines] == ["agree"] * 4
    assert lines[3]["summary"].startswith("1 solution;")
    lenient = kind("numberlink").call("parse", "3 3\n1 - 2\n- - -\n1 - 2\n", "t").lenient()
    a = Outcome("a", "check", Status.SOLVED, keys=("x",), ok=False, rules=lenient)
    b = Outcome("b", "check", Status.SOLVED, keys=("y",), ok=False, rules=lenient)
    c = Outcome("c", "solve", Status.SOLVED, keys=("z",))
    d = Outcome("d", "unique", Status.UNIQUE, keys=("z",))
    assert compare("f", "numberlink", [a, c, d]).word == "agree"
    assert compare("f", "numberlink", [a, b, c, d]).problems == [
        "one solution under --lenient, but different ones: a check | b check"]


def test_bounds_meet_or_clash() -> None:
    limited = Outcome("a", "count", Status.LIMIT, count=5)
    exact = Outcome("b", "count", Status.COUNTED, count=3)
    assert compare("f", "p", [limited, exact]).word == "disagree"  # a bound above the count
    assert compare("f", "p", [Outcome("a", "count", Status.LIMIT, count=2), exact]).word == \
        "undecided"
    unique = Outcome("c", "unique", Status.MULTIPLE, keys=("x", "x"))
    assert "without two distinct solutions" in compare("f", "p", [unique]).problems[0]


def test_cli_exit_codes(files, capsys) -> None:
    four = str(files["four.fut"])
    assert main(["crosscheck", four, "--backends", "search," + fake("w", "WrongCount")]) == 1
    assert "disagree: answers differ: search count 4 vs w count 5" in capsys.readouterr().out
    assert main(["crosscheck", four, "--backends", "search," + fake("l", "AlwaysLimit")]) == 3
    assert "undecided (l solve, l count, l unique, l check hit the limit" in capsys.readouterr().out
    assert main(["crosscheck", four, str(files["four.fut"].parent / "missing.fut")]) == 2
    assert main(["crosscheck"]) == 2
    assert main(["crosscheck", "--random", "2"]) == 2  # needs --puzzle


def test_json_lines(files, capsys) -> None:
    assert main(["crosscheck", str(files["unique.fut"]), "--json", "--backends", "search"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["verdict"] == "agree"
    assert {(a["backend"], a["task"]) for a in line["answers"]} == {
        ("search", "solve"), ("search", "count"), ("search", "unique"), ("search", "check")}


def test_folders_skip_what_is_not_a_puzzle(files) -> None:
    folder = files["four.fut"].parent
    (folder / "notes.md").write_text("text")
    (folder / "x.solution.txt").write_text("3\n")
    assert instance_files([folder]) == [files["four.fut"], files["unique.fut"]]


def test_random_futoshiki_against_the_oracle(capsys) -> None:
    code = main(["crosscheck", "--random", "12", "--puzzle", "futoshiki", "--size", "3,4",
                 "--seed", "5", "--json"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0 and len(lines) == 12
    assert all(line["verdict"] == "agree" for line in lines)
    assert all(any(a["backend"] == "oracle" for a in line["answers"]) for line in lines)


def test_random_instances_catch_a_wrong_count(capsys) -> None:
    code = main(["crosscheck", "--random", "3", "--puzzle", "futoshiki", "--size", "3",
                 "--backends", fake("w", "WrongCount")])
    out = capsys.readouterr().out
    assert code == 1
    assert "vs oracle count" in out and "random futoshiki 3x3 seed 1 #0" in out


def test_futoshiki_oracle_counts_latin_squares() -> None:
    assert [futoshiki_count(Futoshiki.empty(n)) for n in (1, 2, 3, 4)] == [1, 2, 12, 576]
    assert len({s.grid for s in futoshiki_solutions(Futoshiki.empty(3))}) == 12


REGISTERED = {k.name for k in kinds()}


@pytest.mark.parametrize(("puzzle", "sizes"), [("numberlink", "3,4x3"), ("lianliankan", "3x2,4x2")])
def test_random_instances_of_the_other_puzzles(puzzle: str, sizes: str, capsys) -> None:
    if puzzle not in REGISTERED:
        pytest.skip(f"{puzzle} is not registered yet")
    code = main(["crosscheck", "--random", "5", "--puzzle", puzzle, "--size", sizes,
                 "--time-limit", "10", "--json"])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0, lines
    with_oracle = ORACLES[puzzle].solutions is not None
    assert all(any(a["backend"] == "oracle" for a in line["answers"]) == with_oracle
               for line in lines)


def test_manifest_rules_check_each_listed_rule_set(tmp_path: Path, capsys) -> None:
    if "lianliankan" not in REGISTERED:
        pytest.skip("lianliankan is not registered yet")
    (tmp_path / "ring.llk").write_text("1 2 1 2\n")  # clears only through the border ring
    (tmp_path / "manifest.tsv").write_text("file\ttask\trules\texpected\n"
                                           "ring.llk\tsolve\t\tUNSAT\n"
                                           "ring.llk\tsolve\tborder\tSOLVED\n")
    assert main(["crosscheck", str(tmp_path), "--manifest-rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert "ring.llk: agree (0 solutions" in lines[0]
    assert "ring.llk [border]: agree (at least 1 solution" in lines[1]

"""Numberlink: the well-designed generator, and a designer's batch end to end
(generate a folder, check it, draw the rejects on one page)."""

from __future__ import annotations

import json
import re
from itertools import islice

import pytest

from search.app.cli import main
from search.lab.oracles.numberlink import solutions as numberlink_solutions
from search.numberlink.generate import seed_board
from search.numberlink.io import parse
from search.numberlink.verify import covers, verify
from search.pipelines.numberlink_check import check
from search.pipelines.numberlink_generate import Design, well_designed


@pytest.mark.parametrize("size, seed", [((2, 2), 1), ((3, 4), 2), ((4, 4), 3), ((4, 5), 4),
                                        ((5, 5), 5)])
def test_well_designed_boards_agree_with_brute_force(size, seed):
    made = well_designed(*size, seed)
    assert verify(made.puzzle, made.solution) == []
    assert covers(made.puzzle, made.solution)
    # the brute-force oracle: exactly one lenient solution, the generator's
    found = list(islice(numberlink_solutions(made.puzzle.lenient()), 3))
    assert [s.edges for s in found] == [made.solution.edges]
    assert made.report.ok and made.proved_by


@pytest.mark.parametrize("size, seed", [((8, 8), 1), ((10, 10), 2), ((12, 9), 3)])
def test_well_designed_boards_pass_the_other_backend(size, seed):
    made = well_designed(*size, seed)
    assert (made.puzzle.height, made.puzzle.width) == size
    report = check(made.puzzle, backend="cpsat", time_limit=120)
    assert report.ok and report.solution.edges == made.solution.edges


def test_repairs_are_made_and_the_generator_is_deterministic():
    # a tight sweep leaves the check to find second solutions and cut them
    tight = Design(window_nodes=1)
    first = [well_designed(8, 8, seed, pairs=3, design=tight) for seed in (1, 2)]
    again = [well_designed(8, 8, seed, pairs=3, design=tight) for seed in (1, 2)]
    assert [(m.puzzle, m.solution, m.cuts, m.checks, m.effort) for m in first] == \
        [(m.puzzle, m.solution, m.cuts, m.checks, m.effort) for m in again]
    assert sum(m.cuts for m in first) > 0 and any(m.checks > 1 for m in first)
    for made in first:
        assert check(made.puzzle, backend="cpsat", time_limit=120).ok


def test_generate_reports_the_proof(tmp_path, capsys):
    assert main(["generate", "numberlink", "--size", "6", "--seed", "4", "--count", "2",
                 "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["seed"] for r in rows] == [4, 5]
    for r in rows:
        made = well_designed(6, 6, r["seed"])
        assert r["proved_by"] == made.proved_by and r["pairs"] == len(made.puzzle.pairs)
        assert parse(r["puzzle"]) == made.puzzle


def test_a_designers_batch(tmp_path, capsys, monkeypatch):
    """generate -o DIR, check DIR (one summary), draw --check --bad (one page)."""
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "numberlink", "--method", "seed", "--size", "6", "--seed", "1",
                 "--count", "8", "-o", "boards"]) == 0
    capsys.readouterr()
    bad = []
    for seed in range(1, 9):  # the truth, by brute force
        puzzle, _ = seed_board(6, 6, seed)
        found = list(islice(numberlink_solutions(puzzle.lenient()), 2))
        if not (len(found) == 1 and covers(puzzle, found[0])):
            bad.append(f"boards/numberlink_6x6_seed_{seed}.nl")
    assert 0 < len(bad) < 8
    assert main(["check", "--brief", "boards"]) == 1  # some are not well-designed
    out = capsys.readouterr().out.splitlines()
    noes = sorted(line.split(":")[0] for line in out if ": no (" in line)
    assert noes == bad
    summary = out[-1]
    assert re.fullmatch(rf"gridcp: 8 answers \(.*\): {8 - len(bad)} well-designed, "
                        rf"{len(bad)} not, 0 undecided; [0-9.]+ s \(slowest .*\)", summary)
    assert main(["draw", "--check", "--bad", "boards", "-o", "bad.html"]) == 1
    told = capsys.readouterr().err
    page = (tmp_path / "bad.html").read_text()
    assert f"<h1>{len(bad)} of 8 puzzles answered no</h1>" in page
    assert page.count("<section>") == len(bad)
    assert page.count("solution A") == page.count("solution B") == len(bad)
    assert sorted(line.split(" -> ")[0] for line in told.splitlines()) == bad
    for path in bad:
        assert path.split("/")[1].removesuffix(".nl") in page


def test_draw_bad_needs_a_verdict(tmp_path, capsys):
    path = tmp_path / "p.nl"
    path.write_text("1.\n1.\n")
    assert main(["draw", "--bad", str(path), "-o", str(tmp_path / "x.html")]) == 2
    assert "--bad goes with --check or --solve" in capsys.readouterr().err


def test_a_batch_with_nothing_to_draw(tmp_path, capsys):
    (tmp_path / "in").mkdir()
    for k, text in enumerate(["12\n12\n", "1.1\n...\n"]):
        (tmp_path / "in" / f"p{k}.nl").write_text(text)
    # 12/12 is well-designed; 1.1 leaves its second row empty: not
    assert main(["draw", "--check", "--bad", str(tmp_path / "in" / "p0.nl"),
                 "-o", str(tmp_path / "bad.html")]) == 0
    page = (tmp_path / "bad.html").read_text()
    assert "0 of 1 puzzles answered no" in page and "nothing to draw" in page
    assert main(["draw", "--check", str(tmp_path / "in"), "-o", str(tmp_path / "all.html")]) == 1
    assert (tmp_path / "all.html").read_text().count("<section>") == 2

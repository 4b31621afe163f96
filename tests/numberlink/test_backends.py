"""Numberlink: formats, the oracle, and known answers against every backend."""

from __future__ import annotations

import csv
import random
import re

import pytest

from search.app.manifest import read_manifest
from search.core.contract import InputError, Status
from search.core.registry import load_puzzle
from search.lab.oracles.numberlink import count as brute_count
from search.lab.oracles.numberlink import random_board
from search.numberlink import KIND
from search.numberlink.io import (
    format_puzzle,
    format_solution,
    parse,
    parse_many,
    parse_solution,
    sniff,
    solution_json,
)
from search.numberlink.model import Numberlink, Pair, Solution
from search.numberlink.verify import touches_itself, verify
from tests.conftest import INSTANCES, shared

BACKENDS = ["search", "cpsat"]
SEED = INSTANCES / "numberlink" / "seed-article" / "seed_7x7.nl"
SEED_PUZZLE = """\
| || || || || || || 4 |
| || || || || || 3 || |
| || || 2 || 2 || || || 3 |
| || || || || X || || 1 |
| || || 6 || || || 7 || 7 |
| 5 || 4 || || X || || X || 1 |
| || 5 || || 6 || || || |
"""
SEED_SOLUTION = """\
| 4 || 4 || 4 || 4 || 4 || 4 || 4 |
| 4 || 1 || 1 || 1 || 1 || 3 || 3 |
| 4 || 1 || 2 || 2 || 1 || 1 || 3 |
| 4 || 1 || 1 || 1 || X || 1 || 1 |
| 4 || 4 || 6 || 1 || 1 || 7 || 7 |
| 5 || 4 || 6 || X || 1 || X || 1 |
| 5 || 5 || 6 || 6 || 1 || 1 || 1 |
"""


def engine(name: str, **options):
    return KIND.backend(name, **options)


# ---------------------------------------------------------------- formats


def test_seed_format_round_trip():
    puzzle = parse(SEED_PUZZLE, "seed")
    assert (puzzle.height, puzzle.width, len(puzzle.pairs)) == (7, 7, 7)
    assert puzzle.blocked == {(3, 4), (5, 3), (5, 5)}
    assert format_puzzle(puzzle) == SEED_PUZZLE
    solution = parse_solution(puzzle, SEED_SOLUTION)
    assert verify(puzzle, solution) == []
    assert format_solution(puzzle, solution) == SEED_SOLUTION
    # The bundled file holds the puzzle and, after a blank line, its solution.
    assert parse(SEED.read_text(), str(SEED)) == puzzle


def test_two_digit_labels_and_solution_json():
    puzzle = Numberlink(1, 4, (Pair("3", (0, 2), (0, 3)), Pair("12", (0, 0), (0, 1))))
    text = format_puzzle(puzzle)
    assert text == "| 12|| 12|| 3 || 3 |\n"
    assert parse(text) == puzzle  # numeric labels in numeric order
    solution = Solution((((0, 2), (0, 3)), ((0, 0), (0, 1))))
    assert solution_json(puzzle, solution) == {
        "paths": [["3", [[0, 2], [0, 3]]], ["12", [[0, 0], [0, 1]]]]}


def test_letter_integer_and_contest_formats():
    letters = parse("R.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n")
    assert (letters.width, letters.height, len(letters.pairs)) == (5, 5, 5)
    stream = parse_many("# two\n3 2\nA..\n..A\n\n2 2\nab\nab\n")
    assert [(p.width, p.height) for p in stream] == [(3, 2), (2, 2)]
    numbers = parse("5 6\n- - - - -\n- 1 - - -\n- - - - -\n- 2 - 1 -\n- - - - -\n- - - - 2\n")
    assert numbers.pairs[0] == Pair("1", (1, 1), (3, 3))
    zeros = parse("3 1\n1 0 1\n")
    assert zeros.pairs == (Pair("1", (0, 0), (0, 2)),)
    rows_first = parse("2, 3\n1 0 1\n2 0 2\n")
    assert (rows_first.height, rows_first.width) == (2, 3)
    adc = parse("SIZE 4X2\nLINE_NUM 2\nLINE#1 (0,0)-(3,0)\nLINE#2 (0,1)-(3,1)\n")
    assert adc.pairs[0] == Pair("1", (0, 0), (0, 3))
    answer = parse_solution(adc.lenient(), "SIZE 4X2\n01,01,01,01\n02,02,02,02\n")
    assert verify(adc.lenient(), answer) == []


def test_letter_x_is_a_label_not_a_block():
    puzzle = parse("X.X\nab.\nab.\n")
    assert not puzzle.blocked and {p.label for p in puzzle.pairs} == {"X", "a", "b"}
    assert parse(format_puzzle(puzzle)).pairs[0].label == "1"  # renumbered: X means solid


@pytest.mark.parametrize("text, words", [
    ("| 1 || || 2 |\n| || 1 || |\n", "label 2 occurs once"),
    ("| 1 || 1 || 1 |\n", "label 1 occurs 3 times"),
    ("| 1 || || |\n| 1 || |\n", "ragged row"),
    ("3 2\nA..\n..A\n\n2 2\nab\nab\n", "holds 2 puzzles"),
    ("SIZE 3X3X2\nLINE_NUM 1\n", "3-D"),
    ("SIZE 3X1\nLINE_NUM 1\nLINE#1 (0,0)-(5,0)\n", "outside"),
    ("SIZE 2X1\n01,01\n", "answer"),
    ("3 2\nA..\n", "header says 2 rows"),
    ("| 1 | oops\n", "not a row"),
])
def test_bad_input_is_a_clear_error(text, words):
    with pytest.raises(InputError, match=words):
        parse(text, "bad.nl")


def test_blocked_endpoint_is_an_error():
    from search.numberlink.io import make_puzzle

    with pytest.raises(InputError, match="blocked"):
        make_puzzle(2, 2, {"1": [(0, 0), (1, 1)]}, frozenset({(1, 1)}))


def test_sniff():
    assert sniff(SEED_PUZZLE) and sniff("SIZE 4X2\nLINE_NUM 1\nLINE#1 (0,0)-(3,0)\n")
    assert not sniff("3\n0 | 0 < 0\n- - ^ - -\n0 > 0 | 0\nv - - - -\n0 | 0 | 2\n")


@pytest.mark.parametrize("name, text, words", [
    ("q.txt", "SIZE 2X2\nLINE_NUM 1\nLINE#1 (0,0)-(5,5)\n", "3: label 1: end (5, 5) is outside"),
    ("q.txt", "SIZE 3X3\nLINE_NUM 1\nLINE#1 (0,0)-(0,0)\n", "3: labels 1 and 1 share the cell"),
    # a grid in a .dat file (TdZdd's, or Futoshiki's AMPL): both readers stop on line 2;
    # Numberlink read it as its format, Futoshiki recognised none of its own
    ("lone.dat", "2 1\n1 -\n", "2: cannot tell which puzzle this is (use --puzzle); "
     "closest: numberlink, which stops here: label 1 occurs once"),
])
def test_a_damaged_numberlink_file_is_told_as_numberlink(tmp_path, name, text, words):
    """Without --puzzle, the Numberlink reader says what is wrong with a damaged
    Numberlink file: the ``SIZE`` header names the format, and a reader that took
    the text as its format goes before one that recognised none."""
    board = tmp_path / name
    board.write_text(text)
    with pytest.raises(InputError, match=re.escape(words)):
        load_puzzle(board)


def test_contest_answers_verify():
    folder = INSTANCES / "numberlink" / "adc2015"
    for answer in sorted(folder.glob("A*.txt")):
        question = folder / ("Q" + answer.name[1:])
        puzzle = parse(question.read_text(), str(question)).lenient()
        solution = parse_solution(puzzle, answer.read_text(), str(answer))
        assert verify(puzzle, solution) == [], answer.name


# ---------------------------------------------------------------- the oracle


def test_verify_rejects_broken_solutions():
    puzzle = parse("1..1\n2..2\n")
    good = Solution((((0, 0), (0, 1), (0, 2), (0, 3)), ((1, 0), (1, 1), (1, 2), (1, 3))))
    assert verify(puzzle, good) == []
    jump = Solution((((0, 0), (0, 2), (0, 3)), good.paths[1]))
    assert any("jumps" in v for v in verify(puzzle, jump))
    crossing = Solution((((0, 0), (1, 1), (0, 3)), good.paths[1]))
    assert verify(puzzle, crossing)
    short = Solution((((0, 0), (0, 1), (0, 2), (0, 3)), ((1, 0), (1, 3))))
    assert verify(puzzle, short)
    assert verify(puzzle, Solution(good.paths[:1]))
    gap = parse("1..1\n....\n")
    straight = Solution((((0, 0), (0, 1), (0, 2), (0, 3)),))
    assert any("full cover" in v for v in verify(gap, straight))
    assert verify(gap.lenient(), straight) == []


def test_touches_itself():
    puzzle = parse("1.\n1.\n").lenient()
    direct = Solution((((0, 0), (1, 0)),))
    around = Solution((((0, 0), (0, 1), (1, 1), (1, 0)),))
    assert not touches_itself(puzzle, direct) and touches_itself(puzzle, around)


# ---------------------------------------------------------------- known answers


@pytest.mark.parametrize("name", BACKENDS)
def test_seed_example(name):
    puzzle = parse(SEED_PUZZLE)
    result = engine(name).solve(puzzle)
    assert result.status is Status.SOLVED
    assert result.solution.edges == parse_solution(puzzle, SEED_SOLUTION).edges
    for rules in (puzzle, puzzle.lenient()):
        assert engine(name).count(rules).count == 1
        assert engine(name).unique(rules).status is Status.UNIQUE


@pytest.mark.parametrize("name", BACKENDS)
def test_small_boards_match_brute_force(name):
    """A few hundred seeded random boards up to 5 x 5, both rule sets, both modes."""
    rng = random.Random(2026)
    checked = 0
    while checked < 240:
        board = random_board(rng)
        for puzzle in (board, board.lenient()):
            expected = brute_count(puzzle)
            if expected > 400:
                continue
            found = list(engine(name).solutions(puzzle))
            assert len(found) == expected, puzzle
            assert len({s.edges for s in found}) == len(found)
            for solution in found:
                assert verify(puzzle, solution) == []
            avoiding = list(engine(name, no_self_touch=True).solutions(puzzle))
            assert len(avoiding) == brute_count(puzzle, self_avoiding=True), puzzle
            for options in ({}, {"block": True}) if name == "cpsat" else ({},):
                for limit in (1, 2):
                    capped = engine(name, **options).count(puzzle, limit=limit)
                    assert capped.count == min(expected, limit), (puzzle, options)
                    assert capped.complete is (expected < limit)
                capped = engine(name, no_self_touch=True, **options).count(puzzle, limit=2)
                assert capped.count == min(len(avoiding), 2), (puzzle, options)
                found = engine(name, **options).unique(puzzle)
                assert found.status is (Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[
                    min(expected, 2)], (puzzle, options)
                assert len({s.edges for s in found.solutions}) == len(found.solutions)
                assert all(verify(puzzle, s) == [] for s in found.solutions)
            solved = engine(name).solve(puzzle)
            assert solved.status is (Status.SOLVED if expected else Status.UNSAT), puzzle
            checked += 1


def test_lenient_solve_matches_brute_force():
    """The lenient ``solve`` (router hint, then the no-self-touch circuit model):
    solvable exactly when the oracle finds a solution, and every answer verifies."""
    from search.numberlink.route import route

    rng = random.Random(2027)
    routed = 0
    for _ in range(300):
        puzzle = random_board(rng).lenient()
        solvable = brute_count(puzzle, self_avoiding=True) > 0
        assert solvable == (brute_count(puzzle) > 0)  # the shortcut lemma
        hint = route(puzzle)
        if hint is not None:
            routed += 1
            assert solvable and verify(puzzle, hint) == [], puzzle
        solved = engine("cpsat").solve(puzzle, time_limit=30)
        assert solved.status is (Status.SOLVED if solvable else Status.UNSAT), puzzle
        if solvable:
            assert verify(puzzle, solved.solution) == []
    assert routed > 50


def test_portfolio_blocking_matches_brute_force():
    """The check's second look: solving and blocking with 8 workers (a solve,
    unlike enumeration, may run a portfolio), counts capped at 2 against the
    oracle, both rule sets, plain and self-avoiding."""
    rng = random.Random(2028)
    for _ in range(40):
        board = random_board(rng)
        for puzzle in (board, board.lenient()):
            for nst in (False, True):
                backend = engine("cpsat", block=True, workers=8, no_self_touch=nst)
                found = backend.unique(puzzle, time_limit=30)
                expected = brute_count(puzzle, self_avoiding=nst)
                assert len(found.solutions) == min(expected, 2), (puzzle, nst)
                assert all(verify(puzzle, s) == [] for s in found.solutions)
                assert backend.count(puzzle, limit=2).count == min(expected, 2)


def _manifest_rows(task: str):
    rows = read_manifest(INSTANCES / "numberlink" / "manifest.tsv")
    return [r for r in rows if r.task == task and r.expected.isdigit()
            and int(r.expected) < 100] if task == "count" else [
        r for r in rows if r.task == task]


@pytest.mark.parametrize("name", BACKENDS)
@pytest.mark.parametrize("row", _manifest_rows("count"), ids=lambda r: f"{r.path.name}:{r.rules}")
def test_manifest_counts(name, row):
    puzzle = KIND.call("apply_options", parse(row.path.read_text(), str(row.path)),
                       {"lenient": "lenient" in row.rules})
    result = engine(name).count(puzzle, time_limit=60)
    assert result.complete and result.count == int(row.expected)


@pytest.mark.parametrize("name", [pytest.param("search", marks=pytest.mark.slow), "cpsat"])
def test_contest_q08_two_lenient_solutions(name):
    """ADC2015 Q08: 861281768257258199 lenient solutions (TdZdd); find two."""
    path = INSTANCES / "numberlink" / "adc2015" / "Q08.txt"
    puzzle = parse(path.read_text(), str(path)).lenient()
    result = engine(name, no_self_touch=True).unique(puzzle, time_limit=60)
    assert result.status is Status.MULTIPLE
    for solution in result.solutions:
        assert verify(puzzle, solution) == []


@pytest.mark.parametrize("name", ["Q12.txt", "Q20.txt"])
def test_contest_lenient_solve_is_quick(name):
    """Two contest boards the router untangles: CP-SAT confirms without branching."""
    path = INSTANCES / "numberlink" / "adc2015" / name
    puzzle = parse(path.read_text(), str(path)).lenient()
    result = engine("cpsat").solve(puzzle, time_limit=10)
    assert result.status is Status.SOLVED and verify(puzzle, result.solution) == []
    assert result.effort["branches"] == 0


# ---------------------------------------------------------------- search prunes


def _search_root(puzzle: Numberlink, no_self_touch: bool) -> tuple[int, int]:
    """The search backend's solutions and nodes on one rule set."""
    from search.core.contract import Deadline
    from search.numberlink.solver import Board

    board = Board(puzzle, no_self_touch=no_self_touch)
    return len(list(board.run(Deadline(None)))), board.nodes


def test_search_parity_rule():
    """Heads on two black corners need a region one cell whiter; the two empty
    cells are both white, so full cover fails before the search starts."""
    puzzle = parse("A.\n.A\n")
    assert _search_root(puzzle, False) == (0, 0) == (brute_count(puzzle), 0)
    assert _search_root(puzzle.lenient(), False)[0] == brute_count(puzzle.lenient()) == 2


def test_search_lone_pair_region_rule():
    """Only pair 1 reaches the top row, which it cannot cover without running
    beside itself; without that rule the count is the oracle's."""
    puzzle = parse("| || || || |\n| || 1 || X || 1 |\n")
    assert _search_root(puzzle, True) == (0, 0) == (brute_count(puzzle, self_avoiding=True), 0)
    assert _search_root(puzzle, False)[0] == brute_count(puzzle)


def test_search_without_the_full_colour_balance_still_counts_right(monkeypatch):
    """Past MAX_CHOICES pairs with a choice of regions, the colour balance
    only asks that every region can get a pair: the counts stay exact."""
    from search.numberlink import solver

    monkeypatch.setattr(solver, "MAX_CHOICES", 0)
    rng = random.Random(7)
    for _ in range(80):
        board = random_board(rng)
        if brute_count(board) <= 400:
            assert len(list(engine("search").solutions(board))) == brute_count(board), board


def test_search_independent_parts_multiply():
    """A blocked column splits the board: the parts are solved in turn and
    their solutions combine; a part with none fails the whole board."""
    free = parse("| 1 || || X || 2 || |\n| || || X || || |\n| || 1 || X || || 2 |\n").lenient()
    count = _search_root(free, False)[0]
    assert count == brute_count(free) and count > 4
    dead = parse("| 1 || || X || 2 || 3 |\n| || || X || 3 || 2 |\n| || 1 || X || || |\n").lenient()
    assert _search_root(dead, False)[0] == brute_count(dead) == 0


# ---------------------------------------------------------------- public sets


def _expected_small(limit_cells: int = 30):
    root = shared("instances-public", "numberlink")
    rows = []
    with open(root / "EXPECTED_COUNTS.csv") as handle:
        for row in csv.DictReader(handle):
            w, h = int(row["width"]), int(row["height"])
            if w * h <= limit_cells and row["n_R2_fullcover"].isdigit():
                rows.append(row)
    return root, rows


@pytest.mark.parametrize("name", BACKENDS)
def test_expected_counts_small_public_boards(name):
    """Exact counts of EXPECTED_COUNTS.csv on its boards up to 30 cells (both rules)."""
    root, rows = _expected_small()
    assert rows
    for row in rows:
        puzzle = parse_many((root / row["file"]).read_text(), row["file"])[int(row["index"])]
        if puzzle.width == 1 or puzzle.height == 1:
            continue  # ddnumlin rejects or miscounts boards one cell wide
        for rules, column in ((puzzle, "n_R2_fullcover"), (puzzle.lenient(), "n_R1_lenient")):
            result = engine(name).count(rules, time_limit=30)
            assert result.count == int(row[column]), (row["file"], row["index"], column)


@pytest.mark.parametrize("name", BACKENDS)
def test_flow_free_small_levels_solve(name):
    root = shared("instances-public", "numberlink", "mzucker-flow_solver", "puzzles")
    for size in ("5x5", "6x6", "7x7", "8x8", "9x9"):
        path = root / f"regular_{size}_01.txt"
        puzzle = parse(path.read_text(), str(path))
        result = engine(name).solve(puzzle, time_limit=30)
        assert result.status is Status.SOLVED and verify(puzzle, result.solution) == []
    cross = root / "unsolvable_cross.txt"
    assert engine(name).solve(parse(cross.read_text())).status is Status.UNSAT


@pytest.mark.slow
@pytest.mark.parametrize("index", [59, 77, 117])
def test_large_janko_boards_solved(index):
    """25x25 Janko boards that CP-SAT at its default LP level left unsolved in 20 s."""
    path = shared("instances-public", "numberlink", "thomasahle-numberlink", "puzzles", "janko")
    puzzle = parse_many(path.read_text(), str(path))[index]
    result = engine("cpsat").solve(puzzle, time_limit=120)
    assert result.status is Status.SOLVED and verify(puzzle, result.solution) == []

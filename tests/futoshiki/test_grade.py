"""Feature parity with Tatham's Unequal: grades, Adjacent mode, convert --to.

Grades are checked on hand-made puzzles whose reasoning can be followed by
hand, and on Tatham's own puzzles (the bundled ones, and the public set when it
is beside the checkout).  Adjacent mode is checked against a brute force that
knows nothing of it: every Latin square that fits the givens, kept when the
verifier passes it.
"""

from __future__ import annotations

import csv
import json
import random
from dataclasses import replace
from itertools import permutations

import pytest

from search.app.cli import main
from search.core.contract import GridcpError, Status
from search.core.registry import instance_files, kind, load, load_puzzle
from search.futoshiki import apply_options
from search.futoshiki.formats import TATHAM_GRADES, format_tatham, parse_tatham
from search.futoshiki.grade import _forcing_chain, grade, solved_at, up_to
from search.futoshiki.io import parse
from search.futoshiki.model import Cell, Futoshiki, Solution
from search.futoshiki.propagate import Engine
from search.futoshiki.verify import verify
from search.lab.oracles.futoshiki import count as brute_force_count
from search.lab.oracles.futoshiki import random_puzzle as random_unequal
from tests.conftest import INSTANCES, shared

ADJACENT_BACKENDS = ["search", "propagate", "cpsat"]
TATHAM = INSTANCES / "futoshiki" / "tatham"


def _grid(rows: str) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(v) for v in row) for row in rows.split())


# ---------------------------------------------------------------- grades by hand


def test_a_square_short_of_one_cell_is_trivial() -> None:
    puzzle = Futoshiki(3, _grid("123 231 310"))
    assert grade(puzzle) == "trivial"


def test_a_chain_of_inequalities_is_easy() -> None:
    # (0,0) < (0,1) < (0,2) and (0,0) < (1,0) < (2,0): singles see nothing, the
    # bounds carried along the chains give 1 2 3 in row 0 and column 0, and
    # singles finish: 1 2 3 / 2 3 1 / 3 1 2.
    chain = (((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 0), (1, 0)), ((1, 0), (2, 0)))
    puzzle = Futoshiki(3, _grid("000 000 000"), chain)
    assert solved_at(replace(puzzle, less=())) is None
    assert grade(puzzle) == "easy"


def test_a_naked_pair_needs_tricky_rules() -> None:
    # Row 0 of an empty 4x4 with (0,0) and (0,1) narrowed to {1, 2}: every value
    # keeps two places, so singles and bounds see nothing; set elimination (a
    # naked pair) leaves (0,2) and (0,3) only {3, 4}.
    engine = Engine(Futoshiki.empty(4), up_to("easy"))
    assert engine.narrow(0, 0b0011) and engine.narrow(1, 0b0011) and engine.propagate()
    assert engine.dom[2] == engine.dom[3] == 0b1111
    engine.use(up_to("tricky"))
    assert engine.propagate() and engine.dom[2] == engine.dom[3] == 0b1100


def test_a_forcing_chain_rules_out_a_value_in_line_with_both_ends() -> None:
    # A = (0,0) {1,2}, B = (0,2) {2,3}, C = (2,2) {1,3}: if A is not 1 it is 2,
    # so B is 3 and C is 1; either A or C holds 1, and (2,0), in line with both,
    # loses 1.  The other cells keep all four values (no other chain).
    engine = Engine(Futoshiki.empty(4), up_to("extreme"))
    engine.dom[0], engine.dom[2], engine.dom[10] = 0b0011, 0b0110, 0b0101
    assert _forcing_chain(engine)
    assert engine.dom[8] == 0b1110
    assert [i for i, d in enumerate(engine.dom) if d != 0b1111] == [0, 2, 8, 10]


def test_empty_and_contradictory_squares_have_no_grade() -> None:
    assert grade(Futoshiki.empty(3)) is None  # 12 solutions
    assert grade(Futoshiki(2, _grid("10 10"))) is None  # no solution
    assert grade(Futoshiki(2, _grid("00 00"), (((0, 0), (0, 1)), ((0, 1), (0, 0))))) is None


def test_grades_are_one_level_apart_on_the_bundled_puzzles() -> None:
    for path in sorted(TATHAM.glob("*.tatham")):
        puzzle = _bundled(path.stem)
        expected = path.stem.split("_")[1]
        assert grade(puzzle) == expected, path.name
        if expected != "trivial":  # no lower level solves it
            found = solved_at(puzzle)
            assert found == (None if expected == "recursive" else expected), path.name


def test_bundled_ids_carry_the_grade_in_their_parameters() -> None:
    for path in sorted(TATHAM.glob("*.tatham")):
        letter = path.read_text().split(":")[0].split("d")[-1]
        assert TATHAM_GRADES[letter].lower() == path.stem.split("_")[1]


def test_grades_agree_with_tathams_on_the_public_set() -> None:
    """All 131 game IDs (127 Unequal, 4 Adjacent): Tatham's grade, re-graded after
    generation as the lowest level that solves each."""
    table = shared("instances-public", "futoshiki", "tatham-unequal", "gameids.tsv")
    rows = [line.split("\t") for line in table.read_text().splitlines()]
    assert len(rows) == 131
    disagree = [row[0] for row in rows if grade(parse(row[0])) != row[1].lower()]
    assert disagree == []


def _bundled(stem: str) -> Futoshiki:
    return load_puzzle(TATHAM / f"{stem}.tatham")[1]


# ---------------------------------------------------------------- Adjacent mode


def brute_force(puzzle: Futoshiki) -> list[Solution]:
    """Every solution, by rows: the permutations that keep a row's givens and bars
    (a bar iff the values differ by 1), stacked when no column repeats and the
    bars between rows hold; each one passed by the verifier as well."""
    n, bars = puzzle.n, puzzle.bar_set

    def fits(a: Cell, b: Cell, x: int, y: int) -> bool:
        return (abs(x - y) == 1) == ((a, b) in bars)

    rows = [[row for row in permutations(range(1, n + 1))
             if all(g in (0, v) for g, v in zip(puzzle.givens[r], row))
             and all(fits((r, c), (r, c + 1), row[c], row[c + 1]) for c in range(n - 1))]
            for r in range(n)]
    found: list[Solution] = []

    def stack(grid: list[tuple[int, ...]]) -> None:
        r = len(grid)
        if r == n:
            found.append(Solution(tuple(grid)))
            return
        for row in rows[r]:
            if all(row[c] != above[c] for above in grid for c in range(n)) \
                    and (r == 0 or all(fits((r - 1, c), (r, c), grid[-1][c], row[c])
                                       for c in range(n))):
                stack([*grid, row])

    stack([])
    assert all(verify(puzzle, s) == [] for s in found)
    return found


def random_adjacent(n: int, rng: random.Random) -> Futoshiki:
    """Bars from a random Latin square, some flipped (so that some puzzles have no
    solution), and a few of its values as givens."""
    shift = rng.sample(range(n), n)
    rows = [[(shift[r] + c) % n + 1 for c in range(n)] for r in range(n)]
    columns = rng.sample(range(n), n)
    rows = [[row[c] for c in columns] for row in rows]
    rng.shuffle(rows)
    empty = Futoshiki.empty(n, adjacent=True)
    bars = []
    for a, b in empty.neighbour_pairs():
        bar = abs(rows[a[0]][a[1]] - rows[b[0]][b[1]]) == 1
        if rng.random() < 0.08:
            bar = not bar
        if bar:
            bars.append((a, b))
    share = rng.choice([0.0, 0.1, 0.3])
    givens = tuple(tuple(v if rng.random() < share else 0 for v in row) for row in rows)
    return Futoshiki(n, givens, adjacent=True, bars=tuple(bars))


RANDOM_ADJACENT = [random_adjacent(3 if i % 4 == 0 else 4, random.Random(i)) for i in range(60)]


def test_random_adjacent_puzzles_cover_every_outcome() -> None:
    counts = [len(brute_force(p)) for p in RANDOM_ADJACENT]
    assert 0 in counts and 1 in counts and max(counts) >= 2


@pytest.mark.parametrize("backend", ADJACENT_BACKENDS)
def test_adjacent_counts_and_verdicts_equal_brute_force(backend: str) -> None:
    engine = kind("futoshiki").backend(backend)
    for i, puzzle in enumerate(RANDOM_ADJACENT):
        expected = brute_force(puzzle)
        found = list(engine.solutions(puzzle))
        assert sorted(s.grid for s in found) == sorted(s.grid for s in expected), i
        verdict = engine.unique(puzzle).status
        assert verdict is (Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[min(len(expected), 2)]


@pytest.mark.parametrize("backend", ADJACENT_BACKENDS)
def test_adjacent_5x5_with_givens_equals_brute_force(backend: str) -> None:
    engine = kind("futoshiki").backend(backend)
    rng = random.Random(5)
    for _ in range(4):
        puzzle = random_adjacent(5, rng)
        puzzle = replace(puzzle, givens=tuple(
            tuple(v if (r + c) % 3 == 0 else 0 for c, v in enumerate(row))
            for r, row in enumerate(_solution_rows(puzzle, rng))))
        assert engine.count(puzzle).count == len(brute_force(puzzle))


def _solution_rows(puzzle: Futoshiki, rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """A Latin square whose bars are the puzzle's, when the puzzle has one; else any."""
    found = brute_force(replace(puzzle, givens=Futoshiki.empty(puzzle.n).givens))
    return rng.choice(found).grid if found else Futoshiki.empty(puzzle.n).givens


def test_unequal_backends_still_equal_brute_force() -> None:
    rng = random.Random(3)
    engine = kind("futoshiki").backend("propagate")
    for _ in range(40):
        puzzle = random_unequal(4, rng, givens=0.1, relations=0.3)
        assert engine.count(puzzle).count == brute_force_count(puzzle)


def test_count_dp_refuses_adjacent_counts_with_a_reason() -> None:
    with pytest.raises(GridcpError, match="Adjacent"):
        kind("futoshiki").backend("count-dp").count(RANDOM_ADJACENT[0])


def test_verifier_names_a_missing_and_a_wrong_bar() -> None:
    puzzle = Futoshiki(2, _grid("00 00"), adjacent=True, bars=(((0, 0), (0, 1)),))
    assert verify(puzzle, Solution(_grid("12 21"))) == [
        "(1,1) and (2,1) hold 1 and 2: no bar but differ by 1",
        "(1,2) and (2,2) hold 2 and 1: no bar but differ by 1",
        "(2,1) and (2,2) hold 2 and 1: no bar but differ by 1"]
    three = Futoshiki(3, _grid("000 000 000"), adjacent=True, bars=(((0, 0), (0, 1)),))
    assert "a bar but do not differ by 1" in verify(three, Solution(_grid("132 213 321")))[0]


def test_adjacent_flag_reads_a_file_without_inequalities_in_adjacent_mode() -> None:
    plain = Futoshiki(3, _grid("000 000 000"))
    assert apply_options(plain, {"adjacent": True}) == Futoshiki.empty(3, adjacent=True)
    assert apply_options(plain, {"adjacent": False}) == plain
    with pytest.raises(GridcpError, match="inequalities, not bars"):
        apply_options(replace(plain, less=(((0, 0), (0, 1)),)), {"adjacent": True})


def test_adjacent_ids_and_text_grids_round_trip() -> None:
    puzzle = _bundled("a07_extreme_1")
    assert puzzle.adjacent and not puzzle.less and len(puzzle.bars) > 20
    text = format_tatham(puzzle)
    assert text.startswith("7a:") and parse_tatham(text) == puzzle
    grid = load("search.futoshiki.formats:format_tatham_text")(puzzle)
    assert "|" in grid and "-" in grid and parse(grid) == puzzle


def test_command_line_solves_counts_and_grades_adjacent_puzzles(tmp_path, capsys) -> None:
    path = TATHAM / "a05_tricky_1.tatham"
    assert main(["check", "--json", str(path)]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["details"]["grade"] == "tricky"
    assert main(["count", "--backend", "propagate", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 1
    empty = tmp_path / "empty3.txt"
    empty.write_text("3\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n")
    # no two neighbours may differ by 1, and a row of 1 2 3 always has such a pair
    assert main(["count", "--adjacent", "--backend", "propagate", str(empty)]) == 0
    assert "COUNTED 0" in capsys.readouterr().out


# ---------------------------------------------------------------- convert --to


@pytest.mark.parametrize("puzzle", ["futoshiki", "numberlink", "lianliankan"])
def test_convert_round_trips_every_bundled_file_through_every_writer(puzzle: str) -> None:
    kind_ = kind(puzzle)
    assert kind_.writers
    written = 0
    for path in instance_files([INSTANCES / puzzle]):
        try:
            found, original = load_puzzle(path)
        except GridcpError:
            continue  # a collection of several boards: not one puzzle
        if found.name != puzzle:
            continue
        for name, (writer, _) in kind_.writers.items():
            if puzzle == "futoshiki" and original.n == 1 and name in ("tatham-text", "csv"):
                continue  # one cell, no relations: the same text as a seed file
            try:
                text = load(writer)(original)
            except GridcpError:  # a format that cannot express it (Adjacent mode)
                assert puzzle == "futoshiki" and original.adjacent, (path, name)
                continue
            again = kind_.call("parse", text, f"{path}:{name}")
            assert kind_.call("format_puzzle", again) == kind_.call("format_puzzle", original), \
                (path, name)
            written += 1
    assert written > 10


def test_convert_to_writes_files_with_the_formats_suffix(tmp_path, capsys) -> None:
    path = TATHAM / "u05_extreme_1.tatham"
    assert main(["convert", "--to", "tatham", "-o", str(tmp_path), str(path)]) == 0
    out = tmp_path / "u05_extreme_1.tatham"
    assert out.read_text() == format_tatham(_bundled("u05_extreme_1"))
    for fmt in kind("futoshiki").writers:
        assert main(["convert", "--to", fmt, str(path)]) == 0
        assert parse(capsys.readouterr().out) == _bundled("u05_extreme_1")


def test_convert_to_an_unknown_or_impossible_format_is_bad_usage(capsys) -> None:
    path = TATHAM / "a05_tricky_1.tatham"
    assert main(["convert", "--to", "csv", str(path)]) == 2
    assert "no Adjacent mode" in capsys.readouterr().err
    assert main(["convert", "--to", "nonesuch", str(path)]) == 2
    assert "no writer for 'nonesuch' (known: seed, tatham" in capsys.readouterr().err


def test_bundled_solutions_of_adjacent_ids_pass_the_verifier() -> None:
    with open(INSTANCES / "futoshiki" / "solutions.tsv") as handle:
        rows = {r["file"]: r["solution"] for r in csv.DictReader(handle, delimiter="\t")}
    for stem in ("a05_tricky_1", "a07_extreme_1"):
        puzzle = _bundled(stem)
        values = [int(v) for v in rows[f"tatham/{stem}.tatham"].split(",")]
        n = puzzle.n
        grid = tuple(tuple(values[r * n:(r + 1) * n]) for r in range(n))
        assert verify(puzzle, Solution(grid)) == []

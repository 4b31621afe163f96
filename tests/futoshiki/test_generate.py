"""The Futoshiki generator: reproducible, and every puzzle unique and minimal, as
every registered backend sees it."""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import replace

import pytest

from search.core.contract import GridcpError, Status
from search.core.registry import kind
from search.futoshiki.generate import (
    clue_order,
    generate,
    generate_graded,
    generate_puzzle,
    parse_size,
    random_latin_square,
)
from search.futoshiki.grade import GRADES, grade, solved_at
from search.futoshiki.io import format_seed, parse
from search.futoshiki.model import Futoshiki, Solution
from search.futoshiki.verify import verify
from tests.conftest import backend_names

BACKENDS = backend_names("futoshiki")
CASES = [(4, seed) for seed in range(6)] + [(5, seed) for seed in range(4)]


@pytest.fixture(scope="module")
def generated() -> dict[tuple[int, int], tuple[Futoshiki, Solution]]:
    return {(n, seed): generate_puzzle(n, random.Random(seed)) for n, seed in CASES}


def clues_of(puzzle: Futoshiki) -> list[Futoshiki]:
    """``puzzle`` with one clue taken away, for each of its clues."""
    out = []
    for r, c in puzzle.cells:
        if puzzle.given((r, c)):
            rows = [list(row) for row in puzzle.givens]
            rows[r][c] = 0
            out.append(replace(puzzle, givens=tuple(map(tuple, rows))))
    for pair in puzzle.less:
        out.append(replace(puzzle, less=tuple(p for p in puzzle.less if p != pair)))
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6, 9])
def test_random_latin_squares_are_latin_and_reproducible(n: int) -> None:
    square = random_latin_square(n, random.Random(7))
    full = set(range(1, n + 1))
    assert all(set(row) == full for row in square)
    assert all({row[c] for row in square} == full for c in range(n))
    assert square == random_latin_square(n, random.Random(7))


def test_latin_squares_vary_with_the_seed() -> None:
    assert len({random_latin_square(6, random.Random(s)) for s in range(20)}) == 20


def test_same_seed_same_puzzle(generated) -> None:
    for (n, seed), (puzzle, solution) in list(generated.items())[:4]:
        assert generate_puzzle(n, random.Random(seed)) == (puzzle, solution)


def test_puzzles_vary_and_hold_their_solution(generated) -> None:
    assert len({puzzle for puzzle, _ in generated.values()}) == len(generated)
    for puzzle, solution in generated.values():
        assert verify(puzzle, solution) == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_generated_puzzle_is_unique_and_minimal(backend: str, generated) -> None:
    engine = kind("futoshiki").backend(backend)
    for (n, seed), (puzzle, solution) in generated.items():
        if backend == "search" and n > 4:
            continue  # the seed's row-major search is slow on sparse 5 x 5 puzzles
        result = engine.count(puzzle, limit=2)
        assert (result.status, result.count) == (Status.COUNTED, 1), (n, seed)
        assert engine.solve(puzzle).solution == solution
        for weaker in clues_of(puzzle):
            assert engine.count(weaker, limit=2).count == 2, (n, seed, weaker)


def test_methods_choose_the_kinds_of_clues() -> None:
    for seed in range(3):
        givens_only, _ = generate_puzzle(4, random.Random(seed), method="givens")
        assert givens_only.less == ()
        relations, _ = generate_puzzle(4, random.Random(seed), method="relations")
        assert len(relations.less) > sum(v > 0 for row in relations.givens for v in row)


def test_clue_order_offers_every_clue_of_the_square() -> None:
    square = ((1, 2), (2, 1))
    mixed = clue_order(square, "mixed", random.Random(1))
    assert len(mixed) == len(set(mixed)) == 4 + 4
    assert ("less", ((0, 0), (0, 1))) in mixed and ("less", ((1, 1), (0, 1))) in mixed
    relations = clue_order(square, "relations", random.Random(1))
    assert [kind for kind, _ in relations] == ["less"] * 4 + ["given"] * 4
    assert {kind for kind, _ in clue_order(square, "givens", random.Random(1))} == {"given"}


@pytest.mark.parametrize("adjacent", [False, True])
@pytest.mark.parametrize("difficulty", GRADES)
def test_difficulty_is_tathams_grade_and_every_clue_is_needed(difficulty: str,
                                                              adjacent: bool) -> None:
    puzzle, solution, found = generate_graded(5, 3, difficulty=difficulty, adjacent=adjacent)
    assert verify(puzzle, solution) == [] and puzzle.adjacent == adjacent
    assert found == difficulty == grade(puzzle)
    assert kind("futoshiki").backend("propagate").unique(puzzle).status is Status.UNIQUE
    if difficulty == "recursive":
        return
    level = GRADES.index(difficulty)
    for weaker in clues_of(puzzle):  # minimal for the rules of its grade
        solved = solved_at(weaker)
        assert solved is None or GRADES.index(solved) > level



def test_an_easy_puzzle_of_givens_only_is_refused_at_once() -> None:
    with pytest.raises(GridcpError, match="no easy puzzle has givens only"):
        generate_graded(5, 1, difficulty="easy", method="givens")


def test_sizes() -> None:
    assert parse_size(None) == 5 and parse_size("7") == 7 and parse_size("6x6") == 6
    for bad in ("5x6", "0", "x", "40"):
        with pytest.raises(Exception, match="--size"):
            parse_size(bad)


def _args(**changes) -> argparse.Namespace:
    args = dict(size="4", seed=11, count=2, out=None, method=None, json=False,
                difficulty="any", backend=None)
    return argparse.Namespace(**(args | changes))


def test_command_prints_seed_files_and_json(capsys) -> None:
    assert generate(_args()) == 0
    printed = capsys.readouterr().out.split("\n\n")
    first, _ = generate_puzzle(4, random.Random(11))
    second, _ = generate_puzzle(4, random.Random(12))  # puzzle k comes from seed + k - 1
    assert [parse(text, "stdout") for text in printed] == [first, second]
    assert generate(_args(json=True, count=1, difficulty="easy")) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["difficulty"] == "easy" and record["nodes"] >= 1
    assert parse(record["text"], "json") == parse(record["tatham"], "json")


def test_command_writes_files(tmp_path, capsys) -> None:
    assert generate(_args(out=str(tmp_path), size="3")) == 0
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["futoshiki_3_11_1.txt", "futoshiki_3_11_2.txt"]
    first, _ = generate_puzzle(3, random.Random(11))
    assert files[0].read_text() == format_seed(first)
    assert "generated 2 3x3 puzzles in " in capsys.readouterr().err


def test_command_refuses_bad_options(capsys) -> None:
    assert generate(_args(size="4x5")) == 2
    assert generate(_args(method="bogus")) == 2
    assert generate(_args(backend="bogus")) == 2
    assert "gridcp:" in capsys.readouterr().err


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_backend_drives_the_generator_to_the_same_puzzles(backend: str,
                                                                  generated) -> None:
    """Only verdicts steer the generator, so the puzzle of a seed does not depend on
    which backend checks uniqueness."""
    if "unique" not in kind("futoshiki").backend(backend).calls:
        pytest.skip(f"{backend} cannot tell uniqueness")
    for seed in range(3):
        assert generate_puzzle(4, random.Random(seed), backend=backend) == generated[4, seed]


@pytest.mark.slow
@pytest.mark.parametrize("n", [6, 7, 8])
def test_larger_generated_puzzles_are_unique_and_minimal(n: int) -> None:
    engine = kind("futoshiki").backend("cpsat")  # a second opinion beside the generator's
    for seed in range(3):
        puzzle, solution = generate_puzzle(n, random.Random(seed))
        assert engine.unique(puzzle).solutions == (solution,)
        assert all(engine.count(weaker, limit=2).count == 2 for weaker in clues_of(puzzle))

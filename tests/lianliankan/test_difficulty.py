"""``generate --solvable --difficulty``: the grade holds on the boards given,
hard deals are cleared by the greedy scan no more often than random clearable
deals, and every board comes with the clearing it was built from."""

from __future__ import annotations

import json
import random

from search.app.cli import main
from search.core.contract import Status
from search.lianliankan.difficulty import RANDOM_GAMES, grade, random_wins, searched
from search.lianliankan.generate import full_fill
from search.lianliankan.greedy import play
from search.lianliankan.io import parse_solution
from search.lianliankan.model import Board
from search.lianliankan.verify import verify


def generated(capsys, *args: str) -> list[dict]:
    assert main(["generate", "lianliankan", "--full", "--solvable", "--border", "--json",
                 *args]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def board_of(record: dict) -> tuple[Board, object]:
    board = Board(tuple(map(tuple, record["grid"])), border=record["border"],
                  gravity=record["gravity"])
    moves = "".join(f"({m['tiles'][0][0]},{m['tiles'][0][1]}) - "
                    + "".join(f"({r},{c}) - " for r, c in m["corners"])
                    + f"({m['tiles'][1][0]},{m['tiles'][1][1]})\n" for m in record["clearing"])
    return board, parse_solution(moves)


def test_hard_deals_against_random_clearable_deals(capsys) -> None:
    hard = generated(capsys, "--difficulty", "hard", "--count", "2", "--seed", "7")
    greedy_hard = 0
    for record in hard:
        board, clearing = board_of(record)
        assert verify(board, clearing) == []
        assert record["grade"] == "hard" and not record["greedy_clears"]
        assert record["random_wins"] * 8 <= RANDOM_GAMES
        greedy_hard += play(board).left == 0
    random_deals = []
    for k in range(12):
        board = Board(full_fill(18, 8, 36, random.Random(k)), border=True)
        if searched(board, 50_000)[0] is Status.SOLVED:
            random_deals.append(play(board).left == 0)
    assert random_deals and greedy_hard / len(hard) <= sum(random_deals) / len(random_deals)


def test_easy_deals_and_the_clearing_of_the_blank_game(capsys) -> None:
    for record in generated(capsys, "--difficulty", "easy", "--count", "3", "--size", "8x6"):
        board, clearing = board_of(record)
        assert verify(board, clearing) == [] and record["grade"] == "easy"
        assert play(board).left == 0 and 2 * record["random_wins"] >= RANDOM_GAMES
    # without --difficulty the clearing is there too, under gravity as well
    for args in ((), ("--gravity",), ("--method", "reject")):
        for record in generated(capsys, "--size", "6x4", "--count", "2", *args):
            board, clearing = board_of(record)
            assert verify(board, clearing) == [] and "grade" not in record


def test_grades_are_reproducible_and_need_solvable(capsys) -> None:
    first = generated(capsys, "--difficulty", "medium", "--count", "2", "--size", "10x6")
    assert generated(capsys, "--difficulty", "medium", "--count", "2", "--size", "10x6") == first
    assert all(r["grade"] == "medium" for r in first)
    assert main(["generate", "lianliankan", "--full", "--difficulty", "hard"]) == 2
    assert "--solvable" in capsys.readouterr().err


def test_the_grade_follows_its_definition() -> None:
    for k in range(6):
        board = Board(full_fill(8, 6, 12, random.Random(k)), border=True)
        found = grade(board, k)
        assert found.greedy == (play(board).left == 0)
        assert found.random_wins == random_wins(board, k)
        expected = ("easy" if found.greedy and 2 * found.random_wins >= RANDOM_GAMES
                    else "hard" if not found.greedy and 8 * found.random_wins <= RANDOM_GAMES
                    else "medium")
        assert found.name == expected

"""Games in progress: a deal and the moves played so far, read as the position
reached; every move checked; verdicts against the brute-force oracle."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from search.core.contract import InputError
from search.core.registry import kind
from search.lab.oracles.lianliankan import clearable, random_position, reached
from search.lianliankan.hint import legal_moves
from search.lianliankan.io import format_game, parse, parse_game
from search.lianliankan.model import Board, Move
from search.lianliankan.rules import apply_options

ROOT = Path(__file__).resolve().parents[2]
KIND = kind("lianliankan")


def game_text(rng: random.Random, deal: Board, game: list) -> str:
    """The game file, each move with its seed line or (one time in three) its tiles alone."""
    moves, board = [], deal
    for a, b in game:
        lines = {frozenset((m.a, m.b)): m for m in legal_moves(board)}
        moves.append(lines[frozenset((a, b))])
        board = board.removed(a, b)
    text = format_game(deal, moves)
    if rng.random() < 1 / 3:  # tiles alone: the reader finds the line
        head, _, tail = text.partition("moves:\n")
        tail = "".join(f"({m.a[0]},{m.a[1]}) - ({m.b[0]},{m.b[1]})\n" for m in moves)
        text = head + "moves:\n" + tail
    return text


def positions_agree(count: int, seed: int) -> int:
    rng = random.Random(seed)
    lost = 0
    for _ in range(count):
        deal, game = random_position(rng)
        text = game_text(rng, deal, game)
        board = parse(text, "game.llk")
        expected = reached(deal, game)
        assert board.grid == expected.grid and board == expected, text
        assert (board.border, board.gravity, board.turns) == (deal.border, deal.gravity, 2)
        report = KIND.verdict(board, None, 60)
        assert report.ok is clearable(board), text
        lost += not report.ok
    return lost


def test_positions_played_from_fresh_deals() -> None:
    assert positions_agree(200, 41) >= 5  # lost positions among them


@pytest.mark.slow
def test_positions_played_from_fresh_deals_1000() -> None:
    positions_agree(1000, 4100)


def test_round_trip_and_the_deal() -> None:
    deal = Board(((1, 2, 2, 1), (3, 3, 4, 4)), border=True, gravity=True)
    moves = list(legal_moves(deal)[:1])
    text = format_game(deal, moves)
    assert text.startswith("rules: border gravity\n")
    read_deal, read_moves = parse_game(text)
    assert read_deal == deal and read_moves == moves
    assert parse(text) == deal.removed(moves[0].a, moves[0].b)


GAME = """# a game in progress
rules: border
1 2 3 3
2 1 4 4
moves:
3: (0,2) - (0,3)
4: (1,2) - (1,3)
"""


@pytest.mark.parametrize("move, why", [
    ("1: (0,0) - (1,1)", "move 2 (0,0) - (1,1) cannot be played: no line"),
    ("2: (0,0) - (1,0)", "pictures differ"),
    ("3: (0,2) - (0,3)", "first tile (0, 2) is an empty cell"),
    ("2: (0,1) - (-1,1) - (-1,0) - (1,0)", "the line crosses (0, 0), which holds tile 1"),
    ("3: (1,2) - (1,3)", "it names picture 3, the tiles hold 4"),
    ("(0,0) - (0,9)", "off the board"),
    ("0,0 to 0,1", "a move is"),
])
def test_the_first_illegal_move_is_named(move: str, why: str) -> None:
    text = GAME.replace("4: (1,2) - (1,3)\n", move + "\n4: (1,2) - (1,3)\n")
    with pytest.raises(InputError) as error:
        parse(text, "game.llk")
    assert error.value.line == 7 and why in error.value.message, error.value


def test_rules_lines() -> None:
    board = parse(GAME)
    assert board.border and board.fixed_rules and len(board.tiles) == 4
    assert apply_options(board, {"border": True, "gravity": False, "turns": 2}) is board
    with pytest.raises(InputError, match="--gravity would change them"):
        apply_options(board, {"border": False, "gravity": True, "turns": 2})
    with pytest.raises(InputError, match="--turns 1"):
        apply_options(board, {"turns": 1})
    with pytest.raises(InputError, match="unknown rule 'wrap'"):
        parse(GAME.replace("rules: border", "rules: border wrap"))
    assert not parse(GAME.replace("rules: border", "")).border  # the plain rules
    assert parse("rules: gravity turns=1\n1 1\n").gravity  # rules without moves


def gridcp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "search", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_commands_read_games(tmp_path: Path) -> None:
    path = tmp_path / "game.llk"
    path.write_text(GAME)
    done = gridcp("check", str(path), "--json")
    assert done.returncode == 1 and json.loads(done.stdout)["verdict"] == "UNSOLVABLE"
    done = gridcp("hint", str(path), "--border")
    assert done.returncode == 1 and "EVERY MOVE LOSES" in done.stdout
    done = gridcp("solve", str(path), "--gravity")
    assert done.returncode == 2 and "game.llk: the file states its rules" in done.stderr
    done = gridcp("draw", str(path), "-o", str(tmp_path / "game.svg"))
    assert done.returncode == 0 and (tmp_path / "game.svg").exists()
    path.write_text(GAME.replace("4: (1,2) - (1,3)", "1: (0,0) - (1,1)"))
    done = gridcp("solve", str(path))
    assert done.returncode == 2 and "game.llk:7: move 2 (0,0) - (1,1)" in done.stderr
    path.write_text(GAME.replace("rules: border\n", "").replace("4: (1,2) - (1,3)\n", ""))
    done = gridcp("solve", str(path), "--json")  # plain rules: 1 2 / 2 1 crossed, 4 4
    assert done.returncode == 1
    moved = tmp_path / "moved.txt"  # no .llk: told from the content
    moved.write_text(GAME)
    assert gridcp("check", str(moved)).returncode == 1


def test_a_solution_continues_the_game(tmp_path: Path) -> None:
    deal = Board(((1, 2, 2, 1), (3, 4, 4, 3)))
    first = legal_moves(deal)[0]
    board = parse(format_game(deal, [first]))
    found = KIND.backend("search").solve(board)
    text = format_game(deal, [first, *found.solution.moves])
    assert not parse(text).tiles
    assert all(isinstance(move, Move) for move in parse_game(text)[1])

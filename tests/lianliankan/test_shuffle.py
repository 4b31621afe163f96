"""``shuffle``: stuck positions reshuffled into ones that clear, against the
brute-force oracle, and the blank-board argument behind "none exists"."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from search.core.contract import Status
from search.core.registry import kind
from search.lab.oracles.lianliankan import (
    clearable,
    moves,
    played,
    random_board,
    random_deal,
    reached,
)
from search.lianliankan.model import Board
from search.lianliankan.shuffle import shuffle
from search.lianliankan.verify import verify

ROOT = Path(__file__).resolve().parents[2]
SEARCH = kind("lianliankan").backend("search")


def blank(board: Board) -> Board:
    return dataclasses.replace(board, grid=tuple(tuple(int(v > 0) for v in row)
                                                 for row in board.grid))


def stuck_positions(rng: random.Random, count: int, max_side: int = 5) -> list[Board]:
    """Positions where a random game got stuck with tiles left."""
    found = []
    while len(found) < count:
        deal = random_deal(rng, max_side)
        board = reached(deal, played(rng, deal))
        if board.tiles:
            assert not moves(board)
            found.append(board)
    return found


def test_stuck_positions_are_reshuffled_where_the_tiles_allow() -> None:
    rng = random.Random(51)
    outcome: Counter = Counter()
    for k, board in enumerate(stuck_positions(rng, 80)):
        found = shuffle(board, k, SEARCH)
        if found.status is Status.SOLVED:
            new = found.board
            assert new.tiles == board.tiles  # the same cells, under gravity too
            assert Counter(map(new.at, new.tiles)) == Counter(map(board.at, board.tiles))
            assert verify(new, found.clearing) == [] and clearable(new), board
        else:
            assert found.status is Status.UNSAT, found
            assert not clearable(blank(board)), board
        outcome[found.status] += 1
    assert outcome[Status.SOLVED] > 50, outcome


def test_no_arrangement_clears_exactly_when_the_blank_board_cannot() -> None:
    """The argument behind 'none exists', checked over every arrangement."""
    rng = random.Random(52)
    seen: Counter = Counter()
    for _ in range(150):
        board = dataclasses.replace(random_board(rng, 3), turns=rng.choice((0, 1, 2)))
        tiles = board.tiles
        if len(tiles) > 8:
            continue
        pictures = [board.at(t) for t in tiles]
        some = False
        for arrangement in set(itertools.permutations(pictures)):
            grid = [list(row) for row in board.grid]
            for (r, c), p in zip(tiles, arrangement, strict=True):
                grid[r][c] = p
            if clearable(dataclasses.replace(board, grid=tuple(map(tuple, grid)))):
                some = True
                break
        assert some == clearable(blank(board)), board
        found = shuffle(board, 1, SEARCH)
        assert (found.status is Status.SOLVED) == some, board
        seen[some] += 1
    assert seen[True] and seen[False], seen


def test_reproducible_and_seeded() -> None:
    deal = random_deal(random.Random(5), 6)
    first = shuffle(deal, 7, SEARCH)
    assert first.status is Status.SOLVED and shuffle(deal, 7, SEARCH).board == first.board
    others = {shuffle(deal, seed, SEARCH).board.grid for seed in range(5)}
    assert len(others) > 1


def test_the_blank_board_decides_when_blank_games_get_stuck() -> None:
    # one way to clear among many that get stuck: random blank games may miss it
    board = Board(((1, 0, 1), (0, 0, 0), (1, 0, 1)), turns=0)
    assert shuffle(board, 1, SEARCH).status is Status.SOLVED
    lost = Board(((1, 0), (0, 1)), turns=0)
    found = shuffle(lost, 1, SEARCH)
    assert found.status is Status.UNSAT and found.engine == "search"


def gridcp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "search", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_command_line(tmp_path: Path) -> None:
    path = tmp_path / "stuck.llk"
    path.write_text("rules: plain\n2 2 2 1\n1 1 1 2\nmoves:\n2: (0,0) - (0,1)\n"
                    "1: (1,0) - (1,1)\n")
    done = gridcp("shuffle", str(path), "--seed", "3")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# ") and "rules: plain" in done.stdout
    out = tmp_path / "out.llk"
    out.write_text(done.stdout)  # the output is a board file
    assert gridcp("check", str(out)).returncode == 0
    done = gridcp("shuffle", str(path), "--seed", "3", "--json")
    answer = json.loads(done.stdout)
    assert answer["status"] == "SOLVED" and answer["seed"] == 3 and answer["clearing"]
    lost = tmp_path / "lost.llk"
    lost.write_text("1 0\n0 1\n")
    done = gridcp("shuffle", str(lost), "--turns", "0")
    assert done.returncode == 1 and "NO SHUFFLE CLEARS" in done.stdout


@pytest.mark.slow
def test_many_stuck_positions() -> None:
    rng = random.Random(53)
    for k, board in enumerate(stuck_positions(rng, 1000)):
        found = shuffle(board, k, SEARCH)
        if found.status is Status.SOLVED:
            assert clearable(found.board), board
        else:
            assert found.status is Status.UNSAT and not clearable(blank(board)), board

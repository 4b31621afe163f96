"""The brute-force oracles: known answers, and independence from the engines."""

from __future__ import annotations

import ast
import random
from dataclasses import replace
from pathlib import Path

import pytest

from search.lab.oracles import lianliankan, numberlink
from search.lianliankan.model import Board
from search.lianliankan.verify import fewest_turns
from search.numberlink.model import Numberlink, Pair

ORACLES = Path(__file__).resolve().parents[2] / "search" / "lab" / "oracles"


@pytest.mark.parametrize("puzzle", ["futoshiki", "numberlink", "lianliankan"])
def test_an_oracle_reads_only_its_puzzles_model(puzzle: str) -> None:
    tree = ast.parse((ORACLES / f"{puzzle}.py").read_text(encoding="utf-8"))
    project = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
               and (node.module or "").split(".")[0] in ("search", "cpmodels")}
    assert project == {f"search.{puzzle}.model"}


def test_numberlink_counts_by_hand() -> None:
    """A 2 x 2 board with one pair at two neighbouring corners: the lenient rule
    has the direct step and the way round; the full cover only the way round,
    which runs beside itself."""
    puzzle = Numberlink(2, 2, (Pair("1", (0, 0), (0, 1)),), frozenset())
    assert numberlink.count(puzzle) == 1
    assert numberlink.count(puzzle.lenient()) == 2
    assert numberlink.count(puzzle, self_avoiding=True) == 0
    assert numberlink.count(puzzle.lenient(), self_avoiding=True) == 1
    assert [s.paths for s in numberlink.solutions(puzzle)] == [
        (((0, 0), (1, 0), (1, 1), (0, 1)),)]


def test_lianliankan_joins_as_the_verifier_does() -> None:
    """The oracle's rays and the verifier's best-first search agree on every two
    tiles of random boards, under every rule and turn limit."""
    rng = random.Random(5)
    for _ in range(600):
        board = replace(lianliankan.random_board(rng, 5), turns=rng.randint(0, 3))
        tiles = board.tiles
        for i, a in enumerate(tiles):
            for b in tiles[i + 1:]:
                assert lianliankan.joined(board, a, b) == (
                    fewest_turns(board, a, b) is not None), (board, a, b)


def test_lianliankan_clearable_by_hand() -> None:
    assert not lianliankan.clearable(Board(((1, 2), (2, 1))))  # a tile at every corner
    row = ((1, 2, 1, 2),)  # each pair has the other's tile between its two
    assert not lianliankan.clearable(Board(row))
    assert lianliankan.clearable(Board(row, border=True))  # 1 round the edge, then 2
    assert not lianliankan.clearable(Board(row, border=True, turns=1))
    assert lianliankan.clearable(Board(((1, 0), (2, 1), (0, 2))))

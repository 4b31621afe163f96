"""The brute-force oracles: known answers, and independence from the engines."""

from __future__ import annotations

import ast
import itertools
import random
from dataclasses import replace
from pathlib import Path

import pytest

from search.lab.oracles import lianliankan, numberlink
from search.lianliankan.model import Board
from search.lianliankan.verify import fewest_turns
from search.numberlink.model import Numberlink, Pair, Solution
from search.numberlink.verify import verify

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


def _agree(puzzle: Numberlink, solution: Solution) -> bool:
    """Both verifiers' answers, checked to agree; True when the solution is valid."""
    graph, rules = numberlink.graph_problems(puzzle, solution), verify(puzzle, solution)
    assert (not graph) == (not rules), (puzzle, solution, graph, rules)
    return not rules


def _broken(puzzle: Numberlink, solution: Solution) -> list[Solution]:
    """Solutions with one path cut: a middle cell dropped (its neighbours on
    the path are two steps apart on the grid) or the last cell dropped."""
    out = []
    for i, path in enumerate(solution.paths):
        cuts = [path[:-1]] + ([path[:1] + path[2:]] if len(path) > 2 else [])
        out += [Solution(solution.paths[:i] + (cut,) + solution.paths[i + 1:]) for cut in cuts]
    return out


def _alone(puzzle: Numberlink, pair: Pair) -> list[tuple]:
    """Up to 6 paths of the pair on the board with no other pair: they may share
    cells with other pairs' paths or run through their ends."""
    board = Numberlink(puzzle.height, puzzle.width, (pair,), puzzle.blocked, full_cover=False)
    return [s.paths[0] for s in itertools.islice(numberlink.solutions(board), 6)]


def test_numberlink_graph_check_agrees_with_verify() -> None:
    """On random small boards, networkx's check and ``verify`` agree on every
    brute-force solution (all valid), on cut paths (all invalid), on each pair's
    own paths drawn regardless of the others (sharing cells, crossing ends, not
    covering) and on solutions of the board with its walls taken down."""
    rng = random.Random(28)
    seen = {"valid": 0, "cut": 0, "shared": 0, "wall": 0}
    for _ in range(300):
        puzzle = numberlink.random_puzzle(rng.randint(2, 4), rng.randint(2, 4), rng)
        for solution in itertools.islice(numberlink.solutions(puzzle), 20):
            assert _agree(puzzle, solution)
            seen["valid"] += 1
            for cut in _broken(puzzle, solution):
                assert not _agree(puzzle, cut)
                seen["cut"] += 1
        drawn = [_alone(puzzle, pair) for pair in puzzle.pairs]
        for paths in itertools.islice(itertools.product(*drawn), 30):
            solution = Solution(tuple(paths))
            cells = [cell for path in paths for cell in path]
            if not _agree(puzzle, solution) and len(set(cells)) < len(cells):
                seen["shared"] += 1
        open_board = replace(puzzle, blocked=frozenset())
        for solution in itertools.islice(numberlink.solutions(open_board), 20):
            through = any(cell in puzzle.blocked for path in solution.paths for cell in path)
            assert _agree(puzzle, solution) != through
            seen["wall"] += through
    assert min(seen.values()) >= 50, seen  # every kind of answer was met often


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

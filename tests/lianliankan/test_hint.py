"""``hint``: the legal moves and the safe move against the brute-force oracle,
and the command line."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from search.core.contract import SolveResult, Status
from search.core.registry import kind
from search.lab.oracles.lianliankan import clearable, random_position, reached
from search.lianliankan.hint import hint, legal_moves
from search.lianliankan.model import Board
from search.lianliankan.verify import fewest_turns, move_problems
from tests.conftest import backend_names

ROOT = Path(__file__).resolve().parents[2]
HANDMADE = ROOT / "instances" / "lianliankan" / "handmade"


def oracle_moves(board: Board) -> set[tuple]:
    """The pairs the verifier's own search joins, as sets of two cells."""
    tiles = board.tiles
    return {frozenset((a, b)) for i, a in enumerate(tiles) for b in tiles[i + 1:]
            if board.at(a) == board.at(b) and fewest_turns(board, a, b) is not None}


def agree_with_oracle(boards: int, seed: int, backend: str, side: int) -> Counter:
    """Every safe move keeps the board clearable, 'every move loses' only on
    boards that cannot clear, and the legal moves are the oracle's."""
    rng = random.Random(seed)
    seen: Counter = Counter()
    engine = kind("lianliankan").backend(backend)
    for _ in range(boards):
        board = reached(*random_position(rng, side))
        legal = legal_moves(board)
        pairs = {frozenset((m.a, m.b)) for m in legal}
        assert pairs == oracle_moves(board), board
        assert all(move_problems(board, m) == [] for m in legal), board
        found = hint(board, engine, time_limit=60)
        if found.status is Status.SOLVED:
            if board.tiles:
                move = found.move  # its own line: any line the rules allow
                assert frozenset((move.a, move.b)) in pairs and not move_problems(board, move)
                assert clearable(board.removed(found.move.a, found.move.b)), board
        else:
            assert found.status is Status.UNSAT, (board, found)
            assert not clearable(board), board
        seen[found.status, bool(legal)] += 1
    return seen


def test_safe_moves_agree_with_the_oracle() -> None:
    seen = agree_with_oracle(200, 31, "search", 6)
    # the sample holds each kind of answer: safe moves, lost boards with moves left
    assert seen[Status.SOLVED, True] > 100 and seen[Status.UNSAT, True] >= 3, seen


@pytest.mark.slow
def test_safe_moves_agree_with_the_oracle_1000() -> None:
    agree_with_oracle(1000, 3100, "search", 6)


def test_cpsat_hints_agree_with_the_oracle() -> None:
    if "cpsat" not in backend_names("lianliankan"):
        pytest.skip("no cpsat backend")
    agree_with_oracle(30, 32, "cpsat", 4)


def test_a_lost_board_with_moves_and_one_without() -> None:
    crossed = Board(((1, 2), (2, 1)))  # no legal move at all
    found = hint(crossed, kind("lianliankan").backend("search"))
    assert found.status is Status.UNSAT and found.legal == () and found.engine == "no legal move"
    # the 1s join now, but the 2s, 3s cross: the position is lost anyway
    lost = Board(((1, 1, 0), (2, 3, 0), (3, 2, 0)))
    assert not clearable(lost) and legal_moves(lost)
    found = hint(lost, kind("lianliankan").backend("search"))
    assert found.status is Status.UNSAT and found.engine == "search" and found.move is None


def test_a_limit_still_lists_the_legal_moves() -> None:
    class Stopped:
        name = "stub"

        def solve(self, board, *, time_limit=None):
            return SolveResult(Status.LIMIT, None, 0.0, {"nodes": 7}, "time limit reached")

    board = Board(((1, 1), (2, 2)))
    found = hint(board, Stopped())  # type: ignore[arg-type]
    assert found.status is Status.LIMIT and len(found.legal) == 2
    assert found.effort == {"nodes": 7} and found.move is None


def test_the_empty_board_is_clear() -> None:
    found = hint(Board(((0, 0),)), kind("lianliankan").backend("search"))
    assert found.status is Status.SOLVED and found.move is None


def gridcp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "search", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)


def test_command_line(tmp_path: Path) -> None:
    done = gridcp("hint", str(HANDMADE / "ring.llk"), "--border", "--json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["status"] == "SOLVED" and answer["engine"] == "search"
    move = answer["move"]
    assert answer["line"] == [move["tiles"][0], *move["corners"], move["tiles"][1]]
    assert move in answer["legal"] and answer["clearing"][0] == answer["line"]
    done = gridcp("hint", str(HANDMADE / "crossed.llk"), "--border")
    assert done.returncode == 1 and "EVERY MOVE LOSES" in done.stdout
    done = gridcp("hint", str(HANDMADE / "ring.llk"))  # without the ring: stuck
    assert done.returncode == 1 and "legal moves: 0" in done.stdout
    futoshiki = next((ROOT / "instances" / "futoshiki").rglob("*.txt"), None)
    if futoshiki is not None:
        done = gridcp("hint", str(futoshiki), "--puzzle", "futoshiki")  # a forced value
        assert done.returncode in (0, 3) and "FORCED" in done.stdout, done.stderr
    bad = tmp_path / "bad.llk"
    bad.write_text("1 2\n2 1 1\n")
    done = gridcp("hint", str(bad))
    assert done.returncode == 2 and "bad.llk:2" in done.stderr


def test_command_line_on_a_clear_board(tmp_path: Path) -> None:
    clear = tmp_path / "clear.llk"
    clear.write_text("0 0\n")
    done = gridcp("hint", str(clear))
    assert done.returncode == 0 and "NOTHING TO DO" in done.stdout  # was: SAFE MOVE, no move
    assert "the board is clear" in done.stdout


def test_gravity_hint_avoids_the_losing_order() -> None:
    # Clears only if the 2s (row 1) go before the 1s below the right one.
    board = Board(((1, 3), (2, 2), (1, 1), (3, 1)), gravity=True)
    legal = {frozenset((m.a, m.b)): m for m in legal_moves(board)}
    wrong = frozenset(((2, 1), (3, 1)))
    assert wrong in legal and not clearable(board.removed(*wrong))
    found = hint(board, kind("lianliankan").backend("search"))
    assert found.status is Status.SOLVED and frozenset((found.move.a, found.move.b)) != wrong

"""Lianliankan under gravity: both backends against brute force, the safe
removals, boards where the order of two removals in one column matters, the
generator that plays under gravity, and KShisen's greedy filter."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from conftest import backend_names
from lianliankan_oracle import clearable, random_board

from search.core import Status
from search.lianliankan.generate import BlankGame, full_tiles, played_fill
from search.lianliankan.gravity import safe_removals
from search.lianliankan.io import parse
from search.lianliankan.kshisen import kshisen_solvable
from search.lianliankan.model import Board
from search.lianliankan.verify import fewest_turns, verify
from search.registry import kind

BACKENDS = backend_names("lianliankan")
ROOT = Path(__file__).resolve().parent.parent

# Solvable only if the 2s (row 1) go before the 1s below the right one: the
# other order drops the right 2 out of line, and the board is lost.
ORDER = ((1, 3), (2, 2), (1, 1), (3, 1))
WRONG_FIRST = ((2, 1), (3, 1))


def grid(text: str) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(int(v) for v in row.split()) for row in text.strip().splitlines())


def solve(name: str, b: Board):
    result = kind("lianliankan").backend(name).solve(b, time_limit=60)
    if result.solution is not None:
        assert verify(b, result.solution) == [], b
    return result


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("border", [False, True])
def test_small_gravity_boards_against_brute_force(backend: str, border: bool) -> None:
    rng = random.Random(21 + border)
    for _ in range(120 if backend == "search" else 40):
        b = dataclasses.replace(random_board(rng, 4 if backend == "search" else 3),
                                gravity=True, border=border)
        expected = Status.SOLVED if clearable(b) else Status.UNSAT
        assert solve(backend, b).status is expected, b


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_order_of_two_removals_in_one_column(backend: str) -> None:
    b = Board(ORDER, gravity=True)
    assert clearable(b)
    lost = b.removed(*WRONG_FIRST)
    assert not clearable(lost)
    assert solve(backend, b).status is Status.SOLVED
    assert solve(backend, lost).status is Status.UNSAT


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("text, border, clears", [
    ("1 2 1\n2 1 2\n1 2 1\n2 1 2", False, False),  # clears without gravity
    ("1 2 1\n2 1 2\n1 2 1\n2 1 2", True, True),
    ("1\n2\n1\n2", False, False),
    ("1\n2\n1\n2", True, True),  # the ring joins the 2s around the 1
])
def test_known_gravity_boards(backend: str, text: str, border: bool, clears: bool) -> None:
    b = Board(grid(text), border=border, gravity=True)
    assert clearable(b) == clears
    assert solve(backend, b).status is (Status.SOLVED if clears else Status.UNSAT)


def test_safe_removals_keep_the_verdict() -> None:
    rng = random.Random(5)
    played = 0
    for _ in range(300):
        b = dataclasses.replace(random_board(rng, 4), gravity=True)
        moves, after = safe_removals(b)
        played += len(moves)
        replay = b
        for move in moves:
            assert fewest_turns(replay, move.a, move.b) is not None
            replay = replay.removed(move.a, move.b)
        assert replay.grid == after.grid
        assert clearable(after) == clearable(b), b
    assert played > 50


def test_played_fill_under_gravity_clears() -> None:
    rng = random.Random(3)
    for seed in range(60):
        w, h = rng.randint(2, 4), rng.randint(2, 4)
        border = seed % 2 == 0
        tiles = full_tiles(w * h - (w * h) % 2, max(1, w * h // 4))
        g = played_fill(w, h, tiles, border, 2, random.Random(seed), gravity=True)
        if g is not None:
            assert clearable(Board(g, border=border, gravity=True)), g


def test_played_fill_full_boards_clear_by_search() -> None:
    for seed in range(3):
        g = played_fill(18, 8, full_tiles(144, 36), True, 2, random.Random(seed), gravity=True)
        b = Board(g, border=True, gravity=True)
        assert solve("search", b).status is Status.SOLVED


def test_blank_game_drops_keep_its_rays() -> None:
    """After removals under gravity, the rays still join exactly what the
    verifier connects."""
    rng = random.Random(9)
    for _ in range(80):
        b = dataclasses.replace(random_board(rng, 5), gravity=True)
        game = BlankGame(b)
        while len(game.tiles()) >= 2:
            now = game.field.board(b)
            tiles = game.tiles()
            for p in tiles:
                expected = [q for q in tiles if q != p and fewest_turns(
                    now, game.field.cell(p), game.field.cell(q)) is not None]
                assert game.joined(p) == expected, (now, p)
            game.drop(*rng.sample(tiles, 2))


def test_kshisen_filter_ignores_gravity() -> None:
    """The KShisen counterexample: its filter clears it (no gravity in its
    game), gravity makes it unclearable; and the filter gives up where greedy
    play is stuck."""
    path = ROOT / "instances/lianliankan/generated/kshisen-gravity-164.llk"
    b = dataclasses.replace(parse(path.read_text(), str(path)), border=True, gravity=True)
    assert kshisen_solvable(b)
    assert solve("search", b).status is Status.UNSAT
    assert not kshisen_solvable(Board(grid("1 2\n2 1")))
    stuck = Board(grid("3 1 3 1\n3 1 1 2\n2 2 2 3"))  # the seed's greedy trap
    assert clearable(stuck)
    assert not kshisen_solvable(stuck)


def test_generate_gravity_is_reproducible(capsys) -> None:
    from search.cli import main

    argv = ["generate", "lianliankan", "--full", "--border", "--solvable", "--gravity",
            "--size", "4x4", "--seed", "4", "--count", "2", "--json"]
    outputs = []
    for _ in range(2):
        assert main(argv) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    for line in outputs[0].splitlines():
        row = json.loads(line)
        assert row["gravity"] is True
        assert clearable(Board(tuple(map(tuple, row["grid"])), border=True, gravity=True))

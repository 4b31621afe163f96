"""CP-SAT under gravity on packed boards (``cpmodels.lianliankan.stacks``):
brute force on small boards of both ring settings, the time-expanded model,
the order of removals in one column, and the search on full 8 x 6 boards;
and the pairs the relaxation keeps apart without gravity."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cpmodels.lianliankan import CpSatBackend
from cpmodels.lianliankan.stacks import StackModel, packed
from search.core.contract import Status
from search.lab.oracles.lianliankan import clearable
from search.lianliankan.generate import full_fill
from search.lianliankan.model import Board, Grid
from search.lianliankan.solver import SearchBackend, dead_pairs
from search.lianliankan.verify import verify


def settled(grid: list[list[int]]) -> Grid:
    """The grid with every column's tiles dropped to the bottom (a packed board)."""
    height, width = len(grid), len(grid[0])
    columns = [[grid[r][c] for r in range(height) if grid[r][c]] for c in range(width)]
    columns = [[0] * (height - len(col)) + col for col in columns]
    return tuple(tuple(columns[c][r] for c in range(width)) for r in range(height))


def packed_board(rng: random.Random, border: bool) -> Board:
    """A small packed gravity board: mostly full, up to 8 pictures, 0 to 2 turns."""
    height, width = rng.randint(1, 4), rng.randint(1, 4)
    room = height * width - height * width % 2
    tiles = rng.choice((room, room, max(room - 2, 0), rng.randint(0, room // 2) * 2))
    pictures = rng.randint(2, 8)
    cells = [p for p in (rng.randint(1, pictures) for _ in range(tiles // 2)) for _ in (0, 1)]
    cells += [0] * (height * width - len(cells))
    rng.shuffle(cells)
    grid = settled([cells[r * width:(r + 1) * width] for r in range(height)])
    return Board(grid, border=border, gravity=True, turns=rng.choice((0, 1, 2, 2, 2)))


def solve(board: Board, **options):
    result = CpSatBackend(seed=0, **options).solve(board, time_limit=60)
    if result.status is Status.SOLVED:
        assert verify(board, result.solution) == [], board
    return result


def test_packed() -> None:
    assert packed(Board(((0, 1), (2, 1)), gravity=True))
    assert not packed(Board(((1, 1), (0, 2)), gravity=True))  # a hole under a tile


# CP-SAT alone (no hint, no safe removals), as configured by default, and with
# pairs in disjoint columns sharing a step (layers)
CONFIGURATIONS = [{"hint": False, "presolve": False}, {},
                  {"hint": False, "presolve": False, "layers": True}]


@pytest.mark.parametrize("border", [False, True])
@pytest.mark.parametrize("options", CONFIGURATIONS, ids=["alone", "default", "layers"])
def test_small_packed_boards_against_brute_force(border: bool, options: dict) -> None:
    """Verdicts (and, in ``solve``, replays) against the brute-force oracle."""
    rng = random.Random(40 + border)
    verdicts: Counter[Status] = Counter()
    for _ in range(150):
        b = packed_board(rng, border)
        expected = Status.SOLVED if clearable(b) else Status.UNSAT
        assert solve(b, **options).status is expected, b
        verdicts[expected] += 1
    assert verdicts[Status.UNSAT] >= 5 and verdicts[Status.SOLVED] >= 50


def test_both_gravity_models_agree() -> None:
    rng = random.Random(7)
    for _ in range(30):
        b = packed_board(rng, rng.random() < 0.5)
        stacks = solve(b, hint=False, presolve=False).status
        assert solve(b, hint=False, presolve=False, stacks=False).status is stacks, b


ORDER = ((1, 3), (2, 2), (1, 1), (3, 1))  # the 2s must go before the 1s below the right one


@pytest.mark.parametrize("border", [False, True])
def test_the_order_of_two_removals_in_one_column(border: bool) -> None:
    b = Board(ORDER, gravity=True, border=border)
    lost = b.removed((2, 1), (3, 1))
    assert clearable(b) and clearable(lost) is border  # the ring saves the wrong order
    assert solve(b, hint=False, presolve=False).status is Status.SOLVED
    expected = Status.SOLVED if border else Status.UNSAT
    assert solve(lost, hint=False, presolve=False).status is expected


def test_a_cell_above_a_tile_that_is_not_on_top() -> None:
    """The first move runs along row 0 over column 0, where the cell is empty
    although a tile (the 5) still stands above the 1 at (2, 0)."""
    b = Board(((0, 0, 1), (5, 2, 3), (1, 1, 1), (2, 5, 3)), border=True, gravity=True)
    assert clearable(b)
    assert solve(b, hint=False, presolve=False).status is Status.SOLVED


@pytest.mark.slow
def test_full_8x6_gravity_boards_agree_with_the_search() -> None:
    for seed in range(4):
        b = Board(full_fill(8, 6, 12, random.Random(seed)), border=seed % 2 == 0, gravity=True)
        assert len(StackModel(b).tiles) == 48
        expected = SearchBackend().solve(b, time_limit=120).status
        assert solve(b).status is expected, b


# ---------------------------------------------------------------- no gravity


def test_pairs_kept_apart_keep_the_verdict() -> None:
    """The model without the pairs the relaxation keeps apart still finds a
    clearing of every clearable board, and a refuted board cannot clear."""
    rng = random.Random(11)
    for _ in range(150):
        b = packed_board(rng, rng.random() < 0.5)
        b = Board(b.grid, border=b.border, turns=b.turns)
        apart = dead_pairs(b)
        if apart is None:
            assert not clearable(b), b
            continue
        result = solve(b, presolve=False, hint=False, apart=True)
        assert result.status is (Status.SOLVED if clearable(b) else Status.UNSAT), b


def test_a_column_is_strictly_ordered() -> None:
    """Every two tiles of one column get an order literal (else two pairs of
    one column could share a step, and the fall between them go unseen)."""
    b = Board(((1, 0), (2, 0), (1, 0), (2, 0)), gravity=True)
    for layers in (False, True):
        model = StackModel(b, layers=layers)
        column = model.column[0]
        assert all((u, t) in model._prec for u in column for t in column if u != t)


def test_walled_in_boards_are_unclearable() -> None:
    """The gravity refutation before the model (the stacks' bounds): every board
    it refutes is unclearable by brute force, and it refutes some."""
    from cpmodels.lianliankan import _walled_in

    rng = random.Random(5)
    refuted = 0
    for _ in range(400):
        b = packed_board(rng, rng.random() < 0.5)
        if _walled_in(b):
            refuted += 1
            assert not clearable(b), b
            result = solve(b, hint=False)
            assert result.status is Status.UNSAT and "never be removed" in result.message
    assert refuted >= 10


def test_walled_in_full_board_agrees_with_search() -> None:
    """A fresh full 16 x 9 border+gravity deal (seed 7000): CP-SAT's backend,
    without the search's hint, refutes it at once; so does the search."""
    b = Board(full_fill(16, 9, 36, random.Random(7000)), border=True, gravity=True)
    result = CpSatBackend(seed=0, hint=False).solve(b, time_limit=60)
    assert result.status is Status.UNSAT, result
    assert SearchBackend().solve(b, time_limit=60).status is Status.UNSAT

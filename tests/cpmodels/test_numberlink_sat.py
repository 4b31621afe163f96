"""The lean SAT model (backend ``sat``): solvable exactly when the brute-force
oracle (or the exact frontier count) finds a solution, under both rules, and
every answer verified."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("ortools")

from cpmodels.numberlink import detours  # noqa: E402
from cpmodels.numberlink.sat import LinkModel, SatBackend, colours  # noqa: E402
from search.core.contract import Status  # noqa: E402
from search.lab.oracles.numberlink import count as brute_count
from search.lab.oracles.numberlink import random_board  # noqa: E402
from search.numberlink import KIND  # noqa: E402
from search.numberlink.io import parse  # noqa: E402
from search.numberlink.model import Numberlink, Pair  # noqa: E402
from search.numberlink.verify import verify  # noqa: E402


def _agrees(puzzle: Numberlink, solvable: bool) -> None:
    found = SatBackend().solve(puzzle)
    assert found.status is (Status.SOLVED if solvable else Status.UNSAT), puzzle
    if solvable:
        assert verify(puzzle, found.solution) == [], puzzle


@pytest.mark.parametrize("full_cover", [True, False])
def test_agrees_with_brute_force_on_random_small_boards(full_cover):
    rng = random.Random(2015)
    seen = {True: 0, False: 0}
    for _ in range(60):
        board = random_board(rng, largest=4)
        puzzle = board if full_cover else board.lenient()
        solvable = brute_count(puzzle) > 0
        seen[solvable] += 1
        _agrees(puzzle, solvable)
    assert min(seen.values()) >= 5  # both answers were asked for


@pytest.mark.parametrize("full_cover", [True, False])
def test_agrees_with_the_frontier_count_on_random_6x6_boards(full_cover):
    rng = random.Random(7)
    frontier = KIND.backend("frontier")
    for _ in range(12):
        cells = [(r, c) for r in range(6) for c in range(6)]
        rng.shuffle(cells)
        k = rng.randint(2, 6)
        pairs = tuple(Pair(str(i), *sorted(cells[2 * i: 2 * i + 2])) for i in range(k))
        puzzle = Numberlink(6, 6, pairs, frozenset(cells[2 * k: 2 * k + rng.randint(0, 3)]),
                            full_cover=full_cover)
        solvable = frontier.count(puzzle, limit=1).count > 0
        _agrees(puzzle, solvable)


def test_full_cover_needs_the_pass_that_lets_paths_touch_themselves():
    # solved only by a path that runs beside itself (docs/numberlink-large.md)
    puzzle = parse("3 3\nA..\n...\n..A\n")
    assert brute_count(puzzle, self_avoiding=True) == 0 < brute_count(puzzle)
    _agrees(puzzle, True)


def test_a_full_cover_loop_is_cut_and_the_answer_stays_complete():
    # the lone pair's path beside a 2 x 3 block that a loop could fill
    puzzle = parse("4 3\nA..A\n....\n....\n")
    assert brute_count(puzzle) > 0
    _agrees(puzzle, True)


def test_colours_keep_a_pair_out_of_cells_it_cannot_pass():
    # the top right corner: beside 2's end and one open cell, so 1 cannot pass it
    puzzle = parse("3 3\n12.\n...\n2.1\n")
    allowed = colours(puzzle)
    assert allowed[(0, 2)] == {puzzle.endpoint[(0, 1)]}
    assert allowed[(1, 1)] == {0, 1}
    assert all(allowed[cell] == {k} for cell, k in puzzle.endpoint.items())


def test_detours_are_a_row_of_empty_cells_and_a_longer_way_beside_it():
    for pattern, empty in detours(4, 5, 3):
        assert len(pattern) == len(empty) + 4
        steps = list(zip(pattern, pattern[1:]))
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in steps)
        assert abs(pattern[0][0] - empty[0][0]) + abs(pattern[0][1] - empty[0][1]) == 1


def test_the_lenient_model_has_no_loop_variables_and_drops_loops():
    puzzle = parse("5 5\n1...1\n.....\n.....\n.....\n.....\n").lenient()
    built = LinkModel(puzzle)
    assert built.empty and built.link  # and no circuit: loops are read as such
    _agrees(puzzle, True)


def test_work_budget_gives_limit_not_a_wrong_answer():
    puzzle = parse("5 5\n1...2\n.....\n.3.3.\n.....\n2...1\n").lenient()
    found = SatBackend(work=1e-9).solve(puzzle)
    assert found.status in (Status.LIMIT, Status.SOLVED)
    if found.solution is not None:
        assert verify(puzzle, found.solution) == []


def test_auto_hands_a_large_lenient_board_to_sat_when_the_quick_answers_fail():
    from search.numberlink.paths_gen import large_board

    board, _ = large_board(13, 13, 1)
    puzzle = Numberlink(13, 13, board.pairs[::2], full_cover=False)
    auto = KIND.backend("auto", route_rounds=0, cover_nodes=0, narrow=0, small_cells=0)
    found = auto.solve(puzzle)
    assert found.status is Status.SOLVED and found.engine == "sat"
    assert verify(puzzle, found.solution) == []


@pytest.mark.slow
@pytest.mark.parametrize("board", ["Q15", "Q17"])
def test_the_adc_2015_spirals_are_solved(board):
    root = Path(__file__).resolve().parents[2] / "instances" / "numberlink" / "adc2015"
    puzzle = parse((root / f"{board}.txt").read_text()).lenient()
    found = SatBackend(work=60).solve(puzzle)
    assert found.status is Status.SOLVED and verify(puzzle, found.solution) == []

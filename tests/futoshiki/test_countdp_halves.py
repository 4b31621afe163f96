"""Inequalities that hold in half the solutions of the rest: which are taken out,
the halving against the brute force and the plans, and the count with them."""

from __future__ import annotations

import random

import pytest

from search.futoshiki.countdp import count_dp, halves
from search.futoshiki.countdp import layers as layerdp
from search.futoshiki.countdp import rows as rowdp
from search.futoshiki.model import Futoshiki
from search.lab.oracles import futoshiki as oracle
from tests.futoshiki.test_countdp_rows import clues

EMPTY4 = Futoshiki.empty(4).givens


def test_a_relation_alone_in_its_two_lines_is_taken_out() -> None:
    alone = ((0, 0), (0, 1))
    other = ((2, 1), (3, 1))  # in column 1: a swap of columns 0 and 1 moves it
    puzzle = Futoshiki(4, EMPTY4, (alone, other))
    rest, taken = halves.halved(puzzle)
    # ``alone`` goes first; then ``other`` is alone in rows 2 and 3
    assert (rest.less, taken) == ((), 2)


def test_a_clue_in_the_swapped_lines_keeps_the_relation() -> None:
    givens = ((0, 0, 0, 0), (0, 0, 0, 0), (0, 3, 0, 0), (0, 0, 0, 0))
    puzzle = Futoshiki(4, givens, (((0, 0), (0, 1)), ((3, 2), (3, 3))))
    rest, taken = halves.halved(puzzle)
    assert rest.less == (((0, 0), (0, 1)),) and taken == 1  # the given stays in column 1
    assert halves.halved(Futoshiki(4, givens, (((1, 3), (2, 3)),)))[1] == 0  # and row 2


def test_clues_that_trade_places_under_the_swap_keep_it_a_symmetry() -> None:
    pair = (((1, 0), (2, 0)), ((1, 1), (2, 1)))  # columns 0 and 1 swap them
    puzzle = Futoshiki(4, EMPTY4, (((0, 0), (0, 1)), *pair))
    rest, taken = halves.halved(puzzle)
    assert taken >= 1
    assert oracle.count(puzzle) * 2 ** taken == oracle.count(rest)


def _puzzles(n: int, count: int, seed: int) -> list[Futoshiki]:
    rng = random.Random(seed)
    return [clues(n, rng, rng.randint(1, 2 * n), rng.randint(0, 2)) for _ in range(count)]


@pytest.mark.parametrize("puzzle", _puzzles(4, 40, 5), ids=lambda p: f"{len(p.less)}")
def test_each_relation_taken_out_holds_in_half_the_solutions(puzzle: Futoshiki) -> None:
    rest, taken = halves.halved(puzzle)
    assert oracle.count(puzzle) * 2 ** taken == oracle.count(rest)
    assert count_dp(puzzle) == oracle.count(puzzle)


def test_the_random_puzzles_have_relations_to_take_out() -> None:
    taken = [halves.halved(p)[1] for p in _puzzles(4, 40, 5) + _puzzles(6, 12, 6)]
    assert sum(1 for k in taken if k) >= 10 and max(taken) >= 2


@pytest.mark.parametrize("puzzle", _puzzles(6, 12, 6), ids=lambda p: f"{len(p.less)}")
def test_the_halved_count_is_the_plans_count_of_the_whole(puzzle: Futoshiki) -> None:
    stats: dict = {}
    total = count_dp(puzzle, stats=stats)
    assert total == layerdp.count(puzzle) == rowdp.count(puzzle)
    assert stats.get("halved", 0) == halves.halved(puzzle)[1]


def test_three_lone_relations_leave_an_eighth_of_the_latin_squares() -> None:
    less = (((0, 2), (1, 2)), ((3, 0), (3, 1)), ((5, 4), (5, 5)))  # no two share a line pair
    stats: dict = {}
    assert count_dp(Futoshiki(7, Futoshiki.empty(7).givens, less), stats=stats) \
        == 61_479_419_904_000 // 8
    assert stats["halved"] == 3

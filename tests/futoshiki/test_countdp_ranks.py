"""The ``ranks`` plan: values named by rank where clues meet them.  Known
counts, the brute force on small random clue sets, the other plans on larger
ones, its budgets, and its place among the plans."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from search.futoshiki import countdp
from search.futoshiki.countdp import count_dp, plans
from search.futoshiki.countdp import ranks as rankdp
from search.futoshiki.countdp import rows as rowdp
from search.futoshiki.countdp.layers import reversed_values
from search.futoshiki.countdp.rows import StateSpaceTooLarge
from search.futoshiki.model import Futoshiki
from search.lab.oracles import futoshiki as oracle
from tests.futoshiki.test_countdp_rows import LATIN, clues


def _square(n: int, givens: dict[tuple[int, int], int], less: tuple = ()) -> Futoshiki:
    grid = [[0] * n for _ in range(n)]
    for (r, c), v in givens.items():
        grid[r][c] = v
    return Futoshiki(n, tuple(map(tuple, grid)), tuple(less))


@pytest.mark.parametrize("n", [n for n in sorted(LATIN) if n <= 7])
def test_latin_squares(n: int) -> None:
    assert rankdp.count(Futoshiki.empty(n)) == LATIN[n]


def _puzzles(n: int, count: int, seed: int, most: int) -> list[Futoshiki]:
    rng = random.Random(seed)
    return [clues(n, rng, rng.randint(1, most), rng.randint(0, n)) for _ in range(count)]


@pytest.mark.parametrize("puzzle", _puzzles(3, 40, 31, 6) + _puzzles(4, 60, 41, 8),
                         ids=lambda p: f"{p.n}-{len(p.less)}")
def test_the_brute_force_on_small_clue_sets(puzzle: Futoshiki) -> None:
    assert rankdp.count(puzzle) == oracle.count(puzzle)


@pytest.mark.parametrize("puzzle", _puzzles(5, 30, 51, 8) + _puzzles(6, 8, 61, 5),
                         ids=lambda p: f"{p.n}-{len(p.less)}")
def test_the_rows_plan_on_larger_clue_sets(puzzle: Futoshiki) -> None:
    assert rankdp.count(puzzle) == rowdp.count(puzzle)


def test_givens_cut_the_values_into_gaps_of_their_own() -> None:
    # 2 and 4 given: 1 below, 3 between, 5 above; the inequalities' labels
    # must fall in the right gaps (a label between the givens is a 3)
    puzzle = _square(5, {(0, 0): 2, (1, 1): 4}, (((0, 1), (0, 2)), ((2, 2), (2, 3)),
                                               ((3, 0), (4, 0))))
    assert rankdp.count(puzzle) == oracle.count(puzzle) > 0
    forced = _square(3, {(0, 0): 1, (0, 2): 3}, (((0, 1), (1, 1)),))  # (0, 1) is 2, below 3
    assert rankdp.count(forced) == oracle.count(forced) == 1


def test_three_clued_rows_of_a_seven_by_seven() -> None:
    # a given and two inequalities over three rows: the shape this plan is for
    puzzle = _square(7, {(0, 3): 3}, (((1, 4), (1, 5)), ((5, 4), (5, 5))))
    stats: dict = {}
    assert rankdp.count(puzzle, stats=stats) == rowdp.count(puzzle)
    assert stats["states"] < 20_000


def test_three_clued_rows_of_an_eight_by_eight() -> None:
    # the rows plan counts it in about 100 s and 2.5 GB (32 M states); this
    # plan at about 54 thousand states, in 0.3 s compiled (7 s interpreted)
    puzzle = _square(8, {(0, 3): 3}, (((1, 4), (1, 5)), ((5, 4), (5, 5))))
    stats: dict = {}
    assert rankdp.count(puzzle, stats=stats) == 3061918172971008000
    assert stats["states"] < 100_000


def test_the_budgets_hold_before_the_states_grow() -> None:
    puzzle = _square(6, {(5, 0): 5, (5, 4): 4}, (((1, 2), (1, 1)), ((2, 3), (3, 3)),
                                                ((4, 1), (3, 1))))
    with pytest.raises(StateSpaceTooLarge, match="state budget"):
        rankdp.count(puzzle, max_states=1000)
    with pytest.raises(StateSpaceTooLarge, match="memory budget"):
        rankdp.count(puzzle, max_bytes=30 * rankdp.STATE_BYTES)


def test_ranks_goes_first_from_order_eight_where_compiled(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    clued, clued9 = _square(8, {(0, 0): 1}), _square(9, {(0, 0): 1})
    monkeypatch.setattr(rankdp, "COMPILED", True)
    assert plans(clued) == plans(Futoshiki.empty(8)) == ("ranks", "rows", "layers")
    assert plans(clued9) == plans(Futoshiki.empty(9)) == ("ranks", "rows")
    assert plans(_square(7, {(0, 0): 1}))[0] != "ranks"
    assert plans(Futoshiki.empty(7))[0] != "ranks"
    monkeypatch.setattr(rankdp, "COMPILED", False)  # interpreted: first on a clued 8x8 only
    assert plans(clued) == ("ranks", "rows", "layers")
    assert plans(Futoshiki.empty(8)) == ("rows", "layers")
    assert plans(clued9) == ("rows", "ranks")
    assert plans(Futoshiki.empty(9)) == ("rows",)
    assert plans(_square(7, {(0, 0): 1}))[0] != "ranks"


def test_the_empty_eight_by_eight() -> None:
    stats: dict = {}
    assert count_dp(Futoshiki.empty(8), stats=stats) == 108776032459082956800  # OEIS A002860
    assert stats["plan"] == plans(Futoshiki.empty(8))[0]


def test_count_dp_gives_way_to_the_next_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    # (clues in four rows, none halved away: past ten states before the fold,
    # where MAX_STATES holds)
    puzzle = _square(6, {(0, 0): 1, (5, 5): 2, (0, 3): 3, (1, 5): 4},
                     (((3, 3), (3, 4)), ((1, 2), (2, 2))))
    monkeypatch.setattr(countdp, "plans", lambda _: ("ranks", "rows"))
    stats: dict = {}
    whole = rowdp.count(puzzle)
    assert count_dp(puzzle, stats=stats) == whole
    assert stats["plan"] == "ranks" and "ranks_over_budget" not in stats
    monkeypatch.setattr(rankdp, "COMPILED", False)  # the dictionaries, where MAX_STATES holds
    monkeypatch.setattr(rankdp, "MAX_STATES", 10)
    stats = {}
    assert count_dp(puzzle, stats=stats) == whole
    assert stats["ranks_over_budget"] == 1 and stats["plan"] == "rows"


@pytest.mark.parametrize("puzzle", _puzzles(5, 12, 71, 8) + _puzzles(6, 4, 72, 4),
                         ids=lambda p: f"{p.n}-{len(p.less)}")
def test_the_identities(puzzle: Futoshiki) -> None:
    whole = rankdp.count(puzzle)
    assert rankdp.count(rowdp.transpose(puzzle)) == whole
    assert rankdp.count(reversed_values(puzzle)) == whole
    if puzzle.less:  # a relation and its flip share the squares without it
        (a, b), rest = puzzle.less[0], puzzle.less[1:]
        flipped = replace(puzzle, less=((b, a), *rest))
        assert whole + rankdp.count(flipped) == rankdp.count(replace(puzzle, less=rest))

"""The exact counter behind ``count-dp`` (``search.futoshiki.countdp.rows``): known
counts, identities that hold for every puzzle, brute force and the other
backends."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from search.core.contract import GridcpError, Status, Unsupported
from search.futoshiki.countdp import CountDPBackend
from search.futoshiki.countdp import rows as rowdp
from search.futoshiki.model import Futoshiki
from search.futoshiki.propagate import Engine, PropagateBackend
from search.lab.oracles.futoshiki import count as brute_force_count
from search.lab.oracles.futoshiki import random_puzzle

LATIN = {1: 1, 2: 2, 3: 12, 4: 576, 5: 161280, 6: 812851200, 7: 61479419904000}


def reversed_values(puzzle: Futoshiki) -> Futoshiki:
    """Every value v -> n + 1 - v and every relation the other way round."""
    n = puzzle.n
    givens = tuple(tuple(n + 1 - v if v else 0 for v in row) for row in puzzle.givens)
    return Futoshiki(n, givens, tuple((b, a) for a, b in puzzle.less))


def clues(n: int, rng: random.Random, inequalities: int, givens: int) -> Futoshiki:
    """Exactly that many relations (distinct neighbour pairs) and givens."""
    pairs = [((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)]
    less = [p if rng.random() < 0.5 else p[::-1] for p in rng.sample(pairs, inequalities)]
    grid = [[0] * n for _ in range(n)]
    for i in rng.sample(range(n * n), givens):
        grid[i // n][i % n] = rng.randint(1, n)
    return Futoshiki(n, tuple(map(tuple, grid)), tuple(less))


# ---------------------------------------------------------------- known counts


@pytest.mark.parametrize("n", sorted(LATIN))
def test_latin_squares(n: int) -> None:
    assert rowdp.count(Futoshiki.empty(n)) == LATIN[n]


@pytest.mark.slow
def test_latin_squares_of_order_eight() -> None:
    # 108,776,032,459,082,956,800 (OEIS A002860), within the default 512 MB for
    # tables: the fourth row of the half square (7.6 M states mid-row) is
    # stepped in pieces.
    stats: dict = {}
    assert rowdp.count(Futoshiki.empty(8), stats=stats) == 108776032459082956800
    assert stats["row_pieces"] > 1


def test_rows_stepped_in_pieces_count_the_same() -> None:
    # A state budget below a row's middle cuts the row into pieces of its input
    # (exact: a step is linear in the counts); one below what a single state's
    # row holds mid-row cannot.
    stats: dict = {}
    assert rowdp.count(Futoshiki.empty(7), max_states=5_000, stats=stats) == LATIN[7]
    assert stats["row_pieces"] > 1 and stats["states"] <= 5_000
    with pytest.raises(rowdp.StateSpaceTooLarge, match="pass the state budget of 100"):
        rowdp.count(Futoshiki.empty(7), max_states=100)
    rng = random.Random(5)
    cut = 0
    for _ in range(30):
        n = rng.choice((4, 5))
        puzzle = clues(n, rng, rng.randint(0, 4), rng.randint(0, 2))
        expected = brute_force_count(puzzle) if n == 4 else rowdp.count(puzzle)
        for budget in (20, 30):
            stats = {}
            try:
                assert rowdp.count(puzzle, max_states=budget, stats=stats) == expected
            except rowdp.StateSpaceTooLarge:
                continue
            cut += stats.get("row_pieces", 0) > 1
    assert cut >= 5, cut


def test_sort_keys_packed_into_one_word() -> None:
    # Two-word keys whose differing bits fit one word sort by one packed word,
    # in the order of lexsort; ones that do not fit are left to lexsort.
    rng = np.random.default_rng(7)
    low = rng.integers(0, 2**20, 5_000, dtype=np.uint64) << np.uint64(30)
    keys = np.stack([low | np.uint64(5), rng.integers(0, 2**9, 5_000, dtype=np.uint64)])
    keys[:, 100:200] = keys[:, :100]  # equal keys
    order = rowdp.key_order(keys)
    assert np.array_equal(keys[:, order], keys[:, np.lexsort(keys[::-1])])
    wide = rng.integers(0, 2**63, (2, 1_000), dtype=np.uint64)
    assert rowdp._packed(wide) is None
    assert np.array_equal(rowdp._packed(wide[:1]), wide[0])


@pytest.mark.parametrize("n", [*range(2, 7), pytest.param(7, marks=pytest.mark.slow)])
def test_one_inequality_halves_the_latin_squares(n: int) -> None:
    rng = random.Random(n)
    for _ in range(3):
        puzzle = clues(n, rng, 1, 0)
        assert rowdp.count(puzzle) == LATIN[n] // 2


@pytest.mark.slow
def test_one_inequality_halves_the_latin_squares_of_order_8() -> None:
    # Seven free rows below one clued row: their table's counts stay int64
    # (its sums are far below 2^61), where a bound over all Latin rectangles
    # made them Python integers.
    puzzle = clues(8, random.Random(8), 1, 0)
    stats: dict = {}
    assert rowdp.count(puzzle, stats=stats) == 108776032459082956800 // 2
    assert stats["lower_states"] == 1  # (the pinned table of seven free rows)


def test_counts_widen_only_where_a_row_could_pass_61_bits() -> None:
    small = np.array([3, 4], dtype=np.int64)
    assert rowdp.wide_enough(small, 8) is small
    big = np.array([2**58, 2**57], dtype=np.int64)
    assert rowdp.wide_enough(big, 4) is big  # (3 * 2^57 * 4 < 2^61)
    widened = rowdp.wide_enough(big, 8)
    assert widened.dtype == object and list(widened) == [2**58, 2**57]
    assert rowdp.wide_enough(widened, 1) is widened


def test_counts_widened_mid_part_count_the_same(monkeypatch) -> None:
    # Counts turned into Python integers from some row on (a low threshold)
    # give the same counts, whole and with rows in pieces.
    rng = random.Random(2613)
    puzzles = [clues(n, rng, rng.randint(1, n), rng.randint(0, 2)) for n in (5, 6, 6)]
    puzzles += [Futoshiki.empty(6)]
    expected = [rowdp.count(p) for p in puzzles]
    widened = []
    wide_enough = rowdp.wide_enough

    def recorded(counts, factor):
        out = wide_enough(counts, factor)
        widened.append(out.dtype == object and counts.dtype != object)
        return out

    monkeypatch.setattr(rowdp, "wide_enough", recorded)
    monkeypatch.setattr(rowdp, "INT64_SUMS", 1e5)
    assert [rowdp.count(p) for p in puzzles] == expected
    assert any(widened)
    pieced = 0
    for puzzle, count in zip(puzzles, expected):
        stats: dict = {}
        rowdp.count(puzzle, stats=stats)
        for budget in (stats["states"] // 2, stats["states"] // 3):
            try:
                assert rowdp.count(puzzle, max_states=budget) == count
                pieced += 1
            except rowdp.StateSpaceTooLarge:
                pass
    assert pieced >= 2


def test_pinned_column_counts_squares_over_n_factorial() -> None:
    assert rowdp.count(rowdp.pinned(6)) == LATIN[6] // 720


# ---------------------------------------------------------------- identities


def _identity_puzzles() -> list[Futoshiki]:
    rng = random.Random(19)
    return [clues(n, rng, rng.randint(1, 2 * n), rng.randint(0, 3))
            for n in (4, 5, 5, 6, 6, 6)]


@pytest.mark.parametrize("puzzle", _identity_puzzles(), ids=lambda p: f"n{p.n}-{len(p.less)}")
def test_transpose_and_value_reversal_keep_the_count(puzzle: Futoshiki) -> None:
    total = rowdp.count(puzzle)
    assert rowdp.count(rowdp.transpose(puzzle)) == total
    assert rowdp.count(reversed_values(puzzle)) == total
    # The split, the orientation and the single pass are choices, not answers.
    n = puzzle.n
    if n > 5:
        return  # (the same on 4x4 and 5x5; 6x6 takes seconds)
    for heights in ((n // 2,), (n - n // 2,), (n,)):
        for turns in ((False,), (True,)):
            assert rowdp.count(puzzle, heights=heights, turns=turns) == total


@pytest.mark.parametrize("puzzle", _identity_puzzles(), ids=lambda p: f"n{p.n}-{len(p.less)}")
def test_a_relation_and_its_flip_add_up_to_neither(puzzle: Futoshiki) -> None:
    less = list(puzzle.less)
    for i in range(0, len(less), 3 if puzzle.n < 6 else len(less)):
        a, b = less[i]
        rest = tuple(less[:i] + less[i + 1:])
        without = Futoshiki(puzzle.n, puzzle.givens, rest)
        flipped = Futoshiki(puzzle.n, puzzle.givens, rest + ((b, a),))
        assert rowdp.count(puzzle) + rowdp.count(flipped) == rowdp.count(without)


@pytest.mark.slow
def test_seven_by_seven_identities() -> None:
    rng = random.Random(7)
    puzzle = clues(7, rng, 2, 1)
    total = rowdp.count(puzzle)
    assert total > 0
    assert rowdp.count(rowdp.transpose(puzzle)) == rowdp.count(reversed_values(puzzle)) == total
    a, b = puzzle.less[0]
    rest = puzzle.less[1:]
    flipped = Futoshiki(7, puzzle.givens, rest + ((b, a),))
    assert total + rowdp.count(flipped) == rowdp.count(Futoshiki(7, puzzle.givens, rest))


# ---------------------------------------------------------------- oracles


def _small(count: int, seed: int) -> list[Futoshiki]:
    rng = random.Random(seed)
    return [random_puzzle(rng.choice((2, 3, 4)), rng, givens=rng.choice([0.0, 0.1, 0.2]),
                          relations=rng.choice([0.1, 0.3, 0.5, 0.8])) for _ in range(count)]


@pytest.mark.parametrize("puzzle", _small(80, 5), ids=lambda p: f"n{p.n}")
def test_brute_force(puzzle: Futoshiki) -> None:
    expected = brute_force_count(puzzle)
    assert rowdp.count(puzzle) == expected
    n = puzzle.n
    if n > 1:
        assert rowdp.count(puzzle, heights=(n // 2,), turns=(True,)) == expected


def test_agrees_with_propagate_on_random_5x5_and_6x6() -> None:
    rng = random.Random(23)
    compared = 0
    for _ in range(10):
        puzzle = clues(rng.choice((5, 6)), rng, rng.randint(6, 12), rng.randint(4, 8))
        streamed = PropagateBackend(progress=False).count(puzzle, time_limit=5.0)
        if streamed.complete:
            compared += 1
            assert rowdp.count(puzzle) == streamed.count
    assert compared >= 5


def test_agrees_with_cpsat_on_small_puzzles() -> None:
    cpmodels = pytest.importorskip("cpmodels.futoshiki")
    rng = random.Random(29)
    for _ in range(4):
        puzzle = clues(4, rng, rng.randint(2, 6), rng.randint(0, 2))
        result = cpmodels.CpSatBackend().count(puzzle)
        assert result.complete and result.count == rowdp.count(puzzle)


# ---------------------------------------------------------------- keys and states


def test_two_word_keys() -> None:
    # A 7x7 puzzle whose fields do not fit beside 49 column bits and a row set.
    rng = random.Random(31)
    puzzle = clues(7, rng, 14, 6)
    oriented, split = rowdp.choose(puzzle)
    square = rowdp.Square(oriented, Engine(oriented).dom)
    part = rowdp.plan_part(square, split.upper, split.lower, upper=True)
    assert part.layout.words == 2
    expected = PropagateBackend(progress=False).count(puzzle, time_limit=60)
    assert expected.complete
    assert rowdp.count(puzzle) == expected.count


def test_columns_sorted_only_where_the_puzzle_is_symmetric() -> None:
    empty = Futoshiki.empty(4)
    square = rowdp.Square(empty, Engine(empty).dom)
    part = rowdp.plan_part(square, (0, 1), (3, 2), upper=True)
    assert all(step.groups for step in part.steps[:-1])
    linked = Futoshiki(4, empty.givens, tuple(((r, c), (r + 1, c))
                                                for r in range(3) for c in range(4)))
    square = rowdp.Square(linked, Engine(linked).dom)
    part = rowdp.plan_part(square, (0, 1, 2, 3), (), upper=True)
    # Only finished columns of the last row, which nothing looks at any more.
    assert not any(step.groups for step in part.steps[:12])


def test_state_budget_falls_back_to_propagate() -> None:
    result = CountDPBackend(max_states=1, progress=False).count(Futoshiki.empty(4))
    assert (result.status, result.count) == (Status.COUNTED, 576)
    assert "propagate" in result.message and result.effort["fallback"] == 1


def test_unknown_option_is_refused() -> None:
    with pytest.raises(GridcpError, match="max_states"):
        CountDPBackend(memory=1)


def test_backend_reports_states() -> None:
    result = CountDPBackend().count(Futoshiki.empty(6))
    assert (result.status, result.count) == (Status.COUNTED, LATIN[6])
    assert result.effort["states"] > 0


def test_adjacent_mode_is_refused() -> None:
    with pytest.raises(Unsupported):
        rowdp.count(Futoshiki.empty(3, adjacent=True))


def test_sorting_networks_sort_every_zero_one_input() -> None:
    # The 0-1 principle: a network sorting every 0/1 input sorts every input.
    for k in range(1, 11):
        inputs = np.array(list(itertools.product((0, 1), repeat=k)), dtype=np.uint64).T
        out = np.stack(rowdp.sort_network(list(inputs)))
        assert (out[1:] >= out[:-1]).all()
        assert (out.sum(axis=0) == inputs.sum(axis=0)).all()

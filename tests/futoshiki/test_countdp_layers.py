"""The value-layer plan of ``count-dp`` (``search.futoshiki.countdp.layers``): brute
force, identities, agreement with the row plan, and the plan choice."""

from __future__ import annotations

import importlib.util
import itertools
import random
from typing import Any

import numpy as np
import pytest

from search.core.contract import Deadline, Status, Unsupported
from search.futoshiki.countdp import CountDPBackend, count_dp, plans
from search.futoshiki.countdp import layers as layerdp
from search.futoshiki.countdp import rows as rowdp
from search.futoshiki.countdp.buffers import Buffers
from search.futoshiki.countdp.rows import StateSpaceTooLarge
from search.futoshiki.generate import clue_order, puzzle_of, random_latin_square
from search.futoshiki.model import Futoshiki
from search.futoshiki.propagate import Engine
from search.lab.oracles.futoshiki import count as brute_force_count
from search.lab.oracles.futoshiki import random_puzzle
from search.lab.oracles.futoshiki import solutions as brute_force_solutions
from tests.conftest import ROOT
from tests.futoshiki.test_countdp_rows import LATIN, clues, reversed_values


def _units(puzzle: Futoshiki, turn: bool) -> int:
    oriented = rowdp.transpose(puzzle) if turn else puzzle
    return len(layerdp.units(oriented, list(Engine(oriented).dom))[0])


@pytest.mark.parametrize("n", range(1, 7))
def test_latin_squares(n: int) -> None:
    assert layerdp.count(Futoshiki.empty(n)) == LATIN[n]


@pytest.mark.parametrize("n", range(2, 7))
def test_one_inequality_halves_the_latin_squares(n: int) -> None:
    rng = random.Random(100 + n)
    for _ in range(3):
        assert layerdp.count(clues(n, rng, 1, 0)) == LATIN[n] // 2


def _small(count: int, seed: int) -> list[Futoshiki]:
    rng = random.Random(seed)
    return [random_puzzle(rng.choice((2, 3, 4)), rng, givens=rng.choice([0.0, 0.1, 0.2]),
                          relations=rng.choice([0.1, 0.3, 0.5, 0.8])) for _ in range(count)]


@pytest.mark.parametrize("puzzle", _small(60, 41), ids=lambda p: f"n{p.n}")
def test_brute_force_at_every_meeting_point(puzzle: Futoshiki) -> None:
    """Every split of the units between the two sides, both orientations."""
    expected = brute_force_count(puzzle)
    assert layerdp.count(puzzle) == expected
    for turn in (False, True):
        for split in range(_units(puzzle, turn) + 1):
            assert layerdp.count(puzzle, split=split, turn=turn) == expected


def _identity_puzzles() -> list[Futoshiki]:
    rng = random.Random(43)
    return [clues(n, rng, rng.randint(1, 2 * n), rng.randint(0, 3)) for n in (4, 5, 5, 6, 6)]


@pytest.mark.parametrize("puzzle", _identity_puzzles(), ids=lambda p: f"n{p.n}-{len(p.less)}")
def test_identities(puzzle: Futoshiki) -> None:
    total = layerdp.count(puzzle)
    assert layerdp.count(rowdp.transpose(puzzle)) == total
    assert layerdp.count(reversed_values(puzzle)) == total
    for turn in (False, True):
        assert layerdp.count(puzzle, turn=turn, split=_units(puzzle, turn) // 3) == total
    a, b = puzzle.less[0]
    rest = puzzle.less[1:]
    flipped = Futoshiki(puzzle.n, puzzle.givens, rest + ((b, a),))
    without = Futoshiki(puzzle.n, puzzle.givens, rest)
    assert total + layerdp.count(flipped) == layerdp.count(without)


def test_agrees_with_the_row_plan() -> None:
    rng = random.Random(47)
    for n in (5, 5, 6, 6, 6, 6):
        puzzle = clues(n, rng, rng.randint(2, 3 * n), rng.randint(0, 4))
        assert layerdp.count(puzzle) == rowdp.count(puzzle)


def _benchmark(name: str) -> Any:
    """A script of benchmarks/ as a module (that folder is no package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_agrees_with_the_row_plan_on_7x7() -> None:
    # The benchmark's seed-1 puzzles #0, #9 and #11, counted by the row plan
    # (docs/futoshiki-counting.md; #0 at its default budget, 21 s).
    clue_set = _benchmark("futoshiki_count").clue_set

    rng = random.Random(1)
    known = {0: 4_661_213_184, 9: 323_769_139_200, 11: 5_082_365}
    for i in range(12):
        k, g = rng.randint(1, 14), rng.randint(0, 4)
        puzzle = clue_set(7, k, g, rng, consistent=i % 2 == 0)
        if i in known:
            assert layerdp.count(puzzle) == known[i]


@pytest.mark.slow
def test_seven_by_seven_identities() -> None:
    rng = random.Random(59)
    puzzle = clues(7, rng, 12, 3)
    total = layerdp.count(puzzle)
    assert layerdp.count(rowdp.transpose(puzzle)) == layerdp.count(reversed_values(puzzle)) == total
    a, b = puzzle.less[0]
    rest = puzzle.less[1:]
    flipped = Futoshiki(7, puzzle.givens, rest + ((b, a),))
    assert total + layerdp.count(flipped) == layerdp.count(Futoshiki(7, puzzle.givens, rest))


def test_symmetric_rows_are_sorted() -> None:
    # Two free rows: the keys are sorted at layer ends, and the count stays.
    puzzle = Futoshiki(5, ((1, 0, 0, 0, 0),) + ((0,) * 5,) * 4,
                       (((0, 1), (0, 2)), ((1, 1), (2, 1)), ((2, 3), (2, 4))))
    assert layerdp.symmetric_rows(puzzle) == (3, 4)
    assert layerdp.count(puzzle) == brute_force_count(puzzle)


def test_plan_choice() -> None:
    assert plans(Futoshiki.empty(7)) == ("rows", "layers")
    rng = random.Random(61)
    spread = clues(7, rng, 14, 0)
    assert len(layerdp.free_rows(spread)) <= 1
    assert plans(spread) == ("layers", "rows")
    # Clues in two rows (or columns) of a 7x7: rows first; in three: layers.
    two = Futoshiki(7, Futoshiki.empty(7).givens, (((0, 0), (0, 1)), ((1, 3), (1, 4))))
    assert max(len(layerdp.free_rows(two)), len(layerdp.free_rows(rowdp.transpose(two)))) == 5
    assert plans(two) == ("rows", "layers")
    three = Futoshiki(7, two.givens, (*two.less, ((4, 2), (4, 3))))
    assert plans(three) == ("layers", "rows")
    assert plans(rowdp.transpose(three)) == ("layers", "rows")


def test_both_plans_give_the_same_counts() -> None:
    rng = random.Random(67)
    for n in (4, 5, 6):
        puzzle = clues(n, rng, 2 * n, 2)
        counts = set()
        for plan in ("auto", "rows", "layers"):
            stats: dict = {}
            counts.add(count_dp(puzzle, plan=plan, stats=stats))
            assert stats["plan"] == (plan if plan != "auto" else plans(puzzle)[0])
        assert len(counts) == 1
        result = CountDPBackend(progress=False).count(puzzle)
        assert result.status == Status.COUNTED and result.count in counts
        assert result.effort["plan"] in ("rows", "layers")


def test_a_plan_past_its_budget_hands_over_to_the_other() -> None:
    rng = random.Random(71)
    puzzle = clues(6, rng, 10, 1)  # layers: at most 62 k states (fewer in pieces), rows: 600 k
    assert plans(puzzle) == ("layers", "rows")
    expected = rowdp.count(puzzle)
    with pytest.raises(StateSpaceTooLarge):
        count_dp(puzzle, max_states=100_000, plan="rows")
    stats: dict = {}
    assert count_dp(puzzle, max_states=100_000, stats=stats) == expected
    assert stats["plan"] == "layers" and "rows_over_budget" not in stats
    stats = {}
    assert count_dp(puzzle, max_states=1_000_000, stats=stats, plan="rows") == expected
    with pytest.raises(StateSpaceTooLarge):
        count_dp(puzzle, max_states=2_000)



def test_unknown_plan_and_unsupported_puzzles() -> None:
    with pytest.raises(ValueError, match="plan"):
        count_dp(Futoshiki.empty(3), plan="diagonal")
    with pytest.raises(Unsupported):
        layerdp.count(Futoshiki.empty(3, adjacent=True))
    with pytest.raises(Unsupported):
        layerdp.count(Futoshiki.empty(9))


def _cornered(n: int, rng: random.Random, inequalities: int, givens: int) -> Futoshiki:
    """Clues in the top-left block of ``n - 2`` rows and columns (or fewer):
    the other rows and columns are free, so both kinds of symmetry apply."""
    k = rng.randint(2, n - 2) if n > 3 else 1
    pairs = [((r, c), (r, c + 1)) for r in range(k) for c in range(k - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(k - 1) for c in range(k)]
    less = [p if rng.random() < 0.5 else p[::-1]
            for p in rng.sample(pairs, min(inequalities, len(pairs)))]
    grid = [[0] * n for _ in range(n)]
    for i in rng.sample(range(k * k), min(givens, k * k)):
        grid[i // k][i % k] = rng.randint(1, n)
    return Futoshiki(n, tuple(map(tuple, grid)), tuple(less))


def _cornered_set(count: int, seed: int, sizes: tuple[int, ...]) -> list[Futoshiki]:
    rng = random.Random(seed)
    return [_cornered(n, rng, rng.randint(1, 2 * n), rng.randint(0, 2))
            for n in (rng.choice(sizes) for _ in range(count))]


@pytest.mark.parametrize("puzzle", _cornered_set(24, 79, (4, 5)), ids=lambda p: f"n{p.n}")
def test_free_columns_against_brute_force_at_every_meeting_point(puzzle: Futoshiki) -> None:
    """Free rows and free columns at once (canonical under both), every split."""
    expected = brute_force_count(puzzle)
    for turn in (False, True):
        oriented = rowdp.transpose(puzzle) if turn else puzzle
        sym = layerdp.symmetry(oriented, list(Engine(oriented).dom))
        if Engine(oriented).ok:
            assert len(sym.rows) >= 2 and len(sym.columns) >= 2
        for split in range(_units(puzzle, turn) + 1):
            assert layerdp.count(puzzle, split=split, turn=turn) == expected


def test_free_columns_agree_with_the_row_plan() -> None:
    for puzzle in _cornered_set(6, 83, (6,)):
        assert layerdp.count(puzzle) == rowdp.count(puzzle)


@pytest.mark.parametrize("rows, columns", [((2, 3), (1, 2, 3)), ((0, 1, 3), (0, 2)),
                                           ((), (0, 1, 2, 3)), ((0, 2, 3), ()),
                                           ((0, 1), (2, 3))])
def test_canonical_orbit_sizes_add_up(rows: tuple[int, ...], columns: tuple[int, ...]) -> None:
    # Under free rows x free columns of a 4x4 (either group the enumerated
    # one, or one alone), the orbits of all 2^16 masks partition them: their
    # sizes summed over distinct forms give 2^16.
    sym = layerdp.Symmetry(rows, columns)
    keys = np.arange(2**16, dtype=np.uint64)
    forms, orbit = layerdp.canonical(keys, sym, 4)
    assert layerdp.canonical(forms, sym, 4)[0].tolist() == forms.tolist()
    firsts = np.unique(forms, return_index=True)[1]
    assert int(orbit[firsts].sum()) == 2**16
    assert all(int((forms == forms[i]).sum()) == orbit[i] for i in firsts[:200])


def test_a_layer_in_pieces_counts_the_same() -> None:
    # A budget below the layers' middles (not their ends) steps them in pieces.
    rng = random.Random(89)
    pieced = 0
    for n in (4, 5, 5, 6):
        puzzle = clues(n, rng, rng.randint(1, n), rng.randint(0, 1))
        stats: dict = {}
        expected = layerdp.count(puzzle, stats=stats)
        for budget in (stats["states"] // 2, stats["states"] // 4):
            try:
                assert layerdp.count(puzzle, max_states=budget) == expected
                pieced += 1
            except StateSpaceTooLarge:
                pass
    assert pieced >= 3


def _blocked(n: int, rng: random.Random, rows: int, columns: int) -> Futoshiki:
    """Clues inside the top-left block of ``rows`` rows and ``columns``
    columns: more free rows than free columns or the other way round."""
    pairs = [((r, c), (r, c + 1)) for r in range(rows) for c in range(columns - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(rows - 1) for c in range(columns)]
    less = [p if rng.random() < 0.5 else p[::-1]
            for p in rng.sample(pairs, rng.randint(1, min(len(pairs), n)))]
    grid = [[0] * n for _ in range(n)]
    if rng.random() < 0.5:
        grid[rng.randrange(rows)][rng.randrange(columns)] = rng.randint(1, n)
    return Futoshiki(n, tuple(map(tuple, grid)), tuple(less))


def _mirrored(puzzle: Futoshiki, across: bool) -> Futoshiki:
    """The puzzle flipped left to right (``across``) or top to bottom."""
    n = puzzle.n

    def move(cell: tuple[int, int]) -> tuple[int, int]:
        r, c = cell
        return (r, n - 1 - c) if across else (n - 1 - r, c)

    grid = [[0] * n for _ in range(n)]
    for r in range(n):
        for c in range(n):
            x, y = move((r, c))
            grid[x][y] = puzzle.givens[r][c]
    return Futoshiki(n, tuple(map(tuple, grid)), tuple((move(a), move(b)) for a, b in puzzle.less))


@pytest.mark.parametrize("seed", range(6))
def test_uneven_free_rows_and_columns_against_brute_force(seed: int) -> None:
    # Free rows and columns in unequal numbers: the canonical form enumerates
    # the smaller group either way (and the transposed puzzle the other one).
    rng = random.Random(500 + seed)
    n = 4 + seed % 2
    puzzle = _blocked(n, rng, rng.randint(1, 2), rng.randint(2, n - 2))
    # 4x4 against brute force; 5x5 against the rows plan (brute force is slow there)
    expected = brute_force_count(puzzle) if n == 4 else rowdp.count(puzzle)
    for turn in (False, True):
        for split in range(0, _units(puzzle, turn) + 1, 3):
            assert layerdp.count(puzzle, split=split, turn=turn) == expected


@pytest.mark.parametrize("seed", range(4))
def test_mirror_flips_keep_the_count(seed: int) -> None:
    # Fresh random 5x5 and 6x6 clue sets (some with free rows and columns in
    # unequal numbers): left-right and top-bottom flips, the transpose and the
    # value reversal give the same count, under both plans.
    rng = random.Random(700 + seed)
    n = 5 + seed % 2
    if seed < 2:
        puzzle = _blocked(n, rng, rng.randint(2, 3), rng.randint(3, 4))
    else:
        puzzle = clues(n, rng, rng.randint(2, 8), rng.randint(0, 2))
    expected = count_dp(puzzle, plan="layers")
    assert count_dp(puzzle, plan="rows") == expected
    for other in (_mirrored(puzzle, True), _mirrored(puzzle, False), rowdp.transpose(puzzle),
                  reversed_values(puzzle)):
        for plan in ("layers", "rows"):
            assert count_dp(other, plan=plan) == expected


# Folding: one side alone, its states of equal futures merged (``layers.fold``).

def _futures(squares: list[list[int]], value: int) -> dict[int, int]:
    """Brute force: per mask of the cells at most ``value`` in some solution
    (``squares``: every solution's cells), its completions (the distinct
    fillings above ``value``: a solution is a past and a future of its mask,
    chosen apart)."""
    uppers: dict[int, set[tuple[int, ...]]] = {}
    for cells in squares:
        mask = sum(1 << i for i, v in enumerate(cells) if v <= value)
        uppers.setdefault(mask, set()).add(tuple(v if v > value else 0 for v in cells))
    return {mask: len(fills) for mask, fills in uppers.items()}


def _forward_states(puzzle: Futoshiki, layers: int) -> np.ndarray:
    """The forward side's masks after ``layers`` layers, unfolded."""
    domains = list(Engine(puzzle).dom)
    ahead, _ = layerdp.units(puzzle, domains)
    side = layerdp.Frontier(puzzle.n, layerdp.Symmetry(), ahead, None, 2**30)
    for _ in range(layers):
        side.layer(len(ahead) // puzzle.n, Deadline(None), 0)
    return side.keys


def test_a_fold_merges_only_states_of_equal_futures() -> None:
    # Folded three times, with counts 1, each state's completions (brute
    # force) and their squares: a class's completions are all alike exactly
    # when (their sum)^2 = (its size) * (the sum of their squares); and the
    # representative's own completions are the class's.  Fresh 4x4 and 5x5
    # clue sets, every layer.
    merged = 0  # states merged into another's class
    for seed in range(8):
        rng = random.Random(900 + seed)
        n = 4 if seed < 6 else 5
        puzzle = clues(n, rng, rng.randint(1, n - 1), rng.randint(0, 1))
        squares = [[v for row in s.grid for v in row] for s in brute_force_solutions(puzzle)]
        for value in range(1, n):
            keys = _forward_states(puzzle, value)
            futures = _futures(squares, value)
            ahead = np.array([futures.get(int(k), 0) for k in keys], dtype=np.int64)
            folds = [layerdp.fold(keys, counts, layerdp.pins(puzzle), value, n)
                     for counts in (np.ones_like(ahead), ahead, ahead * ahead)]
            reps = folds[0][0]
            assert all(np.array_equal(reps, other) for other, _ in folds[1:])
            size, total, sum_of_squares = (counts for _, counts in folds)
            assert size.sum() == keys.size
            assert np.array_equal(total * total, size * sum_of_squares)
            assert [futures.get(int(k), 0) * int(m) for k, m in zip(reps, size)] == total.tolist()
            merged += keys.size - reps.size
    assert merged > 100


def test_the_empty_square_folds_its_first_layer_to_one_class() -> None:
    # Every line free: value 1's n! permutation matrices are one class.
    n = 6
    keys = _forward_states(Futoshiki.empty(n), 1)
    reps, counts = layerdp.fold(keys, np.ones(keys.size, dtype=np.int64),
                                layerdp.pins(Futoshiki.empty(n)), 1, n)
    assert keys.size == 720 and counts.tolist() == [720]


def test_a_fold_keeps_lines_an_open_clue_pins() -> None:
    # 3x3, value 1: the permutation matrices.  With no clue every line is
    # free and they are one class.  With (0, 0) < (0, 1), the two that fill
    # (0, 0) settle it and are one class; the four that leave it empty have
    # it open (row 0 and columns 0 and 1 pinned), so only rows 1 and 2 move:
    # two classes, by where row 0 has its cell, never merged with the first.
    n = 3
    keys = np.sort(np.array([sum(1 << (r * n + p[r]) for r in range(n))
                             for p in itertools.permutations(range(n))], dtype=np.uint64))
    ones = np.ones(keys.size, dtype=np.int64)
    empty = Futoshiki.empty(n)
    reps, counts = layerdp.fold(keys, ones, layerdp.pins(empty), 1, n)
    assert counts.tolist() == [6]
    linked = Futoshiki(n, empty.givens, (((0, 0), (0, 1)),))
    reps, counts = layerdp.fold(keys, ones, layerdp.pins(linked), 1, n)
    assert counts.tolist() == [2, 2, 2]
    filled = [int(k) for k, c in zip(reps, counts) if int(k) & 1]
    assert len(filled) == 1


@pytest.mark.parametrize("puzzle", _small(40, 47) + _identity_puzzles(),
                         ids=lambda p: f"n{p.n}-{len(p.less)}")
def test_folded_and_met_in_the_middle_agree(puzzle: Futoshiki) -> None:
    stats: dict[str, Any] = {}
    folded = layerdp.count(puzzle, stats=stats)
    assert folded == layerdp.count(puzzle, folding=False)
    if puzzle.n <= 4:
        assert folded == brute_force_count(puzzle)
    assert stats.get("direction") in ("up", "down") or folded == 0  # (none: refuted first)


def _read_off(n: int, rng: random.Random, inequalities: int, givens: int) -> Futoshiki:
    """Clues read off a random Latin square (the generator's): a puzzle with
    solutions."""
    square = random_latin_square(n, rng)
    offered = clue_order(square, "relations", rng)  # (its inequalities first)
    less = offered[:inequalities]
    cells = [clue for clue in offered if clue[0] == "given"][:givens]
    return puzzle_of(n, square, set(less + cells))


@pytest.mark.parametrize("seed", range(3))
def test_folding_an_eight_by_eight(seed: int) -> None:
    # Order 8: the classes sorted by two words, the counts Python integers
    # from the fifth layer on; the folded count is the rows plan's and the
    # meeting's.
    puzzle = _read_off(8, random.Random(1300 + seed), 10, 16)
    stats: dict[str, Any] = {}
    folded = layerdp.count(puzzle, stats=stats)
    assert folded >= 1 and stats["direction"] in ("up", "down")
    assert folded == rowdp.count(puzzle) == layerdp.count(puzzle, folding=False)


def test_the_row_steps_buffers_take_turns_grow_and_are_let_go() -> None:
    # Each step writes into the pair its input is not in; a pair grows to a
    # step's candidates and is reused (the same memory) while large enough;
    # ``kept`` copies out of a pair only, ``release`` lets both go, and the
    # bytes held are what the budget checks add.
    buffers = Buffers()
    first_k, first_c = buffers.take(100)
    second_k, _ = buffers.take(40)
    assert first_k.base is None and not np.shares_memory(first_k, second_k)
    assert buffers.holds(first_k[:10]) and buffers.holds(second_k[:5])
    assert buffers.nbytes_held == 16 * 140
    assert buffers.nbytes(60) == 16 * (40 + 100) and buffers.nbytes(300) == 16 * (40 + 300)
    again, _ = buffers.take(80)  # the first pair, large enough: the same memory
    assert np.shares_memory(again, first_k)
    grown, _ = buffers.take(90)  # the second, too small: a new array
    assert not np.shares_memory(grown, second_k) and grown.size == 90
    first_k[:3] = (5, 6, 7)
    first_c[:3] = (1, 2, 3)
    keys, counts = buffers.kept(first_k[:3], first_c[:3])
    assert not buffers.holds(keys) and keys.tolist() == [5, 6, 7] and counts.tolist() == [1, 2, 3]
    own = np.arange(3, dtype=np.uint64)
    assert buffers.kept(own, own)[0] is own  # (not in a pair: as it is)
    assert buffers.marks(50).size == 50 and buffers.nbytes_held == 16 * 190 + 50
    buffers.release()
    assert buffers.nbytes_held == 0 and not buffers.holds(first_k[:3])


def test_the_count_benchmark_names_a_wrong_zero(monkeypatch, capsys) -> None:
    # A clue set read off a square has that square as a solution: a count of
    # 0 for it is a wrong answer, which the benchmark names and fails on.
    bench = _benchmark("futoshiki_count")
    record = {"status": "COUNTED", "count": 0, "wall": 0.0, "cpu": 0.0, "peak_mb": 1.0,
              "evidence": 0, "evidence_ok": True, "plan": "layers", "states": 1}
    monkeypatch.setattr(bench, "in_child", lambda puzzle, argv: dict(record))
    assert bench.main(["--n", "4", "--puzzles", "3", "--seed", "5"]) == 1
    assert "WRONG: puzzles [0, 2]" in capsys.readouterr().out
    record["count"] = 3
    assert bench.main(["--n", "4", "--puzzles", "3", "--seed", "5"]) == 0


def test_the_count_benchmark_names_a_peer_or_an_identity_that_counts_otherwise(
        monkeypatch, capsys) -> None:
    bench = _benchmark("futoshiki_count")
    record = {"status": "COUNTED", "count": 3, "wall": 0.0, "cpu": 0.0, "peak_mb": 1.0,
              "evidence": 2, "evidence_ok": True, "plan": "layers", "states": 1}
    peer = {"status": "COUNTED", "count": 3, "cpu_time": 0.1}
    monkeypatch.setattr(bench, "in_child", lambda puzzle, argv: dict(record))
    monkeypatch.setattr(bench, "locate", lambda name, configured: ("/bin/" + name, "PATH"))
    monkeypatch.setattr(bench, "run_peer", lambda *args: dict(peer))
    argv = ["--n", "4", "--puzzles", "2", "--peers", "d4", "--identities"]
    assert bench.main(argv) == 0
    assert "| d4 | 2 of 2 | 2 | 2 |" in capsys.readouterr().out
    peer["count"] = 4
    assert bench.main(argv) == 1
    out = capsys.readouterr().out
    assert "| d4 | 2 of 2 | 2 | 0 |" in out and "WRONG: puzzles [0, 1]" in out
    peer["count"] = 3
    counts = iter([3, 3, 3, 3, 5, 3])  # the second puzzle's transpose counts otherwise
    monkeypatch.setattr(bench, "in_child",
                        lambda puzzle, argv: {**record, "count": next(counts)})
    assert bench.main(argv) == 1
    out = capsys.readouterr().out
    assert "| transpose, values reversed (count-dp) | 2 of 2 | 2 | 1 |" in out
    assert "WRONG: puzzles [1]" in out
    runs = iter([record, {**record, "status": "LIMIT", "count": 1}, record])
    monkeypatch.setattr(bench, "in_child", lambda puzzle, argv: dict(next(runs)))
    assert bench.main(["--n", "4", "--puzzles", "1", "--identities"]) == 0  # a lower bound
    assert bench.main(["--n", "4", "--puzzles", "1", "--peers", "tatham"]) == 2

"""``propagate``'s propagation never removes a solution, in either mode.

Brute force lists every solution of random small puzzles (Adjacent mode: the
Latin squares that fit the givens, filtered by the puzzle's ``verify``).  Then:
every solution's values stay in the root domains; along random dives of
decisions (``x = v`` or ``x != v``, each propagated) every solution that agrees
with the decisions so far stays in the domains, and a failed propagation means
that none does; undoing restores the domains; and the counts and verdicts of
the backend equal brute force.  The speed work on this engine (issue 19) must
keep these green: a stronger rule may only prune values that no solution uses.
"""

from __future__ import annotations

import random

import pytest

from search.core.contract import Status
from search.futoshiki.model import Futoshiki, Solution
from search.futoshiki.propagate import Engine, PropagateBackend
from search.futoshiki.verify import verify
from search.lab.oracles.futoshiki import random_puzzle
from search.lab.oracles.futoshiki import solutions as futoshiki_solutions


def all_solutions(puzzle: Futoshiki) -> list[Solution]:
    if not puzzle.adjacent:
        return list(futoshiki_solutions(puzzle))
    latin = Futoshiki(puzzle.n, puzzle.givens)  # no relations: filter by the bars below
    return [s for s in futoshiki_solutions(latin) if not verify(puzzle, s)]


def random_adjacent(n: int, rng: random.Random) -> Futoshiki:
    """Bars of a random Latin square (so at least one solution, often many) on a
    few of its cells as givens, or random bars (often no solution)."""
    base = next(futoshiki_solutions(Futoshiki.empty(n)))
    rows = rng.sample(range(n), n)
    columns = rng.sample(range(n), n)
    values = rng.sample(range(1, n + 1), n)
    square = [[values[base.grid[r][c] - 1] for c in columns] for r in rows]
    pairs = Futoshiki.empty(n).neighbour_pairs()
    if rng.random() < 0.7:
        bars = [(a, b) for a, b in pairs if abs(square[a[0]][a[1]] - square[b[0]][b[1]]) == 1]
    else:
        bars = [p for p in pairs if rng.random() < 0.4]
    givens = tuple(tuple(square[r][c] if rng.random() < 0.15 else 0 for c in range(n))
                   for r in range(n))
    return Futoshiki(n, givens, adjacent=True, bars=tuple(sorted(bars)))


def puzzles(count: int, seed: int) -> list[Futoshiki]:
    rng = random.Random(seed)
    out = []
    for k in range(count):
        n = rng.choice((4, 4, 5))
        if k % 3 == 2:
            out.append(random_adjacent(n, rng))
        else:
            out.append(random_puzzle(n, rng, givens=rng.choice((0.1, 0.2, 0.3)),
                                     relations=rng.choice((0.3, 0.5, 0.7))))
    return out


def assert_kept(engine: Engine, solutions: list[Solution]) -> None:
    n = engine.n
    for s in solutions:
        for i in range(n * n):
            value = s.grid[i // n][i % n]
            assert engine.dom[i] >> (value - 1) & 1, f"solution value {value} lost at cell {i}"


def agrees(s: Solution, decisions: list[tuple[int, int, bool]], n: int) -> bool:
    return all((s.grid[i // n][i % n] == v) == equal for i, v, equal in decisions)


def dive(engine: Engine, solutions: list[Solution], rng: random.Random,
         probe: bool = False) -> None:
    """Random decisions (a cell equal to or unequal to a value), each propagated
    (and probed, with ``probe``), until the square is full or a contradiction;
    each fixpoint keeps every solution that agrees with the decisions, and a
    contradiction leaves none."""
    n = engine.n
    decisions: list[tuple[int, int, bool]] = []
    while True:
        open_cells = [i for i, d in enumerate(engine.dom) if d & (d - 1)]
        if not open_cells:
            return
        i = rng.choice(open_cells)
        d = engine.dom[i]
        v = rng.choice([k + 1 for k in range(n) if d >> k & 1])
        equal = rng.random() < 0.6
        decisions.append((i, v, equal))
        bit = 1 << (v - 1)
        alive = [s for s in solutions if agrees(s, decisions, n)]
        if not (engine.assign(i, bit if equal else d & ~bit)
                and (not probe or engine.probe(lambda: None))):
            assert alive == [], "propagation failed with a solution left"
            return
        assert_kept(engine, alive)


@pytest.mark.parametrize("seed", range(6))
def test_no_solution_is_ever_pruned(seed: int) -> None:
    rng = random.Random(100 + seed)
    for puzzle in puzzles(12, seed):
        solutions = all_solutions(puzzle)
        engine = Engine(puzzle)
        if not engine.ok:
            assert solutions == []
            continue
        assert_kept(engine, solutions)
        for _ in range(4):  # random dives from the root
            mark = engine.mark()
            root = list(engine.dom)
            dive(engine, solutions, rng)
            engine.undo(mark)
            assert list(engine.dom) == root


@pytest.mark.parametrize("seed", range(4))
def test_counts_and_verdicts_equal_brute_force(seed: int) -> None:
    backend = PropagateBackend(progress=False)
    for puzzle in puzzles(10, 50 + seed):
        solutions = all_solutions(puzzle)
        assert backend.count(puzzle).count == len(solutions)
        unique = backend.unique(puzzle)
        expected = (Status.UNSAT, Status.UNIQUE, Status.MULTIPLE)[min(len(solutions), 2)]
        assert unique.status is expected
        for found in unique.solutions:
            assert found in solutions


@pytest.mark.parametrize("seed", range(2))
def test_probing_never_prunes_a_solution(seed: int) -> None:
    """``probe`` (singleton consistency by the cheap rules) removes only values
    that no solution agreeing with the decisions uses, at the root and along dives."""
    rng = random.Random(200 + seed)
    for puzzle in puzzles(8, 20 + seed):
        solutions = all_solutions(puzzle)
        engine = Engine(puzzle)
        if not engine.ok or not engine.probe(lambda: None):
            assert solutions == []
            continue
        assert_kept(engine, solutions)
        dive(engine, solutions, rng, probe=True)

"""Futoshiki hints (search/futoshiki/hint.py): a value that follows from the
clues by the cheapest of Tatham's rules holds in every solution (the
brute-force oracle's), and the rule named is the cheapest that places one."""

from __future__ import annotations

import random
from collections import Counter

from search.futoshiki.grade import TATHAM
from search.futoshiki.hint import forced_value
from search.futoshiki.model import Futoshiki
from search.futoshiki.propagate import Engine
from search.lab.oracles.futoshiki import random_puzzle, solutions


def test_hinted_values_hold_in_every_solution():
    rng = random.Random(2026)
    rules: Counter = Counter()
    for _ in range(400):
        puzzle = random_puzzle(rng.choice((3, 4, 5)), rng)
        found = forced_value(puzzle)
        if found is None:
            continue
        r, c = found.cell
        assert not puzzle.givens[r][c]
        assert all(s.grid[r][c] == found.value for s in solutions(puzzle)), (puzzle, found)
        rules[found.rule] += 1
    # the cheap rules give most hints, and the others are reached too
    assert rules["forward checking"] > 0 and rules["hidden singles"] > 0, rules
    assert rules["inequalities"] > 0, rules


def test_the_rule_named_is_the_cheapest():
    """The rules before the one named place no value in an empty cell, and
    with it the hinted cell is placed."""
    rng = random.Random(7)
    names = [d.name for d in TATHAM]
    checked = 0
    for _ in range(200):
        puzzle = random_puzzle(rng.choice((4, 5)), rng)
        found = forced_value(puzzle)
        if found is None:
            continue
        n, k = puzzle.n, names.index(found.rule)
        empty = [(r, c) for r in range(n) for c in range(n) if not puzzle.givens[r][c]]
        if k:
            before = Engine(puzzle, TATHAM[:k])
            assert before.propagate()
            assert not any(_placed(before, r * n + c) for r, c in empty)
            checked += 1
        upto = Engine(puzzle, TATHAM[:k + 1])
        assert upto.propagate()
        r, c = found.cell
        assert upto.dom[r * n + c] == 1 << (found.value - 1)
    assert checked >= 20


def _placed(engine: Engine, i: int) -> bool:
    d = engine.dom[i]
    return d & (d - 1) == 0


def test_an_empty_square_has_no_forced_value():
    assert forced_value(Futoshiki.empty(4)) is None

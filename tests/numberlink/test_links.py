"""Large Numberlink boards: the space-filling-path generator, the links
search (against the brute-force oracle on small boards, under both rules,
solvable or not) and the default solve backend picked by board size."""

from __future__ import annotations

import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from search.core.contract import Deadline, Status
from search.lab.oracles.numberlink import count as brute_count
from search.lab.oracles.numberlink import random_board
from search.numberlink import KIND
from search.numberlink.links import Exhausted, Links, LinksBackend
from search.numberlink.model import Pair
from search.numberlink.paths_gen import default_pairs, large_board
from search.numberlink.verify import covers, touches_itself, verify

ROOT = Path(__file__).resolve().parents[2]
SEED_7X7 = ROOT / "instances" / "numberlink" / "seed-article" / "seed_7x7.nl"


# ---------------------------------------------------------------- the generator


@pytest.mark.parametrize("size", [4, 9, 20])
def test_same_seed_same_board(size):
    first, second = large_board(size, size, 11), large_board(size, size, 11)
    assert first == second
    assert large_board(size, size, 12) != first


@pytest.mark.parametrize(("height", "width", "seed"), [(4, 4, 0), (5, 7, 1), (9, 9, 2),
                                                       (20, 20, 3), (13, 30, 4)])
def test_board_verifies_against_its_own_solution(height, width, seed):
    puzzle, solution = large_board(height, width, seed)
    assert verify(puzzle, solution) == []
    assert puzzle.full_cover and covers(puzzle, solution)
    assert not touches_itself(puzzle, solution)
    assert not puzzle.blocked


def test_glue_reaches_the_asked_pairs():
    assert len(large_board(20, 20, 0)[0].pairs) == default_pairs(20, 20) == 20
    assert len(large_board(20, 20, 0, pairs=45)[0].pairs) == 45


def test_cli_writes_puzzle_and_solution(tmp_path):
    done = subprocess.run([sys.executable, "-m", "search", "generate", "numberlink",
                           "--method", "paths", "--size", "12x9", "--seed", "3",
                           "-o", str(tmp_path)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    from search.numberlink.io import parse, parse_solution

    text = (tmp_path / "numberlink_12x9_paths_3.nl").read_text()
    puzzle = parse(text)
    assert (puzzle.height, puzzle.width) == (9, 12)
    puzzle_text, solution_text = text.split("\n\n", 1)
    assert verify(puzzle, parse_solution(puzzle, solution_text)) == []


# ---------------------------------------------------------------- the links search


@pytest.mark.parametrize("lenient", [False, True])
def test_links_agrees_with_the_oracle(lenient):
    """SOLVED exactly when the brute force finds a solution, UNSAT otherwise."""
    rng = random.Random(20 + lenient)
    seen = {Status.SOLVED: 0, Status.UNSAT: 0}
    for _ in range(120):
        board = random_board(rng, 5)
        board = board.lenient() if lenient else board.covering()
        result = LinksBackend().solve(board)
        assert result.status is (Status.SOLVED if brute_count(board) else Status.UNSAT), board
        if result.solution is not None:
            assert verify(board, result.solution) == []
        seen[result.status] += 1
    assert min(seen.values()) >= 10  # both answers were tried


def _self_avoiding_pass(board):
    """The first pass of ``links`` alone: a self-avoiding full cover or None."""
    links = Links(board, nst=True)
    if links.start() and links.search(Deadline(None), None):
        return links.solution()
    return None


def test_links_self_avoiding_pass_agrees_with_the_oracle():
    """The corner spikes lose no self-avoiding full cover: the first pass
    finds one exactly when the brute force does (blocked cells included,
    where spikes also end)."""
    rng = random.Random(31)
    found = 0
    for _ in range(400):
        board = random_board(rng, 5).covering()
        solution = _self_avoiding_pass(board)
        assert (solution is not None) == (brute_count(board, self_avoiding=True) > 0), board
        if solution is not None:
            assert verify(board, solution) == [] and not touches_itself(board, solution)
            found += 1
    assert found >= 10


def _both_searches(board, nst, budget):
    """(answer, solution, nodes) of the search with and without backjumping;
    the answer None when the budget ran out."""
    runs = []
    for backjump in (False, True):
        links = Links(board, nst=nst, backjump=backjump)
        try:
            found = links.start() and links.search(Deadline(None), budget)
        except Exhausted:
            found = None
        runs.append((found, links.solution() if found else None, links.nodes))
    return runs


def test_backjumping_keeps_the_answer_and_saves_nodes():
    """Backjumping only skips subtrees the conflict sets prove empty, so on
    the same tree it finds the same first solution as chronological
    backtracking, and the same "none"; on generated boards, half of them made
    unsolvable by swapping two pairs' ends, it needs fewer nodes in all."""
    rng = random.Random(5)
    plain = jumping = decided = 0
    for t in range(24):
        n = rng.randint(7, 10)
        board, _ = large_board(n, n, rng.randrange(10**6), pairs=rng.randint(n, 2 * n))
        if t % 2:
            pairs = list(board.pairs)
            a, b = rng.sample(range(len(pairs)), 2)
            pairs[a], pairs[b] = (Pair(pairs[a].label, pairs[a].a, pairs[b].b),
                                  Pair(pairs[b].label, pairs[b].a, pairs[a].b))
            board = replace(board, pairs=tuple(pairs))
        for nst in (True, False):
            (found, solution, nodes), (found_bj, solution_bj, nodes_bj) = \
                _both_searches(board, nst, 20_000)
            if found is None or found_bj is None:
                continue  # a budget ran out (the plain search's, on these boards)
            decided += 1
            assert (found, solution) == (found_bj, solution_bj), (t, nst)
            if solution is not None:
                assert verify(board, solution) == []
            plain, jumping = plain + nodes, jumping + nodes_bj
    assert decided >= 40
    assert jumping < 0.9 * plain, (jumping, plain)


@pytest.mark.parametrize("size", [5, 6, 8, 11])
def test_links_self_avoiding_pass_solves_generated_boards(size):
    """Every generated board has a self-avoiding full cover; the first pass
    must find one (on these the spikes prune the most)."""
    for seed in range(12):
        board, _ = large_board(size, size, seed)
        solution = _self_avoiding_pass(board)
        assert solution is not None, (size, seed)
        assert verify(board, solution) == [] and not touches_itself(board, solution)


def test_links_full_cover_needs_the_second_pass():
    """A board whose only full cover touches itself: the no-self-touch pass
    finds nothing, the plain pass finds it."""
    from search.numberlink.io import parse

    board = parse("3 3\nA..\n...\n..A\n")  # one pair: the snake through all nine cells
    result = LinksBackend().solve(board)
    assert result.status is Status.SOLVED
    assert touches_itself(board, result.solution) and verify(board, result.solution) == []


@pytest.mark.parametrize(("size", "seed"), [(20, 0), (20, 1), (20, 2), (30, 2)])
def test_links_solves_generated_boards_within_a_node_budget(size, seed):
    puzzle, _ = large_board(size, size, seed)
    result = LinksBackend(max_nodes=2_000).solve(puzzle)  # they take 53-357 and 282 nodes
    assert result.status is Status.SOLVED
    assert verify(puzzle, result.solution) == []


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(5))
def test_links_solves_40x40_boards_within_a_node_budget(seed):
    puzzle, _ = large_board(40, 40, seed)
    result = LinksBackend(max_nodes=5_000).solve(puzzle)  # they take 1.1-1.7 k nodes
    assert result.status is Status.SOLVED
    assert verify(puzzle, result.solution) == []


def test_links_node_budget_gives_limit():
    puzzle, _ = large_board(20, 20, 0)
    result = LinksBackend(max_nodes=3).solve(puzzle)
    assert result.status is Status.LIMIT and result.effort["nodes"] <= 4


# ---------------------------------------------------------------- the default backend


def test_default_solve_is_auto_and_small_boards_use_search():
    assert KIND.default_backend("solve") == "auto"
    from search.numberlink.io import parse

    result = KIND.backend("auto").solve(parse(SEED_7X7.read_text()))
    assert result.status is Status.SOLVED and result.engine == "search"


def test_large_boards_use_links():
    puzzle, _ = large_board(20, 20, 1)
    result = KIND.backend("auto").solve(puzzle)
    assert result.status is Status.SOLVED and result.engine == "links"
    assert verify(puzzle, result.solution) == []


def test_small_boards_search_leaves_go_to_the_frontier():
    """ADC 2015 Q08 (11 x 12, 8 pairs, wide empty regions): past search's node
    budget, the frontier finds a full cover."""
    from search.numberlink.io import parse

    path = ROOT / "instances" / "numberlink" / "adc2015" / "Q08.txt"
    puzzle = parse(path.read_text(), str(path))
    result = KIND.backend("auto").solve(puzzle)
    assert result.status is Status.SOLVED and result.engine == "frontier"
    assert verify(puzzle, result.solution) == []
    assert result.effort["search_nodes"] > 50_000  # search's budget ran out first


def test_small_solve_does_not_import_ortools():
    code = ("import sys; from search.app.cli import main\n"
            f"main(['solve', '--puzzle', 'numberlink', {str(SEED_7X7)!r}])\n"
            "print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in "
            "('ortools', 'numpy', 'scipy', 'cpmodels')))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert "LOADED []" in done.stdout, done.stdout + done.stderr

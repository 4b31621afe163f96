"""The compiled ``links`` kernel and its source interpreted give the same search.

``search/numberlink/links_kernel.py`` is the only source of the link
propagation and of the ``links`` node loop; where the install built it as a C
extension, every user runs that: the ``links`` backend, the ``search``
backend's full-cover propagator and the grading deductions.  Over random small
boards (solvable or not, both rules, blocked cells), generated boards and
generated boards made unsolvable, each user must give the same status, node
counts and solutions with either module, and every solution must pass
``verify``.  The existing tests of ``links`` (against the brute force) run
whichever module is loaded; the comparisons are skipped, saying so, where the
extension is not built.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import subprocess
import sys
from dataclasses import replace

import pytest

from search.core import compiled
from search.core.contract import Deadline, LimitReached, Status
from search.lab.oracles.numberlink import count as brute_count
from search.lab.oracles.numberlink import random_board
from search.numberlink import links
from search.numberlink.model import Numberlink, Pair
from search.numberlink.paths_gen import large_board
from search.numberlink.verify import verify
from tests.conftest import ROOT

NAME = "search.numberlink.links_kernel"
PURE = compiled.source(NAME)
BUILT = importlib.import_module(NAME)
NOT_BUILT = "the compiled kernel is not built here (pip install -e . with a C compiler builds it)"


def _swapped(board: Numberlink, rng: random.Random) -> Numberlink:
    """The board with two pairs' second ends swapped (mostly unsolvable)."""
    pairs = list(board.pairs)
    a, b = rng.sample(range(len(pairs)), 2)
    pairs[a], pairs[b] = (Pair(pairs[a].label, pairs[a].a, pairs[b].b),
                          Pair(pairs[b].label, pairs[b].a, pairs[a].b))
    return replace(board, pairs=tuple(pairs))


def _cases() -> list[tuple[str, Numberlink]]:
    rng = random.Random(30)
    out = []
    for k in range(30):
        board = random_board(rng, 5)
        out.append((f"random-{k}", board.lenient() if k % 3 == 0 else board.covering()))
    for n in (6, 8, 10, 13, 16):
        for seed in range(3):
            board, _ = large_board(n, n, seed)
            out.append((f"paths-{n}-{seed}", board))
            out.append((f"swapped-{n}-{seed}", _swapped(board, rng)))
    out.append(("paths-12x20-lenient", large_board(12, 20, 4)[0].lenient()))
    return out


CASES = _cases()


def _run(module, puzzle: Numberlink, nst: bool, backjump: bool, budget: int) -> tuple:
    """One pass of the search as the kernel ``module`` runs it: the answer (None
    past the budget), the nodes, the solution and the conflict it ended on."""
    board = module.Links(puzzle, nst=nst, backjump=backjump)
    try:
        found = board.start() and board.search(Deadline(None), budget)
    except module.Exhausted:
        found = None
    solution = board.solution() if found else None
    if solution is not None:
        assert verify(puzzle, solution) == []
    return found, board.nodes, solution, board.conflict, board.mark()


@pytest.mark.skipif(not compiled.is_compiled(BUILT), reason=NOT_BUILT)
@pytest.mark.parametrize(("name", "puzzle"), CASES, ids=[name for name, _ in CASES])
def test_compiled_and_interpreted_give_the_same_search(name, puzzle, monkeypatch) -> None:
    for nst in (True, False):
        for backjump in (True, False):
            assert _run(BUILT, puzzle, nst, backjump, 3_000) == \
                _run(PURE, puzzle, nst, backjump, 3_000), (nst, backjump)
    answers = []
    for module in (BUILT, PURE):
        monkeypatch.setattr(links, "kernel", module)
        result = links.LinksBackend(max_nodes=3_000).solve(puzzle)
        answers.append((result.status, result.effort, result.solution))
    assert answers[0] == answers[1]


@pytest.mark.parametrize(("name", "puzzle"), [c for c in CASES if c[0].startswith("random")])
def test_interpreted_kernel_agrees_with_the_brute_force(name, puzzle, monkeypatch) -> None:
    monkeypatch.setattr(links, "kernel", PURE)
    result = links.LinksBackend().solve(puzzle)
    assert result.status is (Status.SOLVED if brute_count(puzzle) else Status.UNSAT)
    assert result.solution is None or verify(puzzle, result.solution) == []


def test_the_trail_and_the_queue_grow_when_full() -> None:
    """A board whose trail and queue outgrow their first buffers (they start
    at a few entries a cell) solves alike in both modules."""
    puzzle, _ = large_board(9, 9, 2)
    runs = []
    for module in (BUILT, PURE):
        board = module.Links(puzzle, nst=True)
        board.trail, board.queue = board.trail[:2], board.queue[:1]
        assert board.start() and board.search(Deadline(None), None)
        assert verify(puzzle, board.solution()) == []
        runs.append((board.nodes, board.solution()))
    assert runs[0] == runs[1]


# every user of the kernel, in a fresh process with GRIDCP_PURE set or not
CHILD = """
import json, random
from search.core.compiled import is_compiled
from search.numberlink import links
from search.numberlink.grade import grade, guesses
from search.numberlink.paths_gen import large_board
from search.numberlink.solver import SearchBackend
from search.lab.oracles.numberlink import random_board
out = {"compiled": is_compiled(links.kernel)}
rng = random.Random(7)
for k in range(12):
    board = random_board(rng, 5)
    count = SearchBackend().count(board)
    out[f"count-{k}"] = [count.count, count.effort]
for n, seed in ((6, 0), (8, 1), (10, 2), (12, 3)):
    board, _ = large_board(n, n, seed)
    g = grade(board)
    solved = SearchBackend(max_nodes=5000).solve(board)
    fast = links.LinksBackend().solve(board)
    out[f"{n}-{seed}"] = [g.level, g.effort, guesses(board), str(solved.status), solved.effort,
                          str(solved.solution), str(fast.status), fast.effort, str(fast.solution)]
print(json.dumps(out))
"""


@pytest.mark.skipif(not compiled.is_compiled(BUILT), reason=NOT_BUILT)
def test_every_user_of_the_kernel_answers_alike_compiled_and_interpreted() -> None:
    def child(pure: str) -> dict:
        env = dict(os.environ, GRIDCP_PURE=pure, PYTHONPATH=str(ROOT))
        done = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env,
                              capture_output=True, text=True, check=True)
        return json.loads(done.stdout)

    built, pure = child("0"), child("1")
    assert built.pop("compiled") and not pure.pop("compiled")
    assert built == pure


@pytest.mark.parametrize("module", [BUILT, PURE], ids=["loaded", "interpreted"])
def test_a_deadline_stops_the_layout_of_a_huge_board(module, monkeypatch) -> None:
    """A compiled stretch answers no signal (the command line's watchdog waits
    for Python code), so laying out a board checks the deadline itself: a
    300x300 board with the time already up is LIMIT with no node searched."""
    puzzle = Numberlink(300, 300, (Pair("1", (0, 0), (299, 299)), Pair("2", (1, 0), (0, 1))))
    with pytest.raises(LimitReached):
        module.Links(puzzle, nst=True, deadline=Deadline(0.0))
    monkeypatch.setattr(links, "kernel", module)
    result = links.LinksBackend().solve(puzzle, time_limit=0.0)
    assert result.status is Status.LIMIT and result.effort == {"nodes": 0}

"""The safe removal under gravity: it keeps the verdict, the search's kernel
plays the same rule (its own copy, inside its compiled loop), and the CP-SAT
backend uses it without loading the gravity search."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys

from search.core.compiled import source
from search.core.contract import Deadline
from search.lab.oracles.lianliankan import clearable, random_board
from search.lianliankan.gravity import GravitySearch
from search.lianliankan.safe import safe_plan, safe_removals
from search.lianliankan.verify import fewest_turns
from tests.conftest import ROOT

kernel = source("search.lianliankan.gravity_kernel")  # its loop's rule, callable


def test_safe_removals_keep_the_verdict() -> None:
    rng = random.Random(5)
    played = 0
    for _ in range(300):
        b = dataclasses.replace(random_board(rng, 4), gravity=True)
        moves, after = safe_removals(b)
        played += len(moves)
        replay = b
        for move in moves:
            assert fewest_turns(replay, move.a, move.b) is not None
            replay = replay.removed(move.a, move.b)
        assert replay.grid == after.grid
        assert clearable(after) == clearable(b), b
    assert played > 50


def kernel_safe_move(search: GravitySearch) -> tuple[int, int] | None:
    """The kernel's ``safe_move`` on the search's board: its first move, or None."""
    f = search.field
    found = kernel.safe_move(search.cells, f.stride, f.height, f.width, f.turns, f.gravity,
                             search.pictures, search.count, search.tiles, search.work,
                             search.mark, search.queue, search.st, search.mv, 0)
    return (search.mv[0], search.mv[1]) if found else None


def python_safe_move(search: GravitySearch) -> tuple[int, int] | None:
    """The first move of ``safe``'s plan for the first safe picture the kernel
    would try (pictures in the kernel's numbering, of at most SAFE_MAX tiles)."""
    for _, tiles in sorted(search.field.pictures().items()):
        if len(tiles) <= kernel.SAFE_MAX:
            plan = safe_plan(search.field, tiles)
            if plan is not None:
                return plan[0][0], plan[0][1]
    return None


def test_the_kernel_plays_the_same_safe_rule() -> None:
    rng = random.Random(37)
    found = none = 0
    for _ in range(600):
        board = dataclasses.replace(random_board(rng, rng.choice((4, 5, 6))),
                                    gravity=rng.random() < 0.8)
        search = GravitySearch(board, Deadline(None))
        ours = python_safe_move(search)
        assert kernel_safe_move(search) == ours, board
        found += ours is not None
        none += ours is None and bool(board.tiles)
    assert found > 100 and none > 50  # both answers are tested


def test_the_cpsat_backend_does_not_load_the_gravity_search() -> None:
    code = ("import sys\n"
            "from cpmodels.lianliankan import CpSatBackend\n"
            "from search.lianliankan.model import Board\n"
            "board = Board(((1, 2), (1, 2)))\n"
            "print(CpSatBackend().solve(board).status)\n"
            "print(sorted(m for m in sys.modules if 'gravity' in m))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    status, loaded = done.stdout.splitlines()
    assert status == "SOLVED"
    assert "search.lianliankan.gravity" not in loaded
    assert "search.lianliankan.gravity_kernel" not in loaded

"""The safe removal under gravity: it keeps the verdict, the search's kernel
plays the same rule (its own copy, inside its compiled loop), and the CP-SAT
backend uses it without loading the gravity search."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys

from search.lab.oracles.lianliankan import clearable, random_board
from search.lianliankan.safe import safe_removals
from search.lianliankan.verify import fewest_turns
from tests.conftest import ROOT


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

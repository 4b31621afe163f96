"""Deliberately broken Futoshiki backends, to show the harness catches them.

Bench runs load them in a child process by dotted path
(``--backends NAME=tests.lab.broken_backends:Class``), so they live in a module of
their own with no test in it.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import replace

from search.core.contract import CountResult, LimitReached, SolveResult, Status, Unsupported
from search.futoshiki.model import Solution
from search.futoshiki.solver import SearchBackend


class WrongCount(SearchBackend):
    """Counts one solution too many."""

    name = "wrong-count"

    def count(self, puzzle, *, limit=None, time_limit=None):
        result = super().count(puzzle, limit=limit, time_limit=time_limit)
        return replace(result, count=result.count + 1)


class InvalidSolution(SearchBackend):
    """Returns a solution with two cells swapped in its first row."""

    name = "invalid-solution"

    def solve(self, puzzle, *, time_limit=None):
        result = super().solve(puzzle, time_limit=time_limit)
        if result.solution is None or puzzle.n < 2:
            return result
        grid = [list(row) for row in result.solution.grid]
        grid[0][0], grid[0][1] = grid[0][1], grid[0][0]
        return replace(result, solution=Solution(tuple(map(tuple, grid))))


class AlwaysLimit(SearchBackend):
    """Never decides anything: every call stops at its limit."""

    name = "always-limit"

    def solutions(self, puzzle, *, time_limit=None):
        raise LimitReached
        yield  # a generator


class Raises(SearchBackend):
    name = "raises"
    calls = frozenset({"solve"})

    def solve(self, puzzle, *, time_limit=None):
        raise ValueError("a bug")


class Sleeper(SearchBackend):
    """Ignores its deadline."""

    name = "sleeper"
    calls = frozenset({"solve"})

    def solve(self, puzzle, *, time_limit=None):
        time.sleep(60)
        return SolveResult(Status.UNSAT)


class Crash(SearchBackend):
    """Takes its process down (as a segfault in native code would)."""

    name = "crash"
    calls = frozenset({"solve"})

    def solve(self, puzzle, *, time_limit=None):
        os.abort()


class Hog(SearchBackend):
    """Wants a gigabyte."""

    name = "hog"
    calls = frozenset({"count"})

    def count(self, puzzle, *, limit=None, time_limit=None):
        block = bytearray(1 << 30)
        return CountResult(Status.COUNTED, len(block))


class Slow(SearchBackend):
    """The seed search, a little slower: sweeps that can be interrupted part-way."""

    name = "slow"

    def solve(self, puzzle, *, time_limit=None):
        time.sleep(0.4)
        return super().solve(puzzle, time_limit=time_limit)

    def count(self, puzzle, *, limit=None, time_limit=None):
        time.sleep(0.4)
        return super().count(puzzle, limit=limit, time_limit=time_limit)


class Declines(SearchBackend):
    """Does not model the rules asked for (as a backend without gravity)."""

    name = "declines"
    calls = frozenset({"solve"})

    def solve(self, puzzle, *, time_limit=None):
        raise Unsupported("declines does not model these rules")


# Set by the tests that kill a process once: the first run to find no file at this
# path creates it and dies; every later run answers.
MARKER_ENV = "GRIDCP_TEST_KILL_MARKER"


def _first() -> bool:
    """True for the first run of a test that asks, once (an exclusive create)."""
    try:
        with open(os.environ[MARKER_ENV], "x"):
            return True
    except FileExistsError:
        return False


class KilledOnce(SearchBackend):
    """The first run is killed with SIGKILL, as the kernel's out-of-memory killer does."""

    name = "killed-once"
    calls = frozenset({"solve"})

    def solve(self, puzzle, *, time_limit=None):
        if _first():
            os.kill(os.getpid(), signal.SIGKILL)
        return super().solve(puzzle, time_limit=time_limit)


class KillsItsWorkerOnce(SearchBackend):
    """The first run kills the pool worker that waits for it (and so dies with it)."""

    name = "kills-its-worker-once"
    calls = frozenset({"solve"})

    def solve(self, puzzle, *, time_limit=None):
        if _first():
            os.kill(os.getppid(), signal.SIGKILL)
            time.sleep(60)  # the parent-death signal ends this process
        return super().solve(puzzle, time_limit=time_limit)

"""An answer stopped by the watchdog keeps the effort counts its engines hold."""

from __future__ import annotations

import argparse
import types

from search.app.cli import bounded
from search.core.contract import Backend, SolveResult, Status, effort_of, engines_run


class Spinner(Backend):
    """Counts nodes into its effort and never looks at a deadline."""

    name = "spinner"
    calls = frozenset({"solve"})

    def solve(self, puzzle, *, time_limit=None):
        self.effort = {"nodes": 0, "plan": "rows"}  # a word among the figures is left out
        while True:
            self.effort["nodes"] += 1


def _task(kind_, puzzle, file, backend, args):
    Spinner().solve(puzzle)  # a finished engine counts too
    raise AssertionError("unreachable")


def test_watchdog_keeps_counts_so_far():
    kind_ = types.SimpleNamespace(name="toy")
    args = argparse.Namespace(time_limit=0.3, command="solve", memory_limit=None)
    answer = bounded(_task, kind_, None, "toy.txt", "spinner", args)
    assert answer.status is Status.LIMIT
    assert answer.fields["limit"] == "time"
    assert set(answer.effort) == {"nodes"} and answer.effort["nodes"] > 0


def test_effort_of_sums_the_engines_of_the_block():
    class Done(Backend):
        name = "done"

        def solve(self, puzzle, *, time_limit=None):
            self.effort = {"nodes": 5, "states": 2, "hinted": True}
            return SolveResult(Status.SOLVED, None)

    outside = Done()
    with engines_run() as made:
        Done().solve(None)
        Done().solve(None)
    outside.solve(None)
    assert len(made) == 2
    assert effort_of(made) == {"nodes": 10, "states": 4}


def test_crosscheck_watchdog_keeps_counts_so_far(monkeypatch):
    from search.lab import crosscheck

    def spin(kind_, puzzle, backend, task, time_limit, graph_check=False):
        Spinner().solve(puzzle)

    monkeypatch.setattr(crosscheck, "run_task", spin)
    outcome = crosscheck.watched_task(None, None, "spinner", "solve", 0.3)
    assert outcome.status is Status.LIMIT and outcome.effort["nodes"] > 0

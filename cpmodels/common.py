"""What every CP-SAT backend shares: a configured solver, a solve that a
signal can stop, effort figures, and enumeration of solutions through a
callback that runs on a worker thread.

Counting or enumerating needs ``enumerate_all_solutions`` and one worker
(more workers return wrong counts while claiming OPTIMAL, OR-Tools 9.15).

Signals: CP-SAT's own SIGINT handler is off (``catch_sigint_signal``): with it,
Ctrl-C ended only the current solve, which then looked like a time limit, and
it could abort the process (``std::bad_function_call``).  Every solve runs on
a worker thread instead (``solve``), while this thread waits where Python's
signal handlers and the time-limit watchdog can raise; whatever they raise
stops the search (``stop_search``) and goes on up to the command line.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Callable, Iterator
from typing import Any

from ortools.sat.python import cp_model

from search.core.contract import LimitReached


def make_solver(
    *,
    time_limit: float | None = None,
    workers: int = 1,
    seed: int | None = None,
    enumerate_all: bool = False,
) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.catch_sigint_signal = False  # our handler decides (see the module's docstring)
    params.num_workers = 1 if enumerate_all else workers
    if time_limit is not None:
        params.max_time_in_seconds = max(time_limit, 0.001)
    if seed is not None:
        params.random_seed = seed
    if enumerate_all:
        params.enumerate_all_solutions = True
    return solver


def solve(solver: cp_model.CpSolver, model: cp_model.CpModel,
          callback: cp_model.CpSolverSolutionCallback | None = None) -> int:
    """``solver.solve(model, callback)`` on a worker thread; this thread waits
    where a signal handler (Ctrl-C, SIGTERM) or the watchdog can raise.  On any
    such exception the search is stopped, its thread joined, and the exception
    goes on; else the status code."""
    solver.parameters.catch_sigint_signal = False
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["status"] = solver.solve(model, callback)
        except BaseException as error:  # handed to the waiting thread
            outcome["error"] = error

    thread = threading.Thread(target=run, name="cp-sat", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.25)  # wakes up for a signal's handler at once on POSIX
    except BaseException:
        solver.stop_search()  # thread-safe; the search ends within milliseconds
        thread.join()
        raise
    if "error" in outcome:
        raise outcome["error"]
    return outcome["status"]


def effort(solver: cp_model.CpSolver) -> dict[str, float]:
    return {
        "branches": solver.num_branches,
        "conflicts": solver.num_conflicts,
        "deterministic_time": round(solver.deterministic_time, 6),
    }


def status_of(status: int) -> str:
    """'SOLVED', 'UNSAT', 'LIMIT' or 'ERROR' for a CP-SAT status code."""
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "SOLVED"
    if status == cp_model.INFEASIBLE:
        return "UNSAT"
    if status == cp_model.UNKNOWN:
        return "LIMIT"
    return "ERROR"


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, read: Callable[[cp_model.CpSolverSolutionCallback], Any],
                 out: queue.Queue, stop: threading.Event):
        super().__init__()
        self._read, self._out, self._stop = read, out, stop

    def on_solution_callback(self) -> None:
        self._out.put(("solution", self._read(self)))
        if self._stop.is_set():
            self.stop_search()


def enumerate_solutions(
    model: cp_model.CpModel,
    read: Callable[[cp_model.CpSolverSolutionCallback], Any],
    *,
    time_limit: float | None = None,
    effort_out: dict[str, float] | None = None,
) -> Iterator[Any]:
    """Yield ``read(callback)`` for every solution of ``model``, lazily.

    The solver runs in a thread and hands solutions over a bounded queue, so a
    consumer that stops early (a count cap, uniqueness) stops the search and
    nothing is kept in memory.  Raises ``LimitReached`` when the time limit
    passes before the search is complete.
    """
    solver = make_solver(time_limit=time_limit, enumerate_all=True)
    out: queue.Queue = queue.Queue(maxsize=64)
    stop = threading.Event()
    collector = _Collector(read, out, stop)
    outcome: dict[str, int] = {}

    def run() -> None:
        try:
            outcome["status"] = solver.solve(model, collector)
        finally:
            out.put(("done", None))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        while True:
            kind, value = out.get()
            if kind == "done":
                break
            yield value
    finally:
        stop.set()
        solver.stop_search()  # thread-safe; a no-op once the search has ended
        while thread.is_alive():  # drain so a blocked callback can finish
            with contextlib.suppress(queue.Empty):
                out.get(timeout=0.05)
        thread.join()
        if effort_out is not None:
            effort_out.update(effort(solver))
    # A complete enumeration ends OPTIMAL (or INFEASIBLE); FEASIBLE or UNKNOWN
    # means the time limit cut it short.
    if outcome.get("status") in (cp_model.FEASIBLE, cp_model.UNKNOWN):
        raise LimitReached

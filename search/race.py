"""The first answer among a few calls run side by side, each in a forked process.

Two engines that fail on different boards are best raced: the Numberlink
frontier runs out of states on 17 x 17 boards where CP-SAT finds a second
solution in a second, and the other way round.  On two cores the race costs
the winner next to nothing; the losers are killed.  Where ``fork`` is missing
the calls run one after another.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection, wait
from typing import TypeVar

T = TypeVar("T")
GRACE = 0.5  # seconds past the time limit before racing calls are killed


def can_race() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()


_raced = False  # True in the process of a raced call


def this_core() -> int | None:
    """The CPU this process last ran on, to share out before a race (None
    where the platform cannot pin processes, or with one CPU).  Checks run
    side by side each start from their own CPU, so they share the CPUs out
    differently."""
    if len(_cores()) < 2:
        return None
    try:
        with open("/proc/self/stat") as stat:  # field 39, after "pid (name)"
            return int(stat.read().rsplit(")", 1)[1].split()[36])
    except (OSError, ValueError, IndexError):
        return None


def take_one_core(core: int | None) -> None:
    """Keep a raced single-threaded call's process to CPU ``core`` (from
    ``this_core``), which ``step_aside`` leaves to it (None, or in the
    caller's own process: nothing changes)."""
    if _raced and core in _cores():
        os.sched_setaffinity(0, {core})


def step_aside(niceness: int, leave: int | None = None) -> None:
    """Lower the priority of a raced call's process from here on, and keep it
    off CPU ``leave``, which ``take_one_core`` takes (in the caller's own
    process, when the calls run in order, nothing changes).  A call that starts many
    threads (CP-SAT's portfolio) would otherwise take most of the cores from a
    single-threaded rival; and a portfolio some of whose threads share a core
    with a busy process is slowed far more than its share of the CPU: CP-SAT
    finds two full covers of Janko 17 x 17 #175 in 0.7 s on a core of its
    own, and in 3 of 4 runs none in 5 s beside a busy process.  The threads
    it starts later inherit both."""
    if not _raced:
        return
    os.nice(niceness)
    others = [core for core in _cores() if core != leave]
    if leave is not None and others:
        os.sched_setaffinity(0, others)


def cores_here() -> int:
    """How many CPUs this process may use (after ``take_one_core`` or
    ``step_aside``, in a raced call)."""
    return len(_cores()) or os.cpu_count() or 1


def _cores() -> list[int]:
    """The CPUs this process may use, in order; none where it cannot pin."""
    if not hasattr(os, "sched_setaffinity"):
        return []
    return sorted(os.sched_getaffinity(0))


def first_answer(calls: Sequence[Callable[[], T]], *, gives_up: type[Exception],
                 at_once: bool = True, time_limit: float | None = None) -> T:
    """The value of the first call that returns one.

    A call that raises ``gives_up`` has no answer; when none has, ``gives_up``
    is raised.  Any other exception of a call is raised as soon as it comes.
    Racing calls still without an answer ``time_limit`` seconds (plus a
    grace) after the start are killed, and ``gives_up`` is raised.
    ``at_once=False`` (or no ``fork``) runs the calls in order instead, each
    bound by its own limits.
    """
    if not (at_once and len(calls) > 1 and can_race()):
        for call in calls:
            try:
                return call()
            except gives_up:
                continue
        raise gives_up()
    context = multiprocessing.get_context("fork")
    running: dict[Connection, multiprocessing.Process] = {}
    try:
        for call in calls:
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=_answer, args=(call, send), daemon=True)
            process.start()
            send.close()
            running[receive] = process
        end = None if time_limit is None else time.perf_counter() + time_limit + GRACE
        while running:
            rest = None if end is None else max(0.0, end - time.perf_counter())
            ready = wait(list(running), timeout=rest)
            if not ready:
                break  # out of time
            for done in ready:
                finished = running.pop(done)
                try:
                    kind, value = done.recv()
                except EOFError:
                    kind, value = "error", RuntimeError("a raced call died without an answer")
                finished.join()
                if kind == "value":
                    return value
                if not isinstance(value, gives_up):
                    raise value
        raise gives_up()
    finally:
        for process in running.values():
            process.kill()
        for process in running.values():
            process.join()


def _answer(call: Callable[[], T], send: Connection) -> None:
    """In the child: send ("value", result) or ("error", exception)."""
    global _raced
    _raced = True
    try:
        outcome = ("value", call())
    except BaseException as error:  # noqa: BLE001 (the parent decides what it means)
        outcome = ("error", error)
    try:
        send.send(outcome)
    except Exception as error:  # noqa: BLE001 (an answer that does not pickle)
        send.send(("error", RuntimeError(f"a raced call's answer cannot be sent: {error}")))
    finally:
        send.close()

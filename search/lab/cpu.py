"""CPU time, the figure a loaded machine does not shrink: of this process, of a
child process run to its end, and a deadline counted in it.

A child's CPU is read from outside, by ``getrusage`` of the finished children
before and after it (a child's own reading of its clock is coarse under a CPU
cap, and a peer tool has none to give).
"""

from __future__ import annotations

import resource
import subprocess
import time
from dataclasses import dataclass
from typing import Any

from search.core.contract import Deadline


def children_cpu() -> float:
    """User + system seconds of this process's finished (waited-for) children."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def cpu_seconds() -> float:
    """User + system seconds of this process (all its threads) and its finished
    children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime + children_cpu()


@dataclass(frozen=True)
class Timed:
    """A child process run to its end: its result (None when ``timeout`` ended
    it), its wall seconds and its CPU seconds (user + system)."""

    done: subprocess.CompletedProcess | None
    wall: float
    cpu: float


def run_timed(argv: list[str], **options: Any) -> Timed:
    """``subprocess.run(argv, capture_output=True, **options)``, timed; a
    ``timeout`` that ends it gives ``done`` None (the child is killed and
    reaped, so its CPU is counted)."""
    cpu, start = children_cpu(), time.perf_counter()
    try:
        done: subprocess.CompletedProcess | None = subprocess.run(
            argv, capture_output=True, **options)
    except subprocess.TimeoutExpired:
        done = None
    return Timed(done, time.perf_counter() - start, children_cpu() - cpu)


class CpuDeadline(Deadline):
    """A budget of this process's CPU seconds, for figures that the machine's
    load does not shrink."""

    __slots__ = ()
    clock = staticmethod(time.process_time)

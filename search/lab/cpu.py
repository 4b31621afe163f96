"""CPU time, the figure a loaded machine does not shrink: of this process and
its finished children, and a deadline counted in it.  (A child run to its end
and timed from outside: ``search.core.processes.run_child``.)
"""

from __future__ import annotations

import resource
import time

from search.core.contract import Deadline


def cpu_seconds() -> float:
    """User + system seconds of this process (all its threads) and its finished
    (waited-for) children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class CpuDeadline(Deadline):
    """A budget of this process's CPU seconds, for figures that the machine's
    load does not shrink."""

    __slots__ = ()
    clock = staticmethod(time.process_time)

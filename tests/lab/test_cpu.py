"""CPU time of this process and its finished children, and a deadline counted
in this process's CPU seconds (no wall-clock figure is asserted)."""

from __future__ import annotations

import sys
import time

import pytest

from search.core.contract import LimitReached
from search.core.processes import run_child
from search.lab.cpu import CpuDeadline, cpu_seconds

BURN = "import time\nend = time.process_time() + 0.2\nwhile time.process_time() < end: pass\n"


def test_a_finished_childs_cpu_is_counted():
    before = cpu_seconds()
    done = run_child([sys.executable, "-c", BURN + "print('done')"], "", 60)
    assert done.out == "done\n"
    assert done.cpu >= 0.15  # the child's own 0.2 CPU s, at the kernel's tick
    assert cpu_seconds() - before >= done.cpu


def test_a_cpu_deadline_counts_cpu_not_waiting():
    deadline = CpuDeadline(1.0)
    time.sleep(0.3)  # waiting spends no CPU
    assert not deadline.expired()
    left = deadline.remaining()
    assert left is not None and 0.5 < left <= 1.0
    assert deadline.remaining(0.25) == 0.25
    end = time.process_time() + 2.0
    while not deadline.expired() and time.process_time() < end:
        pass
    with pytest.raises(LimitReached):
        deadline.check()
    assert CpuDeadline(None).remaining() is None and not CpuDeadline(None).expired()

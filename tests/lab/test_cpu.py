"""CPU time of a child run to its end, and a deadline counted in this
process's CPU seconds (no wall-clock figure is asserted)."""

from __future__ import annotations

import sys
import time

import pytest

from search.core.contract import LimitReached
from search.lab.cpu import CpuDeadline, children_cpu, cpu_seconds, run_timed

BURN = "import time\nend = time.process_time() + 0.2\nwhile time.process_time() < end: pass\n"


def test_a_childs_cpu_is_counted_from_outside():
    before = children_cpu()
    timed = run_timed([sys.executable, "-c", BURN + "print('done')"], text=True)
    assert timed.done is not None and timed.done.stdout == "done\n"
    assert timed.cpu >= 0.15  # the child's own 0.2 CPU s, at the kernel's tick
    assert children_cpu() - before >= timed.cpu
    assert cpu_seconds() >= children_cpu()


def test_a_child_stopped_by_its_timeout_gives_no_result():
    timed = run_timed([sys.executable, "-c", "import time; time.sleep(60)"], timeout=0.5)
    assert timed.done is None


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

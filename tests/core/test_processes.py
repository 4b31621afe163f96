"""search.core.processes: a child's output, exit code and CPU time from the
kernel's account of it (wait4), and its whole process group killed at the timeout."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

from search.core.processes import run_child

PY = sys.executable


def test_output_exit_code_and_cpu_time() -> None:
    code = "import sys; s = sum(range(3_000_000)); print(sys.stdin.read().upper()); sys.exit(3)"
    done = run_child([PY, "-c", code], "hello", 60)
    assert (done.code, done.out.strip(), done.killed) == (3, "HELLO", False)
    assert done.why() == "exit code 3"
    assert done.cpu > 0 and done.peak_mib > 0  # user + system of that child, from wait4


def test_cpu_time_counts_the_childs_own_children() -> None:
    spin = "sum(range(10_000_000))"
    alone = run_child([PY, "-c", spin], "", 60)
    code = f"import subprocess, sys; subprocess.run([sys.executable, '-c', '{spin}'])"
    with_child = run_child([PY, "-c", code], "", 60)
    # the grandchild's work is counted (the same work as the spin alone; without
    # it the child would have spent an interpreter's start-up, a tenth of the spin)
    assert with_child.cpu > alone.cpu * 0.6


def test_a_child_killed_from_outside() -> None:
    done = run_child([PY, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"],
                     "", 60)
    assert done.code == -signal.SIGKILL and not done.killed
    assert done.why() == "killed by SIGKILL"


def test_the_timeout_kills_the_whole_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "grandchild"
    code = ("import subprocess, sys, time; "
            "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)']); "
            f"open({str(pid_file)!r}, 'w').write(str(p.pid)); time.sleep(60)")
    done = run_child([PY, "-c", code], "", 3)
    assert done.killed and done.code == -signal.SIGKILL
    grandchild = int(pid_file.read_text())
    deadline = time.monotonic() + 10  # a guard: the kernel reaps it at once
    while time.monotonic() < deadline and _alive(grandchild):
        time.sleep(0.05)
    assert not _alive(grandchild)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return state != "Z"

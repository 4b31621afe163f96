"""Child processes that die with their parent, and what a finished child cost.

``run_child`` starts a command in a session of its own, feeds it its input,
kills its whole process group at a timeout, and reaps it with ``os.wait4``,
so that the CPU time it used (user + system, of the child and of the
processes it waited for) and its peak memory come from the kernel's account
of that one child, whatever else the caller runs at the same time.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

PARENT_ENV = "GRIDCP_SWEEP_PARENT"  # the pid a sweep's run must outlive no longer
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
READ_GRACE = 2.0  # seconds to wait for a killed child's pipes to close


def die_with_parent(parent: int | None = None, watch: bool = True) -> None:
    """End this process when its parent ends, however the parent ends (SIGKILL too).

    On Linux the kernel sends SIGKILL (``prctl(PR_SET_PDEATHSIG)``); elsewhere a
    watchdog thread polls the parent's pid.  If the parent is already gone
    (``getppid`` differs from ``parent``), exit at once.  ``watch=False`` between
    fork and exec, where no thread may start.
    """
    parent = os.getppid() if parent is None else parent
    armed = False
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    if os.getppid() != parent:
        os._exit(1)
    if not armed and watch:
        threading.Thread(target=_watch, args=(parent,), daemon=True,
                         name="die-with-parent").start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


@dataclass(frozen=True)
class Finished:
    """A child that has ended, and what it cost."""

    code: int  # as ``Popen.returncode``: the exit code, or minus the signal that ended it
    out: str
    err: str
    wall: float  # seconds from its start to its end
    cpu: float  # user + system seconds, its own and its waited-for children's
    peak_mib: float  # its largest resident set, MiB
    killed: bool  # killed here at the timeout

    def why(self) -> str:
        """How it ended, in words: ``exit code 1`` or ``killed by SIGKILL``."""
        if self.code < 0:
            with contextlib.suppress(ValueError):
                return f"killed by {signal.Signals(-self.code).name}"
            return f"killed by signal {-self.code}"
        return f"exit code {self.code}"


def run_child(argv: list[str], text: str, timeout: float | None, *, cwd: str | None = None,
              env: dict[str, str] | None = None,
              preexec_fn: Callable[[], None] | None = None) -> Finished:
    """Run ``argv`` with ``text`` on its standard input; kill its process group
    after ``timeout`` seconds.  Raises ``OSError`` when it cannot start."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=preexec_fn)
    chunks: dict[str, bytes] = {}
    pipes = [threading.Thread(target=_feed, args=(proc.stdin, text.encode()), daemon=True),
             threading.Thread(target=_drain, args=(proc.stdout, chunks, "out"), daemon=True),
             threading.Thread(target=_drain, args=(proc.stderr, chunks, "err"), daemon=True)]
    reaped: list[tuple[int, int, resource.struct_rusage]] = []
    reaper = threading.Thread(target=lambda: reaped.append(os.wait4(proc.pid, 0)), daemon=True)
    killed = False
    try:
        for thread in (*pipes, reaper):
            thread.start()
        reaper.join(timeout)
        if reaper.is_alive():
            killed = True
            _kill_group(proc.pid)
            reaper.join()
    finally:
        if reaper.is_alive():  # interrupted while waiting: take the child down too
            _kill_group(proc.pid)
            reaper.join()
    wall = time.perf_counter() - start
    for thread in pipes:
        thread.join(READ_GRACE)
    _, status, usage = reaped[0]
    proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    return Finished(proc.returncode, chunks.get("out", b"").decode(errors="replace"),
                    chunks.get("err", b"").decode(errors="replace"), wall,
                    usage.ru_utime + usage.ru_stime, round(usage.ru_maxrss / 1024, 1), killed)


def _feed(pipe: object, data: bytes) -> None:
    with contextlib.suppress(OSError):  # a child that does not read its input
        pipe.write(data)  # type: ignore[attr-defined]
    with contextlib.suppress(OSError):
        pipe.close()  # type: ignore[attr-defined]


def _drain(pipe: object, chunks: dict[str, bytes], name: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        chunks[name] = pipe.read()  # type: ignore[attr-defined]


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)

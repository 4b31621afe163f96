"""The limits that hold on every input: board size, file size, time and memory.

Readers call ``check_cells`` with a board's declared size before they
allocate anything for it, so that a three-line file declaring a
100000 x 100000 board is refused (exit 2) instead of eating memory.  The
limit is 1,000,000 cells by default (``--max-cells N`` or the environment
variable ``GRIDCP_MAX_CELLS`` raise or lower it); files above
``MAX_FILE_BYTES`` per allowed cell are refused before they are read.

``watchdog`` bounds a task by the user's ``--time-limit``: a step that does
not look at its ``Deadline`` (a big model being built, a verifier on a huge
board) is interrupted a moment after the limit and the task reports LIMIT.
Engines still check their deadline themselves; this is the safety net that
makes "returns within the limit plus a second" hold for every input.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import sys
import threading
from collections.abc import Iterator
from contextvars import ContextVar
from types import FrameType

from search.core.contract import InputError

DEFAULT_MAX_CELLS = 1_000_000
BYTES_PER_CELL = 64  # a file may hold this many bytes per allowed cell (comments, wide labels)
DEFAULT_MEMORY_MB = 4096  # address space of a command-line run (as bench gives each run)
ADDRESS_HEADROOM_MB = 256  # address space a run maps beyond what it holds (libraries, arenas)
WATCHDOG_GRACE = 0.2  # seconds past --time-limit before a task is interrupted
MAX_TURNS = 64  # more turns than any board of the size limit can use is a typo

_max_cells: ContextVar[int | None] = ContextVar("max_cells", default=None)
_memory_given: ContextVar[float | None] = ContextVar("memory_given", default=None)


class TooLarge(InputError):
    """An input whose declared size is above the limit: refused before allocation."""


def max_cells() -> int:
    """The cell limit in force: ``max_cells_set``, else $GRIDCP_MAX_CELLS, else the default."""
    chosen = _max_cells.get()
    if chosen is not None:
        return chosen
    try:
        return max(1, int(os.environ.get("GRIDCP_MAX_CELLS", DEFAULT_MAX_CELLS)))
    except ValueError:
        return DEFAULT_MAX_CELLS


@contextlib.contextmanager
def max_cells_set(cells: int | None) -> Iterator[None]:
    """The cell limit for the block (None: leave it), in this process and, through
    $GRIDCP_MAX_CELLS, in the processes it starts (bench's runs)."""
    if cells is None:
        yield
        return
    token, before = _max_cells.set(cells), os.environ.get("GRIDCP_MAX_CELLS")
    os.environ["GRIDCP_MAX_CELLS"] = str(cells)
    try:
        yield
    finally:
        _max_cells.reset(token)
        if before is None:
            os.environ.pop("GRIDCP_MAX_CELLS", None)
        else:
            os.environ["GRIDCP_MAX_CELLS"] = before


def check_cells(height: int, width: int, source: str, line: int | None = None,
                what: str = "board") -> None:
    """Refuse a declared ``width`` x ``height`` board above the cell limit."""
    cells, limit = height * width, max_cells()
    if cells > limit:
        raise TooLarge(f"the {what} is {width} x {height} = {cells:,} cells, above the limit "
                       f"of {limit:,} (--max-cells N raises it)", source, line)


def turns(text: str) -> int:
    """An argparse type for ``--turns``: 0 .. MAX_TURNS."""
    import argparse

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= value <= MAX_TURNS:
        raise argparse.ArgumentTypeError(f"must be between 0 and {MAX_TURNS}, found {text}")
    return value


# ---------------------------------------------------------------- time


class Overtime(BaseException):
    """Raised by the watchdog in the main thread when a task outlives its limit.

    A BaseException, so that no engine's ``except Exception`` swallows it."""


def importing(frame: FrameType | None) -> bool:
    """Whether the code at ``frame`` runs inside an import.  An exception raised
    there leaves a half-made module behind: a C extension cannot be loaded
    again in the process ("cannot load module more than once per process"),
    and OR-Tools' protocol buffers could abort it.  So the watchdog lets an
    import finish (it fires again every 0.1 s)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib._bootstrap"):
            return True
        frame = frame.f_back
    return False


@contextlib.contextmanager
def watchdog(seconds: float | None) -> Iterator[None]:
    """Raise ``Overtime`` in this (main) thread ``seconds`` + a grace from now,
    and every 0.1 s after that until the block is left, unless an import is
    under way (``importing``).  No limit, no signal alarm on this platform, or
    not the main thread: nothing happens."""
    usable = (seconds is not None and hasattr(signal, "setitimer")
              and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return
    armed = True

    def fire(signum: int, frame: FrameType | None) -> None:
        if armed and not importing(frame):  # an import goes on to the next tick
            raise Overtime

    previous = signal.signal(signal.SIGALRM, fire)
    signal.setitimer(signal.ITIMER_REAL, seconds + WATCHDOG_GRACE, 0.1)
    try:
        yield
    finally:
        armed = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# ---------------------------------------------------------------- memory


def limit_memory(megabytes: float | None) -> None:
    """Cap this process's address space (None or 0: leave it); a MemoryError
    past the cap becomes a LIMIT answer.  Never raises the cap above a hard one."""
    if not megabytes:
        return
    cap = int(megabytes * 1024 * 1024)
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))


@contextlib.contextmanager
def memory_limit_given(megabytes: float | None) -> Iterator[None]:
    """For the block, the ``--memory-limit`` the user gave (None: the default was
    left): engines that budget their own memory (``count-dp``) take their
    budget from it (``memory_budget``)."""
    token = _memory_given.set(megabytes or None)
    try:
        yield
    finally:
        _memory_given.reset(token)


def memory_budget(megabytes: float | None, default: float) -> tuple[float, str]:
    """The memory an engine that budgets its own may hold (resident MB), and
    where the figure comes from: ``megabytes`` if given, else the
    ``--memory-limit`` the user gave less ``ADDRESS_HEADROOM_MB``, else
    ``default``; never more than the address-space cap in force less that
    headroom, so that the engine stops by its own budget (a LIMIT with its
    reason) before the cap would stop it."""
    given = _memory_given.get()
    if megabytes:
        budget, source = float(megabytes), "memory_mb option"
    elif given:
        budget = given - ADDRESS_HEADROOM_MB
        source = f"--memory-limit {given:g} MB less {ADDRESS_HEADROOM_MB} MB"
    else:
        budget = default
        source = f"the default; --memory-limit M gives M - {ADDRESS_HEADROOM_MB} MB"
    cap, _ = resource.getrlimit(resource.RLIMIT_AS)
    if cap != resource.RLIM_INFINITY and cap / 2**20 - ADDRESS_HEADROOM_MB < budget:
        budget = cap / 2**20 - ADDRESS_HEADROOM_MB
        source = f"the address-space cap of {cap / 2**20:g} MB less {ADDRESS_HEADROOM_MB} MB"
    return max(budget, 0.0), source


def allow_recursion(frames: int) -> None:
    """Let a search recurse ``frames`` deep (one frame per decision, four per
    open cell at most) above what the interpreter already uses."""
    depth = frames + 1000
    if sys.getrecursionlimit() < depth:
        sys.setrecursionlimit(depth)

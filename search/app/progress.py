"""Progress of a command over many files, on stderr: a bar that redraws itself
on a terminal, as wide as the terminal, and plain lines otherwise (no bar: a
log keeps every step)."""

from __future__ import annotations

import shutil
import sys
import time
from typing import TextIO

from search.app.arguments import say

WIDTH = 24  # characters of the bar at most


class Progress:
    """``step(name)`` before each file; ``say(text)`` prints a result without
    tearing the bar.  Silent for a single file."""

    def __init__(self, total: int, what: str, stream: TextIO | None = None):
        self.total, self.what, self.done = total, what, 0
        self.stream = stream or sys.stderr
        self.live = total > 1
        self.bar = self.live and self.stream.isatty()
        self.start = time.perf_counter()
        self.shown = ""

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self._clear()

    def step(self, name: str) -> None:
        self.done += 1
        if not self.live:
            return
        if self.bar:
            self._clear()
            self.shown = bar_line(self.done, self.total, time.perf_counter() - self.start,
                                  name, shutil.get_terminal_size().columns)
            self.stream.write(self.shown)
        else:
            self.stream.write(f"gridcp: {self.what} {self.done}/{self.total} {name}\n")
        self.stream.flush()

    def say(self, text: str, out: TextIO | None = None) -> None:
        bar = self.shown
        self._clear()
        say(text, out or self.stream)  # whole lines, even when interrupted
        if bar:
            self.shown = bar
            self.stream.write(bar)
            self.stream.flush()

    def _clear(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * len(self.shown) + "\r")
            self.stream.flush()
            self.shown = ""


def bar_line(done: int, total: int, seconds: float, name: str, columns: int) -> str:
    """The bar for ``columns`` characters, one fewer in fact (a terminal that wraps
    at the last column would break the line): the bar shrinks first, then the
    file name loses its start."""
    room = max(columns - 1, 1)
    counts = f" {done}/{total} {seconds:.0f} s "
    width = max(0, min(WIDTH, room - len(counts) - 2 - 12))  # keep 12 for the name
    filled = width * (done - 1) // total
    head = (f"[{'#' * filled}{'.' * (width - filled)}]" if width >= 4 else "") + counts
    left = room - len(head)
    if len(name) > left:
        name = ("..." + name[len(name) - left + 3:]) if left > 3 else ""
    return (head + name)[:room]

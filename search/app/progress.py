"""Progress of a command over many files, on stderr: a bar that redraws itself
on a terminal, plain lines otherwise (a log keeps every step)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

from search.app.arguments import say

WIDTH = 24  # characters of the bar


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
            filled = WIDTH * (self.done - 1) // self.total
            line = (f"[{'#' * filled}{'.' * (WIDTH - filled)}] {self.done}/{self.total} "
                    f"{time.perf_counter() - self.start:.0f} s {name}")
            self._clear()
            self.shown = line[:100]
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

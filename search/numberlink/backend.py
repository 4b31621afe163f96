"""The base of every Numberlink backend: what ``check`` means for Numberlink.

A Numberlink is well-designed when it has exactly one lenient solution and
that solution covers every open cell (``search.pipelines.numberlink_check``); a
backend's check answers that question with this backend alone.
"""

from __future__ import annotations

from typing import ClassVar

from search.core.contract import CALLS, Backend, CheckReport
from search.numberlink import KIND
from search.numberlink.model import Numberlink, Solution


class NumberlinkBackend(Backend[Numberlink, Solution]):
    calls: ClassVar[frozenset[str]] = frozenset(CALLS)
    rules: ClassVar[frozenset[str]] = frozenset({"lenient"})

    def check(self, puzzle: Numberlink, *, time_limit: float | None = None) -> CheckReport:
        self.offers("check")
        return KIND.call("check", puzzle, backend=self, time_limit=time_limit)

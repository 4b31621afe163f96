"""The watchdog of ``--time-limit``: it stops a task, but never inside an import."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from search.core.limits import Overtime, watchdog


def test_the_watchdog_stops_a_loop_that_does_not_look_at_the_clock() -> None:
    with pytest.raises(Overtime), watchdog(0.0):
        while True:
            pass


def test_an_import_under_way_is_finished_before_the_watchdog_stops_the_task(
        tmp_path: Path, monkeypatch) -> None:
    """A module half made by an interrupted import cannot always be made again
    (a C extension refuses a second load; OR-Tools could abort the process)."""
    (tmp_path / "slow_to_import.py").write_text(
        "import time\ntime.sleep(0.6)  # the watchdog fires during this\nFINISHED = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "slow_to_import", raising=False)
    with pytest.raises(Overtime), watchdog(0.0):
        import slow_to_import  # noqa: F401
        while True:
            pass
    assert sys.modules["slow_to_import"].FINISHED

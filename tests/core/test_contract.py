"""search.core.contract: the time budget and the effort sums every backend shares."""

from __future__ import annotations

import time

from search.core.contract import Deadline, add_effort


def test_deadline_remaining_at_most():
    assert Deadline(None).remaining() is None
    assert Deadline(None).remaining(3.0) == 3.0  # no limit: the bound alone
    deadline = Deadline(60)
    assert 59 < deadline.remaining() <= 60
    assert deadline.remaining(3.0) == 3.0
    spent = Deadline(0.0)
    time.sleep(0.01)
    assert spent.remaining() == 0.0 and spent.remaining(3.0) == 0.0  # never negative


def test_add_effort_sums_by_name():
    total = {"nodes": 3}
    add_effort(total, {"nodes": 4, "conflicts": 1.5})
    assert total == {"nodes": 7, "conflicts": 1.5}

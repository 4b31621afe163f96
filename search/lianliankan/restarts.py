"""Restarts for the Lianliankan searches: a dive that exceeds its node budget
starts again with other choices, the budgets following Luby's sequence (how
long a dive takes varies wildly with its early choices)."""

from __future__ import annotations

from search.core.contract import Deadline, LimitReached
from search.core.luby import luby


class OverBudget(Exception):
    """A dive used up its node budget: restart."""


def dive_budget(dive: int, first: int, unit: int) -> int:
    """Nodes for dive number ``dive`` (from 0): ``first``, then ``unit``
    times the dive's term of Luby's sequence."""
    return unit * luby(dive) if dive else first


class Dives:
    """The node accounting of a search with restarts: ``node_limit`` is the
    caller's budget for the whole search (LimitReached past it), ``budget``
    the current dive's (OverBudget past it)."""

    deadline: Deadline
    nodes: int
    node_limit: int | None
    budget: int

    def effort(self) -> dict[str, int]:
        """The figures of the search so far."""
        return {"nodes": self.nodes}

    def enter(self) -> None:
        """Count a node, and stop the search or the dive when a budget is spent."""
        self.deadline.check()
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise LimitReached
        if self.nodes > self.budget:
            raise OverBudget

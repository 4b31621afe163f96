"""Brute-force oracles and random tiny instances, for cross-checking backends.

One module per puzzle (``futoshiki``, ``numberlink``, ``lianliankan``): each
enumerates the solutions of a tiny puzzle by the plainest means the rules
allow and makes random instances, reading only its puzzle's model and sharing
no code with any backend, so that ``gridcp crosscheck --random`` and the tests
can hold every backend against it.  ``ORACLES`` is what the crosscheck uses.

Lianliankan's oracle answers whether a board can be cleared (``clearable``),
not its clearings: in the crosscheck its backends are compared with each other.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from search.lab.oracles import futoshiki, lianliankan, numberlink


@dataclass(frozen=True)
class Oracle:
    """What ``crosscheck --random`` needs of a puzzle: a random instance of a
    size (width, height), whether it is tiny enough for brute force, and the
    brute-force enumeration (None: the backends are compared with each other),
    and a second verifier of a solution on networkx, if the oracle has one."""

    random_instance: Callable[[tuple[int, int], random.Random], Any]
    tiny: Callable[[Any], bool]
    solutions: Callable[[Any], Iterator[Any]] | None
    default_size: tuple[int, int]
    graph_problems: Callable[[Any, Any], list[str]] | None = None


ORACLES: dict[str, Oracle] = {
    "futoshiki": Oracle(futoshiki.random_instance, futoshiki.tiny, futoshiki.solutions,
                        futoshiki.DEFAULT_SIZE),
    "numberlink": Oracle(numberlink.random_instance, numberlink.tiny, numberlink.solutions,
                         numberlink.DEFAULT_SIZE, numberlink.graph_problems),
    "lianliankan": Oracle(lianliankan.random_instance, lambda board: False, None,
                          lianliankan.DEFAULT_SIZE),
}

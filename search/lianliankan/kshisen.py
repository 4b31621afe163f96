"""KShisen's "disallow unsolvable games" filter, reimplemented from what its
documentation and the team's notes say it does (not from its code): a greedy
player that, until it is stuck, removes the first pair of one picture that a
line joins, scanning the board column by column (left to right, each column
top to bottom) for the first tile and again for its partner, and that ignores
gravity: tiles never fall in its game.  The board is "solvable" when that
game clears it.

With gravity on (KShisen's default) the filter therefore judges another game
than the one played: it may accept a board gravity makes unclearable, and it
rejects every board its greedy play gets stuck on, clearable or not.
"""

from __future__ import annotations

import dataclasses

from search.lianliankan.model import Board
from search.lianliankan.paths import Field


def kshisen_solvable(board: Board) -> bool:
    """Whether KShisen's filter accepts the board (its greedy game, no gravity)."""
    field = Field(dataclasses.replace(board, gravity=False))
    s = field.stride
    order = [r * s + c for c in range(2, field.width + 2) for r in range(2, field.height + 2)]
    cells = field.cells
    while True:
        pair = _first_pair(field, order)
        if pair is None:
            return not any(cells[i] > 0 for i in order)
        cells[pair[0]] = cells[pair[1]] = 0


def _first_pair(field: Field, order: list[int]) -> tuple[int, int] | None:
    cells = field.cells
    for k, a in enumerate(order):
        if cells[a] <= 0:
            continue
        for b in order[k + 1:]:
            if cells[b] == cells[a] and field.connected(a, b):
                return a, b
    return None

"""Rule variants: from the command line, and the ones a board is under."""

from __future__ import annotations

import dataclasses
from typing import Any

from search.core.contract import InputError
from search.lianliankan.model import Board


def apply_options(board: Board, options: dict[str, Any]) -> Board:
    """The board under the chosen variants (``border``, ``gravity``, ``turns``)."""
    turns = options.get("turns")
    if turns is not None and turns < 0:
        raise InputError(f"--turns must be 0 or more, not {turns}")
    return dataclasses.replace(
        board,
        border=bool(options.get("border", board.border)),
        gravity=bool(options.get("gravity", board.gravity)),
        turns=board.turns if turns is None else turns,
    )


def rules_of(board: Board) -> frozenset[str]:
    """The variants the board is under (two turns is the plain rule)."""
    return frozenset(name for name, on in (("border", board.border), ("gravity", board.gravity),
                                           ("turns", board.turns != 2)) if on)

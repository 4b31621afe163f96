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
    if board.fixed_rules:  # a flag may repeat the file's rules, never change them
        asked = [f"--{name}" for name in ("border", "gravity")
                 if options.get(name) and not getattr(board, name)]
        if turns not in (None, 2, board.turns):
            asked.append(f"--turns {turns}")
        if asked:
            raise InputError(f"the file states its rules ({rules_line(board)}): "
                             f"{' '.join(asked)} would change them")
        return board
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


def rules_line(board: Board) -> str:
    """The rules as a game file's ``rules:`` line states them (``plain``: none)."""
    words = [name for name in ("border", "gravity") if getattr(board, name)]
    if board.turns != 2:
        words.append(f"turns={board.turns}")
    return "rules: " + (" ".join(words) or "plain")

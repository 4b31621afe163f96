"""The safe removal under gravity, alone: what CP-SAT plays before its model
of a board with gravity, without loading the gravity search or its kernel.

When every tile left of one picture sits in the upper part of its column (no
tile of another picture above it) and those tiles can all go now, among
themselves, playing them first is safe.  In any clearing, every other tile
stays where it would have been at every step (nothing below it changed), and
the picture's cells are empty instead of full, so every other line still
holds.  (``gravity_kernel.safe_move`` is the same rule inside the search's
compiled loop, which cannot call back into Python; a test holds the two to
each other.)
"""

from __future__ import annotations

from search.lianliankan.model import Board, Move
from search.lianliankan.paths import Field

Pair = tuple[int, int, tuple[int, ...]]  # two tiles (flat indices) and the corners of a line


def safe_removals(board: Board) -> tuple[list[Move], Board]:
    """The safe pictures played in turn, until none is left, and the board after."""
    field = Field(board)
    played: list[Move] = []
    progress = True
    while progress:
        progress = False
        for tiles in field.pictures().values():
            plan = safe_plan(field, tiles)
            if plan is None:
                continue
            for a, b, corners in plan:
                played.append(field.move(a, b, corners))
                field.remove(a, b)
            progress = True
            break  # the pictures moved: read them again
    return played, field.board(board)


def safe_plan(field: Field, tiles: list[int]) -> list[Pair] | None:
    """The removals that clear one picture's ``tiles`` when it is safe, else None."""
    return _clear_alone(field, list(tiles)) if _on_top(field, tiles) else None


def _on_top(field: Field, tiles: list[int]) -> bool:
    """No tile of another picture above any of these tiles."""
    cells, s = field.cells, field.stride
    picture = cells[tiles[0]]
    top = 2 * s
    for t in tiles:
        i = t - s
        while i >= top:
            if cells[i] > 0 and cells[i] != picture:
                return False
            i -= s
    return True


def _clear_alone(field: Field, tiles: list[int]) -> list[Pair] | None:
    """Removals, played under gravity, that clear these tiles (one picture's
    tiles, in the upper part of their columns), or None."""
    if not tiles:
        return []
    a = tiles[0]
    for b in tiles[1:]:
        corners = field.line(a, b)
        if corners is None:
            continue
        before = field.cells[:]
        field.remove(a, b)
        rest = [t for t in tiles if t != a and t != b]
        rest = _fallen(field, rest, (a, b))
        later = _clear_alone(field, rest)
        field.cells[:] = before
        if later is not None:
            return [(a, b, corners), *later]
    return None


def _fallen(field: Field, tiles: list[int], gaps: tuple[int, int]) -> list[int]:
    """Where ``tiles`` are after the removal of ``gaps`` (each falls one cell
    per gap below it in its column)."""
    if not field.gravity:
        return tiles
    s = field.stride
    return [t + s * sum(1 for g in gaps if g % s == t % s and g > t) for t in tiles]

"""A second, deliberately simple implementation of the Numberlink deduction
levels of ``search.numberlink.grade``, for tests only.

No bit masks, no trail, no queue: the state is a dict from each step
(a frozenset of two neighbouring open cells) to True (on), False (off) or
None (open), copied for every probe, and every rule is checked over the
whole board after each change, until none changes anything.  Chains are
recomputed from scratch each time by a union-find over the steps on.
"""

from __future__ import annotations

from search.numberlink.model import Cell, Numberlink

Step = frozenset[Cell]
State = dict[Step, bool | None]


class Contradiction(Exception):
    pass


def steps_of(puzzle: Numberlink) -> list[Step]:
    out = []
    for r, c in puzzle.open_cells:
        for other in ((r, c + 1), (r + 1, c)):
            if puzzle.inside(other) and other not in puzzle.blocked:
                out.append(frozenset(((r, c), other)))
    return out


def around(puzzle: Numberlink, cell: Cell) -> list[Step]:
    """The steps at a cell."""
    return [frozenset((cell, other)) for other in puzzle.neighbours(cell)]


def level(puzzle: Numberlink, nst: bool = True) -> int | None:
    """0 forced moves, 1 lookahead at the heads, 2 neither fills the board;
    None on a contradiction."""
    state: State = {step: None for step in steps_of(puzzle)}
    try:
        close(puzzle, state, nst)
    except Contradiction:
        return None
    if None not in state.values():
        return 0
    changed = True
    while changed:
        changed = False
        for step in head_steps(puzzle, state):
            for value in (True, False):
                if state[step] is not None:
                    break
                trial = dict(state)
                trial[step] = value
                try:
                    close(puzzle, trial, nst)
                except Contradiction:
                    state[step] = not value
                    try:
                        close(puzzle, state, nst)
                    except Contradiction:
                        return None
                    changed = True
    return 1 if None not in state.values() else 2


def head_steps(puzzle: Numberlink, state: State) -> list[Step]:
    """Open steps at a label without a step on, or at a cell with one step on."""
    heads = set()
    for cell in puzzle.open_cells:
        on = sum(1 for s in around(puzzle, cell) if state[s])
        if on == 1 and cell not in puzzle.endpoint or on == 0 and cell in puzzle.endpoint:
            heads.add(cell)
    return [s for s, v in state.items() if v is None and s & heads]


def close(puzzle: Numberlink, state: State, nst: bool) -> None:
    """Apply every rule until nothing changes (in place); Contradiction if one fails."""
    while _round(puzzle, state, nst):
        pass


def _set(state: State, step: Step, value: bool) -> bool:
    if state[step] is None:
        state[step] = value
        return True
    if state[step] != value:
        raise Contradiction
    return False


def _round(puzzle: Numberlink, state: State, nst: bool) -> bool:
    """One pass of every rule; True if something changed."""
    find, label, changed = _chains(puzzle, state)
    changed |= _degree(puzzle, state)
    return _no_self_touch(puzzle, state, find, label) or changed if nst else changed


def _chains(puzzle: Numberlink, state: State):
    """The chains' rules; (find, label of each chain's root, changed)."""
    # chains: union-find over the steps on
    parent = {cell: cell for cell in puzzle.open_cells}

    def find(x: Cell) -> Cell:
        while parent[x] != x:
            x = parent[x]
        return x

    for step, value in state.items():
        if value:
            x, y = (find(c) for c in step)
            if x == y:
                raise Contradiction  # a loop
            parent[x] = y
    label: dict[Cell, int] = {}
    for cell, k in puzzle.endpoint.items():
        root = find(cell)
        if label.setdefault(root, k) != k:
            raise Contradiction  # a chain joins two labels
    changed = False
    for step, value in state.items():
        if value is None:
            x, y = (find(c) for c in step)
            if x == y or (x in label and y in label and label[x] != label[y]):
                changed |= _set(state, step, False)
    return find, label, changed


def _degree(puzzle: Numberlink, state: State) -> bool:
    changed = False
    for cell in puzzle.open_cells:
        mine = around(puzzle, cell)
        on = sum(1 for s in mine if state[s])
        free = [s for s in mine if state[s] is None]
        if cell in puzzle.endpoint:
            need = [1]
        elif puzzle.full_cover:
            need = [2]
        else:
            need = [0, 2]
        possible = [n for n in need if on <= n <= on + len(free)]
        if not possible:
            raise Contradiction
        if max(possible) == on:
            for s in free:
                changed |= _set(state, s, False)
        elif min(possible) == on + len(free):
            for s in free:
                changed |= _set(state, s, True)
    return changed


def _no_self_touch(puzzle: Numberlink, state: State, find, label: dict[Cell, int]) -> bool:
    changed = False
    # no self-touch: two steps in a 2 x 2 square turn its others off...
    for r in range(puzzle.height - 1):
        for c in range(puzzle.width - 1):
            a, b, d, e = (r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)
            inside = [s for s in (frozenset((a, b)), frozenset((d, e)), frozenset((a, d)),
                                  frozenset((b, e))) if s in state]
            on = sum(1 for s in inside if state[s])
            if on > 2:
                raise Contradiction
            if on == 2:
                for s in inside:
                    if state[s] is None:
                        changed |= _set(state, s, False)
    # ... and two neighbouring cells on chains of one label are linked
    for step in state:
        x, y = (find(c) for c in step)
        if x in label and y in label and label[x] == label[y] and not state[step]:
            changed |= _set(state, step, True)
    return changed

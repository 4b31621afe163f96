"""A reference oracle for the ``frontier`` backend: the same frontier
programme in plain Python, one state at a time (the engine, ``frontier_np``,
runs whole levels with numpy).  Kept in the tests to cross-check counts and
the self-avoiding bound on small boards; it was the engine's first version.

Byte values, for K pairs and W columns (position W = the right edge): 0
nothing crosses, 1 + k colour plug of pair k, MB + t mate plug (the piece's
other plug is at t), and in no-touch mode RB + m (a covered cell without a
plug, on the unlabelled piece whose leftmost plug is at m) and CB + k (a
covered cell without a plug, on pair k).  The no-touch mode drops every state
in which a cell lies next to a cell of its own path without a step between
them (where its state shows the touch): it counts a set between the
self-avoiding solutions and all of them, as the engine's bound does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from search.core.contract import Deadline
from search.numberlink.frontier.board import DOWN, RIGHT, Board, TooWide, encoding_fits, scan


@dataclass
class Run:
    """What one pass of the programme found and spent."""

    count: int
    max_states: int = 0
    cells: int = 0
    transitions: int = 0
    levels: list | None = None  # back-pointers per cell, when recorded


# Kept whole, as the engine's first version: an oracle read case by case
# against the kernel's steps, and changed as little as possible.
def run(  # noqa: C901
    board: Board,
    *,
    cap: int | None = None,
    no_touch: bool = False,
    record: int = 0,
    max_states: int = 2_000_000,
    deadline: Deadline | None = None,
) -> Run:
    """Count the solutions of ``board`` (saturated at ``cap``).

    ``record``: 0 keeps no back-pointers, n > 0 keeps parents of each state
    until their counts add up to n (n = 2 finds two solutions), -1 keeps all.
    Raises ``LimitReached`` when the deadline passes and ``TooWide`` when a
    level would exceed ``max_states`` states.
    """
    H, W, K = board.height, board.width, board.pairs
    if not encoding_fits(K, W):
        raise TooWide(f"{K} pairs on a frontier of {W} columns exceed the state encoding")
    MB = 1 + K
    RB = MB + W + 1
    CB = RB + W + 1
    # Per byte value: is it a plug, and the identity of the piece a cell carrying
    # it belongs to (for self-touch detection; 0 = none) given its position.
    is_plug = [False] * 256
    for v in range(1, RB):
        is_plug[v] = True
    kinds = board.kinds
    lenient = board.lenient
    deadline = deadline or Deadline(None)
    zero = bytes(W + 1)
    states: dict[bytes, int] = {zero: 1}
    levels: list[dict] = []
    if record:
        levels.append({zero: None})
    max_seen = 1
    transitions = 0
    cells = 0

    def ident(v: int, pos: int) -> int:
        if v == 0:
            return 0
        if v < MB:
            return CB + v - 1
        if v < RB:
            t = v - MB
            return RB + (t if t < pos else pos)
        return v

    for r, c, kind, can_right, can_down in scan(kinds, H, W, deadline):
            new: dict[bytes, int] = {}
            back: dict[bytes, list] = {}
            get = new.get

            # Each successor goes through `put`, which merges equal states.
            def put(ns: bytes, n: int, s: bytes, action: int,
                    new: dict = new, get=get, back: dict = back) -> None:
                old = get(ns, 0)
                total = old + n
                if cap is not None and total > cap:
                    total = cap
                new[ns] = total
                if record:
                    entries = back.get(ns)
                    if entries is None:
                        back[ns] = [(s, action, n)]
                    elif record < 0 or old < record:
                        entries.append((s, action, n))

            for s, n in states.items():
                lv = s[W]
                uv = s[c]
                up = uv if is_plug[uv] else 0
                if no_touch:
                    u_id = 0 if up else ident(uv, c)
                    l_id = ident(s[c - 1], c - 1) if (c and not lv) else 0
                if kind < 0:  # blocked
                    if not lv and not up:
                        b = bytearray(s)
                        b[c] = 0
                        put(bytes(b), n, s, 0)
                    continue
                if kind == 0:  # a free cell
                    if not lv and not up:
                        if lenient:
                            b = bytearray(s)
                            b[c] = 0
                            put(bytes(b), n, s, 0)
                        if can_right and can_down:
                            b = bytearray(s)
                            b[c] = MB + W
                            b[W] = MB + c
                            put(bytes(b), n, s, RIGHT | DOWN)
                        continue
                    if lv and up:  # two pieces meet here
                        if lv < MB:
                            if up < MB:
                                if lv != up:
                                    continue
                                b = bytearray(s.replace(bytes((CB + lv - 1,)), b"\0")
                                              if no_touch else s)
                                b[c] = 0
                                b[W] = 0
                                put(bytes(b), n, s, 0)
                                continue
                            colour, t, p = lv, up - MB, c
                        elif up < MB:
                            colour, t, p = up, lv - MB, W
                        else:
                            t1, t2 = lv - MB, up - MB
                            if t1 == c:
                                continue  # the piece would close into a loop
                            ref = RB + (t1 if t1 < t2 else t2)
                            if no_touch:
                                s2 = s.replace(bytes((RB + t1,)), bytes((ref,)))
                                s2 = s2.replace(bytes((RB + (t2 if t2 < c else c),)),
                                                bytes((ref,)))
                                b = bytearray(s2)
                                b[c] = ref
                            else:
                                b = bytearray(s)
                                b[c] = 0
                            b[W] = 0
                            b[t1] = MB + t2
                            b[t2] = MB + t1
                            put(bytes(b), n, s, 0)
                            continue
                        # a coloured piece meets an unlabelled one: colour its other end
                        put(_coloured(s, c, t, W, colour, RB + (t if t < p else p),
                                      CB + colour - 1 if no_touch else None), n, s, 0)
                        continue
                    # one piece arrives and goes on, down or right
                    if lv:
                        v, p = lv, W
                        if no_touch and u_id and u_id == ident(v, p):
                            continue
                    else:
                        v, p = up, c
                        if no_touch and l_id and l_id == ident(v, p):
                            continue
                    if v < MB:
                        _leave(put, s, n, c, W, v, (CB + v - 1) if no_touch else 0,
                               can_down, can_right)
                        continue
                    t = v - MB
                    old_ref = RB + (t if t < p else p)
                    for q, action, ok in ((c, DOWN, can_down), (W, RIGHT, can_right)):
                        if not ok:
                            continue
                        if no_touch:
                            ref = RB + (t if t < q else q)
                            b = bytearray(s if ref == old_ref else
                                          s.replace(bytes((old_ref,)), bytes((ref,))))
                            b[c] = MB + t if q == c else ref
                        else:
                            b = bytearray(s)
                            b[c] = MB + t if q == c else 0
                        b[W] = MB + t if q == W else 0
                        b[t] = MB + q
                        put(bytes(b), n, s, action)
                    continue
                # an end of pair `kind - 1`
                colour = kind
                cref = CB + colour - 1
                if lv and up:
                    continue
                if not lv and not up:
                    if no_touch and (u_id == cref or l_id == cref):
                        continue
                    _leave(put, s, n, c, W, colour, cref if no_touch else 0,
                           can_down, can_right)
                    continue
                v, p = (lv, W) if lv else (up, c)
                if no_touch:
                    other = u_id if lv else l_id
                    if other and (other == cref or other == ident(v, p)):
                        continue
                if v < MB:
                    if v != colour:
                        continue
                    b = bytearray(s.replace(bytes((cref,)), b"\0") if no_touch else s)
                    b[c] = 0
                    b[W] = 0
                    put(bytes(b), n, s, 0)
                    continue
                t = v - MB
                put(_coloured(s, c, t, W, colour, RB + (t if t < p else p),
                              cref if no_touch else None), n, s, 0)
            transitions += len(states)
            cells += 1
            states = new
            if len(states) > max_seen:
                max_seen = len(states)
                if max_seen > max_states:
                    raise TooWide(
                        f"more than {max_states} frontier states after cell ({r}, {c}) of a "
                        f"{H}x{W} board; raise max_states or use another backend")
            if record:
                levels.append(back)
            if not states:
                return Run(0, max_seen, cells, transitions, levels if record else None)
    count = states.get(zero, 0)
    return Run(count, max_seen, cells, transitions, levels if record else None)


def _leave(put: Callable[[bytes, int, bytes, int], None], s: bytes, n: int, c: int,
           W: int, colour: int, mark: int, can_down: bool, can_right: bool) -> None:
    """A path of ``colour`` leaves cell ``c`` downwards (the cell's frontier
    slot carries the colour) or rightwards (the carry slot ``W`` does, and the
    cell keeps ``mark``: its colour reference without self-touching, else 0)."""
    if can_down:
        b = bytearray(s)
        b[c] = colour
        b[W] = 0
        put(bytes(b), n, s, DOWN)
    if can_right:
        b = bytearray(s)
        b[c] = mark
        b[W] = colour
        put(bytes(b), n, s, RIGHT)


def _coloured(s: bytes, c: int, t: int, W: int, colour: int, ref: int,
              cref: int | None) -> bytes:
    """State ``s`` after a coloured piece met an unlabelled one whose other end
    is at ``t``: that end takes the colour, cell ``c`` leaves the frontier (or,
    without self-touching, the piece's reference ``ref`` becomes the colour
    reference ``cref``)."""
    if cref is not None:
        b = bytearray(s.replace(bytes((ref,)), bytes((cref,))))
        b[c] = cref
    else:
        b = bytearray(s)
        b[c] = 0
    b[W] = 0
    b[t] = colour
    return bytes(b)

"""Deadlock cores of a Lianliankan board without gravity: clauses over pairs,
found by a small pairing search before CP-SAT runs.

A set S of tiles and a set E of pairs form a *core* when every line of every
pair with a tile in S, except the pairs of E, has a blocker in S (other than
the pair's own tiles).  Then some pair of E is chosen: the tile of S that
goes first (with its pair) needs one of the pair's lines clear, but a line
with a blocker in S waits for a tile that goes no earlier; so its pair is in
E.  With E empty, S can never go (the reachability check's refutation).

The search fixes partners, one tile at a time (the tile with the fewest
partners left first), and runs the reachability relaxation
(``earliest_steps``) over the pairs still allowed.  When some tiles are
never reached, they are an S whose E (the pairs with a line clear of S) lies
among the pairs the branch excluded: a core, the branch closes.  Its clauses
are what CP-SAT lacks: its bounds reach the same conflict only by creeping
one step at a time.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence

from search.core.contract import Deadline
from search.lianliankan.model import Cell

Pair = tuple[Cell, Cell]
Lines = Mapping[Pair, Sequence[frozenset[Cell]]]


def deadlock_cores(
    lines: Lines, reached: Callable[[Lines], set[Cell]], budget: int = 2000,
    deadline: Deadline | None = None,
) -> tuple[bool, list[frozenset[Pair]]]:
    """Whether the pairing search closes every branch within ``budget`` runs of
    the relaxation (work, not time), and the E of every core it meets, given each pair's lines
    as the sets of tiles in their way (every line the pair may use) and
    ``reached``, the tiles the relaxation reaches over some lines.  Stops
    early, every core still sound, when ``deadline`` passes."""
    tiles = sorted({t for p in lines for t in p})
    partners: dict[Cell, list[Pair]] = defaultdict(list)
    for p in lines:
        for t in p:
            partners[t].append(p)
    # One tile per picture is probed: tiles whose pairs start at the same
    # tile share a picture (a heuristic choice; any choice is sound).
    picture = {t: min(min(p) for p in partners[t]) for t in tiles}
    found: set[frozenset[Pair]] = set()
    runs = 0

    def spent() -> bool:
        return runs >= budget or bool(deadline and deadline.expired())

    def fails(allowed: frozenset[Pair]) -> bool:
        """Whether the relaxation leaves a tile stuck (its core recorded)."""
        nonlocal runs
        runs += 1
        stuck = set(tiles) - reached({p: lines[p] for p in allowed})
        if stuck:
            found.add(escapes(lines, stuck, partners))
        return bool(stuck)

    def fixed(allowed: frozenset[Pair], p: Pair) -> frozenset[Pair]:
        return allowed - {q for s in p for q in partners[s] if q != p}

    def search(allowed: frozenset[Pair]) -> bool:
        """Whether every pairing under ``allowed`` fails (each by a core)."""
        if spent():
            return False
        if fails(allowed):
            return True
        # Look-ahead, as the exact search's: every partner of one open tile
        # per picture; a partner whose pairing fails is dropped.
        firsts: dict[Cell, Cell] = {}
        for t in tiles:
            if sum(p in allowed for p in partners[t]) > 1:
                firsts.setdefault(picture[t], t)
        for t in firsts.values():
            for p in partners[t]:
                if p in allowed and not spent() and fails(fixed(allowed, p)):
                    allowed = allowed - {p}
        if spent():
            return False
        if fails(allowed):
            return True
        open_tiles = [(n, t) for t in tiles
                      if (n := sum(p in allowed for p in partners[t])) > 1]
        if not open_tiles:
            return False  # a pairing the relaxation lets through
        _, t = min(open_tiles)
        return all(search(fixed(allowed, p)) for p in partners[t] if p in allowed)

    closed = search(frozenset(lines))
    return closed, sorted(found, key=lambda core: (len(core), sorted(core)))


def escapes(lines: Lines, stuck: set[Cell],
            partners: Mapping[Cell, Sequence[Pair]]) -> frozenset[Pair]:
    """The E of the core of S = ``stuck``: the pairs of its tiles with a line
    clear of S."""
    return frozenset(p for t in stuck for p in partners[t]
                     if any(not line & stuck for line in lines[p]))

"""Tatham's grades: the weakest reasoning that solves a puzzle.

Simon Tatham's Unequal (``unequal.c`` with ``latin.c``) grades a puzzle by the
lowest level of its deductive solver that fills the grid, each level adding
rules to the ones below:

* ``trivial``: a value with one place left in a row or column goes there, a
  cell with one value left takes it, and a placed value leaves its row and
  column (Tatham's positional and numeric elimination);
* ``easy``: an inequality keeps the greater cell above the smaller one's
  lowest value and the smaller below the greater's highest (Adjacent mode: a
  placed value leaves its barred neighbours only the values 1 away, its
  unbarred ones only values at least 2 away);
* ``tricky``: set elimination in every row and column: ``k`` values that only
  ``k`` cells of the line can take are those cells' only values (hidden and
  naked pairs, triples, ...; Adjacent mode: the bars also act on whole domains);
* ``extreme``: the same set elimination in each value's plane (rows against
  columns: X-wings, swordfish), then forcing chains: a chain of two-value
  cells, each in line with the next, along which ruling out ``v`` at one end
  forces ``v`` at the other, rules ``v`` out of a cell in line with both ends;
* ``recursive``: none of those solves it; it takes guessing.

Tatham's solver restarts from the lowest level after every deduction, so
before it uses a level the rules below have reached their fixpoint.  Every
rule up to the planes only removes values and stays valid when other values
go, so that fixpoint does not depend on the order of the deductions, and this
grader reaches it with the propagation engine of the ``propagate`` backend
(Régin's Hall-set filtering is exactly set elimination carried to its
fixpoint), running the deductions of ``TATHAM`` (a table of named rules,
each a function, by grade, as ``unequal.c``'s table of solvers) up to a
grade.  Forcing chains are the one rule whose result depends on the state:
they run, as in Tatham's solver, one deduction at a time from that
fixpoint, scanning cells in row-major order and each chain breadth-first,
column before row.  The grade is the lowest level whose fixpoint fills the
grid, which is what Tatham's generator guarantees (solved at the grade, not
at the grade below).
"""

from __future__ import annotations

from search.core.contract import Status
from search.futoshiki.model import Futoshiki
from search.futoshiki.propagate import BOARD, DEDUCTIONS, Deduction, Engine, PropagateBackend
from search.futoshiki.verify import verify

GRADES = ("trivial", "easy", "tricky", "extreme", "recursive")


def grade(puzzle: Futoshiki, unique: bool | None = None) -> str | None:
    """The grade of a puzzle with one solution; None if it has none or several.

    ``unique`` tells what a caller knows already (True: exactly one solution),
    so that a Recursive-grade puzzle is not searched again.
    """
    found = solved_at(puzzle)
    if found is not None:
        return found
    if unique is None:
        unique = PropagateBackend(progress=False).unique(puzzle).status is Status.UNIQUE
    return "recursive" if unique else None


def solved_at(puzzle: Futoshiki) -> str | None:
    """The lowest of Tatham's deductive levels (trivial .. extreme) whose rules fill
    the grid of ``puzzle``; None if none does (guessing needed, or no solution)."""
    engine = Engine(puzzle, up_to("trivial"))
    if not engine.ok:
        return None
    for name in GRADES[:-1]:
        engine.use(up_to(name))
        if not engine.propagate():
            return None
        if _filled(engine):
            # the rules below ``easy`` ignore the inequalities: a grid they fill is
            # the puzzle's solution only if it keeps them
            return None if verify(puzzle, engine.solution()) else name
    return None


def up_to(name: str) -> tuple[Deduction, ...]:
    """The deductions of grade ``name`` and of the grades below it."""
    known = GRADES[: GRADES.index(name) + 1]
    return tuple(d for d in TATHAM if d.grade in known)


def _filled(engine: Engine) -> bool:
    return all(d & (d - 1) == 0 for d in engine.dom)


def _forcing_chain(engine: Engine) -> bool:
    """One forcing-chain deduction, applied; False if there is none.

    From each two-value cell ``s`` (row-major) and each of its values ``v``:
    suppose ``s`` is not ``v``, so it is its other value; a two-value cell in
    line with a cell forced to ``w`` and holding ``w`` is forced to its other
    value, and so on breadth-first.  When a cell ``c`` on the chain is forced
    to ``v``, either ``s`` or ``c`` holds ``v``, so a cell in line with both
    loses ``v``.
    """
    n, dom = engine.n, engine.dom
    for start in range(n * n):
        d = dom[start]
        if d.bit_count() != 2:
            continue
        sr, sc = divmod(start, n)
        rest = d
        while rest:
            ruled_out = rest & -rest
            rest ^= ruled_out
            forced = {start: d ^ ruled_out}  # cell -> the value bit it is forced to
            queue = [start]
            for cell in queue:
                r, c = divmod(cell, n)
                value = forced[cell]
                for other in [k * n + c for k in range(n)] + [r * n + k for k in range(n)]:
                    if other in forced or not dom[other] & value:
                        continue
                    e = dom[other]
                    if e.bit_count() == 2:
                        forced[other] = e ^ value
                        queue.append(other)
                    if value == ruled_out and (other // n == sr or other % n == sc):
                        return engine.narrow(other, e & ~value) or True
    return False


def _forcing_chains(engine: Engine) -> bool:
    """Forcing chains as a rule of the engine: one deduction at a time, after
    which the engine runs the cheaper rules again (as Tatham's solver does)."""
    _forcing_chain(engine)
    return True


# Tatham's deductions by grade (``unequal.c``'s solvers and ``latin.c``'s):
# the engine's rules, then forcing chains.
TATHAM: tuple[Deduction, ...] = (
    *DEDUCTIONS, Deduction("forcing chains", "extreme", BOARD, run=_forcing_chains))

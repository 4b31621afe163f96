"""A Futoshiki as a DIMACS CNF whose models are its solutions, one to one: the
input of a #SAT counter, so that other people's model counters can check
``count``.

Variable ``x(r, c, v) = (r * n + c) * n + v`` (``v`` in ``1..n``) says that cell
``(r, c)`` holds ``v``.  The clauses:

- every cell holds exactly one value (one clause, then one per pair);
- every row and every column holds each value at most once (one per pair)
  and at least once (redundant beside the cells' clauses, but it lets a
  counter's propagation see a value with one place left);
- a given is a unit clause;
- ``a < b``: ``a = v`` implies ``b > v`` and ``b = w`` implies ``a < w``
  (the second is the first read backwards: both for propagation);
- Adjacent mode: a bar's two cells differ by 1 (``a = v`` implies
  ``b = v - 1`` or ``b = v + 1``, and the same from ``b``); two neighbours
  without a bar never do (one clause per pair of values one apart).

Exactly one value per cell and at most one per row, column and value make
every model a Latin square, so the models are the solutions and nothing more
(the tests count both).  No auxiliary variables: a projected count is not
needed.
"""

from __future__ import annotations

from collections.abc import Iterator

from search.futoshiki.model import Cell, Futoshiki

Clause = tuple[int, ...]


def variable(n: int, cell: Cell, value: int) -> int:
    """The DIMACS variable of ``cell`` holding ``value`` (1-based, as DIMACS counts)."""
    return (cell[0] * n + cell[1]) * n + value


def clauses(puzzle: Futoshiki) -> Iterator[Clause]:
    """The clauses, in the order the module's docstring lists them."""
    n = puzzle.n
    values = range(1, n + 1)
    lines = [[(i, j) for j in range(n)] for i in range(n)]
    lines += [[(j, i) for j in range(n)] for i in range(n)]
    for cell in puzzle.cells:
        yield from _exactly_one([variable(n, cell, v) for v in values])
    for line in lines:
        for v in values:
            yield from _exactly_one([variable(n, cell, v) for cell in line])
    for cell in puzzle.cells:
        if puzzle.given(cell):
            yield (variable(n, cell, puzzle.given(cell)),)
    for a, b in puzzle.less:
        for v in values:
            yield (-variable(n, a, v), *(variable(n, b, w) for w in values if w > v))
            yield (-variable(n, b, v), *(variable(n, a, w) for w in values if w < v))
    if puzzle.adjacent:
        for a, b, bar in puzzle.adjacency():
            for v in values:
                if bar:
                    yield (-variable(n, a, v), *(variable(n, b, w) for w in (v - 1, v + 1)
                                                  if 1 <= w <= n))
                    yield (-variable(n, b, v), *(variable(n, a, w) for w in (v - 1, v + 1)
                                                  if 1 <= w <= n))
                elif v < n:
                    yield (-variable(n, a, v), -variable(n, b, v + 1))
                    yield (-variable(n, a, v + 1), -variable(n, b, v))


def dimacs(puzzle: Futoshiki) -> str:
    """The DIMACS text: a comment naming the encoding, ``p cnf V C``, one clause a line."""
    body = [" ".join(map(str, clause)) + " 0" for clause in clauses(puzzle)]
    head = [f"c gridcp: a {puzzle.n}x{puzzle.n} Futoshiki, x(r,c,v) = (r*n+c)*n+v",
            f"p cnf {puzzle.n ** 3} {len(body)}"]
    return "\n".join(head + body) + "\n"


def _exactly_one(literals: list[int]) -> Iterator[Clause]:
    yield tuple(literals)
    for i, first in enumerate(literals):
        for second in literals[i + 1:]:
            yield (-first, -second)

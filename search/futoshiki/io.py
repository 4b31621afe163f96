"""Futoshiki files: the seed's format (read and write) and the dispatch to the
other formats gridcp reads (``formats.py``).

The seed format: the first line is n, then 2n-1 lines.  Row lines hold n
values (0 = empty) separated by ``|`` (no relation), ``<`` or ``>``.  Between
two row lines, n tokens ``-`` (none), ``^`` (upper < lower) or ``v`` (upper >
lower), separated by n-1 filler ``-`` tokens.  Tokens are separated by white
space::

    3
    0 | 0 < 0
    - - ^ - -
    0 > 0 | 0
    v - - - -
    0 | 0 | 2
"""

from __future__ import annotations

import re
from dataclasses import replace

from search.core.contract import InputError
from search.core.inputs import Cells, integer, is_integer, numbered, shown
from search.core.limits import check_cells
from search.core.registry import furthest
from search.futoshiki.formats import READERS, format_tatham_text, sniff_format, unequal_only
from search.futoshiki.model import Cell, Futoshiki, Solution

_ROW_SEPARATORS = {"|": 0, "<": -1, ">": 1}  # sign of left relative to right
_COLUMN_RELATIONS = {"-": 0, "^": -1, "v": 1, "V": 1}  # sign of upper relative to lower
_LEFT = {sign: token for token, sign in _ROW_SEPARATORS.items()}
_UP = {0: "-", -1: "^", 1: "v"}
_INTEGER = re.compile(r"[+-]?[0-9]+")


def looks_like_seed(text: str) -> bool:
    found = []
    for _, line in numbered(text):
        if line and not line.isspace():
            found.append(line)
            if len(found) == 2:
                break
    return (
        len(found) == 2
        # any digits, so that a '³' or a 5,000-digit order gets the seed reader's message
        and (_INTEGER.fullmatch(found[0].strip()) is not None or found[0].strip().isdigit())
        and "," not in found[1]
    )


def sniff(text: str) -> bool:
    """Does this text look like a Futoshiki file in any format gridcp reads?"""
    if looks_like_seed(text):
        return True
    return sniff_format(text) is not None


def parse(text: str, source: str = "<input>") -> Futoshiki:
    """A puzzle from the seed format or any other format that ``formats.py`` reads."""
    if looks_like_seed(text):
        return parse_seed(text, source)
    fmt = sniff_format(text)
    if fmt is None:
        raise furthest({"seed": parse_seed, **READERS}, text, source,
                       "not a Futoshiki file in any known format",
                       "it reads as the {name} format")
    return READERS[fmt](text, source)


def parse_seed(text: str, source: str = "<input>") -> Futoshiki:
    """The seed format: n first, then its 2n - 1 lines, each split only once n
    allows it (``Cells``), so that a huge file is refused before it is split."""
    rows = [(number, line) for number, line in numbered(text) if line and not line.isspace()]
    if not rows:
        raise InputError("empty file", source)
    number, line = rows[0]
    tokens = line.split(maxsplit=1)
    if len(tokens) != 1 or not is_integer(tokens[0]):
        raise InputError(f"the first line must be the order n >= 1, found {shown(line.strip())}",
                         source, number)
    n = integer(tokens[0], source, number, "the order n")
    if n < 1:
        raise InputError(f"the first line must be the order n >= 1, found {n}", source, number)
    check_cells(n, n, source, number, "square")
    body = rows[1:]
    if len(body) != 2 * n - 1:
        where = body[-1][0] if body else number
        raise InputError(f"n = {n} needs {2 * n - 1} lines after the first, found {len(body)}",
                         source, where)
    cells = Cells(source, "square", per_cell=4)  # 2n - 1 rows of 2n - 1 tokens
    givens: list[tuple[int, ...]] = []
    less: list[tuple[Cell, Cell]] = []
    for i, (number, line) in enumerate(body):
        tokens = cells.words(line, number)
        r = i // 2
        if len(tokens) != 2 * n - 1:
            what = "values and separators" if i % 2 == 0 else "relation and filler tokens"
            raise InputError(f"expected {2 * n - 1} {what}, found {len(tokens)}", source, number)
        if i % 2 == 0:
            givens.append(_row_values(tokens, number, source))
            for c in range(n - 1):
                sign = _token(tokens[2 * c + 1], _ROW_SEPARATORS, "a separator |, < or >",
                              number, source)
                less += _ordered((r, c), (r, c + 1), sign)
        else:
            for c in range(n):
                sign = _token(tokens[2 * c], _COLUMN_RELATIONS, "a relation -, ^ or v",
                              number, source)
                less += _ordered((r, c), (r + 1, c), sign)
            for c in range(n - 1):
                if tokens[2 * c + 1] != "-":
                    raise InputError(f"token {2 * c + 2} must be the filler '-', "
                                     f"found {shown(tokens[2 * c + 1])}", source, number)
    return Futoshiki(n, tuple(givens), tuple(sorted(less)))


def _row_values(tokens: list[str], number: int, source: str) -> tuple[int, ...]:
    values = []
    for k in range(0, len(tokens), 2):
        if not _INTEGER.fullmatch(tokens[k]):
            hint = " (a relation belongs between rows)" if tokens[k] in "^vV" else ""
            raise InputError(f"token {k + 1} must be a value, found {shown(tokens[k])}{hint}",
                             source, number)
        values.append(integer(tokens[k], source, number, f"token {k + 1}"))
    return tuple(values)


def _token(token: str, table: dict[str, int], what: str, number: int, source: str) -> int:
    if token not in table:
        raise InputError(f"expected {what}, found {shown(token)}", source, number)
    return table[token]


def _ordered(a: Cell, b: Cell, sign: int) -> list[tuple[Cell, Cell]]:
    """The relation between a and b as a (smaller, larger) pair."""
    return [] if sign == 0 else [(a, b)] if sign < 0 else [(b, a)]


def format_puzzle(puzzle: Futoshiki) -> str:
    """The puzzle's own file: the seed format, or for Adjacent mode (which the seed
    format cannot express) Tatham's text grid."""
    if puzzle.adjacent:
        return format_tatham_text(puzzle)
    return format_seed(puzzle)


def format_seed(puzzle: Futoshiki, grid: tuple[tuple[int, ...], ...] | None = None) -> str:
    """The seed's printout: the first line n, then the square (``grid`` or the givens)."""
    unequal_only(puzzle, "seed")
    return f"{puzzle.n}\n{format_square(puzzle, grid)}"


def format_square(puzzle: Futoshiki, grid: tuple[tuple[int, ...], ...] | None = None) -> str:
    """The square as the seed's ``print_futoshiki`` prints it, without the size line."""
    n, grid = puzzle.n, grid or puzzle.givens
    lines = []
    for r in range(n):
        if r > 0:
            lines.append(" - ".join(_UP[puzzle.sign((r - 1, c), (r, c))] for c in range(n)))
        row = str(grid[r][0])
        for c in range(1, n):
            row += f" {_LEFT[puzzle.sign((r, c - 1), (r, c))]} {grid[r][c]}"
        lines.append(row)
    return "\n".join(lines) + "\n"


def format_solution(puzzle: Futoshiki, solution: Solution) -> str:
    """The solved square; in Adjacent mode as Tatham prints it, bars included."""
    if puzzle.adjacent:
        return format_tatham_text(replace(puzzle, givens=solution.grid))
    return format_square(puzzle, solution.grid)


def solution_json(puzzle: Futoshiki, solution: Solution) -> list[list[int]]:
    return [list(row) for row in solution.grid]


def key(puzzle: Futoshiki, solution: Solution) -> tuple[tuple[int, ...], ...]:
    return solution.grid


def describe(puzzle: Futoshiki) -> str:
    return f"{puzzle.n}x{puzzle.n}"

"""Futoshiki files in formats other than the seed's: readers, writers and a sniffer.

    tatham       Simon Tatham's Unequal game ID, ``5:0R,0,0D,...`` (``5dx:...`` with a grade)
    tatham-text  the text dump of Tatham's Unequal (``game_text_format``), no size line
    csv          the VifeAgent CSV: size, values, horizontal then vertical relations as 0/1/-1
    dat          hakank's AMPL data: ``param values`` and ``param lt`` (1-based, a < b)

Each reader is ``parse_<format>(text, source) -> Futoshiki`` and raises ``InputError``
with the line of the first problem.  ``sniff_format(text)`` names the format of a
text, or returns None (the seed format, read by ``io``, or no Futoshiki at all).
The grammars are in ``docs/futoshiki-formats.md``.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from search.core.contract import GridcpError, InputError
from search.core.inputs import Cells, integer, is_integer, numbered, shown
from search.core.limits import check_cells
from search.futoshiki.model import Cell, Futoshiki

MAX_TATHAM_ORDER = 32  # Tatham's validate_params: orders 3..32 (gridcp also reads 1 and 2)
TATHAM_GRADES = {"t": "Trivial", "e": "Easy", "k": "Tricky", "x": "Extreme", "r": "Recursive"}

# A relation as a reader collects it: (smaller cell, larger cell, line it came from).
Relation = tuple[Cell, Cell, int]

_NO_INEQUALITIES = "an Adjacent-mode grid has bars ('|', '-'), not inequalities"


def build(n: int, givens: list[list[int]], relations: Iterable[Relation], source: str,
          adjacent: bool = False) -> Futoshiki:
    """The puzzle, after checking that every relation joins two neighbours inside the
    grid and that no pair of cells is claimed both ways.  In Adjacent mode the
    relations are bars (their order does not matter)."""
    seen: dict[tuple[Cell, Cell], int] = {}
    for a, b, line in relations:
        if adjacent:
            a, b = min(a, b), max(a, b)
        if not all(0 <= r < n and 0 <= c < n for r, c in (a, b)):
            raise InputError(f"relation {_cell(a)} < {_cell(b)} leaves the {n} x {n} grid",
                             source, line)
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            raise InputError(f"relation {_cell(a)} < {_cell(b)} joins cells that are not "
                             "neighbours", source, line)
        if (b, a) in seen and not adjacent:
            raise InputError(f"{_cell(a)} < {_cell(b)} contradicts {_cell(b)} < {_cell(a)} "
                             f"(line {seen[b, a]})", source, line)
        seen.setdefault((a, b), line)
    grid = tuple(map(tuple, givens))
    if adjacent:
        return Futoshiki(n, grid, adjacent=True, bars=tuple(sorted(seen)))
    return Futoshiki(n, grid, tuple(sorted(seen)))


def _cell(cell: Cell) -> str:
    """A cell for messages, 1-based as people count: (row 2, col 3)."""
    return f"(row {cell[0] + 1}, col {cell[1] + 1})"


def _check_value(value: int, n: int, source: str, line: int, where: str) -> int:
    if not 0 <= value <= n:
        raise InputError(f"{where}: value {value} out of range 0..{n}", source, line)
    return value


def _content_lines(text: str) -> list[tuple[int, str]]:
    """(line number, stripped line) of the lines that are neither blank nor ``#`` comments."""
    return [
        (number, line.strip())
        for number, line in numbered(text)
        if line.strip() and not line.lstrip().startswith("#")
    ]


# ---------------------------------------------------------------- Tatham game ID

# params := ORDER ['a'] ['d' GRADE]; the description is checked cell by cell below.
_TATHAM_ID = re.compile(r"([0-9]+)(a?)(?:d(.))?:(\S*)")
_TATHAM_CELL = re.compile(r"([a-z]*)([0-9]+)([URDL]*)")
# flag -> (row step, col step) towards the smaller neighbour
_FLAG_STEP = {"U": (-1, 0), "R": (0, 1), "D": (1, 0), "L": (0, -1)}
_OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}


def parse_tatham(text: str, source: str = "<input>") -> Futoshiki:
    """One game ID ``ORDER[a][dGRADE]:DESC``; blank and ``#`` lines around it are skipped."""
    lines = _content_lines(text)
    if not lines:
        raise InputError("no game ID", source)
    if len(lines) > 1:
        raise InputError("one game ID per file (found another one)", source, lines[1][0])
    line, game_id = lines[0]
    if "#" in game_id.partition(":")[0]:
        raise InputError("a random-seed ID ('5#...') only makes sense to Tatham's generator; "
                         "give the game ID 'ORDER:DESCRIPTION'", source, line)
    found = _TATHAM_ID.fullmatch(game_id)
    if not found:
        raise InputError("not a Tatham game ID: expected 'ORDER:DESCRIPTION', "
                         "e.g. '4:0,0L,0,3,...'", source, line)
    order, adjacent, grade, desc = found.groups()
    n = integer(order, source, line, "the order")
    if grade is not None and grade not in TATHAM_GRADES:
        raise InputError(f"unknown grade {shown('d' + grade)} (known: "
                         + ", ".join(f"d{k} {v}" for k, v in TATHAM_GRADES.items()) + ")",
                         source, line)
    if not 1 <= n <= MAX_TATHAM_ORDER:
        raise InputError(f"order {n} out of range 1..{MAX_TATHAM_ORDER}", source, line)

    values = [0] * (n * n)
    flags = [""] * (n * n)
    index, pos = 0, 0
    while pos < len(desc):
        cell = _TATHAM_CELL.match(desc, pos)
        if not cell:
            raise InputError(f"cell {index + 1}: expected a number, then flags U R D L, "
                             f"found {shown(desc[pos:pos + 8])}", source, line)
        skip, number, flag = cell.groups()
        index += sum(ord(letter) - ord("a") + 1 for letter in skip)
        if index >= n * n:
            raise InputError(f"more than {n * n} cells for order {n}", source, line)
        values[index] = _check_value(integer(number, source, line, f"cell {index + 1}"), n,
                                     source, line, f"cell {index + 1}")
        flags[index] = flag
        index, pos = index + 1, cell.end()
        if pos < len(desc):
            if desc[pos] != ",":
                raise InputError(f"cell {index}: unexpected {shown(desc[pos])} (flags are U, R, D, "
                                 "L; cells are separated by ',')", source, line)
            pos += 1
    if index < n * n:
        raise InputError(f"{index} cells for order {n}: expected {n * n}", source, line)

    relations = []
    for i, letters in enumerate(flags):
        for letter in letters:
            (r, c), (dr, dc) = divmod(i, n), _FLAG_STEP[letter]
            other = (r + dr, c + dc)  # the smaller cell; in Adjacent mode, the barred one
            if not (0 <= other[0] < n and 0 <= other[1] < n):
                raise InputError(f"cell {_cell((r, c))}: flag {letter} points off the grid",
                                 source, line)
            back = _OPPOSITE[letter] in flags[other[0] * n + other[1]]
            if adjacent and not back:  # Tatham: a bar is flagged from both of its cells
                raise InputError(f"cell {_cell((r, c))}: bar {letter} is not flagged back "
                                 f"by {_cell(other)}", source, line)
            relations.append((other, (r, c), line))
    return build(n, _rows(values, n), relations, source, adjacent=bool(adjacent))


def format_tatham(puzzle: Futoshiki) -> str:
    """The game ID, as Tatham's generator writes it: the flag sits on the larger cell
    (Adjacent mode, ``ORDERa:``: on both cells of a bar)."""
    if puzzle.n > MAX_TATHAM_ORDER:
        raise GridcpError(f"Tatham game IDs stop at order {MAX_TATHAM_ORDER}")
    step_flag = {step: flag for flag, step in _FLAG_STEP.items()}
    flags: dict[Cell, set[str]] = {}
    pairs = puzzle.bars + tuple((b, a) for a, b in puzzle.bars) if puzzle.adjacent \
        else puzzle.less
    for (sr, sc), (lr, lc) in pairs:
        flags.setdefault((lr, lc), set()).add(step_flag[sr - lr, sc - lc])
    desc = "".join(
        f"{puzzle.given(cell)}{''.join(f for f in 'URDL' if f in flags.get(cell, ()))},"
        for cell in puzzle.cells
    )
    return f"{puzzle.n}{'a' if puzzle.adjacent else ''}:{desc}\n"


def _rows(values: list[int], n: int) -> list[list[int]]:
    return [values[r * n:(r + 1) * n] for r in range(n)]


# ---------------------------------------------------------------- Tatham text dump

_TEXT_CELL = re.compile(r"[.0-9A-Za-z]")
_TEXT_ROW = re.compile(r"[.0-9A-Za-z](?:[ <>|][.0-9A-Za-z])+")
_TEXT_BETWEEN = re.compile(r"[v^ -](?: [v^ -])*")


def parse_tatham_text(text: str, source: str = "<input>") -> Futoshiki:
    """Row lines ``cell sep cell ...`` and between lines ``rel rel ...``; no size line.

    Cells are ``.`` (empty) or digits; from order 10 on ``0``..``9`` mean 1..10 and
    ``A``.. mean 11..  Blank between lines are meaningful, so only trailing blank lines
    are dropped.
    """
    lines = text.rstrip("\n ").split("\n") if text.strip() else []
    if not lines:
        raise InputError("no grid", source)
    n = (len(lines[0].rstrip()) + 1) // 2
    if n < 1:
        raise InputError("the first line must be a row of cells", source, 1)
    check_cells(n, n, source, 1, "square")
    if len(lines) != 2 * n - 1:
        raise InputError(f"the first row has {n} cells, so {2 * n - 1} lines were expected, "
                         f"found {len(lines)}", source, min(len(lines), 2 * n))
    givens: list[list[int]] = []
    relations: list[Relation] = []
    marks: dict[str, int] = {}  # the first line of each kind of mark: '<', '|', ...
    for number, raw in enumerate(lines, start=1):
        line = raw.rstrip("\r").rstrip()
        if len(line) > 2 * n - 1:
            raise InputError(f"line longer than the {2 * n - 1} characters of an order-{n} grid",
                             source, number)
        line = line.ljust(2 * n - 1)
        r = (number - 1) // 2
        if number % 2:
            givens.append(_text_row(line, r, n, source, number, relations))
        else:
            _text_between(line, r, n, source, number, relations)
        for mark in set(line) & set("<>^v|-"):
            marks.setdefault(mark, number)
    bars = [marks[m] for m in "|-" if m in marks]
    signs = [marks[m] for m in "<>^v" if m in marks]
    if bars and signs:
        raise InputError(_NO_INEQUALITIES, source, max(min(bars), min(signs)))
    return build(n, givens, relations, source, adjacent=bool(bars))


def _text_row(line: str, r: int, n: int, source: str, number: int,
              relations: list[Relation]) -> list[int]:
    row = []
    for c in range(n):
        char = line[2 * c]
        if not _TEXT_CELL.fullmatch(char):
            raise InputError(f"column {c + 1}: expected '.' or a digit, found {char!r}",
                             source, number)
        value = _text_value(char, n)
        if value is None or value > n:
            raise InputError(f"column {c + 1}: {char!r} is not a value of an order-{n} grid",
                             source, number)
        row.append(value)
        if c + 1 < n:
            sep = line[2 * c + 1]
            if sep in "|<":  # a bar (Adjacent mode) or left < right
                relations.append(((r, c), (r, c + 1), number))
            elif sep == ">":
                relations.append(((r, c + 1), (r, c), number))
            elif sep != " ":
                raise InputError(f"between columns {c + 1} and {c + 2}: expected '<', '>', '|' "
                                 f"or a space, found {sep!r}", source, number)
    return row


def _text_between(line: str, r: int, n: int, source: str, number: int,
                  relations: list[Relation]) -> None:
    for c in range(n):
        mark = line[2 * c]
        if mark in "-^":  # a bar (Adjacent mode) or upper < lower
            relations.append(((r, c), (r + 1, c), number))
        elif mark == "v":
            relations.append(((r + 1, c), (r, c), number))
        elif mark != " ":
            raise InputError(f"column {c + 1}: expected 'v', '^', '-' or a space, found {mark!r}",
                             source, number)
        if c + 1 < n and line[2 * c + 1] != " ":
            raise InputError(f"expected a space between columns {c + 1} and {c + 2}",
                             source, number)


def _text_value(char: str, n: int) -> int | None:
    if char == ".":
        return 0
    if n < 10:
        return int(char) if char in "123456789" else None
    if char.isdigit():
        return int(char) + 1
    return ord(char.upper()) - ord("A") + 11


def _text_char(value: int, n: int) -> str:
    if value == 0:
        return "."
    if n < 10:
        return str(value)
    return str(value - 1) if value <= 10 else chr(ord("A") + value - 11)


def format_tatham_text(puzzle: Futoshiki) -> str:
    """Tatham's ``game_text_format``: ``<`` ``>`` ``^`` ``v``, or in Adjacent mode the
    bars ``|`` (in a row) and ``-`` (between rows)."""
    n, lines = puzzle.n, []
    if puzzle.adjacent:
        across, down = ({True: "|", False: " "}, {True: "-", False: " "})

        def mark(a: Cell, b: Cell, table: dict) -> str:
            return table[(a, b) in puzzle.bar_set]
    else:
        across, down = ({-1: "<", 0: " ", 1: ">"}, {-1: "^", 0: " ", 1: "v"})

        def mark(a: Cell, b: Cell, table: dict) -> str:
            return table[puzzle.sign(a, b)]
    for r in range(n):
        row = ""
        for c in range(n):
            row += _text_char(puzzle.givens[r][c], n)
            if c + 1 < n:
                row += mark((r, c), (r, c + 1), across)
        lines.append(row)
        if r + 1 < n:
            lines.append(" ".join(mark((r, c), (r + 1, c), down) for c in range(n)))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- VifeAgent CSV


def parse_csv(text: str, source: str = "<input>") -> Futoshiki:
    """``N``; N value rows; N rows of N-1 horizontal and N-1 rows of N vertical relations.

    Relations: 0 none, 1 first < second (left < right, upper < lower), -1 first > second.
    Blank lines and ``#`` lines are skipped.
    """
    lines = _content_lines(text)
    if not lines:
        raise InputError("no size line", source)
    number, first = lines[0]
    if not re.fullmatch(r"[0-9]+", first) or not is_integer(first) or int(first) < 1:
        raise InputError(f"first line must be the size N >= 1, found {shown(first)}", source,
                         number)
    n = int(first)
    check_cells(n, n, source, number, "square")
    # order 1 has no relation rows at all (an empty row would be a blank line)
    shape = [n] * n + ([n - 1] * n if n > 1 else []) + [n] * (n - 1)
    if len(lines) - 1 != len(shape):
        where = lines[len(shape) + 1][0] if len(lines) - 1 > len(shape) else lines[-1][0]
        raise InputError(f"expected {len(shape)} rows after the size ({n} value rows, "
                         f"{n if n > 1 else 0} horizontal and {n - 1} vertical relation rows), "
                         f"found {len(lines) - 1}", source, where)
    rows = []
    for (number, line), width in zip(lines[1:], shape, strict=True):
        if line.count(",") + 1 != width:  # counted before the line is split
            raise InputError(f"expected {width} comma-separated numbers, found "
                             f"{line.count(',') + 1}", source, number)
        fields = [field.strip() for field in line.split(",")]
        if not all(re.fullmatch(r"-?[0-9]+", field) for field in fields):
            raise InputError(f"not a list of integers: {shown(line)}", source, number)
        rows.append((number, [integer(field, source, number, f"number {k + 1}")
                              for k, field in enumerate(fields)]))

    givens = []
    for number, row in rows[:n]:
        givens.append([_check_value(v, n, source, number, f"column {c + 1}")
                       for c, v in enumerate(row)])
    relations: list[Relation] = []
    horizontal, vertical = rows[n:2 * n] if n > 1 else [], rows[2 * n:] if n > 1 else []
    for r, (number, row) in enumerate(horizontal):
        for c, sign in enumerate(row):
            _csv_relation(sign, (r, c), (r, c + 1), source, number, relations)
    for r, (number, row) in enumerate(vertical):
        for c, sign in enumerate(row):
            _csv_relation(sign, (r, c), (r + 1, c), source, number, relations)
    return build(n, givens, relations, source)


def _csv_relation(sign: int, first: Cell, second: Cell, source: str, number: int,
                  relations: list[Relation]) -> None:
    if sign == 1:
        relations.append((first, second, number))
    elif sign == -1:
        relations.append((second, first, number))
    elif sign != 0:
        raise InputError(f"relation {sign} between {_cell(first)} and {_cell(second)}: "
                         "expected 0, 1 or -1", source, number)


def unequal_only(puzzle: Futoshiki, fmt: str) -> None:
    """Refuse to write an Adjacent-mode puzzle in a format that has no bars."""
    if puzzle.adjacent:
        raise GridcpError(f"the {fmt} format has no Adjacent mode (bars); "
                          "write it as tatham or tatham-text")


def format_csv(puzzle: Futoshiki) -> str:
    unequal_only(puzzle, "csv")
    n, lines = puzzle.n, [str(puzzle.n)]
    lines += [",".join(map(str, row)) for row in puzzle.givens]
    if n > 1:
        lines += [",".join(str(-puzzle.sign((r, c), (r, c + 1))) for c in range(n - 1))
                  for r in range(n)]
    lines += [",".join(str(-puzzle.sign((r, c), (r + 1, c))) for c in range(n))
              for r in range(n - 1)]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- hakank AMPL .dat

_DAT_TOKEN = re.compile(r":=|[:;=]|[^\s:;=]+")


def parse_dat(text: str, source: str = "<input>") -> Futoshiki:
    """``param SIZE := n;``, ``param values: 1..n := <row label> <n entries>... ;``
    (``.`` or 0 empty), ``param lastdx = k;`` and ``param lt: 0 1 2 3 := <index> r1 c1 r2
    c2 ... ;`` meaning values[r1,c1] < values[r2,c2], 1-based.  ``#`` starts a comment."""
    params: dict[str, _Param] = {}
    for param in _dat_statements(text, source):
        if param.name.lower() in params:
            raise InputError(f"parameter {param.name} given twice", source, param.line)
        params[param.name.lower()] = param
    unknown = sorted(set(params) - {"size", "values", "lastdx", "lt"})
    if unknown:
        raise InputError(f"unknown parameter {shown(unknown[0])} (known: SIZE, values, lastdx, lt)",
                         source, params[unknown[0]].line)
    if "size" not in params or "values" not in params:
        missing = "SIZE" if "size" not in params else "values"
        raise InputError(f"no 'param {missing}'", source)
    n = params["size"].scalar(source)
    if n < 1:
        raise InputError(f"SIZE must be at least 1, found {n}", source, params["size"].line)
    check_cells(n, n, source, params["size"].line, "square")

    values = params["values"]
    if values.labels != [str(c) for c in range(1, n + 1)]:
        raise InputError(f"values: the column labels must be 1 .. {n}", source, values.line)
    givens = [[0] * n for _ in range(n)]
    seen_rows: set[int] = set()
    for row in values.rows(n + 1, source):
        (label, number), entries = row[0], row[1:]
        r = _dat_int(label, number, source) - 1
        if not 0 <= r < n or r in seen_rows:
            raise InputError(f"values: row label {label} is not a new row in 1..{n}",
                             source, number)
        seen_rows.add(r)
        for c, (entry, at) in enumerate(entries):
            value = 0 if entry == "." else _dat_int(entry, at, source)
            givens[r][c] = _check_value(value, n, source, at, f"values[{r + 1},{c + 1}]")

    relations: list[Relation] = []
    if "lt" in params:
        lt = params["lt"]
        if lt.labels != ["0", "1", "2", "3"]:
            raise InputError("lt: the column labels must be 0 1 2 3", source, lt.line)
        for row in lt.rows(5, source):
            r1, c1, r2, c2 = (_dat_int(entry, at, source) - 1 for entry, at in row[1:])
            relations.append(((r1, c1), (r2, c2), row[0][1]))
    if "lastdx" in params:
        lastdx = params["lastdx"].scalar(source)
        if lastdx != len(relations) - 1:
            raise InputError(f"lastdx = {lastdx} but lt has {len(relations)} rows "
                             f"(lastdx must be {len(relations) - 1})", source,
                             params["lastdx"].line)
    return build(n, givens, relations, source)


@dataclass(frozen=True)
class _Param:
    """One ``param`` statement: its name, column labels and value tokens, each token
    with its line.  Tokens are kept as one list of words (repeated words shared) and
    an array of line numbers, not a tuple each: a file at the cell limit holds about
    ten million of them."""

    line: int
    name: str
    labels: list[str]
    words: list[str]
    lines: array

    def scalar(self, source: str) -> int:
        if self.labels or len(self.words) != 1:
            raise InputError(f"{self.name} must be a single integer", source, self.line)
        return _dat_int(self.words[0], self.lines[0], source)

    def rows(self, width: int, source: str) -> Iterator[list[tuple[str, int]]]:
        """The table's rows of ``width`` tokens; the line blamed for a short row is the
        first whose tokens do not fill whole rows (tables are written one row per line)."""
        if len(self.words) % width:
            per_line: dict[int, int] = {}
            for line in self.lines:
                per_line[line] = per_line.get(line, 0) + 1
            line = next((line for line, k in per_line.items() if k % width), self.lines[-1])
            raise InputError(f"{self.name}: a row needs a label and {width - 1} entries",
                             source, line)
        for i in range(0, len(self.words), width):
            yield list(zip(self.words[i:i + width], self.lines[i:i + width]))


def _dat_statements(text: str, source: str) -> Iterator[_Param]:
    """Each ``param`` statement, read token by token."""
    cells = Cells(source, "square", per_cell=12)  # n + 1 per values row, 5 per relation
    shared: dict[str, str] = {}
    words: list[str] = []
    lines = array("l")
    for number, line in numbered(text):
        found = _DAT_TOKEN.findall(line.split("#", 1)[0])
        cells.take(len(found), number)
        for token in found:
            if token != ";":
                words.append(shared.setdefault(token, token))
                lines.append(number)
            elif words:
                yield _dat_statement(words, lines, source)
                words, lines = [], array("l")
    if words:
        raise InputError("statement not ended by ';'", source, lines[0])


def _dat_statement(words: list[str], lines: array, source: str) -> _Param:
    line = lines[0]
    if words[0] != "param" or len(words) < 2 or not re.fullmatch(r"\w+", words[1]):
        raise InputError("expected 'param NAME ...'", source, line)
    name, at = words[1], 2
    labels: list[str] = []
    if at < len(words) and words[at] == ":":
        ends = [i for i in range(at, len(words)) if words[i] == ":="]
        if not ends:
            raise InputError(f"{name}: column labels not followed by ':='", source, line)
        labels, at = words[at + 1:ends[0]], ends[0] + 1
    elif at < len(words) and words[at] in (":=", "="):
        at += 1
    else:
        raise InputError(f"{name}: expected ':=' or ': labels :='", source, line)
    del words[:at], lines[:at]  # the header off, the tokens kept in place
    return _Param(line, name, labels, words, lines)


def _dat_int(token: str, line: int, source: str) -> int:
    if not re.fullmatch(r"-?[0-9]+", token):
        raise InputError(f"expected an integer, found {shown(token)}", source, line)
    return integer(token, source, line, "an integer")


def format_dat(puzzle: Futoshiki) -> str:
    unequal_only(puzzle, "dat")
    n = puzzle.n
    lines = [f"param SIZE := {n};", f"param values: {' '.join(map(str, range(1, n + 1)))} :="]
    lines += [f"  {r + 1}  " + " ".join(str(v) if v else "." for v in row)
              for r, row in enumerate(puzzle.givens)]
    lines.append(";")
    if puzzle.less:
        lines += [f"param lastdx = {len(puzzle.less) - 1};", "param lt: 0 1 2 3 :="]
        lines += [f"  {i}  {a[0] + 1} {a[1] + 1}  {b[0] + 1} {b[1] + 1}"
                  for i, (a, b) in enumerate(puzzle.less)]
        lines.append(";")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- which format?

READERS: dict[str, Callable[[str, str], Futoshiki]] = {
    "tatham": parse_tatham,
    "tatham-text": parse_tatham_text,
    "csv": parse_csv,
    "dat": parse_dat,
}
WRITERS: dict[str, Callable[[Futoshiki], str]] = {
    "tatham": format_tatham,
    "tatham-text": format_tatham_text,
    "csv": format_csv,
    "dat": format_dat,
}


def sniff_format(text: str) -> str | None:
    """The non-seed format ``text`` looks like, from its shape alone, or None.

    The checks are loose on purpose, so that a damaged file of a recognised format reaches
    its reader and gets a precise message; a seed file (a bare size line, then rows with
    ``|``, ``<``, ``>`` tokens) matches none of them.  The text dump has no keyword, so it
    must also have the 2n - 1 lines its first row announces (other puzzles' grids of
    digits and dashes look like it otherwise).
    """
    lines = _content_lines(text)
    if not lines:
        return None
    first = lines[0][1]
    if re.fullmatch(r"[0-9]+a?(?:d.)?[:#]\S*", first):
        return "tatham"
    if re.match(r"param\b", first):
        return "dat"
    if re.fullmatch(r"[0-9]+", first) and len(lines) > 1 and "," in lines[1][1]:
        return "csv"
    raw = [line.rstrip() for line in text.rstrip("\n ").split("\n")]
    n = (len(raw[0]) + 1) // 2
    if (len(raw) == 2 * n - 1 >= 3 and _TEXT_ROW.fullmatch(raw[0])
            and (not raw[1] or _TEXT_BETWEEN.fullmatch(raw[1]) and len(raw[1]) <= len(raw[0]))):
        return "tatham-text"
    return None

"""Numberlink files: read the seed's format and the public ones, write the seed's.

Formats (the grammars are in docs/numberlink.md), told apart by content:

- seed:    rows of bracketed cells ``| 4 |``, ``| 12|``, ``| X |``, ``| |``
- letters: rows of characters, ``.`` empty, any other character a label, one
           puzzle or a stream of ``W H`` + rows (``#`` comments, ``0 0`` ends)
- numbers: ``W H`` (or ``H, W``) + rows of tokens, ``-`` or ``0`` empty
- adc:     ``SIZE WxH``, ``LINE_NUM K``, ``LINE#k (x1,y1)-(x2,y2)``
           (answers: ``SIZE WxH`` + comma-separated rows of line numbers)

A file holding several puzzles is read by ``parse_many``; ``parse`` wants
exactly one and says so otherwise.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from search.core.contract import GridcpError, InputError
from search.core.inputs import Cells, integer, numbered, read_text, shown
from search.core.limits import TooLarge, check_cells
from search.core.outputs import write_file
from search.numberlink.model import Cell, Numberlink, Pair, Solution
from search.numberlink.verify import verify

SOLID = "X"  # how the seed's format writes a blocked cell
BLOCK = "\x00"  # a blocked cell in a Grid; None is an empty cell, any other string a label

_SEED_ROW = re.compile(r"(?:\|[^|]*\|)+")
_SEED_CELL = re.compile(r"\|([^|]*)\|")
_SEED_HEADINGS = ("Table to be solved:", "The solution to the above table:")
_HEADER = re.compile(r"([0-9]+)(\s*,\s*|\s+)([0-9]+)")
_SIZE = re.compile(r"SIZE\s+([0-9]+)\s*[xX]\s*([0-9]+)(\s*[xX]\s*[0-9]+)?")
_LINE = re.compile(r"LINE#([0-9]+)\s*\(\s*([0-9]+)\s*,\s*([0-9]+)\s*\)\s*-?\s*"
                   r"\(\s*([0-9]+)\s*,\s*([0-9]+)\s*\)")


@dataclass(frozen=True)
class Grid:
    """A board read cell by cell, before it becomes a puzzle: rows of
    None (empty), BLOCK or a label, and the file line of each row."""

    rows: tuple[tuple[str | None, ...], ...]
    lines: tuple[int, ...]


# ---------------------------------------------------------------- building puzzles


def make_puzzle(
    height: int,
    width: int,
    ends: dict[str, list[Cell]],
    blocked: frozenset[Cell] = frozenset(),
    source: str = "<input>",
    line_of: dict[Cell, int] | None = None,
) -> Numberlink:
    """A checked puzzle: every label on exactly two free cells inside the board."""
    line_of = line_of or {}
    if height < 1 or width < 1:
        raise InputError(f"board size {width}x{height} is empty", source, 1)
    check_cells(height, width, source, 1)
    seen: dict[Cell, str] = {}
    pairs = []
    for label, cells in ends.items():
        where = ", ".join(f"row {r + 1} column {c + 1}" for r, c in cells)
        line = line_of.get(cells[0])
        if len(cells) != 2:
            times = {1: "once"}.get(len(cells), f"{len(cells)} times")
            raise InputError(f"label {label} occurs {times} ({where}); it must occur twice",
                             source, line)
        for cell in cells:
            r, c = cell
            if not (0 <= r < height and 0 <= c < width):
                raise InputError(f"label {label}: end {cell} is outside the "
                                 f"{width}x{height} board", source, line)
            if cell in blocked:
                raise InputError(f"label {label}: end {cell} is on a blocked cell",
                                 source, line)
            if cell in seen:
                raise InputError(f"labels {seen[cell]} and {label} share the cell {cell}",
                                 source, line)
            seen[cell] = label
        pairs.append(Pair(label, *sorted(cells)))
    if all(label.isascii() and label.isdigit() for label in ends):  # numeric order
        pairs.sort(key=lambda p: (len(p.label.lstrip("0")), p.label.lstrip("0")))
    return Numberlink(height, width, tuple(pairs), frozenset(blocked))


def puzzle_of_grid(grid: Grid, source: str) -> Numberlink:
    ends: dict[str, list[Cell]] = {}
    blocked = set()
    line_of = {}
    for r, (row, line) in enumerate(zip(grid.rows, grid.lines)):
        for c, cell in enumerate(row):
            if cell == BLOCK:
                blocked.add((r, c))
            elif cell is not None:
                ends.setdefault(cell, []).append((r, c))
                line_of[(r, c)] = line
    height, width = len(grid.rows), len(grid.rows[0])
    return make_puzzle(height, width, ends, frozenset(blocked), source, line_of)


def _rectangular(rows: list[list[str | None]], lines: list[int], source: str,
                 width: int | None = None) -> Grid:
    width = len(rows[0]) if width is None else width
    for row, line in zip(rows, lines):
        if len(row) != width:
            raise InputError(f"ragged row: {len(row)} cells where the board has {width}",
                             source, line)
    return Grid(tuple(tuple(row) for row in rows), tuple(lines))


# ---------------------------------------------------------------- the formats


def _content_lines(text: str) -> list[tuple[int, str]]:
    """(line number, stripped text) of every line, blank lines kept as ''."""
    return [(number, raw.strip()) for number, raw in numbered(text)]


def _seed_grids(text: str, source: str) -> list[Grid]:
    """Blocks of ``| .. |`` rows, separated by blank lines."""
    blocks: list[tuple[list, list]] = []
    fresh = True
    counted = Cells(source)
    for number, line in _content_lines(text):
        if not line or line.startswith("#") or line in _SEED_HEADINGS:
            fresh = True
            continue
        if not _SEED_ROW.fullmatch(line):
            raise InputError("not a row of '| .. |' cells", source, number)
        counted.take(line.count("|") // 2, number)
        cells: list[str | None] = []
        for token in _SEED_CELL.findall(line):
            token = token.strip()
            cells.append(None if token == "" else BLOCK if token == SOLID else token)
        if fresh:
            blocks.append(([], []))
            fresh = False
        blocks[-1][0].append(cells)
        blocks[-1][1].append(number)
    return [_rectangular(rows, lines, source) for rows, lines in blocks]


def _is_solution_of(grid: Grid, previous: Grid | None) -> bool:
    """A filled block right after a puzzle of the same size is that puzzle's solution."""
    return (
        previous is not None
        and len(grid.rows) == len(previous.rows)
        and len(grid.rows[0]) == len(previous.rows[0])
        and all(cell is not None for row in grid.rows for cell in row)
        and max(Counter(c for row in grid.rows for c in row if c != BLOCK).values(),
                default=0) > 2
    )


def _check_embedded(puzzle: Numberlink, grid: Grid, source: str) -> None:
    """A solution block below its puzzle must solve it: a wrong one is refused,
    not skipped, since a reader of the file would take it for the answer."""
    try:
        problems = verify(puzzle, solution_of_labels(puzzle, grid, source))
    except InputError as error:
        problems = [error.message]
    if problems:
        raise InputError(f"the solution block below the puzzle does not solve it: "
                         f"{problems[0]}", source, grid.lines[0])


def _seed_many(text: str, source: str) -> list[Numberlink]:
    puzzles, previous = [], None
    for grid in _seed_grids(text, source):
        if _is_solution_of(grid, previous):
            _check_embedded(puzzles[-1], grid, source)
            previous = None
            continue
        puzzles.append(puzzle_of_grid(grid, source))
        previous = grid
    return puzzles


def _grid_stream(text: str, source: str) -> list[Grid]:
    """Letter grids and integer grids: ``W H`` + rows, repeated, or one bare letter grid."""
    lines = [(n, s) for n, s in _content_lines(text) if s and not s.startswith("#")]
    grids: list[Grid] = []
    counted = Cells(source)
    i = 0
    while i < len(lines):
        number, line = lines[i]
        header = _HEADER.fullmatch(line)
        if header is None:
            if grids:
                raise InputError("expected a 'W H' header line", source, number)
            # One bare letter grid (mzucker): the board is every remaining line.
            rows = [counted.chars(s, n) for n, s in lines]
            return [_rectangular([_letters(r) for r in rows], [n for n, _ in lines], source)]
        a = integer(header[1], source, number, "the header's first number")
        comma = "," in header[2]
        b = integer(header[3], source, number, "the header's second number")
        width, height = (b, a) if comma else (a, b)
        if width == 0 and height == 0:
            break
        if width == 0 or height == 0:
            raise InputError(f"board size {width}x{height} is empty", source, number)
        check_cells(height, width, source, number)
        body = lines[i + 1: i + 1 + height]
        if len(body) < height:
            raise InputError(f"header says {height} rows, the file has {len(body)}",
                             source, body[-1][0] if body else number)
        numeric = any(" " in s or "\t" in s or "-" in s for _, s in body) or width == 1 and all(
            s == "0" for _, s in body)
        rows = [_numbers(counted.words(s, n), n, source) if numeric
                else _letters(counted.chars(s, n)) for n, s in body]
        grids.append(_rectangular(rows, [n for n, _ in body], source, width))
        i += 1 + height
    return grids


def _letters(chars: list[str]) -> list[str | None]:
    return [None if ch == "." else ch for ch in chars]


def _numbers(tokens: list[str], number: int, source: str) -> list[str | None]:
    cells: list[str | None] = []
    for token in tokens:
        if token in ("-", "0"):
            cells.append(None)
        elif token.isascii() and token.isdigit():
            cells.append(str(integer(token, source, number, "a cell's number")))
        else:
            raise InputError(f"bad cell {shown(token)} (a positive number, '-' or '0')",
                             source, number)
    return cells


def _adc_size(text: str, source: str) -> tuple[int, int, list[tuple[int, str]]]:
    lines = [(n, s) for n, s in _content_lines(text) if s]
    number, first = lines[0]
    size = _SIZE.fullmatch(first)
    if size is None:
        raise InputError("expected 'SIZE WxH'", source, number)
    if size[3]:
        raise InputError("3-D (multi-layer) boards are not supported", source, number)
    width = integer(size[1], source, number, "the width")
    height = integer(size[2], source, number, "the height")
    check_cells(height, width, source, number)
    return width, height, lines[1:]


def _adc(text: str, source: str) -> Numberlink:
    width, height, lines = _adc_size(text, source)
    if lines and "," in lines[0][1] and not lines[0][1].startswith("LINE"):
        raise InputError("this is a contest answer (a solution), not a problem", source,
                         lines[0][0])
    declared = None
    ends: dict[str, list[Cell]] = {}
    line_of: dict[Cell, int] = {}
    for number, line in lines:
        if line.startswith("LINE_NUM"):
            words = line.split()
            if len(words) != 2:
                raise InputError("expected 'LINE_NUM K'", source, number)
            declared = integer(words[1], source, number, "LINE_NUM")
            continue
        match = _LINE.fullmatch(line)
        if match is None:
            raise InputError("expected 'LINE#k (x1,y1)-(x2,y2)'", source, number)
        label = match[1]
        if label in ends:
            raise InputError(f"line {label} is given twice", source, number)
        x1, y1, x2, y2 = (integer(match[i], source, number, "a coordinate")
                          for i in range(2, 6))
        ends[label] = [(y1, x1), (y2, x2)]
        line_of[(y1, x1)] = number
    if declared is not None and declared != len(ends):
        raise InputError(f"LINE_NUM says {declared} lines, the file has {len(ends)}", source,
                         lines[0][0])
    return make_puzzle(height, width, ends, frozenset(), source, line_of)


def _format_of(text: str) -> str:
    for _, line in _content_lines(text):
        if not line or line.startswith("#"):
            continue
        if line.startswith("|"):
            return "seed"
        if line.upper().startswith("SIZE"):
            return "adc"
        return "grid"
    return "empty"


# ---------------------------------------------------------------- public reading


def parse_many(text: str, source: str = "<input>") -> list[Numberlink]:
    """Every puzzle of a file, in order (a stream of ``W H`` grids, or one)."""
    fmt = _format_of(text)
    if fmt == "empty":
        raise InputError("no puzzle in the file", source)
    if fmt == "seed":
        puzzles = _seed_many(text, source)
    elif fmt == "adc":
        puzzles = [_adc(text, source)]
    else:
        puzzles = [puzzle_of_grid(grid, source) for grid in _grid_stream(text, source)]
    if not puzzles:
        raise InputError("no puzzle in the file", source)
    return puzzles


def parse(text: str, source: str = "<input>") -> Numberlink:
    """The one puzzle of a file; a stream of several is an error naming ``parse_many``."""
    puzzles = parse_many(text, source)
    if len(puzzles) > 1:
        raise InputError(
            f"the file holds {len(puzzles)} puzzles; gridcp reads one puzzle per file "
            "(split it with 'python -m search.numberlink.io split FILE DIR', "
            "or read it with search.numberlink.io.parse_many)", source)
    return puzzles[0]


def sniff(text: str) -> bool:
    """Does this text read as Numberlink?  A file with the contest's ``SIZE``
    header is one by its shape, so that a damaged one reaches its reader and
    gets a precise message; a bare grid must read in full (other puzzles'
    grids look like it)."""
    if _format_of(text) == "adc":
        return True
    try:
        parse_many(text, "<sniff>")
    except TooLarge:
        raise  # a declared size above the limit is an answer, not a mismatch
    except InputError:
        return False
    return True


def parse_solution(puzzle: Numberlink, text: str, source: str = "<solution>") -> Solution:
    """A solution written as a grid of labels (seed grid, letter grid, contest answer).

    A label's cells must form one simple path between its two ends.
    """
    fmt = _format_of(text)
    if fmt == "adc":
        width, height, lines = _adc_size(text, source)
        rows = []
        for number, line in lines:
            row = [None if t.strip() in ("", "0", "00") else
                   str(integer(t, source, number, "a line number")) for t in line.split(",")]
            rows.append((row, number))
        grid = _rectangular([r for r, _ in rows], [n for _, n in rows], source, width)
    elif fmt == "seed":
        grids = _seed_grids(text, source)
        grid = grids[-1]
    else:
        grid = _grid_stream(text, source)[-1]
    if (len(grid.rows), len(grid.rows[0])) != (puzzle.height, puzzle.width):
        raise InputError(f"solution is {len(grid.rows[0])}x{len(grid.rows)}, the puzzle "
                         f"{puzzle.width}x{puzzle.height}", source)
    return solution_of_labels(puzzle, grid, source)


def solution_of_labels(puzzle: Numberlink, grid: Grid, source: str) -> Solution:
    paths = []
    for pair in puzzle.pairs:
        def same(cell: Cell, label: str = pair.label) -> bool:
            return grid.rows[cell[0]][cell[1]] == label
        path, previous = [pair.a], None
        while path[-1] != pair.b:
            ahead = [n for n in puzzle.neighbours(path[-1]) if n != previous and same(n)]
            if len(ahead) != 1:
                raise InputError(f"the cells of label {pair.label} do not form one path "
                                 f"from {pair.a} to {pair.b}", source)
            previous = path[-1]
            path.append(ahead[0])
            if len(path) > puzzle.height * puzzle.width:
                raise InputError(f"label {pair.label} runs in a loop", source)
        paths.append(tuple(path))
    drawn = {cell for path in paths for cell in path}
    for r, row in enumerate(grid.rows):
        for c, cell in enumerate(row):
            if cell not in (None, BLOCK) and (r, c) not in drawn:
                raise InputError(f"cell {(r, c)} holds {cell} but lies on no path of it",
                                 source, grid.lines[r])
    return Solution(tuple(paths))


# ---------------------------------------------------------------- writing


def _seed_cell(token: str | None) -> str:
    if token is None:
        return "| |"
    if len(token) == 1:
        return f"| {token} |"
    if len(token) == 2:
        return f"| {token}|"
    return f"|{token}|"


def _writable_labels(puzzle: Numberlink) -> list[str]:
    """Labels as written: kept when they fit a cell, else renumbered 1..k."""
    labels = [p.label for p in puzzle.pairs]
    if all(label and label != SOLID and "|" not in label and not any(ch.isspace() for ch in label)
           for label in labels):
        return labels
    return [str(i + 1) for i in range(len(labels))]


def _seed_board(puzzle: Numberlink, cells: dict[Cell, str]) -> str:
    lines = []
    for r in range(puzzle.height):
        row = []
        for c in range(puzzle.width):
            row.append(_seed_cell(SOLID if (r, c) in puzzle.blocked else cells.get((r, c))))
        lines.append("".join(row))
    return "\n".join(lines) + "\n"


def format_puzzle(puzzle: Numberlink) -> str:
    """The seed's format: one row per line, ``| 4 |``, ``| 12|``, ``| X |``, ``| |``."""
    labels = _writable_labels(puzzle)
    return _seed_board(puzzle, {cell: labels[i] for cell, i in puzzle.endpoint.items()})


def format_solution(puzzle: Numberlink, solution: Solution) -> str:
    """The solution in the same cells: every cell on a path shows its label."""
    labels = _writable_labels(puzzle)
    return _seed_board(puzzle, {cell: labels[i] for cell, i in solution.cover().items()})


def solution_json(puzzle: Numberlink, solution: Solution) -> dict:
    return {"paths": [[p.label, [list(cell) for cell in path]]
                      for p, path in zip(puzzle.pairs, solution.paths)]}


def describe(puzzle: Numberlink) -> str:
    return f"{puzzle.width}x{puzzle.height}"


def split(path: str, folder: str) -> list[str]:
    """Write each puzzle of a multi-puzzle file to FOLDER/<stem>_<index>.nl."""
    source = Path(path)
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for index, puzzle in enumerate(parse_many(read_text(source), str(source))):
        target = out / f"{source.stem}_{index:03d}.nl"
        write_file(target, format_puzzle(puzzle))
        written.append(str(target))
    return written


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 4 or sys.argv[1] != "split":
        sys.exit("usage: python -m search.numberlink.io split FILE DIR")
    try:
        print("\n".join(split(sys.argv[2], sys.argv[3])))
    except GridcpError as error:
        sys.exit(str(error))

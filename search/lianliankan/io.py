"""Lianliankan files: boards in two formats, and move lists.

Boards (the format is told from the content):

* plain grid: one board row per line, cells as non-negative integers separated
  by white space, 0 = empty; lines starting with ``#`` and blank lines are
  ignored::

      1 2 0
      2 1 0

* the seed's printout: a header ``--: 00 01 ...`` (one number per column) and
  one line per row, ``07: 06 10 00 ...`` (the row number, a colon, the cells).
  Only the first board of a text is read, so a whole transcript of the seed's
  program reads as its starting board; line breaks may be missing.

Solutions: one move per line, ``picture: (r,c) - (r,c) - ... - (r,c)``: the
first and last cells are the two tiles, the cells between them the corners of
the line, in order; cells are (row, column), 0-based, and -1 or the height /
width name the ring outside the board.  The picture is informative.

Games in progress: a board, then a line ``moves:`` and the moves played so
far, as above (a move may give its two tiles alone); an optional line
``rules: border gravity turns=N`` (or ``plain``) before ``moves:`` states the
rules the game is played under (default: the plain rules).  Every move is
checked on the board it is played on, and the file reads as the position
reached, under its rules.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any

from search.core.contract import InputError
from search.core.inputs import Cells, integer, is_integer, numbered, shown
from search.core.inputs import lines as split_lines
from search.core.limits import TooLarge, check_cells
from search.lianliankan.model import Board, Cell, Move, Solution
from search.lianliankan.paths import Field
from search.lianliankan.rules import rules_line
from search.lianliankan.verify import move_problems

# ---------------------------------------------------------------- boards

_ANSI = re.compile(r"\x1b\[[0-9;]*m|\\e\[[0-9;]*m")


def sniff(text: str) -> bool:
    """Does the text look like a Lianliankan board?"""
    text = _ANSI.sub("", text)
    try:
        text, _, _ = _game_parts(text, "<sniff>")
    except InputError:
        return False
    body = _content_lines(text)
    if not body:
        return False
    if _has_seed_header(text):
        return True
    try:
        board = _grid(body, "<sniff>")
    except TooLarge:
        raise  # a declared size above the limit is an answer, not a mismatch
    except InputError:
        return False
    return bool(board.tiles)


def parse(text: str, source: str = "<input>") -> Board:
    """A board from either format, or the position a game in progress has
    reached (see ``parse_game``); InputError names the line of any fault."""
    deal, moves = parse_game(text, source)
    board = deal
    for move in moves:
        board = board.removed(move.a, move.b)
    return board


def parse_game(text: str, source: str = "<input>") -> tuple[Board, list[Move]]:
    """A board, or a game in progress: the deal under the file's rules (a
    ``rules:`` line, else the plain rules) and the moves after a ``moves:``
    line, each checked on the board it is played on (the first illegal one
    is an InputError naming its line).  A move given by its two tiles alone
    gets the seed's line."""
    text = _ANSI.sub("", text)
    text, rules, stated = _game_parts(text, source)
    deal = _board(text, source)
    if rules is None and stated is None:
        return deal, []
    deal = replace(deal, **(rules or {}), fixed_rules=True)
    board, moves = deal, []
    for number, (line, move, picture) in enumerate(stated or (), start=1):
        move = _played(board, move, picture, f"move {number}", source, line)
        moves.append(move)
        board = board.removed(move.a, move.b)
    return deal, moves


def format_game(deal: Board, moves: list[Move] | tuple[Move, ...]) -> str:
    """A game file: the rules, the deal, then ``moves:`` and the moves played."""
    return (rules_line(deal) + "\n" + format_board(deal) + "moves:\n"
            + format_solution(deal, Solution(tuple(moves))))


def _board(text: str, source: str) -> Board:
    body = _content_lines(text)
    if not body:
        raise InputError("no board in the file", source)
    if _has_seed_header(text):
        return _seed_printout(text, source)
    headers = [n for n, line in numbered(text) if line.split(maxsplit=2)[:2] == ["#", "board"]]
    if len(headers) > 1:
        raise InputError(f"a collection of {len(headers)} boards ('# board' lines); "
                         "give one board per file", source, headers[1])
    return _grid(body, source)


Stated = tuple[int, Move, int | None]  # a move's line number, the move, the picture it names


def _game_parts(text: str, source: str) -> tuple[str, dict[str, Any] | None,
                                                 list[Stated] | None]:
    """The board's text (a ``rules:`` line blanked and everything from
    ``moves:`` on cut, so line numbers stay), the rules stated, and the moves
    (None: no ``moves:`` line)."""
    lines = split_lines(text)
    rules: dict[str, Any] | None = None
    for i, line in enumerate(lines):
        word = line.strip().lower()
        if word.startswith("rules:"):
            if rules is not None:
                raise InputError("a second 'rules:' line", source, i + 1)
            rules = _rules(line.split(":", 1)[1], source, i + 1)
            lines[i] = ""
        elif word == "moves:":
            return "\n".join(lines[:i]), rules, _moves(lines, i + 1, source)
    return "\n".join(lines), rules, None


def _rules(words: str, source: str, line: int) -> dict[str, Any]:
    rules: dict[str, Any] = {"border": False, "gravity": False, "turns": 2}
    for word in words.split():
        name, _, value = word.lower().partition("=")
        if name in ("border", "gravity") and not value:
            rules[name] = True
        elif name == "turns" and value.isdigit() and len(value) < 4:
            rules["turns"] = int(value)
        elif name != "plain":
            raise InputError(f"unknown rule {word!r} (known: border, gravity, turns=N, "
                             "plain)", source, line)
    return rules


def _moves(lines: list[str], first: int, source: str) -> list[Stated]:
    """The moves on ``lines[first:]`` (``#`` starts a comment)."""
    moves = []
    for number in range(first, len(lines)):
        body = lines[number].split("#", 1)[0].strip()
        if not body:
            continue
        if body.lower().startswith("rules:"):
            raise InputError("the 'rules:' line goes before 'moves:'", source, number + 1)
        picture = re.match(r"^(\d+)\s*:", body)
        body = body[picture.end():].strip() if picture else body
        cells = [(integer(r, source, number + 1, "a row"),
                  integer(c, source, number + 1, "a column")) for r, c in _CELL.findall(body)]
        if len(cells) < 2 or _CELL.sub("", body).replace("-", "").strip():
            raise InputError("a move is 'picture: (r,c) - (r,c) ...' with two tiles or more",
                             source, number + 1)
        named = integer(picture.group(1), source, number + 1, "a picture") if picture else None
        moves.append((number + 1, Move(cells[0], cells[-1], tuple(cells[1:-1])), named))
    return moves


def _played(board: Board, move: Move, picture: int | None, name: str, source: str,
            line: int) -> Move:
    """``move`` as played on ``board`` (the seed's line when only the tiles are
    given), or an InputError saying why it cannot be played."""
    shown = " - ".join(f"({r},{c})" for r, c in move.line())
    tiles_only = not move.corners
    if tiles_only and move_problems(board, move):
        move = _with_line(board, move)
    problems = move_problems(board, move)
    if not problems and picture is not None and picture != board.at(move.a):
        problems = [f"it names picture {picture}, the tiles hold {board.at(move.a)}"]
    if problems:  # given by its tiles alone, the move has no line of its own to fault
        why = problems[-1] if tiles_only else problems[0]
        raise InputError(f"{name} {shown} cannot be played: {why}", source, line)
    return move


def parse_many(text: str, source: str = "<input>") -> list[tuple[str, str, Board]]:
    """Several plain boards in one file, each after a line ``# board <id> <VERDICT>``.

    Returns (id, verdict, board) in file order; other ``#`` lines are comments.
    """
    found: list[tuple[str, str, Board]] = []
    header: tuple[str, str] | None = None
    rows: list[tuple[int, str]] = []

    def close() -> None:
        if header is not None:
            if not rows:
                raise InputError(f"board {header[0]} has no rows", source)
            found.append((*header, _grid(rows, source)))

    for number, line in numbered(text):
        words = line.split(maxsplit=4)
        if words[:2] == ["#", "board"]:
            close()
            if len(words) < 3:
                raise InputError("'# board' needs an id", source, number)
            header, rows = (words[2], words[3] if len(words) > 3 else ""), []
        elif line.strip() and not line.lstrip().startswith("#"):
            if header is None:
                raise InputError("a board row before any '# board <id>' line", source, number)
            rows.append((number, line))
    close()
    return found


def format_board(board: Board) -> str:
    """The plain grid, columns aligned; parse(format_board(b)) has b's grid."""
    width = max((len(str(v)) for row in board.grid for v in row), default=1)
    return "".join(" ".join(f"{v:>{width}}" for v in row) + "\n" for row in board.grid)


def format_seed(board: Board) -> str:
    """The seed's printout: ``--: 00 01 ...`` then ``07: 06 10 00 ...``."""
    lines = ["--: " + "".join(f"{c:02d} " for c in range(board.width))]
    lines += [f"{r:02d}: " + "".join(f"{v:02d} " for v in row) for r, row in enumerate(board.grid)]
    return "\n".join(lines) + "\n"


def describe(board: Board) -> str:
    return f"{board.width}x{board.height}"


def _has_seed_header(text: str) -> bool:
    return re.search(r"(^|\s)--:(\s|$)", text) is not None


def _content_lines(text: str) -> list[tuple[int, str]]:
    return [
        (n, line) for n, line in numbered(text)
        if line.strip() and not line.lstrip().startswith("#")
    ]


def _grid(body: list[tuple[int, str]], source: str) -> Board:
    rows: list[tuple[int, ...]] = []
    cells = Cells(source)
    for number, line in body:
        rows.append(tuple(_cell(word, source, number) for word in cells.words(line, number)))
        if len(rows[-1]) != len(rows[0]):
            raise InputError(
                f"ragged rows: {len(rows[-1])} cells here, {len(rows[0])} in the first row",
                source, number)
    return _checked(tuple(rows), source, body[0][0])


def _seed_printout(text: str, source: str) -> Board:
    """Read the first board of a seed printout, token by token (line breaks optional)."""
    cells = Cells(source, per_cell=2)  # the cells and a label a row, a header a column
    tokens = [(n, w) for n, line in numbered(text) if not line.lstrip().startswith("#")
              for w in cells.words(line, n)]
    start = next(i for i, (_, w) in enumerate(tokens) if w == "--:")
    i, width = start + 1, 0
    while i < len(tokens) and is_integer(tokens[i][1]) and tokens[i][1].isdigit():
        if int(tokens[i][1]) != width:
            raise InputError(f"header column {tokens[i][1]} should be {width:02d}",
                             source, tokens[i][0])
        i, width = i + 1, width + 1
    if width == 0:
        raise InputError("the header '--:' names no columns", source, tokens[start][0])
    rows: list[tuple[int, ...]] = []
    while i < len(tokens) and re.fullmatch(r"[0-9]+:", tokens[i][1]):
        number, label = tokens[i]
        if integer(label[:-1], source, number, "a row label") != len(rows):
            raise InputError(f"row label {shown(label)} should be {len(rows):02d}:", source,
                             number)
        i += 1
        cells = []
        while i < len(tokens) and re.fullmatch(r"-?[0-9]+", tokens[i][1]):
            cells.append(_cell(tokens[i][1], source, tokens[i][0]))
            i += 1
        if len(cells) != width:
            raise InputError(f"row {shown(label)} has {len(cells)} cells, the header {width}",
                             source, number)
        rows.append(tuple(cells))
        if i < len(tokens) and tokens[i][1] == "--:":
            break  # the next board of a transcript
    if not rows:
        raise InputError("the header is followed by no rows", source, tokens[start][0])
    return _checked(tuple(rows), source, tokens[start][0])


def _cell(word: str, source: str, line: int) -> int:
    if not re.fullmatch(r"[+-]?[0-9]+", word):
        raise InputError(f"{shown(word)} is not a number", source, line)
    value = integer(word, source, line, "a cell")
    if value < 0:
        raise InputError(f"{value} is negative (0 = empty, pictures from 1)", source, line)
    return value


def _checked(grid: tuple[tuple[int, ...], ...], source: str, line: int) -> Board:
    if not grid or not grid[0]:
        raise InputError("the board has no cells", source, line)
    check_cells(len(grid), len(grid[0]), source, line)
    counts = Counter(v for row in grid for v in row if v)
    odd = sorted(p for p, n in counts.items() if n % 2)
    if odd:
        shown = ", ".join(f"{p} ({counts[p]} tile{'s' * (counts[p] != 1)})" for p in odd)
        raise InputError(f"pictures with an odd number of tiles: {shown}", source, line)
    return Board(grid)


# ---------------------------------------------------------------- solutions

_CELL = re.compile(r"\(\s*(-?[0-9]+)\s*,\s*(-?[0-9]+)\s*\)")


def format_move(board: Board, move: Move) -> str:
    """``picture: (r,c) - (r,c) ...`` for a move played on ``board``."""
    picture = board.at(move.a) if _on(board, move.a) else 0
    return f"{picture}: " + " - ".join(f"({r},{c})" for r, c in move.line())


def format_solution(board: Board, solution: Solution) -> str:
    """The move list, one move per line, each with the picture it removes."""
    lines = []
    for move in solution.moves:
        lines.append(format_move(board, move))
        if _on(board, move.a) and _on(board, move.b):
            board = board.removed(move.a, move.b)
    return "".join(line + "\n" for line in lines)


def parse_solution(text: str, board: Board | None = None, source: str = "<solution>") -> Solution:
    """Read a move list written by ``format_solution`` (``#`` starts a comment)."""
    return Solution(tuple(move for _, move, _ in _moves(split_lines(text), 0, source)))


def move_json(board: Board, move: Move) -> dict[str, Any]:
    """``{"picture", "tiles", "corners"}`` for a move played on ``board``."""
    return {"picture": board.at(move.a), "tiles": [list(move.a), list(move.b)],
            "corners": [list(c) for c in move.corners]}


def solution_json(board: Board, solution: Solution) -> list[dict[str, Any]]:
    out = []
    for move in solution.moves:
        out.append(move_json(board, move))
        board = board.removed(move.a, move.b)
    return out


def key(board: Board, solution: Solution) -> tuple[tuple[Cell, ...], ...]:
    """The move sequence with lines, each line read from its smaller tile."""
    return tuple(
        line if line[0] <= line[-1] else line[::-1]
        for line in (move.line() for move in solution.moves)
    )


def _with_line(board: Board, move: Move) -> Move:
    """The move with the seed's line between its tiles, when they are two tiles
    of one picture a line joins (else unchanged, for ``move_problems`` to say why)."""
    a, b = move.a, move.b
    if not (_on(board, a) and _on(board, b) and board.at(a) and board.at(a) == board.at(b)
            and a != b):
        return move
    field = Field(board)
    corners = field.path(field.index(a), field.index(b))
    return move if corners is None else field.move(field.index(a), field.index(b), corners)


def _on(board: Board, cell: Cell) -> bool:
    return 0 <= cell[0] < board.height and 0 <= cell[1] < board.width

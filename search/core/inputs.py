"""The guarded way in: every file gridcp reads comes through here.

- Only a regular file is opened (or standard input, where a command asks for
  it): a FIFO, a device such as ``/dev/zero``, a socket or a folder is refused
  before anything is read.  The file is opened without blocking and checked
  again on the open descriptor, so that swapping the path between the check and
  the open cannot slip a FIFO in.
- At most a byte cap is read, in chunks: a larger file is refused when the cap
  is passed, never read whole.  A puzzle file may also hold only so many lines.
- Text is UTF-8; a leading byte-order mark is dropped; lines end only at
  ``\\n``, ``\\r\\n`` or ``\\r`` (``lines``), never at the other characters
  ``str.splitlines`` breaks at (U+2028, U+0085, form feed, ...).  Control
  characters other than tab are refused in puzzle text, wherever they stand
  (the colour codes ``ESC[...m`` of a transcript are read as such).
- Integers are ASCII digits with a digit cap (``integer``), so that neither
  ``³`` nor a 5,000-digit number reaches ``int``.
- Grid readers count cells while they split rows (``Cells``), so that a board
  above the cell limit is refused on the row that passes it, before the rest of
  the file is split.
- A message never quotes more than ``SHOWN`` characters of the input and shows
  its non-printable characters escaped (``shown``, ``printable``).

Every problem is an ``InputError`` naming the file and, where there is one,
the line: exit 2 on the command line.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from search.core.contract import InputError, printable
from search.core.limits import BYTES_PER_CELL, TooLarge, max_cells

__all__ = ["Cells", "decode", "integer", "is_integer", "lines", "numbered",
           "printable", "read_bytes", "read_text", "record_of", "shown"]

STDIN = "-"
SHOWN = 80  # characters of a bad line a message quotes at most
MAX_DIGITS = 40  # digits of a number in a puzzle file (sizes, values, labels)
MAX_RECORD_DIGITS = 4000  # digits of a number in a results record (counts): under Python's 4,300
LINES_PER_CELL = 4  # lines a puzzle file may hold per allowed cell (a relation a line, comments)
MAX_TEXT_BYTES = 16 * 1024 * 1024  # a manifest, a suite or a table of answers
MAX_RESULTS_BYTES = 1024 * 1024 * 1024  # a results file of a sweep
CHUNK = 1024 * 1024

_BREAK = re.compile(r"\r\n|\r|\n")
_PLAIN = bytes(range(0x20, 0x7f)) + b"\t\n\r"  # the bytes of plain ASCII text
# A character no puzzle text holds: C0 and C1 controls but tab and the line ends
# (an escape only where it starts a colour code), line and paragraph separators,
# bidirectional overrides, a byte-order mark past the start.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
                      "\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
_INTEGER = re.compile(r"[+-]?[0-9]+")


# ---------------------------------------------------------------- opening


def _kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "something other than a regular file"


def _refuse(mode: int, source: str, what: str) -> None:
    if not stat.S_ISREG(mode):
        raise InputError(f"is {_kind_of(mode)}, not {what}", source)


def _open(path: str | Path, source: str, what: str) -> int:
    """A descriptor of the regular file at ``path``, or an InputError saying why not."""
    try:
        _refuse(os.stat(path).st_mode, source, what)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError("no such file", source) from None
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}", source) from None
    try:
        _refuse(os.fstat(fd).st_mode, source, what)  # the path may have changed meanwhile
    except BaseException:
        os.close(fd)
        raise
    return fd


def _too_large(limit: int, source: str) -> TooLarge:
    return TooLarge(f"the file has more than {limit:,} bytes, the limit for this kind of file"
                    + (f" ({max_cells():,} cells; --max-cells N raises it)"
                       if limit == max_cells() * BYTES_PER_CELL else ""), source)


def read_bytes(path: str | Path, limit: int, *, what: str = "a file",
               allow_stdin: bool = False) -> bytes:
    """The bytes of a regular file (``-``: standard input, when allowed), at most
    ``limit`` of them: a longer file is refused once the limit is passed."""
    source = str(path)
    if allow_stdin and source == STDIN:
        return _read_stream(sys.stdin.buffer.read, limit, "<stdin>")
    fd = _open(path, source, what)
    try:
        if os.fstat(fd).st_size > limit:
            raise _too_large(limit, source)
        return _read_stream(lambda size: os.read(fd, size), limit, source)
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror or error}", source) from None
    finally:
        os.close(fd)


def _read_stream(read, limit: int, source: str) -> bytes:
    chunks, size = [], 0
    while True:
        chunk = read(min(CHUNK, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise _too_large(limit, source)


def puzzle_bytes_limit() -> int:
    return max_cells() * BYTES_PER_CELL


def decode(data: bytes, source: str, *, puzzle: bool = True) -> str:
    """UTF-8 text without a leading byte-order mark; puzzle text is also held to
    ``check_text`` and to a number of lines the cell limit allows."""
    if b"\0" in data:
        what = "a puzzle" if puzzle else "text"
        raise InputError(f"binary file, not {what}", source)
    plain = not data.translate(None, _PLAIN)  # ASCII without control characters
    if puzzle:
        most = LINES_PER_CELL * max_cells() + 10_000
        found = data.count(b"\n")
        if found <= most and b"\r" in data:
            found = max(found, data.count(b"\r"))
        if found > most:
            raise TooLarge(f"the file has more than {most:,} lines, more than a board of the "
                           f"limit of {max_cells():,} cells takes (--max-cells N raises it)",
                           source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = len(_BREAK.findall(data[: error.start].decode("utf-8", "replace"))) + 1
        raise InputError("not UTF-8 text", source, line) from None
    text = text.removeprefix("\ufeff")
    if puzzle and not plain:
        check_text(text, source)
    return text


def read_text(path: str | Path, *, limit: int | None = None, puzzle: bool = True,
              what: str = "a puzzle file", allow_stdin: bool = False) -> str:
    """A file's text through every guard above; ``limit`` defaults to the puzzle
    file limit (``BYTES_PER_CELL`` per allowed cell) for puzzles, else
    ``MAX_TEXT_BYTES``."""
    if limit is None:
        limit = puzzle_bytes_limit() if puzzle else MAX_TEXT_BYTES
    data = read_bytes(path, limit, what=what, allow_stdin=allow_stdin)
    return decode(data, "<stdin>" if allow_stdin and str(path) == STDIN else str(path),
                  puzzle=puzzle)


# ---------------------------------------------------------------- text


def check_text(text: str, source: str) -> None:
    """Refuse a control character other than tab and the line ends (colour codes
    ``ESC[...m`` aside), naming its line and code point."""
    if text.isascii() and not text.encode("ascii").translate(None, _PLAIN):
        return  # plain ASCII, told in C: the scan below is for the rest
    at = 0
    while found := _CONTROL.search(text, at):
        colour = _COLOUR.match(text, found.start())
        if colour:
            at = colour.end()
            continue
        char = found.group()
        line = len(_BREAK.findall(text, 0, found.start())) + 1
        name = unicodedata.name(char, "a control character")
        raise InputError(f"the character U+{ord(char):04X} ({name}) has no place in a "
                         "puzzle file", source, line)


def lines(text: str) -> list[str]:
    """The lines of ``text``, split only at ``\\n``, ``\\r\\n`` and ``\\r`` (a final
    line end does not start an empty line), as ``str.splitlines`` would split a
    text that holds no other line-breaking character."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    parts = text.split("\n")
    if parts[-1] == "":
        parts.pop()
    return parts


def numbered(text: str, start: int = 1) -> Iterator[tuple[int, str]]:
    """(line number, line) of ``text``, as ``lines`` splits it."""
    return enumerate(lines(text), start)


def shown(text: str, width: int = SHOWN) -> str:
    """``text`` quoted for a message: non-printable characters escaped, at most
    ``width`` characters of it, an ellipsis and the full length when cut."""
    quoted = repr(text if len(text) <= width else text[:width])
    return quoted if len(text) <= width else f"{quoted}... ({len(text):,} characters)"


def integer(text: str, source: str, line: int | None = None, field: str = "a number",
            digits: int = MAX_DIGITS) -> int:
    """A whole number written in ASCII digits (an optional sign), at most ``digits``
    digits long, or an InputError naming ``field``."""
    word = text.strip()
    if not _INTEGER.fullmatch(word):
        raise InputError(f"{field} must be a whole number, found {shown(word)}", source, line)
    significant = len(word.lstrip("+-").lstrip("0"))
    if significant > digits:
        raise InputError(f"{field} has {significant:,} digits, more than the {digits} gridcp "
                         "reads", source, line)
    return int(word)


def is_integer(text: str, digits: int = MAX_DIGITS) -> bool:
    """Would ``integer`` read this word?"""
    word = text.strip()
    return bool(_INTEGER.fullmatch(word)) and len(word.lstrip("+-").lstrip("0")) <= digits


# ---------------------------------------------------------------- grids, counted while read


def _least_words(text: str, most: int) -> int:
    """At least how many words ``text`` holds, counted piece by piece (a piece's
    words only live while it is counted), stopping once more than ``most`` are
    sure: a word cut by a piece's end is counted twice, so one per cut is taken off."""
    counted = cuts = 0
    for start in range(0, len(text), CHUNK):
        counted += len(text[start:start + CHUNK].split())
        cuts += start > 0
        if counted - cuts > most:
            break
    return max(0, counted - cuts)


class Cells:
    """The cells a grid reader builds, counted row by row: a grid with more than
    ``per_cell`` x the cell limit pieces (cells, separators) is refused on the row
    that passes it, before the rest of the file is split into pieces."""

    def __init__(self, source: str, what: str = "board", per_cell: int = 1):
        self.source, self.what = source, what
        self.limit = max_cells() * per_cell
        self.left = self.limit

    def _refuse(self, line: int | None) -> TooLarge:
        return TooLarge(f"the {self.what} is above the limit of {max_cells():,} cells "
                        "(--max-cells N raises it)", self.source, line)

    def take(self, count: int, line: int | None = None) -> None:
        if count > self.left:
            raise self._refuse(line)
        self.left -= count

    def words(self, text: str, line: int | None = None) -> list[str]:
        """The white-space separated words of a row, counted."""
        if len(text) // 2 + 1 > self.left and _least_words(text, self.left) > self.left:
            raise self._refuse(line)  # too wide, told before the row is split
        found = text.split()
        self.take(len(found), line)
        return found

    def chars(self, text: str, line: int | None = None) -> list[str]:
        """The characters of a row, each a cell, counted."""
        self.take(len(text), line)
        return list(text)


# ---------------------------------------------------------------- JSON lines

def _capped_int(word: str) -> int:
    if len(word.lstrip("-").lstrip("0")) > MAX_RECORD_DIGITS:
        raise ValueError(f"a number of {len(word):,} digits")
    return int(word)


def _no_constant(word: str) -> float:
    raise ValueError(f"{word} is not a JSON number")


def record_of(line: str, source: str, number: int | None = None) -> dict:
    """One JSON object of a JSON-lines file, or an InputError naming the line."""
    import json  # here: only a results file needs it, and a puzzle's start-up would pay

    try:
        found = json.loads(line, parse_int=_capped_int, parse_constant=_no_constant)
    except RecursionError:
        raise InputError("a record nested too deeply", source, number) from None
    except ValueError as error:  # JSONDecodeError included
        raise InputError(f"not a JSON record: {shown(str(error))}", source, number) from None
    if not isinstance(found, dict):
        raise InputError(f"not a JSON object: {shown(line)}", source, number)
    return found

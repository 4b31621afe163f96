"""The guarded way in (``search.core.inputs``): what it refuses before opening,
how much it reads, where lines end, which characters and numbers it takes, and
how a grid is refused before it is built."""

from __future__ import annotations

import io
import os
import socket
import sys
import tracemalloc
from pathlib import Path

import pytest

from search.core import inputs
from search.core.contract import InputError
from search.core.limits import TooLarge, max_cells_set
from search.core.registry import load_puzzle, read_text
from search.lab.results import read_results

SEED3 = "3\n0 | 0 < 0\n- - ^ - -\n0 > 0 | 0\nv - - - -\n0 | 0 | 2\n"


# ---------------------------------------------------------------- what is opened


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "p.fut"
    os.mkfifo(fifo)  # no writer: opening it for reading would block forever
    with pytest.raises(InputError, match="FIFO") as error:
        read_text(fifo)
    assert error.value.source == str(fifo)


@pytest.mark.parametrize("path, word", [("/dev/zero", "device"), ("/dev/null", "device")])
def test_a_device_is_refused_before_it_is_read(path: str, word: str) -> None:
    with pytest.raises(InputError, match=word):
        inputs.read_text(path)


def test_a_folder_and_a_socket_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="a folder"):
        inputs.read_text(tmp_path)
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(tmp_path / "s"))
        with pytest.raises(InputError, match="socket"):
            inputs.read_text(tmp_path / "s")
    finally:
        sock.close()


def test_a_missing_file_and_a_symlink_to_a_regular_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        inputs.read_text(tmp_path / "nope")
    (tmp_path / "p.fut").write_text(SEED3)
    (tmp_path / "link.fut").symlink_to(tmp_path / "p.fut")  # reading through a link is fine
    assert inputs.read_text(tmp_path / "link.fut") == SEED3


def test_standard_input_only_when_asked(monkeypatch, tmp_path: Path) -> None:
    stream = io.TextIOWrapper(io.BytesIO(SEED3.encode()))
    monkeypatch.setattr(sys, "stdin", stream)
    assert inputs.read_text("-", allow_stdin=True) == SEED3
    with pytest.raises(InputError, match="no such file"):
        inputs.read_text("-")  # a file named '-' otherwise


# ---------------------------------------------------------------- how much is read


def test_the_byte_cap_stops_reading(tmp_path: Path) -> None:
    big = tmp_path / "big.fut"
    big.write_bytes(b"1" * 5000)
    with pytest.raises(TooLarge, match="more than 4,096 bytes"):
        inputs.read_bytes(big, 4096)
    assert len(inputs.read_bytes(big, 5000)) == 5000


def test_a_stream_is_read_only_up_to_the_cap(monkeypatch) -> None:
    """Standard input with no size (a pipe from /dev/zero) stops at the cap."""
    served = []

    class Endless:
        def read(self, size: int) -> bytes:
            served.append(size)
            return b"0" * size

    monkeypatch.setattr(sys, "stdin", type("S", (), {"buffer": Endless()})())
    with pytest.raises(TooLarge):
        inputs.read_bytes("-", 3 * inputs.CHUNK, allow_stdin=True)
    assert sum(served) == 3 * inputs.CHUNK + 1


def test_the_puzzle_file_cap_follows_max_cells(tmp_path: Path) -> None:
    file = tmp_path / "p.fut"
    file.write_text(SEED3 + "#" * 1000 + "\n")
    # 16 cells x 64 bytes = 1,024 bytes
    with max_cells_set(16), pytest.raises(TooLarge, match="--max-cells"):
        read_text(file)
    assert read_text(file).startswith(SEED3)


def test_a_file_of_empty_lines_is_refused_by_its_line_count(tmp_path: Path) -> None:
    file = tmp_path / "p.llk"
    file.write_bytes(b"1 1\n" + b"\n" * 20_000)  # under the 64,000 bytes of 1,000 cells
    with max_cells_set(1000), pytest.raises(TooLarge, match="lines"):
        read_text(file)


# ---------------------------------------------------------------- lines and characters


@pytest.mark.parametrize("text, lines", [
    ("a\nb\n", ["a", "b"]), ("a\r\nb", ["a", "b"]), ("a\rb\r", ["a", "b"]),
    ("a\u2028b\n", ["a\u2028b"]), ("a\x85b", ["a\x85b"]), ("a\x0cb\x1cc", ["a\x0cb\x1cc"]),
    ("", []), ("\n\n", ["", ""]), ("a\n\nb", ["a", "", "b"]),
])
def test_lines_end_only_at_lf_crlf_and_cr(text: str, lines: list[str]) -> None:
    assert inputs.lines(text) == lines
    assert [line for _, line in inputs.numbered(text)] == lines
    assert [n for n, _ in inputs.numbered(text)] == list(range(1, len(lines) + 1))


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1b", "\x7f",
                                  "\u202e", "\x1c"])
def test_control_characters_are_refused_with_their_line(tmp_path: Path, char: str) -> None:
    """A line separator in a comment once split the comment into a board row."""
    file = tmp_path / "p.nl"
    file.write_text(f"3 3\n# a comment{char}1 0 1\n1 0 0\n0 0 0\n0 0 0\n")
    with pytest.raises(InputError, match=f"U\\+{ord(char):04X}") as error:
        read_text(file)
    assert error.value.line == 2


def test_tabs_colour_codes_and_a_byte_order_mark_are_read(tmp_path: Path) -> None:
    file = tmp_path / "p.llk"
    file.write_bytes(b"\xef\xbb\xbf\x1b[31m1\x1b[0m\t2\n2 1\n")
    assert read_text(file) == "\x1b[31m1\x1b[0m\t2\n2 1\n"
    kind_, board = load_puzzle(file)
    assert kind_.name == "lianliankan" and board.grid == ((1, 2), (2, 1))


def test_a_message_quotes_at_most_80_characters_of_a_line() -> None:
    line = "x" * 60_000_000
    text = f"3\n{line}\n- - - - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n"
    with pytest.raises(InputError) as error:
        load_seed(text)
    assert len(str(error.value)) < 200
    assert "x" * 81 not in str(error.value)


def load_seed(text: str):
    from search.futoshiki.io import parse_seed

    return parse_seed(text, "p.fut")


def test_a_message_shows_control_characters_escaped() -> None:
    error = InputError("label \x1b]0;owned\x07 occurs once", "dir\x1b[2J/p.nl", 3)
    assert str(error) == "dir\\x1b[2J/p.nl:3: label \\x1b]0;owned\\x07 occurs once"
    assert str(error).isprintable()


# ---------------------------------------------------------------- numbers


@pytest.mark.parametrize("word, value", [("7", 7), (" +12 ", 12), ("-3", -3), ("007", 7),
                                         ("0" * 100 + "5", 5)])
def test_integer_reads_ascii_whole_numbers(word: str, value: int) -> None:
    assert inputs.integer(word, "f", 1, "n") == value


@pytest.mark.parametrize("word, problem", [("³", "whole number"), ("٣", "whole number"),
                                           ("1e3", "whole number"), ("", "whole number"),
                                           ("9" * 41, "41 digits"), ("9" * 5000, "5,000 digits")])
def test_integer_refuses_other_digits_and_long_numbers(word: str, problem: str) -> None:
    with pytest.raises(InputError, match=problem) as error:
        inputs.integer(word, "f.txt", 4, "the order n")
    assert error.value.line == 4 and "the order n" in error.value.message
    assert len(str(error.value)) < 200


@pytest.mark.parametrize("text", ["³\n0\n", "9" * 5000 + "\n0 | 0\n", "٣\n0 | 0\n"])
def test_the_futoshiki_order_is_refused_as_input(text: str) -> None:
    with pytest.raises(InputError) as error:
        load_seed(text)
    assert error.value.line == 1


# ---------------------------------------------------------------- grids, counted while read


def _peak_mb(action) -> float:
    tracemalloc.start()
    try:
        action()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak / 2**20


def test_a_wide_row_is_refused_before_it_is_split() -> None:
    row = "1 " * 10_000_000

    def read() -> None:
        with max_cells_set(1000), pytest.raises(TooLarge, match="above the limit") as error:
            inputs.Cells("p.llk").words(row, 7)
        assert error.value.line == 7

    assert _peak_mb(read) < 64  # a split row would hold 10 million strings (~600 MB)


@pytest.mark.parametrize("name, text", [
    ("futoshiki", "3\n" + "0 | " * 400_000 + "0\n- - - - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n"),
    ("numberlink", ("A" * 3000 + "\n") * 400),  # a bare letter grid
    ("lianliankan", ("1 " * 3000 + "\n") * 400),
])
def test_every_grid_reader_stops_at_the_cell_limit(name: str, text: str) -> None:
    from search.core.registry import kind

    def read() -> None:
        with max_cells_set(10_000), pytest.raises(TooLarge):
            kind(name).call("parse", text, "big")

    assert _peak_mb(read) < 16


# ---------------------------------------------------------------- JSON lines


GOOD = '{"instance": "a", "set": "s", "puzzle": "p", "backend": "b", "task": "solve", ' \
       '"status": "SOLVED", "wall": 0.1, "time_limit": 10}'


@pytest.mark.parametrize("line, problem", [
    ("[1, 2]", "not a JSON object"),
    ('{"instance": ', "not a JSON record"),
    ("[" * 100_000, "nested too deeply|not a JSON record"),
    ('{"count": ' + "9" * 5000 + "}", "not a JSON record"),
])
def test_a_bad_record_is_an_input_error_with_its_line(tmp_path: Path, line: str,
                                                      problem: str) -> None:
    file = tmp_path / "r.jsonl"
    file.write_text(f"{GOOD}\n\n{line}\n{GOOD}\n")
    with pytest.raises(InputError, match=problem) as error:
        read_results(file)
    assert error.value.line == 3


def test_a_cut_last_line_is_skipped_only_at_the_end(tmp_path: Path) -> None:
    file = tmp_path / "r.jsonl"
    file.write_text(f"{GOOD}\n{GOOD[:30]}")
    assert len(read_results(file)) == 1
    file.write_text(f"{GOOD[:30]}\n{GOOD}\n")
    with pytest.raises(InputError):
        read_results(file)
    file.write_text(f"{GOOD}\n{GOOD}")  # complete, only the line end missing: a record
    assert len(read_results(file)) == 2

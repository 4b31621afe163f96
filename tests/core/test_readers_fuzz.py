"""Property-based fuzzing of the readers (Hypothesis): whatever the text, reading
it gives a puzzle or an ``InputError`` with a line inside the file, never another
exception; and what a careful reader forgives (a byte-order mark, CR or CRLF line
ends, trailing blanks, no final newline) never changes the puzzle read."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from search.core.contract import InputError
from search.core.registry import detect, harmless, kind

PUZZLES = ("futoshiki", "numberlink", "lianliankan")
# The characters the formats are made of, so that texts get past the first line.
ALPHABET = "0123456789 \n|<>-^vV,.:;=#()xXAB\t" + "LINESZ_param"
FUZZ = settings(max_examples=int(os.environ.get("GRIDCP_FUZZ_EXAMPLES", 100)), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

GOOD = {
    "futoshiki": "3\n0 | 0 < 0\n- - ^ - -\n0 > 0 | 0\nv - - - -\n0 | 0 | 2\n",
    "numberlink": "3 3\n1 0 2\n0 0 0\n1 0 2\n",
    "lianliankan": "1 2 0\n2 1 0\n",
}


def lines_of_tokens() -> st.SearchStrategy[str]:
    """Texts shaped like the formats: a few lines of short tokens."""
    token = st.sampled_from(["0", "1", "2", "3", "10", "|", "<", ">", "-", "^", "v", ".",
                             "A", "B", "X", "| 1 |", "| |", "SIZE", "3X3", "LINE_NUM",
                             "LINE#1", "(0,0)-(2,2)", "param", ":=", ";", "1,0", "#"])
    line = st.lists(token, max_size=7).map(" ".join)
    return st.lists(line, min_size=1, max_size=8).map("\n".join)


def read(name: str, text: str) -> None:
    """Parse ``text`` as ``name``: fine, or an InputError with a line in the text."""
    try:
        kind(name).call("parse", text, "fuzz.txt")
    except InputError as error:
        assert error.source == "fuzz.txt"
        assert error.line is None or 1 <= error.line <= max(1, len(text.splitlines())), error


@pytest.mark.parametrize("name", PUZZLES)
@FUZZ
@given(text=st.one_of(st.text(ALPHABET, max_size=200), lines_of_tokens()))
@example(text="1 0")  # found by Hypothesis: a W H header with no rows was an IndexError
def test_any_text_is_a_puzzle_or_an_input_error(name: str, text: str) -> None:
    read(name, text)


@FUZZ
@given(text=st.one_of(st.text(ALPHABET, max_size=200), lines_of_tokens()))
def test_detection_is_a_kind_or_an_input_error(text: str) -> None:
    try:
        found = detect(text, "fuzz.txt")
    except InputError as error:
        assert error.source == "fuzz.txt"
        return
    read(found.name, text)


@pytest.mark.parametrize("name", PUZZLES)
@FUZZ
@given(bom=st.booleans(), ending=st.sampled_from(["\n", "\r\n", "\r"]),
       trailing=st.sampled_from(["", " ", "\t", "  \t"]), final=st.booleans())
def test_harmless_differences_read_the_same(name: str, bom: bool, ending: str,
                                             trailing: str, final: bool) -> None:
    text = GOOD[name]
    lines = [line + trailing for line in text.splitlines()]
    odd = ("\ufeff" if bom else "") + ending.join(lines) + (ending if final else "")
    parse = kind(name).parse
    assert kind(name).call("parse", harmless(odd), "x") == kind(name).call("parse", text, "x"), \
        parse

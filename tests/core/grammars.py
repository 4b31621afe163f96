"""Hypothesis strategies that write the files gridcp reads, by their grammars, and
then damage them.

Each format's strategy draws a small well-formed file: the three puzzles in
every format gridcp reads (Futoshiki: seed, Tatham's game ID and text dump,
CSV, AMPL data; Numberlink: seed grid, letter grid, number grid, contest
problem; Lianliankan: plain grid, the seed's printout), a ``manifest.tsv``, a
suite ``.toml`` and a results ``.jsonl``.  ``damaged`` then applies a few
damages to the bytes: truncation, insertion, repetition, byte mutation,
deletion, and line ends swapped for exotic ones (U+2028, U+0085, CR), with
pieces that broke readers before (huge numbers, ``³``, control characters,
invalid UTF-8).  The tests hold every reader, and the command line, to one
invariant: a result, or exit 2 naming the file.

``GRIDCP_FUZZ_EXAMPLES`` sets the examples of the quick runs (default 25);
the tests marked slow take ``LONG_EXAMPLES``.
"""

from __future__ import annotations

import json
import os
import random

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from search.futoshiki.formats import WRITERS as FUTOSHIKI_WRITERS
from search.futoshiki.io import format_seed
from search.lab.oracles.futoshiki import random_puzzle as random_futoshiki
from search.lab.oracles.lianliankan import random_puzzle as random_lianliankan
from search.lab.oracles.numberlink import random_board
from search.lianliankan.io import format_board
from search.lianliankan.io import format_seed as format_llk_seed
from search.numberlink.io import format_puzzle as format_nl_seed

QUICK_EXAMPLES = int(os.environ.get("GRIDCP_FUZZ_EXAMPLES", 25))
LONG_EXAMPLES = 20 * QUICK_EXAMPLES
QUICK = settings(max_examples=QUICK_EXAMPLES, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
LONG = settings(QUICK, max_examples=LONG_EXAMPLES)

seeds = st.integers(0, 2**32 - 1)


# ---------------------------------------------------------------- the puzzles


def _futoshiki(fmt: str, n: int, seed: int) -> str:
    puzzle = random_futoshiki(n, random.Random(seed), 0.3, 0.3)
    return format_seed(puzzle) if fmt == "seed" else FUTOSHIKI_WRITERS[fmt](puzzle)


def futoshiki(fmt: str) -> st.SearchStrategy[str]:
    # a text dump of order 1 is one character: no format can be told from it
    return st.builds(_futoshiki, st.just(fmt), st.integers(2 if fmt == "tatham-text" else 1, 4),
                     seeds)


def _numberlink(fmt: str, seed: int) -> str:
    puzzle = random_board(random.Random(seed), largest=5)
    height, width = puzzle.height, puzzle.width
    if fmt == "seed":
        return format_nl_seed(puzzle)
    ends = puzzle.endpoint
    if fmt == "adc":
        lines = [f"SIZE {width}X{height}", f"LINE_NUM {len(puzzle.pairs)}"]
        lines += [f"LINE#{i + 1} ({p.a[1]},{p.a[0]})-({p.b[1]},{p.b[0]})"
                  for i, p in enumerate(puzzle.pairs)]
        return "\n".join(lines) + "\n"
    letters = "ABCDEFGHIJKLMNOPQRSTUVWYZabcdefghijklmnopqrstuvwxyz"

    def cell(r: int, c: int) -> str:
        if (r, c) not in ends:  # blocked cells too: these formats have none
            return "." if fmt == "letters" else "0"
        return letters[ends[r, c] % len(letters)] if fmt == "letters" else str(ends[r, c] + 1)

    rows = [("" if fmt == "letters" else " ").join(cell(r, c) for c in range(width))
            for r in range(height)]
    head = [] if fmt == "letters" else [f"{width} {height}"]
    return "\n".join(head + rows) + "\n"


def numberlink(fmt: str) -> st.SearchStrategy[str]:
    return st.builds(_numberlink, st.just(fmt), seeds)


def _lianliankan(fmt: str, width: int, height: int, seed: int) -> str:
    board = random_lianliankan(width, height, random.Random(seed))
    return format_board(board) if fmt == "grid" else format_llk_seed(board)


def lianliankan(fmt: str) -> st.SearchStrategy[str]:
    return st.builds(_lianliankan, st.just(fmt), st.integers(1, 5), st.integers(1, 5), seeds)


PUZZLE_FORMATS = {
    **{f"futoshiki {fmt}": futoshiki(fmt)
       for fmt in ("seed", "tatham", "tatham-text", "csv", "dat")},
    **{f"numberlink {fmt}": numberlink(fmt) for fmt in ("seed", "letters", "numbers", "adc")},
    **{f"lianliankan {fmt}": lianliankan(fmt) for fmt in ("grid", "seed")},
}


# ---------------------------------------------------------------- config and results files

TASK_ANSWERS = {"count": st.integers(0, 10**30).map(str),
                "unique": st.sampled_from(["UNSAT", "UNIQUE", "MULTIPLE"]),
                "solve": st.sampled_from(["SOLVED", "UNSAT"]),
                "check": st.sampled_from(["yes", "no"])}


@st.composite
def manifest(draw, files: tuple[str, ...] = ("p.fut",)) -> str:
    """A ``manifest.tsv`` naming ``files`` (the puzzles beside it)."""
    lines = ["# expected answers", "file\ttask\trules\texpected\tnote"]
    for _ in range(draw(st.integers(1, 5))):
        task = draw(st.sampled_from(sorted(TASK_ANSWERS)))
        rules = draw(st.sampled_from(["", "lenient", "border", "border,gravity", "turns=2"]))
        lines.append("\t".join([draw(st.sampled_from(files)), task, rules,
                                draw(TASK_ANSWERS[task]), draw(st.sampled_from(["", "a note"]))]))
    return "\n".join(lines) + "\n"


def _toml_value(value: object) -> str:
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(map(_toml_value, value)) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + "}"
    return str(value)


@st.composite
def suite(draw, paths: tuple[str, ...] = ("p.fut",)) -> str:
    """A suite ``.toml`` with a few of its keys and one or two [[instances]]."""
    top = {"description": draw(st.sampled_from(["a suite", "x"])),
           "backends": draw(st.sampled_from([["search"], ["search", "cpsat"],
                                              [{"name": "g", "backend": "search"}]])),
           "tasks": draw(st.sampled_from([["solve"], ["solve", "count"]])),
           "time_limit": draw(st.sampled_from([1, 2.5, 10])),
           "rules": draw(st.sampled_from([[{}], [{}, {"lenient": True}]]))}
    keys = draw(st.lists(st.sampled_from(sorted(top)), unique=True))
    lines = [f"{k} = {_toml_value(top[k])}" for k in keys]
    if draw(st.booleans()):
        lines += ["[report]", 'by = ["size"]', 'scatter = ["search", "cpsat"]']
    for _ in range(draw(st.integers(1, 2))):
        lines.append("[[instances]]")
        if draw(st.booleans()):
            lines.append(f"paths = {_toml_value(list(paths))}")
        else:
            lines += ['generator = "futoshiki-random"', 'sizes = ["3x3"]',
                      f"seeds = {draw(st.integers(0, 3))}"]
        if draw(st.booleans()):
            lines.append(f"first = {draw(st.integers(0, 5))}")
    return "\n".join(lines) + "\n"


@st.composite
def results(draw) -> str:
    """A results ``.jsonl``: a sweep header, then run records."""
    lines = [json.dumps({"sweep": {"command": "python -m search bench p.fut", "suite": None,
                                   "host": "h", "runs": 2}})]
    for _ in range(draw(st.integers(1, 6))):
        status = draw(st.sampled_from(["SOLVED", "UNSAT", "COUNTED", "LIMIT", "ERROR"]))
        task = "count" if status == "COUNTED" else draw(st.sampled_from(["solve", "check"]))
        run = {"instance": draw(st.sampled_from(["a.fut", "b.fut", "<b>c</b>.nl"])),
               "set": ".", "puzzle": "futoshiki", "size": "3x3",
               "backend": draw(st.sampled_from(["search", "cpsat"])), "task": task,
               "rules": {}, "time_limit": 10.0, "status": status,
               "wall": draw(st.floats(0, 10)), "effort": {"nodes": draw(st.integers(0, 99))}}
        if status == "COUNTED":
            run["count"] = draw(st.integers(0, 10**40))
        if status == "ERROR":
            run["message"] = draw(st.sampled_from(["boom", "x | y", "<i>z</i>"]))
        lines.append(json.dumps(run))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- damage

PIECES = [b"\xe2\x80\xa8", b"\xc2\x85", b"\r", b"\r\n", b"\n", b"\x00", b"\x1b]0;x\x07",
          b"\x1b[31m", b"9" * 5000, "³".encode(), "٣".encode(), b"-1", b"0", b" ", b"\t",
          b"#", b"|", b",", b":", b"x" * 100, b"\xef\xbb\xbf", b"\xff", b"{", b"}", b'"',
          b"[[instances]]", b"=", b"1e999", b"NaN", b"99999999999"]
BREAKS = [b"\r", b"\r\n", b"\xe2\x80\xa8", b"\xc2\x85", b"\n\n"]


@st.composite
def damage(draw, data: bytes) -> bytes:
    """One damage to ``data``."""
    size = len(data)
    at = draw(st.integers(0, size))
    kind = draw(st.sampled_from(["truncate", "insert", "repeat", "mutate", "delete",
                                 "breaks", "none"]))
    if kind == "truncate":
        return data[:at]
    if kind == "insert":
        return data[:at] + draw(st.sampled_from(PIECES)) + data[at:]
    if kind == "repeat":
        end = draw(st.integers(at, min(size, at + 200)))
        return data[:at] + data[at:end] * draw(st.integers(2, 50)) + data[at:]
    if kind == "mutate" and size:
        at = min(at, size - 1)
        return data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1:]
    if kind == "delete":
        end = draw(st.integers(at, min(size, at + 20)))
        return data[:at] + data[end:]
    if kind == "breaks":
        return data.replace(b"\n", draw(st.sampled_from(BREAKS)))
    return data


@st.composite
def damaged(draw, files: st.SearchStrategy[str]) -> bytes:
    """A file of ``files``, damaged up to three times (sometimes not at all)."""
    data = draw(files).encode("utf-8")
    for _ in range(draw(st.integers(0, 3))):
        data = draw(damage(data))
    return data

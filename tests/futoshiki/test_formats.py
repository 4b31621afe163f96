"""Futoshiki file formats: every reader on its examples and on broken input, every
writer round-tripping every bundled instance, and the bundled manifest against the
public index it was copied from."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from search.app.manifest import read_manifest
from search.core.contract import GridcpError, InputError
from search.core.registry import load_puzzle
from search.futoshiki.formats import (
    READERS,
    WRITERS,
    format_tatham,
    parse_csv,
    parse_dat,
    parse_tatham,
    parse_tatham_text,
    sniff_format,
)
from search.futoshiki.io import format_seed, parse, parse_seed
from search.futoshiki.model import Futoshiki, Solution
from search.futoshiki.verify import verify
from tests.conftest import INSTANCES, shared

FOLDER = INSTANCES / "futoshiki"
NOT_PUZZLES = {"manifest.tsv", "solutions.tsv", "SOURCES.md"}
FILES = sorted(p for p in FOLDER.rglob("*") if p.is_file() and p.name not in NOT_PUZZLES)


def names(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(FOLDER)) for p in paths]


# The Tatham ID of the 4 x 4 "Easy" puzzle u04_easy_1 and the same puzzle spelt out.
TATHAM_ID = "4:0,0L,0,0,0,0U,0,0,0,0,3,0,0R,0R,0,2,"
SEED = """4
0 < 0 | 0 | 0
- - ^ - - - -
0 | 0 | 0 | 0
- - - - - - -
0 | 0 | 3 | 0
- - - - - - -
0 > 0 > 0 | 2
"""
TEXT = "\n".join([".<. . .", "  ^    ", ". . . .", " " * 7, ". . 3 .", " " * 7, ".>.>. 2", ""])
CSV = """4
0,0,0,0
0,0,0,0
0,0,3,0
0,0,0,2
1,0,0
0,0,0
0,0,0
-1,-1,0
0,1,0,0
0,0,0,0
0,0,0,0
"""
DAT = """# a comment
param SIZE := 4;
param values: 1 2 3 4 :=
  1  . . . .
  2  . . . .
  3  . . 3 .
  4  . . . 2
;
param lastdx = 3;
param lt: 0 1 2 3 :=
  0  1 1  1 2
  1  1 2  2 2
  2  4 2  4 1
  3  4 3  4 2
;
"""
EXAMPLES = {"tatham": TATHAM_ID, "tatham-text": TEXT, "csv": CSV, "dat": DAT}


# ---------------------------------------------------------------- readers on examples


@pytest.mark.parametrize("fmt", list(EXAMPLES))
def test_each_reader_reads_its_example_as_the_seed_file_says(fmt: str) -> None:
    expected = parse_seed(SEED, "seed")
    assert expected.less == (((0, 0), (0, 1)), ((0, 1), (1, 1)), ((3, 1), (3, 0)),
                             ((3, 2), (3, 1)))
    assert sniff_format(EXAMPLES[fmt]) == fmt
    assert READERS[fmt](EXAMPLES[fmt], "example") == expected
    assert parse(EXAMPLES[fmt], "example") == expected  # the dispatch in io


def test_seed_text_and_other_puzzles_are_no_other_format() -> None:
    assert sniff_format(SEED) is None
    numberlink = "5 6\n- - - - -\n- 1 - - -\n- - - - -\n- 2 - 1 -\n- - - - -\n- - - - 2\n"
    assert sniff_format(numberlink) is None


@pytest.mark.parametrize("fmt", list(EXAMPLES))
def test_each_writer_reproduces_the_example(fmt: str) -> None:
    expected = TATHAM_ID + "\n" if fmt == "tatham" else EXAMPLES[fmt]
    if fmt == "dat":
        expected = expected.replace("# a comment\n", "")
    assert WRITERS[fmt](parse_seed(SEED, "seed")) == expected


def test_tatham_grade_comments_skips_and_big_numbers() -> None:
    with_grade = "# Tatham Unequal, grade Easy\n4de:" + TATHAM_ID[2:] + "\n"
    assert parse_tatham(with_grade) == parse_tatham(TATHAM_ID)
    # skip letters (loader only): 'b' leaves two cells empty before the number
    assert parse_tatham("3:1,b2,0,0,0,0,0,").givens == ((1, 0, 0), (2, 0, 0), (0, 0, 0))
    twelve = parse_tatham("12:" + "12," + "0," * 142 + "11,")
    assert twelve.givens[0][0] == 12 and twelve.givens[11][11] == 11
    assert "12" in format_tatham(twelve) and parse_tatham(format_tatham(twelve)) == twelve


def test_tatham_text_letters_from_order_ten() -> None:
    puzzle = Futoshiki(10, ((10, 1) + (0,) * 8,) + ((0,) * 10,) * 9,
                       (((0, 0), (1, 0)), ((0, 1), (0, 0))))
    text = WRITERS["tatham-text"](puzzle)
    assert text.startswith("9>0 . . . . . . . .\n^ ")
    assert parse_tatham_text(text) == puzzle
    eleven = Futoshiki(11, ((11,) + (0,) * 10,) + ((0,) * 11,) * 10)
    assert WRITERS["tatham-text"](eleven)[0] == "A"
    assert parse_tatham_text(WRITERS["tatham-text"](eleven)) == eleven


def test_csv_skips_blank_and_comment_lines() -> None:
    commented = "# VifeAgent layout\n\n" + CSV.replace("\n1,0,0\n", "\n\n# horizontal\n1,0,0\n")
    assert parse_csv(commented) == parse_csv(CSV)


# ---------------------------------------------------------------- readers on bad input


def _error(reader, text: str) -> InputError:
    with pytest.raises(InputError) as caught:
        reader(text, "bad.txt")
    assert caught.value.source == "bad.txt"
    return caught.value


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("4:0,0,0,0,", 1, "4 cells for order 4: expected 16"),
        ("2:0,0,0,0,0,", 1, "more than 4 cells"),
        ("2:0X,0,0,0,", 1, "unexpected 'X'"),
        ("2:0,0R,0,0,", 1, "flag R points off the grid"),
        ("2:0U,0,0,0,", 1, "flag U points off the grid"),
        ("2:0R,0L,0,0,", 1, "contradicts"),
        ("2:0D,0,0U,0,", 1, "contradicts"),
        ("2:3,0,0,0,", 1, "value 3 out of range 0..2"),
        ("# grade\n3a:0R,0,0,0,0,0,0,0,0,", 2, "bar R is not flagged back"),
        ("5dz:0,", 1, "unknown grade 'dz'"),
        ("40:0,", 1, "order 40 out of range"),
        ("5#1234", 1, "random-seed ID"),
        ("2:0,0,0,0,\n2:0,0,0,0,", 2, "one game ID per file"),
        ("2:0,,0,0,", 1, "cell 2: expected a number"),
    ],
)
def test_tatham_id_errors(text: str, line: int, words: str) -> None:
    error = _error(parse_tatham, text)
    assert words in error.message and error.line == line


@pytest.mark.parametrize(
    "text, line, words",
    [
        (". . .\n     \n. . .\n", 3, "so 5 lines were expected, found 3"),
        (". . .\n     \n. . .\n     \n. . . .\n", 5, "longer than the 5 characters"),
        (".|.\n   \n.<.\n", 3, "bars ('|', '-'), not inequalities"),
        (". .\n-  \n.>.\n", 3, "bars ('|', '-'), not inequalities"),
        (". .\nx  \n. .\n", 2, "expected 'v', '^', '-' or a space"),
        (". 3\n   \n. .\n", 1, "'3' is not a value of an order-2 grid"),
        (".>.\n   \n.<.\n", 3, ""),
        (". .\nv  \n. .\n", 2, ""),
    ],
)
def test_tatham_text_errors(text: str, line: int, words: str) -> None:
    if not words:  # well-formed: the sanity cases of the table
        parse_tatham_text(text)
        return
    error = _error(parse_tatham_text, text)
    assert words in error.message and error.line == line


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("x\n", 1, "first line must be the size"),
        ("2\n0,0\n0,0,0\n0\n0\n0,0\n", 3, "expected 2 comma-separated numbers, found 3"),
        ("2\n0,0\n0,0\n0\n0\n0,0\n0,0\n", 7, "expected 5 rows after the size"),
        ("2\n0,0\n0,0\n0\n0\n", 5, "expected 5 rows after the size"),
        ("2\n0,a\n0,0\n0\n0\n0,0\n", 2, "not a list of integers"),
        ("2\n0,3\n0,0\n0\n0\n0,0\n", 2, "value 3 out of range"),
        ("2\n0,0\n0,0\n2\n0\n0,0\n", 4, "expected 0, 1 or -1"),
    ],
)
def test_csv_errors(text: str, line: int, words: str) -> None:
    error = _error(parse_csv, text)
    assert words in error.message and error.line == line


@pytest.mark.parametrize(
    "change, line, words",
    [
        (("  1  . . . .\n", "  1  . . .\n"), 4, "a row needs a label and 4 entries"),
        (("param lastdx = 3;", "param lastdx = 4;"), 9, "lastdx = 4 but lt has 4 rows"),
        (("  0  1 1  1 2\n", "  0  1 1  2 2\n"), 11, "not neighbours"),
        (("  1  1 2  2 2\n", "  1  1 2  1 1\n"), 12, "contradicts"),
        (("  0  1 1  1 2\n", "  0  0 1  1 1\n"), 11, "leaves the 4 x 4 grid"),
        (("  3  . . 3 .", "  3  . . 9 ."), 6, "value 9 out of range"),
        (("param SIZE := 4;", "param SIZE := 4;\nparam foo := 1;"), 3, "unknown parameter"),
        (("  3  4 3  4 2\n;\n", "  3  4 3  4 2\n"), 10, "not ended by ';'"),
        (("param values: 1 2 3 4 :=", "param values: 1 2 3 :="), 3, "column labels must be"),
    ],
)
def test_dat_errors(change: tuple[str, str], line: int, words: str) -> None:
    broken = DAT.replace(*change)
    assert broken != DAT
    error = _error(parse_dat, broken)
    assert words in error.message and error.line == line


def test_dat_without_values_is_refused() -> None:
    assert "no 'param values'" in _error(parse_dat, "param SIZE := 2;\n").message


# ---------------------------------------------------------------- every bundled file


@pytest.mark.parametrize("path", FILES, ids=names(FILES))
def test_bundled_file_round_trips_through_every_format(path: Path) -> None:
    kind, puzzle = load_puzzle(path)  # the kind is detected from the file alone
    assert kind.name == "futoshiki"
    if not puzzle.adjacent:
        assert parse(format_seed(puzzle), "seed") == puzzle
    for fmt, write in WRITERS.items():
        if puzzle.n == 1 and fmt in ("tatham-text", "csv"):
            continue  # one cell, no relations: the same text as a seed file
        if puzzle.adjacent and fmt in ("csv", "dat"):
            with pytest.raises(GridcpError, match="no Adjacent mode"):
                write(puzzle)
            continue
        text = write(puzzle)
        assert sniff_format(text) == fmt
        assert READERS[fmt](text, fmt) == puzzle, fmt


def test_vifeagent_csv_and_seed_copies_are_the_same_puzzles() -> None:
    csv_files = sorted((FOLDER / "vifeagent" / "csv").iterdir())
    assert csv_files
    for path in csv_files:
        seed_copy = FOLDER / "vifeagent" / "seed" / path.name
        assert parse(path.read_text(), str(path)) == parse(seed_copy.read_text(), "seed")
        assert WRITERS["csv"](parse_csv(path.read_text())) == path.read_text()  # byte for byte


def _manifest() -> dict[str, dict[str, str]]:
    rows: dict[str, dict[str, str]] = {}
    for row in read_manifest(FOLDER / "manifest.tsv"):
        assert row.path.exists(), row.path
        rows.setdefault(str(row.path.relative_to(FOLDER)), {})[row.task] = row.expected
    return rows


def _solutions() -> dict[str, str]:
    with open(FOLDER / "solutions.tsv") as handle:
        return {row["file"]: row["solution"] for row in csv.DictReader(handle, delimiter="\t")}


def test_manifest_has_a_count_and_a_verdict_for_every_file() -> None:
    rows = _manifest()
    assert sorted(rows) == names(FILES)
    solutions = _solutions()
    for name, tasks in rows.items():
        count = int(tasks["count"])
        assert tasks["unique"] == (("UNSAT", "UNIQUE")[count] if count < 2 else "MULTIPLE")
        assert (name in solutions) == (count == 1), name


def test_known_solutions_are_valid() -> None:
    for name, text in _solutions().items():
        puzzle = parse((FOLDER / name).read_text(), name)
        values = [int(v) for v in text.split(",")]
        grid = tuple(tuple(values[r * puzzle.n:(r + 1) * puzzle.n]) for r in range(puzzle.n))
        assert verify(puzzle, Solution(grid)) == [], name


HANDMADE = {"handmade/seed_example_3.txt": 1, "handmade/unsat_4.txt": 0}


def test_manifest_agrees_with_the_public_index() -> None:
    """Each bundled puzzle is one of the public index's puzzles (matched by content,
    whatever its format), with the index's order, count and solution."""
    folder = shared("instances-public", "futoshiki")
    with open(folder / "index.tsv") as handle:
        index = list(csv.DictReader(handle, delimiter="\t"))
    by_puzzle = {parse_seed((folder / row["path"]).read_text(), row["path"]): row
                 for row in index}
    solutions = _solutions()
    # Adjacent puzzles are not in the index (its files are in the seed's format,
    # which has no bars): they are held to Tatham's game IDs instead.
    ids = {}
    for line in (folder / "tatham-unequal" / "gameids.tsv").read_text().splitlines():
        game, _, rest = line.partition("\t")
        ids[game] = rest.split("\t")
    for name, tasks in _manifest().items():
        puzzle = parse((FOLDER / name).read_text(), name)
        if name in HANDMADE:
            assert int(tasks["count"]) == HANDMADE[name]
            continue
        if puzzle.adjacent:
            grade, solution = ids[format_tatham(puzzle).strip()][:2]
            assert tasks["count"] == "1" and grade.lower() in name, name
            if name in solutions:
                assert solutions[name].replace(",", "") == solution, name
            continue
        row = by_puzzle.get(puzzle)
        assert row is not None, f"{name} is not in the public index"
        assert puzzle.n == int(row["n"]), name
        assert tasks["count"] == row["solutions"], name
        if name in solutions:
            assert solutions[name] == row["solution"], name


def test_every_public_tatham_id_is_written_back_character_for_character() -> None:
    folder = shared("instances-public", "futoshiki", "tatham-unequal")
    ids = [line.split("\t")[0] for line in (folder / "gameids.tsv").read_text().splitlines()]
    unequal = [i for i in ids if "a" not in i.partition(":")[0]]
    assert len(unequal) == 127 and len(ids) == 131
    for game_id in ids:  # the four Adjacent-mode IDs too
        assert format_tatham(parse_tatham(game_id, "gameids.tsv")) == game_id + "\n"

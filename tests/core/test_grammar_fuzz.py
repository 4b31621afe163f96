"""Fuzzing by grammar, through the real readers: every format's files, written by
the strategies of ``tests.core.grammars`` and damaged, read from disk as gridcp
reads them.  The invariant: a puzzle (or manifest, suite, records), or an
``InputError`` naming the file, with a line inside it when it names one; never
another exception."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given

from search.app.manifest import read_manifest
from search.core.contract import GridcpError, InputError
from search.core.registry import load_puzzle
from search.lab.results import read_results, read_sweeps
from search.lab.suites import load_suite
from tests.core.grammars import LONG, PUZZLE_FORMATS, QUICK, damaged, manifest, results, suite

SEED3 = "3\n0 | 0 < 0\n- - ^ - -\n0 > 0 | 0\nv - - - -\n0 | 0 | 2\n"


def holds(read, name: str, data: bytes) -> None:
    """``read(path)`` on a file holding ``data``: fine, or an InputError naming it."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        (Path(folder) / "p.fut").write_text(SEED3)
        try:
            read(path)
        except InputError as error:
            assert error.source == str(path), error
            lines = data.count(b"\n") + data.count(b"\r") + 1
            assert error.line is None or 1 <= error.line <= lines, error
            assert str(error).isprintable() and len(str(error)) <= 400


def read_puzzle(path: Path) -> None:
    kind_, puzzle = load_puzzle(path)
    assert kind_.name in ("futoshiki", "numberlink", "lianliankan") and puzzle is not None


def read_suite(path: Path) -> None:
    try:
        load_suite(str(path))
    except InputError:
        raise
    except GridcpError as error:  # about the suite but not its text (a path it names)
        assert "suite" in str(error) or str(path) in str(error), error


def read_records(path: Path) -> None:
    read_results(path)
    read_sweeps(path)


NAMES = {"futoshiki": "x.fut", "numberlink": "x.nl", "lianliankan": "x.llk"}


def _run_puzzles(fmt: str, data: bytes) -> None:
    holds(read_puzzle, "x.txt", data)  # detected by content
    holds(read_puzzle, NAMES[fmt.split()[0]], data)  # by extension


@pytest.mark.parametrize("fmt", sorted(PUZZLE_FORMATS))
def test_damaged_puzzle_files(fmt: str) -> None:
    given(data=damaged(PUZZLE_FORMATS[fmt]))(QUICK(lambda data: _run_puzzles(fmt, data)))()


@pytest.mark.slow
@pytest.mark.parametrize("fmt", sorted(PUZZLE_FORMATS))
def test_damaged_puzzle_files_long(fmt: str) -> None:
    given(data=damaged(PUZZLE_FORMATS[fmt]))(LONG(lambda data: _run_puzzles(fmt, data)))()


CONFIGS = {"manifest": (manifest(), read_manifest, "manifest.tsv"),
           "suite": (suite(), read_suite, "s.toml"),
           "results": (results(), read_records, "r.jsonl")}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_damaged_config_and_results_files(name: str) -> None:
    files, read, file = CONFIGS[name]
    given(data=damaged(files))(QUICK(lambda data: holds(read, file, data)))()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_damaged_config_and_results_files_long(name: str) -> None:
    files, read, file = CONFIGS[name]
    given(data=damaged(files))(LONG(lambda data: holds(read, file, data)))()


@pytest.mark.parametrize("fmt", sorted(PUZZLE_FORMATS))
def test_the_undamaged_files_read(fmt: str) -> None:
    """The grammars write files the readers take (else the damage tests test little)."""
    @QUICK
    @given(text=PUZZLE_FORMATS[fmt])
    def reads(text: str) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / NAMES[fmt.split()[0]]
            path.write_text(text)
            try:
                load_puzzle(path)
            except InputError as error:  # only what the rules refuse, never the grammar
                assert "label" in error.message or "relation" in error.message \
                    or "pictures with an odd" in error.message, (text, error)

    reads()

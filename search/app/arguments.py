"""What the commands share below the command line: exit codes, argparse
types and options, and the rule-variant flags applied to a puzzle.

``search.app.cli`` and the commands that plug into it (crosscheck, bench,
report) import from here, never from each other.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from search.core.contract import InputError
from search.core.limits import DEFAULT_MAX_CELLS, DEFAULT_MEMORY_MB
from search.core.puzzlekind import Option, PuzzleKind
from search.core.registry import PUZZLES, kinds

YES, NO, USAGE, UNDECIDED, BUG = 0, 1, 2, 3, 4
EXIT_CODES = ("Exit codes: 0 yes, 1 no, 2 bad usage or input, 3 a limit (time or memory) "
              "stopped it undecided, 4 an internal error (a bug in gridcp).")


def worst(codes: list[int]) -> int:
    """One exit code for many answers: bad input, then no, then undecided, then yes."""
    for code in (USAGE, NO, UNDECIDED):
        if code in codes:
            return code
    return YES


def positive(kind: type) -> Callable[[str], Any]:
    """An argparse type: a number above zero, or a usage error (exit 2)."""
    return bounded_number(kind, above=0)


def at_least(low: float, kind: type = int, high: float | None = None) -> Callable[[str], Any]:
    """An argparse type: a number in low..high, or a usage error (exit 2)."""
    return bounded_number(kind, low=low, high=high)


def bounded_number(kind: type, *, above: float | None = None, low: float | None = None,
                   high: float | None = None) -> Callable[[str], Any]:
    def convert(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value != value or value in (float("inf"), float("-inf")):  # nan, inf
            raise argparse.ArgumentTypeError(f"not a finite number: {text!r}")
        if above is not None and not value > above:
            raise argparse.ArgumentTypeError(f"must be above {above}, found {text}")
        if low is not None and value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, found {text}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high}, found {text}")
        return value

    convert.__name__ = kind.__name__  # argparse names the type in its messages
    return convert


def add_debug_argument(parser: argparse.ArgumentParser, default: Any = False) -> None:
    parser.add_argument("--debug", action="store_true", default=default,
                        help="show the traceback of an internal error (exit 4)")


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """The size limit of the readers (and ``--debug``), for every command that reads
    or makes boards."""
    parser.add_argument("--max-cells", type=positive(int), metavar="N",
                        help="refuse boards of more than N cells before reading them "
                             f"(default {DEFAULT_MAX_CELLS:,}; also $GRIDCP_MAX_CELLS)")
    add_debug_argument(parser, argparse.SUPPRESS)


def add_memory_argument(parser: argparse.ArgumentParser) -> None:
    """``--memory-limit``: the command-line process's address space; running out
    is a LIMIT answer (exit 3)."""
    parser.add_argument("--memory-limit", type=at_least(0, float), metavar="MB",
                        help=f"address space of this run (default {DEFAULT_MEMORY_MB}; 0: none); "
                             "given, it also sets the memory budget of engines that keep "
                             "their own (count-dp: this less 256 MB)")
    parser.set_defaults(cap_memory=True)


def add_comparison_command(commands: argparse._SubParsersAction, name: str, text: str,
                           epilog: str, nargs: str, run: Callable[[Any], int],
                           time_limit: float) -> argparse.ArgumentParser:
    """A command that runs several backends on files (crosscheck, bench)."""
    sub = commands.add_parser(name, help=text, description=text, epilog=epilog)
    sub.add_argument("files", nargs=nargs, metavar="FILE|DIR")
    add_common_arguments(sub)
    sub.set_defaults(time_limit=time_limit, run=run)
    sub.add_argument("--backends", help="comma-separated backend names (default: all); "
                     "NAME=package.module:Class adds an unregistered engine")
    return sub


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """Options shared by every command that runs backends on files."""
    parser.add_argument("--puzzle", choices=PUZZLES, help="the puzzle kind (default: detected)")
    parser.add_argument("--time-limit", type=positive(float), metavar="S",
                        help="seconds per task")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--manifest-rules", action="store_true",
                        help="run each file under every rule set its manifest.tsv lists "
                             "(files not listed: the rule flags given)")
    add_limit_arguments(parser)
    for option in all_rule_options():
        parser.add_argument(*option.flags, dest=option.dest, help=option.help,
                            **option.kwargs)


def all_rule_options() -> list[Option]:
    """The rule-variant flags of every puzzle, each once."""
    seen = {}
    for kind_ in kinds():
        for option in kind_.options:
            seen.setdefault(option.dest, option)
    return list(seen.values())


def chosen_rules(kind_: PuzzleKind, args: Any, source: str) -> dict[str, Any]:
    """The rule flags given away from their defaults; refuse ones the puzzle lacks."""
    own = {option.dest for option in kind_.options}
    chosen = {}
    for option in all_rule_options():
        value = getattr(args, option.dest, None)
        if value in (None, False) or value == option.kwargs.get("default"):
            continue
        if option.dest not in own:
            raise InputError(f"{option.flags[0]} does not apply to {kind_.name}", source)
        chosen[option.dest] = value
    return chosen


def apply_rule_options(kind_: PuzzleKind, puzzle: Any, args: Any, source: str) -> Any:
    """Set the rule variants given on the command line; refuse ones the puzzle lacks."""
    chosen = chosen_rules(kind_, args, source)
    if not kind_.options:
        return puzzle
    given = {option.dest: getattr(args, option.dest, None) for option in kind_.options}
    given = {k: v for k, v in given.items() if v is not None}
    return kind_.call("apply_options", puzzle, {**given, **chosen})


@dataclass(frozen=True)
class Variant:
    """A puzzle under one rule set: its name (``ring.llk [border]``), the rule
    flags away from their defaults, and the puzzle under them."""

    name: str
    rules: dict[str, Any]
    puzzle: Any


def rule_variants(kind_: PuzzleKind, puzzle: Any, path: str, args: Any) -> list[Variant]:
    """The puzzle under the rules of the flags, or with ``--manifest-rules`` (or
    ``--manifest``) under each rule set the manifest lists for the file."""
    from_manifest = getattr(args, "manifest_rules", False) or getattr(args, "manifest", False)
    try:
        return _variants(kind_, puzzle, path, args, from_manifest)
    except InputError as error:  # a rule the file cannot take: name the file
        if error.source != "<input>":
            raise
        raise InputError(error.message, path, error.line) from None


def _variants(kind_: PuzzleKind, puzzle: Any, path: str, args: Any,
              from_manifest: bool) -> list[Variant]:
    if not from_manifest:  # the manifest reader (and csv) load only for these flags
        return [Variant(path, chosen_rules(kind_, args, path),
                        apply_rule_options(kind_, puzzle, args, path))]
    from search.app.manifest import labelled, listed_rules, with_defaults

    listed = listed_rules(Path(path), kind_)
    if not (listed and kind_.options):
        return [Variant(path, chosen_rules(kind_, args, path),
                        apply_rule_options(kind_, puzzle, args, path))]
    return [Variant(labelled(path, rules), rules,
                    kind_.call("apply_options", puzzle, with_defaults(kind_, rules)))
            for rules in listed]


def version() -> str:
    """gridcp's version: the installed package's, else the checkout's pyproject.toml."""
    from importlib import metadata

    try:
        return metadata.version("gridcp")
    except metadata.PackageNotFoundError:
        import tomllib

        pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
        try:
            return tomllib.loads(pyproject.read_text())["project"]["version"]
        except (OSError, KeyError, tomllib.TOMLDecodeError):
            return "unknown"

"""What the commands share below the command line: exit codes, argparse
types and options, and the rule-variant flags applied to a puzzle.

``search.app.cli`` and the commands that plug into it (crosscheck, bench,
report) import from here, never from each other.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import math
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from search.app.manifest import labelled, listed_rules, with_defaults
from search.core.contract import GridcpError, InputError
from search.core.limits import DEFAULT_MAX_CELLS, DEFAULT_MEMORY_MB
from search.core.puzzlekind import Option, PuzzleKind
from search.core.registry import PUZZLES, kinds

YES, NO, USAGE, UNDECIDED, BUG = 0, 1, 2, 3, 4
INTERRUPTED = 128 + signal.SIGINT  # 130, the shell's code for Ctrl-C
EXIT_CODES = ("Exit codes: 0 yes, 1 no, 2 bad usage or input, 3 a limit (time or memory) "
              "stopped it undecided, 4 an internal error (a bug in gridcp), "
              "130 interrupted (Ctrl-C), 143 terminated (SIGTERM).")


# ---------------------------------------------------------------- interrupts


class Interrupted(BaseException):
    """Ctrl-C (SIGINT) or SIGTERM: the command stops where it is and exits
    128 + the signal's number.  Not a KeyboardInterrupt, which an engine may
    catch to return what it has found so far: a command stops whole."""

    def __init__(self, signum: int):
        self.signum = signum
        super().__init__(signal.Signals(signum).name)

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


_hold = threading.local()
_received: list[int] = []  # the signals this process took, in order


def received_signal() -> int | None:
    """The first signal ``interruptible`` took, if any: an error raised after it
    (code that wraps whatever it catches, an import cut in the middle) is the
    interrupt's consequence, not a bug."""
    return _received[0] if _received else None


def _interrupt(signum: int, frame: object) -> None:
    _received.append(signum)
    if getattr(_hold, "depth", 0):  # inside a line of output: raise once it is whole
        _hold.pending = signum
        return
    raise Interrupted(signum)


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Ctrl-C and SIGTERM raise ``Interrupted`` in the block (main thread only;
    the previous handlers come back after it)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _received.clear()  # a new command: earlier signals were answered
    previous = {signum: signal.signal(signum, _interrupt)
                for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextlib.contextmanager
def whole() -> Iterator[None]:
    """Hold an interrupt until the block (one line of output) is done, so that
    output cut by Ctrl-C is complete line by line."""
    _hold.depth = getattr(_hold, "depth", 0) + 1
    try:
        yield
    finally:
        _hold.depth -= 1
        if not _hold.depth and getattr(_hold, "pending", None) is not None:
            pending, _hold.pending = _hold.pending, None
            raise Interrupted(pending)


def say(text: str, out: Any) -> None:
    """Print one line (or block) whole and flushed, an interrupt held until it is."""
    with whole():
        out.write(text + "\n")
        out.flush()


def json_line(value: Any) -> str:
    """``value`` as one line of JSON.  The json module loads here, on the first
    ``--json`` answer: a command's readable output does not pay for it at start-up."""
    import json

    return json.dumps(value)


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


def add_whole_limits(parser: argparse.ArgumentParser) -> None:
    """``--time-limit`` for the whole command (exit 3 when it passes) and
    ``--memory-limit``, for the commands that run no backend (convert, report)."""
    parser.add_argument("--time-limit", type=positive(float), metavar="S",
                        help="stop after S seconds (exit 3)")
    parser.set_defaults(whole_time_limit=True)
    add_memory_argument(parser)


def add_comparison_command(commands: argparse._SubParsersAction, name: str, text: str,
                           epilog: str, nargs: str, run: Callable[[Any], int],
                           time_limit: float) -> argparse.ArgumentParser:
    """A command that runs several backends on files (crosscheck, bench)."""
    sub = commands.add_parser(name, help=text, description=text, epilog=epilog)
    sub.add_argument("files", nargs=nargs, metavar="FILE|DIR")
    add_common_arguments(sub, f"{time_limit:g}")
    sub.set_defaults(time_limit=time_limit, run=run)
    sub.add_argument("--backends", help="comma-separated backend names (default: all); "
                     "NAME=package.module:Class adds an unregistered engine")
    return sub


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """``--option NAME=VALUE``: any field of the chosen backend's options."""
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="set an option of the backend, e.g. --option max_states=50000000 "
                             "(repeatable; `gridcp backends` lists each backend's options; "
                             "default: the backend's own values)")


TRUE, FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def typed_options(options_class: type, given: list[str], backend: str) -> dict[str, Any]:
    """``["max_states=5e7"]`` -> ``{"max_states": 50000000}``, each value read as
    the type its field declares (int, float, bool, str, or ``none`` where the
    field allows None) and then checked by the dataclass itself; an unknown name
    or a bad value is a usage error that names the choices."""
    fields = {f.name: f for f in dataclasses.fields(options_class)}
    names = ", ".join(fields) or "none"
    out: dict[str, Any] = {}
    for item in given:
        name, equals, text = item.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or not name:
            raise GridcpError(f"--option {item!r}: give NAME=VALUE "
                              f"(backend {backend!r} has: {names})")
        if name not in fields:
            raise GridcpError(f"--option {name}: backend {backend!r} has no such option "
                              f"(its options: {names})")
        out[name] = _typed(fields[name], text.strip(), backend)
    try:
        options_class(**out)
    except (TypeError, ValueError) as error:
        raise GridcpError(f"--option: backend {backend!r}: {error}") from None
    return out


def _typed(field: dataclasses.Field, text: str, backend: str) -> Any:
    kinds_ = [part.strip() for part in str(field.type).split("|")]
    shown = f"{field.name}: {field.type}, default {field.default!r}"
    if "None" in kinds_ and text.lower() in ("none", ""):
        return None
    for kind_ in kinds_:
        if kind_ == "bool":
            if text.lower() in TRUE + FALSE:
                return text.lower() in TRUE
        elif kind_ in ("int", "float"):
            with contextlib.suppress(ValueError):
                value = float(text) if kind_ == "float" else _whole(text)
                if math.isfinite(value):
                    return value
        elif kind_ == "str":
            return text
    if not {"bool", "int", "float", "str"}.intersection(kinds_):
        raise GridcpError(f"--option {field.name}: backend {backend!r} takes it only from "
                          f"Python ({shown})")
    words = {"bool": "true or false", "int": "a whole number", "float": "a number",
             "None": "none"}
    wanted = " or ".join(words.get(k, k) for k in kinds_)
    raise GridcpError(f"--option {field.name}={text}: not {wanted} ({shown})")


def _whole(text: str) -> int:
    """An int from ``50000000``, ``50_000_000`` or ``5e7`` (a whole number only)."""
    try:
        return int(text)
    except ValueError:
        value = float(text)
        if not value.is_integer():
            raise
        return int(value)


def add_common_arguments(parser: argparse.ArgumentParser, time_limit: str = "none") -> None:
    """Options shared by every command that runs backends on files; ``time_limit``
    is the default of ``--time-limit`` in words, for the help."""
    parser.add_argument("--puzzle", choices=PUZZLES, help="the puzzle kind (default: detected)")
    parser.add_argument("--time-limit", type=positive(float), metavar="S",
                        help=f"seconds per task (default: {time_limit})")
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
    if not from_manifest:
        return [Variant(path, chosen_rules(kind_, args, path),
                        apply_rule_options(kind_, puzzle, args, path))]
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

"""What the command line and the harness know of one puzzle: ``PuzzleKind``.

It sits below both the registry and the puzzle packages, which build their
``KIND`` from it; everything it names is a dotted path, loaded on first use.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from search.core.contract import Backend, CheckReport, GridcpError, load


@dataclass(frozen=True)
class Option:
    """A rule-variant flag of one puzzle (``--lenient``, ``--border``, ...)."""

    flags: tuple[str, ...]
    dest: str
    help: str
    kwargs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PuzzleKind:
    """What the command line and the harness need to know about one puzzle.

    ``backends`` is ordered: for each task the backend named in ``defaults``, or
    else the first backend that offers it, is the default.  The callables are
    dotted paths.
    """

    name: str
    extensions: tuple[str, ...]
    sniff: str  # (text) -> bool: does this text look like this puzzle?
    parse: str  # (text, source) -> puzzle; raises InputError
    format_puzzle: str  # (puzzle) -> str, the kind's native file format
    format_solution: str  # (puzzle, solution) -> str, readable
    solution_json: str  # (puzzle, solution) -> JSON-able value
    verify: str  # (puzzle, solution) -> list[str] of violations
    key: str  # (puzzle, solution) -> hashable canonical key
    backends: Mapping[str, str]
    # task -> backend name, or names in order of preference
    defaults: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)
    # (puzzle) -> list[str]: why the input breaks the rules before any search
    # (status INVALID, exit code 1); empty when it does not.
    validate: str | None = None
    options: tuple[Option, ...] = ()
    # (puzzle) -> frozenset of the rule-variant flags the puzzle is under,
    # which a backend must declare to take it
    rules_of: str | None = None
    apply_options: str | None = None  # (puzzle, options dict) -> puzzle with rule variants
    # (puzzle, *, time_limit: float | None) -> CheckReport: the check when no
    # backend is named (a pipeline of several engines); without it, the
    # default "check" backend's own check.
    check: str | None = None
    # (puzzle, a, b) -> list of cells where two solutions differ, to show
    # where a "no" by multiplicity parts.
    differences: str | None = None
    # (args) -> exit code: prints or writes the puzzles itself.  The CLI gives
    # args.size (str | None), args.seed (int), args.count (int), args.out (dir | None),
    # args.method (str | None), args.json (bool) and what add_generate_arguments adds.
    generate: str | None = None
    add_generate_arguments: str | None = None  # (argparse sub-parser) -> None
    describe: str | None = None  # (puzzle) -> short text for reports, e.g. "9x9"
    # format name -> (writer "(puzzle) -> str", file suffix): what ``convert --to`` writes
    writers: Mapping[str, tuple[str, str]] = field(default_factory=dict)

    def call(self, what: str, *args: Any, **kwargs: Any) -> Any:
        dotted = getattr(self, what)
        if dotted is None:
            raise GridcpError(f"{self.name} has no {what.replace('_', ' ')}")
        return load(dotted)(*args, **kwargs)

    def backend(self, name: str, **options: Any) -> Backend:
        if name not in self.backends:
            known = ", ".join(self.backends)
            raise GridcpError(f"{self.name} has no backend {name!r} (known: {known})")
        return load(self.backends[name])(**options)

    def verdict(self, puzzle: Any, backend: str | None = None,
                time_limit: float | None = None, **options: Any) -> CheckReport:
        """The check as ``gridcp check`` gives it: the named backend's, or
        without one the puzzle's own check (several engines) where it has
        one, else the default check backend's (for the puzzle's rules)."""
        if backend is None and self.check is not None:
            return self.call("check", puzzle, time_limit=time_limit)
        rules = self.call("rules_of", puzzle) if self.rules_of else ()
        name = backend or self.default_backend("check", rules)
        return self.backend(name, **options).check(puzzle, time_limit=time_limit)

    def default_backend(self, task: str, rules: Iterable[str] = ()) -> str:
        """The first backend named for ``task`` in ``defaults`` (a name, or
        names in order of preference), else the first that offers it, that
        takes every rule in ``rules``."""
        need = set(rules)
        named = self.defaults.get(task, ())
        named = [named] if isinstance(named, str) else list(named)
        for name in [*named, *self.backends]:
            offered = load(self.backends[name])
            if task in offered.calls and need <= offered.rules:
                return name
        under = f" under {', '.join(sorted(need))}" if need else ""
        raise GridcpError(f"no {self.name} backend can {task}{under}")

"""``gridcp backends``: the table of every backend, made from what each declares.

The README's backend table is this table (a test compares the two), so the
documentation cannot drift from the code.
"""

from __future__ import annotations

import argparse
import dataclasses

from search.app.arguments import YES
from search.core.contract import CALLS
from search.core.registry import kinds


def table() -> str:
    """A Markdown table: puzzle, backend, the calls it offers (those it is the
    default for in bold), its rule variants, methods and options."""
    lines = ["| puzzle | backend | calls (**default**) | rules | methods | options |",
             "|---|---|---|---|---|---|"]
    for kind_ in kinds():
        for name in kind_.backends:
            cls = kind_.backend(name).__class__
            calls = []
            for call in CALLS:
                if call not in cls.calls:
                    continue
                default = call != "solutions" and _default(kind_, call) == name
                calls.append(f"**{call}**" if default else call)
            options = ", ".join(f"`{f.name}`" for f in dataclasses.fields(cls.Options))
            lines.append(f"| {kind_.name} | `{name}` | {' '.join(calls)} | "
                         f"{', '.join(sorted(cls.rules)) or '-'} | "
                         f"{', '.join(cls.methods) or '-'} | {options or '-'} |")
    return "\n".join(lines) + "\n"


def _default(kind_, call: str) -> str | None:
    if call == "check" and kind_.check is not None:
        return None  # the puzzle's own check, over several engines
    return kind_.default_backend(call)


def add_commands(commands: argparse._SubParsersAction) -> None:
    text = "list every backend: its calls, rule variants, methods and options"
    sub = commands.add_parser("backends", help=text, description=text)
    sub.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    print(table(), end="")
    return YES

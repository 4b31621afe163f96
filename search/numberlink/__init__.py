"""Numberlink: join each pair of equal labels by a path; paths never cross.

``KIND`` tells the command line and the harness where everything lives.
"""

from search.core.puzzlekind import Option, PuzzleKind

_HERE = "search.numberlink"

KIND = PuzzleKind(
    name="numberlink",
    extensions=(".nl", ".numberlink"),
    sniff=f"{_HERE}.io:sniff",
    parse=f"{_HERE}.io:parse",
    format_puzzle=f"{_HERE}.io:format_puzzle",
    format_solution=f"{_HERE}.io:format_solution",
    solution_json=f"{_HERE}.io:solution_json",
    verify=f"{_HERE}.verify:verify",
    key=f"{_HERE}:key",
    backends={
        "cpsat": "cpmodels.numberlink:CpSatBackend",
        "search": f"{_HERE}.solver:SearchBackend",
        "frontier": f"{_HERE}.frontier:FrontierBackend",
        "links": f"{_HERE}.links:LinksBackend",
        "auto": f"{_HERE}.auto:AutoBackend",
        "sat": "cpmodels.numberlink.sat:SatBackend",
    },
    # solve: by the size of the board (auto.py), so that small boards never load OR-Tools
    defaults={"solve": "auto", "check": "frontier", "count": "frontier"},
    options=(
        Option(("--lenient",), "lenient",
               "cells may stay empty (default: every non-blocked cell on a path)",
               {"action": "store_true"}),
    ),
    rules_of=f"{_HERE}:rules_of",
    apply_options=f"{_HERE}:apply_options",
    check="search.pipelines.numberlink_check:check",
    differences=f"{_HERE}.verify:differences",
    generate="search.pipelines.numberlink_generate:generate",
    add_generate_arguments="search.pipelines.numberlink_generate:add_generate_arguments",
    describe=f"{_HERE}.io:describe",
    writers={"seed": (f"{_HERE}.io:format_puzzle", ".txt")},
)


def key(puzzle, solution):
    """Canonical answer: the set of undirected path steps."""
    return solution.edges


def apply_options(puzzle, opts: dict):
    """``--lenient`` switches to the rule where cells may stay empty."""
    return puzzle.lenient() if opts.get("lenient") else puzzle.covering()


def rules_of(puzzle) -> frozenset[str]:
    return frozenset() if puzzle.full_cover else frozenset({"lenient"})

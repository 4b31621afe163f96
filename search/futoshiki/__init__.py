"""Futoshiki: fill an n x n square with 1..n once per row and column, keeping
the givens and the inequalities between neighbours."""

from dataclasses import replace

from search.core.contract import GridcpError
from search.core.puzzlekind import Option, PuzzleKind

_IO = "search.futoshiki.io"

KIND = PuzzleKind(
    name="futoshiki",
    extensions=(".fut", ".futoshiki"),
    sniff=f"{_IO}:sniff",
    parse=f"{_IO}:parse",
    format_puzzle=f"{_IO}:format_puzzle",
    format_solution=f"{_IO}:format_solution",
    solution_json=f"{_IO}:solution_json",
    verify="search.futoshiki.verify:verify",
    key=f"{_IO}:key",
    differences="search.futoshiki.verify:differences",
    validate="search.futoshiki.verify:invalid_reasons",
    backends={
        "search": "search.futoshiki.solver:SearchBackend",
        "cpsat": "cpmodels.futoshiki:CpSatBackend",
        "propagate": "search.futoshiki.propagate:PropagateBackend",
        "count-dp": "search.futoshiki.countdp:CountDPBackend",
    },
    defaults={"solve": "propagate", "count": ("count-dp", "propagate"), "unique": "propagate",
              "check": "propagate"},
    options=(
        Option(("--adjacent",), "adjacent",
               "Tatham's Adjacent mode: bars join the neighbours whose values differ by 1, "
               "and neighbours without a bar do not (a file in that mode needs no flag)",
               {"action": "store_true"}),
    ),
    rules_of="search.futoshiki:rules_of",
    apply_options="search.futoshiki:apply_options",
    generate="search.futoshiki.generate:generate",
    add_generate_arguments="search.futoshiki.generate:add_generate_arguments",
    describe=f"{_IO}:describe",
    writers={
        "seed": (f"{_IO}:format_seed", ".txt"),
        "tatham": ("search.futoshiki.formats:format_tatham", ".tatham"),
        "tatham-text": ("search.futoshiki.formats:format_tatham_text", ".txt"),
        "csv": ("search.futoshiki.formats:format_csv", ".txt"),
        "dat": ("search.futoshiki.formats:format_dat", ".dat"),
    },
)


def apply_options(puzzle, opts: dict):
    """``--adjacent``: Adjacent mode's rules.  A file written in that mode (Tatham's
    ``5a:`` IDs, a text grid with bars) is in it already; a file without clues
    between cells reads as a grid without bars; inequalities cannot be bars."""
    if not opts.get("adjacent") or puzzle.adjacent:
        return puzzle
    if puzzle.less:
        raise GridcpError("--adjacent: this puzzle has inequalities, not bars (write it with "
                          "bars: a Tatham 'Na:' game ID or a text grid with '|' and '-')")
    return replace(puzzle, adjacent=True)


def rules_of(puzzle) -> frozenset[str]:
    return frozenset({"adjacent"}) if puzzle.adjacent else frozenset()

"""Lianliankan (Shisen-Sho, Onet): clear a board of tiles by removing pairs of
equal pictures joined by a line of at most two turns through empty cells."""

from search.core.limits import turns
from search.core.puzzlekind import Option, PuzzleKind

_IO = "search.lianliankan.io"
_RULES = "search.lianliankan.rules"

KIND = PuzzleKind(
    name="lianliankan",
    extensions=(".llk", ".lianliankan"),
    sniff=f"{_IO}:sniff",
    parse=f"{_IO}:parse",
    format_puzzle=f"{_IO}:format_board",
    format_solution=f"{_IO}:format_solution",
    solution_json=f"{_IO}:solution_json",
    verify="search.lianliankan.verify:verify",
    key=f"{_IO}:key",
    backends={
        "search": "search.lianliankan.solver:SearchBackend",
        "cpsat": "cpmodels.lianliankan:CpSatBackend",
    },
    defaults={"solve": "search", "check": "search"},
    options=(
        Option(("--border",), "border",
               "lines may run through one empty ring outside the board",
               {"action": "store_true"}),
        Option(("--gravity",), "gravity",
               "after a removal the tiles above fall into the gap",
               {"action": "store_true"}),
        Option(("--turns",), "turns", "the most turns a line may make (default 2)",
               {"type": turns, "default": 2}),
    ),
    rules_of=f"{_RULES}:rules_of",
    apply_options=f"{_RULES}:apply_options",
    generate="search.lianliankan.generate:generate",
    add_generate_arguments="search.lianliankan.generate:add_generate_arguments",
    describe=f"{_IO}:describe",
    writers={"grid": (f"{_IO}:format_board", ".txt"), "seed": (f"{_IO}:format_seed", ".txt")},
)

"""Futoshiki: fill an n x n square with 1..n once per row and column, keeping
the givens and the inequalities between neighbours."""

from search.puzzlekind import PuzzleKind

_IO = "search.futoshiki.io"

KIND = PuzzleKind(
    name="futoshiki",
    extensions=(".fut", ".futoshiki"),
    sniff=f"{_IO}:sniff",
    parse=f"{_IO}:parse",
    format_puzzle=f"{_IO}:format_seed",
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
    defaults={"solve": "propagate", "count": "count-dp", "unique": "propagate",
              "check": "propagate"},
    generate="search.futoshiki.generate:generate",
    add_generate_arguments="search.futoshiki.generate:add_generate_arguments",
    describe=f"{_IO}:describe",
)

"""The backend contract, the same tests over every (puzzle, backend, call).

Each registered backend declares its calls, rule variants and options; these
tests hold each declaration to what the backend does, and run the known
answers of the manifests (``instances/*/manifest.tsv``) on the small bundled
instances over every backend that declares the call and the rules.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from search.app.manifest import options_of, read_manifest, with_defaults
from search.core.contract import CALLS, CheckReport, GridcpError, Status, Unsupported
from search.core.registry import PUZZLES, kind, load_puzzle
from tests.conftest import small

INSTANCES = Path(__file__).resolve().parents[1] / "instances"
ENGINES = [(p, name) for p in PUZZLES for name in kind(p).backends]
LIMIT = 60.0  # seconds: a safety net only; every answer here takes well under one
MANY = 1000  # larger counts are left to the counting engines' own tests


def _ids(engine):
    return "-".join(engine)


def _backend(puzzle: str, name: str):
    return kind(puzzle).backend(name)


@pytest.mark.parametrize("engine", ENGINES, ids=_ids)
def test_declarations_are_well_formed(engine) -> None:
    puzzle, name = engine
    cls = type(_backend(puzzle, name))
    assert cls.name == name
    assert cls.calls and cls.calls <= set(CALLS)
    assert dataclasses.is_dataclass(cls.Options)
    assert cls.Options.__dataclass_params__.frozen
    own = {option.dest for option in kind(puzzle).options}
    assert cls.rules <= own, f"{name} declares rules {puzzle} does not have"


@pytest.mark.parametrize("engine", ENGINES, ids=_ids)
def test_an_unknown_option_is_an_error(engine) -> None:
    with pytest.raises(GridcpError, match="no option 'no_such_option'"):
        kind(engine[0]).backend(engine[1], no_such_option=1)


def _tiny(puzzle: str):
    """A small instance of each puzzle, for the calls a backend does not offer."""
    path = {"futoshiki": "handmade/unsat_4.txt", "numberlink": "seed-article/seed_7x7.nl",
            "lianliankan": "handmade/u-shape.llk"}[puzzle]
    return load_puzzle(INSTANCES / puzzle / path)[1]


@pytest.mark.parametrize("engine", ENGINES, ids=_ids)
def test_undeclared_calls_raise_unsupported(engine) -> None:
    puzzle, name = engine
    backend = _backend(puzzle, name)
    instance = _tiny(puzzle)
    for call in set(CALLS) - backend.calls:
        with pytest.raises(Unsupported):
            result = getattr(backend, call)(instance, time_limit=LIMIT)
            if call == "solutions":
                next(iter(result))


# ---------------------------------------------------------------- known answers


def _cases():
    """(puzzle, backend, call, row) for each small manifest row and each
    backend that declares a call answering it."""
    out = []
    for puzzle in PUZZLES:
        manifest = INSTANCES / puzzle / "manifest.tsv"
        for row in read_manifest(manifest):
            if not small(puzzle, load_puzzle(row.path, puzzle)[1]):
                continue
            calls = {"count": ("count",), "unique": ("unique",), "solve": ("solve",),
                     "check": ("check",)}[row.task]
            if row.task == "count":  # a count answers solve and unique too
                many = int(row.expected) > MANY
                calls = ("solve", "unique") if many else ("count", "solve", "unique")
            for name in kind(puzzle).backends:
                for call in calls:
                    out.append(pytest.param(puzzle, name, call, row,
                                            id=f"{puzzle}-{name}-{call}-{row.path.name}"
                                               f"[{','.join(row.rules)}]-{row.task}"))
    return out


def _rules(puzzle: str, row, instance):
    kind_ = kind(puzzle)
    chosen = options_of(row.rules, kind_, row.path)
    if not kind_.options:
        return instance, chosen
    return kind_.call("apply_options", instance, with_defaults(kind_, chosen)), chosen


@pytest.mark.parametrize(("puzzle", "name", "call", "row"), _cases())
def test_known_answers_over_every_backend(puzzle, name, call, row) -> None:
    kind_ = kind(puzzle)
    backend = _backend(puzzle, name)
    instance, chosen = _rules(puzzle, row, load_puzzle(row.path, puzzle)[1])
    if call not in backend.calls:
        return  # held by test_undeclared_calls_raise_unsupported
    outside = {rule for rule, value in chosen.items() if value} - backend.rules
    if outside:  # a rule the backend does not declare: refused, never guessed
        with pytest.raises(Unsupported):
            getattr(backend, call)(instance, time_limit=LIMIT)
        return
    result = getattr(backend, call)(instance, time_limit=LIMIT)
    if call == "check":
        assert isinstance(result, CheckReport)
        assert result.ok is (row.expected == "yes")
        rules = result.rules or instance
        assert all(kind_.call("verify", rules, s) == [] for s in result.solutions)
        return
    expected = row.expected
    if row.task == "count":
        n = int(expected)
        expected = {"count": n, "solve": "SOLVED" if n else "UNSAT",
                    "unique": ("UNSAT", "UNIQUE", "MULTIPLE")[min(n, 2)]}[call]
    if call == "count":
        assert result.status is Status.COUNTED and result.count == expected
        return
    assert str(result.status) == expected
    found = [result.solution] if call == "solve" else list(result.solutions)
    found = [s for s in found if s is not None]
    assert all(kind_.call("verify", instance, s) == [] for s in found)
    if result.status is Status.MULTIPLE:
        assert len({kind_.call("key", instance, s) for s in found}) == 2


def test_the_readme_backend_table_is_the_declarations() -> None:
    from search.app.catalogue import table

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert table() in readme, "README's backend table differs from `gridcp backends`"

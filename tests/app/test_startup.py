"""Start-up: the small commands load what they use and nothing else.

A whole-process ``gridcp solve`` of a 4x4 Futoshiki or a ``gridcp hint`` on a
full Lianliankan deal is mostly Python's start and gridcp's imports
(benchmarks/startup.py times them); these tests hold the imports to what the
command needs, structurally, so that no figure of time is asserted.  Each runs
the command in a fresh interpreter without the site's ``.pth`` files (``-S``),
so every module it lists was imported by gridcp itself.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT

FUTOSHIKI_4X4 = "instances/futoshiki/tatham/u04_trivial_1.tatham"
DEAL_18X8 = "instances/lianliankan/generated/b18x8-0.llk"

# No small command needs these: the CP-SAT models and OR-Tools, the numeric and
# plotting packages, the lab, the pipelines, the pictures, the other commands'
# code, and the standard modules only some commands use (loaded where used).
NEVER = ("ortools", "numpy", "scipy", "networkx", "matplotlib", "dask", "cpmodels",
         "search.lab", "search.pipelines", "search.draw", "search.app.draw",
         "search.app.catalogue", "search.app.clue_hints", "importlib.metadata",
         "json", "traceback", "tempfile")


def loaded_by(argv: list[str]) -> tuple[str, set[str]]:
    """What ``gridcp ARGV`` prints, and the modules it imported (by ``main(argv)``,
    which returns where the real command line would leave the process at once)."""
    code = ("import sys\n"
            "before = set(sys.modules)\n"
            "from search.app.cli import main\n"
            f"main({argv!r})\n"
            "print('LOADED', *sorted(set(sys.modules) - before))")
    done = subprocess.run([sys.executable, "-S", "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    out, _, loaded = done.stdout.rpartition("LOADED")
    return out, set(loaded.split())


def under(modules: set[str], prefixes: tuple[str, ...]) -> list[str]:
    """The modules that are one of ``prefixes`` or inside one (``a`` covers ``a.b``;
    ``a.`` covers only what is inside ``a``)."""
    return sorted(m for m in modules for p in prefixes
                  if m == p or m.startswith(p if p.endswith(".") else p + "."))


@pytest.mark.parametrize("argv, answer, needed, not_needed", [
    (["solve", FUTOSHIKI_4X4], "SOLVED (propagate",
     ("search.futoshiki.propagate", "search.futoshiki.verify"),
     # the other puzzles' packages load (their kinds name the rule flags), no more
     ("search.numberlink.", "search.lianliankan.", "search.app.play",
      "search.futoshiki.countdp", "search.futoshiki.solver", "search.futoshiki.generate",
      "search.futoshiki.hint")),
    (["hint", "--border", DEAL_18X8], "SAFE MOVE (search",
     ("search.lianliankan.hint", "search.lianliankan.verify", "search.lianliankan.solver"),
     ("search.numberlink.", "search.futoshiki.", "search.lianliankan.shuffle",
      "search.lianliankan.generate", "search.lianliankan.difficulty",
      "search.lianliankan.gravity", "search.lianliankan.gravity_kernel")),
])
def test_a_small_command_imports_only_what_it_uses(argv, answer, needed, not_needed):
    out, loaded = loaded_by(argv)
    assert answer in out, out
    assert set(needed) <= loaded  # the run went where the answer comes from
    assert under(loaded, NEVER + not_needed) == []


def test_json_loads_for_a_json_answer():
    out, loaded = loaded_by(["solve", "--json", FUTOSHIKI_4X4])
    assert '"status": "SOLVED"' in out
    assert "json" in loaded


@pytest.mark.parametrize("argv, code, last", [
    (["solve", FUTOSHIKI_4X4], 0, "4 | 3 | 1 | 2"),
    (["check", "instances/lianliankan/handmade/ring.llk"], 1,
     "  note: no order of removals clears the board"),
    (["hint", "--border", DEAL_18X8], 0, "    14: (7,13) - (8,13) - (8,15) - (7,15)"),
])
def test_the_command_line_leaves_with_its_output_and_exit_code(argv, code, last):
    """A small command ends the process without the interpreter's teardown: its
    whole output still arrives, through a pipe, with the command's exit code."""
    done = subprocess.run([sys.executable, "-m", "search", *argv], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == code, done.stderr
    assert done.stdout.endswith(last + "\n"), done.stdout
    assert done.stderr == ""


def test_every_command_is_listed_when_none_is_named():
    done = subprocess.run([sys.executable, "-m", "search", "--help"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    commands = ("solve", "count", "check", "convert", "draw", "generate", "hint", "shuffle",
                "crosscheck", "bench", "report", "backends")
    assert all(f"\n    {name}" in done.stdout for name in commands), done.stdout

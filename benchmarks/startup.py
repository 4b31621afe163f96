"""Start-up: the whole process of gridcp's small commands, against Python's own start.

    python benchmarks/startup.py [--repeat N] [--console] [--no-compiled] [--no-site]

Times, each in its own process, ``N`` runs after one untimed run (so the
bytecode is cached; ``$PYTHONDONTWRITEBYTECODE`` is left out of the children's
environment, as on a user's machine):

- ``python -c pass``: what Python and the site's ``.pth`` files cost alone;
- ``python -c "import search.app.cli"``: the command line's imports;
- ``python -m search solve`` of a 4x4 Futoshiki (Tatham's u04_trivial_1);
- ``python -m search hint --border`` on a full 18x8 Lianliankan deal (144 tiles);
- with ``--console``, the same two through the installed ``gridcp`` script
  (its own entry point; it may point at another checkout);
- unless ``--no-compiled``, the 4x4 solve again with ``GRIDCP_PURE=1``.

With ``--no-site`` every Python runs with ``-S``: no ``site`` and no ``.pth``
files, whose imports (an editable install's finder, a certificate hook) would
otherwise load modules such as ``pathlib`` or ``tempfile`` before gridcp does
and hide their cost.  The commands timed need nothing from site-packages.

The figure is the child's CPU time (user + system, by ``getrusage`` of each
finished child): median and least of ``N``, in milliseconds, with the median
wall time.  On a shared machine the wall time includes waiting for a core; the
CPU time is the steadier figure.  Never asserts a time: it reports.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from search.core.processes import run_child  # noqa: E402

FUTOSHIKI_4X4 = ROOT / "instances" / "futoshiki" / "tatham" / "u04_trivial_1.tatham"
DEAL_18X8 = ROOT / "instances" / "lianliankan" / "generated" / "b18x8-0.llk"


def commands(console: bool, compiled: bool, site: bool = True
             ) -> dict[str, tuple[list[str], dict[str, str]]]:
    """Name -> (argv, extra environment) of every command timed."""
    python = [sys.executable] if site else [sys.executable, "-S"]
    solve = ["solve", str(FUTOSHIKI_4X4)]
    hint = ["hint", "--border", str(DEAL_18X8)]
    out = {"python -c pass": ([*python, "-c", "pass"], {}),
           "python -c 'import search.app.cli'": ([*python, "-c", "import search.app.cli"], {}),
           "python -m search solve (4x4 Futoshiki)": ([*python, "-m", "search", *solve], {}),
           "python -m search hint --border (18x8 deal)": ([*python, "-m", "search", *hint], {})}
    script = shutil.which("gridcp")
    if console and script and site:
        out["gridcp solve (4x4 Futoshiki)"] = ([script, *solve], {})
        out["gridcp hint --border (18x8 deal)"] = ([script, *hint], {})
    if compiled:
        out["python -m search solve (4x4), GRIDCP_PURE=1"] = (
            [*python, "-m", "search", *solve], {"GRIDCP_PURE": "1"})
    return out


def child_cpu(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """One run: the child's CPU seconds (user + system) and the wall seconds."""
    done = run_child(argv, "", None, cwd=str(ROOT), env=env)
    if done.code not in (0, 1):  # 1: a hint's "every move loses" is an answer
        raise SystemExit(f"{' '.join(argv)} exited {done.code}: {done.err.strip()}")
    return done.cpu, done.wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30, help="timed runs each (default 30)")
    parser.add_argument("--console", action="store_true",
                        help="also time the installed gridcp script")
    parser.add_argument("--no-compiled", action="store_true",
                        help="leave out the GRIDCP_PURE=1 run")
    parser.add_argument("--no-site", action="store_true",
                        help="run every Python with -S (no site, no .pth files)")
    args = parser.parse_args(argv)
    base = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    base["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), base.get("PYTHONPATH")]))
    flags = ", python -S" if args.no_site else ""
    print(f"## Start-up, whole process, {args.repeat} runs each{flags} (ms)\n")
    print("| command | CPU median | CPU least | wall median |")
    print("| --- | --- | --- | --- |")
    timed = commands(args.console, not args.no_compiled, not args.no_site)
    for name, (command, extra) in timed.items():
        env = {**base, **extra}
        child_cpu(command, env)  # untimed: caches the bytecode
        cpus, walls = zip(*(child_cpu(command, env) for _ in range(args.repeat)), strict=True)
        print(f"| {name} | {1000 * statistics.median(cpus):.0f} | {1000 * min(cpus):.0f} "
              f"| {1000 * statistics.median(walls):.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

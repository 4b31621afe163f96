"""``gridcp report``: tables and plots of a sweep's JSON Lines.

Per instance set, task and backend: runs, solved, PAR-2 (the mean time with
every unsolved run counted as twice its time limit), median and worst time of
the solved runs.  Per instance: each backend's time side by side, and the
answers compared (a count or a verdict that differs between backends is
listed first).  With ``-o DIR`` it writes ``report.md``, each table also as
``NAME.csv`` and ``NAME.tex`` (a LaTeX ``tabular`` with booktabs rules) and,
with matplotlib (the ``plots`` extra), ``cactus.png`` (instances solved
within t seconds, per puzzle and task) and ``scatter-TASK.png`` (two
backends' times per instance, log-log), on axes that hold for any number of
runs and any times (one run, equal times, zero times).

Times are the backends' own wall clocks, or with ``--time cpu`` the CPU
seconds (user + system) the run's process spent on the task; the harness's overhead per run
(process start, imports, parsing: the run's wall seen from outside minus the
backend's time and the import of the backend's and the verifier's modules)
has its own table.  The effort table gives the backends' own counters
(nodes, states, ...): unlike times, they do not depend on the machine's load.
The report opens with the command that remakes it and the machine each
sweep ran on (CPU model, cores, load average at its start).
"""

from __future__ import annotations

import argparse
import csv
import html
import io
import re
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from search.app.arguments import YES, add_whole_limits
from search.app.manifest import labelled
from search.core.contract import GridcpError, printable
from search.core.outputs import out_dir, out_file, save_figure, write_file
from search.core.registry import read_text
from search.lab.results import Record, lost, read_results, read_sweeps, run_key
from search.lab.suites import load_suite

ANSWERED = {"SOLVED", "UNSAT", "UNIQUE", "MULTIPLE", "COUNTED", "INVALID"}
CLOCKS = ("wall", "cpu")
FLOOR = 1e-4  # seconds: the least time a log axis shows (a run can take 0.0 s)


def solved(record: Record) -> bool:
    return record["status"] in ANSWERED


def seconds(record: Record, clock: str = "wall") -> float:
    """A run's time on the chosen clock: the backend's wall clock, or the CPU
    seconds of the task (a record made before CPU times were kept: its wall)."""
    if clock == "cpu" and record.get("cpu_time") is not None:
        return record["cpu_time"]
    return record["wall"]


def par2(record: Record, clock: str = "wall") -> float:
    return seconds(record, clock) if solved(record) else 2 * record["time_limit"]


def answer(record: Record) -> str:
    """What a run answered, comparable across backends; '' when it did not answer."""
    if not solved(record):
        return ""
    if record["task"] == "count":
        return str(record.get("count"))
    if record["task"] == "check":
        return (record.get("verdict") or record["status"]).split(":")[0]
    return record["status"]


def label(record: Record) -> str:
    """The instance, with its rule variants when it ran under some: ``f.llk [border]``."""
    return labelled(record["instance"], record.get("rules"))


def latest(records: list[Record]) -> list[Record]:
    """One record per run (the last one written), in the file's order."""
    by_run = {run_key(r): r for r in records}
    return list(by_run.values())


# ---------------------------------------------------------------- tables


@dataclass(frozen=True)
class Table:
    """A table of the report: Markdown in report.md, also CSV and LaTeX.  The
    first ``text_columns`` are words, left-aligned; the others figures."""

    name: str  # the file name of its CSV and LaTeX copies
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    text_columns: int = 1

    def markdown(self) -> str:
        rule = ["---" if i < self.text_columns else "---:" for i in range(len(self.header))]
        lines = ["| " + " | ".join(map(_cell, self.header)) + " |", "|" + "|".join(rule) + "|"]
        lines += ["| " + " | ".join(map(_cell, row)) + " |" for row in self.rows]
        return "\n".join(lines)

    def csv(self) -> str:
        """Figures as they are, a missing one (``-``) empty."""
        sink = io.StringIO()
        writer = csv.writer(sink, lineterminator="\n")
        writer.writerow(self.header)
        writer.writerows([("" if cell == "-" else cell for cell in row) for row in self.rows])
        return sink.getvalue()

    def latex(self, caption: str = "") -> str:
        """A ``tabular`` with booktabs rules (``\\usepackage{booktabs}``)."""
        align = "l" * self.text_columns + "r" * (len(self.header) - self.text_columns)
        lines = [f"% {caption}" if caption else "% gridcp report",
                 f"\\begin{{tabular}}{{{align}}}", "\\toprule",
                 " & ".join(map(_latex, self.header)) + " \\\\", "\\midrule"]
        lines += [" & ".join(map(_latex, row)) + " \\\\" for row in self.rows]
        lines += ["\\bottomrule", "\\end{tabular}", ""]
        return "\n".join(lines)


def _cell(text: str) -> str:
    """A Markdown table cell: no HTML, no column break, no code span and no
    control character from a results file (shown as escapes)."""
    return html.escape(printable(text), quote=False).replace("|", "\\|").replace("`", "\\`")


LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
         "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
         "^": r"\textasciicircum{}"}


def _latex(text: str) -> str:
    return "".join(LATEX.get(c, c) for c in text)


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if value < 1000 else f"{value:.0f}"


def summary_table(records: list[Record], by_set: bool = True, clock: str = "wall") -> Table:
    """Runs, solved, PAR-2, median and worst time per (instance set,) puzzle, task, backend."""
    groups: dict[tuple[str, ...], list[Record]] = defaultdict(list)
    for r in records:
        head = (r["set"], r["puzzle"]) if by_set else (r["puzzle"],)
        groups[(*head, r["task"], r["backend"])].append(r)
    rows = []
    for names, runs in sorted(groups.items()):
        times = [seconds(r, clock) for r in runs if solved(r)]
        errors = sum(r["status"] == "ERROR" for r in runs)
        rows.append((*names, str(len(runs)), str(len(times)),
                     _seconds(statistics.fmean(par2(r, clock) for r in runs)),
                     _seconds(statistics.median(times) if times else None),
                     _seconds(max(times) if times else None), str(errors), _answers(runs)))
    head = ("instance set", "puzzle") if by_set else ("puzzle",)
    return Table("sets" if by_set else "summary",
                 (*head, "task", "backend", "runs", "solved", "PAR-2 s", "median s",
                  "worst s", "errors", "answers"), tuple(rows), text_columns=len(head) + 2)


def _answers(runs: list[Record]) -> str:
    """How many runs gave each status (the share of clearable boards, ...)."""
    counts: dict[str, int] = defaultdict(int)
    for r in runs:
        counts[(r.get("verdict") or r["status"]).split(":")[0]] += 1
    return ", ".join(f"{s} {n}" for s, n in sorted(counts.items()))


def grouped_table(records: list[Record], by: str, clock: str = "wall") -> Table:
    """The summary per puzzle and ``by``: a record field (size, rules, set) or
    several joined by ``+`` (``size+rules``: the share of clearable boards per
    size and rule set)."""
    groups: dict[tuple[str, ...], list[Record]] = defaultdict(list)
    for r in records:
        value = " ".join(_field(r, name) for name in by.split("+"))
        groups[(r["puzzle"], value, r["task"], r["backend"])].append(r)
    rows = []
    for names, runs in sorted(groups.items(), key=lambda kv: (kv[0][0], _natural(kv[0][1]),
                                                               kv[0][2:])):
        times = [seconds(r, clock) for r in runs if solved(r)]
        rows.append((*names, str(len(runs)), str(len(times)),
                     _seconds(statistics.median(times) if times else None),
                     _seconds(max(times) if times else None), _answers(runs)))
    return Table("by-" + re.sub(r"\W+", "-", by),
                 ("puzzle", by, "task", "backend", "runs", "solved", "median s", "worst s",
                  "answers"), tuple(rows), text_columns=4)


def _field(record: Record, name: str) -> str:
    if name == "rules":
        return labelled("", record.get("rules")).strip() or "-"
    return str(record.get(name))


def _natural(text: str) -> tuple:
    """``9x9`` before ``10x10``."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))


def effort_table(records: list[Record]) -> Table:
    """The backends' own counters, median and most per run: figures that a loaded
    machine does not change.  Peak memory (MiB) of the run's process too."""
    groups: dict[tuple[str, str, str], list[Record]] = defaultdict(list)
    for r in records:
        groups[(r["puzzle"], r["task"], r["backend"])].append(r)
    rows = []
    for names, runs in sorted(groups.items()):
        keys = list(dict.fromkeys(k for r in runs for k in (r.get("effort") or {})))
        figures = []
        for key in keys[:4]:
            values = [r["effort"][key] for r in runs if key in (r.get("effort") or {})]
            values = [v for v in values if isinstance(v, (int, float))]
            if values:
                figures.append(f"{key} {_number(statistics.median(values))} / "
                               f"{_number(max(values))}")
        peaks = [r["peak_mib"] for r in runs if isinstance(r.get("peak_mib"), (int, float))]
        rows.append((*names, "; ".join(figures) or "-",
                     f"{max(peaks):.0f}" if peaks else "-"))
    return Table("effort", ("puzzle", "task", "backend", "effort: median / most per run",
                            "peak MiB"), tuple(rows), text_columns=4)


def _number(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 or value == int(value) else f"{value:.3g}"


def _given(record: Record) -> str:
    """A run's answer as a table of known answers writes it."""
    if record["task"] == "count":
        return str(record.get("count"))
    return (record.get("verdict") or record["status"]).split(":")[0]


def machines(sweeps: list[dict[str, Any]]) -> list[str]:
    """One line per sweep: its command and the machine it ran on."""
    lines = []
    for sweep in sweeps:
        load = sweep.get("load")
        load_text = f", load average {' '.join(map(str, load))} at the start" if load else ""
        lines.append(f"- `{sweep.get('command', '?')}` ({sweep.get('runs', '?')} runs) on "
                     f"{sweep.get('host', '?')}: {sweep.get('cpu', '?')}, "
                     f"{sweep.get('cores', '?')} cores{load_text}; {sweep.get('time', '')}")
        for name, why in (sweep.get("skipped") or {}).items():
            lines.append(f"  - peer {name} skipped: {why}")
    return lines


def per_instance(records: list[Record], clock: str = "wall") -> tuple[Table, list[str]]:
    """The backend-against-backend table and the list of differing answers."""
    backends = list(dict.fromkeys(r["backend"] for r in records))
    cells: dict[tuple[str, str], dict[str, Record]] = defaultdict(dict)
    for r in records:
        cells[label(r), r["task"]][r["backend"]] = r
    single = {instance for (instance, task), by_backend in cells.items()
              if any(answer(r) in ("1", "UNIQUE") for r in by_backend.values())}
    rows, differ = [], []
    for (instance, task), by_backend in sorted(cells.items()):
        answers = {b: answer(r) for b, r in by_backend.items() if answer(r)}
        keys = {b: r["key"] for b, r in by_backend.items() if r.get("key")}
        if instance in single and len(set(keys.values())) > 1:
            answers = {b: f"{answers.get(b, '')} key {k}".strip() for b, k in keys.items()}
        if len(set(answers.values())) > 1:
            what = ", ".join(f"{b} {a}" for b, a in answers.items())
            differ.append(f"{instance} {task}: {what}")
            agreed = "DIFFER"
        else:
            agreed = next(iter(answers.values()), "-")
        row = [instance, task, agreed]
        for b in backends:
            r = by_backend.get(b)
            row.append("" if r is None else _seconds(seconds(r, clock)) if solved(r)
                       else r["status"])
        rows.append(tuple(row))
    return Table("instances", ("instance", "task", "answer", *backends), tuple(rows),
                 text_columns=3), differ


def overhead_table(records: list[Record]) -> Table:
    """The harness's cost per run and the import of each backend's module."""
    groups: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        if all(isinstance(r.get(k), (int, float)) for k in ("import_wall", "run_wall")) \
                and not r.get("killed"):
            groups[r["backend"]].append(r)
    rows = []
    for backend, runs in sorted(groups.items()):
        cost = sorted(r["run_wall"] - r["wall"] - r["import_wall"] for r in runs)
        imports = [r["import_wall"] for r in runs]
        rows.append((backend, str(len(runs)), _seconds(statistics.median(cost)),
                     _seconds(cost[int(0.9 * (len(cost) - 1))]), _seconds(cost[-1]),
                     _seconds(statistics.median(imports))))
    return Table("overhead", ("backend", "runs", "overhead median s", "90th percentile s",
                              "max s", "imports median s"), tuple(rows))


CLOCK_WORDS = {"wall": "the backends' own wall clocks",
               "cpu": "CPU seconds (user + system) of the run's process on the task"}


def tables(records: list[Record], by: tuple[str, ...] = (), clock: str = "wall"
           ) -> list[tuple[str, Table]]:
    """The report's tables, each with its section title, in the report's order."""
    found = [("Per puzzle and backend", summary_table(records, by_set=False, clock=clock)),
             ("Per instance set and backend", summary_table(records, clock=clock))]
    found += [(f"Per {field_}", grouped_table(records, field_, clock)) for field_ in by]
    found += [("Effort", effort_table(records)),
              ("Harness overhead per run", overhead_table(records)),
              ("Per instance", per_instance(records, clock)[0])]
    return found


def markdown(records: list[Record], source: str, plots: list[str],
             unsupported: list[Record] | None = None, sweeps: list[dict[str, Any]] | None = None,
             by: tuple[str, ...] = (), remake: str = "", clock: str = "wall") -> str:
    """The whole report; ``unsupported`` runs (a rule variant a backend does not
    model) are only listed."""
    shown = dict(tables(records, by, clock))
    _, differ = per_instance(records, clock)
    hosts = sorted({str(r.get("host", "?")) for r in records})
    versions = sorted({", ".join(f"{k} {v}" for k, v in sorted(r.get("versions", {}).items()))
                       for r in records if isinstance(r.get("versions"), dict)})
    limits = sorted({r["time_limit"] for r in records})
    parts = [f"# Sweep report: {source}", "",
             f"{len(records)} runs on {', '.join(hosts)}; time limit "
             f"{', '.join(f'{t:g}' for t in limits)} s; {'; '.join(versions)}.", "",
             "Solved means answered (SOLVED, UNSAT, COUNTED, UNIQUE, MULTIPLE); PAR-2 counts "
             f"an unsolved run as twice the time limit; times are {CLOCK_WORDS[clock]}, "
             "median and worst over the solved runs.", ""]
    if clock == "cpu":
        without = sum(1 for r in records if solved(r) and r.get("cpu_time") is None)
        if without:
            parts += [f"{without} solved runs have no CPU time (recorded before CPU times "
                      "were kept, or a peer's): their wall clock stands in.", ""]
    if remake:
        parts += ["Remade by", "", f"    {remake}", ""]
    if sweeps:
        parts += ["## Sweeps and machines", "",
                  "Times were measured on these machines, shared with other jobs when the "
                  "load average is high: compare the effort figures rather than seconds.",
                  "", *machines(sweeps), ""]
    for title in ["Per puzzle and backend", "Per instance set and backend",
                  *(f"Per {field_}" for field_ in by)]:
        parts += [f"## {title}", "", shown[title].markdown(), ""]
    parts += ["## Effort", "", "The backends' own counters (median / most per run), "
              "independent of the machine's load; peak memory of the run's process.", "",
              shown["Effort"].markdown(), ""]
    expected = [r for r in records if r.get("expected") and solved(r)
                and _given(r) != r["expected"]]
    known = sum(1 for r in records if r.get("expected") and solved(r))
    if known:
        parts += ["## Answers against the known ones", "",
                  f"{known - len(expected)} of {known} answered runs give the known answer.",
                  ""]
        parts += [_item(f"{label(r)} {r['backend']} {r['task']}: {_given(r)}, known "
                        f"{r['expected']}") for r in expected] or ["None differs."]
        parts += [""]
    parts += ["## Answers that differ between backends", "",
              "Counts or verdicts, or, where the puzzle has one solution, the "
              "solutions' keys.", ""]
    parts += [_item(line) for line in differ] or ["None."]
    failed = [r for r in records if r["status"] == "ERROR"]
    parts += ["", "## Runs that failed", ""]
    if any(map(lost, failed)):
        parts += ["A lost run never gave an answer of its own (its process was killed from "
                  "outside, or its worker died): rerunning the sweep retries it.", ""]
    parts += [_item(f"{label(r)} {r['backend']} {r['task']}: {r.get('message', '')}")
              for r in failed] or ["None."]
    if unsupported:
        parts += ["", "## Runs a backend does not support (left out above)", ""]
        # a rule variant the backend does not model: neither solved nor failed
        parts += [_item(f"{label(r)} {r['backend']} {r['task']}: {r.get('message', '')}")
                  for r in unsupported]
    parts += ["", "## Harness overhead per run", "",
              "Process start, imports and parsing: the run's wall clock seen from outside "
              "minus the backend's time and the import of its module and of the verifier "
              "(OR-Tools for cpsat, numpy for the counting engines).",
              "", shown["Harness overhead per run"].markdown(), ""]
    if plots:
        parts += ["## Plots", ""] + [f"![{p}]({p})" for p in plots] + [""]
    parts += ["## Per instance", "", "Seconds per backend, or the status of a run that did "
              "not answer.", "", shown["Per instance"].markdown(), ""]
    return "\n".join(parts)


def _item(text: str) -> str:
    """A list item of the report: no HTML from a results file."""
    return "- " + html.escape(printable(text), quote=False).replace("`", "\\`")


# ---------------------------------------------------------------- plots


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def span(values: list[float]) -> tuple[float, float]:
    """Limits of a log axis that show every value, whatever they are: none, one,
    all equal, or zero (shown at ``FLOOR``)."""
    shown = [max(v, FLOOR) for v in values] or [FLOOR, 1.0]
    return min(shown) / 2, max(shown) * 2


Limits = tuple[tuple[float, float], tuple[float, float]]


def cactus(records: list[Record], target: Path, plt: Any, clock: str = "wall",
           force: bool = False) -> list[Limits]:
    """Instances solved within t seconds, one line per backend, one panel per puzzle
    (rows) and task (columns): backends of one puzzle are compared on its instances.
    Returns each drawn panel's (x, y) limits."""
    puzzles = list(dict.fromkeys(r["puzzle"] for r in records))
    tasks = list(dict.fromkeys(r["task"] for r in records))
    colours = {b: f"C{i}" for i, b in enumerate(dict.fromkeys(r["backend"] for r in records))}
    figure, axes = plt.subplots(len(puzzles), len(tasks), squeeze=False,
                                figsize=(5 * len(tasks), 3.6 * len(puzzles)))
    drawn = []
    for row, puzzle in zip(axes, puzzles):
        for ax, task in zip(row, tasks):
            runs = [r for r in records if r["task"] == task and r["puzzle"] == puzzle]
            if not runs:
                ax.set_axis_off()
                continue
            instances = len({label(r) for r in runs})
            times = [max(seconds(r, clock), FLOOR) for r in runs if solved(r)]
            for backend in dict.fromkeys(r["backend"] for r in runs):
                mine = sorted(max(seconds(r, clock), FLOOR) for r in runs
                              if r["backend"] == backend and solved(r))
                if mine:
                    ax.step(mine, range(1, len(mine) + 1), where="post", marker=".",
                            label=backend, color=colours[backend])
            ax.set_xscale("log")
            ax.set_xlim(*span(times + [r["time_limit"] for r in runs]))
            ax.set_ylim(0, instances + 0.5)
            ax.yaxis.set_major_locator(plt.MaxNLocator(integer=True))
            ax.set_xlabel(f"{clock} time t (s, log)")
            ax.set_ylabel("instances solved within t")
            ax.set_title(f"{puzzle} {task} ({instances} instances)")
            ax.grid(True, which="both", alpha=0.3)
            if times:
                ax.legend(fontsize="small")
            drawn.append((ax.get_xlim(), ax.get_ylim()))
    figure.tight_layout()
    save_figure(figure, target, force=force, dpi=100)
    plt.close(figure)
    return drawn


def scatter(records: list[Record], task: str, pair: tuple[str, str], target: Path,
            plt: Any, clock: str = "wall", force: bool = False) -> Limits | None:
    """Backend A's time against B's per instance, log-log; unsolved runs sit at PAR-2,
    beyond the dashed lines of the time limit.  Returns the (x, y) limits, or None
    when no instance has runs of both."""
    a, b = pair
    by = defaultdict(dict)
    for r in records:
        if r["task"] == task and r["backend"] in pair:
            by[label(r)][r["backend"]] = r
    points = [(runs[a], runs[b]) for runs in by.values() if a in runs and b in runs]
    if not points:
        return None
    figure, ax = plt.subplots(figsize=(5.5, 5.5))
    values = []
    for i, puzzle in enumerate(dict.fromkeys(ra["puzzle"] for ra, _ in points)):
        colour = f"C{i}"
        mine = [(ra, rb) for ra, rb in points if ra["puzzle"] == puzzle]
        both = [(max(par2(ra, clock), FLOOR), max(par2(rb, clock), FLOOR)) for ra, rb in mine
                if solved(ra) and solved(rb)]
        other = [(max(par2(ra, clock), FLOOR), max(par2(rb, clock), FLOOR)) for ra, rb in mine
                 if not (solved(ra) and solved(rb))]
        if both:
            ax.scatter(*zip(*both), s=14, color=colour, label=f"{puzzle}, both solved")
        if other:
            ax.scatter(*zip(*other), s=24, marker="x", color=colour,
                       label=f"{puzzle}, unsolved by one (PAR-2)")
        values += [v for p in both + other for v in p]
    limit = max(r["time_limit"] for pair_ in points for r in pair_)
    low, high = span([*values, limit])
    ax.plot([low, high], [low, high], color="grey", linewidth=0.8)
    ax.axvline(limit, color="grey", linestyle="--", linewidth=0.6)
    ax.axhline(limit, color="grey", linestyle="--", linewidth=0.6)
    ax.set(xscale="log", yscale="log", xlim=(low, high), ylim=(low, high),
           xlabel=f"{a} {clock} time (s)", ylabel=f"{b} {clock} time (s)",
           title=f"{task}: {a} vs {b} ({len(points)} instances)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    limits = (ax.get_xlim(), ax.get_ylim())
    figure.tight_layout()
    save_figure(figure, target, force=force, dpi=110)
    plt.close(figure)
    return limits


def make_plots(records: list[Record], out: Path, pair: tuple[str, str] | None,
               clock: str = "wall", force: bool = False) -> list[str]:
    plt = _pyplot()
    if plt is None:
        print("gridcp: no plots: matplotlib is missing (pip install 'gridcp[plots]')",
              file=sys.stderr)
        return []
    written = ["cactus.png"]
    cactus(records, out / "cactus.png", plt, clock, force)
    backends = list(dict.fromkeys(r["backend"] for r in records))
    if pair is None and {"search", "cpsat"} <= set(backends):
        pair = ("search", "cpsat")  # the two backends every puzzle has
    pair = pair or (tuple(backends[:2]) if len(backends) >= 2 else None)
    if pair is None:
        return written
    for task in dict.fromkeys(r["task"] for r in records):
        name = f"scatter-{task}.png"
        if scatter(records, task, pair, out / name, plt, clock, force) is not None:
            written.append(name)
    return written


# ---------------------------------------------------------------- the command


def add_commands(commands: argparse._SubParsersAction) -> None:
    text = "tables and plots of a sweep (the JSON Lines that bench writes)"
    sub = commands.add_parser("report", help=text, description=text)
    sub.add_argument("results", metavar="FILE.jsonl")
    sub.add_argument("-o", "--out", metavar="DIR",
                     help="write report.md, each table as CSV and LaTeX, and the PNG plots "
                          "here (default: the Markdown to stdout)")
    sub.add_argument("--force", action="store_true",
                     help="overwrite the report's files if DIR holds them already")
    add_whole_limits(sub)
    sub.add_argument("--scatter", metavar="A,B",
                     help="the two backends of the scatter plots "
                          "(default: search,cpsat, else the first two)")
    sub.add_argument("--time", choices=CLOCKS, default="wall",
                     help="the clock of PAR-2, the tables and the plots: the backend's wall "
                          "clock, or the CPU seconds of the run's process (default: wall)")
    sub.set_defaults(run=run_report)


def run_report(args: argparse.Namespace) -> int:
    pair = None
    if args.scatter:
        names = args.scatter.split(",")
        if len(names) != 2:
            raise GridcpError("--scatter wants two backend names, A,B")
        pair = (names[0], names[1])
    path = Path(args.results)
    if args.out is None:
        records, unsupported, sweeps = _read(path)
        print(markdown(records, path.name, [], unsupported, sweeps, clock=args.time))
        return YES
    write_report(path, Path(args.out), pair=pair, clock=args.time, force=args.force)
    return YES


def _read(path: Path) -> tuple[list[Record], list[Record], list[dict[str, Any]]]:
    read_text(path, puzzle_file=False)  # a missing, binary or empty file: one line, exit 2
    records = latest(read_results(path))
    unsupported = [r for r in records if r.get("unsupported")]
    records = [r for r in records if not r.get("unsupported")]
    if not records:
        raise GridcpError(f"{path}: no runs recorded")
    return records, unsupported, read_sweeps(path)


def write_report(path: Path, out: Path, *, pair: tuple[str, str] | None = None,
                 suite: str | None = None, clock: str = "wall",
                 force: bool = False) -> None:
    """report.md, the tables as CSV and LaTeX, and the plots of a results file, in
    ``out``.  A suite's ``[report]`` table chooses the scatter pair and the extra
    tables."""
    records, unsupported, sweeps = _read(path)
    suite = suite or next((s["suite"] for s in reversed(sweeps) if s.get("suite")), None)
    by: tuple[str, ...] = ()
    if suite:
        settings = load_suite(suite).report
        by = tuple(settings.get("by", ()))
        if pair is None and settings.get("scatter"):
            pair = tuple(settings["scatter"])
    out = out_dir(out, "-o")
    out_file(out / "report.md", "-o", force=force)  # before any plot is drawn
    plots = make_plots(records, out, pair, clock, force)
    remake = next((s["command"] for s in reversed(sweeps) if s.get("command")), "")
    if not remake.count("--report") or clock != "wall":
        again = f"python -m search report {path} -o {out}" + \
            (f" --time {clock}" if clock != "wall" else "")
        remake = (remake + " && " if remake else "") + again
    write_file(out / "report.md", markdown(records, path.name, plots, unsupported, sweeps, by,
                                           remake, clock), force=force)
    names = []
    for title, table in tables(records, by, clock):
        caption = f"{title} ({CLOCK_WORDS[clock]}): {path.name}"
        write_file(out / f"{table.name}.csv", table.csv(), force=force)
        write_file(out / f"{table.name}.tex", table.latex(caption), force=force)
        names.append(table.name)
    print(f"wrote {out / 'report.md'}, the tables as CSV and LaTeX ({', '.join(names)})"
          + "".join(f", {out / p}" for p in plots))

"""The pages are tests: every ``$ gridcp ...`` example in README.md and docs/*.md
runs and prints what the page shows; every link and anchor resolves; every
module, constant and ``Class.attribute`` the reference names exists.

How a page writes an example (docs/commands.md, "Examples in these pages"):

- In a code block (indented or fenced), a line ``$ gridcp ARGS`` is a command;
  the lines under it, up to the next ``$`` line or the end of the block, are
  what it prints (stdout and stderr as a terminal shows them). Shown lines
  must appear in that order; other lines may come between them.
- ``...`` in a shown line matches any text; a number followed by `` s``,
  ``ms`` or `` per second`` matches any number (times and rates differ by
  machine). A line ``(exit code N)`` gives the exit code; without it the
  command must exit 0.
- A ``$`` line that is not gridcp (``$ printf ... > bad.txt``) prepares a file
  for the commands after it in the same block.

Each command runs in a fresh temporary folder holding links to the
checkout's ``instances``, ``docs`` and ``benchmarks``, so relative paths read
as they do from the checkout and every file a command writes lands in the
temporary folder.
"""

from __future__ import annotations

import ast
import importlib
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
REFERENCE = sorted((ROOT / "docs").glob("*.md"))  # docs/notes/ are dated studies
LINKED = ("instances", "docs", "benchmarks")
HANG_SECONDS = 900  # no example may hang the suite (the slowest takes about 30 s alone)

# Known faults of the program, not of the pages: the example stays as the
# program should answer, and the test expects it to fail until it is fixed.
KNOWN_FAULTS: dict[str, str] = {}
# Examples that take long, run with -m slow (none now: the README's first
# command, about 35 s of CPU, runs in the default run as CI runs it).
SLOW: set[str] = set()


@dataclass(frozen=True)
class Example:
    page: str  # relative to the checkout
    line: int  # 1-based line of the command
    command: str  # as shown, after "$ "
    setup: tuple[str, ...]  # the "$" lines before it in its block (a block is one session)
    shown: tuple[str, ...]  # the lines under it
    code: int  # expected exit code

    @property
    def bare(self) -> str:
        """The command without its trailing comment."""
        return re.sub(r"\s+#.*$", "", self.command)

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(text: str) -> list[list[tuple[int, str]]]:
    """The code blocks of a Markdown page: fenced, or indented by four spaces
    after a blank line; each a list of (1-based line number, dedented line)."""
    lines = text.split("\n")
    found: list[list[tuple[int, str]]] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = re.match(r"^(\s*)(```|~~~)", line)
        if fence:
            indent, mark = len(fence.group(1)), fence.group(2)
            block = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(mark):
                block.append((i + 1, lines[i][indent:]))
                i += 1
            found.append(block)
            i += 1
            continue
        if line.startswith("    ") and line.strip() and (i == 0 or not lines[i - 1].strip()):
            block = []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                block.append((i + 1, lines[i][4:]))
                i += 1
            while block and not block[-1][1].strip():
                block.pop()
            found.append(block)
            continue
        i += 1
    return found


def example(page: str, number: int, command: str, setup: list[str],
            shown: list[str]) -> Example:
    lines = [line for line in shown if line.strip()]
    code = 0
    if lines and (m := re.fullmatch(r"\(exit code (\d+)\)", lines[-1].strip())):
        code, lines = int(m.group(1)), lines[:-1]
    return Example(page, number, command, tuple(setup), tuple(lines), code)


def examples(page: Path) -> list[Example]:
    name = page.relative_to(ROOT).as_posix()
    found = []
    for block in blocks(page.read_text(encoding="utf-8")):
        setup: list[str] = []
        current: tuple[int, str] | None = None
        shown: list[str] = []
        for number, line in block:
            if line.startswith("$ "):
                if current is not None:
                    found.append(example(name, *current, setup, shown))
                    if re.search(r"(^| )(-o|--out) ", current[1]):
                        setup.append(current[1])  # the files it writes, the next may read
                current, shown = None, []
                if line[2:].startswith("gridcp "):
                    current = (number, line[2:].strip())
                else:
                    setup.append(line[2:])
            elif current is not None:
                shown.append(line.rstrip())
        if current is not None:
            found.append(example(name, *current, setup, shown))
    return found


ALL = [example for page in PAGES for example in examples(page)]


def pattern(shown: str) -> re.Pattern[str]:
    """A shown line as a regular expression: `...` any text, timed or rated numbers any number."""
    number = r"\d+(?:\.\d+)?(?:e[-+]?\d+)?"
    parts = []
    for piece in re.split(r"(\.\.\.|\d+(?:\.\d+)?(?=\s?(?:s|ms)\b| per second|/s\b))", shown):
        if piece == "...":
            parts.append(".*")
        elif piece and re.fullmatch(r"\d+(?:\.\d+)?", piece):
            parts.append(number)
        else:
            parts.append(re.escape(piece))
    return re.compile("".join(parts))


def unmatched(shown: tuple[str, ...], output: str) -> str | None:
    """The first shown line not found, in order, in the output (None: all found)."""
    lines = [line.rstrip() for line in output.split("\n")]
    at = 0
    for want in shown:
        regex = pattern(want)
        while at < len(lines) and not regex.fullmatch(lines[at]):
            at += 1
        if at == len(lines):
            return want
        at += 1
    return None


def as_shell(command: str) -> str:
    """The command with `gridcp` run as this interpreter's `-m search`."""
    if not command.startswith("gridcp "):
        return command
    return f"{shlex.quote(sys.executable)} -m search{command[len('gridcp'):]}"


def params() -> list:
    out = []
    for example in ALL:
        marks = []
        if example.bare in KNOWN_FAULTS:
            marks.append(pytest.mark.xfail(strict=False, reason=KNOWN_FAULTS[example.bare]))
        if example.bare in SLOW:
            marks.append(pytest.mark.slow)
        out.append(pytest.param(example, id=example.id, marks=marks))
    return out


@pytest.mark.parametrize("example", params())
def test_example(example: Example, tmp_path: Path) -> None:
    for name in LINKED:
        (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    env = {"PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "COLUMNS": "100",
           "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "HOME": str(tmp_path)}
    for step in example.setup:  # exit codes aside: an earlier example asserts its own
        subprocess.run(["bash", "-c", as_shell(step)], cwd=tmp_path, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    done = subprocess.run(["bash", "-c", as_shell(example.command)], cwd=tmp_path, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=HANG_SECONDS)
    where = f"{example.id}: $ {example.command}\n--- output ---\n{done.stdout}"
    said = f"exit {done.returncode}, page says {example.code}"
    assert done.returncode == example.code, f"{said}\n{where}"
    missing = unmatched(example.shown, done.stdout)
    assert missing is None, f"shown line not printed: {missing!r}\n{where}"


def test_examples_counted_in_readme() -> None:
    """The README states how many examples run as tests, and the number is true."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"(\d+) commands in this README and docs run as tests", text)
    assert said, "the README should say how many of its and the docs' commands are tests"
    assert int(said.group(1)) == len(ALL)


def test_setup_jobs_are_examples() -> None:
    """The README's set-up lines end in a gridcp command; each is also a tested example."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    jobs = re.findall(r"&& (gridcp [^#\n]*?)\s*(?:#|$)", text, flags=re.M)
    assert jobs
    commands = {example.bare for example in ALL if example.page == "README.md"}
    for job in jobs:
        assert job in commands, job


def test_pattern() -> None:
    assert unmatched(("a: SOLVED (x, 0.000 s, nodes 1)",), "a: SOLVED (x, 1.25 s, nodes 1)") is None
    assert unmatched(("a: SOLVED (x, 0.000 s, nodes 1)",), "a: SOLVED (x, 1.25 s, nodes 2)")
    assert unmatched(("b", "a"), "a\nb") == "a"
    assert unmatched(("a ... c",), "zz\na bb c\n") is None
    assert unmatched(("in 3 ms (21.09 per second)",), "in 120 ms (3 per second)") is None


# Links and anchors ------------------------------------------------------------------------


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped,
    spaces to hyphens."""
    text = re.sub(r"`|\*\*|__", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    inside = False
    for line in page.read_text(encoding="utf-8").split("\n"):
        if line.lstrip().startswith("```"):
            inside = not inside
        if inside or not (m := re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)):
            continue
        base = slug(m.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        out.add(base if count == 0 else f"{base}-{count}")
    return out


def prose(page: Path) -> Iterator[tuple[int, str]]:
    """The numbered lines of a page outside code blocks (fenced or indented)."""
    inside = False
    for number, line in enumerate(page.read_text(encoding="utf-8").split("\n"), 1):
        if line.lstrip().startswith("```"):
            inside = not inside
        if not (inside or line.startswith("    ")):
            yield number, line


def links(page: Path) -> list[tuple[int, str]]:
    return [(number, target) for number, line in prose(page)
            for target in re.findall(r"\]\(([^)\s]+)\)", re.sub(r"`[^`]*`", "", line))
            if not re.match(r"[a-z]+:", target)]


ALL_PAGES = [*PAGES, *sorted((ROOT / "docs").rglob("*/*.md"))]


@pytest.mark.parametrize("page", ALL_PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links(page: Path) -> None:
    broken = []
    for number, target in links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{number}: {target} (no such file)")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{number}: {target} (no heading #{anchor})")
    assert not broken, "\n".join(broken)


def test_slug() -> None:
    assert slug("The well-designed check") == "the-well-designed-check"
    assert slug("Gravity: the stack model (`cpmodels/lianliankan/stacks.py`)") == \
        "gravity-the-stack-model-cpmodelslianliankanstackspy"


# Names in the reference ------------------------------------------------------------------


def code_spans(page: Path) -> list[tuple[int, str]]:
    return [(number, span) for number, line in prose(page)
            for span in re.findall(r"`([^`\n]+)`", line)]


def python_files() -> list[Path]:
    return [p for top in ("search", "cpmodels", "benchmarks") for p in (ROOT / top).rglob("*.py")]


def code_names() -> tuple[set[str], dict[str, set[str]]]:
    """Every name the code binds or uses (a constant of its own, the standard
    library's, an environment variable it reads), and each class's attributes."""
    names: set[str] = set()
    classes: dict[str, set[str]] = {}
    for file in python_files():
        tree = ast.parse(file.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                names.add(node.id)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                names.update(re.findall(r"\w+", node.value))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
            elif isinstance(node, ast.ClassDef):
                names.add(node.name)
                members = classes.setdefault(node.name, set())
                for item in ast.walk(node):
                    if isinstance(item, ast.Name) and isinstance(item.ctx, ast.Store):
                        members.add(item.id)
                    elif isinstance(item, ast.Attribute) and isinstance(item.ctx, ast.Store):
                        members.add(item.attr)
                    elif isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        members.add(item.name)
    return names, classes


def resolves(dotted: str) -> bool:
    """`search.x.y` is a module, or a module and attributes within it."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            thing = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(thing, attr):
                return False
            thing = getattr(thing, attr)
        return True
    return False


def missing_names(page: Path, names: set[str], classes: dict[str, set[str]]) -> list[str]:
    bad = []
    for number, span in code_spans(page):
        span = span.strip()
        if re.fullmatch(r"(search|cpmodels|tests|benchmarks)/[\w./*-]*", span):
            # an upper-case word is a placeholder (benchmarks/NAME.toml)
            ok = bool(list(ROOT.glob(re.sub(r"\b[A-Z]+\b|\.\.\.", "*", span.rstrip("/")))))
        elif re.fullmatch(r"(search|cpmodels)(\.\w+)+(\(\))?", span):
            ok = resolves(span.removesuffix("()"))
        elif re.fullmatch(r"[A-Z][A-Z0-9]*(_[A-Z0-9]+)+", span):
            ok = span in names
        elif m := re.fullmatch(r"([A-Z][a-z]\w*)\.(\w+)(\(\))?", span):
            ok = m.group(1) in classes and m.group(2) in classes[m.group(1)]
        else:
            continue
        if not ok:
            bad.append(f"{page.name}:{number}: `{span}`")
    return bad


def test_named_code_exists() -> None:
    names, classes = code_names()
    bad = [line for page in REFERENCE for line in missing_names(page, names, classes)]
    assert not bad, "names in the reference that the code lacks:\n" + "\n".join(bad)


def test_named_code_check_fails_on_missing_names(tmp_path: Path) -> None:
    names, classes = code_names()
    page = tmp_path / "page.md"
    page.write_text("`Budget.cover_nodes` `search.app.cli.main` `DEFAULT_MAX_CELLS` "
                    "`search/app/cli.py` `benchmarks/NAME.toml`\n"
                    "`Budget.nope` `search.app.nothing` `NOT_A_CONSTANT` `search/app/nope.py`\n")
    assert missing_names(page, names, classes) == [
        "page.md:2: `Budget.nope`", "page.md:2: `search.app.nothing`",
        "page.md:2: `NOT_A_CONSTANT`", "page.md:2: `search/app/nope.py`"]

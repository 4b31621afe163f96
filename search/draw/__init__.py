"""Pictures of puzzles and solutions: SVG (no dependency), PNG (matplotlib,
the ``plots`` extra) and a self-contained HTML page.

One drawing module per puzzle (``futoshiki``, ``numberlink``,
``lianliankan``) turns a puzzle, and a solution if any, into a ``Picture``
built from the few shapes of ``svg``; ``figure`` puts one or two of them under
a title; ``write`` saves a figure by the file's suffix.  Only ``gridcp draw``
imports this package; the models' ``_repr_svg_`` load it by name.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from search.core.outputs import write_file
from search.draw.page import page
from search.draw.png import write_png
from search.draw.svg import Picture, beside, to_string

FORMATS = (".svg", ".png", ".html")


def drawer(puzzle: Any) -> ModuleType:
    """The drawing module of a puzzle: ``search.draw.<puzzle>`` for a model of
    ``search.<puzzle>.model``."""
    package = type(puzzle).__module__.split(".")[1]
    return importlib.import_module(f"search.draw.{package}")


def figure(puzzle: Any, solutions: Sequence[Any] = (), *, title: str = "",
           captions: Sequence[str] = (), marked: Iterable[Any] = (),
           steps: bool = False) -> Picture:
    """The puzzle alone, with its solution, or two solutions side by side with
    the ``marked`` cells (where they differ: the kind's ``differences``)
    marked on both."""
    module = drawer(puzzle)
    marked = frozenset(marked)
    panels = [module.draw(puzzle, solution, marked=marked, steps=steps)
              for solution in (solutions or [None])]
    captions = list(captions) + [""] * (len(panels) - len(captions))
    return beside(list(zip(captions, panels)), title)


def svg(puzzle: Any, solution: Any = None) -> str:
    """A puzzle, with a solution if given, as SVG text."""
    return to_string(drawer(puzzle).draw(puzzle, solution))


def solution_svg(solution: Any) -> str:
    """A solution on its own (it does not hold its puzzle), as SVG text."""
    return to_string(drawer(solution).alone(solution))


def write(picture: Picture, path: str | Path, title: str = "", force: bool = False) -> None:
    """Save ``picture`` as SVG, PNG or HTML, by the suffix of ``path`` (through
    ``search.core.outputs.write_file``: an existing file only with ``force``)."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix == ".svg":
        write_file(target, to_string(picture) + "\n", force=force)
    elif suffix == ".png":
        write_png(picture, target, force)
    elif suffix == ".html":
        write_file(target, page(picture, title), force=force)
    else:
        raise ValueError(f"no picture format for {suffix!r} (known: {', '.join(FORMATS)})")

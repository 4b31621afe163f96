"""Compiled kernels: the C extension where the install built one, else the same source.

A kernel is a plain ``.py`` module of the search package with the C types of its
hot loops in an augmenting ``.pxd`` beside it (Cython's pure-Python mode; the
``.pxd`` is what makes a module a kernel: ``kernels`` finds them, for
``setup.py``'s build and ``gridcp --version`` alike).  Where a C compiler and
Cython were present at install, the extension sits beside the ``.py`` and
Python's import system prefers it; where the build failed, the ``.py`` is the
module.  Both are the same algorithm, so
answers, node counts and solutions do not depend on which one runs.

``GRIDCP_PURE=1`` in the environment makes ``load`` return the ``.py``
interpreted even where the extension exists (to compare the two, or to rule the
build out when something looks wrong); ``gridcp --version`` says which is in use.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

PURE = "GRIDCP_PURE"  # set to anything but "" or "0": every kernel runs interpreted
ROOT = Path(__file__).resolve().parents[1]  # the search package


def pure_wanted() -> bool:
    return os.environ.get(PURE, "") not in ("", "0")


def load(name: str) -> ModuleType:
    """The kernel module ``name``: compiled where built, unless $GRIDCP_PURE asks
    for the interpreted source."""
    return source(name) if pure_wanted() else importlib.import_module(name)


def source(name: str) -> ModuleType:
    """The kernel ``name``'s ``.py`` interpreted, whether or not it was compiled: a
    module of its own (``<name>.py``), imported once."""
    alias = name + ".py"
    module = sys.modules.get(alias)
    if module is None:
        path = ROOT.parent.joinpath(*name.split(".")).with_suffix(".py")
        spec = importlib.util.spec_from_file_location(alias, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"no source for the kernel {name} at {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[alias] = module
        spec.loader.exec_module(module)
    return module


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` is a C extension (rather than interpreted Python)."""
    file = getattr(module, "__file__", None) or ""
    return file.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def kernels() -> list[str]:
    """The kernel modules of the package: each ``.py`` with a ``.pxd`` beside it."""
    return sorted(".".join(p.relative_to(ROOT.parent).with_suffix("").parts)
                  for p in ROOT.rglob("*.pxd") if p.with_suffix(".py").exists())


def describe() -> str:
    """One line: which kernels run compiled and which interpreted, and why."""
    if pure_wanted():
        return f"kernels: interpreted ({PURE}={os.environ[PURE]}) " + ", ".join(kernels())
    built, not_built = [], []
    for name in kernels():
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None and spec.origin else ""
        compiled = origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
        (built if compiled else not_built).append(name)
    parts = []
    if built:
        parts.append("compiled " + ", ".join(built))
    if not_built:
        parts.append("interpreted (not built) " + ", ".join(not_built))
    return "kernels: " + ("; ".join(parts) or "none")

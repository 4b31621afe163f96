"""Builds the compiled kernels where it can; everything else is in pyproject.toml.

Each module of ``KERNELS`` is a plain ``.py`` with its C types in a ``.pxd`` beside
it (Cython's pure-Python mode).  Where Cython and a C compiler are present, each is
built as a C extension, which Python then imports in place of the ``.py``; where the
build fails, the install goes on with one line of warning and the same ``.py`` runs
interpreted (``search.core.compiled``).  Release wheels are built with a compiler.
"""

import runpy
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
# The compiled kernels: each .py with a .pxd beside it under search/, found by the
# same function that ``gridcp --version`` reports from (run from its file: stdlib only,
# so the build need not import the package).
KERNELS = runpy.run_path(str(HERE / "search" / "core" / "compiled.py"))["kernels"]()

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,  # indices are the kernels' own, within their buffers
    "wraparound": False,
    "cdivision": True,  # every division and remainder is of non-negative integers
    "initializedcheck": False,
}


def warn(why: str) -> None:
    print(f"gridcp: the compiled kernels were not built ({why}); "
          "the same Python runs interpreted", file=sys.stderr)


class OptionalBuild(build_ext):
    """build_ext that never fails the install: a kernel that does not compile stays
    interpreted."""

    def initialize_options(self) -> None:
        super().initialize_options()
        self.failed: set[str] = set()  # the kernels that did not compile

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler, a broken toolchain: the .py serves
            warn(f"{type(error).__name__}: {error}".splitlines()[0])

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:
            self.failed.add(ext.name)
            warn(f"{ext.name}: {type(error).__name__}: {error}".splitlines()[0])

    def copy_extensions_to_source(self) -> None:
        """In place (editable installs): copy the kernels that were built."""
        every = self.extensions
        self.extensions = [ext for ext in every if ext.name not in self.failed]
        try:
            super().copy_extensions_to_source()
        finally:
            self.extensions = every


def extensions() -> list:
    try:
        from Cython.Build import cythonize
    except ImportError:
        warn("Cython is not installed")
        return []
    from setuptools import Extension

    modules = [Extension(name, [name.replace(".", "/") + ".py"], optional=True)
               for name in KERNELS]
    try:
        return cythonize(modules, compiler_directives=DIRECTIVES, quiet=True)
    except Exception as error:
        warn(f"Cython: {type(error).__name__}: {error}".splitlines()[0])
        return []


if __name__ == "__main__":  # (the build runs it so; a test reads KERNELS alone)
    setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuild})

"""Where ``-o`` / ``--out`` may write: checked before any work, so that a
typo in the path is a one-line usage error (exit 2), not a traceback after
minutes of generating or solving."""

from __future__ import annotations

import os
from pathlib import Path

from search.core.contract import GridcpError


def out_dir(path: str | Path, option: str = "--out") -> Path:
    """A folder to write files into, created (with its parents) when missing."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise GridcpError(f"{option} {folder}: is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise GridcpError(f"{option} {folder}: cannot create the folder: "
                          f"{error.strerror or error}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise GridcpError(f"{option} {folder}: the folder is not writable")
    return folder


def out_file(path: str | Path, option: str = "--out") -> Path:
    """A file to write or append to: its folder must exist and be writable."""
    file = Path(path)
    if file.is_dir():
        raise GridcpError(f"{option} {file}: is a folder, not a file")
    folder = file.parent
    if not folder.is_dir():
        raise GridcpError(f"{option} {file}: no such folder {folder}")
    if file.exists() and not os.access(file, os.W_OK):
        raise GridcpError(f"{option} {file}: the file is not writable")
    if not file.exists() and not os.access(folder, os.W_OK | os.X_OK):
        raise GridcpError(f"{option} {file}: the folder {folder} is not writable")
    return file

"""The atomic way out: every file gridcp writes goes through ``write_file`` (or,
for the one documented append mode, bench's results file, ``appending``).

- The text goes to a temporary file in the target's folder, is flushed and
  fsynced, and only then takes the target's name (a hard link when the target
  must not exist, so that a file appearing meanwhile is not overwritten either;
  ``os.replace`` with ``--force``).  A reader never sees half a file, and a
  failure (a full disk, a folder that is not writable) leaves no file behind:
  exit 2 with the path and the reason.
- A symbolic link at the target is refused, never followed; so is anything but
  a regular file (a FIFO, a device, a folder).
- An existing file is overwritten only with ``--force``.
- Appending (bench's results) first checks that the file's last line is a
  complete record (it ends in a line end and parses); each record is written
  with one call and fsynced, and a failed write is cut back off the file.

``-o`` / ``--out`` paths are also checked before any work (``out_dir``,
``out_file``), so that a typo in the path is a one-line usage error, not a
traceback after minutes of generating or solving.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from search.core.contract import GridcpError

TAIL = 1 << 20  # bytes read back from the end of a file to find its last line


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def out_dir(path: str | Path, option: str = "--out") -> Path:
    """A folder to write files into, created (with its parents) when missing."""
    folder = Path(path)
    if folder.is_symlink() and not folder.is_dir():
        raise GridcpError(f"{option} {folder}: is a symbolic link to no folder")
    if folder.exists() and not folder.is_dir():
        raise GridcpError(f"{option} {folder}: is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise GridcpError(f"{option} {folder}: cannot create the folder: "
                          f"{_reason(error)}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise GridcpError(f"{option} {folder}: the folder is not writable")
    return folder


def _existing(file: Path, option: str) -> os.stat_result | None:
    """The target's own status (a link not followed), refusing what gridcp never
    writes to: a symbolic link, a folder, a FIFO, a device."""
    try:
        info = os.lstat(file)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise GridcpError(f"{option} {file}: {_reason(error)}") from None
    if stat.S_ISLNK(info.st_mode):
        raise GridcpError(f"{option} {file}: is a symbolic link; gridcp does not write "
                          "through links (remove it or name its target)")
    if stat.S_ISDIR(info.st_mode):
        raise GridcpError(f"{option} {file}: is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise GridcpError(f"{option} {file}: is not a regular file (a FIFO, a device or a "
                          "socket); gridcp writes only regular files")
    return info


def out_file(path: str | Path, option: str = "--out", *, force: bool = True) -> Path:
    """A file to write or append to: its folder must exist and be writable, and
    the file itself be absent or a regular file (with ``force`` False: absent)."""
    file = Path(path)
    info = _existing(file, option)
    if info is not None and not force:
        raise GridcpError(f"{option} {file}: the file exists (--force overwrites it)")
    folder = file.parent
    if not folder.is_dir():
        raise GridcpError(f"{option} {file}: no such folder {folder}")
    if info is not None and not os.access(file, os.W_OK):
        raise GridcpError(f"{option} {file}: the file is not writable")
    if info is None and not os.access(folder, os.W_OK | os.X_OK):
        raise GridcpError(f"{option} {file}: the folder {folder} is not writable")
    return file


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _sync_folder(folder: Path) -> None:
    """Make the new name durable too (not every file system can: then never mind)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_file(path: str | Path, data: str | bytes, *, force: bool = False,
               option: str = "-o") -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` atomically, as the module says."""
    target = Path(path)
    info = _existing(target, option)
    if info is not None and not force:
        raise GridcpError(f"{option} {target}: the file exists (--force overwrites it)")
    payload = data.encode("utf-8") if isinstance(data, str) else data
    folder = target.parent
    import tempfile  # here: the commands that write no file do not load it at start-up

    try:
        fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{target.name[:64]}.",
                                         suffix=".part")
    except OSError as error:
        raise GridcpError(f"{option} {target}: cannot write in {folder}: "
                          f"{_reason(error)}") from None
    try:
        try:
            mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
            os.fchmod(fd, mode)
            _write_all(fd, payload)
            os.fsync(fd)
        finally:
            os.close(fd)
        if force:
            os.replace(temporary, target)
        else:
            _link_new(temporary, target, option)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise GridcpError(f"{option} {target}: cannot write: {_reason(error)}") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _sync_folder(folder)
    return target


def _link_new(temporary: str, target: Path, option: str) -> None:
    """Give the written file the target's name only if nothing holds it yet."""
    try:
        os.link(temporary, target)
    except FileExistsError:
        os.unlink(temporary)
        raise GridcpError(f"{option} {target}: the file appeared while it was written "
                          "(--force overwrites it)") from None
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
            raise
        if os.path.lexists(target):  # no hard links here: check, then rename
            os.unlink(temporary)
            raise GridcpError(f"{option} {target}: the file appeared while it was written "
                              "(--force overwrites it)") from None
        os.replace(temporary, target)
        return
    os.unlink(temporary)


# ---------------------------------------------------------------- appending


def last_line(path: Path) -> bytes | None:
    """The file's last line with its line end (None: the file is empty)."""
    with open(path, "rb") as file:
        size = file.seek(0, os.SEEK_END)
        if size == 0:
            return None
        start = max(0, size - TAIL)
        file.seek(start)
        tail = file.read()
    cut = tail.rfind(b"\n", 0, len(tail) - 1)
    return tail[cut + 1:] if cut >= 0 or start == 0 else tail


def check_appendable(path: Path, check: Callable[[str], object], option: str = "--out") -> None:
    """Refuse to append to ``path`` unless its last line is a complete record: it
    ends in a line end and ``check`` (which raises on a bad record) passes it."""
    if _existing(path, option) is None:
        return
    try:
        line = last_line(path)
    except OSError as error:
        raise GridcpError(f"{option} {path}: cannot read: {_reason(error)}") from None
    if line is None:
        return
    if not line.endswith(b"\n"):
        raise GridcpError(f"{option} {path}: its last line has no line end (cut short, or not "
                          "a file gridcp wrote); gridcp appends only after a complete record")
    try:
        check(line.decode("utf-8").rstrip("\r\n"))
    except (GridcpError, UnicodeDecodeError) as error:
        raise GridcpError(f"{option} {path}: its last line is not a record gridcp wrote "
                          f"({error}); gridcp appends only after a complete record") from None


@contextlib.contextmanager
def appending(path: Path, check: Callable[[str], object],
              option: str = "--out") -> Iterator[Callable[[str], None]]:
    """A function that appends one record (a line of text) to ``path`` durably,
    after ``check_appendable``.  A record that cannot be written whole (a full
    disk) is cut back off and is exit 2; a file this call created and left empty
    is removed."""
    check_appendable(path, check, option)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | \
        getattr(os, "O_CLOEXEC", 0) | os.O_NONBLOCK
    created = not os.path.lexists(path)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as error:
        raise GridcpError(f"{option} {path}: cannot write: {_reason(error)}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise GridcpError(f"{option} {path}: is not a regular file")

        def append(line: str) -> None:
            size = os.fstat(fd).st_size
            try:
                _write_all(fd, (line if line.endswith("\n") else line + "\n").encode("utf-8"))
                os.fsync(fd)
            except OSError as error:
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, size)
                raise GridcpError(f"{option} {path}: cannot write: {_reason(error)}") from None

        yield append
    finally:
        empty = os.fstat(fd).st_size == 0
        os.close(fd)
        if created and empty:
            with contextlib.suppress(OSError):
                os.unlink(path)


def save_figure(figure: object, path: str | Path, *, force: bool = False, **options: object
                ) -> Path:
    """A matplotlib figure written through ``write_file`` (its format from the suffix)."""
    import io

    buffer = io.BytesIO()
    options.setdefault("format", Path(path).suffix.lstrip(".").lower() or "png")
    figure.savefig(buffer, **options)  # type: ignore[attr-defined]
    return write_file(path, buffer.getvalue(), force=force)


def distinct_targets(sources: list[str], target: Callable[[str], Path],
                     option: str = "-o") -> None:
    """Refuse, before anything is written, two inputs whose outputs share a name
    (``a/p.fut`` and ``b/p.fut`` both to ``OUT/p.txt``): one would replace the other."""
    seen: dict[str, str] = {}
    for source in sources:
        name = os.path.normcase(os.path.abspath(target(source)))
        if name in seen:
            raise GridcpError(f"{option}: {seen[name]} and {source} would both be written to "
                              f"{target(source)}; convert them into separate folders")
        seen[name] = source


# ---------------------------------------------------------------- the terminal


class _Escaping:
    """A text stream that shows non-printable characters (an escape sequence in a
    label or a file name) as escapes, ``\\x1b``, keeping line ends and tabs."""

    KEEP = frozenset("\n\r\t")

    def __init__(self, stream: Any):
        self._stream = stream

    def write(self, text: str) -> int:
        if not text.isprintable():
            text = "".join(c if c.isprintable() or c in self.KEEP else repr(c)[1:-1]
                           for c in text)
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def terminal_safe() -> Iterator[None]:
    """Standard output and error, where they are terminals, escape what could
    drive the terminal (``_Escaping``); files and pipes get the bytes as they are."""
    saved = sys.stdout, sys.stderr
    try:
        if _is_terminal(sys.stdout):
            sys.stdout = _Escaping(sys.stdout)
        if _is_terminal(sys.stderr):
            sys.stderr = _Escaping(sys.stderr)
        yield
    finally:
        sys.stdout, sys.stderr = saved


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def generated(count: int, what: str, seconds: float, note: str = "") -> str:
    """The one summary line of every ``generate``: ``generated 3 6x6 puzzles in
    0.26 s (11.3 per second)``, ``what`` the singular noun with its size and
    kind, ``note`` what the generator adds (boards drawn, skipped)."""
    rate = count / seconds if seconds > 0 else float("inf")
    noun = what if count == 1 else f"{what}s"
    return (f"generated {count} {noun} in {seconds:.2f} s ({rate:.1f} per second"
            f"{', ' + note if note else ''})")

"""The atomic way out (``search.core.outputs``): new files, existing files,
symbolic links and special files at the target, a full disk, appending."""

from __future__ import annotations

import errno
import io
import os
from pathlib import Path

import pytest

from search.core import outputs
from search.core.contract import GridcpError
from search.core.inputs import record_of


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


def test_a_new_file_is_written_whole_with_the_usual_mode(tmp_path: Path) -> None:
    target = tmp_path / "p.txt"
    outputs.write_file(target, "3\n0 | 0\n")
    assert target.read_text() == "3\n0 | 0\n"
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask
    assert not leftovers(tmp_path)


def test_an_existing_file_needs_force_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "p.txt"
    target.write_text("mine\n")
    target.chmod(0o640)
    with pytest.raises(GridcpError, match="exists .--force"):
        outputs.write_file(target, "new\n")
    assert target.read_text() == "mine\n"
    outputs.write_file(target, "new\n", force=True)
    assert target.read_text() == "new\n" and target.stat().st_mode & 0o777 == 0o640
    assert not leftovers(tmp_path)


@pytest.mark.parametrize("force", [False, True])
def test_a_symbolic_link_is_never_followed(tmp_path: Path, force: bool) -> None:
    victim = tmp_path / "victim"
    victim.write_text("precious\n")
    link = tmp_path / "out.svg"
    link.symlink_to(victim)
    with pytest.raises(GridcpError, match="symbolic link"):
        outputs.write_file(link, "<svg/>", force=force)
    assert victim.read_text() == "precious\n" and link.is_symlink()
    dangling = tmp_path / "dangling.svg"
    dangling.symlink_to(tmp_path / "nowhere")
    with pytest.raises(GridcpError, match="symbolic link"):
        outputs.write_file(dangling, "<svg/>", force=force)
    assert not (tmp_path / "nowhere").exists()


def test_special_files_and_folders_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(GridcpError, match="not a regular file"):
        outputs.write_file(fifo, "x", force=True)
    with pytest.raises(GridcpError, match="folder"):
        outputs.write_file(tmp_path, "x", force=True)
    with pytest.raises(GridcpError, match="not a regular file"):
        outputs.write_file("/dev/null", "x", force=True)


def full_disk(monkeypatch, after: int = 0) -> None:
    """``os.write`` fails with ENOSPC once ``after`` bytes are written."""
    real, written = os.write, [0]

    def write(fd: int, data) -> int:
        if written[0] + len(data) > after:
            room = after - written[0]
            if room <= 0:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            data = bytes(data[:room])
        written[0] += len(data)
        return real(fd, data)

    monkeypatch.setattr(os, "write", write)


@pytest.mark.parametrize("after", [0, 5])
def test_a_full_disk_leaves_no_file_behind(tmp_path: Path, monkeypatch, after: int) -> None:
    full_disk(monkeypatch, after)
    target = tmp_path / "p.txt"
    with pytest.raises(GridcpError, match="No space left on device") as error:
        outputs.write_file(target, "0123456789" * 10)
    assert str(target) in str(error.value)
    assert not target.exists() and not leftovers(tmp_path)


def test_a_full_disk_keeps_the_old_file_under_force(tmp_path: Path, monkeypatch) -> None:
    target = tmp_path / "p.txt"
    target.write_text("old\n")
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(
        OSError(errno.ENOSPC, "No space left on device")))
    with pytest.raises(GridcpError, match="No space"):
        outputs.write_file(target, "new\n", force=True)
    assert target.read_text() == "old\n" and not leftovers(tmp_path)


def test_an_unwritable_folder_is_exit_2_material(tmp_path: Path) -> None:
    with pytest.raises(GridcpError, match="cannot write in"):
        outputs.write_file(tmp_path / "missing" / "p.txt", "x")


def test_a_file_that_appears_meanwhile_is_not_overwritten(tmp_path: Path,
                                                          monkeypatch) -> None:
    target = tmp_path / "p.txt"
    real = os.fsync

    def racing(fd: int) -> None:
        real(fd)
        if not target.exists():
            target.write_text("someone else's\n")

    monkeypatch.setattr(os, "fsync", racing)
    with pytest.raises(GridcpError, match="appeared"):
        outputs.write_file(target, "mine\n")
    assert target.read_text() == "someone else's\n" and not leftovers(tmp_path)


# ---------------------------------------------------------------- appending

RECORD = '{"instance": "a", "status": "SOLVED"}'


def check(line: str) -> object:
    return record_of(line, "r.jsonl")


def test_appending_checks_the_last_line_first(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    with outputs.appending(out, check) as append:
        append(RECORD)
        append(RECORD + "\n")
    assert out.read_text() == f"{RECORD}\n{RECORD}\n"
    out.write_text(RECORD)  # a complete record without its line end
    with pytest.raises(GridcpError, match="no line end"), outputs.appending(out, check):
        pass
    out.write_text(f"{RECORD}\nnot json\n")
    with pytest.raises(GridcpError, match="not a record"), outputs.appending(out, check):
        pass
    assert out.read_text() == f"{RECORD}\nnot json\n"


def test_a_failed_append_is_cut_back_off(tmp_path: Path, monkeypatch) -> None:
    out = tmp_path / "r.jsonl"
    out.write_text(RECORD + "\n")
    with outputs.appending(out, check) as append:
        full_disk(monkeypatch, after=10)
        with pytest.raises(GridcpError, match="No space"):
            append(RECORD)
    assert out.read_text() == RECORD + "\n"


def test_an_append_that_writes_nothing_leaves_no_file(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    with outputs.appending(out, check):
        pass
    assert not out.exists()


def test_appending_refuses_links_and_fifos(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("x\n")
    (tmp_path / "link.jsonl").symlink_to(victim)
    with pytest.raises(GridcpError, match="symbolic link"), \
            outputs.appending(tmp_path / "link.jsonl", check):
        pass
    os.mkfifo(tmp_path / "fifo.jsonl")
    with pytest.raises(GridcpError, match="not a regular file"), \
            outputs.appending(tmp_path / "fifo.jsonl", check):
        pass
    assert victim.read_text() == "x\n"


# ---------------------------------------------------------------- names and terminals


def test_two_inputs_for_one_output_name_are_refused() -> None:
    with pytest.raises(GridcpError, match="a/p.fut and b/p.fut"):
        outputs.distinct_targets(["a/p.fut", "c/q.fut", "b/p.fut"],
                                 lambda f: Path("out") / (Path(f).stem + ".txt"))
    outputs.distinct_targets(["a/p.fut", "a/q.fut"], lambda f: Path("out") / Path(f).name)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_escapes_a_file_the_bytes(monkeypatch) -> None:
    import sys

    screen, log = Terminal(), io.StringIO()
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setattr(sys, "stderr", log)
    with outputs.terminal_safe():
        print("label \x1b]0;title\x07 and \u202e\tnext")
        print("plain \x1b[31m", file=sys.stderr)
    assert screen.getvalue() == "label \\x1b]0;title\\x07 and \\u202e\tnext\n"
    assert log.getvalue() == "plain \x1b[31m\n"
    assert sys.stdout is screen


def test_every_generator_ends_with_one_summary_line() -> None:
    generated = outputs.generated
    assert generated(1, "5x5 puzzle", 0.5) == "generated 1 5x5 puzzle in 0.50 s (2.0 per second)"
    assert (generated(3, "seed board", 2.0, "4 drawn")
            == "generated 3 seed boards in 2.00 s (1.5 per second, 4 drawn)")

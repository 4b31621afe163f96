"""Ctrl-C (SIGINT) and SIGTERM stop a command at once, CP-SAT included: one
line "gridcp: interrupted", exit 130 (SIGTERM 143), no file after the one
being worked on, and the output so far complete line by line.

A real signal to a real process: CP-SAT installs its own SIGINT handler
unless told not to, and a solve that holds the main thread in C++ would not
see Python's handler until it ended."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from tests.conftest import INSTANCES, ROOT

ADC = INSTANCES / "numberlink" / "adc2015"
# The first board takes a moment; Q18 runs for tens of seconds under --lenient
# (solve and check alike); Q17 must never start.
FILES = [INSTANCES / "numberlink" / "seed-article" / "seed_7x7.nl", ADC / "Q18.txt",
         ADC / "Q17.txt"]
EXIT_WITHIN = 10.0  # seconds: loose on purpose (a loaded machine); measured: about 0.5


def _interrupt(signum: int, command: tuple[str, ...] = ("solve", "--backend", "cpsat"),
               into: float = 0.5) -> tuple[int, float, str, str]:
    """Run ``command`` on the three boards, send ``signum`` ``into`` seconds after
    Q18's turn began, and return the exit code, the seconds to exit, stdout and
    stderr."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "search", *command, "--lenient", "--json",
         "--time-limit", "300", *map(str, FILES)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    err = ""
    try:
        for line in process.stderr:  # plain progress lines: stderr is not a terminal
            err += line
            if " 2/3 " in line:
                break
        time.sleep(into)
        assert process.poll() is None, err
        sent = time.perf_counter()
        process.send_signal(signum)
        out, rest = process.communicate(timeout=60)
        return process.returncode, time.perf_counter() - sent, out, err + rest
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_a_cpsat_solve(signum: int, code: int) -> None:
    exit_code, took, out, err = _interrupt(signum)
    assert exit_code == code, err
    assert err.rstrip().splitlines()[-1] == "gridcp: interrupted", err
    assert "Traceback" not in err and "solve 3/3" not in err and "Q17" not in out + err
    lines = out.splitlines()
    assert len(lines) == 1 and out.endswith("\n")
    assert json.loads(lines[0])["status"] == "SOLVED"  # the first board, whole
    assert took < EXIT_WITHIN


def test_ctrl_c_stops_the_numberlink_check_inside_its_cpsat_proof() -> None:
    """Three seconds into Q18's check its pipeline is in a CP-SAT proof, where a
    normal exit once aborted in native code (exit -6)."""
    exit_code, took, out, err = _interrupt(signal.SIGINT, ("check",), into=3.0)
    assert exit_code == 130, err
    assert err.rstrip().splitlines()[-1] == "gridcp: interrupted", err
    assert len(out.splitlines()) == 1 and json.loads(out)["task"] == "check"
    assert took < EXIT_WITHIN


def test_an_error_raised_by_the_interrupt_is_the_interrupt(monkeypatch, capsys) -> None:
    """Code that wraps what it catches (an import cut by Ctrl-C turned into an
    ImportError) must not turn an interrupt into an internal error, exit 4."""
    from search.app import catalogue, cli

    def cut_import(args: object) -> int:
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)
        except BaseException as error:
            raise ImportError("the import was cut") from error
        return 0

    monkeypatch.setattr(catalogue, "_run", cut_import)
    assert cli.main(["backends"]) == 130
    assert capsys.readouterr().err == "gridcp: interrupted\n"
    monkeypatch.setattr(catalogue, "_run", lambda args: 1 // 0)  # a bug stays a bug
    assert cli.main(["backends"]) == 4

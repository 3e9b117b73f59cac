"""Shared helpers of the Python tests: the repository's paths and the `crokinole` command
(`$CROKINOLE_BIN` if set, as .ci/test sets it to the binary its Rust tests built; else the
release binary, built here if missing), so results can be compared with what the command
prints."""

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# Ctrl-C as a terminal delivers it: a shell that starts the tests in the background (`cmd &`
# in a script) starts them with SIGINT ignored, and then a simulated Ctrl-C
# (`_thread.interrupt_main`, `os.kill(pid, SIGINT)`) would do nothing and the tests of
# prompt interrupts would run their calls for hours. Their children reset it too.
signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"


def _binary() -> Path:
    if os.environ.get("CROKINOLE_BIN"):
        exe = Path(os.environ["CROKINOLE_BIN"])
        assert exe.is_file(), f"CROKINOLE_BIN={exe} is not a file"
        return exe
    exe = ROOT / "target" / "release" / "crokinole"
    if not exe.exists():
        subprocess.run(
            ["cargo", "build", "--release", "--bin", "crokinole"], cwd=ROOT, check=True
        )
    return exe


@pytest.fixture(scope="session")
def cli():
    """Runs `crokinole ARGS` in the repository; returns the completed process."""
    exe = _binary()

    def run(*args, input=None):
        return subprocess.run(
            [str(exe), *map(str, args)],
            cwd=ROOT,
            input=input,
            capture_output=True,
            text=True,
        )

    return run


@pytest.fixture(scope="session")
def cli_json(cli):
    """Runs `crokinole ARGS` and parses what it prints (it must succeed)."""

    def run(*args):
        p = cli(*args)
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)

    return run


def cli_error(cli, *args, input=None) -> str:
    """The message `crokinole ARGS` prints after `error: ` (it must fail with status 2)."""
    p = cli(*args, input=input)
    assert p.returncode == 2, (p.returncode, p.stderr)
    line = p.stderr.strip().splitlines()[-1]
    assert line.startswith("error: "), line
    return line[len("error: "):]


def run_isolated(code: str, limit: float = 180) -> str:
    """Runs `code` in a fresh interpreter from the repository's root and returns what it
    printed; a run that does not end within `limit` seconds fails (a hang fails the
    test instead of stalling the run), as does one that fails."""
    try:
        p = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=limit,
        )
    except subprocess.TimeoutExpired:
        raise AssertionError(f"hung: no answer within {limit} s") from None
    assert p.returncode == 0, p.stderr
    return p.stdout

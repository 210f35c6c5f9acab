"""The bad-input suite's promise: every case states the promise a hostile input must still get.

A case runs a real command (``carts ...``, ``carts-opt ...``) in a child process, with a
wall-clock limit, and :func:`expect_error` checks the promise: a non-zero exit (1 for our
errors unless the case says otherwise), one ``error:`` line with the location when one is
known (``file:line:col: error: ...``), the message, no Python traceback, no crash (no
signal, no core dump text), and no file left behind but the ones the case allows.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
TIMEOUT = 240


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str
    timed_out: bool = False


def run(*args: str, input: str | bytes | None = None, cwd: Path | None = None,
        env: dict | None = None, timeout: float = TIMEOUT, stdin=None, stdout=None) -> Result:
    """Run a command of this environment (``carts``, ``carts-opt``, or any program). Output
    is decoded leniently, so a case can feed and expect non-UTF-8 bytes."""
    exe = shutil.which(args[0], path=str(BIN)) or args[0]
    kwargs = dict(cwd=cwd, env={**os.environ, **(env or {})}, start_new_session=True)
    if stdin is not None:
        kwargs["stdin"] = stdin
    elif input is not None:
        kwargs["input"] = input.encode() if isinstance(input, str) else input
        kwargs["stdin"] = subprocess.PIPE
    else:
        kwargs["stdin"] = subprocess.DEVNULL
    proc = subprocess.Popen([exe, *args[1:]], stdout=stdout or subprocess.PIPE,
                            stderr=subprocess.PIPE, **{k: v for k, v in kwargs.items()
                                                       if k != "input"})
    try:
        out, err = proc.communicate(kwargs.get("input"), timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        timed_out = True
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # nothing the case started may outlive it
        except (ProcessLookupError, PermissionError):
            pass
    decode = lambda b: (b or b"").decode(errors="replace")
    return Result(proc.returncode, decode(out), decode(err), timed_out)


_ERROR_LINE = re.compile(r"^(?:(?P<loc>\S+?): )?error: (?P<msg>.+)$", re.M)


def expect_error(r: Result, message: str | None = None, *, location: str | None = None,
                 code: int | None = 1) -> re.Match:
    """The promise for bad input; returns the match of the first ``error:`` line.

    ``message`` is a regular expression searched in that line's message; ``location`` a
    regular expression the location must match in full (``r"x\\.c:3:\\d+"``)."""
    assert not r.timed_out, f"hung; stderr so far:\n{r.stderr}"
    assert "Traceback (most recent call last)" not in r.stderr + r.stdout, r.stderr
    assert r.code != 0, f"exit 0 on bad input; stderr:\n{r.stderr}"
    assert r.code >= 0, f"killed by signal {-r.code}; stderr:\n{r.stderr}"
    if code is not None:
        assert r.code == code, f"exit {r.code}, expected {code}; stderr:\n{r.stderr}"
    m = _ERROR_LINE.search(r.stderr)
    assert m, f"no 'error:' line on stderr:\n{r.stderr}"
    if message is not None:
        assert re.search(message, m.group("msg")), f"message {m.group('msg')!r} !~ {message!r}"
    if location is not None:
        assert m.group("loc") and re.fullmatch(location, m.group("loc")), \
            f"location {m.group('loc')!r} !~ {location!r}"
    return m


def expect_only(directory: Path, *names: str) -> None:
    """No file under ``directory`` but ``names`` (no partial output, no stray temporaries)."""
    present = sorted(str(p.relative_to(directory)) for p in directory.rglob("*") if p.is_file())
    assert present == sorted(names), f"left behind: {sorted(set(present) - set(names))}"

"""User-facing errors: reported as ``file:line:col: error: message``, never as a traceback."""

from __future__ import annotations

import errno
import io
import os
import signal
import sys
from typing import Callable


class CartsError(Exception):
    """An error the user caused (bad input, bad flag, failed pass).

    ``location`` is ``file:line:col`` (or just ``file``) when known; ``reproduce`` is the
    command line that reproduces the failure, when it is not the one the user typed.
    """

    def __init__(self, message: str, location: str | None = None, reproduce: str | None = None):
        super().__init__(message)
        self.message = message
        self.location = location
        self.reproduce = reproduce

    def render(self) -> str:
        head = f"{self.location}: error: {self.message}" if self.location else f"error: {self.message}"
        if self.reproduce:
            head += f"\nreproduce with: {self.reproduce}"
        return head


_OUTPUT_ERRORS = {errno.ENOSPC, errno.EPIPE, errno.EBADF, errno.EIO, errno.EFBIG,
                  errno.EDQUOT}
"""What a write to a full disk, a closed pipe or a closed descriptor fails with."""


class _ClosedStream(io.TextIOBase):
    """Stands for a standard stream the command was started without: writing to it fails
    as writing to a closed descriptor does."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "it is closed")


def guarded(command: Callable[[], int]) -> int:
    """Run a command-line entry point: a :class:`CartsError` becomes its message and exit 1,
    as does output that cannot be written (standard output closed or on a full disk)."""
    # A closed standard descriptor is taken by /dev/null, so that no file opened later
    # (by LLVM, by the compiler) gets its number and is mistaken for it.
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is None:
            _occupy(fd)
    if sys.stdout is None:
        sys.stdout = _ClosedStream()
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")  # nowhere to say anything: the exit code speaks
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _on_interrupt)
        sys.unraisablehook = _quiet_interrupts(sys.unraisablehook)
    try:
        code = command()
        sys.stdout.flush()  # a full disk shows here, not in the interpreter's last flush
        return code
    except CartsError as err:
        print(err.render(), file=sys.stderr)
        return 1
    except OSError as err:
        if err.errno not in _OUTPUT_ERRORS:
            raise
        _drop_pending_output()
        where = f"'{err.filename}'" if err.filename else "standard output"
        print(f"error: cannot write to {where}: {err.strerror}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        _end_now(130)
        return 130  # not reached


_interrupted = False


def _on_interrupt(signum, frame) -> None:
    """Ctrl-C: KeyboardInterrupt as usual, remembered too. Python drops an exception raised
    inside a finaliser (a ``__del__`` the collector runs, as libclang's objects have), which
    would lose the interrupt: whoever is about to start or wait for something long asks
    :func:`interrupted`."""
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


def _quiet_interrupts(hook):
    """The unraisable-exception hook, silent about the KeyboardInterrupt a finaliser drops
    (:func:`_on_interrupt` has remembered it): no traceback for a Ctrl-C."""

    def quiet(unraisable) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            hook(unraisable)

    return quiet


def _end_now(code: int) -> None:
    """Exit at once after Ctrl-C, without the interpreter's teardown: a thread the interrupt
    cannot stop (a step of the front end or of MLIR's parser on a deep stack) may still be
    inside MLIR, and tearing the interpreter down under it aborts the process. What the run
    started was stopped on the way here (a node cluster closes in its ``with``)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def interrupted() -> bool:
    """Whether Ctrl-C reached this process (through the command-line driver's handler)."""
    return _interrupted


def _drop_pending_output() -> None:
    """After standard output failed, point descriptor 1 at /dev/null so the interpreter's
    final flush of what is still buffered does not fail a second time, with a traceback."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.close(null)
        except OSError:
            pass


def _occupy(fd: int) -> None:
    try:
        os.fstat(fd)
        return  # open after all
    except OSError:
        pass
    try:
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
    except OSError:
        pass


def check_arguments(argv: list[str]) -> None:
    """Every command-line argument must be UTF-8: file names end up in MLIR locations and
    clang's command line, which take UTF-8 only (Python hands other bytes over as lone
    surrogates, which neither can encode)."""
    for arg in argv:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = os.fsencode(arg).decode("utf-8", "backslashreplace")
            raise CartsError(f"argument '{shown}' is not UTF-8 (file names and arguments "
                             "must be UTF-8)") from None

"""Reading inputs with located errors, and writing output files so that a failed run never
leaves a partial one."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import CartsError


def decode_source(data: bytes, name: str) -> str:
    """``data`` as UTF-8 text; the first byte that is not UTF-8, or a NUL byte (where the
    MLIR parser and clang would silently stop reading), is a located error (``name:line:col``,
    the column counted in bytes, as a compiler counts it)."""
    def at(offset: int) -> str:
        line = data.count(b"\n", 0, offset) + 1
        column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
        return f"{name}:{line}:{column}"

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise CartsError(f"invalid UTF-8 byte 0x{data[err.start]:02x} (input must be UTF-8 "
                         "text)", at(err.start)) from None
    nul = data.find(b"\0")
    if nul >= 0:
        raise CartsError("NUL byte in the input (input must be text)", at(nul))
    return text


def read_source(path: str | os.PathLike) -> str:
    """The text of an input file, or of standard input for ``-``, with every way it can fail
    a located one-line error: missing, a directory, unreadable, closed, not UTF-8."""
    name = os.fsdecode(path)
    printable = name.encode("utf-8", "backslashreplace").decode("utf-8")
    if name == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:
            raise CartsError("cannot read standard input: it is closed", "<stdin>")
        try:
            data = stream.read()
        except (OSError, ValueError) as err:
            raise CartsError(f"cannot read standard input: {err}", "<stdin>") from None
        return decode_source(data, "<stdin>")
    target = Path(path)
    if target.is_dir():
        raise CartsError("cannot read input: it is a directory", printable)
    if target.exists() and not target.is_file():
        raise CartsError("cannot read input: not a regular file", printable)
    try:
        data = target.read_bytes()
    except OSError as err:
        raise CartsError(f"cannot read input: {err.strerror}", printable) from None
    return decode_source(data, printable)


def check_destination(path: str | os.PathLike, inputs=()) -> Path:
    """A located error now, before any work, if ``path`` cannot be an output file: it is a
    directory, its directory is missing (or is a file), or it is one of ``inputs``."""
    target = Path(path)
    if target.is_dir():
        raise CartsError("cannot write output: it is a directory", str(target))
    parent = target.absolute().parent
    if not parent.is_dir():
        why = "is not a directory" if parent.exists() or _below_a_file(parent) else "does not exist"
        raise CartsError(f"cannot write output: its directory {why}", str(target))
    for source in inputs:
        try:
            if Path(source).exists() and target.exists() and target.samefile(source):
                raise CartsError("cannot write output: it is the input file", str(target))
        except OSError:
            continue
    return target


def check_creatable_directory(path: str | os.PathLike, what: str = "output") -> Path:
    """A located error now if ``path`` cannot be (or become) a directory: it is a file, or
    some directory above it is."""
    target = Path(path)
    if target.exists() and not target.is_dir():
        raise CartsError(f"cannot write {what}: it is a file, not a directory", str(target))
    if not target.exists() and _below_a_file(target):
        raise CartsError(f"cannot write {what}: a directory above it is a file", str(target))
    return target


@contextlib.contextmanager
def created_directory(path: str | os.PathLike) -> Iterator[Path]:
    """Make ``path`` (and its missing parents) for the body; if the body fails, remove what
    was made here, with whatever the body had put in it, so that a failed run leaves nothing
    behind. Directories that existed before are kept as they were."""
    target = check_creatable_directory(path).absolute()
    missing = next((p for p in [*reversed(target.parents), target] if not p.exists()), None)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise CartsError(f"cannot make the directory: {err.strerror or err}", str(path)) from None
    try:
        yield target
    except BaseException:
        if missing is not None:
            shutil.rmtree(missing, ignore_errors=True)
        raise


def _below_a_file(directory: Path) -> bool:
    return any(p.is_file() for p in directory.parents) or directory.is_file()


def write_atomically(path: str | os.PathLike, text: str | bytes) -> Path:
    """Write ``text`` (or bytes) through a temporary file in the same directory, then rename
    it over ``path``; the file gets the mode a plain ``open`` would give it. Returns the
    path. A device or a pipe (``-o /dev/null``) is written in place: it is not a file to
    replace."""
    target = check_destination(path)
    if target.exists() and not target.is_file():
        try:
            with open(target, "wb" if isinstance(text, bytes) else "w") as f:
                f.write(text)
        except OSError as err:
            raise CartsError(f"cannot write output: {err.strerror or err}",
                             str(target)) from None
        return target
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                   dir=target.absolute().parent)
    except OSError as err:
        raise CartsError(f"cannot write output: {err.strerror}", str(target)) from None
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp's 0600 would outlive the rename
        with os.fdopen(fd, "wb" if isinstance(text, bytes) else "w") as f:
            f.write(text)
        os.replace(tmp, target)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise CartsError(f"cannot write output: {err.strerror or err}", str(target)) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target

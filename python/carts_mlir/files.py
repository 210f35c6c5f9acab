"""Writing output files so that a failed run never leaves a partial one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import CartsError


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


def _below_a_file(directory: Path) -> bool:
    return any(p.is_file() for p in directory.parents) or directory.is_file()


def write_atomically(path: str | os.PathLike, text: str | bytes) -> Path:
    """Write ``text`` (or bytes) through a temporary file in the same directory, then rename
    it over ``path``; the file gets the mode a plain ``open`` would give it. Returns the
    path."""
    target = check_destination(path)
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

"""Writing output files so that a failed run never leaves a partial one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import CartsError


def write_atomically(path: str | os.PathLike, text: str | bytes) -> Path:
    """Write ``text`` (or bytes) through a temporary file in the same directory, then rename
    it over ``path``; the file gets the mode a plain ``open`` would give it. Returns the
    path."""
    target = Path(path)
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

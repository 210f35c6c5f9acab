"""The ARTS configuration file (``arts.cfg``, or the file env ``artsConfig`` names), checked
before anything is compiled.

The passes read ``threads`` and ``nodeCount`` from it at compile time and the runtime reads
it again when the program starts; a value the runtime would refuse is reported here, located
at the file's line, rather than after a whole compilation or from inside the program.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import CartsError
from .files import read_source

MAX_THREADS = 4096
MAX_NODES = 256
"""The runtime's limits (``runtime/src/config.c``)."""

MAX_NODE_TIMEOUT_S = 3600
"""``nodeTimeout``: seconds without an answer after which a node is declared lost (several
nodes; read by the driver, not the runtime)."""

_COUNTS = {"threads": MAX_THREADS, "nodeCount": MAX_NODES, "nodeTimeout": MAX_NODE_TIMEOUT_S}


def config_path() -> Path | None:
    """The configuration a run reads: env ``artsConfig``, else ``./arts.cfg`` if there is
    one, else none."""
    named = os.environ.get("artsConfig")
    if named:
        return Path(named)
    default = Path("arts.cfg")
    return default if default.exists() else None


def read_config(path: Path | None = None) -> dict[str, tuple[str, str]]:
    """``{key: (value, "file:line")}`` of the ``[ARTS]`` section (keys before any section
    count), after checking every line; ``{}`` without a configuration."""
    path = config_path() if path is None else path
    if path is None:
        return {}
    name = str(path)
    if not path.exists():
        raise CartsError("the ARTS configuration named by artsConfig does not exist", name)
    values: dict[str, tuple[str, str]] = {}
    in_arts = True
    for number, raw in enumerate(read_source(path).split("\n"), start=1):
        line = raw.split("#", 1)[0].strip()
        where = f"{name}:{number}"
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            in_arts = line[1:-1].strip() == "ARTS"
            continue
        key, sep, value = line.partition("=")
        if not sep:
            raise CartsError(f"expected key=value, got '{line}'", where)
        key, value = key.strip(), value.strip()
        if in_arts:
            if key in _COUNTS:
                check_count(value, key, _COUNTS[key], where)
            values[key] = (value, where)
    return values


def check_count(text: str, what: str, limit: int, where: str | None = None) -> int:
    """``text`` as a count in ``1..limit``, else a located error naming ``what``."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= limit:
        raise CartsError(f"{what} must be an integer in 1..{limit}, got '{text}'", where)
    return value

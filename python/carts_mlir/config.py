"""The ARTS configuration file (``arts.cfg``, or the file env ``artsConfig`` names), checked
before anything is compiled, and the machine the compiler plans for, resolved once.

The drivers resolve ``threads``, ``nodeCount`` and ``nodeMinOps`` here (their flags, else the
environment variable of that name, else the file, else the default) and pass them to
arts-concurrency as pass options: the passes themselves read no file and no environment, so
a ``--pass-pipeline`` gives the same IR in any shell and directory. The runtime reads the file
again when the program starts; a value it would refuse is reported here, located at the
file's line, rather than after a whole compilation or from inside the program.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from . import env
from ._bounds import MAX_NODES, MAX_THREADS  # the runtime's (carts_config.h), written by CMake
from .errors import CartsError
from .files import read_source


MAX_NODE_TIMEOUT_S = 3600
"""``nodeTimeout``: seconds without an answer after which a node is declared lost (several
nodes; read by the driver, not the runtime)."""

MAX_NODE_MIN_OPS = 1 << 62
"""``nodeMinOps``: the operations a parallel task's loops must weigh to be spread over
several nodes (0: always spread; arts-concurrency's ``min-node-ops``, default 262144)."""

_COUNTS = {"threads": MAX_THREADS, "nodeCount": MAX_NODES, "nodeTimeout": MAX_NODE_TIMEOUT_S}


def config_path() -> Path | None:
    """The configuration a run reads: env ``artsConfig``, else ``./arts.cfg`` if there is
    one, else none."""
    named = env.get("artsConfig")
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
            elif key == "nodeMinOps":
                check_count(value, key, MAX_NODE_MIN_OPS, where, least=0)
            values[key] = (value, where)
    return values


def check_count(text: str, what: str, limit: int, where: str | None = None,
                least: int = 1) -> int:
    """``text`` as a count in ``least..limit``, else a located error naming ``what``."""
    try:
        value = int(text)
    except ValueError:
        value = least - 1
    if not least <= value <= limit:
        raise CartsError(f"{what} must be an integer in {least}..{limit}, got '{text}'", where)
    return value


def configured(key: str, limit: int, default: int | None,
               config: dict[str, tuple[str, str]] | None = None, least: int = 1) -> int | None:
    """A count key of the configuration: env ``key``, else the file's ``key`` (``config``
    when it was read already), else ``default``; checked against ``least..limit``."""
    value = env.get(key)
    if value:
        return check_count(value, f"environment variable {key}", limit, least=least)
    value, where = (read_config() if config is None else config).get(key, (None, None))
    return check_count(value, key, limit, where, least=least) if value else default


def configured_nodes(config: dict[str, tuple[str, str]] | None = None) -> int:
    """The node count a run gets without ``--nodes``: env ``nodeCount``, else arts.cfg's
    ``nodeCount`` (``config`` when it was read already), else 1."""
    return configured("nodeCount", MAX_NODES, 1, config)


@dataclass(frozen=True)
class Machine:
    """What arts-concurrency plans for: workers per node, node count, and the weight below
    which a parallel task stays on node 0 (None: the pass's default)."""

    threads: int
    nodes: int
    min_node_ops: int | None = None

    def concurrency_options(self) -> str:
        """arts-concurrency's options for this machine."""
        options = f"threads={self.threads} nodes={self.nodes}"
        if self.min_node_ops is not None:
            options += f" min-node-ops={self.min_node_ops}"
        return options


def resolve_machine(threads: int | None = None, nodes: int | None = None,
                    config: dict[str, tuple[str, str]] | None = None) -> Machine:
    """The machine of a compile: ``threads`` and ``nodes`` when given (the drivers' flags),
    else env ``threads``/``nodeCount``, else arts.cfg's, else the online cores and one node;
    ``nodeMinOps`` from the environment or arts.cfg."""
    config = read_config() if config is None else config
    if threads is None:
        threads = configured("threads", MAX_THREADS, min(os.cpu_count() or 1, MAX_THREADS),
                             config)
    if nodes is None:
        nodes = configured_nodes(config)
    return Machine(threads, nodes,
                   configured("nodeMinOps", MAX_NODE_MIN_OPS, None, config, least=0))

"""Every environment variable carts-mlir reads, in one place."""

from __future__ import annotations

import os

VARIABLES: dict[str, str] = {
    "CARTS_PLUGIN": "path of libCartsPlugin.so to load instead of the installed one",
    "CARTS_RUNTIME": "path of libcartsrt.so (the native ARTS runtime) to load instead of the installed one",
    "CARTS_DEBUG_ONLY": "default for --debug-only (comma-separated channels)",
    "artsConfig": "the ARTS configuration file to read instead of ./arts.cfg (compiler, driver "
                  "and runtime)",
    "threads": "workers per node, over arts.cfg's threads (1..4096; default: the online cores)",
    "nodeCount": "nodes of a run without --nodes, over arts.cfg's nodeCount (1..256, default 1)",
    "nodeTimeout": "seconds a node may leave the driver's ping unanswered before the run ends "
                   "without it (1..3600, default 10; also arts.cfg's nodeTimeout)",
    "nodeMinOps": "with several nodes, the operations a parallel task's loops must weigh to be "
                  "spread over the nodes (the concurrency pass's min-node-ops; default 262144, "
                  "0: spread every one)",
}


def get(name: str, default: str | None = None) -> str | None:
    """Read one of the documented variables (an undocumented name is a programming error)."""
    if name not in VARIABLES:
        raise KeyError(f"undocumented environment variable {name}")
    return os.environ.get(name, default)


def help_epilog() -> str:
    """The variables as a `--help` section."""
    import textwrap

    lines = ["environment (threads, nodeCount, nodeTimeout and nodeMinOps are arts.cfg keys too;",
             "docs/runtime.md lists the runtime's other keys):"]
    for name, what in VARIABLES.items():
        lines += textwrap.wrap(what, 78, initial_indent=f"  {name:<17} ",
                               subsequent_indent=" " * 20)
    return "\n".join(lines)


"""Running the recursive parts (the C front end's walk of clang's tree, MLIR's parser) on a
stack deep enough for deeply nested programs.

Both recurse once per level of nesting: a few hundred nested ``if`` blocks exceed Python's
default recursion limit, and MLIR nested tens of thousands deep overflows the 8 MiB main
stack, which kills the process. :func:`call` runs a function in a thread with a large stack
(only what is touched is ever committed) and a recursion limit to match, and turns what is
still too deep into a located error instead of a crash.
"""

from __future__ import annotations

import re
import sys
import threading
from typing import Callable, TypeVar

from .errors import CartsError

T = TypeVar("T")

STACK_BYTES = 512 << 20
RECURSION_LIMIT = 60_000
MAX_MLIR_NESTING = 20_000
"""Region and dictionary braces deeper than this are refused before MLIR's parser sees them
(it recurses on the C++ stack, where running out is a crash, not an error)."""

_lock = threading.Lock()
_THREAD = "carts-deep-stack"


def _too_deep(what: str, location: str | None) -> CartsError:
    return CartsError(f"{what} is nested too deeply (more than this compiler's recursion "
                      "allows)", location)


def call(fn: Callable[[], T], *, what: str, location: str | None = None) -> T:
    """``fn()`` on a deep stack; its result, or its exception re-raised here. A
    ``RecursionError`` becomes a :class:`CartsError` saying ``what`` is nested too deeply."""
    if threading.current_thread().name == _THREAD:  # already on a deep stack
        try:
            return fn()
        except RecursionError:
            raise _too_deep(what, location) from None
    outcome: dict[str, object] = {}

    def body() -> None:
        try:
            outcome["value"] = fn()
        except RecursionError:
            outcome["error"] = _too_deep(what, location)
        except BaseException as err:  # noqa: BLE001 - handed to the caller's thread
            outcome["error"] = err

    with _lock:  # the stack size and the recursion limit are process-wide settings
        previous_stack = threading.stack_size(STACK_BYTES)
        previous_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(previous_limit, RECURSION_LIMIT))
        try:
            worker = threading.Thread(target=body, name=_THREAD, daemon=True)
            worker.start()
        finally:
            threading.stack_size(previous_stack)
        try:
            worker.join()
        finally:
            sys.setrecursionlimit(previous_limit)
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["value"]  # type: ignore[return-value]


_BRACE_OR_SKIPPED = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|[{}]')


def check_mlir_nesting(text: str, source_name: str) -> None:
    """A located error at the first brace deeper than :data:`MAX_MLIR_NESTING` (braces in
    string literals and comments do not count)."""
    depth = 0
    for m in _BRACE_OR_SKIPPED.finditer(text):
        token = m.group()
        if token == "{":
            depth += 1
            if depth > MAX_MLIR_NESTING:
                line = text.count("\n", 0, m.start()) + 1
                column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
                raise CartsError(f"nesting deeper than {MAX_MLIR_NESTING} levels",
                                 f"{source_name}:{line}:{column}")
        elif token == "}":
            depth -= 1

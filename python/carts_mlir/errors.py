"""User-facing errors: reported as ``file:line:col: error: message``, never as a traceback."""

from __future__ import annotations

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


def guarded(command: Callable[[], int]) -> int:
    """Run a command-line entry point: a :class:`CartsError` becomes its message and exit 1."""
    try:
        return command()
    except CartsError as err:
        print(err.render(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130

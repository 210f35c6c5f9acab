"""User-facing errors: reported as ``file:line:col: error: message``, never as a traceback."""

from __future__ import annotations


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

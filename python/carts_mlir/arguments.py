"""The one way every ``carts`` command reads its command line: :mod:`argparse`, with usage
errors turned into one-line :class:`CartsError`s (``carts execute: unknown argument '-x'
(see 'carts execute --help')``) instead of argparse's usage dump and exit code 2."""

from __future__ import annotations

import argparse
import re
from typing import Callable

from .errors import CartsError


class ArgumentParser(argparse.ArgumentParser):
    """argparse whose usage errors are one-line :class:`CartsError`s."""

    def error(self, message: str):  # type: ignore[override]
        unknown = re.match(r"unrecognized arguments: (\S+)", message)
        if unknown:
            message = f"unknown argument '{unknown.group(1)}'"
        missing = re.match(r"argument (\S+?)(?:/\S+)?: expected one argument", message)
        if missing:
            message = f"missing value after '{missing.group(1)}'"
        raise CartsError(f"{self.prog}: {message} (see '{self.prog} --help')")


def positive_number(kind: type) -> Callable[[str], int | float]:
    """An argparse ``type`` accepting numbers of ``kind`` greater than zero."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not value > 0:
            raise argparse.ArgumentTypeError(f"expected a positive number, got '{text}'")
        return value

    return parse

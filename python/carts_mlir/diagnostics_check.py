"""``--verify-diagnostics``: the ``expected-error {{...}}`` convention of mlir-opt.

A comment ``// expected-error {{text}}`` expects an error whose message contains ``text`` on
its own line; ``@+N``/``@-N`` shift the line, ``@above``/``@below`` mean the line before or
after. Severities: error, warning, note, remark. Every expectation must be met and every
diagnostic must be expected.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Callable

from . import ir
from .ir import IMPLICIT_NOTE

EXPECTED = re.compile(
    r"expected-(error|warning|note|remark)(?:\s*@(above|below|[+-]\d+))?\s*\{\{(.*?)\}\}")


@dataclass
class Expectation:
    severity: str
    line: int
    text: str
    written_at: int
    column: int = 1
    """Column of the ``expected-...`` text on the line it is written on."""
    met: bool = False


def expectations(chunk: str) -> list[Expectation]:
    found = []
    for number, line in enumerate(chunk.splitlines(), 1):
        for m in EXPECTED.finditer(line):
            severity, where, text = m.groups()
            target = number
            if where == "above":
                target -= 1
            elif where == "below":
                target += 1
            elif where:
                target += int(where)
            found.append(Expectation(severity, target, text, number, m.start() + 1))
    return found


def check(chunk: str, name: str, seen: list[ir.Diagnostic]) -> list[str]:
    """Messages for every unmet expectation and every unexpected diagnostic."""
    wanted = expectations(chunk)
    problems = []
    for diag in seen:
        if diag.severity == "note" and diag.message.startswith(IMPLICIT_NOTE):
            continue
        match = next((e for e in wanted if not e.met and e.severity == diag.severity
                      and e.line == diag.line and e.text in diag.message), None)
        if match:
            match.met = True
        else:
            problems.append(f"{diag.location}: error: unexpected {diag.severity}: {diag.message}")
    for e in wanted:
        if not e.met:
            problems.append(f"{name}:{e.written_at}:{e.column}: error: expected {e.severity} "
                            f"\"{e.text}\" was not produced (on line {e.line})")
    return problems


def verify_chunks(chunks: list[str], name: str, process: Callable[[str], object]) -> int:
    """Run ``process`` on every chunk in its own context and check its diagnostics."""
    problems: list[str] = []
    for chunk in chunks:
        with ir.context() as ctx, ir.collect_diagnostics(ctx) as seen:
            try:
                process(chunk)
            except ir.DiagnosedError as err:
                for diag in err.diagnostics:
                    if diag not in seen:
                        seen.append(diag)
            problems += check(chunk, name, seen)
    for line in problems:
        print(line, file=sys.stderr)
    return 1 if problems else 0

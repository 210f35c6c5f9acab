"""Contexts with the ARTS dialect, parsing, pass pipelines and printing.

    >>> from carts_mlir import ir
    >>> with ir.context():
    ...     module = ir.parse_file("examples/mlir/edt.mlir")
    ...     ir.run_pipeline(module, "builtin.module(canonicalize)")
    ...     print(ir.to_text(module))
"""

from __future__ import annotations

import re

from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import mlir.ir as mir
from mlir.ir import register_attribute_builder  # noqa: F401  (the generated enum bindings import it from `..ir`)
from mlir.passmanager import PassManager

from . import _plugin
from .errors import CartsError

#: The note the verifier adds under an error, printing the op in generic form: debugging
#: help, not a diagnostic a test expects or a C programmer reads.
IMPLICIT_NOTE = "see current operation"


def new_context() -> mir.Context:
    """A fresh context with every upstream dialect and the ARTS dialect registered."""
    lib = _plugin.load()
    ctx = mir.Context()
    registry = mir.DialectRegistry()
    lib.cartsRegisterDialects(_plugin.capsule_pointer(registry._CAPIPtr))
    ctx.append_dialect_registry(registry)
    ctx.load_all_available_dialects()
    return ctx


@contextmanager
def context() -> Iterator[mir.Context]:
    """``with context():`` makes a new ARTS-enabled context the current one."""
    ctx = new_context()
    with ctx, mir.Location.unknown(ctx):
        yield ctx


@dataclass
class Diagnostic:
    """One diagnostic, with its location rendered as ``file:line:col``."""

    severity: str
    location: str
    line: int | None
    message: str

    def render(self) -> str:
        return f"{self.location}: {self.severity}: {self.message}"


def location_string(loc: mir.Location) -> tuple[str, int | None]:
    """``(file:line:col, line)`` of the first file location inside ``loc``."""
    if loc.is_a_file():
        return f"{loc.filename}:{loc.start_line}:{loc.start_col}", loc.start_line
    if loc.is_a_name():
        return location_string(loc.child_loc)
    if loc.is_a_callsite():
        return location_string(loc.callee)
    if loc.is_a_fused():
        for inner in loc.locations:
            text, line = location_string(inner)
            if line is not None:
                return text, line
    return str(loc).removeprefix("loc(").removesuffix(")"), None


_SEVERITY = {
    mir.DiagnosticSeverity.ERROR: "error",
    mir.DiagnosticSeverity.WARNING: "warning",
    mir.DiagnosticSeverity.NOTE: "note",
    mir.DiagnosticSeverity.REMARK: "remark",
}


def _convert(diag) -> list[Diagnostic]:
    where, line = location_string(diag.location)
    out = [Diagnostic(_SEVERITY[diag.severity], where, line, diag.message)]
    for note in diag.notes:
        out += _convert(note)
    return out


@contextmanager
def collect_diagnostics(ctx: mir.Context | None = None) -> Iterator[list[Diagnostic]]:
    """Capture every diagnostic emitted in ``ctx`` (instead of the default stderr print)."""
    ctx = ctx or mir.Context.current
    seen: list[Diagnostic] = []

    def handler(diag) -> bool:
        seen.extend(_convert(diag))
        return True

    handle = ctx.attach_diagnostic_handler(handler)
    try:
        yield seen
    finally:
        handle.detach()


class DiagnosedError(CartsError):
    """Parsing, verification or a pass failed; ``diagnostics`` says where and why."""

    def __init__(self, what: str, diagnostics: list[Diagnostic], reproduce: str | None = None):
        self.diagnostics = diagnostics
        super().__init__(what, reproduce=reproduce)

    def render(self) -> str:
        # MLIR's "see current operation" note prints the op in generic form: help for a
        # pass author on an .mlir file, noise under an error located in a C program.
        shown = [d for d in self.diagnostics
                 if not (d.severity == "note" and d.message.startswith(IMPLICIT_NOTE)
                         and _in_c_source(d.location))]
        lines = [d.render() for d in shown] or [f"error: {self.message}"]
        if self.reproduce:
            lines.append(f"reproduce with: {self.reproduce}")
        return "\n".join(lines)


def _in_c_source(location: str) -> bool:
    return re.search(r"\.[ch]:\d+:\d+$", location) is not None


def _diagnostics_of(err: mir.MLIRError) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for info in err.error_diagnostics:
        out += _convert(info)
    return out


def parse(text: str, source_name: str = "<stdin>") -> mir.Operation:
    """Parse and verify MLIR text in the current context; return the top-level module op.

    Like mlir-opt, top-level ops that are not one ``builtin.module`` are wrapped in one. The
    wrapper opens on the first line, so every location keeps its line number.
    """
    from . import deepstack

    deepstack.check_mlir_nesting(text, source_name)
    context = mir.Context.current

    def parse_op(body: str) -> mir.Operation:
        return deepstack.call(
            lambda: mir.Operation.parse(body, source_name=source_name,
                                        context=context).operation,
            what="the MLIR input", location=source_name)

    try:
        op = parse_op(text)
        if op.name == "builtin.module":
            return op
    except mir.MLIRError as err:
        if not any("single top-level operation" in d.message for d in err.error_diagnostics):
            raise DiagnosedError(f"cannot parse {source_name}", _diagnostics_of(err)) from None
    try:
        return parse_op("module {" + text + "\n}")
    except mir.MLIRError as err:
        raise DiagnosedError(f"cannot parse {source_name}", _diagnostics_of(err)) from None


def parse_file(path: str | Path) -> mir.Operation:
    """Parse an ``.mlir`` file; a missing file is a one-line error."""
    from .files import read_source

    return parse(read_source(path), source_name=str(path))


def run_pipeline(module: mir.Operation, pipeline: str, *, print_ir_after_all: bool = False,
                 reproduce: str | None = None) -> None:
    """Run a textual pass pipeline (``builtin.module(...)``) on ``module`` in place."""
    try:
        pm = PassManager.parse(pipeline)
    except ValueError as err:
        raise CartsError(f"invalid pass pipeline '{pipeline}': {err}") from None
    if print_ir_after_all:
        pm.enable_ir_printing(print_after_all=True, print_module_scope=True)
    try:
        pm.run(module)
    except mir.MLIRError as err:
        raise DiagnosedError(f"pipeline '{pipeline}' failed", _diagnostics_of(err), reproduce) from None


def verify(module: mir.Operation) -> None:
    """Run the verifier; raise a :class:`DiagnosedError` with located messages on failure."""
    try:
        module.verify()
    except mir.MLIRError as err:
        raise DiagnosedError("verification failed", _diagnostics_of(err)) from None


def to_text(module: mir.Operation, *, debug_info: bool = False, generic: bool = False) -> str:
    """The module as MLIR text (with ``loc(...)`` when ``debug_info``)."""
    return module.get_asm(enable_debug_info=debug_info, print_generic_op_form=generic)

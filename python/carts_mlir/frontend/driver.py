"""``compile_c`` and the ``carts cgeist`` command line."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

from ..files import check_destination, write_atomically
from ..arguments import ArgumentParser
from ..errors import CartsError
from . import clang_support as cs

@dataclass
class FrontendOptions:
    """What ``carts cgeist`` was asked to do."""

    source: str | None = None
    defines: list[str] = field(default_factory=list)
    includes: list[str] = field(default_factory=list)
    openmp: bool = False
    debug_info: bool = False
    output: str | None = None
    extra_clang_args: list[str] = field(default_factory=list)
    fp_contract: str = "off"


#: ``-ffp-contract=`` as gcc spells it: ``off`` (the default here) keeps every floating-point
#: multiply and add apart, so results match ``gcc -O2`` for the x86-64 baseline (no FMA);
#: ``fast`` lets LLVM fuse a multiply into the add that uses it, as gcc does by default where
#: the target has FMA (``-march=x86-64-v3``, ``-march=native``).
FP_CONTRACT = ("off", "fast")
_CONTRACTED = ("arith.mulf", "arith.addf", "arith.subf", "arith.negf")


def contract(module) -> None:
    """Mark every floating-point multiply, add, subtract and negation of ``module`` with
    ``fastmath<contract>`` (in its context): the lowering keeps the flag on LLVM's
    ``fmul``/``fadd``, which then may become fused multiply-adds."""
    from mlir import ir

    flag = ir.Attribute.parse("#arith.fastmath<contract>")

    def mark(op):
        if op.name in _CONTRACTED:
            op.attributes["fastmath"] = flag
        return ir.WalkResult.ADVANCE

    module.operation.walk(mark, ir.WalkOrder.PRE_ORDER)


def compile_to_module(path: str, *, defines=(), includes=(), openmp: bool = False,
                      extra_args=(), fp_contract: str = "off"):
    """Parse and emit; returns (module, context).  The module is verified."""
    from .. import deepstack

    return deepstack.call(lambda: _compile_to_module(path, defines, includes, openmp,
                                                     extra_args, fp_contract),
                          what="the C program", location=path)


def _compile_to_module(path: str, defines, includes, openmp: bool, extra_args,
                       fp_contract: str = "off"):
    from mlir import ir

    from .module import ModuleEmitter

    options = cs.ParseOptions(tuple(defines), tuple(includes), openmp, tuple(extra_args))
    tu = cs.parse(path, options)
    emitter = ModuleEmitter(tu, path, openmp)
    module = emitter.emit()
    with emitter.ctx:
        try:
            verified = module.operation.verify()
        except ir.MLIRError as err:  # the first complaint, at the C line it came from
            raise _located_internal_error(err, path) from None
        if not verified:
            raise CartsError("internal error: the generated IR does not verify", path)
        if fp_contract == "fast":
            contract(module)
    return module, emitter.ctx


def _located_internal_error(err, path: str) -> CartsError:
    """An MLIR verifier error as an internal error at the C location of the op it names
    (the file itself when it names none)."""
    import re

    diagnostics = getattr(err, "error_diagnostics", None) or []
    if diagnostics:
        first = diagnostics[0]
        m = re.search(r'loc\("([^"]+)":(\d+):(\d+)\)', str(first.location))
        where = f"{m.group(1)}:{m.group(2)}:{m.group(3)}" if m else path
        return CartsError(f"internal error: {first.message}", where)
    return CartsError(f"internal error: {_first_line(str(err))}", path)


def compile_c(path: str, *, defines=(), includes=(), openmp: bool = False,
              debug_info: bool = False, extra_args=(), fp_contract: str = "off") -> str:
    """C file -> MLIR text.  ``defines`` are ``NAME`` or ``NAME=VALUE`` strings."""
    from mlir import ir

    try:
        module, ctx = compile_to_module(path, defines=defines, includes=includes, openmp=openmp,
                                        extra_args=extra_args, fp_contract=fp_contract)
    except ir.MLIRError as err:
        raise CartsError(f"internal error: {_first_line(str(err))}", path) from None
    with ctx:
        return module.operation.get_asm(enable_debug_info=debug_info, assume_verified=True)


def build_parser() -> ArgumentParser:
    p = ArgumentParser(prog="carts cgeist", usage="carts cgeist FILE.c [options] -S [-o OUT.mlir]",
                       description="Translate a C file (with OpenMP pragmas) to MLIR.",
                       allow_abbrev=False)
    p.add_argument("sources", nargs="*", metavar="FILE.c", help="the C file ('-' for stdin)")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                   help="define a macro")
    p.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR",
                   help="add an include directory")
    p.add_argument("-fopenmp", dest="openmp", action="store_true",
                   help="turn '#pragma omp' directives into the omp dialect (without it the "
                        "pragmas are ignored: the sequential program)")
    p.add_argument("-fno-openmp", dest="openmp", action="store_false", help="the default")
    p.add_argument("-std", metavar="STD", help="C standard passed to clang (default: clang's)")
    p.add_argument("-ffp-contract", dest="fp_contract", choices=FP_CONTRACT, default="off",
                   help="fast: mark floating-point multiplies and adds so LLVM may fuse them "
                        "(as gcc does where the target has FMA); default off")
    p.add_argument("--print-debug-info", dest="debug_info", action="store_true",
                   help="print every operation's location (file:line:col)")
    p.add_argument("-o", dest="output", metavar="FILE",
                   help="write to FILE (only when compilation succeeds); default stdout")
    p.add_argument("-S", action="store_true", help="emit MLIR text (the only output form)")
    same = p.add_argument_group("accepted for compatibility with Polygeist's cgeist; the output "
                                "is the same")
    for level in ("-O", "-O0", "-O1", "-O2", "-O3", "-Os"):
        same.add_argument(level, action="store_true", dest="optimize",
                          help="-O -O0 -O1 -O2 -O3 -Os" if level == "-O" else argparse.SUPPRESS)
    same.add_argument("--raise-scf-to-affine", action="store_true",
                      help="ignored: loops stay in scf (the pipeline raises what it needs)")
    same.add_argument("-g", action="store_true")
    same.add_argument("-w", action="store_true")
    same.add_argument("-c", action="store_true")
    same.add_argument("-W", choices=["all", "extra"], action="append", metavar="all|extra")
    same.add_argument("--function", choices=["*"])
    return p


def parse_arguments(argv: list[str]) -> FrontendOptions:
    """The cgeist command line (argparse's SystemExit for --help)."""
    a = build_parser().parse_intermixed_args(argv)
    if not a.sources:
        raise CartsError("no input file (usage: carts cgeist FILE.c -S [-o OUT.mlir])")
    if len(a.sources) > 1:
        raise CartsError(f"more than one input file ('{a.sources[0]}', '{a.sources[1]}')")
    return FrontendOptions(source=a.sources[0], defines=a.defines, includes=a.includes,
                           openmp=a.openmp, debug_info=a.debug_info, output=a.output,
                           fp_contract=a.fp_contract,
                           extra_clang_args=[f"-std={a.std}"] if a.std is not None else [])


def cgeist_main(argv: list[str]) -> int:
    """``carts cgeist``: prints the MLIR (or writes ``-o``); errors raise CartsError."""
    try:
        opts = parse_arguments(argv)
    except SystemExit as done:  # --help
        return int(done.code or 0)
    if opts.output not in (None, "-"):
        check_destination(opts.output, inputs=[opts.source])  # never over the C source
    text = compile_c(opts.source, defines=opts.defines, includes=opts.includes,
                     openmp=opts.openmp, debug_info=opts.debug_info,
                     extra_args=opts.extra_clang_args, fp_contract=opts.fp_contract)
    if opts.output is None or opts.output == "-":
        sys.stdout.write(text)
        if not text.endswith("\n"):
            sys.stdout.write("\n")
        sys.stdout.flush()
        return 0
    write_atomically(opts.output, text if text.endswith("\n") else text + "\n")
    return 0


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else text

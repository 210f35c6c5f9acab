"""``compile_c`` and the ``carts cgeist`` command line."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from ..files import check_destination, write_atomically
from ..errors import CartsError
from . import clang_support as cs

USAGE = """\
usage: carts cgeist FILE.c [options] -S [-o OUT.mlir]

Translate a C file (with OpenMP pragmas) to MLIR.

options:
  -DNAME[=VALUE]          define a macro (also '-D NAME')
  -IDIR                   add an include directory (also '-I DIR')
  -fopenmp                turn '#pragma omp' directives into the omp dialect
                          (without it the pragmas are ignored: the sequential program)
  -O0 -O1 -O2 -O3         accepted for compatibility; the front end output is the same
  -std=STD                C standard passed to clang (default: clang's)
  --print-debug-info      print every operation's location (file:line:col)
  --raise-scf-to-affine   accepted for compatibility with Polygeist's cgeist and ignored:
                          loops stay in scf (the pipeline raises what it needs)
  -S                      emit MLIR text (the only output form)
  -o FILE                 write to FILE (only when compilation succeeds); default stdout
  -h, --help              show this help
"""


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


def compile_to_module(path: str, *, defines=(), includes=(), openmp: bool = False,
                      extra_args=()):
    """Parse and emit; returns (module, context).  The module is verified."""
    from .. import deepstack

    return deepstack.call(lambda: _compile_to_module(path, defines, includes, openmp,
                                                     extra_args),
                          what="the C program", location=path)


def _compile_to_module(path: str, defines, includes, openmp: bool, extra_args):
    from .module import ModuleEmitter

    options = cs.ParseOptions(tuple(defines), tuple(includes), openmp, tuple(extra_args))
    tu = cs.parse(path, options)
    emitter = ModuleEmitter(tu, path, openmp)
    module = emitter.emit()
    with emitter.ctx:
        if not module.operation.verify():
            raise CartsError("internal error: the generated IR does not verify", path)
    return module, emitter.ctx


def compile_c(path: str, *, defines=(), includes=(), openmp: bool = False,
              debug_info: bool = False, extra_args=()) -> str:
    """C file -> MLIR text.  ``defines`` are ``NAME`` or ``NAME=VALUE`` strings."""
    from mlir import ir

    try:
        module, ctx = compile_to_module(path, defines=defines, includes=includes, openmp=openmp,
                                        extra_args=extra_args)
    except ir.MLIRError as err:
        raise CartsError(f"internal error: {_first_line(str(err))}", path) from None
    with ctx:
        return module.operation.get_asm(enable_debug_info=debug_info, assume_verified=True)


def parse_arguments(argv: list[str]) -> FrontendOptions | None:
    """The cgeist command line; None for --help."""
    opts = FrontendOptions()
    args = list(argv)
    k = 0

    def value(flag: str) -> str:
        nonlocal k
        if k + 1 >= len(args):
            raise CartsError(f"missing value after '{flag}'")
        k += 1
        return args[k]

    while k < len(args):
        a = args[k]
        if a in ("-h", "--help"):
            return None
        if a == "-D":
            opts.defines.append(value(a))
        elif a.startswith("-D"):
            opts.defines.append(a[2:])
        elif a == "-I":
            opts.includes.append(value(a))
        elif a.startswith("-I"):
            opts.includes.append(a[2:])
        elif a == "-fopenmp":
            opts.openmp = True
        elif a in ("-O", "-O0", "-O1", "-O2", "-O3", "-Os", "-S", "--raise-scf-to-affine", "-g",
                   "-w", "-Wall", "-Wextra", "-c", "--function=*", "-fno-openmp"):
            if a == "-fno-openmp":
                opts.openmp = False
        elif a == "--print-debug-info":
            opts.debug_info = True
        elif a.startswith("-std="):
            opts.extra_clang_args.append(a)
        elif a == "-o":
            opts.output = value(a)
        elif a.startswith("-o") and len(a) > 2:
            opts.output = a[2:]
        elif a.startswith("-") and a != "-":
            raise CartsError(f"unknown argument '{a}' (see 'carts cgeist --help')")
        else:
            if opts.source is not None:
                raise CartsError(f"more than one input file ('{opts.source}', '{a}')")
            opts.source = a
        k += 1
    if opts.source is None:
        raise CartsError("no input file (usage: carts cgeist FILE.c -S [-o OUT.mlir])")
    return opts


def cgeist_main(argv: list[str]) -> int:
    """``carts cgeist``: prints the MLIR (or writes ``-o``); errors raise CartsError."""
    opts = parse_arguments(argv)
    if opts is None:
        print(USAGE, end="")
        return 0
    if opts.output not in (None, "-"):
        check_destination(opts.output, inputs=[opts.source])  # never over the C source
    text = compile_c(opts.source, defines=opts.defines, includes=opts.includes,
                     openmp=opts.openmp, debug_info=opts.debug_info,
                     extra_args=opts.extra_clang_args)
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

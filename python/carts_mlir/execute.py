"""``carts execute FILE.c [-O0..3] [-D..] [-I..] [--no-arts] [--emit-llvm] [--threads N] [-- ARGS]``:
compile a C program and run it; the program's exit code becomes ours.

Only the sequential path exists so far (front end -> upstream lowering -> llvmlite); without
``--no-arts`` a one-line notice on stderr says the ARTS path is not implemented yet and the
sequential path runs instead.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field

from .errors import CartsError

USAGE = """\
usage: carts execute FILE.c [options] [-- program arguments]

Compile a C program and run it.

options:
  -DNAME[=VALUE], -IDIR   as for the C compiler
  -O0 -O1 -O2 -O3         LLVM optimisation level of the JIT (default -O3)
  --no-arts               run the sequential program (OpenMP pragmas ignored)
  --emit-llvm             also write the LLVM IR to <name>-seq.ll (sequential path)
  --threads N             worker threads (ARTS path; ignored by the sequential path)
  -h, --help              show this help
"""


@dataclass
class ExecuteOptions:
    source: str | None = None
    defines: list[str] = field(default_factory=list)
    includes: list[str] = field(default_factory=list)
    opt_level: int = 3
    no_arts: bool = False
    emit_llvm: bool = False
    threads: int | None = None
    program_args: list[str] = field(default_factory=list)


def parse_arguments(argv: list[str]) -> ExecuteOptions | None:
    opts = ExecuteOptions()
    k = 0
    while k < len(argv):
        a = argv[k]
        if a in ("-h", "--help"):
            return None
        if a == "--":
            opts.program_args = argv[k + 1 :]
            break
        if a in ("-D", "-I", "--threads"):
            if k + 1 >= len(argv):
                raise CartsError(f"missing value after '{a}'")
            k += 1
            value = argv[k]
            if a == "-D":
                opts.defines.append(value)
            elif a == "-I":
                opts.includes.append(value)
            else:
                opts.threads = _positive(value)
        elif a.startswith("-D"):
            opts.defines.append(a[2:])
        elif a.startswith("-I"):
            opts.includes.append(a[2:])
        elif a.startswith("--threads="):
            opts.threads = _positive(a.split("=", 1)[1])
        elif a in ("-O0", "-O1", "-O2", "-O3"):
            opts.opt_level = int(a[2])
        elif a == "--no-arts":
            opts.no_arts = True
        elif a == "--emit-llvm":
            opts.emit_llvm = True
        elif a.startswith("-"):
            raise CartsError(f"unknown argument '{a}' (see 'carts execute --help')")
        elif opts.source is None:
            opts.source = a
        else:
            opts.program_args.append(a)
        k += 1
    if opts.source is None:
        raise CartsError("no input file (usage: carts execute FILE.c [options])")
    return opts


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise CartsError(f"--threads needs a positive integer, got '{text}'")
    return value


def execute_main(argv: list[str]) -> int:
    opts = parse_arguments(argv)
    if opts is None:
        print(USAGE, end="")
        return 0
    from .jit import compile_llvm_ir, sequential_llvm_ir

    if not opts.no_arts:
        print("carts execute: the ARTS path is not implemented yet; running the sequential "
              "program (as with --no-arts)", file=sys.stderr)
    llvm_ir = sequential_llvm_ir(opts.source, defines=opts.defines, includes=opts.includes)
    if opts.emit_llvm:
        stem = os.path.splitext(os.path.basename(opts.source))[0]
        with open(f"{stem}-seq.ll", "w") as f:
            f.write(llvm_ir)
    program = compile_llvm_ir(llvm_ir, opts.opt_level)
    return program.run_main([opts.source, *opts.program_args])

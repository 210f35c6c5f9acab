"""``carts execute FILE.c [-O0..3] [-D..] [-I..] [--threads N] [--no-arts] [--emit-llvm]
[--compile-only] [-- ARGS]``: compile a C program and run it; the program's exit code becomes
ours.

The ARTS path (the default):

1. the sequential compile of the file (front end without ``-fopenmp``) goes through
   canonicalize-memrefs and collect-metadata, which writes the loop and array facts to a
   JSON file in a temporary directory;
2. the OpenMP compile of the same file goes through every stage of :data:`pipeline.STAGES`,
   collect-metadata reading those facts back, concurrency planning for ``--threads`` workers
   (default: arts.cfg, env ``threads``, else every core), down to the LLVM dialect;
3. llvmlite JITs the LLVM IR with the native runtime's symbols resolved, and the generated
   ``main`` starts the runtime on that many workers (:mod:`carts_mlir.jit.launch`).

``--no-arts`` runs the sequential program instead (pragmas ignored). ``--emit-llvm`` also
writes the LLVM IR to ``<name>-arts.ll`` (``<name>-seq.ll`` with ``--no-arts``).
"""

from __future__ import annotations

import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .errors import CartsError
from .files import write_atomically

USAGE = """\
usage: carts execute FILE.c [options] [-- program arguments]

Compile a C program and run it.

options:
  -DNAME[=VALUE], -IDIR   as for the C compiler
  -O0 -O1 -O2 -O3         LLVM optimisation level of the JIT (default -O3)
  --threads N             worker threads (default: arts.cfg, env threads, else all cores)
  --nodes N               nodes (only 1 is supported so far)
  --no-arts               run the sequential program (OpenMP pragmas ignored)
  --emit-llvm             also write the LLVM IR to <name>-arts.ll (<name>-seq.ll with --no-arts)
  --compile-only          compile (through the JIT's code generation) but do not run
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
    nodes: int = 1
    compile_only: bool = False
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
        if a in ("-D", "-I", "--threads", "--nodes"):
            if k + 1 >= len(argv):
                raise CartsError(f"missing value after '{a}'")
            k += 1
            value = argv[k]
            if a == "-D":
                opts.defines.append(value)
            elif a == "-I":
                opts.includes.append(value)
            elif a == "--nodes":
                opts.nodes = _positive(value, a)
            else:
                opts.threads = _positive(value, a)
        elif a.startswith("-D"):
            opts.defines.append(a[2:])
        elif a.startswith("-I"):
            opts.includes.append(a[2:])
        elif a.startswith("--threads="):
            opts.threads = _positive(a.split("=", 1)[1], "--threads")
        elif a.startswith("--nodes="):
            opts.nodes = _positive(a.split("=", 1)[1], "--nodes")
        elif a in ("-O0", "-O1", "-O2", "-O3"):
            opts.opt_level = int(a[2])
        elif a == "--no-arts":
            opts.no_arts = True
        elif a == "--emit-llvm":
            opts.emit_llvm = True
        elif a == "--compile-only":
            opts.compile_only = True
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


def _positive(text: str, flag: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise CartsError(f"{flag} needs a positive integer, got '{text}'")
    return value


def arts_llvm_ir(opts: ExecuteOptions) -> str:
    """The LLVM IR of the ARTS program of ``opts.source`` (steps 1 and 2 of the module doc)."""
    from . import ir, pipeline
    from .frontend import compile_c
    from .jit.lowering import translate_to_llvm_ir

    def front_end(openmp: bool) -> str:
        return compile_c(opts.source, defines=opts.defines, includes=opts.includes,
                         openmp=openmp, debug_info=True)

    with tempfile.TemporaryDirectory(prefix="carts-execute-") as tmp:
        options = {"arts-collect-metadata": f"metadata-file={Path(tmp) / 'metadata.json'}"}
        if opts.threads is not None:
            options["arts-concurrency"] = f"threads={opts.threads}"
        with ir.context():
            sequential = ir.parse(front_end(openmp=False), source_name=opts.source)
            for st in pipeline.stages_between(None, "collect-metadata"):
                pipeline.run_stage(sequential, st, input_name=opts.source, options=options)
            module = ir.parse(front_end(openmp=True), source_name=opts.source)
            for st in pipeline.STAGES:
                pipeline.run_stage(module, st, input_name=opts.source, options=options)
            return translate_to_llvm_ir(module)


def execute_main(argv: list[str]) -> int:
    opts = parse_arguments(argv)
    if opts is None:
        print(USAGE, end="")
        return 0
    if opts.nodes > 1:
        raise CartsError(f"--nodes {opts.nodes}: only one node is supported so far")
    from .jit import compile_llvm_ir, sequential_llvm_ir
    from .jit.launch import arts_llvm_path, compile_arts_program, emit_llvm, thread_environment

    started = time.perf_counter()
    if opts.no_arts:
        llvm_ir = sequential_llvm_ir(opts.source, defines=opts.defines, includes=opts.includes)
        if opts.emit_llvm:
            write_atomically(f"{Path(opts.source).stem}-seq.ll", llvm_ir)
        program = compile_llvm_ir(llvm_ir, opts.opt_level)
    else:
        llvm_ir = arts_llvm_ir(opts)
        if opts.emit_llvm:
            emit_llvm(llvm_ir, arts_llvm_path(opts.source))
        program = compile_arts_program(llvm_ir, opts.opt_level)
    if opts.compile_only:
        print(f"carts execute: compiled in {time.perf_counter() - started:.2f}s", file=sys.stderr)
        return 0
    with thread_environment(None if opts.no_arts else opts.threads):
        return program.run_main([opts.source, *opts.program_args])

"""``carts execute FILE.c [-O0..3] [-D..] [-I..] [--threads N] [--nodes N] [--ray-address A]
[--stats] [--no-arts] [--emit-llvm] [--compile-only] [-- ARGS]``: compile a C program and run
it; the program's exit code becomes ours.

The ARTS path (the default):

1. the sequential compile of the file (front end without ``-fopenmp``) goes through
   canonicalize-memrefs and collect-metadata, which writes the loop and array facts to a
   JSON file in a temporary directory;
2. the OpenMP compile of the same file goes through every stage of :data:`pipeline.STAGES`,
   collect-metadata reading those facts back, concurrency planning for ``--threads`` workers
   (default: arts.cfg, env ``threads``, else every core), down to the LLVM dialect;
3. llvmlite JITs the LLVM IR with the native runtime's symbols resolved, and the generated
   ``main`` starts the runtime on that many workers (:mod:`carts_mlir.jit.launch`).

With several nodes (``--nodes N``, else env ``nodeCount``, else arts.cfg's ``nodeCount``) the
concurrency plan spans ``N x threads`` workers, and step 3 runs on N Ray node actors
(:mod:`carts_mlir.nodes`): a local Ray instance, or the cluster at ``--ray-address``.
Node 0's output is ours; other nodes' lines are prefixed ``[node k]``.

On one node the ARTS program is also written as a native executable, ``./<name>_arts``
(``-o PATH`` names it): the same optimised code as the JIT's, linked against the runtime with
an rpath (:mod:`carts_mlir.jit.native`), so it runs on its own with ``threads=N`` in its
environment (else arts.cfg, else every core).

``--no-arts`` runs the sequential program instead (pragmas ignored). ``--emit-llvm`` also
writes the LLVM IR to ``<name>-arts.ll`` (``<name>-seq.ll`` with ``--no-arts``).
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import env
from .arguments import ArgumentParser
from .config import MAX_NODES, MAX_THREADS, Machine, check_count, read_config, resolve_machine
from .errors import CartsError
from .files import write_atomically
from .frontend.driver import FP_CONTRACT

@dataclass
class ExecuteOptions:
    source: str | None = None
    defines: list[str] = field(default_factory=list)
    includes: list[str] = field(default_factory=list)
    opt_level: int = 3
    no_arts: bool = False
    emit_llvm: bool = False
    threads: int | None = None
    nodes: int | None = None
    ray_address: str | None = None
    stats: bool = False
    compile_only: bool = False
    output: str | None = None
    executable: bool = True
    program_args: list[str] = field(default_factory=list)
    fp_contract: str = "off"


def build_parser() -> ArgumentParser:
    p = ArgumentParser(prog="carts execute", usage="carts execute FILE.c [options] [-- program arguments]",
                       description="Compile a C program and run it.", epilog=env.help_epilog(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("source", nargs="?", metavar="FILE.c", help="the program")
    p.add_argument("program_args", nargs="*", metavar="ARG",
                   help="arguments of the program (after '--' when they start with '-')")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                   help="as for the C compiler")
    p.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR",
                   help="as for the C compiler")
    p.add_argument("-O", dest="opt_level", type=int, choices=range(4), default=3, metavar="N",
                   help="LLVM optimisation level -O0..-O3 (default -O3)")
    p.add_argument("--threads", metavar="N",
                   help="worker threads (default: arts.cfg, env threads, else all cores)")
    p.add_argument("--nodes", metavar="N",
                   help="nodes, one Ray actor each (default: env nodeCount, arts.cfg, else 1)")
    p.add_argument("--ray-address", metavar="ADDR",
                   help="run the node actors on this Ray cluster (or 'auto'), one per Ray node")
    p.add_argument("--stats", action="store_true",
                   help="print per-node counters (tasks, messages, bytes) on stderr")
    p.add_argument("-ffp-contract", dest="fp_contract", choices=FP_CONTRACT, default="off",
                   help="fast: floating-point multiplies and adds may fuse (as gcc does where "
                        "the target has FMA); default off: the results of gcc -O2 for x86-64")
    p.add_argument("--no-arts", action="store_true",
                   help="run the sequential program (OpenMP pragmas ignored)")
    p.add_argument("--emit-llvm", action="store_true",
                   help="also write the LLVM IR to <name>-arts.ll (<name>-seq.ll with --no-arts)")
    p.add_argument("-o", dest="output", metavar="PATH",
                   help="the native executable (default ./<name>_arts; one node only)")
    p.add_argument("--no-executable", dest="executable", action="store_false",
                   help="do not write the native executable")
    p.add_argument("--compile-only", action="store_true",
                   help="compile (and write the executable) but do not run")
    return p


def parse_arguments(argv: list[str]) -> ExecuteOptions:

    a = build_parser().parse_intermixed_args(argv)
    if a.source is None:
        raise CartsError("no input file (usage: carts execute FILE.c [options])")
    opts = ExecuteOptions(
        source=a.source, defines=a.defines, includes=a.includes, opt_level=a.opt_level,
        no_arts=a.no_arts, emit_llvm=a.emit_llvm, ray_address=a.ray_address, stats=a.stats,
        compile_only=a.compile_only, output=a.output, executable=a.executable,
        program_args=a.program_args, fp_contract=a.fp_contract,
        threads=None if a.threads is None else check_count(a.threads, "--threads", MAX_THREADS),
        nodes=None if a.nodes is None else check_count(a.nodes, "--nodes", MAX_NODES))
    if opts.output is not None and not opts.executable:
        raise CartsError("-o names the executable, which --no-executable turns off")
    return opts


def executable_path(opts: ExecuteOptions) -> Path:
    """Where the native executable goes: ``-o``, else ``./<stem>_arts``."""
    return Path(opts.output) if opts.output else Path(f"{Path(opts.source).stem}_arts")


def arts_llvm_ir(opts: ExecuteOptions, machine: Machine | None = None) -> str:
    """The LLVM IR of the ARTS program of ``opts.source`` (steps 1 and 2 of the module doc),
    planned for ``machine`` (default: resolved from ``opts`` and the configuration)."""
    from . import ir
    from .jit.lowering import translate_to_llvm_ir

    with ir.context():
        module = None
        for _stage, module, _seconds in arts_stages(opts.source, defines=opts.defines,
                                                    includes=opts.includes, threads=opts.threads,
                                                    nodes=opts.nodes, machine=machine,
                                                    fp_contract=opts.fp_contract):
            pass
        return translate_to_llvm_ir(module)


def arts_stages(source: str, *, defines=(), includes=(), threads: int | None = None,
                nodes: int | None = None, machine: Machine | None = None,
                fp_contract: str = "off"):
    """Every pipeline stage run on the OpenMP compile of ``source``, after the sequential
    compile went through collect-metadata (the facts the later stages read): yields
    ``(stage, module, seconds)`` after each stage, the module changed in place. Planned for
    ``machine``, else the one ``threads``, ``nodes`` and the configuration give. Needs a
    current ``ir.context()``."""
    import time

    from . import ir, pipeline
    from .frontend import compile_c

    def front_end(openmp: bool) -> str:
        return compile_c(source, defines=defines, includes=includes, openmp=openmp,
                         debug_info=True, fp_contract=fp_contract)

    machine = machine or resolve_machine(threads, nodes)
    with tempfile.TemporaryDirectory(prefix="carts-execute-") as tmp:
        options = {"arts-collect-metadata": f"metadata-file={Path(tmp) / 'metadata.json'}",
                   "arts-concurrency": machine.concurrency_options()}
        sequential = ir.parse(front_end(openmp=False), source_name=source)
        for st in pipeline.stages_between(None, "collect-metadata"):
            pipeline.run_stage(sequential, st, input_name=source, options=options)
        module = ir.parse(front_end(openmp=True), source_name=source)
        yield None, module, 0.0
        for st in pipeline.STAGES:
            start = time.perf_counter()
            pipeline.run_stage(module, st, input_name=source, options=options)
            yield st, module, time.perf_counter() - start


def execute_main(argv: list[str]) -> int:
    try:
        opts = parse_arguments(argv)
    except SystemExit as done:  # --help
        return int(done.code or 0)
    from .jit import compile_llvm_ir, sequential_llvm_ir
    from .jit.launch import arts_llvm_path, compile_arts_program, emit_llvm, runtime_threads

    config = read_config()  # a bad arts.cfg is reported at its line, before any compiling
    machine = None if opts.no_arts else resolve_machine(opts.threads, opts.nodes, config)
    if machine is not None:  # what the compile plans for is what the run gets
        opts.threads, opts.nodes = machine.threads, machine.nodes
    several = not opts.no_arts and (opts.nodes or 1) > 1
    if opts.ray_address and not several:
        raise CartsError("--ray-address needs --nodes N with N > 1")
    if opts.output is not None and (several or opts.no_arts):
        raise CartsError("-o: the native executable is the ARTS program on one node")
    if opts.executable and not several and not opts.no_arts:
        from .jit.native import check_output_path
        check_output_path(executable_path(opts))
    started = time.perf_counter()
    if opts.no_arts:
        llvm_ir = sequential_llvm_ir(opts.source, defines=opts.defines, includes=opts.includes,
                                     fp_contract=opts.fp_contract)
        program = compile_llvm_ir(llvm_ir, opts.opt_level)
        if opts.emit_llvm:  # written once everything it came from compiled
            write_atomically(f"{Path(opts.source).stem}-seq.ll", llvm_ir)
    else:
        llvm_ir = arts_llvm_ir(opts, machine)
        program = None if several else compile_arts_program(llvm_ir, opts.opt_level)
        if opts.executable and not several:
            from .jit.native import build_executable
            build_executable(llvm_ir, executable_path(opts), opt_level=opts.opt_level)
        if opts.emit_llvm:  # after the JIT and the native build, so a failure leaves none
            emit_llvm(llvm_ir, arts_llvm_path(opts.source))
    if opts.compile_only:
        print(f"carts execute: compiled in {time.perf_counter() - started:.2f}s", file=sys.stderr)
        return 0
    if several:
        return _run_on_nodes(opts, llvm_ir)
    from .jit.engine import run_in_child

    with runtime_threads(None if machine is None else machine.threads):
        code = run_in_child(program, [opts.source, *opts.program_args], opts.source)
    if opts.stats:
        print("carts execute: --stats: one node in process, nothing crosses nodes", file=sys.stderr)
    return code


def _run_on_nodes(opts: ExecuteOptions, llvm_ir: str) -> int:
    from .nodes import NodeCluster, NodeFailure, format_stats

    try:
        with NodeCluster(opts.nodes, opts.threads, address=opts.ray_address) as cluster:
            run = cluster.run(llvm_ir, [opts.source, *opts.program_args], opts.opt_level)
    except NodeFailure as failure:
        if failure.signal is None:
            raise
        # As on one node: what the program wrote before, then the signal that ended it
        prefix = "" if failure.node == 0 else f"[node {failure.node}] "
        for text, stream in ((failure.stdout, sys.stdout), (failure.stderr, sys.stderr)):
            _write_prefixed(text, prefix, stream)
        sys.stdout.flush()
        print(f"{opts.source}: error: the program was killed by "
              f"{signal.Signals(failure.signal).name} ({signal.strsignal(failure.signal)}) "
              f"on node {failure.node}", file=sys.stderr)
        return 128 + failure.signal
    for node in run.nodes:
        prefix = "" if node.node == 0 else f"[node {node.node}] "
        for text, stream in ((node.stdout, sys.stdout), (node.stderr, sys.stderr)):
            _write_prefixed(text, prefix, stream)
    sys.stdout.flush()
    if opts.stats:
        print(format_stats(run), file=sys.stderr)
    return run.code


def _write_prefixed(text: str, prefix: str, stream) -> None:
    """A node's output, each line led by ``prefix``, ending with a newline."""
    if text:
        stream.write("".join(prefix + line for line in text.splitlines(keepends=True)))
        if not text.endswith("\n"):
            stream.write("\n")

"""LLVM IR text -> machine code with llvmlite (MCJIT, host CPU, -O3) -> ``main(argc, argv)``.

Library symbols (libc, libm) resolve from the process.  The simplest OpenMP routines a
sequential program may call are defined in LLVM IR (``openmp_routines.py``) and linked here,
for one thread: ``omp_get_thread_num`` is 0, ``omp_get_num_threads``/``omp_get_max_threads``
are 1, ``omp_get_wtime`` reads ``CLOCK_MONOTONIC``; the others come from the native runtime,
loaded when the program calls one.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import functools
import gc
import os
import re
import select
import signal
import sys
from dataclasses import dataclass

import llvmlite.binding as llvm

from ..errors import CartsError, interrupted
from ..openmp_routines import RUNTIME_ROUTINES, SEQUENTIAL_RUNTIME_IR


#: LLVM options, set once per process. ``-force-ordered-reductions``: a loop accumulating a
#: float sum (a dot product) is vectorised with its additions kept in source order, the
#: products in vector registers and the sum a strict in-order reduction, as gcc -O3 does;
#: the result is bit for bit the scalar loop's. LLVM turns this on by itself only for AArch64.
LLVM_OPTIONS = ("-force-ordered-reductions",)


@functools.cache
def initialize() -> None:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    for option in LLVM_OPTIONS:
        llvm.set_option("carts", option)
    libm = ctypes.util.find_library("m")
    if libm:
        llvm.load_library_permanently(libm)


def host_target_machine(opt_level: int = 3) -> llvm.TargetMachine:
    initialize()
    target = llvm.Target.from_default_triple()
    return target.create_target_machine(
        cpu=llvm.get_host_cpu_name(),
        features=llvm.get_host_cpu_features().flatten(),
        opt=opt_level,
        reloc="default",
        codemodel="jitdefault",
    )


@dataclass
class CompiledProgram:
    """A JIT-compiled program; keep it alive while calling into it."""

    engine: llvm.ExecutionEngine
    modules: list
    main_arity: int

    def run_main(self, argv: list[str]) -> int:
        """Call ``main(argc, argv)``; the program's stdout is the process's stdout."""
        addr = self.engine.get_function_address("main")
        if not addr:
            raise CartsError("the program has no 'main' function")
        sys.stdout.flush()
        sys.stderr.flush()
        args = [a.encode() for a in argv]
        c_argv = (ctypes.c_char_p * (len(args) + 1))(*args, None)
        if self.main_arity >= 2:
            entry = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_void_p)(addr)
            code = entry(len(args), ctypes.cast(c_argv, ctypes.c_void_p))
        else:
            entry = ctypes.CFUNCTYPE(ctypes.c_int)(addr)
            code = entry()
        flush_c_stdio()
        return int(code)


def run_in_child(program, argv: list[str], source: str) -> int:
    """Run the compiled ``main`` in a forked child and return its exit status as a shell
    would: the program's own code, or 128 + N when signal N ended it (with one line saying
    which). A fault of the program (a null dereference, ``abort()``, a division by zero)
    then ends the program, not ``carts``, and Ctrl-C stops it: the child takes SIGINT's
    default action, which the runtime's waiting workers cannot hold up."""
    if interrupted():  # a Ctrl-C a finaliser swallowed: do not start the program
        raise KeyboardInterrupt
    sys.stdout.flush()
    sys.stderr.flush()
    # MLIR contexts own thread pools whose threads a forked child does not have: one
    # destroyed in the child waits for them forever. Garbage is collected here, where the
    # threads are, and the child collects none.
    gc.collect()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # the child: run main, never return into Python's caller
        gc.disable()
        _die_with(parent)
        code = 70
        try:
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            code = program.run_main(argv) & 0xFF
        except CartsError as err:
            print(err.render(), file=sys.stderr)
        except BaseException as err:  # noqa: BLE001 - the child reports it, then ends
            print(CartsError(f"{type(err).__name__}: {err}", source).render(),
                  file=sys.stderr)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    try:
        status = _wait_interruptibly(pid)
    except KeyboardInterrupt:
        _stop_child(pid)
        print(f"{source}: error: interrupted", file=sys.stderr)
        return 128 + signal.SIGINT
    except BaseException:
        _stop_child(pid)
        raise
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number == signal.SIGINT:
            print(f"{source}: error: interrupted", file=sys.stderr)
        else:
            name = signal.Signals(number).name
            print(f"{source}: error: the program was killed by {name} "
                  f"({signal.strsignal(number)})", file=sys.stderr)
        return 128 + number
    return os.WEXITSTATUS(status)


def _wait_interruptibly(pid: int) -> int:
    """``pid``'s wait status. A Ctrl-C sent to this process alone may be taken by another of
    its threads (MLIR's, the runtime's), which leaves a blocking ``waitpid`` in the main
    thread asleep, or swallowed by a finaliser: the wait wakes at least every 0.2 s to let
    Python raise KeyboardInterrupt and to ask :func:`interrupted`, and at once when the
    child ends (its pidfd becomes readable)."""
    try:
        handle = os.pidfd_open(pid)
    except (AttributeError, OSError):  # no pidfd: a plain wait
        return os.waitpid(pid, 0)[1]
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            if interrupted():
                raise KeyboardInterrupt
            select.select([handle], [], [], 0.2)
    finally:
        os.close(handle)


def _die_with(parent: int) -> None:
    """Have the kernel end this (forked) process when ``parent`` ends, however it ends: a
    killed ``carts`` must not leave its program running (Linux; elsewhere nothing)."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # it ended before the request was made
        os._exit(128 + signal.SIGKILL)


def _stop_child(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)


def flush_c_stdio() -> None:
    libc = ctypes.CDLL(None)
    libc.fflush.argtypes = [ctypes.c_void_p]
    libc.fflush(None)


def optimized_modules(text: str, tm: llvm.TargetMachine, opt_level: int = 3):
    """Parse and verify the program, run the new pass manager's ``-O<opt_level>`` on it for
    ``tm``, and parse the sequential runtime it still needs. Returns both modules."""
    try:
        module = llvm.parse_assembly(text)
        module.verify()
    except RuntimeError as err:
        raise CartsError(f"LLVM rejected the generated IR: {err}") from None
    module.triple = tm.triple
    module.data_layout = str(tm.target_data)
    if opt_level > 0:
        pto = llvm.create_pipeline_tuning_options(speed_level=opt_level)
        # clang's -O2/-O3 run the SLP vectoriser; llvmlite leaves it off
        pto.slp_vectorization = opt_level >= 2
        pb = llvm.create_pass_builder(tm, pto)
        pb.getModulePassManager().run(module, pb)
    runtime = llvm.parse_assembly(_runtime_needed(text))
    runtime.triple = tm.triple
    runtime.data_layout = str(tm.target_data)
    return module, runtime


def compile_llvm_ir(text: str, opt_level: int = 3) -> CompiledProgram:
    """Parse, optimise (new pass manager, ``-O<opt_level>``) and JIT the module."""
    tm = host_target_machine(opt_level)
    module, runtime = optimized_modules(text, tm, opt_level)
    if needs_native_runtime(text):
        from .. import runtime as native_runtime  # the OpenMP routines it defines
        native_runtime.load()
    _check_symbols(module, runtime)
    engine = llvm.create_mcjit_compiler(module, tm)
    engine.add_module(runtime)
    engine.finalize_object()
    engine.run_static_constructors()
    return CompiledProgram(engine, [module, runtime], _main_arity(text))


def _check_symbols(module: llvm.ModuleRef, runtime: llvm.ModuleRef) -> None:
    """Every external function must resolve in this process: MCJIT aborts the whole
    process on an unresolved symbol, so report it as an error first."""
    provided = {f.name for f in runtime.functions if not f.is_declaration}
    for f in module.functions:
        if f.is_declaration and not f.name.startswith("llvm.") and f.name not in provided \
                and not llvm.address_of_symbol(f.name):
            raise CartsError(f"undefined symbol '{f.name}' (not in the C library or libm)")


def needs_native_runtime(program: str) -> bool:
    """Whether the program calls OpenMP routines only the native runtime defines."""
    declared = set(re.findall(r"^declare [^@]*@(omp_\w+)\(", program, re.M))
    return bool(declared & RUNTIME_ROUTINES)


def _runtime_needed(program: str) -> str:
    """The sequential runtime minus what the program defines itself."""
    defined = set(re.findall(r"^define [^@]*@([\w.$]+)\(", program, re.M))
    keep = []
    for chunk in re.split(r"\n(?=define )", SEQUENTIAL_RUNTIME_IR):
        m = re.match(r"define [^@]*@([\w.$]+)\(", chunk)
        if m and m.group(1) in defined:
            continue
        keep.append(chunk)
    return "\n".join(keep)


def _main_arity(text: str) -> int:
    m = re.search(r"^define [^@]*@main\(([^)]*)\)", text, re.M)
    if not m:
        return 0
    params = m.group(1).strip()
    return 0 if not params else params.count(",") + 1

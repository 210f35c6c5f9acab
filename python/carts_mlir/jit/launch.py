"""JIT-compile a lowered ARTS program and run it on the native runtime.

The input is the output of the ``arts-to-llvm`` stage (an LLVM-dialect module), or the LLVM
IR text translated from it. Its ``main(argc, argv)`` is the one arts-to-llvm generates: it
hands ``artsMain`` to the runtime and calls ``artsRT``, which runs the program on the
runtime's worker threads and returns once the program has shut the runtime down.

    from carts_mlir.jit.launch import emit_llvm, run_arts_program
    emit_llvm(module, "batchnorm-arts.ll")
    code = run_arts_program(module, ["batchnorm.c"], threads=4)

The runtime library (``libcartsrt.so``, see :mod:`carts_mlir.runtime`) is loaded into the
process with its symbols global, so MCJIT resolves the ARTS API against it; libc and libm
resolve from the process as on the sequential path (:mod:`carts_mlir.jit.engine`).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Union

from mlir import ir as mir

from .. import runtime
from ..config import MAX_THREADS
from ..errors import CartsError
from ..files import write_atomically
from .engine import CompiledProgram, compile_llvm_ir
from .lowering import translate_to_llvm_ir

#: What the functions below accept: the LLVM-dialect module, or LLVM IR text.
Program = Union[mir.Module, str]

def llvm_ir_text(program: Program) -> str:
    """LLVM IR text of ``program`` (translated if it is an LLVM-dialect module)."""
    if isinstance(program, str):
        return program
    return translate_to_llvm_ir(program)


def arts_llvm_path(source: str | os.PathLike, directory: str | os.PathLike = ".") -> Path:
    """Where ``--emit-llvm`` writes the ARTS program of ``source``: ``<stem>-arts.ll``."""
    return Path(directory) / f"{Path(source).stem}-arts.ll"


def emit_llvm(program: Program, path: str | os.PathLike) -> Path:
    """Write the LLVM IR of ``program`` to ``path`` atomically (a reader never sees half a
    file, and a failed translation leaves no file behind). Returns the path."""
    return write_atomically(path, llvm_ir_text(program))


def compile_arts_program(program: Program, opt_level: int = 3) -> CompiledProgram:
    """JIT ``program`` at ``-O<opt_level>`` with the runtime's symbols resolvable, its
    functions named for the runtime's ``trace=FILE`` (JIT code has no symbols of its own)."""
    lib = runtime.load()
    compiled = compile_llvm_ir(llvm_ir_text(program), opt_level)
    for module in compiled.modules:
        for function in module.functions:
            if not function.is_declaration:
                address = compiled.engine.get_function_address(function.name)
                if address:
                    lib.cartsTraceName(address, function.name.encode())
    return compiled


@contextmanager
def runtime_threads(threads: int | None) -> Iterator[None]:
    """Hand the runtime the worker count the driver resolved (``cartsSetThreads``), for the
    runs started inside; ``None`` leaves it to arts.cfg, the environment or the core count,
    as a standalone executable does."""
    if threads is None:
        yield
        return
    lib = runtime.load()
    if lib.cartsSetThreads(threads) != 0:
        raise CartsError(f"the runtime refuses {threads} workers (at most {MAX_THREADS})")
    try:
        yield
    finally:
        lib.cartsSetThreads(0)


def run_arts_program(program: Program, argv: list[str], threads: int | None = None,
                     opt_level: int = 3) -> int:
    """JIT ``program`` and run its ``main`` with ``argv`` (``argv[0]`` is the program name)
    on ``threads`` workers; returns the program's exit code. The program's output goes to
    this process's stdout/stderr, in order with Python's (both sides are flushed)."""
    compiled = compile_arts_program(program, opt_level)
    with runtime_threads(threads):
        return compiled.run_main(list(argv))

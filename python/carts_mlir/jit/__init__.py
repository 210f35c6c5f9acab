"""The sequential JIT path: C -> front end (no ``-fopenmp``) -> upstream lowering ->
LLVM IR -> llvmlite -> ``main``.

It proves the front end right (its output must print what ``gcc -O2`` prints) and is
``carts execute --no-arts``.

    from carts_mlir.jit import run_c_sequential, sequential_llvm_ir
    code = run_c_sequential("test/c/loops.c", argv=("7",))
"""

from __future__ import annotations

from .engine import CompiledProgram, compile_llvm_ir, flush_c_stdio
from .lowering import LOWERING_PIPELINE, lower_to_llvm_dialect, translate_to_llvm_ir

__all__ = [
    "CompiledProgram", "LOWERING_PIPELINE", "compile_llvm_ir", "compile_sequential",
    "flush_c_stdio", "lower_to_llvm_dialect", "mlir_to_llvm_ir", "run_c_sequential",
    "sequential_llvm_ir", "translate_to_llvm_ir",
]


def mlir_to_llvm_ir(mlir_text: str) -> str:
    """Front-end MLIR text (sequential) -> LLVM IR text."""
    from mlir import ir

    ctx = ir.Context()
    with ctx:
        module = ir.Module.parse(mlir_text)
    lower_to_llvm_dialect(module)
    return translate_to_llvm_ir(module)


def sequential_llvm_ir(path: str, *, defines=(), includes=(), fp_contract: str = "off") -> str:
    """C file -> LLVM IR text of its sequential program (pragmas ignored)."""
    from ..frontend import compile_to_module

    module, _ctx = compile_to_module(path, defines=defines, includes=includes, openmp=False,
                                     fp_contract=fp_contract)
    lower_to_llvm_dialect(module)
    return translate_to_llvm_ir(module)


def compile_sequential(path: str, *, defines=(), includes=(), opt_level: int = 3) -> CompiledProgram:
    return compile_llvm_ir(sequential_llvm_ir(path, defines=defines, includes=includes), opt_level)


def run_c_sequential(path: str, *, defines=(), includes=(), argv=(), opt_level: int = 3) -> int:
    """Compile ``path`` sequentially, run ``main`` with ``argv`` and return its exit code.
    The program prints to this process's stdout (C stdio is flushed afterwards)."""
    program = compile_sequential(path, defines=defines, includes=includes, opt_level=opt_level)
    return program.run_main([path, *argv])

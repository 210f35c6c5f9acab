"""Sequential front-end output -> LLVM dialect -> LLVM IR text, with upstream passes only.

The translation to LLVM IR has no Python wrapper in the bindings; the C API function
``mlirTranslateModuleToLLVMIRToString`` is exported by ``libMLIRPythonCAPI.so`` and is
called through ctypes with the raw pointers inside the ``_CAPIPtr`` capsules.
"""

from __future__ import annotations

import ctypes
import functools
import os

from mlir import ir, passmanager

from .._plugin import capsule_pointer
from ..errors import CartsError

#: Upstream passes from the front end's dialects (func, scf, memref, arith, math, llvm)
#: to the LLVM dialect.  libm-style math ops become libm calls first (as gcc emits them),
#: the remaining ones (sqrt, fabs, fma) LLVM intrinsics. Arithmetic is converted once
#: before the memref lowering too: ``memref.generic_atomic_rmw`` (``omp atomic``) becomes
#: a compare-and-swap loop only when the ops of its block are already LLVM ops.
#: expand-strided-metadata computes the offsets of multi-dimensional subviews with
#: ``affine.apply``, which lower-affine turns into arithmetic.
LOWERING_PIPELINE = ",".join([
    "convert-math-to-libm",
    "convert-scf-to-cf",
    "expand-strided-metadata",
    "lower-affine",
    "convert-arith-to-llvm",
    "finalize-memref-to-llvm",
    "convert-math-to-llvm",
    "convert-arith-to-llvm",
    "convert-index-to-llvm",
    "convert-ub-to-llvm",
    "convert-func-to-llvm",
    "convert-cf-to-llvm",
    "reconcile-unrealized-casts",
])


@functools.cache
def _capi() -> ctypes.CDLL:
    import mlir._mlir_libs as libs

    lib = ctypes.CDLL(os.path.join(os.path.dirname(libs.__file__), "libMLIRPythonCAPI.so"))
    lib.mlirRegisterAllLLVMTranslations.argtypes = [ctypes.c_void_p]
    lib.mlirRegisterAllLLVMTranslations.restype = None
    lib.mlirTranslateModuleToLLVMIR.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    lib.mlirTranslateModuleToLLVMIR.restype = ctypes.c_void_p
    # LLVM-C, from the libLLVM.so the bindings link against (found through the handle).
    lib.LLVMContextCreate.argtypes = []
    lib.LLVMContextCreate.restype = ctypes.c_void_p
    lib.LLVMContextDispose.argtypes = [ctypes.c_void_p]
    lib.LLVMContextDispose.restype = None
    lib.LLVMPrintModuleToString.argtypes = [ctypes.c_void_p]
    lib.LLVMPrintModuleToString.restype = ctypes.c_void_p
    lib.LLVMDisposeModule.argtypes = [ctypes.c_void_p]
    lib.LLVMDisposeModule.restype = None
    lib.LLVMDisposeMessage.argtypes = [ctypes.c_void_p]
    lib.LLVMDisposeMessage.restype = None
    return lib


def lower_to_llvm_dialect(module: ir.Module, pipeline: str = LOWERING_PIPELINE) -> None:
    """Run the upstream lowering in place."""
    ctx = module.context
    with ctx:
        pm = passmanager.PassManager.parse(f"builtin.module({pipeline})")
        try:
            pm.run(module.operation)
        except ir.MLIRError as err:
            from ..ir import DiagnosedError, _diagnostics_of

            # located as every other stage's errors: `file:line:col: error: ...`
            raise DiagnosedError("lowering to the LLVM dialect failed",
                                 _diagnostics_of(err)) from None


def translate_to_llvm_ir(module: ir.Module) -> str:
    """LLVM-dialect module -> LLVM IR text."""
    lib = _capi()
    lib.mlirRegisterAllLLVMTranslations(capsule_pointer(module.context._CAPIPtr))
    llvm_ctx = lib.LLVMContextCreate()
    try:
        llvm_module = lib.mlirTranslateModuleToLLVMIR(capsule_pointer(module.operation._CAPIPtr), llvm_ctx)
        if not llvm_module:
            raise CartsError("translation to LLVM IR failed (is the module in the LLVM dialect?)")
        try:
            raw = lib.LLVMPrintModuleToString(llvm_module)
            try:
                return ctypes.string_at(raw).decode()
            finally:
                lib.LLVMDisposeMessage(raw)
        finally:
            lib.LLVMDisposeModule(llvm_module)
    finally:
        lib.LLVMContextDispose(llvm_ctx)

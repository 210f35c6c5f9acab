"""The C front end: C (+ OpenMP pragmas) -> MLIR text, built on libclang.

    from carts_mlir.frontend import compile_c
    text = compile_c("batchnorm.c", defines=("MINI_DATASET",), includes=("examples/include",),
                     openmp=True, debug_info=True)

``carts cgeist`` (``cgeist_main``) is the command-line form.  The output conventions:
``func.func`` per C function, ``scf`` control flow, memrefs for
arrays and pointers (a ``float **`` is ``memref<?xmemref<?xf32>>``), ``arith``/``math``
for expressions, ``llvm`` for varargs calls and strings, and with ``openmp=True`` the
upstream ``omp`` dialect.  C outside the supported subset raises
``CartsError("unsupported C construct: ...", "file.c:LINE:COL")``.

Module map: ``clang_support`` (libclang), ``pragmas`` (``#pragma omp``), ``typemap``
(C types), ``cursor_queries`` (questions about single cursors), ``analysis`` (per-function
facts, with ``canonical_loops``), ``module``/``function`` (state and symbols), ``driver``
(CLI).  The emitters: ``statements``, with its parts ``scf_loops`` and ``switch``;
``expressions``, with its parts ``lvalues``, ``conversions``, ``operators``, ``folding``
and ``calls``; ``openmp``, with its parts ``omp_clauses``, ``omp_data_sharing``,
``omp_loops``, ``omp_tasks`` and ``omp_atomic``.
"""

from __future__ import annotations

from .driver import FrontendOptions, cgeist_main, compile_c, compile_to_module

__all__ = ["FrontendOptions", "cgeist_main", "compile_c", "compile_to_module"]

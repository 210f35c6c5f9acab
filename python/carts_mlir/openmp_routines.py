"""The OpenMP routines a program may call: every host routine of OpenMP 5.2, as the front
end's ``omp.h`` declares them. The simplest are defined here in LLVM IR for one thread, which
the JIT and the native executables link next to the program; the others are the native
runtime's (``runtime/src/omp.c``), which both load. A parallel region's calls that describe
the team are rewritten by openmp-to-arts before that. The front end accepts calls to them
whether the program includes ``omp.h`` or declares them itself."""

from __future__ import annotations

import re
from pathlib import Path

#: Definitions the JIT links next to the program (sequential OpenMP runtime).
SEQUENTIAL_RUNTIME_IR = r"""
%timespec = type { i64, i64 }
declare i32 @clock_gettime(i32, ptr)

define double @omp_get_wtime() {
  %ts = alloca %timespec
  %rc = call i32 @clock_gettime(i32 1, ptr %ts)
  %sec_ptr = getelementptr %timespec, ptr %ts, i32 0, i32 0
  %nsec_ptr = getelementptr %timespec, ptr %ts, i32 0, i32 1
  %sec = load i64, ptr %sec_ptr
  %nsec = load i64, ptr %nsec_ptr
  %s = sitofp i64 %sec to double
  %ns = sitofp i64 %nsec to double
  %frac = fmul double %ns, 1.0e-9
  %t = fadd double %s, %frac
  ret double %t
}
define double @omp_get_wtick() { ret double 1.0e-9 }
define i32 @omp_get_thread_num() { ret i32 0 }
define i32 @omp_get_num_threads() { ret i32 1 }
define i32 @omp_get_max_threads() { ret i32 1 }
define i32 @omp_in_parallel() { ret i32 0 }
define void @omp_set_num_threads(i32 %n) { ret void }
"""

#: Names of the routines defined above.
SEQUENTIAL_ROUTINES = frozenset(re.findall(r"^define \S+ @(omp_\w+)\(", SEQUENTIAL_RUNTIME_IR, re.M))

#: Every routine the front end's omp.h declares.
OPENMP_ROUTINES = frozenset(re.findall(
    r"\b(omp_\w+)\(", (Path(__file__).parent / "frontend" / "include" / "omp.h").read_text()))

#: The routines the native runtime defines (the rest of omp.h).
RUNTIME_ROUTINES = OPENMP_ROUTINES - SEQUENTIAL_ROUTINES

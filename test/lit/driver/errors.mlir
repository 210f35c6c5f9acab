// carts-opt reports bad input with its location, exits 1 and writes no output file.
// RUN: not carts-opt %s 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: rm -f %t.out.mlir
// RUN: not carts-opt %s -o %t.out.mlir
// RUN: not ls %t.out.mlir
// RUN: not carts-opt %t.missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not carts-opt %s --no-such-flag 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: echo '' | not carts-opt - --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not carts-opt %s --start-from=nowhere 2>&1 | FileCheck %s --check-prefix=STAGE

// VERIFY: errors.mlir:[[@LINE+7]]:3: error: 'arts.edt' op dependency #0 must come from arts.db_acquire
// VERIFY-NOT: Traceback
// MISSING: error: cannot read input: No such file or directory
// FLAG: error: carts-opt: unknown argument '--no-such-flag' (see 'carts-opt --help')
// PASS: error: invalid pass pipeline 'builtin.module(no-such-pass)'
// STAGE: error: unknown stage 'nowhere' (stages: canonicalize-memrefs, collect-metadata,
func.func @f(%r: i32, %m: memref<?xf32>) {
  arts.edt <task> <intranode> route(%r) (%m : memref<?xf32>) {
  ^bb0(%v: memref<?xf32>):
  }
  return
}

// arts-collect-metadata: loop and array facts on the sequential compile (attributes, debug
// lines and the JSON file), their import into the OpenMP compile of the same source by
// location, the OpenMP compile analysing itself when there is no file, and the errors for a
// malformed or unwritable file.
// RUN: rm -rf %t && split-file %s %t --leading-lines
// RUN: carts-opt %t/seq.mlir --pass-pipeline='builtin.module(arts-collect-metadata{metadata-file=%t/seq.json})' -o %t/seq.out.mlir --debug-only=collect-metadata 2>&1 | FileCheck %s --check-prefix=DEBUG
// RUN: FileCheck %s --input-file=%t/seq.out.mlir
// RUN: FileCheck %s --input-file=%t/seq.json --check-prefix=SEQJSON
//
// Import: the sequential compile of k.c writes k.json, the OpenMP compile of k.c reads it.
// RUN: carts-opt %t/k-seq.mlir --pass-pipeline='builtin.module(arts-collect-metadata{metadata-file=%t/k.json})' -o %t/k-seq.out.mlir
// RUN: cat %t/k.json | FileCheck %s --check-prefix=JSON
// RUN: carts-opt %t/k-omp.mlir --pass-pipeline='builtin.module(arts-collect-metadata{metadata-file=%t/k.json})' --debug-only=collect-metadata 2>&1 | FileCheck %s --check-prefix=IMPORT
// RUN: carts-opt %t/k-omp.mlir --pass-pipeline='builtin.module(arts-collect-metadata{metadata-file=%t/k.json})' | FileCheck %s --check-prefix=IMPORT-IR
// Without a file the OpenMP compile is analysed itself, and no file is written.
// RUN: carts-opt %t/k-omp.mlir --pass-pipeline='builtin.module(arts-collect-metadata{metadata-file=%t/absent.json})' | FileCheck %s --check-prefix=SELF
// RUN: not cat %t/absent.json
// A file recorded for another source is not applied.
// RUN: carts-opt %t/k-omp.mlir --pass-pipeline='builtin.module(arts-collect-metadata{metadata-file=%t/seq.json})' --debug-only=collect-metadata 2>&1 | FileCheck %s --check-prefix=OTHER
//
// Errors: truncated JSON, JSON of the wrong shape, a file that cannot be written.
// RUN: echo '{"version": 1, "loops": {' > %t/truncated.json
// RUN: not carts-opt %t/k-omp.mlir --pass-pipeline='builtin.module(arts-collect-metadata{metadata-file=%t/truncated.json})' 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: echo '{"version": 1, "source": "k.c", "loops": [], "arrays": {}}' > %t/shape.json
// RUN: not carts-opt %t/k-omp.mlir --pass-pipeline='builtin.module(arts-collect-metadata{metadata-file=%t/shape.json})' 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: not carts-opt %t/k-seq.mlir --pass-pipeline='builtin.module(arts-collect-metadata{metadata-file=%t/no-such-dir/m.json})' 2>&1 | FileCheck %s --check-prefix=UNWRITABLE

// TRUNCATED: error: malformed metadata file '{{.*}}truncated.json': {{.+}}
// SHAPE: error: malformed metadata file '{{.*}}shape.json': "loops" and "arrays" must be objects
// UNWRITABLE: error: cannot write the metadata file '{{.*}}no-such-dir/m.json': {{.+}}

//--- seq.mlir

// A loop writing each element at its own index: parallel; argument patterns are `iv`.
// CHECK-LABEL: func.func @parallel_copy
// CHECK-SAME: %{{.*}}: memref<?xf32> {arts.metadata = {dims = ["iv"], element_type = "f32", location = "seq.mlir:[[@LINE+3]]:26", op = "argument", origin = "sequential", rank = 1 : i64, reads = 0 : i64, shape = "?", static_shape = false, type = "memref<?xf32>", writes = 1 : i64}}
// DEBUG: [collect-metadata] {{.*}}seq.mlir:[[@LINE+2]]:26: argument #0 of @parallel_copy: array memref<?xf32> rank=1 reads=0 writes=1 dims=[iv] origin=sequential
// DEBUG: [collect-metadata] {{.*}}seq.mlir:[[@LINE+1]]:45: argument #1 of @parallel_copy: array memref<?xf32> rank=1 reads=1 writes=0 dims=[iv] origin=sequential
func.func @parallel_copy(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: } {arts.metadata = {carried = [], class = "parallel", level = 0 : i64, location = "seq.mlir:[[@LINE+2]]:3", loop_carried = "no", op = "scf.for", origin = "sequential", private = [], reads = ["seq.mlir:[[@LINE-3]]:45"], reductions = [], trip_expr = "%arg2", writes = ["seq.mlir:[[@LINE-3]]:26"]}}
  // DEBUG: [collect-metadata] {{.*}}seq.mlir:[[@LINE+1]]:3: loop trip=? level=0 class=parallel origin=sequential
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %b[%i] : memref<?xf32>
    memref.store %x, %a[%i] : memref<?xf32>
  }
  return
}

// Load, add, store of a rank-0 accumulator: an add reduction; constant trip count.
// CHECK-LABEL: func.func @sum
func.func @sum(%a: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  // CHECK: memref.alloca() {arts.metadata = {dims = [], element_type = "f32", location = "seq.mlir:[[@LINE+2]]:8", {{.*}}rank = 0 : i64, reads = 2 : i64, {{.*}}writes = 2 : i64}}
  // DEBUG: [collect-metadata] {{.*}}seq.mlir:[[@LINE+1]]:8: array memref<f32> rank=0 reads=2 writes=2 dims=[] origin=sequential
  %s = memref.alloca() : memref<f32>
  memref.store %zero, %s[] : memref<f32>
  // CHECK: } {arts.metadata = {carried = [], class = "reduction", level = 0 : i64, {{.*}}loop_carried = "yes", {{.*}}reductions = [{array = "seq.mlir:[[@LINE-2]]:8", kind = "add"}], trip_count = 64 : i64,
  // DEBUG: [collect-metadata] {{.*}}seq.mlir:[[@LINE+1]]:3: loop trip=64 level=0 class=reduction reductions=[add(seq.mlir:[[@LINE-3]]:8)] origin=sequential
  scf.for %i = %c0 to %c64 step %c1 {
    %x = memref.load %a[%i] : memref<64xf32>
    %acc = memref.load %s[] : memref<f32>
    %y = arith.addf %acc, %x : f32
    memref.store %y, %s[] : memref<f32>
  }
  %r = memref.load %s[] : memref<f32>
  return %r : f32
}

// a[i] = a[i-1] + 1: a proven recurrence, sequential; the index i-1 is `affine`.
// CHECK-LABEL: func.func @recurrence
// CHECK-SAME: {arts.metadata = {dims = ["affine"], {{.*}}reads = 1 : i64, {{.*}}writes = 1 : i64}}
func.func @recurrence(%a: memref<?xi32>, %n: index) {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  // CHECK: } {arts.metadata = {carried = ["seq.mlir:[[@LINE-3]]:23"], class = "sequential", level = 0 : i64, {{.*}}loop_carried = "yes", {{.*}}reason = "a recurrence: an element of seq.mlir:[[@LINE-3]]:23 written in one iteration is read 1 iteration(s) later"
  // DEBUG: [collect-metadata] {{.*}}seq.mlir:[[@LINE+1]]:3: loop trip=? level=0 class=sequential (a recurrence: an element of seq.mlir:{{[0-9]+}}:23 written in one iteration is read 1 iteration(s) later) origin=sequential
  scf.for %i = %c1 to %n step %c1 {
    %im1 = arith.subi %i, %c1 : index
    %x = memref.load %a[%im1] : memref<?xi32>
    %y = arith.addi %x, %one : i32
    memref.store %y, %a[%i] : memref<?xi32>
  }
  return
}

// a[idx[i]] = 1: an index loaded from memory; the loop cannot be classified.
// CHECK-LABEL: func.func @indirect
// CHECK-SAME: %{{.*}}: memref<?xf32> {arts.metadata = {dims = ["indirect"],
// CHECK-SAME: %{{.*}}: memref<?xi32> {arts.metadata = {dims = ["iv"],
// DEBUG: [collect-metadata] {{.*}}seq.mlir:[[@LINE+1]]:21: argument #0 of @indirect: array memref<?xf32> rank=1 reads=0 writes=1 dims=[indirect] origin=sequential
func.func @indirect(%a: memref<?xf32>, %idx: memref<?xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  // CHECK: } {arts.metadata = {carried = [], class = "unknown", {{.*}}loop_carried = "unknown", {{.*}}reason = "indirect or data-dependent accesses of seq.mlir:[[@LINE-4]]:21"
  // DEBUG: [collect-metadata] {{.*}}seq.mlir:[[@LINE+1]]:3: loop trip=? level=0 class=unknown (indirect or data-dependent accesses of seq.mlir:{{[0-9]+}}:21) origin=sequential
  scf.for %i = %c0 to %n step %c1 {
    %j = memref.load %idx[%i] : memref<?xi32>
    %jj = arith.index_cast %j : i32 to index
    memref.store %f, %a[%jj] : memref<?xf32>
  }
  return
}

// A scalar written before it is read in every iteration, and not read after the loop: a
// per-iteration temporary, so the loop stays parallel.
// CHECK-LABEL: func.func @private_temp
func.func @private_temp(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloca() : memref<f32>
  // CHECK: } {arts.metadata = {carried = [], class = "parallel", {{.*}}private = ["seq.mlir:[[@LINE-1]]:8"]
  // DEBUG: [collect-metadata] {{.*}}seq.mlir:[[@LINE+1]]:3: loop trip=? level=0 class=parallel private=[seq.mlir:[[@LINE-2]]:8] origin=sequential
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    memref.store %x, %t[] : memref<f32>
    %y = memref.load %t[] : memref<f32>
    %z = arith.mulf %y, %y : f32
    memref.store %z, %b[%i] : memref<?xf32>
  }
  return
}

// The same temporary read after the loop: its last value escapes, so the loop is not proven.
// CHECK-LABEL: func.func @escaping_temp
func.func @escaping_temp(%a: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloca() : memref<f32>
  // CHECK: } {arts.metadata = {carried = [], class = "unknown", {{.*}}reason = "the last value of seq.mlir:[[@LINE-1]]:8 written in the loop is used later"
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    memref.store %x, %t[] : memref<f32>
  }
  %r = memref.load %t[] : memref<f32>
  return %r : f32
}

// `if (a[i] > m) m = a[i]` (the element loaded again inside the branch): a max reduction.
// CHECK-LABEL: func.func @conditional_max
func.func @conditional_max(%a: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloca() : memref<f32>
  // CHECK: } {arts.metadata = {carried = [], class = "reduction", {{.*}}reductions = [{array = "seq.mlir:[[@LINE-1]]:8", kind = "max"}]
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    %cur = memref.load %m[] : memref<f32>
    %gt = arith.cmpf ogt, %x, %cur : f32
    scf.if %gt {
      %x2 = memref.load %a[%i] : memref<?xf32>
      memref.store %x2, %m[] : memref<f32>
    }
  }
  %r = memref.load %m[] : memref<f32>
  return %r : f32
}

// `m = a[i] < m ? a[i] : m` through arith.select: a min reduction.
// CHECK-LABEL: func.func @select_min
func.func @select_min(%a: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloca() : memref<f32>
  // CHECK: } {arts.metadata = {carried = [], class = "reduction", {{.*}}reductions = [{array = "seq.mlir:[[@LINE-1]]:8", kind = "min"}]
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    %cur = memref.load %m[] : memref<f32>
    %lt = arith.cmpf olt, %x, %cur : f32
    %new = arith.select %lt, %x, %cur : f32
    memref.store %new, %m[] : memref<f32>
  }
  %r = memref.load %m[] : memref<f32>
  return %r : f32
}

// `m = m > a[i] ? m : a[i]` on unsigned integers, the partial value selected when the
// compare holds: the unsigned max (the kind openmp-to-arts gives the same update).
// CHECK-LABEL: func.func @select_partial_umax
func.func @select_partial_umax(%a: memref<?xi32>, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloca() : memref<i32>
  // CHECK: } {arts.metadata = {carried = [], class = "reduction", {{.*}}reductions = [{array = "seq.mlir:[[@LINE-1]]:8", kind = "umax"}]
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %cur = memref.load %m[] : memref<i32>
    %gt = arith.cmpi ugt, %cur, %x : i32
    %new = arith.select %gt, %cur, %x : i32
    memref.store %new, %m[] : memref<i32>
  }
  %r = memref.load %m[] : memref<i32>
  return %r : i32
}

// `b &= a[i]`: a bitwise-and reduction, named as the ARTS dialect names it.
// CHECK-LABEL: func.func @bitwise_and
func.func @bitwise_and(%a: memref<?xi32>, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.alloca() : memref<i32>
  // CHECK: } {arts.metadata = {carried = [], class = "reduction", {{.*}}reductions = [{array = "seq.mlir:[[@LINE-1]]:8", kind = "band"}]
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xi32>
    %cur = memref.load %m[] : memref<i32>
    %new = arith.andi %cur, %x : i32
    memref.store %new, %m[] : memref<i32>
  }
  %r = memref.load %m[] : memref<i32>
  return %r : i32
}

// A prefix sum reads the partial value for something else: not a reduction, sequential.
// CHECK-LABEL: func.func @prefix_sum
func.func @prefix_sum(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = memref.alloca() : memref<f32>
  // CHECK: } {arts.metadata = {carried = ["seq.mlir:[[@LINE-1]]:8"], class = "sequential",
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    %cur = memref.load %s[] : memref<f32>
    %y = arith.addf %cur, %x : f32
    memref.store %y, %s[] : memref<f32>
    memref.store %y, %b[%i] : memref<?xf32>
  }
  return
}

// x = 3 * x + 3 on a scalar: read before written in each iteration, a proven dependence.
// CHECK-LABEL: func.func @scalar_recurrence
func.func @scalar_recurrence(%n: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %three = arith.constant 3 : i64
  %x = memref.alloca() : memref<i64>
  // CHECK: } {arts.metadata = {carried = ["seq.mlir:[[@LINE-1]]:8"], class = "sequential", {{.*}}reason = "seq.mlir:[[@LINE-1]]:8 is read before it is written in an iteration (its value comes from the previous one)"
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[] : memref<i64>
    %w = arith.muli %v, %three : i64
    %u = arith.addi %w, %three : i64
    memref.store %u, %x[] : memref<i64>
  }
  %r = memref.load %x[] : memref<i64>
  return %r : i64
}

// A sum carried in iter_args is a reduction too.
// CHECK-LABEL: func.func @iter_args_sum
// CHECK: } {arts.metadata = {carried = [], class = "reduction", {{.*}}reductions = [{kind = "add", value = "iter_arg#0"}]
func.func @iter_args_sum(%a: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = arith.addf %acc, %x : f32
    scf.yield %y : f32
  }
  return %r : f32
}

// i-k-j matrix product: i and j parallel; k accumulates into C[i][j] (invariant in k) for
// every j: an add reduction over k. Nesting levels 0, 1, 2 (printed innermost first).
// CHECK-LABEL: func.func @matmul
// DEBUG: [collect-metadata] {{.*}}seq.mlir:[[@LINE+2]]:19: argument #0 of @matmul: array memref<?x?xf64> rank=2 reads=1 writes=0 dims=[iv,iv] origin=sequential
// DEBUG: [collect-metadata] {{.*}}seq.mlir:[[@LINE+1]]:61: argument #2 of @matmul: array memref<?x?xf64> rank=2 reads=1 writes=1 dims=[iv,iv] origin=sequential
func.func @matmul(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: } {arts.metadata = {carried = [], class = "parallel", level = 2 : i64,
  // CHECK: } {arts.metadata = {carried = [], class = "reduction", level = 1 : i64, {{.*}}reductions = [{array = "seq.mlir:[[@LINE-4]]:61", kind = "add"}]
  // CHECK: } {arts.metadata = {carried = [], class = "parallel", level = 0 : i64,
  // DEBUG: [collect-metadata] {{.*}}seq.mlir:[[@LINE+1]]:3: loop trip=? level=0 class=parallel origin=sequential
  scf.for %i = %c0 to %n step %c1 {
    // DEBUG: [collect-metadata] {{.*}}seq.mlir:[[@LINE+1]]:5: loop trip=? level=1 class=reduction reductions=[add(seq.mlir:{{[0-9]+}}:61)] origin=sequential
    scf.for %k = %c0 to %n step %c1 {
      %a = memref.load %A[%i, %k] : memref<?x?xf64>
      // DEBUG: [collect-metadata] {{.*}}seq.mlir:[[@LINE+1]]:7: loop trip=? level=2 class=parallel origin=sequential
      scf.for %j = %c0 to %n step %c1 {
        %b = memref.load %B[%k, %j] : memref<?x?xf64>
        %p = arith.mulf %a, %b : f64
        %c = memref.load %C[%i, %j] : memref<?x?xf64>
        %s = arith.addf %c, %p : f64
        memref.store %s, %C[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}

// The same product on pointer-of-pointer arrays straight from the front end: rows loaded
// out of C are seen through C, so C[i][j] is a 2-D access with the same facts.
// CHECK-LABEL: func.func @matmul_rows
// CHECK-SAME: %{{.*}}: memref<?xmemref<?xf64>> {arts.metadata = {dims = ["iv", "iv"], element_type = "f64", {{.*}}nested = true, {{.*}}rank = 2 : i64, reads = 1 : i64, shape = "?x?",
func.func @matmul_rows(%A: memref<?xmemref<?xf64>>, %B: memref<?xmemref<?xf64>>,
                       %C: memref<?xmemref<?xf64>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: } {arts.metadata = {carried = [], class = "parallel", level = 2 : i64,
  // CHECK: } {arts.metadata = {carried = [], class = "reduction", level = 1 : i64, {{.*}}reductions = [{array = "seq.mlir:[[@LINE-4]]:24", kind = "add"}]
  // CHECK: } {arts.metadata = {carried = [], class = "parallel", level = 0 : i64,
  scf.for %i = %c0 to %n step %c1 {
    scf.for %k = %c0 to %n step %c1 {
      %arow = memref.load %A[%i] : memref<?xmemref<?xf64>>
      %a = memref.load %arow[%k] : memref<?xf64>
      scf.for %j = %c0 to %n step %c1 {
        %brow = memref.load %B[%k] : memref<?xmemref<?xf64>>
        %b = memref.load %brow[%j] : memref<?xf64>
        %p = arith.mulf %a, %b : f64
        %crow = memref.load %C[%i] : memref<?xmemref<?xf64>>
        %c = memref.load %crow[%j] : memref<?xf64>
        %s = arith.addf %c, %p : f64
        memref.store %s, %crow[%j] : memref<?xf64>
      }
    }
  }
  return
}

// A row-major flattened index a[8*i + j]: rows of 8 never overlap when j < 8, but may when
// j < 9.
// CHECK-LABEL: func.func @flattened_rows
// CHECK: } {arts.metadata = {carried = [], class = "parallel", level = 0 : i64,
// CHECK: } {arts.metadata = {carried = [], class = "unknown", level = 0 : i64,
func.func @flattened_rows(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c9 = arith.constant 9 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %n step %c1 {
    %row = arith.muli %i, %c8 : index
    scf.for %j = %c0 to %c8 step %c1 {
      %k = arith.addi %row, %j : index
      memref.store %f, %a[%k] : memref<?xf32>
    }
  }
  scf.for %i = %c0 to %n step %c1 {
    %row = arith.muli %i, %c8 : index
    scf.for %j = %c0 to %c9 step %c1 {
      %k = arith.addi %row, %j : index
      memref.store %f, %a[%k] : memref<?xf32>
    }
  }
  return
}

// A stencil between two allocations: parallel; a is read at rows i-1 and i+1 (`affine`).
// CHECK-LABEL: func.func @stencil
func.func @stencil(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: memref.alloc(%{{.*}}) {arts.metadata = {dims = ["affine", "iv"], element_type = "f32", location = "seq.mlir:[[@LINE+2]]:8", op = "memref.alloc", origin = "sequential", rank = 2 : i64, reads = 2 : i64, shape = "?x?", static_shape = false, type = "memref<?x?xf32>", writes = 0 : i64}}
  // CHECK: memref.alloc(%{{.*}}) {arts.metadata = {dims = ["iv", "iv"],
  %a = memref.alloc(%n, %n) : memref<?x?xf32>
  %b = memref.alloc(%n, %n) : memref<?x?xf32>
  %m = arith.subi %n, %c1 : index
  // CHECK: } {arts.metadata = {carried = [], class = "parallel", level = 1 : i64,
  // CHECK: } {arts.metadata = {carried = [], class = "parallel", level = 0 : i64, {{.*}}trip_expr = "%0 - 1",
  scf.for %i = %c1 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %im = arith.subi %i, %c1 : index
      %ip = arith.addi %i, %c1 : index
      %x = memref.load %a[%im, %j] : memref<?x?xf32>
      %y = memref.load %a[%ip, %j] : memref<?x?xf32>
      %z = arith.addf %x, %y : f32
      memref.store %z, %b[%i, %j] : memref<?x?xf32>
    }
  }
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  return
}

// affine.for with affine.load/store: a[i + 1] = a[i] is a recurrence of distance 1.
// CHECK-LABEL: func.func @affine_recurrence
// CHECK: } {arts.metadata = {carried = ["seq.mlir:[[@LINE+1]]:30"], class = "sequential", {{.*}}op = "affine.for", {{.*}}trip_count = 15 : i64
func.func @affine_recurrence(%a: memref<16xf32>) {
  affine.for %i = 0 to 15 {
    %x = affine.load %a[%i] : memref<16xf32>
    affine.store %x, %a[%i + 1] : memref<16xf32>
  }
  return
}

// A while loop (a loop with break, a search): sequential; an opaque call: unknown.
// CHECK-LABEL: func.func @while_and_call
// CHECK: } attributes {arts.metadata = {carried = [], class = "sequential", {{.*}}op = "scf.while", {{.*}}reason = "a while loop: each iteration decides whether the next one runs", {{.*}}trip_expr = "while loop"
// CHECK: } {arts.metadata = {carried = [], class = "unknown", {{.*}}reason = "it contains a call to @opaque"
func.func private @opaque(memref<?xf32>)
func.func @while_and_call(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 0.0 : f32
  %r = scf.while (%i = %c0) : (index) -> index {
    %x = memref.load %a[%i] : memref<?xf32>
    %go = arith.cmpf one, %x, %f : f32
    scf.condition(%go) %i : index
  } do {
  ^bb0(%i: index):
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  scf.for %i = %c0 to %n step %c1 {
    func.call @opaque(%a) : (memref<?xf32>) -> ()
  }
  return
}

// DEBUG: [collect-metadata] wrote 28 loop and 36 array facts to {{.*}}seq.json

// The file: version, source, one record per loop and array keyed by location.
// SEQJSON: "arrays": {
// SEQJSON: "seq.mlir:
// SEQJSON: "loops": {
// SEQJSON: "source": "{{.*}}seq.mlir",
// SEQJSON-NEXT: "version": 1

//--- k-seq.mlir

// The sequential compile of k.c (locations as the front end writes them).
module {
  func.func @main() -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %f = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<32xf32> loc("dir/k.c":3:10)
    scf.for %i = %c0 to %c32 step %c1 {
      memref.store %f, %a[%i] : memref<32xf32>
    } loc("dir/k.c":5:3)
    %s = memref.alloca() : memref<f32> loc("dir/k.c":7:9)
    memref.store %f, %s[] : memref<f32>
    scf.for %i = %c0 to %c32 step %c1 {
      %x = memref.load %a[%i] : memref<32xf32>
      %acc = memref.load %s[] : memref<f32>
      %y = arith.addf %acc, %x : f32
      memref.store %y, %s[] : memref<f32>
    } loc("dir/k.c":8:3)
    %t = memref.alloca() : memref<f32> loc("dir/k.c":10:9)
    memref.store %f, %t[] : memref<f32>
    scf.for %i = %c0 to %c32 step %c1 {
      %x = memref.load %a[%i] : memref<32xf32>
      %acc = memref.load %t[] : memref<f32>
      %y = arith.mulf %acc, %x : f32
      memref.store %y, %t[] : memref<f32>
    } loc("dir/k.c":12:3)
    %r = memref.load %s[] : memref<f32>
    %q = memref.load %t[] : memref<f32>
    %sum = arith.addf %r, %q : f32
    return %sum : f32
  } loc("dir/k.c":1:1)
}

// JSON:      {
// JSON-NEXT:   "arrays": {
// JSON-NEXT:     "k.c:10:9": {
// JSON:          "k.c:3:10": {
// JSON-NEXT:       "dims": [
// JSON-NEXT:         "iv"
// JSON-NEXT:       ],
// JSON-NEXT:       "element_type": "f32",
// JSON-NEXT:       "op": "memref.alloc",
// JSON-NEXT:       "rank": 1,
// JSON-NEXT:       "reads": 2,
// JSON-NEXT:       "shape": "32",
// JSON-NEXT:       "static_shape": true,
// JSON-NEXT:       "type": "memref<32xf32>",
// JSON-NEXT:       "writes": 1
// JSON-NEXT:     },
// JSON-NEXT:     "k.c:7:9": {
// JSON:        "loops": {
// JSON-NEXT:     "k.c:12:3": {
// JSON:          "k.c:5:3": {
// JSON-NEXT:       "carried": [],
// JSON-NEXT:       "class": "parallel",
// JSON-NEXT:       "level": 0,
// JSON-NEXT:       "loop_carried": "no",
// JSON-NEXT:       "op": "scf.for",
// JSON-NEXT:       "private": [],
// JSON-NEXT:       "reads": [],
// JSON-NEXT:       "reductions": [],
// JSON-NEXT:       "trip_count": 32,
// JSON-NEXT:       "writes": [
// JSON-NEXT:         "k.c:3:10"
// JSON-NEXT:       ]
// JSON-NEXT:     },
// JSON-NEXT:     "k.c:8:3": {
// JSON:            "class": "reduction",
// JSON:            "reductions": [
// JSON-NEXT:         {
// JSON-NEXT:           "array": "k.c:7:9",
// JSON-NEXT:           "kind": "add"
// JSON-NEXT:         }
// JSON-NEXT:       ],
// JSON:        "source": "dir/k.c",
// JSON-NEXT:   "version": 1
// JSON-NEXT: }

//--- k-omp.mlir

// The OpenMP compile of the same file, started from another directory: the first loop is
// now an omp.loop_nest under a parallel pragma (line 4) that adds a private copy, the third
// one a reduction clause (line 11) whose accumulator is named after its variable.
// IMPORT: [collect-metadata] dir2/k.c:3:10: array memref<32xf32> rank=1 reads=2 writes=1 dims=[iv] origin=sequential
// IMPORT: [collect-metadata] dir2/k.c:4:1: array memref<f32> rank=0 reads=0 writes=0 dims=[] origin=parallel
// IMPORT: [collect-metadata] dir2/k.c:5:3: loop trip=32 level=0 class=parallel origin=sequential
// IMPORT: [collect-metadata] dir2/k.c:7:9: array memref<f32> rank=0 reads=2 writes=2 dims=[] origin=sequential
// IMPORT: [collect-metadata] dir2/k.c:8:3: loop trip=32 level=0 class=reduction reductions=[add(k.c:7:9)] origin=sequential
// IMPORT: [collect-metadata] dir2/k.c:10:9: array memref<f32> rank=0 reads=2 writes=2 dims=[] origin=sequential
// IMPORT: [collect-metadata] dir2/k.c:12:3: loop trip=32 level=0 class=reduction reductions=[mul(k.c:10:9)] origin=sequential
// IMPORT: [collect-metadata] imported 3 loop and 3 array facts from {{.*}}k.json (0 loops and 1 arrays without a record analysed here)
// IMPORT-IR: memref.alloc() {arts.metadata = {dims = ["iv"], {{.*}}location = "k.c:3:10", op = "memref.alloc", origin = "sequential",
// IMPORT-IR: memref.alloca() {arts.metadata = {{{.*}}location = "k.c:4:1", {{.*}}origin = "parallel",
// IMPORT-IR: } {arts.metadata = {carried = [], class = "parallel", {{.*}}location = "k.c:5:3", loop_carried = "no", op = "scf.for", origin = "sequential",
// IMPORT-IR: } {arts.metadata = {carried = [], class = "reduction", {{.*}}location = "k.c:8:3", {{.*}}origin = "sequential",
// The facts of an omp.loop_nest are printed on its omp.wsloop (the loop_nest printer drops
// discardable attributes), under the loop's own location.
// SELF: omp.loop_nest
// SELF: omp.yield
// SELF-NEXT: }
// SELF-NEXT: } {arts.metadata = {carried = [], class = "parallel", level = 0 : i64, location = "k.c:5:3", loop_carried = "no", op = "omp.loop_nest", origin = "parallel", {{.*}}trip_count = 32 : i64
// SELF: } {arts.metadata = {carried = [], class = "reduction", {{.*}}location = "k.c:8:3", {{.*}}origin = "parallel"
// SELF: omp.wsloop reduction(@mul_f32
// SELF: } {arts.metadata = {carried = [], class = "reduction", {{.*}}location = "k.c:12:3", {{.*}}op = "omp.loop_nest", origin = "parallel", {{.*}}reductions = [{array = "k.c:10:9", kind = "mul"}]
// OTHER: [collect-metadata] {{.*}}seq.json describes '{{.*}}seq.mlir', not 'dir2/k.c': analysing this module instead
// OTHER-NOT: origin=sequential
module {
  omp.declare_reduction @mul_f32 : f32 init {
  ^bb0(%init: f32):
    %one = arith.constant 1.0 : f32
    omp.yield(%one : f32)
  } combiner {
  ^bb0(%lhs: f32, %rhs: f32):
    %prod = arith.mulf %lhs, %rhs : f32
    omp.yield(%prod : f32)
  }
  func.func @main() -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %f = arith.constant 1.0 : f32
    %a = memref.alloc() : memref<32xf32> loc("dir2/k.c":3:10)
    omp.parallel {
      %p = memref.alloca() : memref<f32> loc("dir2/k.c":4:1)
      omp.wsloop {
        omp.loop_nest (%i) : index = (%c0) to (%c32) step (%c1) {
          memref.store %f, %a[%i] : memref<32xf32>
          omp.yield
        } loc("dir2/k.c":5:3)
      } loc("dir2/k.c":4:1)
      omp.terminator
    } loc("dir2/k.c":4:1)
    %s = memref.alloca() : memref<f32> loc("dir2/k.c":7:9)
    memref.store %f, %s[] : memref<f32>
    scf.for %i = %c0 to %c32 step %c1 {
      %x = memref.load %a[%i] : memref<32xf32>
      %acc = memref.load %s[] : memref<f32>
      %y = arith.addf %acc, %x : f32
      memref.store %y, %s[] : memref<f32>
    } loc("dir2/k.c":8:3)
    %t = memref.alloca() : memref<f32> loc("dir2/k.c":10:9)
    memref.store %f, %t[] : memref<f32>
    omp.parallel {
      omp.wsloop reduction(@mul_f32 %t -> %acc : memref<f32>) {
        omp.loop_nest (%i) : index = (%c0) to (%c32) step (%c1) {
          %x = memref.load %a[%i] : memref<32xf32>
          %cur = memref.load %acc[] : memref<f32>
          %y = arith.mulf %cur, %x : f32
          memref.store %y, %acc[] : memref<f32>
          omp.yield
        } loc("dir2/k.c":12:3)
      } loc("dir2/k.c":11:1)
      omp.terminator
    } loc("dir2/k.c":11:1)
    %r = memref.load %s[] : memref<f32>
    %q = memref.load %t[] : memref<f32>
    %sum = arith.addf %r, %q : f32
    return %sum : f32
  } loc("dir2/k.c":1:1)
}

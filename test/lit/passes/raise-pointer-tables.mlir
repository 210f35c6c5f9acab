// arts-raise-pointer-tables: pointer tables of any rank become one N-D memref, and a table
// that cannot be raised exactly fails at the offending op. Tables are built and used through
// helpers as often as not, so every run is the stage's pair, arts-inline-helpers first
// (inline-helpers.mlir tests that pass alone). The raise part is checked on its output (no
// pointer-table type may survive) and, as one module (so that locations are the file's
// lines), on its debug channel; a whole program (with main) and the locations of the N-D
// arrays on their own; the invalid part with --verify-diagnostics and, for the rendered
// `file:line:col: error:` form, through the driver's stderr.
// RUN: split-file %s %t --leading-lines
// RUN: carts-opt %t/raise.mlir --split-input-file --pass-pipeline='builtin.module(arts-inline-helpers,arts-raise-pointer-tables)' | FileCheck %s --implicit-check-not=xmemref
// RUN: carts-opt %t/raise.mlir --pass-pipeline='builtin.module(arts-inline-helpers,arts-raise-pointer-tables)' --debug-only=canonicalize-memrefs 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
// RUN: carts-opt %t/program.mlir --pass-pipeline='builtin.module(arts-inline-helpers,arts-raise-pointer-tables)' | FileCheck %s --check-prefix=PROGRAM
// RUN: carts-opt %t/locs.mlir --pass-pipeline='builtin.module(arts-inline-helpers,arts-raise-pointer-tables)' --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC
// RUN: carts-opt %t/invalid.mlir --split-input-file --pass-pipeline='builtin.module(arts-inline-helpers,arts-raise-pointer-tables{strict=true})' --verify-diagnostics
// RUN: not carts-opt %t/located.mlir --pass-pipeline='builtin.module(arts-inline-helpers,arts-raise-pointer-tables)' 2>&1 | FileCheck %s --check-prefix=LOCATED
// RUN: carts-opt %t/kept.mlir --pass-pipeline='builtin.module(arts-inline-helpers,arts-raise-pointer-tables)' 2>&1 | FileCheck %s --check-prefix=KEPT --implicit-check-not=error

//--- raise.mlir

// A 2-D table filled, read and freed in one function: one 2-D alloc with both sizes, the
// element accesses indexed by the row index and the column index, one dealloc. A row whose
// bytes are a multiple of 4 KiB gets 64 bytes (16 floats) more, unused.
// CHECK-LABEL: func.func @table_2d(
// CHECK-SAME: %[[N:[^:]*]]: index, %[[M:[^:]*]]: index, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index)
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[BYTES:.*]] = arith.muli %[[M]], %[[C4]] : index
// CHECK-NEXT: %[[C4096:.*]] = arith.constant 4096 : index
// CHECK-NEXT: %[[REM:.*]] = arith.remui %[[BYTES]], %[[C4096]] : index
// CHECK: %[[PAGES:.*]] = arith.cmpi eq, %[[REM]], %{{.*}} : index
// CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[PADDED:.*]] = arith.addi %[[M]], %[[C16]] : index
// CHECK-NEXT: %[[COLS:.*]] = arith.select %[[PAGES]], %[[PADDED]], %[[M]] : index
// CHECK-NEXT: %[[A:.*]] = memref.alloc(%[[N]], %[[COLS]]) : memref<?x?xf32>
// CHECK-NOT: memref.alloc
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %[[N]]
// CHECK-NEXT: scf.for %[[L:.*]] = %{{.*}} to %[[M]]
// CHECK-NEXT: memref.store %{{.*}}, %[[A]][%[[K]], %[[L]]] : memref<?x?xf32>
// CHECK: %[[V:.*]] = memref.load %[[A]][%[[I]], %[[J]]] : memref<?x?xf32>
// CHECK-NEXT: memref.dealloc %[[A]] : memref<?x?xf32>
// CHECK-NEXT: return %[[V]] : f32
func.func @table_2d(%n: index, %m: index, %i: index, %j: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  // DEBUG-DAG: [canonicalize-memrefs] {{.*}}raise.mlir:[[@LINE+1]]:8: raised memref<?xmemref<?xf32>> to memref<?x?xf32> (1 load and 1 store rewritten, 1 init loop, 1 free loop and 2 deallocs removed)
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c0 to %n step %c1 {
    %row = memref.alloc(%m) : memref<?xf32>
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  scf.for %k = %c0 to %n step %c1 {
    scf.for %l = %c0 to %m step %c1 {
      %r = memref.load %a[%k] : memref<?xmemref<?xf32>>
      memref.store %one, %r[%l] : memref<?xf32>
    }
  }
  %r = memref.load %a[%i] : memref<?xmemref<?xf32>>
  %v = memref.load %r[%j] : memref<?xf32>
  scf.for %k = %c0 to %n step %c1 {
    %r2 = memref.load %a[%k] : memref<?xmemref<?xf32>>
    memref.dealloc %r2 : memref<?xf32>
  }
  memref.dealloc %a : memref<?xmemref<?xf32>>
  return %v : f32
}

// -----

// A 3-D table built by helpers calling helpers (alloc_3d -> alloc_2d -> alloc_1d, each row
// stored into its parent before the parent is stored) and freed by helpers: everything is
// inlined, the helpers are erased, the three sizes are computed before the 3-D alloc.
// CHECK-LABEL: func.func @weights_3d(
// CHECK-SAME: %[[D0:[^:]*]]: i32, %[[D1:[^:]*]]: i32, %[[D2:[^:]*]]: i32, %[[I:[^:]*]]: index, %[[J:[^:]*]]: index, %[[K:[^:]*]]: index)
// CHECK-DAG: %[[S0:.*]] = arith.index_cast %[[D0]] : i32 to index
// CHECK-DAG: %[[S1:.*]] = arith.index_cast %[[D1]] : i32 to index
// CHECK-DAG: %[[S2:.*]] = arith.index_cast %[[D2]] : i32 to index
// CHECK: %[[W:.*]] = memref.alloc(%[[S0]], %[[S1]], %{{[^)]*}}) : memref<?x?x?xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: scf.for
// CHECK: %[[V:.*]] = memref.load %[[W]][%[[I]], %[[J]], %[[K]]] : memref<?x?x?xf32>
// CHECK-NOT: scf.for
// CHECK: memref.dealloc %[[W]] : memref<?x?x?xf32>
// CHECK-NOT: memref.dealloc
// CHECK: return %[[V]] : f32
// CHECK-NOT: func.func private @alloc_
// CHECK-NOT: func.func private @free_
func.func private @alloc_1d(%n: i32) -> memref<?xf32> {
  %0 = arith.index_cast %n : i32 to index
  %a = memref.alloc(%0) : memref<?xf32>
  return %a : memref<?xf32>
}
func.func private @alloc_2d(%rows: i32, %cols: i32) -> memref<?xmemref<?xf32>> {
  %0 = arith.index_cast %rows : i32 to index
  %a = memref.alloc(%0) : memref<?xmemref<?xf32>>
  %c0 = arith.constant 0 : index
  %1 = arith.index_cast %rows : i32 to index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %1 step %c1 {
    %r = func.call @alloc_1d(%cols) : (i32) -> memref<?xf32>
    memref.store %r, %a[%i] : memref<?xmemref<?xf32>>
  }
  return %a : memref<?xmemref<?xf32>>
}
func.func private @alloc_3d(%d0: i32, %d1: i32, %d2: i32) -> memref<?xmemref<?xmemref<?xf32>>> {
  %0 = arith.index_cast %d0 : i32 to index
  %a = memref.alloc(%0) : memref<?xmemref<?xmemref<?xf32>>>
  %c0 = arith.constant 0 : index
  %1 = arith.index_cast %d0 : i32 to index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %1 step %c1 {
    %r = func.call @alloc_2d(%d1, %d2) : (i32, i32) -> memref<?xmemref<?xf32>>
    memref.store %r, %a[%i] : memref<?xmemref<?xmemref<?xf32>>>
  }
  return %a : memref<?xmemref<?xmemref<?xf32>>>
}
func.func private @free_2d(%a: memref<?xmemref<?xf32>>, %rows: i32) {
  %c0 = arith.constant 0 : index
  %0 = arith.index_cast %rows : i32 to index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %0 step %c1 {
    %r = memref.load %a[%i] : memref<?xmemref<?xf32>>
    memref.dealloc %r : memref<?xf32>
  }
  memref.dealloc %a : memref<?xmemref<?xf32>>
  return
}
func.func private @free_3d(%a: memref<?xmemref<?xmemref<?xf32>>>, %d0: i32, %d1: i32) {
  %c0 = arith.constant 0 : index
  %0 = arith.index_cast %d0 : i32 to index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %0 step %c1 {
    %r = memref.load %a[%i] : memref<?xmemref<?xmemref<?xf32>>>
    func.call @free_2d(%r, %d1) : (memref<?xmemref<?xf32>>, i32) -> ()
  }
  memref.dealloc %a : memref<?xmemref<?xmemref<?xf32>>>
  return
}
func.func @weights_3d(%d0: i32, %d1: i32, %d2: i32, %i: index, %j: index, %k: index) -> f32 {
  // DEBUG-DAG: [canonicalize-memrefs] {{.*}}raise.mlir:[[@LINE+3]]:8: inlined alloc_3d into weights_3d
  // The 3-D array is named after the call that allocates it, not after the helper's malloc.
  // DEBUG-DAG: [canonicalize-memrefs] {{.*}}raise.mlir:[[@LINE+1]]:8: raised memref<?xmemref<?xmemref<?xf32>>> to memref<?x?x?xf32> (1 load and 0 stores rewritten, 2 init loops, 2 free loops and 3 deallocs removed)
  %w = call @alloc_3d(%d0, %d1, %d2) : (i32, i32, i32) -> memref<?xmemref<?xmemref<?xf32>>>
  %p = memref.load %w[%i] : memref<?xmemref<?xmemref<?xf32>>>
  %q = memref.load %p[%j] : memref<?xmemref<?xf32>>
  %v = memref.load %q[%k] : memref<?xf32>
  call @free_3d(%w, %d0, %d1) : (memref<?xmemref<?xmemref<?xf32>>>, i32, i32) -> ()
  return %v : f32
}
// The helpers were inlined callees first, and erased once nothing called them.
// DEBUG-DAG: [canonicalize-memrefs] {{.*}}raise.mlir:{{[0-9]+}}:10: inlined alloc_1d into alloc_2d
// DEBUG-DAG: [canonicalize-memrefs] {{.*}}raise.mlir:{{[0-9]+}}:10: inlined alloc_2d into alloc_3d
// DEBUG-DAG: [canonicalize-memrefs] {{.*}}raise.mlir:{{[0-9]+}}:5: inlined free_2d into free_3d
// DEBUG-DAG: [canonicalize-memrefs] {{.*}}raise.mlir:{{[0-9]+}}:1: erased alloc_3d: no call left

// -----

// A 4-D table whose rows are reached by chained loads in the init loops (as the front end
// writes `a[i][j][k] = malloc(...)`), read through a 4-level chain.
// CHECK-LABEL: func.func @table_4d(
// CHECK-SAME: %[[N:[^:]*]]: index, %[[I:[^:]*]]: index)
// CHECK: %[[T:.*]] = memref.alloc(%[[N]], %[[N]], %[[N]], %{{[^)]*}}) : memref<?x?x?x?xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: scf.for
// CHECK: memref.load %[[T]][%[[I]], %[[I]], %[[I]], %[[I]]] : memref<?x?x?x?xf32>
// CHECK-NOT: memref.dealloc
func.func @table_4d(%n: index, %i: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloc(%n) : memref<?xmemref<?xmemref<?xmemref<?xf32>>>>
  scf.for %a = %c0 to %n step %c1 {
    %r1 = memref.alloc(%n) : memref<?xmemref<?xmemref<?xf32>>>
    memref.store %r1, %t[%a] : memref<?xmemref<?xmemref<?xmemref<?xf32>>>>
    scf.for %b = %c0 to %n step %c1 {
      %x = memref.load %t[%a] : memref<?xmemref<?xmemref<?xmemref<?xf32>>>>
      %r2 = memref.alloc(%n) : memref<?xmemref<?xf32>>
      memref.store %r2, %x[%b] : memref<?xmemref<?xmemref<?xf32>>>
      scf.for %c = %c0 to %n step %c1 {
        %y = memref.load %t[%a] : memref<?xmemref<?xmemref<?xmemref<?xf32>>>>
        %z = memref.load %y[%b] : memref<?xmemref<?xmemref<?xf32>>>
        %r3 = memref.alloc(%n) : memref<?xf32>
        memref.store %r3, %z[%c] : memref<?xmemref<?xf32>>
      }
    }
  }
  %p1 = memref.load %t[%i] : memref<?xmemref<?xmemref<?xmemref<?xf32>>>>
  %p2 = memref.load %p1[%i] : memref<?xmemref<?xmemref<?xf32>>>
  %p3 = memref.load %p2[%i] : memref<?xmemref<?xf32>>
  %v = memref.load %p3[%i] : memref<?xf32>
  return %v : f32
}

// -----

// A kernel taking one row of a 3-D table (`matmul(out, w[l], n)`) with an OpenMP loop and
// a local, called in a loop: the kernel is inlined (omp ops included) where it is called,
// its local moves to the top of the caller, its accesses index the 3-D array by the
// caller's layer index.
// CHECK-LABEL: func.func @forward(
// CHECK-SAME: %[[L:[^:]*]]: index, %[[N:[^:]*]]: index, %[[OUT:[^:]*]]: memref<?xf32>)
// CHECK-NEXT: %[[ACC:.*]] = memref.alloca() : memref<f32>
// CHECK: %[[W:.*]] = memref.alloc(%[[L]], %[[N]], %{{[^)]*}}) : memref<?x?x?xf32>
// CHECK: scf.for %[[LAYER:[^ ]*]] = %{{.*}} to %[[L]]
// CHECK-NOT: memref.alloca
// CHECK: omp.parallel {
// CHECK-NEXT: omp.wsloop {
// CHECK-NEXT: omp.loop_nest (%[[ROW:.*]]) : index = (%{{.*}}) to (%[[N]])
// CHECK: scf.for %[[COL:[^ ]*]] =
// CHECK: memref.load %[[W]][%[[LAYER]], %[[ROW]], %[[COL]]] : memref<?x?x?xf32>
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[ROW]]] : memref<?xf32>
// CHECK: omp.yield
// CHECK-NOT: call
// CHECK-NOT: func.func private @row_matvec
func.func private @row_matvec(%w: memref<?xmemref<?xf32>>, %out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %acc = memref.alloca() : memref<f32>
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {
        memref.store %zero, %acc[] : memref<f32>
        scf.for %j = %c0 to %n step %c1 {
          %r = memref.load %w[%i] : memref<?xmemref<?xf32>>
          %x = memref.load %r[%j] : memref<?xf32>
          %s = memref.load %acc[] : memref<f32>
          %t = arith.addf %s, %x : f32
          memref.store %t, %acc[] : memref<f32>
        }
        %s = memref.load %acc[] : memref<f32>
        memref.store %s, %out[%i] : memref<?xf32>
        omp.yield
      }
    }
    omp.terminator
  }
  return
}
func.func @forward(%layers: index, %n: index, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %w = memref.alloc(%layers) : memref<?xmemref<?xmemref<?xf32>>>
  scf.for %l = %c0 to %layers step %c1 {
    %m = memref.alloc(%n) : memref<?xmemref<?xf32>>
    scf.for %i = %c0 to %n step %c1 {
      %row = memref.alloc(%n) : memref<?xf32>
      memref.store %row, %m[%i] : memref<?xmemref<?xf32>>
    }
    memref.store %m, %w[%l] : memref<?xmemref<?xmemref<?xf32>>>
  }
  scf.for %l = %c0 to %layers step %c1 {
    %wl = memref.load %w[%l] : memref<?xmemref<?xmemref<?xf32>>>
    // DEBUG-DAG: [canonicalize-memrefs] {{.*}}raise.mlir:[[@LINE+2]]:5: inlined row_matvec into forward
    // DEBUG-DAG: [canonicalize-memrefs] {{.*}}raise.mlir:[[@LINE+1]]:5: moved 1 local of row_matvec to the top of its frame
    func.call @row_matvec(%wl, %out, %n) : (memref<?xmemref<?xf32>>, memref<?xf32>, index) -> ()
  }
  return
}

// -----

// Static row and table sizes stay static; a dynamic outer size stays dynamic.
// CHECK-LABEL: func.func @static_rows(
// CHECK: %[[S:.*]] = memref.alloc() : memref<4x8xf64>
// CHECK: %[[D:.*]] = memref.alloc(%arg0) : memref<?x8xf64>
// CHECK: memref.load %[[S]][%arg1, %arg1] : memref<4x8xf64>
// CHECK: memref.load %[[D]][%arg1, %arg1] : memref<?x8xf64>
func.func @static_rows(%n: index, %i: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %s = memref.alloc() : memref<4xmemref<8xf64>>
  scf.for %k = %c0 to %c4 step %c1 {
    %row = memref.alloc() : memref<8xf64>
    memref.store %row, %s[%k] : memref<4xmemref<8xf64>>
  }
  %d = memref.alloc(%n) : memref<?xmemref<8xf64>>
  scf.for %k = %c0 to %n step %c1 {
    %row = memref.alloc() : memref<8xf64>
    memref.store %row, %d[%k] : memref<?xmemref<8xf64>>
  }
  %r = memref.load %s[%i] : memref<4xmemref<8xf64>>
  %x = memref.load %r[%i] : memref<8xf64>
  %q = memref.load %d[%i] : memref<?xmemref<8xf64>>
  %y = memref.load %q[%i] : memref<8xf64>
  %z = arith.addf %x, %y : f64
  return %z : f64
}

// -----

// Rows allocated in the rest of a body after an early return (`if (!a) return 1;`, the
// front end's scf.if marked arts.rest_of_body): when the rest runs, every row is allocated;
// when it does not, nothing uses them. The table is raised where it is allocated.
// CHECK-LABEL: func.func @rows_after_early_return(
// CHECK: %[[A:.*]] = memref.alloc(%arg0, %{{[^)]*}}) : memref<?x?xf32>
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %[[A]][%arg1, %arg1] : memref<?x?xf32>
func.func @rows_after_early_return(%n: index, %i: index, %failed: i1, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.if %failed {
  } else {
    scf.for %k = %c0 to %n step %c1 {
      %row = memref.alloc(%n) : memref<?xf32>
      memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
    }
    %r = memref.load %a[%i] : memref<?xmemref<?xf32>>
    memref.store %v, %r[%i] : memref<?xf32>
  } {arts.rest_of_body}
  return
}

// -----

// Two tables sharing their init loop, their free loop and a loop of unused reads: both
// are raised and the loops left empty go.
// CHECK-LABEL: func.func @shared_loops(
// CHECK: %[[A:.*]] = memref.alloc(%arg0, %{{[^)]*}}) : memref<?x?xf32>
// CHECK: %[[B:.*]] = memref.alloc(%arg0, %{{[^)]*}}) : memref<?x?xf32>
// CHECK-NOT: scf.for
// CHECK: memref.dealloc %[[A]] : memref<?x?xf32>
// CHECK-NEXT: memref.dealloc %[[B]] : memref<?x?xf32>
// CHECK-NEXT: return
func.func @shared_loops(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // Each shared loop is counted once, for the first table.
  // DEBUG-DAG: [canonicalize-memrefs] {{.*}}raise.mlir:[[@LINE+1]]:8: raised memref<?xmemref<?xf32>> to memref<?x?xf32> (1 load and 0 stores rewritten, 1 init loop, 1 free loop, 1 emptied loop and 2 deallocs removed)
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  %b = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c0 to %n step %c1 {
    %ra = memref.alloc(%n) : memref<?xf32>
    memref.store %ra, %a[%k] : memref<?xmemref<?xf32>>
    %rb = memref.alloc(%n) : memref<?xf32>
    memref.store %rb, %b[%k] : memref<?xmemref<?xf32>>
  }
  scf.for %k = %c0 to %n step %c1 {
    %ra = memref.load %a[%k] : memref<?xmemref<?xf32>>
    %x = memref.load %ra[%c0] : memref<?xf32>
    %rb = memref.load %b[%k] : memref<?xmemref<?xf32>>
    %y = memref.load %rb[%c0] : memref<?xf32>
  }
  scf.for %k = %c0 to %n step %c1 {
    %ra = memref.load %a[%k] : memref<?xmemref<?xf32>>
    memref.dealloc %ra : memref<?xf32>
    %rb = memref.load %b[%k] : memref<?xmemref<?xf32>>
    memref.dealloc %rb : memref<?xf32>
  }
  memref.dealloc %a : memref<?xmemref<?xf32>>
  memref.dealloc %b : memref<?xmemref<?xf32>>
  return
}

// -----

// Sizes read from a local variable (`int n; n = ...` lives in memory) that is not assigned
// while the rows are allocated; null checks of the table and of a row test the 2-D array.
// CHECK-LABEL: func.func @sizes_in_variables(
// CHECK: %[[N:.*]] = memref.load %[[SLOT:.*]][] : memref<index>
// CHECK: %[[M:.*]] = memref.load %[[SLOT]][] : memref<index>
// CHECK: %[[A:.*]] = memref.alloc(%[[N]], %{{[^)]*}}) : memref<?x?xf32>
// CHECK: memref.extract_aligned_pointer_as_index %[[A]] : memref<?x?xf32> -> index
// CHECK: memref.extract_aligned_pointer_as_index %[[A]] : memref<?x?xf32> -> index
// CHECK: memref.store %{{.*}}, %[[SLOT]][] : memref<index>
func.func @sizes_in_variables(%init: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %slot = memref.alloca() : memref<index>
  memref.store %init, %slot[] : memref<index>
  %n = memref.load %slot[] : memref<index>
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  %p = memref.extract_aligned_pointer_as_index %a : memref<?xmemref<?xf32>> -> index
  %ub = memref.load %slot[] : memref<index>
  scf.for %k = %c0 to %ub step %c1 {
    %m = memref.load %slot[] : memref<index>
    %row = memref.alloc(%m) : memref<?xf32>
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  %r = memref.load %a[%c0] : memref<?xmemref<?xf32>>
  %q = memref.extract_aligned_pointer_as_index %r : memref<?xf32> -> index
  memref.store %c0, %slot[] : memref<index>
  %s = arith.addi %p, %q : index
  return %s : index
}

// -----

// 1-D arrays are left as they are.
// CHECK-LABEL: func.func @flat(
// CHECK-NEXT: %[[A:.*]] = memref.alloc(%arg0) : memref<?xf32>
// CHECK-NEXT: %[[V:.*]] = memref.load %[[A]][%arg1] : memref<?xf32>
// CHECK-NEXT: memref.dealloc %[[A]] : memref<?xf32>
func.func @flat(%n: index, %i: index) -> f32 {
  %a = memref.alloc(%n) : memref<?xf32>
  %v = memref.load %a[%i] : memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return %v : f32
}

//--- program.mlir

// In a program (a module defining main) a public function nobody calls any more is
// erased too: nothing but main can reach it, and its pointer-table parameters would stay.
// PROGRAM-NOT: func.func @scale
// PROGRAM-LABEL: func.func @main(
// PROGRAM: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf32>
// PROGRAM-NOT: xmemref
func.func @scale(%a: memref<?xmemref<?xf32>>, %i: index) -> f32 {
  %r = memref.load %a[%i] : memref<?xmemref<?xf32>>
  %v = memref.load %r[%i] : memref<?xf32>
  return %v : f32
}
func.func @main(%n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c0 to %n step %c1 {
    %row = memref.alloc(%n) : memref<?xf32>
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  %v = call @scale(%a, %c0) : (memref<?xmemref<?xf32>>, index) -> f32
  return %v : f32
}

//--- locs.mlir

// Inlined ops keep their own location with the call site stacked on it; the N-D array
// is located at the call that allocated the table (then at the helper's malloc).
func.func private @alloc_rows(%n: index) -> memref<?xmemref<?xf32>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c0 to %n step %c1 {
    %row = memref.alloc(%n) : memref<?xf32>
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  return %a : memref<?xmemref<?xf32>>
}
func.func private @get(%a: memref<?xmemref<?xf32>>, %i: index) -> f32 {
  %r = memref.load %a[%i] : memref<?xmemref<?xf32>>
  %v = memref.load %r[%i] : memref<?xf32>
  return %v : f32
}
func.func @main(%n: index, %i: index) -> f32 {
  %a = call @alloc_rows(%n) : (index) -> memref<?xmemref<?xf32>>
  %v = call @get(%a, %i) : (memref<?xmemref<?xf32>>, index) -> f32
  return %v : f32
}
// LOC: memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf32> loc(#[[ARRAY:loc[0-9]*]])
// LOC: memref.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf32> loc(#[[LOAD:loc[0-9]*]])
// LOC-DAG: #[[MALLOC:loc[0-9]*]] = loc("{{.*}}locs.mlir":[[#@LINE-19]]:8)
// LOC-DAG: #[[ELEMENT:loc[0-9]*]] = loc("{{.*}}locs.mlir":[[#@LINE-11]]:8)
// LOC-DAG: #[[ALLOC_CALL:loc[0-9]*]] = loc("{{.*}}locs.mlir":[[#@LINE-8]]:8)
// LOC-DAG: #[[GET_CALL:loc[0-9]*]] = loc("{{.*}}locs.mlir":[[#@LINE-8]]:8)
// LOC-DAG: #[[ARRAY]] = loc(fused[#[[ALLOC_CALL]], #[[MALLOC_AT_CALL:loc[0-9]*]]])
// LOC-DAG: #[[MALLOC_AT_CALL]] = loc(callsite(#[[MALLOC]] at #[[ALLOC_CALL]]))
// LOC-DAG: #[[LOAD]] = loc(callsite(#[[ELEMENT]] at #[[GET_CALL]]))

//--- invalid.mlir

// A row passed to a function that stays (it is recursive) cannot follow the array.
func.func private @walk(%row: memref<?xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %m = arith.subi %n, %c1 : index
  call @walk(%row, %m) : (memref<?xf32>, index) -> ()
  return
}
func.func @row_to_recursive_call(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{array allocated here}}
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c0 to %n step %c1 {
    %row = memref.alloc(%n) : memref<?xf32>
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  %r = memref.load %a[%c0] : memref<?xmemref<?xf32>>
  // expected-error @+1 {{cannot raise 'memref<?xmemref<?xf32>>': a row is passed to a call that is not inlined (@walk)}}
  call @walk(%r, %n) : (memref<?xf32>, index) -> ()
  return
}

// -----

// The table kept in a pointer variable (a memref slot) escapes.
func.func @table_in_slot(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %slot = memref.alloca() : memref<memref<?xmemref<?xf32>>>
  // expected-note @+1 {{array allocated here}}
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c0 to %n step %c1 {
    %row = memref.alloc(%n) : memref<?xf32>
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  // expected-error @+1 {{the array is stored into other memory}}
  memref.store %a, %slot[] : memref<memref<?xmemref<?xf32>>>
  return
}

// -----

// A row copied into a pointer variable escapes.
func.func @row_in_slot(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %slot = memref.alloca() : memref<memref<?xf32>>
  // expected-note @+1 {{array allocated here}}
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c0 to %n step %c1 {
    %row = memref.alloc(%n) : memref<?xf32>
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  %r = memref.load %a[%c0] : memref<?xmemref<?xf32>>
  // expected-error @+1 {{a row is stored into other memory}}
  memref.store %r, %slot[] : memref<memref<?xf32>>
  return
}

// -----

// Rows allocated from index 1 on: row 0 is never allocated.
func.func @partial_rows(%n: index) {
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{array allocated here}}
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c1 to %n step %c1 {
    %row = memref.alloc(%n) : memref<?xf32>
    // expected-error @+1 {{partially initialised: the rows of dimension 1 are not allocated for every index of dimension 0}}
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  return
}

// -----

// Rows allocated under a condition.
func.func @conditional_rows(%n: index, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{array allocated here}}
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c0 to %n step %c1 {
    scf.if %c {
      %row = memref.alloc(%n) : memref<?xf32>
      // expected-error @+1 {{partially initialised: the rows of dimension 1 are allocated under 'scf.if', not in loops over the whole array}}
      memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
    }
  }
  return
}

// -----

// A triangular table: row k has k + 1 elements.
func.func @triangular(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{array allocated here}}
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c0 to %n step %c1 {
    %len = arith.addi %k, %c1 : index
    // expected-error @+1 {{the rows of dimension 1 have different sizes (the size depends on a loop variable)}}
    %row = memref.alloc(%len) : memref<?xf32>
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  return
}

// -----

// A row size only known after the table is allocated (read from memory).
func.func @late_size(%n: index, %m: memref<index>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{array allocated here}}
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  %len = memref.load %m[] : memref<index>
  scf.for %k = %c0 to %n step %c1 {
    // expected-error @+1 {{the size of dimension 1 is not available where the array is allocated}}
    %row = memref.alloc(%len) : memref<?xf32>
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  return
}

// -----

// A row that is not a fresh allocation (rows shared with another array).
func.func @borrowed_row(%n: index, %other: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{array allocated here}}
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c0 to %n step %c1 {
    // expected-error @+1 {{a row that is not a fresh allocation is stored into it}}
    memref.store %other, %a[%k] : memref<?xmemref<?xf32>>
  }
  return
}

// -----

// Rows replaced after the table was filled (a second allocation of the same rows).
func.func @rows_reallocated(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{array allocated here}}
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c0 to %n step %c1 {
    %row = memref.alloc(%n) : memref<?xf32>
    // expected-note @+1 {{rows of dimension 1 also allocated here}}
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  scf.for %k = %c0 to %n step %c1 {
    %row = memref.alloc(%n) : memref<?xf32>
    // expected-error @+1 {{the rows of dimension 1 are allocated by more than one store}}
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  return
}

// -----

// Every index holds the same row: the rows alias, an N-D array would separate them.
func.func @shared_row(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{array allocated here}}
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  %row = memref.alloc(%n) : memref<?xf32>
  scf.for %k = %c0 to %n step %c1 {
    // expected-error @+1 {{the rows of dimension 1 share one allocation made outside their loop}}
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  return
}

// -----

// A row size held in a variable that changes while the rows are allocated.
func.func @size_variable_changes(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %slot = memref.alloca() : memref<index>
  memref.store %n, %slot[] : memref<index>
  // expected-note @+1 {{array allocated here}}
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c0 to %n step %c1 {
    %m = memref.load %slot[] : memref<index>
    // expected-error @+1 {{the rows of dimension 1 may have different sizes (the size is read from a variable assigned while the rows are allocated)}}
    %row = memref.alloc(%m) : memref<?xf32>
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
    %m2 = arith.addi %m, %c1 : index
    memref.store %m2, %slot[] : memref<index>
  }
  return
}

// -----

// A table whose rows are never allocated.
func.func @no_rows(%n: index) {
  // expected-error @+1 {{no row of dimension 1 is ever allocated}}
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  memref.dealloc %a : memref<?xmemref<?xf32>>
  return
}

// -----

// A table returned to the caller of a function that stays (main is never inlined).
func.func @main(%n: index) -> memref<?xmemref<?xf32>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{array allocated here}}
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c0 to %n step %c1 {
    %row = memref.alloc(%n) : memref<?xf32>
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  // expected-error @+1 {{the array is returned by 'func.return'}}
  return %a : memref<?xmemref<?xf32>>
}

//--- located.mlir

// The rendered error names the offending op's file:line:col and the allocation.
func.func @partial(%n: index) {
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c1 to %n step %c1 {
    %row = memref.alloc(%n) : memref<?xf32>
    // LOCATED: located.mlir:[[@LINE+2]]:5: error: cannot raise 'memref<?xmemref<?xf32>>': partially initialised
    // LOCATED: located.mlir:[[@LINE-4]]:8: note: array allocated here
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  // Parallel code reads the array, so it must become N-D.
  omp.parallel {
    %r = memref.load %a[%c1] : memref<?xmemref<?xf32>>
    omp.terminator
  }
  return
}

//--- kept.mlir

// The same partially initialised table, seen by no parallel code (only `other` is): it stays
// a table of rows, without a diagnostic; the raisable table beside it is still raised.
// KEPT-LABEL: func.func @partial_sequential(
// KEPT: %[[A:.*]] = memref.alloc(%{{.*}}) : memref<?xmemref<?xf32>>
// KEPT: memref.store %{{.*}}, %[[A]][%{{.*}}] : memref<?xmemref<?xf32>>
// KEPT: memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf32>
// KEPT: omp.parallel
func.func @partial_sequential(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c1 to %n step %c1 {
    %row = memref.alloc(%n) : memref<?xf32>
    memref.store %row, %a[%k] : memref<?xmemref<?xf32>>
  }
  %other = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %k = %c0 to %n step %c1 {
    %row = memref.alloc(%n) : memref<?xf32>
    memref.store %row, %other[%k] : memref<?xmemref<?xf32>>
  }
  omp.parallel {
    %r = memref.load %other[%c1] : memref<?xmemref<?xf32>>
    %v = memref.load %r[%c0] : memref<?xf32>
    omp.terminator
  }
  return
}

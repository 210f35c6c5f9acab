// arts-fold-reshapes alone (then canonicalize, as the stage runs it): an allocation seen
// through reshaped views becomes one allocation of the coarsest shape among them, into
// which the finer accesses linearise their groups of indices; an allocation with another
// use stays as it is.
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(arts-fold-reshapes,canonicalize)' | FileCheck %s
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-fold-reshapes)' --debug-only=canonicalize-memrefs 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// Flat memory indexed through a pointer to rows of 64 (`(double (*)[64]) flat`): the rows
// are the allocation, the free frees it.
// CHECK-LABEL: func.func @rows_of_flat
// CHECK: %[[A:.*]] = memref.alloc() {alignment = 64 : i64} : memref<100x64xf64>
// CHECK-NOT: reinterpret_cast
// CHECK: memref.store %{{.*}}, %[[A]][%arg0, %arg1] : memref<100x64xf64>
// CHECK: memref.load %[[A]][%arg1, %arg0] : memref<100x64xf64>
// CHECK: memref.dealloc %[[A]] : memref<100x64xf64>
// DEBUG: [canonicalize-memrefs] {{.*}}fold-reshapes.mlir:[[@LINE+5]]:11: memref.alloc seen through 1 reshaped view(s) -> one allocation of memref<?x64xf64>
func.func @rows_of_flat(%i: index, %j: index, %v: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %n = arith.constant 6400 : index
  %flat = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf64>
  %d = memref.dim %flat, %c0 : memref<?xf64>
  %rows = arith.divui %d, %c64 : index
  %a = memref.reinterpret_cast %flat to offset: [0], sizes: [%rows, 64], strides: [64, 1] : memref<?xf64> to memref<?x64xf64>
  memref.store %v, %a[%i, %j] : memref<?x64xf64>
  %x = memref.load %a[%j, %i] : memref<?x64xf64>
  memref.dealloc %flat : memref<?xf64>
  return %x : f64
}

// -----

// PolyBench's pointer to a whole array (`double (*B)[N][M]`, assigned after its
// declaration, so held in a pointer variable) indexed as `(*B)[i][j]` and passed on as its
// rows (`*B`, a collapse): the rows' shape, the coarser, into which `(*B)[i][j]` is
// `[0 * 100 + i][j]`.
// CHECK-LABEL: func.func @whole_array_rows
// CHECK: %[[B:.*]] = memref.alloc() : memref<100x80xf64>
// CHECK-NOT: memref.alloca
// CHECK: memref.store %{{.*}}, %[[B]][%arg0, %arg1] : memref<100x80xf64>
// CHECK: memref.load %[[B]][%arg0, %arg1] : memref<100x80xf64>
// CHECK: memref.dealloc %[[B]] : memref<100x80xf64>
// DEBUG: [canonicalize-memrefs] {{.*}}fold-reshapes.mlir:[[@LINE+4]]:8: memref.alloc seen through 2 reshaped view(s) -> one allocation of memref<?x80xf64>
func.func @whole_array_rows(%i: index, %j: index, %v: f64) -> f64 {
  %c0 = arith.constant 0 : index
  %slot = memref.alloca() : memref<memref<?x100x80xf64>>
  %b = memref.alloc() : memref<1x100x80xf64>
  %cast = memref.cast %b : memref<1x100x80xf64> to memref<?x100x80xf64>
  memref.store %cast, %slot[] : memref<memref<?x100x80xf64>>
  %p = memref.load %slot[] : memref<memref<?x100x80xf64>>
  memref.store %v, %p[%c0, %i, %j] : memref<?x100x80xf64>
  %q = memref.load %slot[] : memref<memref<?x100x80xf64>>
  %rows = memref.collapse_shape %q [[0, 1], [2]] : memref<?x100x80xf64> into memref<?x80xf64>
  %x = memref.load %rows[%i, %j] : memref<?x80xf64>
  %r = memref.load %slot[] : memref<memref<?x100x80xf64>>
  memref.dealloc %r : memref<?x100x80xf64>
  return %x : f64
}

// -----

// Flat accesses beside the rows: the flat array, the coarsest, stays the allocation; the
// rows' accesses linearise their indices.
// CHECK-LABEL: func.func @flat_and_rows
// CHECK: %[[A:.*]] = memref.alloc() : memref<128xf32>
// CHECK-NOT: reinterpret_cast
// CHECK: memref.store %{{.*}}, %[[A]][%arg1] : memref<128xf32>
// CHECK: %[[R:.*]] = arith.muli %arg0, %c8 : index
// CHECK: %[[L:.*]] = arith.addi %[[R]], %arg0 : index
// CHECK: memref.load %[[A]][%[[L]]] : memref<128xf32>
func.func @flat_and_rows(%i: index, %k: index, %v: f32) -> f32 {
  %flat = memref.alloc() : memref<128xf32>
  %a = memref.reinterpret_cast %flat to offset: [0], sizes: [16, 8], strides: [8, 1] : memref<128xf32> to memref<16x8xf32, strided<[8, 1]>>
  memref.store %v, %flat[%k] : memref<128xf32>
  %x = memref.load %a[%i, %i] : memref<16x8xf32, strided<[8, 1]>>
  %y = memref.load %a[%i, %k] : memref<16x8xf32, strided<[8, 1]>>
  %s = arith.addf %x, %y : f32
  return %s : f32
}

// -----

// A view passed to a call: left as it is.
// CHECK-LABEL: func.func @view_passed_on
// CHECK: memref.alloc() : memref<128xf32>
// CHECK: memref.reinterpret_cast
func.func private @use(memref<16x8xf32, strided<[8, 1]>>)
func.func @view_passed_on() {
  %flat = memref.alloc() : memref<128xf32>
  %a = memref.reinterpret_cast %flat to offset: [0], sizes: [16, 8], strides: [8, 1] : memref<128xf32> to memref<16x8xf32, strided<[8, 1]>>
  func.call @use(%a) : (memref<16x8xf32, strided<[8, 1]>>) -> ()
  return
}

// -----

// Rows of 6 and rows of 4 of one allocation: neither groups into the other, both into the
// flat array, which stays the allocation; each access linearises its indices.
// CHECK-LABEL: func.func @shapes_apart
// CHECK: %[[A:.*]] = memref.alloc() : memref<24xf32>
// CHECK-NOT: reinterpret_cast
// CHECK: %[[K:.*]] = arith.muli %arg0, %c6 : index
// CHECK: %[[L:.*]] = arith.addi %[[K]], %arg0 : index
// CHECK: memref.store %{{.*}}, %[[A]][%[[L]]] : memref<24xf32>
// CHECK: %[[M:.*]] = arith.muli %arg0, %c4 : index
// CHECK: %[[N:.*]] = arith.addi %[[M]], %arg0 : index
// CHECK: memref.store %{{.*}}, %[[A]][%[[N]]] : memref<24xf32>
func.func @shapes_apart(%i: index, %v: f32) -> f32 {
  %flat = memref.alloc() : memref<24xf32>
  %a = memref.reinterpret_cast %flat to offset: [0], sizes: [4, 6], strides: [6, 1] : memref<24xf32> to memref<4x6xf32, strided<[6, 1]>>
  %b = memref.reinterpret_cast %flat to offset: [0], sizes: [6, 4], strides: [4, 1] : memref<24xf32> to memref<6x4xf32, strided<[4, 1]>>
  memref.store %v, %a[%i, %i] : memref<4x6xf32, strided<[6, 1]>>
  memref.store %v, %b[%i, %i] : memref<6x4xf32, strided<[4, 1]>>
  %x = memref.load %flat[%i] : memref<24xf32>
  return %x : f32
}


// -----

// Rows of 6 and rows of 4 of a 2x12 allocation: no shape is the coarsest, left as it is.
// CHECK-LABEL: func.func @no_coarsest
// CHECK: memref.alloc() : memref<2x12xf32>
// CHECK-COUNT-2: memref.reinterpret_cast
func.func @no_coarsest(%i: index, %v: f32) -> f32 {
  %m = memref.alloc() : memref<2x12xf32>
  %a = memref.reinterpret_cast %m to offset: [0], sizes: [4, 6], strides: [6, 1] : memref<2x12xf32> to memref<4x6xf32, strided<[6, 1]>>
  %b = memref.reinterpret_cast %m to offset: [0], sizes: [6, 4], strides: [4, 1] : memref<2x12xf32> to memref<6x4xf32, strided<[4, 1]>>
  memref.store %v, %a[%i, %i] : memref<4x6xf32, strided<[6, 1]>>
  %x = memref.load %b[%i, %i] : memref<6x4xf32, strided<[4, 1]>>
  %y = memref.load %m[%i, %i] : memref<2x12xf32>
  %s = arith.addf %x, %y : f32
  return %s : f32
}

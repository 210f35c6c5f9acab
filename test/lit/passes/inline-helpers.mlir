// arts-inline-helpers alone: calls to defined non-recursive functions are inlined callees
// first, a callee's fixed-size locals move to the top of the caller's frame, functions
// left without calls are erased (private ones always, public ones in a program), and a
// pointer table built by a helper stays a table (raising it is the next pass's work). The
// output is checked per case, the decisions on the debug channel as one module (so that
// locations are the file's lines).
// RUN: split-file %s %t --leading-lines
// RUN: carts-opt %t/helpers.mlir --split-input-file --pass-pipeline='builtin.module(arts-inline-helpers)' | FileCheck %s
// RUN: carts-opt %t/helpers.mlir --pass-pipeline='builtin.module(arts-inline-helpers)' --debug-only=canonicalize-memrefs 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG
// RUN: carts-opt %t/program.mlir --pass-pipeline='builtin.module(arts-inline-helpers)' | FileCheck %s --check-prefix=PROGRAM

//--- helpers.mlir

// A helper calling a helper: both are inlined (the inner one into the outer first), the
// table they build is still a table in the caller, and neither helper is left.
// CHECK-LABEL: func.func @build(
// CHECK-NOT: call
// CHECK: %[[T:.*]] = memref.alloc(%{{.*}}) : memref<?xmemref<?xf32>>
// CHECK: scf.for
// CHECK: %[[ROW:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: memref.store %[[ROW]], %[[T]][%{{.*}}] : memref<?xmemref<?xf32>>
// CHECK: return %[[T]] : memref<?xmemref<?xf32>>
// CHECK-NOT: func.func private @alloc_row
// CHECK-NOT: func.func private @alloc_table
func.func private @alloc_row(%n: index) -> memref<?xf32> {
  %r = memref.alloc(%n) : memref<?xf32>
  return %r : memref<?xf32>
}
func.func private @alloc_table(%n: index) -> memref<?xmemref<?xf32>> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloc(%n) : memref<?xmemref<?xf32>>
  scf.for %i = %c0 to %n step %c1 {
    // DEBUG-DAG: [canonicalize-memrefs] {{.*}}helpers.mlir:[[@LINE+1]]:10: inlined alloc_row into alloc_table
    %r = func.call @alloc_row(%n) : (index) -> memref<?xf32>
    memref.store %r, %t[%i] : memref<?xmemref<?xf32>>
  }
  return %t : memref<?xmemref<?xf32>>
}
func.func @build(%n: index) -> memref<?xmemref<?xf32>> {
  // DEBUG-DAG: [canonicalize-memrefs] {{.*}}helpers.mlir:[[@LINE+1]]:8: inlined alloc_table into build
  %t = call @alloc_table(%n) : (index) -> memref<?xmemref<?xf32>>
  return %t : memref<?xmemref<?xf32>>
}
// DEBUG-DAG: [canonicalize-memrefs] {{.*}}helpers.mlir:{{[0-9]+}}:1: erased alloc_table: no call left

// -----

// A helper with a local, called in a loop: its alloca moves to the top of the caller (the
// stack does not grow each iteration), and its uses stay in the loop.
// CHECK-LABEL: func.func @sum_rows(
// CHECK-NEXT: %[[ACC:.*]] = memref.alloca() : memref<f32>
// CHECK-NOT: memref.alloca
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[ACC]][] : memref<f32>
// CHECK: memref.load %[[ACC]][] : memref<f32>
func.func private @square(%x: f32) -> f32 {
  %acc = memref.alloca() : memref<f32>
  %y = arith.mulf %x, %x : f32
  memref.store %y, %acc[] : memref<f32>
  %z = memref.load %acc[] : memref<f32>
  return %z : f32
}
func.func @sum_rows(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    // DEBUG-DAG: [canonicalize-memrefs] {{.*}}helpers.mlir:[[@LINE+2]]:10: inlined square into sum_rows
    // DEBUG-DAG: [canonicalize-memrefs] {{.*}}helpers.mlir:[[@LINE+1]]:10: moved 1 local of square to the top of its frame
    %y = func.call @square(%x) : (f32) -> f32
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}

// -----

// Outside a program (no main) a public function stays even when nothing calls it.
// CHECK-LABEL: func.func @unused_public(
func.func @unused_public(%x: i32) -> i32 {
  return %x : i32
}

// -----

// A recursive function is kept and keeps its recursive call; the non-recursive helper it
// calls is inlined into it.
// CHECK-LABEL: func.func private @countdown(
// CHECK-NOT: call @twice
// CHECK: arith.muli
// CHECK: call @countdown(
// CHECK-LABEL: func.func @start(
// CHECK: call @countdown(
// CHECK-NOT: func.func private @twice
func.func private @twice(%x: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %y = arith.muli %x, %c2 : i32
  return %y : i32
}
func.func private @countdown(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %done = arith.cmpi sle, %x, %c0 : i32
  %r = scf.if %done -> i32 {
    scf.yield %c0 : i32
  } else {
    %d = func.call @twice(%x) : (i32) -> i32
    %m = arith.subi %x, %c1 : i32
    // DEBUG-DAG: [canonicalize-memrefs] {{.*}}helpers.mlir:[[@LINE+1]]:10: not inlined countdown into countdown: it is recursive
    %s = func.call @countdown(%m) : (i32) -> i32
    %t = arith.addi %d, %s : i32
    scf.yield %t : i32
  }
  return %r : i32
}
func.func @start(%x: i32) -> i32 {
  %r = call @countdown(%x) : (i32) -> i32
  return %r : i32
}

//--- program.mlir

// In a program (a module defining main) a public function nobody calls any more is
// erased too: nothing but main can reach it.
// PROGRAM-NOT: func.func @twice
// PROGRAM-LABEL: func.func @main(
// PROGRAM-NEXT: %[[C:.*]] = arith.constant 2 : i32
// PROGRAM-NEXT: %[[Y:.*]] = arith.muli %{{.*}}, %[[C]] : i32
// PROGRAM-NEXT: return %[[Y]] : i32
// PROGRAM-NOT: func.func
func.func @twice(%x: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %y = arith.muli %x, %c2 : i32
  return %y : i32
}
func.func @main(%x: i32) -> i32 {
  %y = call @twice(%x) : (i32) -> i32
  return %y : i32
}

// arts-epochs: a barrier groups the task launches before it into an epoch and disappears; a
// task outside any epoch gets its own; tasks inside tasks are left alone.
// RUN: split-file %s %t --leading-lines
// RUN: carts-opt %t/convert.mlir --split-input-file --pass-pipeline='builtin.module(arts-epochs)' | FileCheck %s
// RUN: carts-opt %t/invalid.mlir --pass-pipeline='builtin.module(arts-epochs)' --verify-diagnostics -o /dev/null

//--- convert.mlir

// The launches since the last sync point move into the epoch; host code before them stays out.
// CHECK-LABEL: func.func @barrier
// CHECK: memref.store
// CHECK-NEXT: %{{.*}} = arts.epoch {
// CHECK-NEXT: arts.edt <task>
// CHECK-NEXT: }
// CHECK-NEXT: arts.edt <task>
// CHECK-NEXT: arts.edt <task>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NOT: arts.barrier
func.func @barrier(%m: memref<f32>, %v: f32) {
  %r = arith.constant 0 : i32
  memref.store %v, %m[] : memref<f32>
  arts.edt <task> <intranode> route(%r) {
  }
  arts.edt <task> <intranode> route(%r) {
    arts.edt <task> <intranode> route(%r) {
    }
  }
  arts.barrier
  return
}

// -----

// A lone task gets an epoch of its own; a barrier with nothing before it just goes.
// CHECK-LABEL: func.func @lone
// CHECK: arts.epoch {
// CHECK-NEXT: arts.edt <single>
// CHECK-NOT: arts.barrier
func.func @lone() {
  %r = arith.constant 0 : i32
  arts.barrier
  arts.edt <single> <intranode> route(%r) {
  }
  return
}

//--- invalid.mlir

// A value defined among the launches and used after the barrier cannot be grouped.
func.func @escaping(%n: index) -> index {
  %r = arith.constant 0 : i32
  arts.edt <task> <intranode> route(%r) {
  }
  %x = arith.addi %n, %n : index
  // expected-error @+1 {{cannot group the tasks before this barrier into an epoch: a value they define is used after it}}
  arts.barrier
  return %x : index
}

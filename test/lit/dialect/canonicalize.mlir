// Canonicalization patterns of the ARTS dialect.
// RUN: carts-opt %s --split-input-file --pass-pipeline='builtin.module(canonicalize)' | FileCheck %s

// A work-sharing loop with constant bounds and no iteration is erased.
// CHECK-LABEL: func.func @zero_trip_for
// CHECK: arts.edt <parallel>
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
func.func @zero_trip_for(%r: i32, %m: memref<f32>) {
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  arts.edt <parallel> <intranode> route(%r) {
    memref.store %f, %m[] : memref<f32>
    arts.for (%c4) to (%c4) step (%c1) {
    ^bb0(%i: index):
      memref.store %f, %m[] : memref<f32>
    }
  }
  return
}

// -----

// A loop with iterations, or with bounds unknown at compile time, stays.
// CHECK-LABEL: func.func @loops_that_run
// CHECK: arts.for (%{{.*}}) to (%{{.*}}) step
// CHECK: arts.for (%{{.*}}) to (%{{.*}}) step
func.func @loops_that_run(%r: i32, %m: memref<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  arts.edt <parallel> <intranode> route(%r) {
    arts.for (%c0) to (%c1) step (%c1) {
    ^bb0(%i: index):
      memref.store %f, %m[] : memref<f32>
    }
    arts.for (%c1) to (%n) step (%c1) {
    ^bb0(%i: index):
      memref.store %f, %m[] : memref<f32>
    }
  }
  return
}

// -----

// An epoch that launches nothing and whose GUID is unused is erased; one whose
// GUID is used, or which launches a task with an effect, stays; a task without
// any effect is dead code too.
// CHECK-LABEL: func.func @epochs
// CHECK-NOT: arts.epoch {
// CHECK: %[[USED:.*]] = arts.epoch {
// CHECK-NEXT: }
// CHECK: arts.wait_on_epoch %[[USED]]
// CHECK: arts.epoch {
// CHECK-NEXT: arts.edt <task>
// CHECK-NOT: arts.epoch
func.func @epochs(%r: i32, %m: memref<f32>, %f: f32) {
  %unused = arts.epoch {
  }
  %used = arts.epoch {
  }
  arts.wait_on_epoch %used
  %busy = arts.epoch {
    arts.edt <task> <intranode> route(%r) {
      memref.store %f, %m[] : memref<f32>
    }
  }
  %idle = arts.epoch {
    arts.edt <task> <intranode> route(%r) {
    }
  }
  return
}

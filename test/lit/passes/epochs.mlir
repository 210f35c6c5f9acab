// arts-epochs: a barrier groups the task launches before it into an epoch and disappears; a
// task outside any epoch gets its own; tasks inside tasks are left alone.
// RUN: split-file %s %t --leading-lines
// RUN: carts-opt %t/convert.mlir --split-input-file --pass-pipeline='builtin.module(arts-epochs)' | FileCheck %s
// RUN: carts-opt %t/invalid.mlir --split-input-file --pass-pipeline='builtin.module(arts-epochs)' --verify-diagnostics -o /dev/null

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

// -----

// Host arithmetic among the launches whose value is used after the barrier (here inside a
// loop) moves ahead of the epoch; a loop whose tasks already wait in epochs of its own is
// not a launch, so the epoch starts at the task, after it.
// CHECK-LABEL: func.func @hoisted
// CHECK: scf.for
// CHECK: arts.epoch
// CHECK: %[[G:.*]] = memref.get_global @g
// CHECK-NEXT: %[[X:.*]] = arith.addi
// CHECK-NEXT: %{{.*}} = arts.epoch {
// CHECK-NEXT: arts.edt <task>
// CHECK: scf.for
// CHECK: memref.load %[[G]]
// CHECK: arith.addi %[[X]]
memref.global "private" @g : memref<2xindex> = dense<0>
func.func @hoisted(%n: index) {
  %r = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %t = %c0 to %c2 step %c1 {
    %e = arts.epoch {
      arts.edt <task> <intranode> route(%r) {
      }
    }
  }
  %g = memref.get_global @g : memref<2xindex>
  %x = arith.addi %n, %n : index
  arts.edt <task> <intranode> route(%r) {
  }
  arts.barrier
  scf.for %i = %c0 to %c2 step %c1 {
    %v = memref.load %g[%i] : memref<2xindex>
    %w = arith.addi %x, %v : index
    memref.store %w, %g[%i] : memref<2xindex>
  }
  return
}

//--- invalid.mlir

// A value read among the launches and used after the barrier cannot be grouped: the read
// may not move ahead of the tasks.
func.func @escaping(%m: memref<index>) -> index {
  %r = arith.constant 0 : i32
  arts.edt <task> <intranode> route(%r) {
  }
  %x = memref.load %m[] : memref<index>
  // expected-error @+1 {{cannot group the tasks before this barrier into an epoch: a value they define is used after it}}
  arts.barrier
  return %x : index
}

// -----

// A use nested in a loop after the barrier counts too.
func.func @escaping_into_a_loop(%m: memref<index>, %n: index) {
  %r = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  arts.edt <task> <intranode> route(%r) {
  }
  %x = memref.load %m[] : memref<index>
  // expected-error @+1 {{cannot group the tasks before this barrier into an epoch: a value they define is used after it}}
  arts.barrier
  scf.for %i = %c0 to %n step %c1 {
    memref.store %x, %m[] : memref<index>
  }
  return
}

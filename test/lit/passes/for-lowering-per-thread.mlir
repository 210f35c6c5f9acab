// A per-thread variable of a parallel region used across its barrier (a thread's partial
// result of an `omp for`, combined after it) keeps one slot per worker in a team array,
// indexed by the worker; every part that uses it runs one task per worker, so the loop's
// chunks are the threads and each worker reads back what it wrote.
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-for-lowering,canonicalize,cse)' | FileCheck %s
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-for-lowering)' --debug-only=for-lowering 2>&1 >/dev/null | FileCheck %s --check-prefix=DEBUG

// DEBUG: per-thread memref<f64> used across barriers -> a slot per worker (memref<2xf64>), its parts run one task per worker
// CHECK-LABEL: func.func @partial_max
// CHECK: %[[SLOTS:.*]] = memref.alloc() : memref<2xf64>
// First part: each worker initialises its slot and runs its static share of the loop.
// CHECK: arts.epoch {
// CHECK-NEXT: scf.for %[[W:.*]] = %{{.*}} to %{{.*}} step
// CHECK: arts.edt <task>
// CHECK: memref.store %{{.*}}, %[[SLOTS]][%[[W]]] : memref<2xf64>
// CHECK: scf.for
// CHECK: memref.load %[[SLOTS]][%[[W]]] : memref<2xf64>
// CHECK: memref.store %{{.*}}, %[[SLOTS]][%[[W]]] : memref<2xf64>
// Second part: each worker combines its own slot.
// CHECK: arts.epoch {
// CHECK-NEXT: scf.for %[[W2:.*]] = %{{.*}} to %{{.*}} step
// CHECK: arts.edt <task>
// CHECK: memref.load %[[SLOTS]][%[[W2]]] : memref<2xf64>
// CHECK: arts.critical ""
// CHECK: memref.dealloc %[[SLOTS]] : memref<2xf64>
// CHECK-NOT: arts.runtime_query <current_worker>
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
  func.func @partial_max(%a: memref<100xf64>, %g: memref<f64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    %r = arith.constant 0 : i32
    %low = arith.constant -1.0e30 : f64
    arts.edt <parallel> <intranode> route(%r) attributes {workers = 2 : i64} {
      %local = memref.alloca() : memref<f64>
      memref.store %low, %local[] : memref<f64>
      arts.for (%c0) to (%c100) step (%c1) schedule(<static>) {
      ^bb0(%i: index):
        %v = memref.load %a[%i] : memref<100xf64>
        %m = memref.load %local[] : memref<f64>
        %x = arith.maximumf %v, %m : f64
        memref.store %x, %local[] : memref<f64>
      }
      arts.barrier
      %mine = memref.load %local[] : memref<f64>
      arts.critical "" {
        %cur = memref.load %g[] : memref<f64>
        %y = arith.maximumf %cur, %mine : f64
        memref.store %y, %g[] : memref<f64>
      }
      arts.barrier
    }
    return
  }
}

// A value computed in one part and used after the barrier: the thread's number (and what
// is computed from it alone) is recomputed in the later part; a value computed from what
// the part read (a per-thread variable) travels in a slot per worker, stored where it is
// computed and loaded where it is used.
// DEBUG: a per-thread value used after a barrier of its parallel region -> a slot per worker
// CHECK-LABEL: func.func @values_after_barrier
// CHECK: %[[CODES:.*]] = memref.alloc() : memref<2xi32>
// CHECK: arts.epoch {
// CHECK: arts.edt <task>
// CHECK: %[[CODE:.*]] = arith.addi
// CHECK: memref.store %[[CODE]], %[[CODES]][%[[W:.*]]] : memref<2xi32>
// CHECK: arts.epoch {
// CHECK-NEXT: scf.for %[[W2:.*]] = %{{.*}} to %{{.*}} step
// CHECK: arts.edt <task>
// CHECK: %[[BACK:.*]] = memref.load %[[CODES]][%[[W2]]] : memref<2xi32>
// CHECK: memref.store %[[BACK]], %{{.*}}[%[[W2]]] : memref<2xi32>
// CHECK: memref.dealloc %[[CODES]] : memref<2xi32>
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
  func.func @values_after_barrier(%out: memref<2xi32>, %base: memref<i32>) {
    %r = arith.constant 0 : i32
    arts.edt <parallel> <intranode> route(%r) attributes {workers = 2 : i64} {
      %tid = arts.runtime_query <current_worker> : i32
      %b = memref.load %base[] : memref<i32>
      %code = arith.addi %b, %tid : i32
      arts.barrier
      %t = arith.index_cast %tid : i32 to index
      memref.store %code, %out[%t] : memref<2xi32>
      arts.barrier
    }
    return
  }
}

// A private variable the front end put at the region's top that only a later part uses
// (the counter of a loop after the barrier) moves into that part's task: no slot per
// worker, and the part before the barrier does not hold it.
// CHECK-LABEL: func.func @private_of_a_later_part
// CHECK-NOT: memref.alloc()
// CHECK: arts.epoch {
// CHECK: arts.edt <task>
// CHECK-NOT: memref.alloca
// CHECK: arts.epoch {
// CHECK: arts.edt <task>
// CHECK: %[[T:.*]] = memref.alloca() : memref<i32>
// CHECK: scf.while
// CHECK: memref.load %[[T]][] : memref<i32>
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
  func.func @private_of_a_later_part(%stage: memref<2xi32>, %sum: memref<i32>) {
    %r = arith.constant 0 : i32
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    arts.edt <parallel> <intranode> route(%r) attributes {workers = 2 : i64} {
      %t = memref.alloca() : memref<i32>
      %tid = arts.runtime_query <current_worker> : i32
      %w = arith.index_cast %tid : i32 to index
      memref.store %c1, %stage[%w] : memref<2xi32>
      arts.barrier
      memref.store %c0, %t[] : memref<i32>
      scf.while : () -> () {
        %k = memref.load %t[] : memref<i32>
        %n = arts.runtime_query <total_workers> : i32
        %go = arith.cmpi slt, %k, %n : i32
        scf.condition(%go)
      } do {
        %k = memref.load %t[] : memref<i32>
        %at = arith.index_cast %k : i32 to index
        %v = memref.load %stage[%at] : memref<2xi32>
        %old = memref.atomic_rmw addi %v, %sum[] : (i32, memref<i32>) -> i32
        %next = arith.addi %k, %c1 : i32
        memref.store %next, %t[] : memref<i32>
        scf.yield
      }
      arts.barrier
    }
    return
  }
}

// A loop part's trip count read in the part from a variable outside the team that nothing
// in the team writes (`for (i = 0; i < gn; i++)` over a global `gn`): the launch of each
// part's chunk tasks reads it again, as the part did.
// CHECK-LABEL: func.func @bound_from_unwritten_global
// CHECK: %[[GN:.*]] = memref.get_global @gn : memref<i32>
// CHECK: %[[N:.*]] = memref.load %[[GN]][] : memref<i32>
// CHECK: arith.index_cast %[[N]] : i32 to index
// CHECK: arts.epoch {
// CHECK: arts.edt <task>
// CHECK: %[[M:.*]] = memref.load %[[GN]][] : memref<i32>
// CHECK: arith.index_cast %[[M]] : i32 to index
// CHECK: arts.epoch {
// CHECK: arts.edt <task>
module attributes {arts.nodes = 1 : i64, arts.threads = 2 : i64} {
  memref.global @gn : memref<i32> = dense<0>
  func.func @bound_from_unwritten_global(%a: memref<?xf64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %two = arith.constant 2.0 : f64
    %r = arith.constant 0 : i32
    %gn = memref.get_global @gn : memref<i32>
    arts.edt <parallel> <intranode> route(%r) attributes {workers = 2 : i64} {
      %n = memref.load %gn[] : memref<i32>
      %trips = arith.index_cast %n : i32 to index
      arts.for (%c0) to (%trips) step (%c1) schedule(<static>) {
      ^bb0(%i: index):
        %v = memref.load %a[%i] : memref<?xf64>
        %w = arith.mulf %v, %two : f64
        memref.store %w, %a[%i] : memref<?xf64>
      }
      arts.barrier
      %m = memref.load %gn[] : memref<i32>
      %trips2 = arith.index_cast %m : i32 to index
      arts.for (%c0) to (%trips2) step (%c1) schedule(<static>) {
      ^bb0(%i: index):
        %v = memref.load %a[%i] : memref<?xf64>
        %w = arith.addf %v, %two : f64
        memref.store %w, %a[%i] : memref<?xf64>
      }
      arts.barrier
    }
    return
  }
}

// arts-openmp-to-arts on barriers in control flow: a parallel region around one
// sequential loop holding its barriers becomes the loop around a region per iteration,
// with a region after it for what follows; a barrier or work-sharing loop in a branch
// every thread takes alike leaves the branch.
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-openmp-to-arts)' | FileCheck %s
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-openmp-to-arts)' --debug-only=openmp-to-arts 2>&1 | FileCheck %s --check-prefix=DEBUG
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-openmp-to-arts)' --debug-only=openmp-to-arts 2>&1 | FileCheck %s --check-prefix=UNIFORM
// RUN: carts-opt %s --pass-pipeline='builtin.module(arts-openmp-to-arts)' --debug-only=openmp-to-arts 2>&1 | FileCheck %s --check-prefix=SCRATCH

// Before the loop, the thread's number (computed again in each iteration's region); after
// it, work of its own (a region of its own after the loop); inside it, a barrier and a
// work-sharing loop in a branch every thread takes alike (the step's parity): the branch
// splits around them, the loop running no iteration when the branch is not taken.
// CHECK-LABEL: func.func @time_loop_around
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: arts.edt <parallel>
// CHECK: arts.runtime_query <current_worker>
// CHECK: arts.barrier
// CHECK: %[[UB:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : index
// CHECK: arts.for (%{{.*}}) to (%[[UB]])
// CHECK: arts.barrier
// CHECK: }
// CHECK: arts.edt <parallel>
// CHECK: arts.runtime_query <current_worker>
// CHECK: memref.store
func.func @time_loop_around(%n: index, %a: memref<?xi64>, %seen: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %steps = arith.constant 10 : index
  omp.parallel {
    %me = func.call @omp_get_thread_num() : () -> i32
    %i = arith.index_cast %me : i32 to index
    scf.for %t = %c0 to %steps step %c1 {
      %r = arith.remui %t, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      // DEBUG: [openmp-to-arts] {{.*}}openmp-to-arts-barriers.mlir:[[@LINE+4]]:9: omp.wsloop in a branch every thread takes alike -> out of the branch, which splits around it (the loop empty when the branch is not taken)
      // DEBUG: [openmp-to-arts] {{.*}}openmp-to-arts-barriers.mlir:[[@LINE+2]]:9: omp.barrier in a branch every thread takes alike -> out of the branch, which splits around it
      scf.if %even {
        omp.barrier
        omp.wsloop {
          omp.loop_nest (%k) : index = (%c0) to (%n) step (%c1) {
            %v = memref.load %a[%k] : memref<?xi64>
            %w = arith.addi %v, %v : i64
            memref.store %w, %a[%k] : memref<?xi64>
            omp.yield
          }
        }
      }
    }
    memref.store %me, %seen[%i] : memref<?xi32>
    omp.terminator
  }
  return
}
// DEBUG: [openmp-to-arts] {{.*}}openmp-to-arts-barriers.mlir:{{[0-9]+}}:3: omp.parallel whose body is one sequential loop holding its barriers -> the loop outside, a parallel region per iteration, one more for what follows it
func.func private @omp_get_thread_num() -> i32


// A barrier in a branch on the team's size, held in a local the thread stored it in once
// (`int nt = omp_get_num_threads(); if (nt > 1) { ...; barrier; ... }`): the same answer in
// every thread, so the branch splits around the barrier.
// CHECK-LABEL: func.func @branch_on_team_size
// CHECK: arts.edt <parallel>
// CHECK: scf.if
// CHECK: arts.barrier
// CHECK: scf.if
func.func @branch_on_team_size(%seen: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  omp.parallel {
    %slot = memref.alloca() : memref<i32>
    %nt = func.call @omp_get_num_threads() : () -> i32
    memref.store %nt, %slot[] : memref<i32>
    %n = memref.load %slot[] : memref<i32>
    %many = arith.cmpi sgt, %n, %one : i32
    // UNIFORM: [openmp-to-arts] {{.*}}openmp-to-arts-barriers.mlir:[[@LINE+3]]:7: omp.barrier in a branch every thread takes alike -> out of the branch, which splits around it
    scf.if %many {
      memref.store %one, %seen[%c0] : memref<?xi32>
      omp.barrier
      memref.store %n, %seen[%c0] : memref<?xi32>
    }
    omp.terminator
  }
  return
}
func.func private @omp_get_num_threads() -> i32

// SPMD set-up before the time loop: the thread's own range stored in locals (`int lo =
// tid * n / nt`) and only read afterwards. Each iteration's region stores them again, from
// the thread's number, before its barriers; what follows the loop reads them in a region
// of its own.
// CHECK-LABEL: func.func @spmd_time_loop
// CHECK: scf.for
// CHECK: arts.edt <parallel>
// CHECK: arts.runtime_query <current_worker>
// CHECK: memref.store
// CHECK: arts.barrier
// CHECK: arts.barrier
// CHECK: }
// CHECK: arts.edt <parallel>
// CHECK: arts.runtime_query <current_worker>
// UNIFORM: [openmp-to-arts] {{.*}}openmp-to-arts-barriers.mlir:[[@LINE+6]]:3: omp.parallel whose body is one sequential loop holding its barriers -> the loop outside, a parallel region per iteration, one more for what follows it
func.func @spmd_time_loop(%a: memref<64xf64>, %done: memref<?xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %two = arith.constant 2.0 : f64
  omp.parallel {
    %lo = memref.alloca() : memref<i32>
    %me = func.call @omp_get_thread_num() : () -> i32
    %c16 = arith.constant 16 : i32
    %start = arith.muli %me, %c16 : i32
    memref.store %start, %lo[] : memref<i32>
    scf.for %t = %c0 to %c5 step %c1 {
      %l = memref.load %lo[] : memref<i32>
      %i = arith.index_cast %l : i32 to index
      %v = memref.load %a[%i] : memref<64xf64>
      %w = arith.mulf %v, %two : f64
      memref.store %w, %a[%i] : memref<64xf64>
      omp.barrier
      memref.store %v, %a[%i] : memref<64xf64>
      omp.barrier
    }
    %l2 = memref.load %lo[] : memref<i32>
    %k = arith.index_cast %me : i32 to index
    memref.store %l2, %done[%k] : memref<?xi32>
    omp.terminator
  }
  return
}

// A reduction's own copy (`arts.scratch`: its construct sets it before each use) at the
// top of the region, used only inside the time loop: each iteration's region has its own.
// CHECK-LABEL: func.func @scratch_in_time_loop
// CHECK: scf.for
// CHECK: arts.edt <parallel>
// CHECK: memref.alloca() {arts.scratch} : memref<4xf64>
// CHECK: arts.for
// CHECK: arts.barrier
// SCRATCH: [openmp-to-arts] {{.*}}openmp-to-arts-barriers.mlir:[[@LINE+7]]:3: omp.parallel whose body is one sequential loop holding its barriers -> the loop outside, a parallel region per iteration
func.func @scratch_in_time_loop(%a: memref<100xf64>, %acc: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0.0 : f64
  omp.parallel {
    %mine = memref.alloca() {arts.scratch} : memref<4xf64>
    scf.for %t = %c0 to %c3 step %c1 {
      memref.store %zero, %mine[%c1] : memref<4xf64>
      omp.wsloop nowait {
        omp.loop_nest (%i) : index = (%c0) to (%c100) step (%c1) {
          %v = memref.load %a[%i] : memref<100xf64>
          %m = memref.load %mine[%c1] : memref<4xf64>
          %s = arith.addf %m, %v : f64
          memref.store %s, %mine[%c1] : memref<4xf64>
          omp.yield
        }
      }
      omp.critical {
        %m = memref.load %mine[%c1] : memref<4xf64>
        %x = memref.load %acc[%c1] : memref<4xf64>
        %y = arith.addf %x, %m : f64
        memref.store %y, %acc[%c1] : memref<4xf64>
        omp.terminator
      }
      omp.barrier
    }
    omp.terminator
  }
  return
}
